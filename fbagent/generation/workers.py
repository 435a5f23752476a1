"""The entries of a run and the workers that generate them.

One list of entries: :func:`entry_list` turns the selected pairs into
``(pair, k)`` entries (``k`` in ``0 .. per_pair - 1``), :func:`pending` drops the
finished ones. :class:`EntryPool` runs each pending entry's LangGraph thread
(:func:`run_entry`), stores its ``items`` row, deletes its checkpoints and reports
:class:`~fbagent.generation.events.Progress`. At most ``workers`` entries are in
flight; the LLM clients bound the requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, cast

import sqlite_utils

from fbagent.agents.entry_graph import EntryContext, EntryGraph, EntryState, build_item
from fbagent.errors import FbagentError
from fbagent.generation.budget import RunBudget
from fbagent.generation.events import (
    EntriesStarted,
    EntriesStopped,
    EntryError,
    GenerationSummary,
    OnEvent,
    Progress,
    RunWarning,
)
from fbagent.generation.options import DEFAULT_DURABILITY, Durability
from fbagent.llm.batch import BatchPending
from fbagent.providers import redact
from fbagent.store import items as items_store
from fbagent.store.db import checkpoint
from fbagent.store.items import FINAL_STATUSES, item_id
from fbagent.store.lexicon import frame_context
from fbagent.store.rows import FrameContext, JSONValue, LexiconRow, RunRow
from fbagent.store.transaction import commit_held
from fbagent.verifier.encoder_batch import ON_LOAD_WAIT

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from fbagent.llm.client import LLMClient

Entry = tuple[dict[str, Any], int]     # (frame_pairs row, k)


def entry_list(pairs: Iterable[dict[str, Any]], per_pair: int) -> list[Entry]:
    """Every entry of the selected ``pairs``: ``(pair, k)`` for ``k < pair["per_pair"]`` (``per_pair``
    when the pair has none), in pair order."""
    return [(p, k) for p in pairs for k in range(int(p.get("per_pair") or per_pair))]


def pending(entries: Iterable[Entry], run_name: str | None, finished: set[str]) -> list[Entry]:
    """The entries whose item id (``<run>:<pair id>:<k>``) is not in ``finished``; all of them for a run
    that does not exist yet (``run_name=None``)."""
    if run_name is None:
        return list(entries)
    return [(p, k) for p, k in entries if item_id(run_name, p["id"], k) not in finished]


class FrameInfoCache:
    """``frame_context`` (plain JSON) per (frame, verb) of one lexicon, read once per run."""

    def __init__(self, db: sqlite_utils.Database, lexicon_id: int) -> None:
        self.db, self.lexicon_id = db, lexicon_id
        self._cache: dict[tuple[str, str], FrameContext] = {}

    def get(self, frame: str, verb: str) -> FrameContext:
        """The frame's context as evoked by ``verb`` (definition, core FEs, LU, up to 3 examples).
        Raises :class:`FbagentError` when the frame is not in the lexicon."""
        key = (frame, verb)
        if key not in self._cache:
            self._cache[key] = cast("FrameContext", _jsonable(frame_context(self.db, self.lexicon_id, frame, verb,
                                                                           max_examples=3)))
        return self._cache[key]


def _jsonable(value: object) -> JSONValue:
    return json.loads(json.dumps(value, default=lambda o: asdict(o) if hasattr(o, "__dataclass_fields__") else str(o)))


def initial_state(item_id: str, run: RunRow, pair: dict[str, Any], k: int, lexicon: LexiconRow,
                  frame_infos: FrameInfoCache) -> EntryState:
    """The entry graph's first state (plain JSON, :class:`fbagent.agents.entry_graph.EntryState`)."""
    return {
        "item_id": item_id, "run_id": run["id"], "pair_id": pair["id"], "k": k, "lang": lexicon["lang"],
        "lexicon": lexicon["name"], "verb": pair["verb"], "lu_a": pair["lu_a"], "lu_b": pair["lu_b"],
        "frame_a": pair["frame_a"], "frame_b": pair["frame_b"],
        "frame_a_info": frame_infos.get(pair["frame_a"], pair["verb"]),
        "frame_b_info": frame_infos.get(pair["frame_b"], pair["verb"]),
        "attempts": 0, "extend_attempts": 0, "check_history": [], "extended": {}, "error": None,
    }


#: the graph's output that :func:`run_entry` reads: LangGraph's ``values`` stream then reads and copies this channel
#: alone after each step, not the whole state (about 1% of the event loop's instructions per entry)
OUTPUT_KEYS = ["item"]


