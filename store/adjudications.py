"""The lead's decisions on disputed entries (``fbagent annotate --mode adjudicate``; schema 12).

One ``adjudications`` row per decision, appended and never changed: the entry, who decided, the
decision (:data:`DECISIONS`), the reason (required) and the votes the decision saw (JSON). The latest
row of an entry is its adjudication; an earlier one stays as history. What a decision does to the filter
is :func:`fbagent.validation.adjudication.adjudicated_outcome`'s business; this module knows only the rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypedDict

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction

#: keep (the entry passes), drop (it fails), second_round (annotators who have not seen it judge it again)
DECISIONS = ("keep", "drop", "second_round")


class Adjudication(TypedDict):
    """One ``adjudications`` row, ``seen`` decoded."""

    id: int
    item_id: str
    adjudicator: str
    decision: str
    reason: str
    seen: dict[str, Any]
    decided_at: str


def record(db: sqlite_utils.Database, item_id: str, adjudicator: str, decision: str, reason: str,
           seen: dict[str, Any]) -> int:
    """Append a decision (one short transaction) and return its row id. Raises :class:`FbagentError` for a
    decision not in :data:`DECISIONS`, an empty reason or an unknown entry (nothing is written)."""
    if decision not in DECISIONS:
        raise FbagentError(f"adjudication {decision!r} is not a decision", f"use one of {', '.join(DECISIONS)}")
    if not reason.strip():
        raise FbagentError("an adjudication needs a reason", "type why you keep, drop or send the entry on")
    with transaction(db) as conn:
        if conn.execute("SELECT 1 FROM items WHERE id = ?", [item_id]).fetchone() is None:
            raise FbagentError(f"no entry {item_id!r} in this database", "adjudicate an entry of this database")
        cur = conn.execute(
            "INSERT INTO adjudications (item_id, adjudicator, decision, reason, seen, decided_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [item_id, adjudicator, decision, reason.strip(), json.dumps(seen, sort_keys=True), utc_now()])
        return int(cur.lastrowid or 0)


def _row(r: dict[str, Any]) -> Adjudication:
    return {"id": r["id"], "item_id": r["item_id"], "adjudicator": r["adjudicator"], "decision": r["decision"],
            "reason": r["reason"], "seen": json.loads(r["seen"] or "{}"), "decided_at": r["decided_at"]}


def latest(db: sqlite_utils.Database, item_ids: Iterable[str] | None = None) -> dict[str, Adjudication]:
    """Item id -> its latest adjudication, for ``item_ids`` (all entries when None). A database without
    the table (read-only, older schema) has none."""
    if not db["adjudications"].exists():
        return {}
    wanted = None if item_ids is None else set(item_ids)
    out: dict[str, Adjudication] = {}
    for r in db.query("SELECT * FROM adjudications ORDER BY id"):
        if wanted is None or r["item_id"] in wanted:
            out[r["item_id"]] = _row(r)
    return out


def history(db: sqlite_utils.Database, item_id: str) -> list[Adjudication]:
    """Every decision on ``item_id``, oldest first."""
    if not db["adjudications"].exists():
        return []
    return [_row(r) for r in db.query("SELECT * FROM adjudications WHERE item_id = ? ORDER BY id", [item_id])]


def second_round_for(db: sqlite_utils.Database, annotator: str) -> list[str]:
    """Entries whose latest decision is ``second_round`` and that ``annotator`` had not seen when it was
    taken (no task of theirs on the entry created before it): the entries a second round gives them."""
    out = []
    for item_id, d in latest(db).items():
        if d["decision"] != "second_round":
            continue
        seen = db.execute("SELECT 1 FROM annotation_tasks WHERE annotator = ? AND item_id = ? AND created_at <= ?",
                          [annotator, item_id, d["decided_at"]]).fetchone()
        if seen is None:
            out.append(item_id)
    return out
