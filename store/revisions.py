"""Human revisions of item text (``item_revisions``) and the effective (revised) text of an item.

A revision never overwrites the generated item: each save is a row
(field, old, new, annotator, when) and the *effective* value of a field is the
``new`` of its latest revision, else the generated original. The special
field ``unfixable`` holds ``"1"`` (entry marked "cannot be fixed": excluded
from export) or ``"0"`` (mark removed); its latest row wins.

After a revision the target verb is found again in the revised text
(:func:`find_verb_span`) so the annotation app can still highlight it and the
export carries correct target spans.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import sqlite_utils

from fbagent.store.clock import as_instant, utc_now
from fbagent.store.db import transaction
from fbagent.store.rows import ItemTexts, RevisionRow
from fbagent.store.transaction import inserted_id

#: Item fields an annotator may revise (revise mode).
REVISABLE_FIELDS = (
    "question",
    "question_four_choice",
    "sentence_a",
    "sentence_b",
    "sentence_a_prime",
    "sentence_b_prime",
)
SENTENCE_FIELDS = ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime")
UNFIXABLE = "unfixable"

_VERB_FORM = {
    "sentence_a": "verb_form_a",
    "sentence_b": "verb_form_b",
    "sentence_a_prime": "verb_form_a_prime",
    "sentence_b_prime": "verb_form_b_prime",
}


#: lemma -> inflected forms, longest first, given by :func:`use_inflections` (the browser server's shared table).
_TABLE: dict[str, tuple[str, ...]] = {}


def use_inflections(table: dict[str, list[str]]) -> None:
    """Answer :func:`inflections` for the lemmas of ``table`` (lemma -> forms) without loading lemminflect.

    ``fbagent annotate --serve`` computes the table once in the server
    (:func:`inflection_table`) and hands it to every app process: lemminflect's
    tables take seconds and about 270 MB to load. Lemmas not in it still go to lemminflect.
    """
    _TABLE.update({lemma: tuple(forms) for lemma, forms in table.items()})


def inflection_table(lemmas: Iterable[str]) -> dict[str, list[str]]:
    """lemma -> its English inflected forms (lemminflect, longest first; [] for none) for each of ``lemmas``."""
    return {lemma: _lemminflect_forms(lemma) for lemma in lemmas}


def _lemminflect_forms(lemma: str) -> list[str]:
    try:
        from lemminflect import getAllInflections
    except ImportError:  # pragma: no cover - lemminflect is a core dependency
        return []
    forms = {f for fs in getAllInflections(lemma, upos="VERB").values() for f in fs}
    return sorted(forms, key=lambda f: (-len(f), f))


def inflections(lemma: str) -> list[str]:
    """English inflected forms of a verb lemma, longest first: from :func:`use_inflections`'s table, else lemminflect."""
    known = _TABLE.get(lemma)
    return list(known) if known is not None else _lemminflect_forms(lemma)


def find_verb_span(text: str | None, verb_form: str | None, lemma: str | None = None) -> tuple[int, int] | None:
    """Character span ``(start, end)`` (end exclusive) of the target verb in ``text``, or None.

    Tries, in order, and returns the first occurrence of the first that matches:
    ``verb_form`` as a whole word (case-insensitive); ``verb_form`` as a
    substring (languages written without spaces, e.g. Japanese); ``lemma`` and
    its English inflections (lemminflect) as whole words; ``lemma`` as a word
    prefix. Used to re-find the target after a human revision.
    """
    if not text:
        return None
    form = (verb_form or "").strip()
    base = (lemma or "").strip()
    patterns: list[str] = []
    if form:
        patterns += [rf"(?<!\w){re.escape(form)}(?!\w)", re.escape(form)]
    if base:
        for w in [base, *inflections(base)]:
            patterns.append(rf"(?<!\w){re.escape(w)}(?!\w)")
        patterns.append(rf"(?<!\w){re.escape(base)}\w*")
    for pattern in patterns:
        m = re.search(pattern, text, flags=re.IGNORECASE)
        if m:
            return m.start(), m.end()
    return None


def revisions_by_item(db: sqlite_utils.Database, item_ids: Iterable[str] | None = None) -> dict[str, list[RevisionRow]]:
    """Revision rows grouped by item id, oldest first. Restricted to ``item_ids`` when given."""
    out: dict[str, list[RevisionRow]] = {}
    if item_ids is None:
        rows = db.query("SELECT * FROM item_revisions ORDER BY item_id, id")
    else:
        ids = list(item_ids)
        if len(ids) == 1:
            rows = db.query("SELECT * FROM item_revisions WHERE item_id = ? ORDER BY id", ids)
        else:
            wanted = set(ids)
            rows = (r for r in db.query("SELECT * FROM item_revisions ORDER BY item_id, id") if r["item_id"] in wanted)
    for r in rows:
        out.setdefault(r["item_id"], []).append(cast("RevisionRow", r))
    return out


