"""Where a team of annotators stands (``fbagent annotators status`` and the lead's line in
``annotate --serve``'s log): who judged how much, what is left, the disputes and the second round.

Counts use current judgments only (a pair task judged on an older text is left again,
:func:`fbagent.validation.aggregate.collect`); ``left`` = pair tasks built for the annotator and not judged
on the current text. Disputed: :func:`fbagent.validation.adjudication.disputed` at the filter given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

import sqlite_utils

from fbagent.store.annotations import select_items
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.validation.adjudication import disputed
from fbagent.validation.aggregate import (
    DEFAULT_MIN_ACCEPTABLE,
    DEFAULT_MIN_CORRECT,
    EntryScore,
    score_entries,
)


class AnnotatorProgress(TypedDict):
    """One annotator: pair tasks built, judged on the current text, left; entries with an entry score;
    the last time a session of theirs was active (ISO, UTC; None when never)."""

    annotator: str
    tasks: int
    judged: int
    left: int
    entries: int
    last_active: str | None


class TeamStatus(TypedDict):
    """The team: per annotator, entries in scope / judged by anyone / by the usual panel, disputed
    entries, those decided by the lead, and entries waiting for a second round."""

    annotators: list[AnnotatorProgress]
    entries: int
    judged: int
    full_panel: int
    panel: int
    disputed: int
    decided: int
    second_round_pending: int


def team_status(db: sqlite_utils.Database, *, statuses: Sequence[str] = ANNOTATED_STATUSES,
                min_correct: int = DEFAULT_MIN_CORRECT, min_acceptable: int = DEFAULT_MIN_ACCEPTABLE,
                entries: dict[str, EntryScore] | None = None) -> TeamStatus:
    """The team's status over the entries with ``statuses`` (``entries``: already scored ones, to reuse)."""
    if entries is None:
        ids = [r["id"] for r in select_items(db, statuses=statuses)]
        entries = score_entries(db, ids, min_correct=min_correct, min_acceptable=min_acceptable)
    names = sorted({n for e in entries.values() for n in e.states})
    last = {r["annotator"]: r["t"] for r in db.query(
        "SELECT annotator, max(last_active_at) AS t FROM annotation_sessions GROUP BY annotator")}
    rows: list[AnnotatorProgress] = []
    for n in names:
        states = [s for e in entries.values() for s in e.states.get(n, {}).values()]
        judged = sum(1 for s in states if s == "current")
        rows.append({"annotator": n, "tasks": len(states), "judged": judged, "left": len(states) - judged,
                     "entries": sum(1 for e in entries.values() if n in e.scores), "last_active": last.get(n)})
    sizes = [len(e.scores) for e in entries.values() if e.scores]
    panel = max(sizes, default=0)
    dis = [e for e in entries.values() if disputed(e, min_correct, min_acceptable) or e.adjudication]
    return {"annotators": rows, "entries": len(entries), "judged": len(sizes),
            "full_panel": sum(1 for s in sizes if s >= panel) if panel else 0, "panel": panel,
            "disputed": len(dis), "decided": sum(1 for e in dis if e.adjudication is not None),
            "second_round_pending": sum(1 for e in entries.values() if e.outcome == "second round pending")}


def status_line(status: TeamStatus) -> str:
    """One line for the lead (``annotate --serve``'s log): judged / tasks per annotator, the entries
    judged, disputes decided, second round waiting."""
    who = ", ".join(f"{a['annotator']} {a['judged']}/{a['tasks']}" for a in status["annotators"])
    return (f"status: {who + ' pair tasks judged' if who else 'no pair task judged yet'}; {status['judged']}/{status['entries']} entries judged "
            f"({status['full_panel']} by {status['panel']}); {status['decided']}/{status['disputed']} disputed "
            f"decided; {status['second_round_pending']} waiting for a second round")
