"""Queries for generated benchmark entries (the ``items`` table).

An item is one entry = frame pair x k of a run: question, four sentences,
every self-check and verifier value, a status (``verified`` | ``flagged`` |
``rejected`` | ``failed``) and the reasons. Items are written once the entry's
graph has finished, in one short transaction each, so a killed run never
leaves a half-written item. ``failed`` items (LLM trouble) are redone on the
next run; the others are final. This module knows no LLM.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from fbagent.store.transaction import hold, is_held, transaction

if TYPE_CHECKING:
    import sqlite_utils

#: every item status, in the order tables show them; the one place that names them
STATUSES = ("verified", "flagged", "rejected", "failed")
#: the statuses a rerun skips (``failed`` is redone)
FINAL_STATUSES = ("verified", "flagged", "rejected")
#: the statuses annotated and exported by default
ANNOTATED_STATUSES = ("verified", "flagged")
JSON_FIELDS = ("target_spans", "checks", "verifier", "reasons")
COLUMNS = (
    "id", "run_id", "pair_id", "k", "language", "lexicon", "verb", "lu_a", "lu_b", "frame_a", "frame_b",
    "question", "question_four_choice", "condition", "sentence_a", "sentence_b", "sentence_a_prime",
    "sentence_b_prime", "verb_form_a", "verb_form_b", "verb_form_a_prime", "verb_form_b_prime", "target_spans",
    "lexical_similarity", "checks", "verifier", "status", "reasons", "attempts", "generator_model",
    "created_at", "updated_at", "verb_check",
)


def item_id(run_name: str, pair_id: int, k: int) -> str:
    """The id of entry ``k`` of frame pair ``pair_id`` in run ``run_name``: ``"<run>:<pair id>:<k>"``."""
    return f"{run_name}:{pair_id}:{k}"


def finished_ids(db: sqlite_utils.Database, run_id: int) -> set[str]:
    """Ids of the run's items with a final status (verified, flagged, rejected): skipped on resume."""
    marks = ",".join("?" * len(FINAL_STATUSES))
    return {r[0] for r in db.execute(
        f"SELECT id FROM items WHERE run_id = ? AND status IN ({marks})", [run_id, *FINAL_STATUSES])}


def save_item(db: sqlite_utils.Database, item: dict[str, Any], *, held: bool = False) -> bool:
    """Insert or update one item in a single short transaction (``created_at`` of an existing row is kept), or
    with ``held=True`` into the connection's held group (:func:`fbagent.store.transaction.hold`, as the
    ``llm_calls`` rows of the answers: committed by the next :func:`~fbagent.store.transaction.commit_held`,
    or first thing by the next :func:`transaction`); ``held`` inside another open transaction joins it.

    Returns whether this call opened the held group (the caller then arranges its ``commit_held``); False
    without ``held``. ``item`` holds :data:`COLUMNS` (missing ones are NULL); JSON fields may be
    Python objects. Raises ``ValueError`` for an unknown status, ``sqlite3.Error`` when the database fails.
    """
    if item.get("status") not in STATUSES:
        raise ValueError(f"unknown item status {item.get('status')!r}")
    row = {c: item.get(c) for c in COLUMNS}
    for key in JSON_FIELDS:
        if row[key] is not None and not isinstance(row[key], str):
            row[key] = json.dumps(row[key], ensure_ascii=False)
    cols = ", ".join(COLUMNS)
    marks = ", ".join("?" * len(COLUMNS))
    updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in ("id", "created_at"))
    sql = f"INSERT INTO items ({cols}) VALUES ({marks}) ON CONFLICT(id) DO UPDATE SET {updates}"
    conn = db.conn
    if held and (is_held(conn) or not conn.in_transaction):
        opened = hold(conn)
        conn.execute(sql, [row[c] for c in COLUMNS])
        return opened
    with transaction(db) as conn:  # upsert, not REPLACE: item_revisions may reference the row
        conn.execute(sql, [row[c] for c in COLUMNS])
    return False


def decode(row: dict[str, Any]) -> dict[str, Any]:
    """Decode the JSON fields of an ``items`` row."""
    row = dict(row)
    for key in JSON_FIELDS:
        if isinstance(row.get(key), str):
            row[key] = json.loads(row[key])
    return row


def run_items(db: sqlite_utils.Database, run_id: int, status: str | None = None) -> list[dict[str, Any]]:
    """Items of a run (optionally of one status), ordered by pair and k, JSON fields decoded."""
    sql = "SELECT * FROM items WHERE run_id = ?" + (" AND status = ?" if status else "") + " ORDER BY pair_id, k"
    return [decode(r) for r in db.query(sql, [run_id, status] if status else [run_id])]
