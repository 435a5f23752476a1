"""LoopSqliteSaver's held statements: the checkpoints of one event-loop iteration share one commit at the
start of the next iteration (group commit), a step's pending writes and a thread's deletion are committed with
the next commit (a checkpoint's, after FLUSH_AFTER_S without one, or when the checkpointer closes), a step's
writes superseded by the next checkpoint of their thread are not stored at all; never lost on a
clean exit, the run database's held rows always committed first, and what the entry graph stores is unchanged."""

from __future__ import annotations

import asyncio
import sqlite3

from langgraph.checkpoint.base import empty_checkpoint

from fbagent.generation import checkpoints
from fbagent.generation.checkpoints import open_checkpointer


def _count(path, table: str, thread: str) -> int:
    with sqlite3.connect(path) as conn:       # another connection sees committed rows only
        return conn.execute(f"SELECT COUNT(*) FROM {table} WHERE thread_id = ?", [thread]).fetchone()[0]


def _config(thread: str, checkpoint_id: str | None = None) -> dict:
    conf = {"thread_id": thread, "checkpoint_ns": ""}
    if checkpoint_id:
        conf["checkpoint_id"] = checkpoint_id
    return {"configurable": conf}


def test_held_writes_join_the_next_checkpoint_or_the_flush_and_deletions_the_close(tmp_path):
    path = tmp_path / "fb.checkpoints.db"

    async def scenario() -> None:
        with open_checkpointer(path) as saver:
            first = empty_checkpoint()
            cfg = await saver.aput(_config("t"), first, {"step": -1}, {})
            assert _count(path, "checkpoints", "t") == 0             # held until the loop's next iteration
            await asyncio.sleep(0)
            assert _count(path, "checkpoints", "t") == 1
            await saver.aput_writes(cfg, [("x", 1)], "task-1")
            assert _count(path, "writes", "t") == 0                  # held ...
            await saver.aput(_config("other"), empty_checkpoint(), {"step": -1}, {})
            await asyncio.sleep(0)                                   # ... committed with another thread's checkpoint
            assert _count(path, "writes", "t") == 1 and _count(path, "checkpoints", "t") == 1
            second = empty_checkpoint()
            cfg2 = await saver.aput(cfg, second, {"step": 0}, {})
            await saver.aput_writes(cfg2, [("y", 2)], "task-2")
            third = empty_checkpoint()
            await saver.aput(cfg2, third, {"step": 1}, {})          # supersedes the writes keyed to `second`
            await asyncio.sleep(0)
            assert _count(path, "checkpoints", "t") == 3
            assert _count(path, "writes", "t") == 1                  # task-2's writes were never stored
            await saver.aput_writes(_config("t", third["id"]), [("z", 3)], "task-3")
            assert _count(path, "writes", "t") == 1
            await asyncio.sleep(checkpoints.FLUSH_AFTER_S + 0.2)
            assert _count(path, "writes", "t") == 2                  # no checkpoint came: the flush commits
            got = await saver.aget_tuple(_config("t"))
            assert got is not None and got.checkpoint["id"] == third["id"]
            assert [(w[0], w[1], w[2]) for w in got.pending_writes] == [("task-3", "z", 3)]
            await saver.aput_writes(_config("t", third["id"]), [("w", 4)], "task-4")
            got = await saver.aget_tuple(_config("t"))               # a read sees its thread's held writes
            assert [w[1] for w in got.pending_writes] == ["z", "w"] and _count(path, "writes", "t") == 2
            await saver.adelete_thread("t")
            assert await saver.aget_tuple(_config("t")) is None      # gone for this connection at once
        assert _count(path, "checkpoints", "t") == 0 and _count(path, "writes", "t") == 0  # committed at close

    asyncio.run(scenario())


def test_the_synchronous_methods_still_commit_on_their_own(tmp_path):
    path = tmp_path / "fb.checkpoints.db"
    with open_checkpointer(path) as saver:
        cfg = saver.put(_config("s"), empty_checkpoint(), {"step": -1}, {})
        saver.put_writes(cfg, [("x", 1)], "task-1")
        assert _count(path, "writes", "s") == 1
        saver.delete_thread("s")
        assert _count(path, "checkpoints", "s") == 0


def test_a_session_ending_with_an_error_still_commits_what_is_held(tmp_path):
    path = tmp_path / "fb.checkpoints.db"

    async def scenario() -> None:
        with open_checkpointer(path) as saver:
            cfg = await saver.aput(_config("e"), empty_checkpoint(), {"step": -1}, {})
            await saver.aput_writes(cfg, [("x", 1)], "task-1")
            raise KeyboardInterrupt

    try:
        asyncio.run(scenario())
    except KeyboardInterrupt:
        pass
    assert _count(path, "writes", "e") == 1