def apply_revisions(item: dict[str, Any], revisions: Sequence[RevisionRow]) -> dict[str, Any]:
    """The effective item: ``item`` (an ``items`` row dict) with its ``revisions`` applied.

    Returns a new dict with the revised field values plus:
    ``revised_fields`` (sorted list of fields whose effective text differs from
    the original), ``original`` ({field: generated text} for those fields),
    ``unfixable`` (bool), ``n_revisions``, and ``target_spans`` as a dict
    {sentence field: [start, end] or None}: the stored span for unrevised
    sentences (when it still points at text), re-found with
    :func:`find_verb_span` for revised ones.
    """
    eff = dict(item)
    unfixable = False
    for r in revisions:
        if r["field"] == UNFIXABLE:
            unfixable = r["new"] == "1"
        elif r["field"] in REVISABLE_FIELDS:
            eff[r["field"]] = r["new"]
    revised = sorted(f for f in REVISABLE_FIELDS if eff.get(f) != item.get(f))
    eff["revised_fields"] = revised
    eff["original"] = {f: item.get(f) for f in revised}
    eff["unfixable"] = unfixable
    eff["n_revisions"] = len(revisions)
    stored = item.get("target_spans")
    if isinstance(stored, str):
        try:
            stored = json.loads(stored)
        except ValueError:
            stored = None
    stored = stored if isinstance(stored, dict) else {}
    spans: dict[str, list[int] | None] = {}
    for f in SENTENCE_FIELDS:
        text = eff.get(f)
        span = stored.get(f)
        ok = (
            f not in revised
            and isinstance(span, list | tuple)
            and len(span) == 2
            and text is not None
            and 0 <= span[0] < span[1] <= len(text)
        )
        if ok and span is not None:
            spans[f] = [int(span[0]), int(span[1])]
        else:
            found = find_verb_span(text, item.get(_VERB_FORM[f]), item.get("verb"))
            spans[f] = list(found) if found else None
    eff["target_spans"] = spans
    return eff


def texts_at(item: Mapping[str, Any], revisions: Iterable[RevisionRow], before: str | None = None) -> ItemTexts:
    """The revisable text fields of ``item`` with its ``revisions`` (oldest first) applied.

    Returns ``{field: text}`` for every field of :data:`REVISABLE_FIELDS`.
    With ``before`` (an ISO 8601 time), only revisions created strictly
    before that time count: the text an annotator saw at that moment.
    Times are compared as instants (:func:`datetime.datetime.fromisoformat`),
    so second, millisecond and microsecond precision mix safely.
    """
    out: ItemTexts = {f: item.get(f) for f in REVISABLE_FIELDS}
    limit = None if before is None else as_instant(before)
    for r in revisions:
        if r["field"] not in REVISABLE_FIELDS:
            continue
        if limit is not None and as_instant(r["created_at"]) >= limit:
            continue
        out[r["field"]] = r["new"]
    return out


def effective_texts(db: sqlite_utils.Database, item_ids: Iterable[str] | None = None) -> dict[str, ItemTexts]:
    """``{item id: {field: current text}}`` for the revisable fields (:func:`texts_at` with every revision).

    Restricted to ``item_ids`` when given. Reads only the text columns, so it
    is cheap enough for every task of a large queue.
    """
    cols = ", ".join(("id", *REVISABLE_FIELDS))
    rows: Iterable[dict[str, Any]]
    if item_ids is None:
        rows = db.query(f"SELECT {cols} FROM items")
        revs = revisions_by_item(db)
    else:
        ids = list(dict.fromkeys(item_ids))
        if len(ids) <= 200:
            rows = db.query(f"SELECT {cols} FROM items WHERE id IN ({', '.join('?' for _ in ids)})", ids) if ids else []
        else:
            wanted = set(ids)
            rows = (r for r in db.query(f"SELECT {cols} FROM items") if r["id"] in wanted)
        revs = revisions_by_item(db, ids)
    return {r["id"]: texts_at(r, revs.get(r["id"], [])) for r in rows}


