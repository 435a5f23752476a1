"""What kind of file a path is, told from its first bytes (not its name): for the line that says a forced
``lexicon add --format`` met another layout ("lus.txt is a CSV file; use --format lu-list").

:func:`file_kind` tells a folder, a zip or other archive, XML, JSON, JSON Lines, CSV and TSV apart; :data:`TAKES`
says which kinds each ``--format`` reads, and :data:`SUGGEST` which format reads a kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from fbagent.errors import FbagentError

HEAD_BYTES = 65536
FOLDER, ZIP, ARCHIVE, XML, JSON, JSONL, CSV, TSV = (
    "a folder", "a zip archive", "a compressed archive", "an XML file", "a JSON file", "a JSON Lines file",
    "a CSV file", "a TSV (tab-separated) file")
#: the kinds each --format reads (a folder: the format reads a folder holding its files)
TAKES: dict[str, frozenset[str]] = {
    "nltk": frozenset({FOLDER, ZIP}),
    "jsonl": frozenset({FOLDER, JSONL}),
    "kfn": frozenset({FOLDER}),
    "starlang": frozenset({FOLDER, XML}),
    "swefn": frozenset({FOLDER, XML}),
    "conll2009": frozenset({FOLDER, TSV}),
    "odfn": frozenset({FOLDER, JSON}),
    "lu-list": frozenset({CSV, TSV, JSON}),
}
#: the format (or what to do) for a file of each kind
SUGGEST = {
    ZIP: "--format nltk (a zip of an NLTK-layout release), or unzip it and pass the folder",
    ARCHIVE: "the folder it holds once extracted (e.g. tar xf FILE)",
    XML: "--format starlang or --format swefn (or --format nltk with the folder holding frameIndex.xml)",
    JSON: "--format lu-list (a JSON list of LUs) or --format odfn",
    JSONL: "--format jsonl",
    CSV: "--format lu-list",
    TSV: "--format lu-list (an LU list with a header line) or --format conll2009 (CoNLL-2009 columns)",
}


def file_kind(path: Path) -> str | None:
    """The kind of ``path`` (one of the constants above, e.g. ``"a CSV file"``) from its first 64 KiB, or ``None``
    when it is none of them (or cannot be read). Never raises."""
    try:
        if path.is_dir():
            return FOLDER
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError:
        return None
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return ZIP
    if head.startswith((b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"7z\xbc\xaf", b"Rar!")) or head[257:262] == b"ustar":
        return ARCHIVE
    return _text_kind(head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n"))


def _text_kind(text: str) -> str | None:
    """The kind of a text file from its first characters."""
    if text.startswith("<"):
        return XML
    if text.startswith("["):
        return JSON
    first, _, rest = text.partition("\n")
    if text.startswith("{"):
        try:
            json.loads(first)
        except ValueError:
            return JSON  # an object over several lines
        return JSONL if rest.strip() else JSON
    if "\t" in first:
        return TSV
    if "," in first or ";" in first:
        return CSV
    return None


def forced_format_error(path: Path, fmt: str, detected: str | None, labels: Mapping[str, str]) -> FbagentError | None:
    """The one-line error for ``--format fmt`` failing on ``path`` when ``path`` is something else: ``detected``
    (the format ``lexicon add`` would pick, ``None`` when none) is another one, or the file's kind
    (:func:`file_kind`) is not one ``fmt`` reads. ``labels``: what each format reads. ``None`` when ``path`` is of
    a kind ``fmt`` reads (its reader's own error then stands: a damaged file of that layout)."""
    given = f"--format {fmt} reads {labels.get(fmt, fmt)}"
    kind = file_kind(path)
    if detected not in (None, fmt) and (kind is None or kind in TAKES.get(str(detected), frozenset({kind}))):
        return FbagentError(f"{path} holds {labels.get(str(detected), detected)}, but {given}",
                            f"pass --format {detected}, or leave --format out (lexicon add picks the reader)")
    if kind is None or kind in TAKES.get(fmt, frozenset({kind})):
        return None
    if kind == FOLDER:
        files = sorted(p.name for p in path.iterdir() if p.is_file() and file_kind(p) in TAKES.get(fmt, ()))
        shown = ", ".join(files[:4]) + (", ..." if len(files) > 4 else "")
        return FbagentError(f"{path} is a folder, but --format {fmt} reads one file ({labels.get(fmt, fmt)})",
                            f"pass the file itself ({'the folder holds ' + shown if files else 'the folder holds no such file'})")
    return FbagentError(f"{path} is {kind}, but {given}", f"pass {SUGGEST[kind]}")
