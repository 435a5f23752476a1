"""The lead's decisions on disputed entries (``fbagent annotate --mode adjudicate``; schema 12, 14).

One ``adjudications`` row per decision, appended and never changed: the entry, who decided, the
decision (:data:`DECISIONS`), the reason (required), the votes the decision saw (JSON) and (schema 14)
the :func:`entry_fingerprint` of the entry's text it was taken on. The latest row of an entry is its
adjudication; an earlier one stays as history. A decision belongs to its text, as judgments do
(FrameBench 3.3, "Manual Revision": a revised entry is judged again): once the entry is revised
(``annotate --mode revise``) the decision is set aside (:func:`set_aside`) until the text is reverted or
the lead decides again. What a decision does to the filter is
:mod:`fbagent.validation.adjudication`'s business; this module knows only the rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.revisions import REVISABLE_FIELDS, effective_texts, revisions_by_item, texts_at

#: keep (the entry passes), drop (it fails), second_round (annotators who have not seen it judge it again)
DECISIONS = ("keep", "drop", "second_round")


class Adjudication(TypedDict):
    """One ``adjudications`` row, ``seen`` decoded."""

    id: int
    item_id: str
    adjudicator: str
    decision: str
    reason: str
    seen: dict[str, object]
    decided_at: str
    fingerprint: str | None


def entry_fingerprint(texts: Mapping[str, object]) -> str:
    """32 hex digits of sha256 over the entry's revisable texts (``{field: text}`` of
    :data:`fbagent.store.revisions.REVISABLE_FIELDS`, in that order, as JSON): which text a decision was
    taken on. Equal to what schema step 14 stored for older decisions."""
    blob = json.dumps([texts.get(f) for f in REVISABLE_FIELDS], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def record(db: sqlite_utils.Database, item_id: str, adjudicator: str, decision: str, reason: str,
           seen: Mapping[str, object]) -> int:
    """Append a decision (one short transaction) and return its row id. Raises :class:`FbagentError` for a
    decision not in :data:`DECISIONS`, an empty reason or an unknown entry (nothing is written)."""
    if decision not in DECISIONS:
        raise FbagentError(f"adjudication {decision!r} is not a decision", f"use one of {', '.join(DECISIONS)}")
    if not reason.strip():
        raise FbagentError("an adjudication needs a reason", "type why you keep, drop or send the entry on")
    with transaction(db) as conn:
        if conn.execute("SELECT 1 FROM items WHERE id = ?", [item_id]).fetchone() is None:
            raise FbagentError(f"no entry {item_id!r} in this database", "adjudicate an entry of this database")
        fingerprint = entry_fingerprint(effective_texts(db, [item_id])[item_id])
        cur = conn.execute(
            "INSERT INTO adjudications (item_id, adjudicator, decision, reason, seen, decided_at, fingerprint)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [item_id, adjudicator, decision, reason.strip(), json.dumps(seen, sort_keys=True), utc_now(), fingerprint])
        return int(cur.lastrowid or 0)


def _row(r: dict[str, Any]) -> Adjudication:
    return {"id": r["id"], "item_id": r["item_id"], "adjudicator": r["adjudicator"], "decision": r["decision"],
            "reason": r["reason"], "seen": json.loads(r["seen"] or "{}"), "decided_at": r["decided_at"],
            "fingerprint": r.get("fingerprint")}


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


def set_aside(db: sqlite_utils.Database, decisions: dict[str, Adjudication]) -> dict[str, list[str]]:
    """Item id -> the fields revised since the decision, for the ``decisions`` (item id -> its latest row) taken on
    a text the entry no longer has (fingerprint differs from the current text's; a decision without a
    fingerprint, written by an fbagent before schema 14 into a newer file, is kept). A text revised and then
    reverted has its decision again. Fields: those whose text differs from the text at ``decided_at``
    (``[]`` when only the order of edits made the difference)."""
    known = {i: d for i, d in decisions.items() if d.get("fingerprint")}
    if not known:
        return {}
    current = effective_texts(db, list(known))
    changed = [i for i, d in known.items() if i in current and entry_fingerprint(current[i]) != d["fingerprint"]]
    if not changed:
        return {}
    revs = revisions_by_item(db, changed)
    cols = ", ".join(("id", *REVISABLE_FIELDS))
    items = {r["id"]: r for r in db.query(f"SELECT {cols} FROM items WHERE id IN ({', '.join('?' for _ in changed)})",
                                          changed)}
    out = {}
    for i in changed:
        then = texts_at(items[i], revs.get(i, []), before=known[i]["decided_at"])
        out[i] = [f for f in REVISABLE_FIELDS if then.get(f) != current[i].get(f)]
    return out


def second_round_for(db: sqlite_utils.Database, annotator: str) -> list[str]:
    """Entries whose latest decision is ``second_round`` (and still applies: :func:`set_aside`) and that
    ``annotator`` had not seen when it was taken (no task of theirs on the entry created strictly before it: one
    created in the decision's millisecond counts as after, as ``second_round_annotators`` of
    :mod:`fbagent.validation.adjudication` counts it): the entries a second round gives them."""
    out = []
    decisions = latest(db)
    aside = set_aside(db, {i: d for i, d in decisions.items() if d["decision"] == "second_round"})
    for item_id, d in decisions.items():
        if d["decision"] != "second_round" or item_id in aside:
            continue
        seen = db.execute("SELECT 1 FROM annotation_tasks WHERE annotator = ? AND item_id = ? AND created_at < ?",
                          [annotator, item_id, d["decided_at"]]).fetchone()
        if seen is None:
            out.append(item_id)
    return out
