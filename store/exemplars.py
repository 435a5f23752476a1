"""Exemplar queries of the verifier's encoder check and its calibration (table ``exemplars``).

FrameNet's annotated exemplar sentences of one LU, target span known: the gold data that
:mod:`fbagent.verifier.encoder_check` compares a sentence with and that :mod:`fbagent.verifier.calibration`
holds out as stand-ins for generated sentences. This module knows no encoder and no LLM.
"""

from __future__ import annotations

from typing import Any, cast

import sqlite_utils

from fbagent.store.rows import ExemplarRow


def lu_exemplars(db: sqlite_utils.Database, lexicon_id: int, frame: str, verb: str) -> list[ExemplarRow]:
    """The exemplars of ``verb``'s verb LU(s) (POS ``V``, lemma ``verb``) in ``frame``, in import order.

    Returns ``[{"id", "text", "target_start", "target_end"}]`` (character span of the target, end
    exclusive, or ``None``); ``[]`` when the frame or the LU is not in the lexicon.
    """
    return [cast("ExemplarRow", dict(r)) for r in db.query(
        """SELECT x.id AS id, x.text AS text, x.target_start AS target_start, x.target_end AS target_end
           FROM exemplars x JOIN lexical_units lu ON lu.id = x.lu_pk JOIN frames f ON f.id = lu.frame_pk
           WHERE f.lexicon_id = ? AND f.name = ? AND lu.lemma = ? AND lu.pos = 'V'
           ORDER BY x.id""",
        [lexicon_id, frame, verb],
    )]


def exemplar_counts(db: sqlite_utils.Database, lexicon_id: int) -> dict[tuple[str, str], int]:
    """``{(verb lemma, frame): exemplars with a target span}`` over the verb LUs (POS ``V``) of a lexicon."""
    return {
        (r["lemma"], r["frame"]): int(r["n"])
        for r in db.query(
            """SELECT lu.lemma AS lemma, f.name AS frame, COUNT(x.id) AS n
               FROM lexical_units lu JOIN frames f ON f.id = lu.frame_pk
               LEFT JOIN exemplars x ON x.lu_pk = lu.id AND x.target_start IS NOT NULL
               WHERE lu.lexicon_id = ? AND lu.pos = 'V' GROUP BY lu.lemma, f.name""",
            [lexicon_id],
        )
    }


def frame_definition(db: sqlite_utils.Database, lexicon_id: int, frame: str) -> str:
    """The clean definition of ``frame`` (``""`` when the frame is not in the lexicon)."""
    row = db.execute("SELECT definition FROM frames WHERE lexicon_id = ? AND name = ?", [lexicon_id, frame]).fetchone()
    return (row[0] or "") if row else ""


def lu_frame_exemplars(db: sqlite_utils.Database, lexicon_id: int, lu_name: str, frame: str) -> list[ExemplarRow]:
    """The exemplars of LU ``lu_name`` (e.g. ``leave.v``) in ``frame``: ``{"id", "text", "target_start",
    "target_end"}`` rows in id order (offsets in characters; ``None`` when the exemplar has no target span)."""
    return cast("list[ExemplarRow]", list(db.query(
        """SELECT e.id, e.text, e.target_start, e.target_end FROM exemplars e
           JOIN lexical_units lu ON lu.id = e.lu_pk JOIN frames f ON f.id = lu.frame_pk
           WHERE lu.lexicon_id = ? AND lu.name = ? AND f.name = ? ORDER BY e.id""",
        [lexicon_id, lu_name, frame],
    )))


def verb_lus_with_exemplars(db: sqlite_utils.Database, lexicon_id: int) -> list[dict[str, Any]]:
    """Verb LUs (``pos = 'V'``) of the lexicon that have at least one exemplar: ``{"lemma", "name",
    "frame"}`` rows ordered by lemma, then frame name."""
    return list(db.query(
        """SELECT lu.lemma, lu.name, f.name AS frame FROM lexical_units lu
           JOIN frames f ON f.id = lu.frame_pk
           WHERE lu.lexicon_id = ? AND lu.pos = 'V'
             AND EXISTS (SELECT 1 FROM exemplars e WHERE e.lu_pk = lu.id)
           ORDER BY lu.lemma, f.name""",
        [lexicon_id],
    ))