async def run_entry(graph: EntryGraph, saver: BaseCheckpointSaver, ctx: EntryContext, state: EntryState,
                    durability: Durability = DEFAULT_DURABILITY) -> dict[str, Any]:
    """Run (or resume) one entry's graph thread and return its ``items`` row.

    Resumes from the thread's last checkpoint when one exists and the graph had not
    finished; a finished thread's stored result is used as is; otherwise starts anew. A checkpoint
    written by the five-node graph before (waiting at ``generate_base``, ``self_check``, ``extend`` or
    ``finalize``, :data:`fbagent.agents.entry_graph.OLD_NODES`) has no next node in this graph: its thread
    starts anew, each LLM answer it had from the ``llm_calls`` cache (no new request, the same result);
    one waiting at ``verify`` resumes there.
    """
    config: RunnableConfig = {"configurable": {"thread_id": state["item_id"]}}
    if await saver.aget_tuple(config) is None:
        # no checkpoint: a fresh thread (the common case), no state snapshot to build
        return (await graph.ainvoke(state, config, context=ctx, durability=durability, output_keys=OUTPUT_KEYS))["item"]
    snapshot = await graph.aget_state(config)
    values = snapshot.values or {}
    if values and snapshot.next:
        out = await graph.ainvoke(None, config, context=ctx, durability=durability, output_keys=OUTPUT_KEYS)
    elif values.get("item") is not None and values["item"].get("status") in FINAL_STATUSES:
        out = values
    else:
        if values:
            await saver.adelete_thread(state["item_id"])
        out = await graph.ainvoke(state, config, context=ctx, durability=durability, output_keys=OUTPUT_KEYS)
    return out["item"]


#: while the encoder's model loads, entries waiting for it lend their slots: at most this many times ``workers``
#: entries more are in flight then (each waits only for the encoder; their LLM requests are still bounded by the
#: clients). ``FBAGENT_LENT_SLOTS`` overrides it (0: an entry keeps its slot while it waits, as before)
LENT_SLOTS = 4


def lent_slots() -> int:
    """:data:`LENT_SLOTS`, or ``$FBAGENT_LENT_SLOTS`` (an integer >= 0; :class:`FbagentError` for another value)."""
    raw = os.environ.get("FBAGENT_LENT_SLOTS", "").strip()
    if not raw:
        return LENT_SLOTS
    if not raw.isdigit() or int(raw) > 64:
        raise FbagentError(f"FBAGENT_LENT_SLOTS must be an integer from 0 to 64, got {raw!r}",
                           "unset it (default 4) or set e.g. FBAGENT_LENT_SLOTS=0")
    return int(raw)


class _Lease:
    """One entry's slot of the pool's semaphore: :meth:`lend` gives it to the next entry (once: the entry then
    finishes without one), :meth:`release` returns it at the end unless it was lent."""

    def __init__(self, slots: asyncio.Semaphore) -> None:
        self.slots = slots
        self.held = True

    def lend(self) -> None:
        """Release the slot now (the entry waits for the encoder's model, not for an LLM request)."""
        if self.held:
            self.held = False
            self.slots.release()

    def release(self) -> None:
        """Release the slot unless it was lent."""
        self.lend()


