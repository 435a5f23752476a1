"""Which frame-pair selection a run uses, and its screening.

The rule (documented in ``docs/generate.md``, "Which selection a run uses"): a run
keeps the selection it got for good. A run without one reuses the newest stored
selection of its lexicon whose selection options (:class:`fbagent.pairs.select.SelectionOptions`:
pairs, seed, max per verb, per pair, min examples, the eligibility switches,
related types) equal the run's and that no other run uses, typically one just
made by ``fbagent pairs select``; otherwise it makes a new one. Runs never share
a selection, because screening changes it (pairs screened out, reserve promoted).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlite_utils

from fbagent.generation.events import GenerationSummary, OnEvent, ScreeningDone, SelectionChosen
from fbagent.generation.options import GenerateOptions
from fbagent.pairs.screening import load_run_pairs, screen_pairs
from fbagent.pairs.select import SelectionOptions
from fbagent.pairs.select import select_pairs as make_selection
from fbagent.store import runs as runs_store
from fbagent.store.pairs import get_selection, list_selections, selection_runs
from fbagent.store.rows import LexiconRow, RunRow

if TYPE_CHECKING:
    from fbagent.llm.client import LLMClient
    from fbagent.prompting.messages import Prompts


@dataclass(frozen=True)
class SelectionChoice:
    """The outcome of the rule: ``selection_id`` to reuse (``None``: make a new one) and why."""

    selection_id: int | None
    reason: str


def choose_selection(db: sqlite_utils.Database, lexicon: LexiconRow, options: SelectionOptions) -> SelectionChoice:
    """Apply the reuse rule (module doc) for a run on ``lexicon`` (a ``lexicons`` row) asking for ``options``."""
    stored = list_selections(db, lexicon["id"])   # oldest first
    if not stored:
        return SelectionChoice(None, f"no selection of lexicon {lexicon['name']!r} is stored")
    users = selection_runs(db, lexicon["id"])
    wanted = options.to_json()
    same = [s for s in stored if SelectionOptions.from_json(s["options"]).to_json() == wanted]
    free = [s for s in same if s["id"] not in users]
    if free:
        return SelectionChoice(free[-1]["id"], "made by `pairs select` (same lexicon and selection options, "
                                               "used by no run)")
    if same:
        taken = same[-1]
        return SelectionChoice(None, f"selection {taken['id']}, with the same options, belongs to run "
                                     f"{users[taken['id']][0]!r} (runs never share a selection: screening changes it)")
    newest = SelectionOptions.from_json(stored[-1]["options"]).to_json()
    diff = ", ".join(f"{k.replace('_', '-')} {newest[k]!r} -> {wanted[k]!r}" for k in wanted if newest[k] != wanted[k])
    return SelectionChoice(None, f"no stored selection of lexicon {lexicon['name']!r} has the run's selection "
                                 f"options (newest, {stored[-1]['id']}: {diff})")


def screens(opts: GenerateOptions) -> bool:
    """Whether a run screens its selection: ``--screen`` on and a protocol that screens (the FrameBench
    authors' protocol, ``--protocol framebench``, screens nothing)."""
    return bool(opts.run.screen) and opts.selection.protocol != "framebench"


def screening_done(run: RunRow) -> bool:
    """Whether the run's selection was screened to the end (recorded in the run's options)."""
    return bool((run.get("options") or {}).get("screening_done"))


async def prepare_selection(db: sqlite_utils.Database, lexicon: LexiconRow, opts: GenerateOptions, run: RunRow, *,
                            screen_client: LLMClient, prompts: Prompts, summary: GenerationSummary,
                            emit: OnEvent,
                            settle_batch: Callable[[], Awaitable[object]] | None = None) -> list[dict[str, Any]]:
    """Give ``run`` its selection (once: reused or made, :func:`choose_selection`), screen it with
    ``screen_client`` when ``opts.run.screen`` and not done yet, and return its selected pairs in rank order.

    Updates ``run`` (``selection_id``, ``options.screening_done``) in memory and in the
    store; sets ``summary.selection``; emits :class:`SelectionChosen` and :class:`ScreeningDone`.
    ``settle_batch``: ``generate --batch`` (the screening requests go out as batch waves,
    :func:`fbagent.generation.batch.wave_settler`).
    """
    options = opts.selection
    if run.get("selection_id") is None:
        choice = choose_selection(db, lexicon, options)
        if choice.selection_id is not None:
            stored = get_selection(db, choice.selection_id)
            selection = {"selection_id": choice.selection_id, "counts": stored["counts"],
                         "pairs": load_run_pairs(db, choice.selection_id)}
        else:  # made and stored as `fbagent pairs select` does; the selection graph screens it below
            made = make_selection(db, lexicon, options, reuse=False)
            selection = {"selection_id": made["selection_id"], "counts": made["counts"], "pairs": made["pairs"],
                         "screened": {}, "screened_out": []}
        runs_store.update_run(db, run["id"], selection_id=selection["selection_id"])
        run["selection_id"] = selection["selection_id"]
        summary.selection = {**selection, "reused": choice.selection_id is not None, "reason": choice.reason}
        emit(SelectionChosen(selection_id=selection["selection_id"], reused=choice.selection_id is not None,
                             reason=choice.reason, pairs=len(selection["pairs"]), requested=opts.selection.pairs,
                             candidates=(selection.get("counts") or {}).get("candidates")))
    if screens(opts) and not screening_done(run):
        screening = await screen_pairs(db, lexicon, options, screen_client=screen_client, prompts=prompts,
                                       run_id=run["id"], save=True, selection_id=run["selection_id"],
                                       settle_batch=settle_batch)
        run["options"] = {**(run.get("options") or {}), "screening_done": True}
        runs_store.update_run(db, run["id"], options=run["options"])
        summary.selection = {**(summary.selection or {}), "screened": screening["screened"],
                             "screened_out": screening["screened_out"]}
        screened = screening["screened"]
        emit(ScreeningDone(checked=len(screened), screened_out=list(screening["screened_out"]),
                           failed=sum(1 for v in screened.values() if v.get("error")),
                           selected=len(screening["pairs"])))
    selection_id = run["selection_id"]
    assert selection_id is not None   # the run's own, or the one chosen above
    return load_run_pairs(db, selection_id)
