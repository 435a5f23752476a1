"""Queries on imported lexicons (tables ``lexicons``, ``frames``, ``frame_examples``,
``frame_elements``, ``lexical_units``, ``exemplars``, ``frame_relations``).

No LLM and no file parsing here: readers live in :mod:`fbagent.lexicon`; the importer
(:mod:`fbagent.lexicon.importer`) reads a resource and hands the parsed :class:`LexiconData`
to :func:`store_lexicon`, the one transaction that writes it.

Functions other features use:

- :func:`frame_context` - what a generator prompt needs about one frame and verb.
- :func:`frame_reference_texts` - the reference texts of the SemBench-style
  round-trip verifier (docs/architecture.md, "Conventions").
- :func:`lexicon_stats` - the counts ``fbagent lexicon show`` prints.
- :func:`store_lexicon` - write (or replace) a parsed lexicon in one transaction, with its provenance
  (:func:`lexicon_provenance` reads it back, :func:`set_provenance` replaces it).
"""

from __future__ import annotations

import difflib
from typing import cast

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.framenet.lu_names import group_lemma
from fbagent.framenet.markup import clean_lu_definition
from fbagent.framenet.model import LexiconData, Provenance
from fbagent.store.clock import utc_now
from fbagent.store.rows import (
    CoreFE,
    FrameContext,
    FrameExample,
    FrameRow,
    LexicalUnitRow,
    LexiconName,
    LexiconRow,
    LexiconStats,
)
from fbagent.store.transaction import inserted_id, transaction

CORE_TYPES = ("Core", "Core-Unexpressed")
CORE_TYPES_SQL = "('Core', 'Core-Unexpressed')"


def list_lexicons(db: sqlite_utils.Database) -> list[LexiconRow]:
    """All rows of ``lexicons``, oldest first (``imported_at``, then ``id``)."""
    return cast("list[LexiconRow]", list(db.query("SELECT * FROM lexicons ORDER BY imported_at, id")))


def lexicons_by_id(db: sqlite_utils.Database) -> list[LexiconName]:
    """``{"id", "name", "lang"}`` of every lexicon, in id order."""
    return cast("list[LexiconName]", list(db.query("SELECT id, name, lang FROM lexicons ORDER BY id")))


def lexicon_row(db: sqlite_utils.Database, lexicon_id: int) -> LexiconRow | None:
    """The ``lexicons`` row with id ``lexicon_id``, or ``None``."""
    return cast("LexiconRow | None", next(db.query("SELECT * FROM lexicons WHERE id = ?", [lexicon_id]), None))


def get_lexicon(db: sqlite_utils.Database, name: str) -> LexiconRow | None:
    """The ``lexicons`` row named ``name``, or ``None``."""
    rows = cast("list[LexiconRow]", list(db.query("SELECT * FROM lexicons WHERE name = ?", [name])))
    return rows[0] if rows else None


def lexicon_by_name(db: sqlite_utils.Database, name: str) -> LexiconRow:
    """The ``lexicons`` row named ``name``.

    Raises :class:`FbagentError` naming the available lexicons when there is none (and the one meant, for a name
    that differs in case or by a typo: ``LV`` -> ``lv``).
    """
    row = get_lexicon(db, name)
    if row is None:
        names = [r["name"] for r in list_lexicons(db)]
        available = ", ".join(names) if names else "none"
        close = [n for n in names if n.casefold() == name.casefold()] or difflib.get_close_matches(name, names, n=1)
        raise FbagentError(
            f"unknown lexicon {name!r} (available: {available})",
            (f"did you mean {close[0]}? Else pass" if close else "pass")
            + " one of the available names, or import it with: fbagent lexicon add PATH --lang LANG --name NAME",
        )
    return row


