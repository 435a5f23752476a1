"""``generate --max-cost USD``: the dollars a run has spent, and when to start no new entry.

Spent = the run's recorded usage before this session (``llm_calls`` tokens per model, at the price table's
prices: :func:`fbagent.store.runs.usage_by_model`) + this session's clients' tokens (every attempt) at their
model's price (the batch price for calls a provider batch job answered, ``--batch``). Once spent reaches the cap, no new entry starts; the entries in flight finish and are stored
(at most one wave: ``2 x --concurrency`` entries), and the run stops with
:class:`~fbagent.providers.prices.CostCapReached` (exit 1); the same command with a higher cap resumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlite_utils

from fbagent.providers.prices import CostCapReached, Price, PriceTable, check_cap, usd
from fbagent.store.runs import usage_by_model

if TYPE_CHECKING:
    from fbagent.llm.client import LLMClient


@dataclass
class RunBudget:
    """``cap`` dollars for a run; ``before``: dollars of its earlier sessions; ``clients``: this session's LLM
    clients (``.stats.input_tokens`` / ``.output_tokens``) with their model's :class:`Price`."""

    cap: float
    before: float
    clients: list[tuple[LLMClient, Price]]
    date: str = ""

    def spent(self) -> float:
        """Dollars spent so far, earlier sessions included; calls answered through a batch job at the batch price."""
        return self.before + sum(session_cost(c, p) for c, p in self.clients)

    def over(self) -> bool:
        return self.spent() >= self.cap

    def stop(self, left: int) -> CostCapReached:
        """The error that ends the session (``left``: entries not started)."""
        return CostCapReached(f"--max-cost {usd(self.cap)} is spent ({usd(self.spent())} at the prices of "
                              f"{self.date}); {left} entries were not started",
                              "run the same command with a higher --max-cost to go on (nothing stored is asked again)")


def session_cost(client: LLMClient, price: Price) -> float:
    """Dollars of ``client``'s calls this session at ``price``: direct calls at the standard price, calls
    answered through a provider batch job (``generate --batch``) at its ``batch_discount``."""
    s = client.stats
    return (price.cost(s.input_tokens - s.batch_input_tokens, s.output_tokens - s.batch_output_tokens)
            + price.cost(s.batch_input_tokens, s.batch_output_tokens, batch=True))


def run_budget(db: sqlite_utils.Database, run_id: int, clients: Sequence[LLMClient], cap: float | None, prices: PriceTable) -> RunBudget | None:
    """The :class:`RunBudget` of run ``run_id`` (``None`` without a cap). Raises :class:`FbagentError` when the
    price table has no price for a model the run used or uses (:func:`fbagent.providers.prices.check_cap`)."""
    if cap is None:
        return None
    before = 0.0
    for m in usage_by_model(db, run_id):
        price = prices.lookup(m["backend"], m["model"])
        check_cap(cap, price, f"{m['backend']}:{m['model']}")
        assert price is not None
        before += price.cost(m["input_tokens"], m["output_tokens"], batch=m["batch"])
    priced: list[tuple[LLMClient, Price]] = []
    for client in {id(c): c for c in clients}.values():
        price = prices.lookup(client.backend, client.model)
        check_cap(cap, price, f"{client.backend}:{client.model}")
        assert price is not None
        priced.append((client, price))
    return RunBudget(cap, before, priced, prices.date)
