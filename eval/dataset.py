"""Read validated benchmark entries (JSONL) in the fbagent export format or the FrameBench authors' columns.

Two conventions are detected per line (see ``fbagent/json_schemas/export.schema.json``
and docs/annotate.md):

- fbagent (``fbagent export --format fbagent``): ``id``, ``language``,
  ``verb``, ``lu``, ``frame_a``, ``frame_b``, ``question`` /
  ``question_four_choice``, the four sentences, ``human`` block...
- FrameBench final format (``--format framebench``, what the authors' evaluation
  script reads): ``original_qa_id``, ``lex_unit_name``, ``question`` (four-choice
  form), ``sentence_a``, ``sentence_b``, ``sentence_a_prime``,
  ``sentence_b_prime``, and per annotator i ``match_answer_annotator{i}_ab`` /
  ``_prime`` (the annotator chose the gold answer on the base / extended pair)
  and ``quality_annotator{i}_ab`` / ``_prime`` (rated it acceptable);
- FrameBench step-3 output (the authors' generation step 3, ``qa.jsonl``):
  ``original_qa_id``, ``lex_unit_name``, ``four-choice-question`` (preferred
  over ``question``, which there holds the single-sentence question, as the
  authors' ``normalize_qa_columns`` does), ``sentence_A``, ``sentence_B``,
  ``sentence_A_prime``, ``sentence_B_prime``, ``frame_A``, ``frame_B``.

Human filter (the authors' evaluator, FrameBench section 3.4 / section 4): a
problem of the base pair (``_ab`` columns) or the extended pair (``_prime``)
is kept when at least :data:`HUMAN_FILTER_MIN` annotators matched the gold
answer AND at least :data:`HUMAN_FILTER_MIN` rated it acceptable
(:func:`human_filter_keeps`). Only entries with annotator columns are
filtered; entries in the fbagent format were filtered by ``fbagent export``.

A bad line raises :class:`FbagentError` naming ``file:line`` and the problem;
nothing is evaluated from a file with a bad line.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.eval.entry import (
    SENTENCE_FIELDS,
    Entry,
    _text,
    check_pairs_differ,
    frame_pair_of,
    sentences,
)
from fbagent.eval.hf_folder import folder_sha256, read_hf_folder
from fbagent.files import parse_json_line, read_text_input
from fbagent.lexicon.foreign import other_tool

# the authors' step-3 column names -> ours
STEP3_FIELDS = {"sentence_A": "sentence_a", "sentence_B": "sentence_b",
                "sentence_A_prime": "sentence_a_prime", "sentence_B_prime": "sentence_b_prime"}
_ANNOTATOR_RE = re.compile(r"^(match_answer|quality)_annotator(\d+)_(ab|prime)$")
_PAIR_OF_SUFFIX = {"ab": "base", "prime": "extended"}
HUMAN_FILTER_MIN = 2  # the authors' QUALITY_FILTER_THRESHOLD: annotators needed, per pair


#: the fix for an empty export: with --validated the human filter kept nothing (one annotator, or thresholds
#: above what was judged); its thresholds are the options to change, not --validated itself
EMPTY_FIX = ("if `fbagent export --validated` wrote it, the human filter kept no entry: `fbagent validate report` "
             "says which --min-correct / --min-acceptable keep entries (with one annotator: --min-correct 1 "
             "--min-acceptable 1); export again with them, or without --validated")


def _bool(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "y", "correct")
    if isinstance(value, float) and value != value:  # NaN (a pandas export of a missing cell)
        return False
    return bool(value)


def lemma_of_lu(lu: str) -> str:
    """``"leave.v"`` -> ``"leave"`` (the LU name without its part-of-speech suffix)."""
    return lu.rsplit(".", 1)[0] if "." in lu else lu


#: the newest ``fbagent-export/N`` format this fbagent reads (``fbagent.publish.jsonl.FORMAT_VERSION``)
EXPORT_FORMAT = 1


def check_format(obj: dict, where: str) -> None:
    """Refuse an object that declares ``"format": "fbagent-export/N"`` with N newer than :data:`EXPORT_FORMAT`
    (its fields may mean something else). Raises :class:`FbagentError`."""
    declared = obj.get("format")
    if not isinstance(declared, str) or not declared.startswith("fbagent-export/"):
        return
    version = declared.removeprefix("fbagent-export/")
    if not version.isdigit() or int(version) > EXPORT_FORMAT:
        raise FbagentError(f"{where}: the entry declares format {declared!r}, and this fbagent reads up to "
                           f"'fbagent-export/{EXPORT_FORMAT}'",
                           "upgrade fbagent (pip install -U fbagent), or export the entries with this version")


def entry_from_fbagent(obj: dict, where: str, default_lang: str) -> Entry:
    """One fbagent-format object -> :class:`Entry` (``where`` = ``file:line`` for errors). Raises
    :class:`FbagentError` for a missing question, a bad human block or a newer format (:func:`check_format`)."""
    check_format(obj, where)
    question = obj.get("question_four_choice") or obj.get("question")
    if not isinstance(question, str) or not question.strip():
        raise FbagentError(f"{where}: field 'question' is missing or empty", "fix that line or export again")
    lu = obj.get("lu") or obj.get("lu_a") or ""
    verb = obj.get("verb") or lemma_of_lu(lu)
    human: dict[str, tuple[bool, bool]] = {}
    block = obj.get("human")
    if block is not None and not isinstance(block, dict):
        raise FbagentError(f"{where}: field 'human' must be an object (the human block of `fbagent export`), "
                           f"got {type(block).__name__} {str(block)[:20]!r}", "fix that line or export again")
    pairs = (block or {}).get("pairs") or {}
    base = pairs.get("base") or {} if isinstance(pairs, dict) else None
    ext = pairs.get("extended") or {} if isinstance(pairs, dict) else None
    if not isinstance(base, dict) or not isinstance(ext, dict) or not all(
            isinstance(v, dict) for v in (*base.values(), *ext.values())):
        raise FbagentError(f"{where}: field 'human.pairs' must map base/extended to {{annotator: {{correct, ...}}}}",
                           "fix that line or export again")
    for name in sorted(set(base) & set(ext)):
        human[name] = (bool(base[name].get("correct")), bool(ext[name].get("correct")))
    return Entry(
        id=_text(obj, "id", where), question=question.strip(),
        **sentences(obj, where),
        verb=str(verb), language=str(obj.get("language") or default_lang), lu=str(lu),
        frame_a=str(obj.get("frame_a") or ""), frame_b=str(obj.get("frame_b") or ""),
        frame_pair=frame_pair_of(obj, str(obj.get("frame_a") or ""), str(obj.get("frame_b") or "")),
        source_format="fbagent", human_correct=human, human_filter=_filter_of(block),
    )


def _filter_of(block: dict[str, Any] | None) -> tuple[bool, int, int] | None:
    """``(kept, min_correct, min_acceptable)`` of an fbagent export's ``human`` block; ``None`` without them."""
    if not block or not isinstance(block.get("kept"), bool):
        return None
    try:
        return block["kept"], int(block["min_correct"]), int(block["min_acceptable"])
    except (KeyError, TypeError, ValueError):
        return None


