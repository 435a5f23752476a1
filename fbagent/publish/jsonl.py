"""JSONL export of benchmark entries (``fbagent export --format fbagent|framebench``): the fbagent format and the FrameBench authors' column names.

One JSON object per entry, in the stable entry order (run id, pair id, k).
Revised text (see :mod:`fbagent.store.revisions`) replaces the generated text;
entries marked "cannot be fixed" are never exported. ``validated=True`` keeps
only the entries that pass the human filter (FrameBench, Yano and Sasano 2026,
section 3.2: at least ``min_correct`` annotators correct and at least
``min_acceptable`` acceptable, entry score = min over base and extended pair).

Formats (field tables in docs/annotate.md, JSON Schema in
``fbagent/json_schemas/export.schema.json``):

- ``fbagent``: every field of the entry plus a ``human`` block; ``frame_pair`` is the frame pair's key common
  to every language (:func:`fbagent.framenet.pair_keys.frame_pair_key`: the two frames' FrameNet 1.7 names,
  sorted, ``"FrameA|FrameB"``), so that entries of several languages on the same pair can be compared.
- ``framebench``: exactly ``original_qa_id``, ``lex_unit_name``, ``question``
  (the four-choice form, which the authors' script puts in its prompt),
  ``sentence_a``, ``sentence_b``, ``sentence_a_prime``, ``sentence_b_prime``
  and, for annotators i = 1..3 (the entry's first three in the database's numbering,
  :mod:`fbagent.publish.annotators`; no names), ``match_answer_annotator{i}_ab``,
  ``match_answer_annotator{i}_prime``, ``quality_annotator{i}_ab``,
  ``quality_annotator{i}_prime`` as JSON booleans (never null: a missing
  annotator is ``false``), since that script sums ``int(value)``.

The bytes depend only on the database content: fixed key order, no
timestamps, ``ensure_ascii=False``, ``\\n`` line ends. The file is written to
a temporary file in the same folder and renamed over ``OUT``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.files import write_atomic
from fbagent.framenet.pair_keys import canonical_names, frame_pair_key
from fbagent.limits import check_count
from fbagent.publish.annotators import anonymise_records, published
from fbagent.publish.formats import JSONL_NAMES, check_format
from fbagent.store import annotations as ann
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.store.lexicon import frame_ids, get_lexicon
from fbagent.store.revisions import apply_revisions, revisions_by_item
from fbagent.store.runs import run_names as stored_run_names
from fbagent.validation.aggregate import (
    DEFAULT_MIN_ACCEPTABLE,
    DEFAULT_MIN_CORRECT,
    EntryScore,
    score_entries,
)
from fbagent.validation.thresholds import filter_hint

FORMAT_VERSION = "1"
SCHEMA_PATH = Path(__file__).parent.parent / "json_schemas" / "export.schema.json"  # fbagent/json_schemas/
FRAMEBENCH_ANNOTATORS = 3


def _json(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def human_block(e: EntryScore, min_correct: int, min_acceptable: int) -> dict[str, Any]:
    """The ``human`` block of one entry (fbagent format): the votes, the filter's thresholds, ``kept`` (the
    outcome), ``vote_kept`` (the vote filter alone), ``outcome`` (which rule decided:
    :data:`fbagent.validation.adjudication.OUTCOMES`), the lead's ``adjudication`` (decision, reason,
    second-round annotators; null when none), ``adjudication_set_aside`` (a decision a later revision set
    aside: decision, reason, revised fields, why; null when none) and every pair judgment per annotator."""
    pairs: dict[str, dict[str, Any]] = {}
    for name in sorted(e.pairs):
        for pair, j in sorted(e.pairs[name].items()):
            pairs.setdefault(pair, {})[name] = j.as_dict()
    return {
        "annotators": e.annotators,
        "entry_scores": {n: e.scores[n] for n in e.annotators},
        "n_correct": e.n_correct,
        "n_acceptable": e.n_acceptable,
        "min_correct": min_correct,
        "min_acceptable": min_acceptable,
        "kept": e.kept,
        "vote_kept": e.vote_kept,
        "outcome": e.outcome,
        "adjudication": None if e.adjudication is None else {
            "decision": e.adjudication["decision"], "reason": e.adjudication["reason"],
            "second_round": list(e.second_round)},
        "adjudication_set_aside": None if e.set_aside is None else {
            k: e.set_aside[k] for k in ("decision", "reason", "revised", "why")},
        "pairs": {p: pairs[p] for p in ("base", "extended", "both_correct", "neither_correct") if p in pairs},
    }


def fbagent_record(item: dict[str, Any], run_name: str, e: EntryScore, min_correct: int, min_acceptable: int,
                   canonical: dict[str, str] | None = None) -> dict[str, Any]:
    """One entry in the fbagent format (``item`` is the effective item from :func:`apply_revisions`;
    ``canonical``: the lexicon's frame names in FrameNet 1.7's naming, for ``frame_pair``)."""
    return {
        "format": f"fbagent-export/{FORMAT_VERSION}",
        "id": item["id"],
        "language": item["language"],
        "lexicon": item["lexicon"],
        "verb": item["verb"],
        "lu": item["lu_a"],
        "lu_a": item["lu_a"],
        "lu_b": item["lu_b"],
        "frame_a": item["frame_a"],
        "frame_b": item["frame_b"],
        "frame_pair": frame_pair_key(item["frame_a"], item["frame_b"], canonical),
        "question": item["question"],
        "question_two_choice": item["question"],
        "question_four_choice": item["question_four_choice"],
        "condition": item["condition"],
        "sentence_a": item["sentence_a"],
        "sentence_b": item["sentence_b"],
        "sentence_a_prime": item["sentence_a_prime"],
        "sentence_b_prime": item["sentence_b_prime"],
        "verb_forms": {
            "sentence_a": item["verb_form_a"],
            "sentence_b": item["verb_form_b"],
            "sentence_a_prime": item["verb_form_a_prime"],
            "sentence_b_prime": item["verb_form_b_prime"],
        },
        "target_spans": item["target_spans"],
        "lexical_similarity": item["lexical_similarity"],
        "verifier": _json(item["verifier"]),
        "status": item["status"],
        "generator_model": item["generator_model"],
        "verb_check": item.get("verb_check"),
        "run": run_name,
        "revised": bool(item["revised_fields"]),
        "revised_fields": item["revised_fields"],
        "original": item["original"],
        "human": human_block(e, min_correct, min_acceptable),
    }


def framebench_record(item: dict[str, Any], e: EntryScore, number: dict[str, int] | None = None) -> dict[str, Any]:
    """One entry with the FrameBench authors' column names (see the module docstring); annotator i is the i-th
    of the entry's annotators in ``number`` order (the database's numbering, :mod:`fbagent.publish.annotators`;
    None: name order)."""
    rec: dict[str, Any] = {
        "original_qa_id": item["id"],
        "lex_unit_name": item["lu_a"],
        "question": item["question_four_choice"] or item["question"],
        "sentence_a": item["sentence_a"],
        "sentence_b": item["sentence_b"],
        "sentence_a_prime": item["sentence_a_prime"],
        "sentence_b_prime": item["sentence_b_prime"],
    }
    names = sorted(e.annotators, key=lambda n: (number or {}).get(n, 1 << 30))[:FRAMEBENCH_ANNOTATORS]
    for i in range(1, FRAMEBENCH_ANNOTATORS + 1):
        pairs = e.pairs[names[i - 1]] if i <= len(names) else {}
        rec[f"match_answer_annotator{i}_ab"] = bool(pairs and pairs["base"].correct)
        rec[f"match_answer_annotator{i}_prime"] = bool(pairs and pairs["extended"].correct)
        rec[f"quality_annotator{i}_ab"] = bool(pairs and pairs["base"].acceptable)
        rec[f"quality_annotator{i}_prime"] = bool(pairs and pairs["extended"].acceptable)
    return rec


def export_records(
    db: sqlite_utils.Database,
    *,
    run: str | None = None,
    fmt: str = "fbagent",
    validated: bool = False,
    min_correct: int = DEFAULT_MIN_CORRECT,
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE,
    statuses: Sequence[str] = ANNOTATED_STATUSES,
    exclude: Collection[str] = (),
) -> list[dict[str, Any]]:
    """The records to export, in stable entry order; entries whose id is in ``exclude`` are left out
    (``export --exclude-shortcut``: the audit's flagged entries). The records carry annotator names: a
    writer publishes them through :mod:`fbagent.publish.annotators` (:func:`export`, the HF rows).

    Raises :class:`FbagentError` for an unknown format or run, a threshold out of range, when no entry
    matches, or when ``validated`` is asked and no entry has human judgments.
    """
    check_format(fmt, JSONL_NAMES)
    check_count("--min-correct", min_correct)
    check_count("--min-acceptable", min_acceptable)
    items = ann.select_items(db, run=run, statuses=statuses, columns="*")
    if not items:
        raise ann.explain_no_items(db, run=run, language=None, statuses=statuses, options=("--run",))
    ids = [i["id"] for i in items]
    scores = score_entries(db, ids, min_correct=min_correct, min_acceptable=min_acceptable)
    if validated and not any(e.scores for e in scores.values()):
        raise FbagentError(
            f"--validated: none of the {len(ids)} entries has human judgments yet",
            "let annotators run `fbagent annotate --annotator NAME` first, or export without --validated",
        )
    revisions = revisions_by_item(db, ids)
    run_names = stored_run_names(db)
    canonical = {name: lexicon_canonical_names(db, name) for name in sorted({str(i["lexicon"]) for i in items})}
    number = published(db).numbers
    out = []
    for item in items:
        eff = apply_revisions(item, revisions.get(item["id"], []))
        e = scores[item["id"]]
        if eff["unfixable"] or (validated and not e.kept) or item["id"] in exclude:
            continue
        if fmt == "fbagent":
            out.append(fbagent_record(eff, run_names.get(item["run_id"], str(item["run_id"])), e, min_correct,
                                      min_acceptable, canonical[str(item["lexicon"])]))
        else:
            out.append(framebench_record(eff, e, number))
    return out


def lexicon_canonical_names(db: sqlite_utils.Database, name: str) -> dict[str, str]:
    """``{frame name: FrameNet 1.7 name}`` of lexicon ``name`` (:func:`fbagent.framenet.pair_keys.canonical_names`;
    ``{}`` when the lexicon is no longer stored: the names are then used as they are)."""
    row = get_lexicon(db, name)
    return canonical_names(frame_ids(db, row["id"])) if row else {}


def write_jsonl(records: Sequence[dict[str, Any]], out: Path) -> None:
    """Write ``records`` as JSONL (one ``json.dumps(ensure_ascii=False)`` per line) to ``out`` atomically."""
    write_atomic(out, (json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def write_text(text: str, out: Path) -> None:
    """Write ``text`` to ``out`` atomically (see :func:`write_jsonl`)."""
    write_atomic(out, [text])


def export(
    db: sqlite_utils.Database,
    out: Path,
    annotator_names: bool = False,
    **options: Any,
) -> int:
    """Build the records (:func:`export_records` options) and write them to ``out``; returns how many.
    Annotators are published as ``annotator_1..n`` (:mod:`fbagent.publish.annotators`: one numbering per
    database, the mapping never written), or by name with ``annotator_names``; the framebench format
    numbers annotators per entry and carries no name either way."""
    records = export_records(db, **options)
    if options.get("fmt", "fbagent") == "fbagent":
        records = anonymise_records(records, published(db, annotator_names))
    write_jsonl(records, out)
    return len(records)


def validated_hint(
    db: sqlite_utils.Database,
    *,
    run: str | None = None,
    min_correct: int = DEFAULT_MIN_CORRECT,
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE,
    statuses: Sequence[str] = ANNOTATED_STATUSES,
) -> str | None:
    """The hint of :func:`fbagent.validation.thresholds.filter_hint` for the entries a ``--validated`` export reads
    (``None`` when the filter fits them or no entry matches)."""
    items = ann.select_items(db, run=run, statuses=statuses)
    if not items:
        return None
    scores = score_entries(db, [i["id"] for i in items], min_correct=min_correct, min_acceptable=min_acceptable)
    return filter_hint(scores.values(), min_correct, min_acceptable)


def require_kept(db: sqlite_utils.Database, records: Sequence[dict[str, Any]], options: dict[str, Any]) -> None:
    """Raise :class:`FbagentError` when a ``--validated`` folder export (hf, lm-eval) would hold no entry:
    the problem names the human filter (``options``: :func:`export_records` keywords), the fix the
    thresholds that keep entries (:func:`validated_hint`) or, failing that, lower ones. Nothing is written."""
    if records or not options.get("validated"):
        return
    c, a = options.get("min_correct", DEFAULT_MIN_CORRECT), options.get("min_acceptable", DEFAULT_MIN_ACCEPTABLE)
    hint = validated_hint(db, run=options.get("run"), min_correct=c, min_acceptable=a,
                          statuses=options.get("statuses", ANNOTATED_STATUSES))
    raise FbagentError(f"the human filter (--validated --min-correct {c} --min-acceptable {a}) keeps 0 entries; "
                       "nothing was written",
                       hint or "lower the thresholds, e.g. --min-correct 1 --min-acceptable 1, or judge more entries")
