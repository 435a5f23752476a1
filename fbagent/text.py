"""Names and terminal text: one check for every name a user gives, one escape for stored text on a terminal.

Names (annotator, run, lexicon, label) are stored and printed: :func:`check_name` refuses, before
anything is stored, a name that is empty, longer than :data:`MAX_NAME_CHARS` characters, or that holds a
control character (C0/C1, DEL), a line or paragraph separator, or a bidirectional override (the
"Trojan Source" characters, CVE-2021-42574). Text that comes from the database or from an LLM reaches
a terminal only through :func:`shown` (or a console from :func:`safe_console`, which applies it to every
string it renders): raw ``ESC``, ``BEL`` and the other controls become visible escapes such as
``\\x1b``, so stored text cannot move the cursor, retitle the window, ring the bell or fake output.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderableType, RenderHook
from rich.segment import Segment

from fbagent.errors import FbagentError

MAX_NAME_CHARS = 200

# C0 controls but tab and newline, DEL, C1 controls; line/paragraph separators; bidi embeddings,
# overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_OTHER_UNSAFE = "\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHER_UNSAFE}]")         # in text: tab and newline are fine
_UNSAFE_IN_NAME = re.compile(f"[\x00-\x1f{_OTHER_UNSAFE}]")            # in a name: no tab or newline either
# invisible in a name: zero-width space, word joiner, byte-order mark, soft hyphen anywhere; the zero-width
# non-joiner and joiner at either end (inside a word they shape Persian, Arabic or Indic script, so they stay)
_INVISIBLE = re.compile("[\u200b\u2060\ufeff\u00ad]|^[\u200c\u200d]+|[\u200c\u200d]+$")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: object, *, one_line: bool = False) -> str:
    """``text`` (any value, ``str()``-ed) safe for a terminal: every control character but tab and
    newline, every line separator and bidi control replaced by a visible escape (``"\\x1b"``,
    ``"\\u202e"``); with ``one_line`` tab and newline too (``"\\n"``). Printable text is unchanged.

    >>> shown("a\\x1b[31mb")
    'a\\\\x1b[31mb'
    """
    value = "" if text is None else str(text)
    if one_line:
        value = value.replace("\t", "\\t").replace("\n", "\\n")
    return _UNSAFE.sub(_escape, value)


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code < 0x20:
        return chr(0x2400 + code)    # Unicode control pictures: ESC -> U+241B, BEL -> U+2407
    if code == 0x7F:
        return "\u2421"              # DEL symbol
    return "\ufffd"                  # C1 controls, separators, bidi controls: the replacement character


def pictured(text: str) -> str:
    """``text`` with each unsafe character of :func:`shown` replaced by one visible character of the same
    length (a Unicode control picture such as ``U+241B`` for ``ESC``, or ``U+FFFD``), so that character
    offsets (highlighted spans of a verb) stay valid: for text laid out in the terminal app."""
    return _UNSAFE.sub(_picture, text)


def first_unsafe(text: str) -> str | None:
    """The first unsafe character of ``text`` (see :func:`shown`; tab and newline are fine) as a visible
    escape such as ``"\\x1b"``, or ``None`` when there is none."""
    match = _UNSAFE.search(text)
    return _escape(match) if match else None


def _a(what: str) -> str:
    return f"an {what}" if what[:1].lower() in "aeiou" else f"a {what}"


def normalise_name(value: str) -> str:
    """``value`` in Unicode NFC, without invisible characters (:data:`_INVISIBLE`: zero-width space, word
    joiner, byte-order mark, soft hyphen; zero-width (non-)joiners at either end) and surrounding blanks:
    ``"bob\u200b"``, ``" bob"`` and ``"bob"`` are one name, and so are a precomposed ``"é"`` and ``"e"`` +
    combining accent."""
    text = unicodedata.normalize("NFC", value).strip()
    return _INVISIBLE.sub("", text).strip()


def check_name(value: object, what: str) -> str:
    """Return ``value`` normalised (:func:`normalise_name`) when it is a usable ``what`` (e.g. ``"annotator
    name"``, ``"run name"``); raise :class:`FbagentError` naming the problem otherwise.

    A usable name: 1 to :data:`MAX_NAME_CHARS` characters (Unicode code points), not only blanks, no
    control character (tab, newline, ``ESC``, ``BEL``, C1), no line separator and no bidi control. The
    error shows the name through :func:`shown`, cut to 40 characters, so it is safe to print.
    """
    if isinstance(value, str):
        value = normalise_name(value)
    if not isinstance(value, str) or not value.strip():
        raise FbagentError(f"the {what} is empty", f"give {_a(what)} of 1 to {MAX_NAME_CHARS} printable characters")
    preview = shown(value[:40], one_line=True) + ("..." if len(value) > 40 else "")
    if len(value) > MAX_NAME_CHARS:
        raise FbagentError(f"the {what} '{preview}' is {len(value):,} characters long (at most {MAX_NAME_CHARS})",
                           f"give a shorter {what}")
    bad = _UNSAFE_IN_NAME.search(value)
    if bad:
        raise FbagentError(f"the {what} '{preview}' contains the control character {_escape(bad)}",
                           f"give {_a(what)} of printable characters only (no tab, newline or escape)")
    return value


def safe_console(**kwargs: Any) -> Console:
    """A :class:`rich.console.Console` (same keyword arguments) that passes every string it renders
    (cells, prints, markup text) through :func:`shown`, through Rich's public render-hook API; the
    console's own control codes (colours, live-display cursor moves) are kept."""
    class _Shown:
        def __init__(self, renderable: RenderableType) -> None:
            self.renderable = renderable

        def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
            for segment in console.render(self.renderable, options):
                if segment.control or not _UNSAFE.search(segment.text):
                    yield segment
                else:
                    yield Segment(shown(segment.text), segment.style, segment.control)

    class _Hook(RenderHook):
        def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
            return [_Shown(r) for r in renderables]

    console = Console(**kwargs)
    console.push_render_hook(_Hook())
    return console
