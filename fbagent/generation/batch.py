"""``generate --batch``: the entries in waves, each wave's LLM requests one provider batch job (half the price).

A pass runs every pending entry through the entry graph with the LLM clients in collect mode
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
from collections.abc import Callable, Sequence
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


async def run_in_waves(pool: EntryPool, todo: Callable[[], list[Entry]], found: list[BatchCollector], *,
                       workers: int, summary: GenerationSummary, item_errors: Counter[str],
                       budget: RunBudget | None) -> int:
    """Passes and waves until no entry is pending (module docstring); returns the waves sent. ``todo()``:
    the entries not finished yet. Raises the budget's :class:`~fbagent.providers.prices.CostCapReached`
    before a wave once ``--max-cost`` is spent."""
    wave = 0
    while True:
        entries = todo()
        if not entries:
            return wave
        await pool.run_all(entries, workers=workers, summary=summary, item_errors=item_errors)
        asked = [c for c in found if c.lines]
        if not asked:   # every entry of the pass ended (or one failed outside the LLM): nothing to wait for
            return wave
        if budget is not None and budget.over():
            raise budget.stop(len(todo()))
        wave += 1
        await asyncio.gather(*(settle(c, run_id=pool.run["id"], wave=wave, report=lambda jobs: pool.emit(
            BatchJobs(tuple(jobs)))) for c in asked))   # a generator's and another verifier's jobs side by side
