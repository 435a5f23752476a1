"""What every reader of a published layout does with its files: read them as UTF-8 text or JSON, hash them, and
refuse a damaged one in one line that names the file and the line (``FILE:LINE: problem. Fix: ...``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.files import not_utf8, xml_not_utf8


def damaged(path: Path, line: int | None, problem: str, layout: str) -> FbagentError:
    """The error for a damaged file of ``layout``: ``"PATH:LINE: problem"`` (no line: ``"PATH: problem"``), and the
    fix (repair or fetch the file again; nothing was imported)."""
    where = f"{path}:{line}" if line else f"{path}"
    return FbagentError(f"{where}: {problem}",
                        f"repair that line or fetch the {layout} file again (it looks damaged or truncated); "
                        "nothing was imported")


def read_text(path: Path, layout: str) -> str:
    """The UTF-8 text of ``path``; an unreadable file is :class:`FbagentError`, and so is text that is not UTF-8, in
    the words every reader uses (:func:`fbagent.files.not_utf8`: the line, and the iconv command)."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise FbagentError(f"{path}: cannot read it ({err.strerror})", f"pass a readable {layout} folder") from err
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise not_utf8(str(path), data, None, path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise not_utf8(str(path), data, err, path) from err


def xml_encoding_error(path: Path) -> FbagentError | None:
    """For an XML reader whose parser failed on ``path``: the not-UTF-8 error every reader gives
    (:func:`fbagent.files.xml_not_utf8`) when that is why, else ``None`` (the parser's own error stands)."""
    try:
        return xml_not_utf8(path, path.read_bytes())
    except OSError:
        return None


def read_json(path: Path, layout: str) -> Any:
    """The JSON value of ``path``; a syntax error (a truncated file) is :class:`FbagentError` naming its line."""
    text = read_text(path, layout)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise damaged(path, err.lineno, f"not valid JSON ({err.msg}, column {err.colno})", layout) from err


def line_of(path: Path, needle: str) -> int | None:
    """The line of ``path`` where ``needle`` first occurs (to name a JSON entry's line on an error path), or
    ``None``."""
    try:
        text = path.read_text("utf-8-sig", errors="replace")
    except OSError:
        return None
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def fingerprint(version: str, paths: Iterable[Path]) -> str:
    """SHA-256 over ``version`` and each file's name, size and bytes, in the order given."""
    h = hashlib.sha256(version.encode())
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise FbagentError(f"{path}: cannot read it ({err.strerror})", "pass a readable lexicon folder") from err
        h.update(path.name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def token_offsets(tokens: list[str], text: str | None) -> tuple[str, list[tuple[int, int]]]:
    """``(sentence text, [(start, end)] per token)``: the tokens found in order in ``text`` (a sentence's own text,
    e.g. CoNLL-U ``# text``), else the tokens joined by single spaces. Offsets are characters, end exclusive."""
    if text:
        spans: list[tuple[int, int]] = []
        at = 0
        for tok in tokens:
            i = text.find(tok, at)
            if i < 0:
                break
            spans.append((i, i + len(tok)))
            at = i + len(tok)
        else:
            return text, spans
    spans, at = [], 0
    for tok in tokens:
        spans.append((at, at + len(tok)))
        at += len(tok) + 1
    return " ".join(tokens), spans