def _annotator_columns(obj: dict) -> tuple[dict[str, tuple[bool, bool]], dict[str, dict[str, int]]]:
    """The authors' annotator columns -> ``(human_correct, pair_votes)`` (see :class:`Entry`).

    A missing column counts as ``False`` (as ``int(row.get(col, False))`` in the
    authors' evaluator).
    """
    cols: dict[tuple[str, str, str], bool] = {}
    annotators: set[str] = set()
    for key, value in obj.items():
        m = _ANNOTATOR_RE.match(key)
        if m:
            kind, num, suffix = m.groups()
            annotators.add(num)
            cols[(kind, num, suffix)] = _bool(value)
    if not annotators:
        return {}, {}
    names = sorted(annotators, key=int)
    human = {f"annotator{n}": (cols[("match_answer", n, "ab")], cols[("match_answer", n, "prime")])
             for n in names if ("match_answer", n, "ab") in cols and ("match_answer", n, "prime") in cols}
    votes = {pair: {"matched": sum(cols.get(("match_answer", n, suffix), False) for n in names),
                    "acceptable": sum(cols.get(("quality", n, suffix), False) for n in names),
                    "annotators": len(names)}
             for suffix, pair in _PAIR_OF_SUFFIX.items()}
    return human, votes


def entry_from_framebench(obj: dict, where: str, default_lang: str) -> Entry:
    """One object in the authors' columns (final format or step-3 output) -> :class:`Entry`.

    Step-3 names (``sentence_A``..., ``four-choice-question``, ``frame_A``) are
    mapped to ours; annotator columns become ``human_correct`` and ``pair_votes``.
    """
    obj = {STEP3_FIELDS.get(k, k): v for k, v in obj.items()}
    step3 = "four-choice-question" in obj or any(k in obj for k in ("frame_A", "single-question"))
    lu = _text(obj, "lex_unit_name", where)
    question = obj.get("four-choice-question") or obj.get("question")
    if not isinstance(question, str) or not question.strip():
        raise FbagentError(f"{where}: field 'four-choice-question' (or 'question') is missing or empty",
                           "fix that line, or pass the authors' step-3 qa.jsonl or their final dataset")
    human, votes = _annotator_columns(obj)
    frame_a, frame_b = str(obj.get("frame_A") or obj.get("frame_a") or ""), str(obj.get("frame_B") or obj.get("frame_b") or "")
    return Entry(
        id=str(obj.get("original_qa_id")), question=question.strip(),
        **{k: _text(obj, k, where) for k in SENTENCE_FIELDS},
        verb=lemma_of_lu(lu), language=str(obj.get("language") or default_lang), lu=lu,
        frame_a=frame_a, frame_b=frame_b, frame_pair=frame_pair_of(obj, frame_a, frame_b),
        source_format="framebench-step3" if step3 else "framebench", human_correct=human, pair_votes=votes,
        human_filter=None,   # the authors' format records no filter
    )


