"""FrameNet definition markup -> clean text and ``<ex>`` examples with target spans.

FrameNet stores definitions as escaped markup, e.g.::

    <def-root>An object (the <fen>Theme</fen>) moves away from a <fen>Source</fen>.
    <ex><fex name="Theme">The plane</fex> <t>leaves</t> <fex name="Time">at seven</fex>.</ex></def-root>

:func:`parse_definition` returns the clean definition (tags dropped, ``<ex>``
examples removed, whitespace collapsed) and the examples, each with the
character span of its first ``<t>`` target (end exclusive). Null-instantiation
markers (``<fex name="Source">DNI</fex>``) are dropped. Unknown tags (e.g.
ASFALDA's ``<asf>``) are removed and their text kept. The parser is tolerant:
unbalanced tags never raise.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from fbagent.framenet.model import Example

_NULL_FEX = re.compile(r"<fex\b[^<>]*>\s*(?:DNI|INI|CNI|INC)\s*</fex>", re.IGNORECASE)
_TAG = re.compile(r"<(/?)([A-Za-z][\w.-]*)\b[^<>]*?(/?)>")
_SOURCE_PREFIX = re.compile(r"^\s*[A-Z]{2,4}\s*:\s*")
_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.$")  # "at seven.<fex>DNI</fex>." -> "at seven.."


def _normalize(pieces: list[tuple[str, bool]]) -> tuple[str, int | None, int | None]:
    """Join ``(text, is_target)`` pieces, collapsing whitespace runs to one space.

    Returns ``(text, target_start, target_end)``: the span covers the non-space
    characters of the target pieces (end exclusive), ``None`` when there are none.
    """
    out: list[str] = []
    start: int | None = None
    end: int | None = None
    pending_space = False
    for text, is_target in pieces:
        for ch in text:
            if ch.isspace():
                pending_space = bool(out)
                continue
            if pending_space:
                out.append(" ")
                pending_space = False
            if is_target:
                if start is None:
                    start = len(out)
                end = len(out) + 1
            out.append(ch)
    text = "".join(out)
    if _DOUBLE_STOP.search(text):
        text = text[:-1]
        if end is not None and end > len(text):
            end = len(text)
    return text, start, end


def _tokens(markup: str) -> Iterator[tuple[str, str]]:
    """Yield ``("text", str)`` and ``("open"|"close"|"empty", tagname)`` tokens."""
    pos = 0
    for m in _TAG.finditer(markup):
        if m.start() > pos:
            yield "text", html.unescape(markup[pos : m.start()])
        closing, name, selfclose = m.group(1), m.group(2).lower(), m.group(3)
        yield ("close" if closing else "empty" if selfclose else "open"), name
        pos = m.end()
    if pos < len(markup):
        yield "text", html.unescape(markup[pos:])


def parse_definition(markup: str | None) -> tuple[str, list[Example]]:
    """Split FrameNet definition markup into clean text and examples.

    Args:
        markup: the (unescaped) markup of a frame, FE or LU definition; ``None``
            or ``""`` gives ``("", [])``.

    Returns:
        ``(clean_text, examples)``: ``clean_text`` has every tag and every
        ``<ex>...</ex>`` removed and whitespace collapsed; ``examples`` holds one
        :class:`Example` per non-empty ``<ex>``, with the span of the first
        ``<t>...</t>`` inside it (``None`` when it has none).
    """
    if not markup:
        return "", []
    markup = _NULL_FEX.sub("", markup)
    definition: list[tuple[str, bool]] = []
    examples: list[Example] = []
    ex_pieces: list[tuple[str, bool]] | None = None
    in_target = False
    target_done = False
    for kind, value in _tokens(markup):
        if kind == "text":
            if ex_pieces is None:
                definition.append((value, False))
            else:
                ex_pieces.append((value, in_target and not target_done))
        elif value == "ex" and kind == "open":
            definition.append((" ", False))
            ex_pieces, in_target, target_done = [], False, False
        elif value == "ex" and kind == "close":
            if ex_pieces is not None:
                text, start, end = _normalize(ex_pieces)
                if text:
                    examples.append(Example(text, start, end))
            ex_pieces = None
            definition.append((" ", False))
        elif value == "t" and ex_pieces is not None:
            if kind == "open":
                in_target = True
            elif kind == "close":
                if in_target and any(t for t, flag in ex_pieces if flag and t.strip()):
                    target_done = True
                in_target = False
        # every other tag (def-root, fen, fex, m, ment, gov, x, asf, ...) is dropped
    if ex_pieces is not None:  # unclosed <ex>: keep it as an example
        text, start, end = _normalize(ex_pieces)
        if text:
            examples.append(Example(text, start, end))
    clean, _, _ = _normalize(definition)
    return clean, examples


def clean_text(markup: str | None) -> str:
    """The clean text of a definition (``<ex>`` examples removed); see :func:`parse_definition`."""
    return parse_definition(markup)[0]


def parse_example(markup: str) -> Example:
    """Parse one example sentence whose target is marked ``<t>...</t>``.

    ``"She <t>left</t> early."`` -> ``Example("She left early.", 4, 8)``. Other
    tags are dropped; without ``<t>`` the span is ``None``.
    """
    pieces: list[tuple[str, bool]] = []
    in_target = False
    done = False
    for kind, value in _tokens(_NULL_FEX.sub("", markup)):
        if kind == "text":
            pieces.append((value, in_target and not done))
        elif value == "t" and kind == "open":
            in_target = True
        elif value == "t" and kind == "close":
            if in_target:
                done = True
            in_target = False
    text, start, end = _normalize(pieces)
    return Example(text, start, end)


def clean_lu_definition(text: str | None) -> str:
    """An LU definition without its dictionary-source prefix and markup.

    FrameNet LU definitions start with the source (``"COD: go away from"``,
    ``"FN: ..."``); this returns ``"go away from"``.
    """
    if not text:
        return ""
    return _SOURCE_PREFIX.sub("", clean_text(text)).strip()


def target_mark_problem(markup: str) -> str | None:
    """What is wrong with the ``<t>...</t>`` target marks of an example sentence, as a phrase, or None.

    An empty mark (``<t></t>``, or blanks only) and a mark never closed (``<t>left early.``) or never opened
    (``left</t>``) are problems: :func:`parse_example` would give no target, or a target running to the end.
    """
    open_at: bool = False
    inside = ""
    for kind, value in _tokens(_NULL_FEX.sub("", markup)):
        if value != "t" and kind != "text":
            continue
        if kind == "open":
            if open_at:
                return "a target mark <t> opens inside another"
            open_at, inside = True, ""
        elif kind == "close":
            if not open_at:
                return "a target mark </t> closes no <t>"
            if not inside.strip():
                return "its target mark <t></t> is empty"
            open_at = False
        elif open_at:
            inside += value
    return "its target mark <t> is never closed" if open_at else None
