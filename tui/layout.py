"""Line packing for narrow terminals: a control (``1 ○ Sentence A``) never splits from its label.

Textual wraps text at any space, so at 60 columns a radio button could end a
line and its label start the next. :func:`pack` lays out whole chunks
instead: each chunk stays on one line, chunks are separated by ``sep``, and a
chunk that does not fit starts a new line indented by ``indent`` cells.
Widths are terminal cells (:attr:`Content.cell_length`: a Japanese character
is two), so it is right for every language.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual.content import Content

from fbagent.text import pictured


def as_content(chunk: Content | str | tuple[str, str]) -> Content:
    """A chunk as :class:`Content`: a plain string, ``(text, style)``, or Content as is; control
    characters of stored text (``ESC``, ``BEL``...) become visible one-cell pictures
    (:func:`fbagent.text.pictured`) so that they never reach the terminal."""
    if isinstance(chunk, Content):
        plain = pictured(chunk.plain)
        return chunk if plain == chunk.plain else Content(plain, spans=list(chunk.spans))
    if isinstance(chunk, tuple):
        return Content.styled(pictured(chunk[0]), *chunk[1:])
    return Content(pictured(chunk))


def pack(
    chunks: Sequence[Content | str | tuple[str, str]],
    width: int,
    *,
    lead: Content | str | tuple[str, str] = "",
    indent: int | None = None,
    sep: str = "  ",
) -> Content:
    """``lead`` then ``chunks`` in lines of at most ``width`` cells, never breaking a chunk.

    Continuation lines start with ``indent`` spaces (default: the width of
    ``lead``, so the chunks line up under each other). A chunk wider than a
    line gets a line of its own (and is then wrapped by Textual as text).
    """
    head = as_content(lead)
    pad = head.cell_length if indent is None else indent
    lines: list[Content] = []
    line = head
    used = head.cell_length
    empty = True
    for raw in chunks:
        chunk = as_content(raw)
        need = chunk.cell_length + (0 if empty else len(sep))
        if not empty and used + need > width:
            lines.append(line)
            line, used, empty = Content(" " * pad), pad, True
            need = chunk.cell_length
        line = line + (chunk if empty else Content(sep) + chunk)
        used += need
        empty = False
    lines.append(line)
    return Content("\n").join(lines)


#: Characters that must not start a line (Japanese line breaking, kinsoku shori), and ASCII closers.
NO_LINE_START = set("、。，．・：；？！ー）」』】〕〉》”’ゝゞ々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ.,;:!?)]}")


def _wide(ch: str) -> bool:
    return cell_len(ch) == 2


def wrap(content: Content | str, width: int, *, hang: int = 0) -> Content:
    """``content`` with explicit line breaks so that no line is wider than ``width`` cells.

    Breaks after a space (the space is dropped) or between two characters
    when either is wide (Chinese, Japanese, Korean text has no spaces), never
    before a closing mark such as ``。`` or ``」``; a word longer than a line
    is cut. Continuation lines start with ``hang`` spaces. Styles (the verb
    highlight) are kept. Existing newlines are kept.
    """
    content = as_content(content)
    if width < 4:
        return content
    out: list[Content] = []
    for para in content.split("\n"):
        out.extend(_wrap_line(para, width, hang))
    return Content("\n").join(out)


def _wrap_line(line: Content, width: int, hang: int) -> list[Content]:
    """Greedy line breaking of one line (no newlines) at the last break opportunity that fits."""
    text = line.plain
    lines: list[Content] = []
    start, prefix = 0, 0
    used = 0  # cells of text[start:i]
    cut_at: tuple[int, int] | None = None  # last opportunity: (end of this line, start of the next)
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == " ":
            cut_at = (i, i + 1)
        elif i > start and (_wide(ch) or _wide(text[i - 1])) and ch not in NO_LINE_START:
            cut_at = (i, i)
        w = cell_len(ch)
        if prefix + used + w <= width or i == start:
            used += w
            i += 1
            continue
        end, nxt = cut_at if cut_at and cut_at[0] > start else (i, i)
        if end == nxt and text[end] in NO_LINE_START and end - 1 > start:
            end = nxt = end - 1  # take the character before a closing mark along
        lines.append(Content(" " * prefix) + line[start:end].rstrip())
        start, prefix, cut_at = nxt, hang, None
        i = start
        used = 0
    lines.append(Content(" " * prefix) + line[start:])
    return lines