def test_the_checkpoints_of_one_loop_iteration_share_one_commit_after_the_run_databases_rows(tmp_path):
    path = tmp_path / "fb.checkpoints.db"
    calls: list[int] = []     # checkpoints another connection saw when the run database's rows were committed

    async def scenario() -> None:
        with open_checkpointer(path) as saver:
            saver.before_checkpoint = lambda: calls.append(sum(_count(path, "checkpoints", t) for t in "abc"))
            commits: list[str] = []
            saver.conn.set_trace_callback(lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
            for thread in "abc":      # three entries' checkpoints in one iteration of the loop
                await saver.aput(_config(thread), empty_checkpoint(), {"step": -1}, {})
            assert [_count(path, "checkpoints", t) for t in "abc"] == [0, 0, 0]
            await asyncio.sleep(0)    # the next iteration: one commit for the three
            assert [_count(path, "checkpoints", t) for t in "abc"] == [1, 1, 1]
            assert len(commits) == 1 and calls == [0]   # the rows were committed before any of them
            saver.conn.set_trace_callback(None)

    asyncio.run(scenario())


def test_a_failed_group_commit_is_raised_by_the_next_checkpoint(tmp_path):
    path = tmp_path / "fb.checkpoints.db"

    def failing() -> None:
        raise sqlite3.OperationalError("disk I/O error")

    async def scenario() -> None:
        with open_checkpointer(path) as saver:
            saver.before_checkpoint = failing
            await saver.aput(_config("f"), empty_checkpoint(), {"step": -1}, {})
            await asyncio.sleep(0)
            assert _count(path, "checkpoints", "f") == 0       # not committed without the run database's rows
            try:
                await saver.aput(_config("f"), empty_checkpoint(), {"step": 0}, {})
            except sqlite3.OperationalError as err:
                assert "disk I/O error" in str(err)
            else:
                raise AssertionError("the failed group commit was not raised")
            saver.before_checkpoint = None

    asyncio.run(scenario())


def _two_node_graph(saver, fail_first: bool = False):
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    class State(TypedDict, total=False):
        steps: list[str]

    async def first(state: State) -> State:
        if fail_first:
            raise RuntimeError("first failed")
        return {"steps": [*state.get("steps", []), "first"]}

    async def second(state: State) -> State:
        return {"steps": [*state.get("steps", []), "second"]}

    g = StateGraph(State)
    g.add_node("first", first)
    g.add_node("second", second)
    g.add_edge(START, "first")
    g.add_edge("first", "second")
    g.add_edge("second", END)
    return g.compile(checkpointer=saver)


def test_a_new_threads_input_checkpoint_is_skipped_when_asked_and_the_thread_runs_and_resumes_the_same(tmp_path):
    path = tmp_path / "fb.checkpoints.db"

    async def scenario() -> None:
        with open_checkpointer(path) as saver:
            saver.skip_input_checkpoints = True
            out = await _two_node_graph(saver).ainvoke({"steps": []}, _config("t"), durability="sync")
            assert out["steps"] == ["first", "second"]
            stored = [(c.metadata["source"], c.metadata["step"]) async for c in saver.alist(_config("t"))]
            assert stored == [("loop", 2), ("loop", 1)]   # newest first: after each node; not -1 (input), 0 (START)
            # a thread whose first node fails has no checkpoint: run_entry starts it anew, as resuming from its input
            # checkpoint would (the node runs again)
            try:
                await _two_node_graph(saver, fail_first=True).ainvoke({"steps": []}, _config("f"), durability="sync")
            except RuntimeError:
                pass
            await asyncio.sleep(checkpoints.FLUSH_AFTER_S + 0.2)
            assert await saver.aget_tuple(_config("f")) is None and _count(path, "checkpoints", "f") == 0
            out = await _two_node_graph(saver).ainvoke({"steps": []}, _config("f"), durability="sync")
            assert out["steps"] == ["first", "second"]
            # without the flag (the saver's default, as LangGraph's own) the input checkpoint is stored
            saver.skip_input_checkpoints = False
            await _two_node_graph(saver).ainvoke({"steps": []}, _config("u"), durability="sync")
            assert [c.metadata["step"] async for c in saver.alist(_config("u"))] == [2, 1, 0, -1]

    asyncio.run(scenario())


def test_a_thread_found_without_checkpoints_is_not_looked_up_twice(tmp_path):
    """run_entry asks before it starts a new thread and LangGraph asks again: one SELECT for both; a put (or
    the second ask) forgets the answer."""
    path = tmp_path / "fb.checkpoints.db"
    with open_checkpointer(path) as saver:
        selects: list[str] = []
        saver.conn.set_trace_callback(lambda sql: selects.append(sql) if "FROM checkpoints" in sql else None)
        assert saver.get_tuple(_config("n")) is None and saver.get_tuple(_config("n")) is None
        assert len(selects) == 1
        assert saver.get_tuple(_config("n")) is None and len(selects) == 2       # once only
        cfg = saver.put(_config("n"), empty_checkpoint(), {"step": 1}, {})          # asked, then written
        got = saver.get_tuple(_config("n"))
        assert got is not None and got.config["configurable"]["checkpoint_id"] == cfg["configurable"]["checkpoint_id"]
        saver.conn.set_trace_callback(None)
