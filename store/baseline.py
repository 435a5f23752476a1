"""Queries of the independent human baseline (table ``baseline_tasks``, ``annotate --mode baseline``).

One row per problem shown to one annotator: an entry's base pair or extended pair, its two sentences
in a seeded order, the gold option and the answer. The sampling and the refusal rules live in
:mod:`fbagent.validation.baseline`; this module only reads and writes rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlite_utils

from fbagent.store.annotations import shown_question
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.revisions import effective_texts

ANSWERS = ("sentence_a", "sentence_b", "both", "neither")


def judged_items(db: sqlite_utils.Database, annotator: str) -> set[str]:
    """Ids of the items ``annotator`` answered any validation task of (choice given, in ``annotation_tasks``)."""
    return {r["item_id"] for r in db.query(
        "SELECT DISTINCT item_id FROM annotation_tasks WHERE annotator = ? AND choice IS NOT NULL", [annotator])}


def tasks(db: sqlite_utils.Database, annotator: str) -> list[dict[str, Any]]:
    """The annotator's baseline tasks in sample order, each with the item's language and current (revised)
    texts: ``question`` (the four-choice form shown) and the two sentences shown as ``first`` / ``second``."""
    rows = list(db.query(
        """SELECT t.*, i.language AS language FROM baseline_tasks t JOIN items i ON i.id = t.item_id
           WHERE t.annotator = ? ORDER BY t.position""", [annotator]))
    texts = effective_texts(db, [r["item_id"] for r in rows])
    for r in rows:
        t = texts[r["item_id"]]
        r["question"], r["first"], r["second"] = shown_question(t), t[r["shown_first"]], t[r["shown_second"]]
    return rows


def insert_tasks(db: sqlite_utils.Database, rows: Iterable[dict[str, Any]]) -> int:
    """Store new baseline tasks (``annotator, item_id, pair, position, seed, shown_first, shown_second, gold,
    fingerprint``) in one transaction; returns how many."""
    now = utc_now()
    rows = [{**r, "created_at": now} for r in rows]
    with transaction(db):
        db.table("baseline_tasks").insert_all(rows)
    return len(rows)


def save_answer(db: sqlite_utils.Database, task_id: int, answer: str) -> bool:
    """Record ``answer`` (one of :data:`ANSWERS`) for a task; returns whether it is correct. Raises
    ``ValueError`` for another answer."""
    if answer not in ANSWERS:
        raise ValueError(f"answer must be one of {ANSWERS}")
    row = next(db.query("SELECT gold FROM baseline_tasks WHERE id = ?", [task_id]))
    correct = int(answer == row["gold"])
    with transaction(db):
        db.conn.execute("UPDATE baseline_tasks SET answer = ?, correct = ?, answered_at = ? WHERE id = ?",
                        (answer, correct, utc_now(), task_id))
    return bool(correct)


def answered(db: sqlite_utils.Database, item_ids: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Answered baseline tasks (``annotator, item_id, pair, correct``), of ``item_ids`` when given; an old
    database without the table gives none."""
    if "baseline_tasks" not in db.table_names():
        return []
    rows = list(db.query("SELECT annotator, item_id, pair, correct FROM baseline_tasks WHERE answer IS NOT NULL "
                         "ORDER BY id"))
    wanted = None if item_ids is None else set(item_ids)
    return [r for r in rows if wanted is None or r["item_id"] in wanted]
