"""The entry graph's checkpointer: LangGraph's SQLite saver, written on the event loop thread.

``AsyncSqliteSaver`` (langgraph-checkpoint-sqlite) sends every statement through
aiosqlite's worker thread: about 58 thread hand-offs per entry (7 checkpoints,
6 sets of writes, each a cursor, an execute, a close and a commit). Measured
with ``benchmarks/bench_entry_graph.py`` (instant LLM, stand-in encoder, 2
busy cores) that cost 1.3 ms of CPU per checkpoint, two thirds of fbagent's
own work per entry, most of it the GIL and wake-ups of the hand-offs, not
SQLite. :class:`LoopSqliteSaver` is the same saver (same tables, same
serializer, same file format: a checkpoint file written by either is read by
the other) whose async methods run the synchronous statements directly: a
checkpoint is one short transaction of tens of microseconds on the loop
thread, as every other write of a run is (``llm_calls`` rows, ``items`` rows).

Kill -9 safety: the file is in WAL mode with ``synchronous=NORMAL``, so every
committed checkpoint survives the death of the process (only an OS crash or
power loss may drop the last transactions, as before). A step's pending writes
and a stored entry's deletion ride on the next checkpoint's commit, and the
checkpoints written in one iteration of the event loop (of all the entries in
flight) share one commit, made at the start of the next iteration (group commit, as the
``llm_calls`` rows have: :class:`LoopSqliteSaver`); the run database's held
``llm_calls`` rows are committed first, so a checkpoint is never on disk without
the rows of its answers. A verified entry of the five-node entry graph cost 6 commits
of this file (its 6 checkpoints; 14 before the saver held writes and deletions; the
two-node graph stores 2, :attr:`LoopSqliteSaver.skip_input_checkpoints`); at 16 entries in
flight an iteration commits the checkpoints of several entries at once, and the
commits were the largest part of the event loop thread's CPU (py-spy: the
saver's cursor exit, i.e. ``COMMIT``, 15% of the thread). A kill between a
checkpoint's write and that commit (under a millisecond of event-loop work)
loses that checkpoint only: the entry resumes from the one before, whose step
runs again with its answers from the ``llm_calls`` cache (no new request,
the same results).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph.checkpoint.sqlite import SqliteSaver

from fbagent.store.db import sqlite_error

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.base import (
        ChannelVersions,
        Checkpoint,
        CheckpointMetadata,
        CheckpointTuple,
        DeltaChannelHistory,
    )
    from langgraph.checkpoint.serde.base import SerializerProtocol

FLUSH_AFTER_S = 0.1   # the longest a held statement waits for the next checkpoint's commit

#: one held ``aput_writes`` call: (config, writes, task_id, task_path)
BufferedWrites = tuple["RunnableConfig", "list[tuple[str, object]]", str, str]


class LoopSqliteSaver(SqliteSaver):
    """:class:`langgraph.checkpoint.sqlite.SqliteSaver` with the async interface LangGraph's ``ainvoke``
    needs, each method running its synchronous twin on the calling (event loop) thread.

    Open it with :func:`open_checkpointer`. Raises ``sqlite3.Error`` as the synchronous methods do.

    ``aput`` (a checkpoint), ``aput_writes`` (a step's pending writes) and ``adelete_thread`` (the
    checkpoints of a stored entry) commit nothing themselves: the checkpoints of one event-loop iteration
    (of any thread) and the statements held before them share one commit, made at the start of the loop's
    next iteration (``call_soon``); writes and deletions with no checkpoint after them are committed
    :data:`FLUSH_AFTER_S` later; :meth:`commit` (at the session's end, :func:`open_checkpointer`) commits
    what is held at once. Every commit first calls :attr:`before_checkpoint` (the run database's held
    ``llm_calls`` rows). A kill before a commit loses only what it held: checkpoints whose entries resume
    from their previous checkpoint (the step runs again, its answers from the ``llm_calls`` cache), pending
    writes of a step whose checkpoint was not committed either (the step runs again, as after a kill during
    the step) and the deletion of a stored entry's checkpoints (a rerun skips a stored entry whatever its
    checkpoints say). A failed group commit is raised by the next ``aput``.
    The synchronous methods commit as ``SqliteSaver``'s do.

    Superseded writes are not stored: ``aput_writes`` keeps a step's writes in memory (not yet serialised)
    until the next commit; a checkpoint of the same thread whose parent is the checkpoint they are keyed
    to drops them, since that checkpoint holds their effect and a resume starts from it (LangGraph reads the
    pending writes of the checkpoint it resumes from only; fbagent reads no older checkpoint). Every other
    held write is written into the open transaction before any commit and before a read of its thread, so
    what a commit stores, and what a kill may lose, is what it was without the buffer, less those rows
    (about 30 ``writes`` rows per verified entry, each a msgpack encoding and an ``INSERT``, later deleted
    with the stored entry's thread).
    """

    _hold_commit = False     # True while a held statement runs: cursor() leaves it in the open transaction
    #: called before each checkpoint is written: commits the run database's held ``llm_calls`` rows, so that a
    #: checkpoint holding an answer is never on disk without the answer's row (``fbagent generate`` sets it)
    before_checkpoint: Callable[[], object] | None = None
    _flush_handle: asyncio.TimerHandle | None = None
    _flush_loop: asyncio.AbstractEventLoop | None = None
    _commit_handle: asyncio.Handle | None = None     # the group commit of the next loop iteration
    _commit_loop: asyncio.AbstractEventLoop | None = None
    _commit_error: sqlite3.Error | None = None       # a failed group commit, raised by the next aput
    #: ``fbagent generate`` sets it: a new thread's first two checkpoints are not stored (LangGraph's step -1,
    #: source ``input``: the input; step 0, source ``loop``: the state after START, i.e. the input in the state's
    #: channels; no node has run in either). :func:`fbagent.generation.workers.run_entry` builds the same state from
    #: the run again and starts a thread without checkpoints anew, which is what resuming from either does. A
    #: verified entry writes 2 checkpoints instead of 4 (after ``generate`` and after ``verify``)
    skip_input_checkpoints = False
    #: held writes not yet executed, by (thread, namespace, checkpoint id), in arrival order:
    #: ``(config, writes, task_id, task_path)`` per ``aput_writes`` call
    _buffered: dict[tuple[str, str, str], list[BufferedWrites]] | None = None

    def __init__(self, conn: sqlite3.Connection, *, serde: SerializerProtocol | None = None) -> None:
        super().__init__(conn, serde=serde)
        #: (thread, namespace) a ``get_tuple`` found without checkpoints, until the next ask or ``put``
        self._absent: set[tuple[str, str]] = set()

    @contextlib.contextmanager
    def cursor(self, transaction: bool = True) -> Iterator[sqlite3.Cursor]:
        """``SqliteSaver.cursor``; no commit at its end while :attr:`_hold_commit` is set."""
        with super().cursor(transaction=transaction and not self._hold_commit) as cur:
            yield cur

    def _held(self, method: Callable[..., None], *args: object) -> None:
        self._hold_commit = True
        try:
            method(*args)
        finally:
            self._hold_commit = False
        loop = asyncio.get_running_loop()
        if self.conn.in_transaction and (self._flush_handle is None or self._flush_loop is not loop):
            self._flush_handle, self._flush_loop = loop.call_later(FLUSH_AFTER_S, self._flush), loop

    def _flush(self) -> None:
        self._flush_handle = None
        with contextlib.suppress(sqlite3.Error):  # e.g. busy past the timeout: the next aput commits (or raises)
            self.commit()

    def _group_commit(self) -> None:
        """The group commit of the checkpoints of the previous loop iteration (a failure: the next aput raises it)."""
        self._commit_handle = None
        try:
            self.commit()
        except sqlite3.Error as err:
            self._commit_error = err

    def commit(self) -> None:
        """Commit the held statements (a no-op when there are none), after :attr:`before_checkpoint`; the
        buffered writes are written first."""
        for handle in (self._flush_handle, self._commit_handle):
            if handle is not None:
                handle.cancel()
        self._flush_handle = self._commit_handle = None
        self._write_buffered()
        if not self.conn.in_transaction:
            return
        if self.before_checkpoint is not None:
            self.before_checkpoint()
        with self.lock:
            if self.conn.in_transaction:
                self.conn.commit()

    def _write_buffered(self, thread_id: str | None = None) -> None:
        """Execute the buffered writes (of ``thread_id`` only, when given) in the open transaction, in arrival
        order, without committing."""
        if not self._buffered:
            return
        keys = [k for k in self._buffered if thread_id is None or k[0] == thread_id]
        for key in keys:
            for config, writes, task_id, task_path in self._buffered.pop(key):
                self._hold_commit = True
                try:
                    self.put_writes(config, writes, task_id, task_path)
                finally:
                    self._hold_commit = False

    def _drop_buffered(self, thread_id: str, checkpoint_ns: str = "", checkpoint_id: str | None = None) -> None:
        """Forget the buffered writes of a thread (of one checkpoint, when ``checkpoint_id`` is given)."""
        if not self._buffered:
            return
        if checkpoint_id is not None:
            self._buffered.pop((thread_id, checkpoint_ns, checkpoint_id), None)
            return
        for key in [k for k in self._buffered if k[0] == thread_id]:
            del self._buffered[key]

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """``SqliteSaver.get_tuple``, after writing the thread's buffered writes.

        A thread found without checkpoints is answered ``None`` again without a query by the next call for its
        latest checkpoint (once; any ``put`` of the thread forgets it): :func:`fbagent.generation.workers.run_entry`
        asks before it starts a new thread, and LangGraph asks again when the thread starts (one ``SELECT`` per
        entry fewer). Only this connection writes the file while a run holds it."""
        conf = config["configurable"]
        thread = (str(conf["thread_id"]), str(conf.get("checkpoint_ns", "")))
        self._write_buffered(thread[0])
        latest = conf.get("checkpoint_id") is None
        if latest and thread in self._absent:
            self._absent.discard(thread)
            return None
        found = super().get_tuple(config)
        if latest and found is None:
            self._absent.add(thread)
        return found

    def put(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
            new_versions: ChannelVersions) -> RunnableConfig:
        """``SqliteSaver.put`` (the thread is no longer known to be without checkpoints)."""
        conf = config["configurable"]
        self._absent.discard((str(conf["thread_id"]), str(conf.get("checkpoint_ns", ""))))
        return super().put(config, checkpoint, metadata, new_versions)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The thread's latest (or the configured) checkpoint tuple, or ``None``."""
        return self.get_tuple(config)

    async def alist(self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,  # noqa: A002
                    before: RunnableConfig | None = None, limit: int | None = None) -> AsyncIterator[CheckpointTuple]:
        """The checkpoints matching ``config``, newest first (see ``SqliteSaver.list``), after writing the buffered
        writes (of the configured thread)."""
        self._write_buffered(str(config["configurable"]["thread_id"]) if config else None)
        for item in self.list(config, filter=filter, before=before, limit=limit):
            yield item

    async def aput(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
                   new_versions: ChannelVersions) -> RunnableConfig:
        """Store one checkpoint, committed at the start of the loop's next iteration with the other checkpoints
        of this iteration and the statements held before them (after the run database's held rows,
        :attr:`before_checkpoint`); returns the config that points at it (a skipped one,
        :attr:`skip_input_checkpoints`: the config it would have). Raises a failed earlier group commit."""
        failed, self._commit_error = self._commit_error, None
        if failed is not None:
            raise failed
        if self.skip_input_checkpoints and _before_any_node(metadata):
            conf = config["configurable"]
            if conf.get("checkpoint_id") is not None:   # writes keyed to the skipped input checkpoint
                self._drop_buffered(str(conf["thread_id"]), str(conf.get("checkpoint_ns", "")),
                                    str(conf["checkpoint_id"]))
            return {"configurable": {"thread_id": conf["thread_id"], "checkpoint_ns": conf.get("checkpoint_ns", ""),
                                     "checkpoint_id": checkpoint["id"]}}
        conf = config["configurable"]
        if conf.get("checkpoint_id") is not None:   # the parent's writes: this checkpoint holds their effect
            self._drop_buffered(str(conf["thread_id"]), str(conf.get("checkpoint_ns", "")), str(conf["checkpoint_id"]))
        self._hold_commit = True
        try:
            out = self.put(config, checkpoint, metadata, new_versions)
        finally:
            self._hold_commit = False
        loop = asyncio.get_running_loop()
        if self.conn.in_transaction and (self._commit_handle is None or self._commit_loop is not loop):
            self._commit_handle, self._commit_loop = loop.call_soon(self._group_commit), loop
        return out

    async def aput_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                          task_path: str = "") -> None:
        """Hold the pending writes of one task: dropped by the next checkpoint of its thread, else written and
        committed with the next commit (see the class doc)."""
        conf = config["configurable"]
        key = (str(conf["thread_id"]), str(conf.get("checkpoint_ns", "")), str(conf.get("checkpoint_id")))
        if self._buffered is None:
            self._buffered = {}
        self._buffered.setdefault(key, []).append((config, list(writes), task_id, task_path))
        loop = asyncio.get_running_loop()
        if self._flush_handle is None or self._flush_loop is not loop:
            self._flush_handle, self._flush_loop = loop.call_later(FLUSH_AFTER_S, self._flush), loop

    def delete_thread(self, thread_id: str) -> None:
        """``SqliteSaver.delete_thread``; the thread's buffered writes are forgotten."""
        self._drop_buffered(str(thread_id))
        super().delete_thread(thread_id)

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete every checkpoint and write of ``thread_id`` (committed with the next checkpoint)."""
        self._held(self.delete_thread, thread_id)

    async def aget_delta_channel_history(self, *, config: RunnableConfig,
                                         channels: Sequence[str]) -> Mapping[str, DeltaChannelHistory]:
        """See ``SqliteSaver.get_delta_channel_history`` (after writing the thread's buffered writes)."""
        self._write_buffered(str(config["configurable"]["thread_id"]))
        return self.get_delta_channel_history(config=config, channels=channels)


def _before_any_node(metadata: CheckpointMetadata) -> bool:
    """Whether a checkpoint is one of a new thread's two before any node ran (step -1 ``input``, step 0 ``loop``)."""
    step, source = metadata.get("step"), metadata.get("source")
    return (step, source) in ((-1, "input"), (0, "loop"))


# LangGraph asks ``inspect.signature(saver.aput_writes)`` once per graph run (does it take ``task_path``?): 2% of
# the event loop thread's CPU per entry (py-spy) computing the same signature from the code object each time;
# ``inspect`` answers from ``__signature__`` when a function carries it
LoopSqliteSaver.aput_writes.__signature__ = inspect.signature(LoopSqliteSaver.aput_writes)  # type: ignore[attr-defined]


@contextlib.contextmanager
def open_checkpointer(path: str | Path, *, busy_timeout_ms: int = 30_000) -> Iterator[LoopSqliteSaver]:
    """A :class:`LoopSqliteSaver` on the SQLite file ``path`` (created with its tables if missing), in
    WAL mode with ``synchronous=NORMAL`` and a busy timeout of ``busy_timeout_ms``; closed on exit.

    Raises ``sqlite3.Error`` when the file cannot be opened or its tables not created.
    """
    conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            saver = LoopSqliteSaver(conn)
            saver.setup()                                  # tables; journal_mode=WAL
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as err:  # name the checkpoint file, not the database

            raise sqlite_error(err, path, fix=f"move {path} away (mv {path} {path}.bad) and rerun; finished "
                               "entries are stored in the database and are not redone") from err
        try:
            yield saver
        except BaseException:
            with contextlib.suppress(sqlite3.Error):   # do not hide what ends the session
                saver.commit()
            raise
        saver.commit()
    finally:
        conn.close()