def effective_item(db: sqlite_utils.Database, item_id: str) -> dict[str, Any] | None:
    """The effective (revised) item ``item_id`` (see :func:`apply_revisions`); None if unknown."""
    rows = list(db.query("SELECT * FROM items WHERE id = ?", [item_id]))
    if not rows:
        return None
    return apply_revisions(rows[0], revisions_by_item(db, [item_id]).get(item_id, []))


def save_revision(db: sqlite_utils.Database, item_id: str, field: str, new: str, annotator: str) -> int | None:
    """Store a revision of ``field`` of item ``item_id`` by ``annotator``; returns its row id.

    ``old`` is the current effective value (so consecutive revisions chain).
    Returns None and writes nothing when ``new`` equals the current value.
    Raises ValueError for a field outside :data:`REVISABLE_FIELDS` and
    KeyError for an unknown item.
    """
    if field not in REVISABLE_FIELDS:
        raise ValueError(f"field must be one of {REVISABLE_FIELDS}, got {field!r}")
    with transaction(db) as conn:
        row = conn.execute(f"SELECT {field} FROM items WHERE id = ?", [item_id]).fetchone()
        if row is None:
            raise KeyError(item_id)
        last = conn.execute(
            "SELECT new FROM item_revisions WHERE item_id = ? AND field = ? ORDER BY id DESC LIMIT 1", [item_id, field]
        ).fetchone()
        old = last[0] if last else row[0]
        if old == new:
            return None
        cur = conn.execute(
            "INSERT INTO item_revisions (item_id, field, old, new, annotator, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [item_id, field, old, new, annotator, utc_now()],
        )
        return inserted_id(cur)


def set_unfixable(db: sqlite_utils.Database, item_id: str, unfixable: bool, annotator: str) -> int | None:
    """Mark (or unmark) item ``item_id`` as "cannot be fixed"; a marked entry is left out of every export.

    Writes an ``item_revisions`` row with field ``unfixable`` (old/new "0"/"1");
    returns its id, or None when the mark is already in that state.
    """
    new = "1" if unfixable else "0"
    with transaction(db) as conn:
        last = conn.execute(
            "SELECT new FROM item_revisions WHERE item_id = ? AND field = ? ORDER BY id DESC LIMIT 1",
            [item_id, UNFIXABLE],
        ).fetchone()
        old = last[0] if last else "0"
        if old == new:
            return None
        cur = conn.execute(
            "INSERT INTO item_revisions (item_id, field, old, new, annotator, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [item_id, UNFIXABLE, old, new, annotator, utc_now()],
        )
        return inserted_id(cur)


def unfixable_ids(db: sqlite_utils.Database) -> set[str]:
    """Ids of items whose latest ``unfixable`` revision is "1"."""
    latest: dict[str, str] = {}
    for r in db.query("SELECT item_id, new FROM item_revisions WHERE field = ? ORDER BY id", [UNFIXABLE]):
        latest[r["item_id"]] = r["new"]
    return {k for k, v in latest.items() if v == "1"}


def frame_context(db: sqlite_utils.Database, item: dict[str, Any]) -> dict[str, Any]:
    """Frame and LU definitions for revise mode: {"frame_a": {...}, "frame_b": {...}}.

    Each value has ``name``, ``definition`` (clean frame definition, '' when
    the lexicon is not in this database), ``lu`` and ``lu_definition``; looked
    up by the item's lexicon name, frame names and LU names.
    """
    out: dict[str, Any] = {}
    for side in ("a", "b"):
        frame, lu = item.get(f"frame_{side}"), item.get(f"lu_{side}")
        info = {"name": frame, "definition": "", "lu": lu, "lu_definition": ""}
        rows = list(db.query(
            "SELECT f.id, f.definition FROM frames f JOIN lexicons l ON l.id = f.lexicon_id"
            " WHERE l.name = ? AND f.name = ? LIMIT 1",
            [item.get("lexicon"), frame],
        ))
        if rows:
            info["definition"] = rows[0]["definition"] or ""
            lus = list(db.query(
                "SELECT definition FROM lexical_units WHERE frame_pk = ? AND name = ? LIMIT 1", [rows[0]["id"], lu]
            ))
            if lus:
                info["lu_definition"] = lus[0]["definition"] or ""
        out[f"frame_{side}"] = info
    return out


def last_revised_item(db: sqlite_utils.Database, annotator: str) -> str | None:
    """The id of the item ``annotator`` revised last (``None``: no revision yet)."""
    row = next(db.query("SELECT item_id FROM item_revisions WHERE annotator = ? ORDER BY id DESC LIMIT 1",
                        [annotator]), None)
    return row["item_id"] if row else None
