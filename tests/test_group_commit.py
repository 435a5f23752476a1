"""Group commit of ``llm_calls`` rows (fbagent.store.transaction.hold / commit_held, used by LLMClient): the
rows of the answers of one event-loop iteration share one commit, made at the start of the next iteration,
before any other write transaction, before a checkpoint and on close; the durability contract of
docs/generate.md ("Durability"), on a real SQLite file read through a second connection (what survives a kill
is what another connection sees)."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openai_stub import OpenAIStub, ok  # noqa: E402

from fbagent.llm import make_client  # noqa: E402
from fbagent.schemas import Definition  # noqa: E402
from fbagent.store import llm_calls  # noqa: E402
from fbagent.store.db import close_db, open_db, transaction  # noqa: E402
from fbagent.store.transaction import commit_held, hold, is_held  # noqa: E402

GOOD = {"definition": "to go away from a place"}


def _row(db, key: str) -> int:
    return llm_calls.insert_call(db, run_id=None, item_id=None, task="define", backend="openai", model="m",
                                 cache_key=key, prompt_version=None, request={"messages": []}, response=GOOD,
                                 input_tokens=10, output_tokens=2, latency_ms=1.0, attempts=1, error=None, held=True)


def _on_disk(path: Path) -> list[str]:
    """The cache keys another connection sees (what a kill -9 now would leave)."""
    other = sqlite3.connect(path)
    try:
        return [r[0] for r in other.execute("SELECT cache_key FROM llm_calls ORDER BY id")]
    finally:
        other.close()


def test_held_rows_share_one_commit_and_are_visible_to_their_own_connection(tmp_path):
    db = open_db(tmp_path / "fb.db")
    first, second = _row(db, "a"), _row(db, "b")
    assert is_held(db.conn) and second == first + 1
    assert llm_calls.find_cached(db, "b") is not None      # the cache sees its own connection's rows at once
    assert _on_disk(tmp_path / "fb.db") == []             # not committed yet
    assert commit_held(db.conn) and not is_held(db.conn)
    assert _on_disk(tmp_path / "fb.db") == ["a", "b"]
    assert not commit_held(db.conn)                       # nothing held: a no-op
    close_db(db)


def test_a_write_transaction_commits_held_rows_first_and_its_rollback_keeps_them(tmp_path):
    db = open_db(tmp_path / "fb.db")
    _row(db, "a")
    with pytest.raises(RuntimeError), transaction(db) as conn:
        assert _on_disk(tmp_path / "fb.db") == ["a"]      # committed before this transaction began
        conn.execute("INSERT INTO llm_calls (task, backend, model, cache_key, request, attempts, created_at)"
                     " VALUES ('t', 'b', 'm', 'rolled-back', '{}', 1, 'now')")
        raise RuntimeError("the write fails half-way")
    assert _on_disk(tmp_path / "fb.db") == ["a"]          # the held row stays, the failed write is gone
    _row(db, "b")
    close_db(db)                                          # closing commits what is held
    assert _on_disk(tmp_path / "fb.db") == ["a", "b"]


def test_a_plain_commit_by_someone_else_ends_the_group(tmp_path):
    db = open_db(tmp_path / "fb.db")
    _row(db, "a")
    db.conn.commit()
    assert not is_held(db.conn) and commit_held(db.conn)   # over: nothing left to commit, no error
    assert hold(db.conn) and not hold(db.conn)             # a new group opens once
    commit_held(db.conn)
    close_db(db)


async def test_the_client_commits_the_rows_of_one_loop_iteration_at_the_next(tmp_path):
    db = open_db(tmp_path / "fb.db")
    with OpenAIStub() as stub:
        stub.responder = lambda request: ok(GOOD)
        client = make_client("openai", db=db, base_url=stub.base_url, model="m", backoff_s=0.01)
        try:
            messages = [[{"role": "user", "content": f"define verb {i}"}] for i in range(3)]
            results = await asyncio.gather(*(client.complete(task="define", messages=m, response_model=Definition)
                                             for m in messages))
            assert all(r.error is None for r in results)
            await asyncio.sleep(0)                             # the next iteration of the loop
            assert not is_held(db.conn)
            assert len(_on_disk(tmp_path / "fb.db")) == 3
        finally:
            await client.aclose()
    close_db(db)


def test_a_checkpoint_commits_the_answers_rows_before_it_is_written(tmp_path):
    from fbagent.generation.checkpoints import open_checkpointer

    db = open_db(tmp_path / "fb.db")
    seen: list[list[str]] = []
    with open_checkpointer(tmp_path / "fb.checkpoints.db") as saver:
        saver.before_checkpoint = lambda: (commit_held(db.conn), seen.append(_on_disk(tmp_path / "fb.db")))
        _row(db, "a")

        async def put() -> None:
            from langgraph.checkpoint.base import empty_checkpoint

            config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
            await saver.aput(config, empty_checkpoint(), {"source": "loop", "step": 0}, {})
            assert seen == []                                 # the checkpoint's commit waits for the next iteration
            await asyncio.sleep(0)

            assert _on_disk(tmp_path / "fb.db") == ["a"] and seen == [["a"]]   # at the loop's next iteration

        asyncio.run(put())
    assert seen == [["a"]]                                    # the row was on disk before the checkpoint
    close_db(db)


def _items_on_disk(path: Path) -> list[str]:
    other = sqlite3.connect(path)
    try:
        return [r[0] for r in other.execute("SELECT id FROM items ORDER BY id")]
    finally:
        other.close()


def test_an_items_row_joins_the_answers_group_and_is_committed_before_its_checkpoints_are_deleted(tmp_path):
    """EntryPool stores an entry's row held (store.items.save_item(held=True)): one commit with the answers'
    rows, and the checkpointer's commit of the deletion of the entry's checkpoints commits it first."""
    from fbagent.generation.checkpoints import open_checkpointer
    from fbagent.store import items as items_store
    from fbagent.store import runs as runs_store

    db = open_db(tmp_path / "fb.db")
    db.conn.execute("PRAGMA foreign_keys = OFF")   # an items row without its lexicon / selection / pair rows
    run = runs_store.create_run(db, name="r", command="fbagent generate", lexicon_id=None, generator="openai",
                                model="m", verifier_generator=None, verifier_model=None, encoder=None, seed=0,
                                options={}, prompt_versions={})
    item = {"id": "r:1:0", "run_id": run["id"], "pair_id": 1, "k": 0, "status": "verified", "language": "en",
            "lexicon": "fn", "verb": "leave", "lu_a": "leave.v", "lu_b": "leave.v", "frame_a": "Departing",
            "frame_b": "Quitting", "checks": {"passed": True}, "attempts": 1, "created_at": "2026-12-07T00:00:00Z",
            "updated_at": "2026-12-07T00:00:00Z"}
    _row(db, "a")                                             # an answer's row opened the held group
    assert items_store.save_item(db, item, held=True) is False   # joined it: the client commits the group
    assert _on_disk(tmp_path / "fb.db") == [] and _items_on_disk(tmp_path / "fb.db") == []
    assert commit_held(db.conn)
    assert _on_disk(tmp_path / "fb.db") == ["a"] and _items_on_disk(tmp_path / "fb.db") == ["r:1:0"]

    item2 = {**item, "id": "r:1:1", "k": 1}
    seen: list[list[str]] = []
    with open_checkpointer(tmp_path / "fb.checkpoints.db") as saver:
        saver.before_checkpoint = lambda: (commit_held(db.conn), seen.append(_items_on_disk(tmp_path / "fb.db")))

        async def store_and_delete() -> None:
            assert items_store.save_item(db, item2, held=True) is True   # opened the group
            await saver.adelete_thread("r:1:1")
            assert _items_on_disk(tmp_path / "fb.db") == ["r:1:0"]       # held ...

        asyncio.run(store_and_delete())
    assert seen and seen[0] == ["r:1:0", "r:1:1"]             # ... and on disk before the deletion's commit
    stored = items_store.run_items(db, run["id"])
    assert [r["id"] for r in stored] == ["r:1:0", "r:1:1"] and stored[1]["checks"] == {"passed": True}
    close_db(db)


def test_the_wal_copy_waits_until_the_held_group_is_committed(tmp_path):
    """store.db.checkpoint (the 30 s copy of the write-ahead log, which EntryPool runs after each group commit
    of its items rows) does not run inside the held group, and does not count that as a copy either."""
    from fbagent.store.db import checkpoint

    db = open_db(tmp_path / "fb.db")
    _row(db, "a")
    assert is_held(db.conn) and checkpoint(db, every_s=0) is False
    assert is_held(db.conn)                                   # the group is untouched
    assert commit_held(db.conn) and checkpoint(db, every_s=0) is True
    assert _on_disk(tmp_path / "fb.db") == ["a"]
    close_db(db)
