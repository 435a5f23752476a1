"""Read the Korean FrameNet repository layout (machinereading/koreanframenet) as published.

Layout (version folder ``V``, e.g. ``1.2``)::

    resource/V/KFN_lus.json        {"5566": {"lu": "입증하다.v.Verification", "lexeme": "입증하다", "pos": "v",
                                              "frame": "Verification", "fid": 2237, "annotation_ids": [...]}, ...}
    resource/info/frame_info_full.json   FrameNet 1.7 frames: {"Verification": {"definition": "...",
                                              "arguments": [{"fe", "definition", "coreType", "semType"}]}}
    resource/info/FN17_frame2id.json     {frame name: FrameNet 1.7 frame id}
    data/V/{training,dev,test}.tsv       annotated sentences, CoNLL-like: ``#anno-id:N`` and ``#text:...`` lines,
                                         then one token a row: index, token, target LU (``입증하다.v`` or ``_``),
                                         frame (or ``_``), FE BIO tag; a blank line ends a sentence

Frames are the frames the LUs name (809 in 1.2), with definitions and frame elements (core types) from
``resource/info`` where the copy has it; LUs are ``lexeme.pos`` in their frame, ``lu_id`` the JSON key,
``n_annotated`` the number of ``annotation_ids`` the release lists (its annotation file is not needed); every
sentence of the TSV files becomes an exemplar of its LU with the target tokens' span (several target tokens:
from the first to the last). The newest version folder is read unless PATH is a version folder itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.framenet.model import Example, Frame, FrameElement, LexicalUnit, LexiconData
from fbagent.lexicon.releases import known
from fbagent.lexicon.source_files import (
    damaged,
    fingerprint,
    line_of,
    read_json,
    read_text,
    token_offsets,
)

NAME = "kfn"
LAYOUT = "Korean FrameNet"
PARSER_VERSION = "kfn-reader/1"
LUS_FILE = "KFN_lus.json"
#: the release's POS tags -> fbagent's (upper case; V = verb)
POS = {"v": "V", "n": "N", "a": "A", "ad": "ADV", "j": "J", "mwe": "MWE", "m": "M", "e": "E"}
TSV_COLUMNS = 5
_VERSION = re.compile(r"^\d+(\.\d+)*$")


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(p) for p in path.name.split("."))


def find_root(path: Path) -> tuple[Path, str] | None:
    """``(repository root, version)`` when ``path`` is a Korean FrameNet checkout (``resource/V/KFN_lus.json``) or
    one of its version folders; ``None`` otherwise."""
    path = path.expanduser()
    if (path / LUS_FILE).is_file() and _VERSION.match(path.name) and path.parent.name == "resource":
        return path.parent.parent, path.name
    resource = path / "resource"
    if not resource.is_dir():
        return None
    versions = sorted((p for p in resource.iterdir() if _VERSION.match(p.name) and (p / LUS_FILE).is_file()),
                      key=_version_key)
    return (path, versions[-1].name) if versions else None


def detect(path: Path) -> bool:
    """Whether ``path`` holds the Korean FrameNet layout (:func:`find_root`)."""
    return path.is_dir() and find_root(path) is not None


def _files(root: Path, version: str) -> tuple[Path, Path, Path, list[Path]]:
    info = root / "resource" / "info"
    data = root / "data" / version
    tsvs = sorted(data.glob("*.tsv")) if data.is_dir() else []
    return (root / "resource" / version / LUS_FILE, info / "frame_info_full.json", info / "FN17_frame2id.json", tsvs)


def source_hash(path: Path) -> str:
    """The content hash of the files :func:`read_kfn` reads."""
    root, version = _root(path)
    lus, info, ids, tsvs = _files(root, version)
    return fingerprint(PARSER_VERSION, [p for p in (lus, info, ids, *tsvs) if p.is_file()])


def _root(path: Path) -> tuple[Path, str]:
    found = find_root(path)
    if found is None:
        raise FbagentError(f"{path}: not a Korean FrameNet folder (no resource/VERSION/{LUS_FILE})",
                           "point PATH at the koreanframenet checkout, or pass another --format")
    return found


def read_kfn(path: str | Path, *, progress: Callable[[str, int, int], None] | None = None) -> LexiconData:
    """Read a Korean FrameNet checkout (module docstring): frames, LUs with their annotation counts, TSV exemplars.

    Raises:
        FbagentError: a damaged file (``FILE:LINE``: JSON syntax, a TSV row without its 5 columns, an entry
            without its keys), or a folder that is not this layout.
    """
    root, version = _root(Path(path))
    lus_path, info_path, ids_path, tsvs = _files(root, version)
    entries = read_json(lus_path, LAYOUT)
    if not isinstance(entries, dict):
        raise damaged(lus_path, 1, "not a JSON object of LU entries", LAYOUT)
    info = read_json(info_path, LAYOUT) if info_path.is_file() else {}
    ids = read_json(ids_path, LAYOUT) if ids_path.is_file() else {}
    lus, frame_ids = _lexical_units(lus_path, entries)
    frames = [_frame(name, frame_ids.get(name) or ids.get(name), info.get(name)) for name in sorted(frame_ids)]
    notes, warnings = [], []
    by_key = {(lu.name, lu.frame): lu for lu in lus}
    unmatched = 0
    for i, tsv in enumerate(tsvs, 1):
        unmatched += _attach_sentences(tsv, by_key)
        if progress:
            progress("annotated sentences", i, len(tsvs))
    for lu in lus:
        lu.n_annotated = max(lu.n_annotated, len(lu.exemplars))
    if unmatched:
        warnings.append(f"{unmatched:,} annotated sentence(s) of data/{version}/*.tsv name an LU that {LUS_FILE} "
                        "does not hold in that frame; left out")
    if not info:
        notes.append("resource/info/frame_info_full.json is absent: frames have no definitions or frame elements "
                     "(use --frames-from a Berkeley FrameNet)")
    missing = [f.name for f in frames if not f.definition]
    if info and missing:
        notes.append(f"{len(missing):,} frame(s) have no entry in resource/info/frame_info_full.json: "
                     + ", ".join(missing[:5]) + ("..." if len(missing) > 5 else ""))
    files = [p for p in (lus_path, info_path, ids_path, *tsvs) if p.is_file()]
    return LexiconData(frames, lus, [], fingerprint(PARSER_VERSION, files), warnings, notes,
                       known("korean-framenet", NAME, version))


def _lexical_units(path: Path, entries: dict[str, Any]) -> tuple[list[LexicalUnit], dict[str, int | None]]:
    """The LUs of ``KFN_lus.json`` (key order) and ``{frame: frame id}``; an entry without its keys is damage."""
    lus: list[LexicalUnit] = []
    frame_ids: dict[str, int | None] = {}
    for key, entry in entries.items():
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("lexeme", "pos", "frame")):
            raise damaged(path, line_of(path, json.dumps(key, ensure_ascii=False)),
                          f"LU entry {key!r} lacks a lexeme, pos or frame string", LAYOUT)
        pos = POS.get(entry["pos"], entry["pos"].upper())
        frame = entry["frame"]
        fid = entry.get("fid")
        frame_ids.setdefault(frame, fid if isinstance(fid, int) else None)
        lus.append(LexicalUnit(name=f"{entry['lexeme']}.{entry['pos']}", lemma=entry["lexeme"], pos=pos, frame=frame,
                               lu_id=int(key) if key.isdigit() else None,
                               n_annotated=len(entry.get("annotation_ids") or [])))
    return lus, frame_ids


def _frame(name: str, frame_id: int | None, info: dict[str, Any] | None) -> Frame:
    """A frame with the definition and FEs ``resource/info`` gives (plain text, examples in quotes)."""
    if not info:
        return Frame(name, frame_id, "", "")
    definition = " ".join(str(info.get("definition") or "").split())
    fes = [FrameElement(str(a.get("fe")), str(a.get("coreType") or ""), " ".join(str(a.get("definition") or "").split()))
           for a in info.get("arguments") or [] if a.get("fe")]
    return Frame(name, frame_id, definition, str(info.get("definition") or ""), [], fes)


def _attach_sentences(path: Path, by_key: dict[tuple[str, str], LexicalUnit]) -> int:
    """Attach each sentence of one TSV file to its LU as an exemplar; the number of sentences whose LU is unknown.

    A file cut inside its last sentence block is refused (:func:`_check_last_block`), as a cut row is."""
    unmatched = 0
    rows: list[list[str]] = []
    text: str | None = None
    start = 0  # the line of the block's first line (0: no block open)
    lines = read_text(path, LAYOUT).split("\n")
    for no, line in enumerate([*lines, ""], 1):
        line = line.rstrip("\r")
        if line.startswith("#"):
            start = start or no
            if line.startswith("#text:"):
                text = line[len("#text:"):]
            continue
        if line.strip():
            cols = line.split("\t")
            if len(cols) != TSV_COLUMNS:
                raise damaged(path, no, f"{len(cols)} tab-separated column(s), the layout has {TSV_COLUMNS} "
                              "(index, token, target LU, frame, FE tag)", LAYOUT)
            start = start or no
            rows.append(cols)
            continue
        if no >= len(lines):  # the end of the file, not a blank line: the last block may be cut
            _check_last_block(path, (start, len(lines) - (lines[-1] == "")), rows, text)
        if rows:
            unmatched += _attach(rows, text, by_key)
        rows, text, start = [], None, 0
    return unmatched


def _check_last_block(path: Path, lines: tuple[int, int], rows: list[list[str]], text: str | None) -> None:
    """Refuse the block that ends the file without its blank line when it is cut: its header with no token rows,
    or token rows that stop before the end of its ``#text:`` (in every sentence of KFN 1.2's dev.tsv and
    test.tsv, 7,645 in all, the tokens cover the text to its last character). ``lines``: (its first line, the
    file's last line)."""
    start, last = lines
    if not start:
        return
    if not rows:
        raise damaged(path, last, f"the file ends inside the sentence block of line {start} (a header and no "
                      "token rows: a truncated copy)", LAYOUT)
    if text is None:
        return
    sentence, spans = token_offsets([r[1] for r in rows], text)
    if sentence == text and len(spans) == len(rows) and spans[-1][1] < len(text.rstrip()):
        raise damaged(path, last, f"the file ends inside the sentence block of line {start} (its tokens stop "
                      f"at {text[:spans[-1][1]][-20:]!r} of its #text: a truncated copy)", LAYOUT)


def _attach(rows: list[list[str]], text: str | None, by_key: dict[tuple[str, str], LexicalUnit]) -> int:
    """Attach one sentence (its token rows) to its LU; 1 when its LU is unknown, else 0."""
    targets = [i for i, r in enumerate(rows) if r[2] != "_"]
    if not targets:
        return 0
    lu = by_key.get((rows[targets[0]][2], rows[targets[0]][3]))
    if lu is None:
        return 1
    sentence, spans = token_offsets([r[1] for r in rows], text)
    lu.exemplars.append(Example(sentence, spans[targets[0]][0], spans[targets[-1]][1]))
    return 0