def verb_frames(db: sqlite_utils.Database, lexicon_id: int) -> dict[str, list[str]]:
    """Frames evoked by each verb: ``{grouping lemma: [frame names, sorted, distinct]}`` (LUs with POS ``V``).

    Verbs are grouped by :func:`fbagent.framenet.lu_names.group_lemma` (``sleep
    (together/with)`` and ``sleep`` are one verb), as frame-pair selection does.
    """
    frames: dict[str, set[str]] = {}
    for row in db.query(
        """SELECT DISTINCT lu.lemma, f.name AS frame FROM lexical_units lu
           JOIN frames f ON f.id = lu.frame_pk
           WHERE lu.lexicon_id = ? AND lu.pos = 'V'""",
        [lexicon_id],
    ):
        frames.setdefault(group_lemma(row["lemma"]), set()).add(row["frame"])
    return {lemma: sorted(fs) for lemma, fs in sorted(frames.items())}


def frame_ids(db: sqlite_utils.Database, lexicon_id: int) -> dict[str, int | None]:
    """``{frame name: frame ID in the source resource, or None}`` of every frame of a lexicon, by name."""
    return {r["name"]: r["frame_id"] for r in db.query(
        "SELECT name, frame_id FROM frames WHERE lexicon_id = ? ORDER BY name", [lexicon_id])}