@dataclass
class EntryPool:
    """The live objects every entry worker of one session shares.

    ``graph``/``saver``: the compiled entry graph and its checkpointer; ``ctx``: its
    :class:`fbagent.agents.entry_graph.EntryContext`; ``clients``: the session's LLM
    clients (their stats feed :class:`Progress`); ``emit``: the ``on_event`` callable.
    """

    db: sqlite_utils.Database
    graph: EntryGraph
    saver: BaseCheckpointSaver
    ctx: EntryContext
    run: RunRow
    lexicon: LexiconRow
    frame_infos: FrameInfoCache
    clients: list[LLMClient]
    emit: OnEvent
    durability: Durability = DEFAULT_DURABILITY
    #: ``--max-cost`` (:class:`fbagent.generation.budget.RunBudget`): once spent, no new entry starts
    budget: RunBudget | None = None
    #: a failed group commit of held ``items`` rows (:meth:`_commit_held`), raised by the next :meth:`_save`
    _commit_error: sqlite3.Error | None = field(default=None, init=False, repr=False)

    async def run_all(self, todo: list[Entry], *, workers: int, summary: GenerationSummary,
                      item_errors: Counter[str]) -> None:
        """Generate every entry of ``todo``, ``workers`` entries in flight (more while the encoder's model loads:
        an entry that waits for it lends its slot, :class:`_Lease`); counts go into ``summary``,
        the first reason of each ``failed`` entry into ``item_errors``. On cancellation the entries in flight
        are cancelled (their checkpoints stay) and the cancellation is re-raised."""
        queue: asyncio.Queue[Entry] = asyncio.Queue()
        for entry in todo:
            queue.put_nowait(entry)

        def progress() -> None:
            stats = [c.stats for c in self.clients]
            self.emit(Progress(done=summary.entries_done, total=len(todo), counts=dict(summary.counts),
                               calls=sum(s.calls for s in stats),
                               tokens=sum(s.input_tokens + s.output_tokens for s in stats),
                               cache_hits=sum(s.cache_hits for s in stats),
                               in_flight=sum(getattr(c, "in_flight", 0) for c in self.clients)))

        slots = asyncio.Semaphore(workers)
        lending = lent_slots()
        budget = self.budget

        async def worker() -> None:
            while True:
                await slots.acquire()
                lease = _Lease(slots)
                try:
                    if budget is not None and budget.over():   # the entries in flight finish; none starts
                        return
                    try:
                        pair, k = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    # waiting for the encoder's load: the slot goes to the next entry
                    token = ON_LOAD_WAIT.set(lease.lend if lending else None)
                    try:
                        await self._one(pair, k, summary, item_errors)
                    finally:
                        ON_LOAD_WAIT.reset(token)
                    progress()
                finally:
                    lease.release()

        self.emit(EntriesStarted(total=len(todo)))
        n_tasks = max(1, min(len(todo), (1 + lending) * workers))   # the lent slots' entries need tasks too
        tasks = [asyncio.create_task(worker(), name=f"entry-worker-{i}") for i in range(n_tasks)]
        ticker = asyncio.create_task(_tick(progress))
        try:
            with young_generation_threshold():
                await asyncio.gather(*tasks)
        except BaseException:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            ticker.cancel()
            await asyncio.gather(ticker, return_exceptions=True)
            self._commit_held()   # the last entries' rows, before the summary counts them
            progress()
            self.emit(EntriesStopped())
        failed, self._commit_error = self._commit_error, None
        if failed is not None:
            raise failed
        if budget is not None and not queue.empty():
            raise budget.stop(queue.qsize())

    def _save(self, item: dict[str, JSONValue]) -> None:
        """Store the entry's ``items`` row in the run database's held group (group commit with the ``llm_calls``
        rows of the answers: at the start of the event loop's next iteration, before any checkpoint commit, so
        before its thread's checkpoints are deleted; docs/generate.md, "Durability"). Raises ``sqlite3.Error``
        when the database fails, also a failed group commit of earlier held rows."""
        failed, self._commit_error = self._commit_error, None
        if failed is not None:
            raise failed
        items_store.save_item(self.db, item, held=True)
        asyncio.get_running_loop().call_soon(self._commit_held)   # also when an answer's row opened the group

    def _commit_held(self) -> None:
        """Commit the held rows (a no-op when something committed them already), then copy the write-ahead log
        into the database file when the last copy is 30 s old (:func:`fbagent.store.db.checkpoint`: it does not
        run inside the held group); a failure is raised by the next :meth:`_save`, or at the end of
        :meth:`run_all`."""
        try:
            commit_held(self.db.conn)
        except sqlite3.Error as err:
            self._commit_error = err
            return
        checkpoint(self.db)   # at most every 30 s: the .db file alone stays close to what is stored

    async def _one(self, pair: dict[str, Any], k: int, summary: GenerationSummary, item_errors: Counter[str]) -> None:
        iid = items_store.item_id(self.run["name"], pair["id"], k)
        state = initial_state(iid, self.run, pair, k, self.lexicon, self.frame_infos)
        try:
            item = await run_entry(self.graph, self.saver, self.ctx, state, self.durability)
        except (asyncio.CancelledError, FbagentError):
            raise
        except BatchPending:   # --batch: the entry waits for its request's batch; its checkpoint stays
            return
        except Exception as err:  # noqa: BLE001 - a bug in one entry must not stop the run; it is recorded
            state["error"] = error = redact(f"internal error: {type(err).__name__}: {err}")
            item = build_item(state, generator_model=getattr(self.ctx.generator, "model", None))
            self.emit(EntryError(item_id=iid, error=error))
        self._save(item)
        # count before the next await: a cancellation there must not lose a stored entry from the tally
        summary.entries_done += 1
        summary.counts[item["status"]] = summary.counts.get(item["status"], 0) + 1
        if item["status"] == "failed" and item.get("reasons"):
            item_errors[str(item["reasons"][0])] += 1
        try:
            await self.saver.adelete_thread(iid)
        except sqlite3.Error as err:  # the item is stored; a rerun skips it, whatever its checkpoints say
            self.emit(RunWarning(f"entry {iid}: stored, but its checkpoints could not be deleted ({err})"))


#: gen-0 threshold of the garbage collector while entries run (Python's default: 700)
YOUNG_GC_THRESHOLD = 20_000


@contextlib.contextmanager
def young_generation_threshold(threshold: int = YOUNG_GC_THRESHOLD) -> Iterator[None]:
    """Collect the youngest generation after ``threshold`` allocations instead of 700, for the body.

    Each step of an entry's graph allocates thousands of short-lived containers (LangGraph's tasks,
    configs, channel copies), so at 700 the collector ran about 2.5 times per entry and cost 0.6 ms of
    CPU per entry (``benchmarks/bench_generate.py``, latency 0, 200 entries); at 20 000 it costs about
    0.1 ms. Nearly all of these objects are freed by reference counting anyway; the few cycles wait a
    little longer. The older generations' thresholds are kept; the previous thresholds come back after.
    """
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], threshold), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def _tick(refresh: Callable[[], None], every_s: float = 0.5) -> None:
    while True:
        await asyncio.sleep(every_s)
        refresh()