def human_filter_keeps(entry: Entry, kind: str) -> bool:
    """The authors' human filter for one pair (``kind``: ``"base"`` or ``"extended"``).

    True when the entry has no annotator columns, else when at least
    :data:`HUMAN_FILTER_MIN` annotators matched the gold answer on that pair and
    at least :data:`HUMAN_FILTER_MIN` rated it acceptable (the authors'
    ``_is_quality_filtered``, FrameBench section 4).
    """
    votes = entry.pair_votes.get(kind)
    if not votes:
        return True
    return votes["matched"] >= HUMAN_FILTER_MIN and votes["acceptable"] >= HUMAN_FILTER_MIN


def has_annotator_columns(entries: list[Entry]) -> bool:
    """True when any entry carries the authors' annotator columns (the human filter's default)."""
    return any(e.pair_votes for e in entries)


def read_entries(path: Path, default_lang: str = "en", limit: int | None = None) -> list[Entry]:
    """Read a JSONL file of entries (both conventions may be mixed, blank lines skipped), or the
    Hugging Face folder of ``fbagent export --format hf`` (:func:`fbagent.eval.hf_folder.read_hf_folder`).

    ``default_lang`` is used when a line has no ``language`` (FrameBench columns
    never do). ``limit`` keeps the first N entries. Raises :class:`FbagentError`
    for a missing file, a line that is not a JSON object, a missing field, a
    duplicate id, or a file without entries.
    """
    path = Path(path)
    if path.is_dir():  # a Hugging Face folder from `fbagent export --format hf`

        found = read_hf_folder(path, default_lang=default_lang, limit=limit)
        if not found:
            raise FbagentError(f"dataset folder {path} has no entries", EMPTY_FIX)
        return found
    text = read_text_input(path, "dataset", "pass --dataset with a JSONL file from `fbagent export` (UTF-8) or a "
                           "folder from `fbagent export --format hf`")
    if (tool := other_tool(path)) is not None:   # Prodigy, Argilla, lm-eval results, a lexicon: not a damaged line
        raise FbagentError(f"{path} is {tool[0]}, not a benchmark of entries ({tool[1]})",
                           "pass --dataset with the JSONL of `fbagent export` or the folder of `fbagent export "
                           "--format hf`")
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        # a first line that is not JSON: another kind of file (CoNLL-U, CSV, ...), not a damaged line to fix
        obj = parse_json_line(line, where, "fix that line (one JSON object per line)" if entries else
                              "pass --dataset with the JSONL of `fbagent export` or the folder of `fbagent export "
                              "--format hf` (the first line of this file is not JSON: is it another kind of file?)")
        if not isinstance(obj, dict):
            raise FbagentError(f"{where}: expected a JSON object, got {type(obj).__name__}",
                               "fix that line (one JSON object per line)")
        if "original_qa_id" in obj:  # the authors' columns (final format or step-3 output)
            if obj.get("original_qa_id") in (None, ""):
                raise FbagentError(f"{where}: field 'original_qa_id' is empty", "fix that line")
            entry = entry_from_framebench(obj, where, default_lang)
        elif "id" in obj:
            entry = entry_from_fbagent(obj, where, default_lang)
        else:
            raise FbagentError(f"{where}: neither 'id' (fbagent format) nor 'original_qa_id' (the FrameBench "
                               "authors' columns)",
                               "export the entries with `fbagent export --validated OUT.jsonl`")
        check_pairs_differ(entry, where)
        if entry.id in seen:
            raise FbagentError(f"{where}: entry id {entry.id!r} repeats line {seen[entry.id]}",
                               "remove the duplicate line")
        seen[entry.id] = lineno
        entries.append(entry)
        if limit is not None and len(entries) >= limit:
            break
    if not entries:
        raise FbagentError(f"dataset {path} has no entries", EMPTY_FIX)
    return entries


