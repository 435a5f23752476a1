"""Files of other tools that a user may hand to `fbagent lexicon add` by mistake, told by their layout.

A Prodigy or Argilla annotation export, a doccano JSONL, an lm-evaluation-harness ``results.json`` or samples
file, fbagent's own benchmark export (``fbagent export``), a CoNLL-U treebank or an NLTK-layout folder without its
``frameIndex.xml`` would otherwise get a lexicon reader's complaint about the first line ("'frame' is a required
property", "not a JSON list of LU objects ... fetch it again"), which sends the user to repair a good file.
:func:`foreign_error` names what the file is and what reads it, in one line. It reads at most the first
:data:`PEEK_BYTES` of a file and decides only on layouts no lexicon has (a lexicon's JSONL line has ``frame``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from fbagent.errors import FbagentError

#: a CoNLL-U token id: 1, a multiword range 1-2, an empty node 1.1
TOKEN_ID = re.compile(r"\d+(?:[-.]\d+)?")
#: how much of a file is read to tell its layout
PEEK_BYTES = 65536
LEXICON_FIX = ("pass a FrameNet lexicon instead (docs/lexicon.md lists the layouts fbagent reads; a JSONL lexicon "
               "has one frame per line)")
#: what :func:`_json_layout` calls fbagent's own benchmark export (a dataset, not another tool's file)
OWN_EXPORT = "a benchmark of entries written by fbagent export"


def _first_json(path: Path) -> object | None:
    """The first JSON value of ``path``: the first line of a JSONL file, or the whole (small) JSON file; None when
    neither parses (not JSON, not UTF-8, or a JSON file longer than :data:`PEEK_BYTES`)."""
    try:
        with path.open("rb") as f:
            head = f.read(PEEK_BYTES)
        text = head.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    first = next((line for line in text.splitlines() if line.strip()), "")
    for candidate in (first, text):
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):   # not JSON; or nested deeper than Python's parser goes
            continue
    return None


def _json_layout(value: object) -> tuple[str, str] | None:
    """(what the JSON value's file is, what reads it) for a layout of another tool; None for anything else."""
    if isinstance(value, list) and value:
        value = value[0]
    if not isinstance(value, dict) or "frame" in value:
        return None
    keys = set(value)
    if {"results", "versions"} <= keys or {"results", "configs"} <= keys or {"results", "n-shot"} <= keys:
        return ("an lm-evaluation-harness results file", "lm_eval prints its table; fbagent eval report reads the "
                "folders of fbagent eval run")
    if {"doc_id", "doc"} <= keys and keys & {"resps", "filtered_resps", "target"}:
        return "an lm-evaluation-harness samples file", "lm_eval --log_samples wrote it; it holds no lexicon"
    if keys & {"_task_hash", "_input_hash"} or (value.get("answer") in ("accept", "reject", "ignore")):
        return "a Prodigy annotation export", "Prodigy's db-out wrote it; it holds no frames or lexical units"
    if "fields" in keys and keys & {"responses", "suggestions", "metadata"} or {"inputs", "annotation"} <= keys:
        return "an Argilla dataset export", "Argilla wrote it; it holds no frames or lexical units"
    if "text" in keys and keys & {"label", "labels", "entities"}:
        return "a doccano/annotation-tool JSONL (text with labels)", "it holds no frames or lexical units"
    if "id" in keys and {"question", "sentence_a"} <= keys or "original_qa_id" in keys:
        return OWN_EXPORT, "fbagent eval run --dataset FILE reads it"
    return None


def _conllu(path: Path) -> bool:
    """Whether ``path`` looks like a CoNLL-U treebank: a ``.conllu`` file, or (not named as a layout fbagent reads)
    rows of 10 tab-separated columns with a token id first and a head id (or ``_``) in the seventh."""
    if path.suffix.lower() == ".conllu":
        return True
    if path.suffix.lower() in (".csv", ".tsv", ".conll2009", ".json", ".jsonl", ".xml"):
        return False   # a layout fbagent reads by that name: its own reader speaks about it
    try:
        with path.open("rb") as f:
            lines = f.read(PEEK_BYTES).decode("utf-8", errors="replace").splitlines()
    except OSError:
        return False
    rows = [ln.split("\t") for ln in lines[:-1] if ln.strip() and not ln.startswith("#")][:20]
    return bool(rows) and all(len(r) == 10 and TOKEN_ID.fullmatch(r[0]) and (r[6] == "_" or r[6].isdigit())
                              for r in rows)


def foreign_error(path: Path) -> FbagentError | None:
    """The one-line refusal of ``path`` when it is a file of another tool or an incomplete NLTK-layout folder (see
    the module docstring), else None. Reads at most :data:`PEEK_BYTES`; never raises for an unreadable file."""
    if path.is_dir():
        parts = [name for name in ("luIndex.xml", "frame", "lu", "frRelation.xml") if (path / name).exists()]
        if not (path / "frameIndex.xml").exists() and {"luIndex.xml", "frame"} & set(parts):
            return FbagentError(f"{path}: an NLTK-layout FrameNet folder without frameIndex.xml (it holds "
                                f"{', '.join(parts)})", "copy or download the release again with its frameIndex.xml, "
                                "or point PATH at the folder that holds it")
        return None
    if not path.is_file():
        return None
    layout = _json_layout(_first_json(path)) if path.suffix.lower() in (".json", ".jsonl", ".ndjson") else None
    if layout is not None:
        what, reads = layout
        return FbagentError(f"{path} is {what}, not a FrameNet lexicon ({reads})", LEXICON_FIX)
    if _conllu(path):
        return FbagentError(f"{path} is a CoNLL-U treebank file without frame annotation, not a FrameNet lexicon",
                            "pass a FrameNet: for CoNLL data, the Latvian FrameNet's *.conll2009 files (--format "
                            "conll2009); docs/lexicon.md lists the layouts")
    return None


def is_lm_eval_results(path: Path) -> bool:
    """Whether the file ``path`` is an lm-evaluation-harness ``results*.json`` (``results`` with ``versions``,
    ``configs`` or ``n-shot``); `eval report` names it instead of "has no manifest.json"."""
    layout = _json_layout(_first_json(path)) if path.is_file() else None
    return layout is not None and layout[0] == "an lm-evaluation-harness results file"


def other_tool(path: Path) -> tuple[str, str] | None:
    """(what the file ``path`` is, what reads it) when it is another tool's JSON/JSONL file (Prodigy, Argilla,
    doccano, lm-evaluation-harness results or samples) or a FrameNet lexicon in JSONL; None for fbagent's own
    export and anything else. `eval run --dataset` names it instead of a missing field of its first line. Reads at
    most :data:`PEEK_BYTES`; never raises for an unreadable file."""
    if not path.is_file():
        return None
    value = _first_json(path)
    first = value[0] if isinstance(value, list) and value else value
    if isinstance(first, dict) and "frame" in first and set(first) & {"lus", "fes", "definition"}:
        return "a FrameNet lexicon in JSONL (one frame per line)", "fbagent lexicon add reads it"
    layout = _json_layout(value)
    return None if layout is None or layout[0] == OWN_EXPORT else layout
