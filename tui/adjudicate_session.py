"""Adjudicate mode without UI: the lead walks the disputed entries only, sees every judgment with the
annotators anonymised, and stores a decision (keep, drop, second round) with a reason.

Disputed entries and what a decision does: :mod:`fbagent.validation.adjudication`. The screen
(:mod:`fbagent.tui.adjudicate_screen`) only draws and forwards keys.
"""

from __future__ import annotations

from typing import Any, TypedDict

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store import adjudications
from fbagent.store import annotations as ann
from fbagent.store import revisions as rev
from fbagent.tui.session import Selection, assigned_entries
from fbagent.validation.adjudication import disputed
from fbagent.validation.aggregate import (
    DEFAULT_MIN_ACCEPTABLE,
    DEFAULT_MIN_CORRECT,
    EntryScore,
    score_entries,
)
from fbagent.validation.assignment import SCORED_PAIRS, selected_fields

#: what the screen shows for each decision
DECISION_LABELS = {"keep": "keep", "drop": "drop", "second_round": "second round"}
SENTENCE_LABELS = {"sentence_a": "S_A", "sentence_b": "S_B", "sentence_a_prime": "S_A'", "sentence_b_prime": "S_B'"}


class JudgmentLine(TypedDict):
    """One anonymised annotator's judgments of one entry, as the screen shows them."""

    annotator: str
    correct: bool
    acceptable: bool
    answers: dict[str, str]


class AdjudicateSession:
    """The lead's walk over the disputed entries of a selection (stable entry order)."""

    mode = "adjudicate"

    def __init__(self, db: sqlite_utils.Database, annotator: str, item_ids: list[str], *,
                 min_correct: int = DEFAULT_MIN_CORRECT, min_acceptable: int = DEFAULT_MIN_ACCEPTABLE) -> None:
        self.db = db
        self.annotator = annotator
        self.item_ids = item_ids
        self.min_correct, self.min_acceptable = min_correct, min_acceptable
        self.entries = score_entries(db, item_ids, min_correct=min_correct, min_acceptable=min_acceptable)
        names = {n for e in self.entries.values() for n in e.pairs}
        order = {n: i for i, n in enumerate(ann.annotators_by_first_task(db), start=1)}
        #: annotator name -> the label the lead sees: the number the exports give (annotator_i, one numbering
        #: per database: fbagent.publish.annotators)
        self.aliases = {n: f"annotator {order.setdefault(n, len(order) + 1)}" for n in sorted(names, key=lambda n: order.get(n, 1 << 30))}
        self.index = next((i for i, x in enumerate(item_ids) if self.entries[x].adjudication is None), 0)

    @classmethod
    def open(cls, db: sqlite_utils.Database, annotator: str, selection: Selection, *,
             min_correct: int = DEFAULT_MIN_CORRECT, min_acceptable: int = DEFAULT_MIN_ACCEPTABLE) -> AdjudicateSession:
        """The disputed entries of ``selection`` (decided ones too, to revisit). Raises :class:`FbagentError`
        for bad input (unknown run, nothing selected) or when no entry is disputed."""
        ids = [r["id"] for r in assigned_entries(db, selection)]
        scored = score_entries(db, ids, min_correct=min_correct, min_acceptable=min_acceptable)
        picked = [i for i in ids if disputed(scored[i], min_correct, min_acceptable) or scored[i].adjudication
                  or scored[i].set_aside]
        if not picked:
            judged = sum(1 for e in scored.values() if e.scores)
            raise FbagentError(f"no disputed entry among the {len(ids)} selected ({judged} judged): every judged entry "
                               "is unanimous and not within one vote of the filter",
                               "nothing to adjudicate; let annotators judge more entries (fbagent annotate)")
        return cls(db, annotator, picked, min_correct=min_correct, min_acceptable=min_acceptable)

    @property
    def total(self) -> int:
        """Disputed entries in the walk."""
        return len(self.item_ids)

    @property
    def n_decided(self) -> int:
        """Entries of the walk with a decision."""
        return sum(1 for x in self.item_ids if self.entries[x].adjudication is not None)

    @property
    def entry(self) -> EntryScore:
        """The scored entry on screen."""
        return self.entries[self.item_ids[self.index]]

    def item(self) -> dict[str, Any]:
        """The effective (revised) item on screen."""
        return rev.effective_item(self.db, self.item_ids[self.index]) or {}

    def judgments(self) -> list[JudgmentLine]:
        """The entry's judgments, one line per annotator with an entry score, in alias order; answers name
        the canonical sentences selected (``S_A``, ``S_B'``, ... or ``none``)."""
        e = self.entry
        out: list[JudgmentLine] = []
        for name in sorted(e.scores, key=lambda n: int(self.aliases[n].split()[-1])):
            answers = {}
            for pair in SCORED_PAIRS:
                j = e.pairs[name][pair]
                fields = selected_fields(j.choice, j.shown_first, j.shown_second)
                label = "+".join(SENTENCE_LABELS[f] for f in sorted(fields)) or "none"
                answers[pair] = f"{label}, {j.acceptability}"
            out.append({"annotator": self.aliases[name], "correct": e.scores[name]["correct"],
                        "acceptable": e.scores[name]["acceptable"], "answers": answers})
        return out

    def decide(self, decision: str, reason: str) -> None:
        """Store ``decision`` with ``reason`` for the entry on screen and go on to the next undecided one.
        Raises :class:`FbagentError` for an unknown decision or an empty reason (nothing is stored)."""
        e = self.entry
        seen = {"n_correct": e.n_correct, "n_acceptable": e.n_acceptable, "annotators": len(e.scores),
                "min_correct": self.min_correct, "min_acceptable": self.min_acceptable}
        adjudications.record(self.db, e.item_id, self.annotator, decision, reason, seen)
        self.entries.update(score_entries(self.db, [e.item_id], min_correct=self.min_correct,
                                          min_acceptable=self.min_acceptable))
        later = [i for i in range(self.index + 1, self.total) if self.entries[self.item_ids[i]].adjudication is None]
        if later:
            self.index = later[0]

    def move(self, step: int) -> None:
        """Go ``step`` entries forward (negative: back), staying inside the walk."""
        self.index = max(0, min(self.total - 1, self.index + step))

    def close(self) -> None:
        """Nothing to flush: every decision is stored when made."""