def lexicon_stats(db: sqlite_utils.Database, lexicon_id: int) -> LexiconStats:
    """Counts of one lexicon.

    Returns ``{"frames", "frame_examples", "frame_elements", "core_frame_elements",
    "lexical_units", "lus_by_pos": {POS: n} (descending), "verbs",
    "polysemous_verbs" (verbs evoking 2+ frames), "candidate_pairs" (sum over
    verbs of C(k, 2), k = frames of the verb; FrameBench step 1),
    "exemplars", "frame_relations"}``.
    """
    def one(sql: str) -> int:
        return int(db.execute(sql, [lexicon_id]).fetchone()[0])

    by_pos = {
        r["pos"]: r["n"]
        for r in db.query(
            "SELECT pos, COUNT(*) AS n FROM lexical_units WHERE lexicon_id = ? GROUP BY pos ORDER BY n DESC, pos",
            [lexicon_id],
        )
    }
    frames_per_verb = [len(fs) for fs in verb_frames(db, lexicon_id).values()]
    return {
        "frames": one("SELECT COUNT(*) FROM frames WHERE lexicon_id = ?"),
        "frame_examples": one(
            "SELECT COUNT(*) FROM frame_examples e JOIN frames f ON f.id = e.frame_pk WHERE f.lexicon_id = ?"
        ),
        "frame_elements": one(
            "SELECT COUNT(*) FROM frame_elements e JOIN frames f ON f.id = e.frame_pk WHERE f.lexicon_id = ?"
        ),
        "core_frame_elements": one(
            "SELECT COUNT(*) FROM frame_elements e JOIN frames f ON f.id = e.frame_pk "
            f"WHERE f.lexicon_id = ? AND e.core_type IN {CORE_TYPES_SQL}"
        ),
        "lexical_units": sum(by_pos.values()),
        "lus_by_pos": by_pos,
        "verbs": len(frames_per_verb),
        "polysemous_verbs": sum(1 for k in frames_per_verb if k >= 2),
        "candidate_pairs": sum(k * (k - 1) // 2 for k in frames_per_verb),
        "exemplars": one(
            "SELECT COUNT(*) FROM exemplars x JOIN lexical_units lu ON lu.id = x.lu_pk WHERE lu.lexicon_id = ?"
        ),
        "frame_relations": one("SELECT COUNT(*) FROM frame_relations WHERE lexicon_id = ?"),
    }


def _frame_row(db: sqlite_utils.Database, lexicon_id: int, frame_name: str) -> FrameRow:
    rows = cast("list[FrameRow]", list(db.query("SELECT * FROM frames WHERE lexicon_id = ? AND name = ?",
                                                [lexicon_id, frame_name])))
    if not rows:
        lex = list(db.query("SELECT name FROM lexicons WHERE id = ?", [lexicon_id]))
        lex_name = lex[0]["name"] if lex else f"#{lexicon_id}"
        raise FbagentError(
            f"frame {frame_name!r} is not in lexicon {lex_name}",
            "use a frame name as listed by the lexicon (case-sensitive), e.g. from fbagent pairs select",
        )
    return rows[0]


def _verb_lu(db: sqlite_utils.Database, frame_pk: int, verb_lemma: str | None) -> LexicalUnitRow | None:
    """The LU of ``verb_lemma`` in the frame: same lemma first, else same grouping lemma
    (``sleep`` finds ``sleep (together/with).v``); verbs (POS V) before other POS."""
    if not verb_lemma:
        return None

    key = group_lemma(verb_lemma)
    rows = [cast("LexicalUnitRow", r)
            for r in db.query("SELECT * FROM lexical_units WHERE frame_pk = ? ORDER BY id", [frame_pk])
            if r["lemma"] == verb_lemma or group_lemma(r["lemma"]) == key]
    rows.sort(key=lambda r: (r["lemma"] != verb_lemma, r["pos"] != "V"))
    return rows[0] if rows else None


def frame_definitions(db: sqlite_utils.Database, lexicon_id: int) -> dict[str, str]:
    """``{frame name: clean definition}`` of every frame of a lexicon."""
    return {r["name"]: r["definition"] or "" for r in db.query(
        "SELECT name, definition FROM frames WHERE lexicon_id = ?", [lexicon_id])}


def frame_context(
    db: sqlite_utils.Database,
    lexicon_id: int,
    frame_name: str,
    verb_lemma: str | None,
    max_examples: int = 3,
) -> FrameContext:
    """What a generation prompt needs to know about ``frame_name`` as evoked by ``verb_lemma``.

    Returns::

        {"frame": "Departing", "frame_id": 57,
         "definition": "<clean frame definition>",
         "core_fes": [{"name": "Theme", "definition": "..."}, ...],   # Core / Core-Unexpressed, file order
         "lu": "leave.v" | None,            # the verb's LU in this frame
         "lu_definition": "go away from" | "",   # source prefix ("COD:") removed
         "examples": [{"text", "target_start", "target_end", "source"}, ...]}

    ``examples`` holds at most ``max_examples`` sentences: exemplars of the
    verb's LU in this frame first (sentences with a target span first, then in
    import order), then the frame's ``<ex>`` examples to fill up. Spans are
    character offsets, end exclusive, or ``None``.

    Raises :class:`FbagentError` when the frame is not in the lexicon.
    """
    frame = _frame_row(db, lexicon_id, frame_name)
    core: list[CoreFE] = [
        {"name": r["name"], "definition": r["definition"]}
        for r in db.query(
            f"SELECT name, definition FROM frame_elements WHERE frame_pk = ? AND core_type IN {CORE_TYPES_SQL} ORDER BY id",
            [frame["id"]],
        )
    ]
    lu = _verb_lu(db, frame["id"], verb_lemma)
    examples: list[FrameExample] = []
    if lu is not None and max_examples > 0:
        for r in db.query(
            """SELECT text, target_start, target_end FROM exemplars WHERE lu_pk = ?
               ORDER BY (target_start IS NULL), id LIMIT ?""",
            [lu["id"], max_examples],
        ):
            examples.append(FrameExample(text=r["text"], target_start=r["target_start"], target_end=r["target_end"],
                                         source="exemplar"))
    if len(examples) < max_examples:
        for r in db.query(
            """SELECT text, target_start, target_end FROM frame_examples WHERE frame_pk = ?
               ORDER BY (target_start IS NULL), id LIMIT ?""",
            [frame["id"], max_examples - len(examples)],
        ):
            examples.append(FrameExample(text=r["text"], target_start=r["target_start"], target_end=r["target_end"],
                                         source="frame"))
    return {
        "frame": frame["name"],
        "frame_id": frame["frame_id"],
        "definition": frame["definition"],
        "core_fes": core,
        "lu": lu["name"] if lu else None,
        "lu_definition": clean_lu_definition(lu["definition"]) if lu else "",
        "examples": examples,
    }


def frame_reference_texts(
    db: sqlite_utils.Database, lexicon_id: int, frame_name: str, verb_lemma: str | None = None
) -> list[str]:
    """Reference texts of a frame for the round-trip verifier (docs/architecture.md, "Conventions"; SemBench).

    ``[clean frame definition]`` plus ``verb_lemma``'s LU definition in this
    frame (source prefix removed) when the lexicon has one; empty strings are
    left out. Raises :class:`FbagentError` when the frame is not in the lexicon.
    """
    frame = _frame_row(db, lexicon_id, frame_name)
    texts = [frame["definition"].strip()]
    lu = _verb_lu(db, frame["id"], verb_lemma)
    if lu is not None:
        texts.append(clean_lu_definition(lu["definition"]))
    return [t for t in texts if t]


# --------------------------------------------------------------------------- writing a lexicon


def _write(db: sqlite_utils.Database, lexicon_id: int, data: LexiconData) -> None:
    """Insert all rows of ``data`` under ``lexicon_id`` (inside the caller's transaction)."""
    conn = db.conn
    frame_pk: dict[str, int] = {}
    for f in data.frames:
        cur = conn.execute(
            "INSERT INTO frames (lexicon_id, frame_id, name, definition, definition_markup) VALUES (?, ?, ?, ?, ?)",
            (lexicon_id, f.frame_id, f.name, f.definition, f.definition_markup),
        )
        pk = inserted_id(cur)
        frame_pk[f.name] = pk
        conn.executemany(
            "INSERT INTO frame_examples (frame_pk, text, target_start, target_end) VALUES (?, ?, ?, ?)",
            [(pk, e.text, e.target_start, e.target_end) for e in f.examples],
        )
        conn.executemany(
            "INSERT INTO frame_elements (frame_pk, name, core_type, definition) VALUES (?, ?, ?, ?)",
            [(pk, fe.name, fe.core_type, fe.definition) for fe in f.frame_elements],
        )
    for lu in data.lexical_units:
        cur = conn.execute(
            """INSERT INTO lexical_units (lexicon_id, frame_pk, lu_id, name, lemma, pos, definition, n_annotated)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (lexicon_id, frame_pk[lu.frame], lu.lu_id, lu.name, lu.lemma, lu.pos, lu.definition, lu.n_annotated),
        )
        lu_pk = cur.lastrowid
        conn.executemany(
            "INSERT INTO exemplars (lu_pk, text, target_start, target_end) VALUES (?, ?, ?, ?)",
            [(lu_pk, e.text, e.target_start, e.target_end) for e in lu.exemplars],
        )
    conn.executemany(
        "INSERT INTO frame_relations (lexicon_id, type, super_frame, sub_frame) VALUES (?, ?, ?, ?)",
        [(lexicon_id, r.type, r.super_frame, r.sub_frame) for r in data.relations],
    )


def _delete_content(db: sqlite_utils.Database, lexicon_id: int) -> None:
    """Delete a lexicon's frames, FEs, LUs, exemplars and relations (children first)."""
    conn = db.conn
    conn.execute(
        "DELETE FROM exemplars WHERE lu_pk IN (SELECT id FROM lexical_units WHERE lexicon_id = ?)", (lexicon_id,)
    )
    conn.execute("DELETE FROM lexical_units WHERE lexicon_id = ?", (lexicon_id,))
    for child in ("frame_examples", "frame_elements"):
        conn.execute(f"DELETE FROM {child} WHERE frame_pk IN (SELECT id FROM frames WHERE lexicon_id = ?)", (lexicon_id,))
    conn.execute("DELETE FROM frames WHERE lexicon_id = ?", (lexicon_id,))
    conn.execute("DELETE FROM frame_relations WHERE lexicon_id = ?", (lexicon_id,))


COUNT_KEYS = ("n_frames", "n_frame_elements", "n_lexical_units", "n_exemplars", "n_frame_relations")


def stored_counts(row: LexiconRow) -> dict[str, int]:
    """The :data:`COUNT_KEYS` columns of a ``lexicons`` row (:func:`store_lexicon` writes every one)."""
    return {"n_frames": row["n_frames"], "n_frame_elements": row["n_frame_elements"],
            "n_lexical_units": row["n_lexical_units"], "n_exemplars": row["n_exemplars"],
            "n_frame_relations": row["n_frame_relations"]}


def lexicon_counts(data: LexiconData) -> dict[str, int]:
    """The ``lexicons`` count columns of ``data`` (frames, FEs, LUs, exemplars, relations)."""
    return {
        "n_frames": len(data.frames),
        "n_frame_elements": sum(len(f.frame_elements) for f in data.frames),
        "n_lexical_units": len(data.lexical_units),
        "n_exemplars": data.n_exemplars,
        "n_frame_relations": len(data.relations),
    }


def store_lexicon(
    db: sqlite_utils.Database,
    data: LexiconData,
    *,
    name: str,
    lang: str,
    fmt: str,
    source_path: str,
) -> tuple[int, str]:
    """Write ``data`` as lexicon ``name`` in one transaction: ``(lexicon_id, status)``.

    ``status`` is ``"imported"``, ``"replaced"`` or ``"unchanged"`` (same name,
    language and content hash: nothing is written). On any error the
    transaction rolls back and the previous content stays intact.
    """
    now = utc_now()
    counts = lexicon_counts(data)
    with transaction(db):
        existing = get_lexicon(db, name)
        if existing and existing["source_hash"] == data.source_hash and existing["lang"] == lang:
            return existing["id"], "unchanged"
        row = {"lang": lang, "format": fmt, "source_path": source_path, "source_hash": data.source_hash,
               "imported_at": now, **counts, **provenance_columns(data.provenance)}
        if existing:
            lexicon_id = existing["id"]
            _delete_content(db, lexicon_id)
            sets = ", ".join(f"{k} = ?" for k in row)
            db.conn.execute(f"UPDATE lexicons SET {sets} WHERE id = ?", [*row.values(), lexicon_id])
            status = "replaced"
        else:
            cols = ["name", *row]
            cur = db.conn.execute(
                f"INSERT INTO lexicons ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
                [name, *row.values()],
            )
            lexicon_id = inserted_id(cur)
            status = "imported"
        _write(db, lexicon_id, data)
    return lexicon_id, status


def provenance_columns(p: Provenance) -> dict[str, str]:
    """The ``lexicons`` columns of a provenance (schema 11): license, license_source, citation, url,
    source_name, reader."""
    return {"license": p.license, "license_source": p.license_source, "citation": p.citation, "url": p.url,
            "source_name": p.name, "reader": p.reader}


def lexicon_provenance(row: LexiconRow) -> Provenance:
    """The provenance of a ``lexicons`` row (a row of a database older than schema 11 reads as unknown)."""
    return Provenance(row.get("license") or "unknown", row.get("license_source") or "unknown",
                      row.get("citation") or "", row.get("url") or "", row.get("source_name") or "",
                      row.get("reader") or "")


def set_provenance(db: sqlite_utils.Database, lexicon_id: int, p: Provenance) -> None:
    """Replace the provenance of lexicon ``lexicon_id`` (its content untouched), in one transaction."""
    cols = provenance_columns(p)
    with transaction(db):
        db.conn.execute(f"UPDATE lexicons SET {', '.join(f'{k} = ?' for k in cols)} WHERE id = ?",
                        [*cols.values(), lexicon_id])


def has_lexicon(db: sqlite_utils.Database, name: str | None = None) -> bool:
    """Whether the database holds at least one lexicon (with ``name``: the lexicon named so)."""
    if name is None:
        return db.execute("SELECT 1 FROM lexicons LIMIT 1").fetchone() is not None
    return db.execute("SELECT 1 FROM lexicons WHERE name = ?", [name]).fetchone() is not None
