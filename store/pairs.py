"""Queries for frame-pair selection (tables ``selections`` and ``frame_pairs``).

The selection logic itself (candidates, eligibility filters, seeded stratified
sampling) is pure and lives in :mod:`fbagent.pairs.select`; this module reads the
facts it needs from an imported lexicon and stores its result.

``frame_pairs`` rows of one selection: ``status='selected'`` (ranks 0..P-1, the
sample), then ``status='reserve'`` (the rest of the eligible pool, in seeded
order); LLM screening marks a pair ``screened_out`` with a ``reason`` and
promotes the lowest-ranked reserve pair (:func:`replace_from_reserve`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, cast

import sqlite_utils

from fbagent import seeds
from fbagent.errors import FbagentError
from fbagent.framenet.lu_names import group_lemma
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.lexicon import CORE_TYPES_SQL
from fbagent.store.rows import AnnotatedVerbLU, FrameFacts, VerbLU
from fbagent.store.transaction import inserted_id


def verb_lexical_units(db: sqlite_utils.Database, lexicon_id: int) -> list[VerbLU]:
    """Verb LUs (POS ``V``) of a lexicon with their exemplar counts.

    Returns ``[{"lemma", "lu", "frame", "n_exemplars"}]`` ordered by lemma,
    frame, LU name. ``lemma`` is the grouping lemma
    (:func:`fbagent.framenet.lu_names.group_lemma`: parentheticals set aside,
    ``_`` as a space), so ``sleep (together/with).v`` and ``sleep.v`` are one
    verb; ``lu`` keeps the full LU name.
    """
    rows = [
        VerbLU(lemma=group_lemma(r["lemma"]), lu=r["lu"], frame=r["frame"], n_exemplars=r["n_exemplars"])
        for r in db.query(
            """SELECT lu.lemma AS lemma, lu.name AS lu, f.name AS frame,
                      (SELECT COUNT(*) FROM exemplars x WHERE x.lu_pk = lu.id) AS n_exemplars
               FROM lexical_units lu JOIN frames f ON f.id = lu.frame_pk
               WHERE lu.lexicon_id = ? AND lu.pos = 'V'""",
            [lexicon_id],
        )
    ]
    return sorted(rows, key=lambda r: (r["lemma"], r["frame"], r["lu"]))


def annotated_verb_lexical_units(db: sqlite_utils.Database, lexicon_id: int) -> list[AnnotatedVerbLU]:
    """Verb LUs (POS ``V``) of a lexicon as the FrameBench authors read them: ``[{"lu", "frame",
    "n_annotated"}]`` (``n_annotated``: the resource's annotated-sentence count), frames sorted by
    name and LUs in import order within a frame (:mod:`fbagent.pairs.framebench`)."""
    return cast("list[AnnotatedVerbLU]", list(db.query(
        """SELECT lu.name AS lu, f.name AS frame, lu.n_annotated AS n_annotated
           FROM lexical_units lu JOIN frames f ON f.id = lu.frame_pk
           WHERE lu.lexicon_id = ? AND lu.pos = 'V' ORDER BY f.name, lu.id""",
        [lexicon_id],
    )))


def frame_facts(db: sqlite_utils.Database, lexicon_id: int) -> dict[str, FrameFacts]:
    """Per frame: ``{"name", "has_definition", "n_core_fes", "n_examples"}``.

    ``has_definition``: the clean definition is not blank; ``n_core_fes``: FEs
    with coreType Core or Core-Unexpressed; ``n_examples``: ``<ex>`` examples
    of the frame definition.
    """
    rows = db.query(
        f"""SELECT f.name AS name, (TRIM(f.definition) <> '') AS has_definition,
                  (SELECT COUNT(*) FROM frame_elements e WHERE e.frame_pk = f.id AND e.core_type IN {CORE_TYPES_SQL}) AS n_core_fes,
                  (SELECT COUNT(*) FROM frame_examples x WHERE x.frame_pk = f.id) AS n_examples
           FROM frames f WHERE f.lexicon_id = ?""",
        [lexicon_id],
    )
    return {r["name"]: FrameFacts(name=r["name"], has_definition=bool(r["has_definition"]), n_core_fes=r["n_core_fes"],
                                  n_examples=r["n_examples"]) for r in rows}


def frame_relations(db: sqlite_utils.Database, lexicon_id: int) -> list[tuple[str, str, str]]:
    """All frame relations of a lexicon as ``(type, super_frame, sub_frame)``."""
    return [
        (r["type"], r["super_frame"], r["sub_frame"])
        for r in db.query(
            "SELECT type, super_frame, sub_frame FROM frame_relations WHERE lexicon_id = ? ORDER BY id", [lexicon_id]
        )
    ]


def save_selection(
    db: sqlite_utils.Database,
    *,
    lexicon_id: int,
    seed: int,
    options: Mapping[str, Any],
    counts: Mapping[str, Any],
    selected: Iterable[Mapping[str, Any]],
    reserve: Iterable[Mapping[str, Any]],
    per_pair: int,
    protocol: str = "fbagent",
) -> int:
    """Store one selection and its pairs in one transaction; returns the ``selections.id``.

    ``protocol``: the selection protocol that drew it (:data:`fbagent.pairs.options.PROTOCOLS`).

    ``selected`` and ``reserve`` are mappings with ``verb, lu_a, lu_b,
    frame_a, frame_b``; ranks run 0.. over selected then reserve.
    """
    now = utc_now()
    with transaction(db):
        cur = db.conn.execute(
            "INSERT INTO selections (lexicon_id, seed, options, counts, created_at, protocol) VALUES (?, ?, ?, ?, ?, ?)",
            (lexicon_id, seeds.to_sql(seed), json.dumps(dict(options), sort_keys=True),
             json.dumps(dict(counts), sort_keys=True), now, protocol),
        )
        selection_id = inserted_id(cur)
        rows = []
        rank = 0
        for status, pairs in (("selected", selected), ("reserve", reserve)):
            for p in pairs:
                rows.append((selection_id, rank, p["verb"], p["lu_a"], p["lu_b"], p["frame_a"], p["frame_b"], per_pair, status))
                rank += 1
        db.conn.executemany(
            """INSERT INTO frame_pairs (selection_id, rank, verb, lu_a, lu_b, frame_a, frame_b, per_pair, status)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            rows,
        )
    return selection_id