def dataset_sha256(path: Path) -> str:
    """Hex sha256 of a dataset: a file's bytes, or a Hugging Face folder's data files
    (:func:`fbagent.eval.hf_folder.folder_sha256`). Recorded in the run manifest."""
    if Path(path).is_dir():
        return folder_sha256(Path(path))
    return file_sha256(path)


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes (recorded in the run manifest)."""
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def dataset_human_filter(entries: list[Entry]) -> dict[str, int] | None:
    """The human filter an fbagent export applied to ``entries``: ``{"min_correct", "min_acceptable", "kept",
    "judged"}`` (entries that pass it, entries with judgments), or ``None`` when the file does not say (the
    authors' format, an export without judgments)."""
    marked = [e for e in entries if e.human_filter is not None and e.human_correct]
    if not marked:
        return None
    _, min_correct, min_acceptable = marked[0].human_filter or (False, 0, 0)
    return {"min_correct": min_correct, "min_acceptable": min_acceptable,
            "kept": sum(1 for e in marked if e.human_filter and e.human_filter[0]), "judged": len(marked)}


def human_accuracy(entries: list[Entry]) -> float | None:
    """The paper's "Human" row from the entries' annotator judgments (FrameBench, section 4).

    Mean over annotators of the share of correct answers on the base and extended pairs of the entries the
    human filter keeps (as ``validate report`` and the dataset card compute it): for an fbagent export, the
    entries its ``human`` block marks ``kept``; for the authors' format (no filter recorded), every judged
    entry. ``None`` when no such entry carries judgments. Result in [0, 1].
    """
    per: dict[str, list[bool]] = {}
    for e in entries:
        if e.human_filter is not None and not e.human_filter[0]:
            continue
        for name, (base, ext) in e.human_correct.items():
            per.setdefault(name, []).extend([base, ext])
    rates = [sum(v) / len(v) for v in per.values() if v]
    return sum(rates) / len(rates) if rates else None
