"""What a browser may send on the app's WebSocket: textual-serve's JSON envelopes, checked before use.

textual-serve's client sends ``["stdin", text]``, ``["resize", {"width": w,
"height": h}]``, ``["ping", data]``, ``["blur"]`` and ``["focus"]``.
:func:`parse_envelope` returns ``(kind, data)`` for those and None for
anything else (not JSON, not a list, an unknown kind, a wrong type, a size
out of range), so a malformed message from a signed-in client is dropped
with one counted event, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

#: Terminal sizes a browser may ask for (cells).
WIDTH_RANGE = (20, 400)
HEIGHT_RANGE = (10, 200)
#: Longest stdin text in one message (characters; a paste of a long comment fits).
MAX_STDIN = 65_536


def _size(data: object) -> tuple[int, int] | None:
    if not isinstance(data, dict):
        return None
    width, height = data.get("width"), data.get("height")
    if type(width) is not int or type(height) is not int:
        return None
    return (min(max(width, WIDTH_RANGE[0]), WIDTH_RANGE[1]), min(max(height, HEIGHT_RANGE[0]), HEIGHT_RANGE[1]))


def parse_envelope(text: str) -> tuple[str, Any] | None:
    """``(kind, data)`` of a well-formed client message, or None.

    ``stdin``: data is the text (str, at most :data:`MAX_STDIN`); ``resize``:
    data is ``(width, height)`` clamped to :data:`WIDTH_RANGE` /
    :data:`HEIGHT_RANGE`; ``ping``: data is a str or number echoed back;
    ``blur`` / ``focus``: data is None.
    """
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind == "stdin":
        return (kind, data) if isinstance(data, str) and len(data) <= MAX_STDIN else None
    if kind == "resize":
        size = _size(data)
        return None if size is None else (kind, size)
    if kind == "ping":
        return (kind, data) if isinstance(data, str | int | float) and len(str(data)) <= 100 else None
    if kind in ("blur", "focus"):
        return kind, None
    return None