def get_selection(db: sqlite_utils.Database, selection_id: int) -> dict[str, Any]:
    """A ``selections`` row with ``options`` and ``counts`` decoded; :class:`FbagentError` if absent."""
    rows = list(db.query("SELECT * FROM selections WHERE id = ?", [selection_id]))
    if not rows:
        raise FbagentError(f"no frame-pair selection with id {selection_id}", "see the ids with: fbagent pairs list")
    row = rows[0]
    row["options"] = json.loads(row["options"])
    row["counts"] = json.loads(row["counts"])
    row["seed"] = seeds.from_sql(row["seed"])
    return row


def list_selections(db: sqlite_utils.Database, lexicon_id: int | None = None) -> list[dict[str, Any]]:
    """Selections (newest last) with the lexicon name and pair counts by status."""
    where, args = ("WHERE s.lexicon_id = ?", [lexicon_id]) if lexicon_id is not None else ("", [])
    out = []
    for row in db.query(
        f"""SELECT s.*, l.name AS lexicon,
                  (SELECT COUNT(*) FROM frame_pairs p WHERE p.selection_id = s.id AND p.status = 'selected') AS n_selected,
                  (SELECT COUNT(*) FROM frame_pairs p WHERE p.selection_id = s.id AND p.status = 'reserve') AS n_reserve,
                  (SELECT COUNT(*) FROM frame_pairs p WHERE p.selection_id = s.id AND p.status = 'screened_out') AS n_screened_out
           FROM selections s JOIN lexicons l ON l.id = s.lexicon_id {where} ORDER BY s.id""",
        args,
    ):
        row["options"] = json.loads(row["options"])
        row["counts"] = json.loads(row["counts"])
        row["seed"] = seeds.from_sql(row["seed"])
        out.append(row)
    return out


