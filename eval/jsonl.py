"""Reading JSONL input files line by line, with ``file:line`` in every error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fbagent.files import parse_json_line, read_text_input


def jsonl_objects(path: Path, fix: str) -> Iterator[tuple[str, Any]]:
    """Yield ``(where, value)`` for every non-blank line of ``path``, ``where`` being ``"FILE:LINE"``.

    A file that is not UTF-8 text (or not a file) and a line that is not JSON (or nested too deep) raise :class:`FbagentError` ``"FILE:LINE: not valid JSON (...)"`` with
    ``fix``; checking the value's shape is the caller's (it names ``where`` in its own errors).
    """
    text = read_text_input(path, "file", fix)   # UTF-8 (a byte-order mark accepted), else one line
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        yield where, parse_json_line(line, where, fix)
