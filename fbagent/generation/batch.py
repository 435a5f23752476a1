"""``generate --batch``: the entries in waves, each wave's LLM requests one provider batch job (half the price).

The screening of a new selection comes first: each round of screening requests is one wave
(:func:`wave_settler`, called by :func:`fbagent.pairs.screening.screen_pairs`). Then a pass runs every pending entry through the entry graph with the LLM clients in collect mode
(:mod:`fbagent.llm.batch`): an answer the ``llm_calls`` cache holds is used as always; a request it does
not hold is recorded and stops its entry (:class:`~fbagent.llm.batch.BatchPending`; the entry's LangGraph
checkpoint stays, nothing is stored for it). The recorded requests of the pass are one wave: one batch job per
client (:func:`fbagent.llm.batch.settle`: submitted, its id stored in ``batch_jobs``, polled, its answers
written to ``llm_calls``), and the next pass carries every entry on from its checkpoint with those answers
from the cache, up to its next request. So the waves follow the entry graph: the base pairs, the LLM verb
check (``--verb-check llm``), the extensions (with the base pairs asked again after a failed self-check),
the round-trip definitions (and the judge). An entry ends when a pass takes it to its end: it is stored
as in a direct run, from the same requests and answers, so the items equal the direct run's.

A client whose provider has no batch API (a local verifier beside an OpenAI generator) is asked directly,
as without ``--batch``. ``--max-cost`` is checked before each wave (batch-answered calls at the batch price, the others at the
standard price: :func:`fbagent.generation.budget.session_cost`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from fbagent.generation.budget import RunBudget
from fbagent.generation.events import BatchJobs, GenerationSummary, OnEvent, RunWarning
from fbagent.generation.workers import Entry, EntryPool
from fbagent.llm.batch import BatchCollector, settle

if TYPE_CHECKING:
    from fbagent.llm.client import LLMClient


def collectors(clients: Sequence[LLMClient], emit: OnEvent) -> list[BatchCollector]:
    """Put every client whose provider has a batch API into collect mode; one warning per client asked
    directly instead. Returns the collectors (one per distinct client)."""
    found: list[BatchCollector] = []
    for client in {id(c): c for c in clients}.values():
        make = getattr(client.provider, "batch_api", None)
        api = make() if make is not None else None
        if api is None:
            emit(RunWarning(f"--batch: {client.backend} {client.model} has no batch API here; its requests are "
                            "sent directly"))
            continue
        client.batch = BatchCollector(client, api)
        found.append(client.batch)
    return found


def wave_settler(found: list[BatchCollector], *, run_id: int, summary: GenerationSummary,
                 emit: OnEvent) -> Callable[[], Awaitable[int]]:
    """``settle()``: send the requests the collectors ``found`` recorded as one wave (one batch job per
    client, side by side: a generator's and another verifier's), wait for it and store its answers; counts
    the wave in ``summary.batch_waves`` (the wave's number) and returns the clients asked (0: nothing
    recorded, no wave). The screening (:func:`fbagent.pairs.screening.screen_pairs`) and the entry passes
    (:func:`run_in_waves`) share it, so a run's waves are numbered in order."""
    async def settle_wave() -> int:
        asked = [c for c in found if c.lines]
        if asked:
            summary.batch_waves += 1
            await asyncio.gather(*(settle(c, run_id=run_id, wave=summary.batch_waves,
                                          report=lambda jobs: emit(BatchJobs(tuple(jobs)))) for c in asked))
        return len(asked)
    return settle_wave


async def run_in_waves(pool: EntryPool, todo: Callable[[], list[Entry]], found: list[BatchCollector], *,
                       workers: int, summary: GenerationSummary, item_errors: Counter[str],
                       budget: RunBudget | None) -> None:
    """Passes and waves until no entry is pending (module docstring); ``summary.batch_waves`` counts the
    waves sent. ``todo()``: the entries not finished yet. Raises the budget's
    :class:`~fbagent.providers.prices.CostCapReached` before a wave once ``--max-cost`` is spent."""
    settle_wave = wave_settler(found, run_id=pool.run["id"], summary=summary, emit=pool.emit)
    while True:
        entries = todo()
        if not entries:
            return
        await pool.run_all(entries, workers=workers, summary=summary, item_errors=item_errors)
        if not any(c.lines for c in found):   # every entry of the pass ended (or one failed outside the LLM)
            return
        if budget is not None and budget.over():
            raise budget.stop(len(todo()))
        await settle_wave()