def selection_runs(db: sqlite_utils.Database, lexicon_id: int) -> dict[int, list[str]]:
    """``{selection id: names of the runs that use it}`` for the selections of one lexicon (used ones only)."""
    out: dict[int, list[str]] = {}
    for row in db.query(
        """SELECT r.selection_id AS selection_id, r.name AS name FROM runs r JOIN selections s ON s.id = r.selection_id
           WHERE s.lexicon_id = ? ORDER BY r.id""",
        [lexicon_id],
    ):
        out.setdefault(row["selection_id"], []).append(row["name"])
    return out


def run_protocols(db: sqlite_utils.Database, run: str | None = None) -> dict[str, str]:
    """``{run name: selection protocol}`` of the runs (or the one run ``run``, name or id) that have a
    selection; a selection stored before protocols were recorded reads ``fbagent``."""
    cols = {c.name for c in db["selections"].columns}
    protocol = "s.protocol" if "protocol" in cols else "'fbagent'"
    where, args = ("AND (r.name = ? OR CAST(r.id AS TEXT) = ?)", [run, run]) if run else ("", [])
    return {r["name"]: r["protocol"] for r in db.query(
        f"SELECT r.name AS name, {protocol} AS protocol FROM runs r JOIN selections s ON s.id = r.selection_id "
        f"WHERE 1 {where} ORDER BY r.id", args)}


def selection_pairs(
    db: sqlite_utils.Database, selection_id: int, status: str | None = "selected"
) -> list[dict[str, Any]]:
    """``frame_pairs`` rows of a selection in rank order (``status=None``: all rows)."""
    if status is None:
        return list(db.query("SELECT * FROM frame_pairs WHERE selection_id = ? ORDER BY rank", [selection_id]))
    return list(
        db.query("SELECT * FROM frame_pairs WHERE selection_id = ? AND status = ? ORDER BY rank", [selection_id, status])
    )


def replace_from_reserve(
    db: sqlite_utils.Database, selection_id: int, screened_out: Mapping[int, str]
) -> list[dict[str, Any]]:
    """Mark pairs ``screened_out`` (``{frame_pairs.id: reason}``) and promote as many reserve pairs.

    Reserve pairs are promoted in rank order (the seeded order of the sample),
    one per screened-out pair, in one transaction. Returns the promoted rows
    (now ``status='selected'``); fewer when the reserve runs out. Pairs not in
    this selection or not ``selected`` are ignored.
    """
    with transaction(db):
        n = 0
        for pair_id, reason in screened_out.items():
            cur = db.conn.execute(
                "UPDATE frame_pairs SET status = 'screened_out', reason = ? WHERE id = ? AND selection_id = ? AND status = 'selected'",
                (reason, pair_id, selection_id),
            )
            n += cur.rowcount
        promoted = list(
            db.query(
                "SELECT id FROM frame_pairs WHERE selection_id = ? AND status = 'reserve' ORDER BY rank LIMIT ?",
                [selection_id, n],
            )
        )
        for row in promoted:
            db.conn.execute("UPDATE frame_pairs SET status = 'selected' WHERE id = ?", (row["id"],))
    ids = [r["id"] for r in promoted]
    if not ids:
        return []
    return list(db.query(f"SELECT * FROM frame_pairs WHERE id IN ({','.join('?' * len(ids))}) ORDER BY rank", ids))


def latest_selection_id(db: sqlite_utils.Database, lexicon_id: int) -> int | None:
    """The id of the newest selection of the lexicon, ``None`` when it has none."""
    row = next(db.query("SELECT id FROM selections WHERE lexicon_id = ? ORDER BY id DESC LIMIT 1", [lexicon_id]), None)
    return row["id"] if row else None


def selection_in_lexicon(db: sqlite_utils.Database, selection_id: int, lexicon_id: int) -> bool:
    """Whether selection ``selection_id`` exists and belongs to the lexicon."""
    return next(db.query("SELECT id FROM selections WHERE id = ? AND lexicon_id = ?", [selection_id, lexicon_id]),
                None) is not None


def find_selection(db: sqlite_utils.Database, selection_id: int) -> dict[str, Any] | None:
    """The ``selections`` row as stored (JSON columns not decoded), ``None`` when there is none."""
    return next(db.query("SELECT * FROM selections WHERE id = ?", [selection_id]), None)
