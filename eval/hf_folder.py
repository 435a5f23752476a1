"""Read a Hugging Face dataset folder written by ``fbagent export --format hf`` back into entries.

The folder's Parquet files (``data/<lang>/test-*.parquet``, every language config) are read with
pyarrow in language order, rows in file order: the same entries, in the same order, as the fbagent
JSONL export of the same database. A row becomes an :class:`fbagent.eval.entry.Entry` as an
fbagent-format line does (four-choice question, the four sentences, LU, frames; per-annotator
correctness on the base and extended pair from ``human.judgments``). The authors' annotator
columns are not turned into a human filter: the export already applied fbagent's filter, as for the
JSONL export.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from fbagent.errors import FbagentError
from fbagent.eval.entry import Entry, _text, check_pairs_differ, frame_pair_of, sentences

if TYPE_CHECKING:
    from fbagent.eval.entry import Entry

DATA_GLOB = "data/*/test-*.parquet"


def data_files(folder: Path) -> list[Path]:
    """The Parquet files of ``folder`` in language, then file-name order. Raises :class:`FbagentError` when none."""
    files = sorted(Path(folder).glob(DATA_GLOB))
    groups = sorted(g.stem.lstrip("_") for g in Path(folder).glob("_framebench_*.yaml"))
    if not files and groups:  # `export --format lm-eval` wrote it: problems for lm_eval, not entries
        raise FbagentError(f"folder {folder} is an lm-evaluation-harness task folder (fbagent export --format "
                           "lm-eval: the problems in lm_eval's layout, not the entries fbagent eval run scores)",
                           f"run it with `lm_eval --include_path {folder} --tasks {groups[0]}`, or pass --dataset "
                           "with the folder of `fbagent export --format hf` or a JSONL export")
    if not files:
        raise FbagentError(f"folder {folder} holds no {DATA_GLOB} files",
                           "pass --dataset with a folder written by `fbagent export --format hf`, or a JSONL file")
    return files


def folder_sha256(folder: Path) -> str:
    """Hex sha256 over the data files' relative paths and bytes (what a run's identity records)."""
    h = hashlib.sha256()
    for f in data_files(folder):
        h.update(f.relative_to(folder).as_posix().encode("utf-8") + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def entry_from_row(row: dict, where: str, default_lang: str) -> Entry:
    """One dataset row -> :class:`fbagent.eval.entry.Entry` (``where`` names the file and row for errors)."""
    question = row.get("question_four_choice") or row.get("question")
    if not isinstance(question, str) or not question.strip():
        raise FbagentError(f"{where}: field 'question' is missing or empty", "export the folder again")
    human: dict[str, tuple[bool, bool]] = {}
    judged: dict[str, dict[str, bool]] = {}
    for j in ((row.get("human") or {}).get("judgments") or []):
        if j.get("pair") in ("base", "extended"):
            judged.setdefault(j["annotator"], {})[j["pair"]] = bool(j.get("correct"))
    for name in sorted(judged):
        if len(judged[name]) == 2:
            human[name] = (judged[name]["base"], judged[name]["extended"])
    lu = row.get("lu") or row.get("lex_unit_name") or ""
    return Entry(
        id=_text(row, "id", where), question=question.strip(),
        **sentences(row, where),
        verb=str(row.get("verb") or lu.rsplit(".", 1)[0]), language=str(row.get("language") or default_lang),
        lu=str(lu), frame_a=str(row.get("frame_a") or ""), frame_b=str(row.get("frame_b") or ""),
        frame_pair=frame_pair_of(row, str(row.get("frame_a") or ""), str(row.get("frame_b") or "")),
        source_format="fbagent-hf", human_correct=human,
    )


def read_hf_folder(folder: Path, default_lang: str = "en", limit: int | None = None) -> list:
    """The entries of an exported Hugging Face folder (``limit``: the first N).

    Raises :class:`FbagentError` without pyarrow (the ``publish`` extra), for a folder without data
    files, an unreadable file, a row without its fields, a pair of identical sentences
    (:func:`fbagent.eval.entry.check_pairs_differ`) or a repeated id.
    """
    try:
        import pyarrow.parquet as pq
    except ImportError as err:
        raise FbagentError("reading a Hugging Face dataset folder needs pyarrow", "pip install 'fbagent[publish]'") from err
    entries: list[Entry] = []
    seen: dict[str, str] = {}
    for f in data_files(folder):
        try:
            rows = pq.read_table(f).to_pylist()
        except Exception as err:  # pyarrow raises ArrowInvalid, OSError...
            raise FbagentError(f"cannot read {f} as Parquet ({type(err).__name__})",
                               "export the folder again with `fbagent export --format hf`") from err
        for i, row in enumerate(rows):
            where = f"{f}:row {i}"
            entry = entry_from_row(row, where, default_lang)
            check_pairs_differ(entry, where)
            if entry.id in seen:
                raise FbagentError(f"{where}: entry id {entry.id!r} repeats {seen[entry.id]}", "export the folder again")
            seen[entry.id] = where
            entries.append(entry)
            if limit is not None and len(entries) >= limit:
                return entries
    return entries
