"""Checkpoints of the five-node entry graph (before issue 46's two-node cut) still finish their entries.

The old graph (generate_base -> self_check -> extend -> verify, finalize) stored a checkpoint after each
node. A run stopped under it and continued by this version: an entry waiting at ``verify`` (a node of both
graphs) resumes there; one waiting at ``generate_base``, ``self_check`` or ``extend`` starts anew with every
LLM answer it had from the ``llm_calls`` cache. Either way no request is sent twice and the stored entry is
the one an uninterrupted run stores. Real openai + instructor + LangGraph + SQLite checkpointer against the
scripted server on 127.0.0.1; the old-format checkpoints are written by LangGraph itself, with a graph of the
old node names interrupted before the node it waited at.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub, by_schema, schema_name, slow  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.agents.entry_graph import OLD_NODES, EntryContext, EntryState, compile_entry_graph  # noqa: E402
from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.generation import checkpoint_path, generate  # noqa: E402
from fbagent.generation.checkpoints import open_checkpointer  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402
from fbagent.store.items import run_items  # noqa: E402

INPUTS = ("item_id", "run_id", "pair_id", "k", "lang", "lexicon", "verb", "lu_a", "lu_b", "frame_a", "frame_b",
          "frame_a_info", "frame_b_info")


def _options(stub: OpenAIStub) -> Any:
    return generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                            screen=False, pairs=1, concurrency=4)


async def _generate(db_path: Path, stub: OpenAIStub) -> Any:
    return await generate(db_path, _options(stub), on_event=GenerateView(Console(file=io.StringIO())), command="test")


def _old_graph(values: EntryState) -> Any:
    """The five-node entry graph's shape (its node names and routes); each node stores what the old node stored
    for this entry (taken from ``values``, the state of the same entry at ``verify``)."""
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Command

    async def generate_base(state: EntryState) -> Command:
        return Command(update={"attempts": 1, "base": values["base"]}, goto="self_check")

    async def self_check(state: EntryState) -> Command:
        return Command(update={k: values[k] for k in ("self_check", "check_history", "verb_check")}, goto="extend")

    async def extend(state: EntryState) -> Command:
        return Command(update={"extend_attempts": 1, "extended": values["extended"]}, goto="verify")

    async def unreachable(state: EntryState) -> EntryState:
        raise AssertionError("the old graph is interrupted before this node")

    g = StateGraph(EntryState, context_schema=EntryContext)
    g.add_node("generate_base", generate_base, destinations=("self_check", "finalize"))
    g.add_node("self_check", self_check, destinations=("extend", "generate_base", "finalize"))
    g.add_node("extend", extend, destinations=("extend", "verify", "finalize"))
    g.add_node("verify", unreachable)
    g.add_node("finalize", unreachable)
    g.add_edge(START, "generate_base")
    g.add_edge("verify", END)
    g.add_edge("finalize", END)
    return g


async def _rewrite_as_old(ck_path: Path, waits_at: str) -> None:
    """Replace the one thread of ``ck_path`` (waiting at the new graph's ``verify``) with the checkpoints the old
    graph wrote for the same entry up to ``waits_at``."""
    with open_checkpointer(ck_path) as saver:
        (thread,) = {r[0] for r in saver.conn.execute("SELECT thread_id FROM checkpoints")}
        config = {"configurable": {"thread_id": thread}}
        snapshot = await compile_entry_graph(saver).aget_state(config)
        assert snapshot.next == ("verify",)
        values = snapshot.values
        await saver.adelete_thread(thread)
        old = _old_graph(values).compile(checkpointer=saver, interrupt_before=[waits_at])
        await old.ainvoke({k: values[k] for k in INPUTS} | {"attempts": 0, "extend_attempts": 0, "check_history": [],
                                                            "extended": {}, "error": None}, config, durability="sync")
        assert (await old.aget_state(config)).next == (waits_at,)


def _copy(src: Path, dst: Path) -> None:
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


def _stored(db_path: Path) -> dict[str, Any]:
    db = open_db(db_path)
    (run,) = db.execute("SELECT id FROM runs").fetchall()
    (item,) = run_items(db, run[0])
    return {k: _without_call_ids(v) for k, v in item.items() if k not in ("created_at", "updated_at")}


def _without_call_ids(value: Any) -> Any:
    """``value`` without its ``call_id`` keys (the llm_calls row ids follow the answers' arrival order)."""
    if isinstance(value, dict):
        return {k: _without_call_ids(v) for k, v in value.items() if k != "call_id"}
    if isinstance(value, list):
        return [_without_call_ids(v) for v in value]
    return value


async def test_old_five_node_checkpoints_finish_their_entries_without_a_request_sent_twice(tmp_path):
    assert OLD_NODES == {"generate_base", "self_check", "extend", "finalize"}
    responder = FrameResponder()
    gate = {"hold": True}

    def define(request: Any) -> Any:
        return slow(30.0, {"definition": "never delivered"}) if gate["hold"] else responder(request)

    stopped = tmp_path / "stopped"
    stopped.mkdir()
    with OpenAIStub(by_schema({"Definition": define}, default=responder)) as stub:
        # reference: the same entry, uninterrupted
        (tmp_path / "ref").mkdir()
        gate["hold"] = False
        await _generate(tmp_path / "ref" / "fb.db", stub)
        reference = _stored(tmp_path / "ref" / "fb.db")
        assert reference["status"] == "verified"
        # a run stopped while its entry waits at verify (base and extension answered and cached)
        gate["hold"] = True
        stub.reset_counts()
        task = asyncio.create_task(_generate(stopped / "fb.db", stub))
        for _ in range(600):
            if any(schema_name(r) == "Definition" for r in stub.requests):
                break
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        gate["hold"] = False
        for waits_at in ("generate_base", "self_check", "extend", "verify"):
            folder = tmp_path / waits_at
            folder.mkdir()
            _copy(stopped / "fb.db", folder / "fb.db")
            _copy(checkpoint_path(stopped / "fb.db"), checkpoint_path(folder / "fb.db"))
            await _rewrite_as_old(checkpoint_path(folder / "fb.db"), waits_at)
            stub.reset_counts()
            summary = await _generate(folder / "fb.db", stub)
            sent = [schema_name(r) for r in stub.requests]
            # only the verifier's four definitions are new; the base pair and the two extensions come from the cache
            # (a rerun of the entry) or are not asked at all (resumed at verify)
            assert sent == ["Definition"] * 4, (waits_at, sent)
            assert summary.cache_hits == (0 if waits_at == "verify" else 3), waits_at
            assert _stored(folder / "fb.db") == reference, waits_at
            with sqlite3.connect(checkpoint_path(folder / "fb.db")) as ck:
                assert ck.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0] == 0
