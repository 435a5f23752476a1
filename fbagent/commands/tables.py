"""Terminal tables that fit the terminal's width without breaking a word (issue 22).

A command describes its columns (:class:`Col`: header, alignment, how a cell may break, which columns
may be given up or abbreviated) and hands rows of strings to :func:`print_table`. :func:`fit` chooses,
for a terminal ``width`` columns wide, in this order, until the table fits:

1. every column at its natural width (nothing wrapped);
2. headers wrapped at spaces, every cell still on one line;
3. headers abbreviated (``Col.short``), with a legend line naming what each abbreviation means,
   then wrappable columns narrowed: ``words`` cells break at spaces (a word wider than
   :data:`WORD_MAX` that holds a ``/`` also after it), ``path`` cells after ``/``; a word, a frame
   name such as ``Resolve_problem`` or a file name such as ``gemma-3-270m-q4_k_m.gguf`` is never
   broken inside;
4. secondary columns given up, those of the highest ``Col.drop`` level first (together), named on a
   legend line that points to ``--wide`` (:data:`WideOption`), which shows every column at its
   natural width;
5. when even that does not fit, the rows are stacked: one block per row, one ``header  value`` line
   per column, the value wrapped at words at the terminal's width (:func:`print_table`).

Only when a single word is wider than the whole terminal is it cut (at the terminal's width). The cells
are wrapped here, so Rich never folds one itself; titles are wrapped the same way at the terminal's
width, captions and legends at the table's width (at least :data:`PROSE_MIN`). JSON, CSV and Markdown outputs
never come through here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box as boxes
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from fbagent.commands.output import new_console
from fbagent.text import shown

if TYPE_CHECKING:
    from rich.console import Console

WideOption = Annotated[bool, typer.Option(
    "--wide", help="Show every column at its full width, even when the terminal is narrower.")]

WRAPS = ("none", "words", "path")
#: a caption and legend wrap at their table's width, but never narrower than this (nor wider than the console):
#: on a pipe or file the console is 200 columns wide so that a table keeps its columns, and an 80-column table's
#: caption still reads as a paragraph, not as one 190-character line
PROSE_MIN = 80


@dataclass(frozen=True)
class Col:
    """One column: ``header``; ``justify`` (``right`` for numbers); ``wrap``: ``none`` (a cell is
    never broken), ``words`` (at spaces; a word longer than the column after a separator) or ``path``
    (after a separator: ``/ \\ _ - . , : ; +``); ``drop``: 0 = always shown, 1, 2, ... = given up when
    the terminal is too narrow, the highest level first (the columns of one level together); ``short``: the header shown (with a legend) when
    full headers do not fit; ``min_width``: the narrowest a wrapped column may get; ``style``: a Rich
    style of the cells."""

    header: str
    justify: str = "left"
    wrap: str = "none"
    drop: int = 0
    short: str = ""
    min_width: int = 0
    style: str | None = None

    def __post_init__(self) -> None:
        if self.wrap not in WRAPS:
            raise ValueError(f"wrap must be one of {WRAPS}, not {self.wrap!r}")


@dataclass
class Fit:
    """What :func:`fit` chose: ``shown`` (indices of the columns shown, in order), ``widths`` (their
    content widths, in terminal cells), ``headers`` (as shown), ``abbreviated`` (``(short, header)``
    pairs for the legend) and ``dropped`` (headers not shown); ``stacked``: the table does not fit even
    so, and is printed as one block per row (every column; ``widths`` empty)."""

    shown: list[int]
    widths: list[int]
    headers: list[str]
    abbreviated: list[tuple[str, str]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    stacked: bool = False

    def legend(self, width: int) -> list[str]:
        """The legend as lines of at most ``width`` cells: the abbreviations (``ex. = exemplars; ...``,
        an item never split unless wider than ``width``), then the columns given up (empty when neither)."""
        out: list[str] = []
        items = [f"{s} = {h}" for s, h in self.abbreviated]
        line = ""
        for k, item in enumerate(items):
            item += ";" if k < len(items) - 1 else ""
            if line and cells(f"{line} {item}") > width:
                out.append(line)
                line = ""
            line = f"{line} {item}" if line else item
        if line:
            out.extend(wrap_text(line, width, "words"))
        if self.dropped:
            out += wrap_text(f"Not shown at this width: {', '.join(self.dropped)} (--wide shows every column).",
                             width, "words")
        return out


def cells(text: str) -> int:
    """The width of ``text`` in terminal cells (East Asian wide characters count 2)."""
    return cell_len(text)


_SLASHED = re.compile(r"[^/\\]*[/\\]+|[^/\\]+")
#: Chinese and Japanese script (CJK radicals and punctuation, kana, Han, fullwidth forms), written without spaces
#: between words: a line may break before any of these characters. Not Hangul: Korean puts spaces between words
#: (UAX #14 treats Hangul syllables as ideographs, but Korean typesetting breaks at spaces), so a Korean word such as
#: 탐지하다 stays whole like a Latvian or English one.
_ANY_BREAK = re.compile("([\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
                        "\uf900-\ufaff\uff00-\uff60\U00020000-\U0003ffff])")


def _pieces(text: str, level: str) -> list[str]:
    """``text`` cut where a line may break, the spaces kept with the word before: ``space`` (at spaces)
    or ``slash`` (also after ``/`` and ``\\``); Chinese and Japanese characters one by one (:data:`_ANY_BREAK`;
    Korean words, between spaces, stay whole)."""
    out: list[str] = []
    for token in re.findall(r"\S+\s*|\s+", text):
        word, tail = token.rstrip(), token[len(token.rstrip()):]
        parts = ([word] if level == "space" else _SLASHED.findall(word)) or [""]
        parts[-1] += tail
        for part in parts:
            out.extend([p for p in _ANY_BREAK.split(part) if p] or [part])
    return out


WORD_MAX = 20  # a word up to this wide stays whole; a longer one holding "/" (a path) may break after it


def _longest_piece(text: str, wrap: str) -> int:
    """The narrowest width that breaks no piece of ``text``: a line (``none``); a word, or for a word
    wider than :data:`WORD_MAX` its path segments (``words``); a path segment (``path``)."""
    lines = text.split("\n")
    if wrap == "none":
        return max((cells(line) for line in lines), default=0)
    widths = []
    for line in lines:
        for piece in _pieces(line, "space" if wrap == "words" else "slash"):
            w = cells(piece.rstrip())
            if wrap == "words" and w > WORD_MAX:
                w = max((cells(q.rstrip()) for q in _pieces(piece, "slash")), default=0)
            widths.append(w)
    return max(widths, default=0)


def wrap_text(text: str, width: int, wrap: str = "words") -> list[str]:
    """``text`` as lines of at most ``width`` cells. ``words``: breaks at spaces, a word wider than
    ``width`` after ``/``; ``path``: after ``/``; ``none``: the lines as they are. A piece with no
    break wider than ``width`` is cut at ``width`` (the one case a word breaks: it is wider than the
    column can be)."""
    if wrap == "none":
        return text.split("\n")
    levels = ("space", "slash") if wrap == "words" else ("slash",)
    lines: list[str] = []
    for para in text.split("\n"):
        tokens = _pieces(para, levels[0])
        for finer in levels[1:]:  # a piece wider than the line breaks at the next kind of separator
            tokens = [p for t in tokens for p in ([t] if cells(t.rstrip()) <= width else _pieces(t, finer))]
        line = ""
        for tok in tokens:
            while cells(tok.rstrip()) > width:  # no break inside: cut (a word wider than the column)
                if line.strip():
                    lines.append(line.rstrip())
                    line = ""
                cut = _cut(tok, width)
                lines.append(tok[:cut])
                tok = tok[cut:]
            if cells((line + tok).rstrip()) <= width:
                line += tok
            else:
                lines.append(line.rstrip())
                line = tok
        lines.append(line.rstrip())
    return lines


def _cut(text: str, width: int) -> int:
    n = 0
    for i, ch in enumerate(text):
        n += cells(ch)
        if n > width:
            return max(1, i)
    return len(text)


def _overhead(n: int) -> int:
    """Columns a table of ``n`` columns takes beyond its cells' content: two between neighbours
    (:func:`print_table`'s style: a rule under the header, no vertical lines, no outer padding)."""
    return 2 * (n - 1) if n else 0


def fit(cols: Sequence[Col], rows: Sequence[Sequence[str]], width: int, *, wide: bool = False,
        show_header: bool = True) -> Fit:
    """Choose the columns, headers and widths of a table for a terminal ``width`` cells wide (the order
    of the module docstring). ``wide``: every column, full headers, natural widths (may exceed
    ``width``). ``rows``: strings as shown (:func:`fbagent.text.shown` applied). Returns a :class:`Fit`."""
    shown_ix = list(range(len(cols)))
    short = False

    def header(i: int) -> str:
        return (cols[i].short or cols[i].header) if short else cols[i].header

    def natural(i: int) -> int:
        head = cells(header(i)) if show_header else 0
        return max([head, *(max((cells(x) for x in r[i].split("\n")), default=0) for r in rows)])

    def head_word(i: int) -> int:
        return max((cells(w) for w in header(i).split()), default=0) if show_header else 0

    def whole_cells(i: int) -> int:
        return max([head_word(i), *(_longest_piece(r[i], "none") for r in rows)])

    def narrowest(i: int) -> int:
        c, head = cols[i], head_word(i)
        if c.wrap == "none":
            return max([head, *(_longest_piece(r[i], "none") for r in rows)])
        hang = HANG if hangs(c, i == shown_ix[0]) else 0   # a wrapped row label's next lines are indented
        return min(natural(i), max([head, c.min_width, *(_longest_piece(r[i], c.wrap) + hang for r in rows)]))

    def overhead() -> int:
        return _overhead(len(shown_ix))

    if not wide:
        while True:
            nat = [natural(i) for i in shown_ix]
            if sum(nat) + overhead() <= width:
                widths = nat
                break
            whole = [whole_cells(i) for i in shown_ix]  # headers wrapped at spaces, every cell on its lines
            if sum(whole) + overhead() <= width:
                widths = _share(nat, whole, width - overhead())
                break
            if not short and any(cols[i].short for i in shown_ix):  # abbreviations before wrapped cells
                short = True
                continue
            low = [narrowest(i) for i in shown_ix]
            if sum(low) + overhead() <= width:
                widths = _share(nat, low, width - overhead())
                break
            droppable = [i for i in shown_ix if cols[i].drop > 0]
            if not droppable:  # nothing left to give up: one block per row, every column, nothing cut
                return Fit(list(range(len(cols))), [], [c.header for c in cols], stacked=True)
            top = max(cols[i].drop for i in droppable)  # the columns of the highest level go together
            shown_ix = [i for i in shown_ix if cols[i].drop != top]
    else:
        widths = [natural(i) for i in shown_ix]
    dropped = [cols[i].header for i in range(len(cols)) if i not in shown_ix]
    abbreviated = [(cols[i].short, cols[i].header) for i in shown_ix if short and cols[i].short]
    return Fit(shown_ix, widths, [header(i) for i in shown_ix], abbreviated, dropped)


HANG = 2   # the indent of a wrapped row label's continuation lines (:func:`label_lines`)


def hangs(col: Col, first: bool) -> bool:
    """Whether ``col``'s wrapped cells get a hanging indent: the first column shown, left-aligned and
    wrappable (it names the row: a second line starting at the left edge would read as a row of its own)."""
    return first and col.justify == "left" and col.wrap != "none"


def label_lines(text: str, width: int, wrap: str) -> list[str]:
    """A row label's lines at ``width`` cells: as :func:`wrap_text`, but when it takes more than one line
    the next lines are indented by :data:`HANG` (``model meta-llama/`` then ``  Meta-Llama-3.1-70B``), so
    that a continuation never reads as the label of another row (:func:`fit` keeps room for it). Without
    the indent for a label of several lines of its own, or one whose longest piece could not stand on an
    indented line whole."""
    lines = wrap_text(text, width, wrap)
    if (len(lines) <= 1 or width <= HANG or "\n" in text or not text.startswith(lines[0])
            or _longest_piece(text, wrap) > width - HANG):
        return lines
    rest = text[len(lines[0]):].lstrip()
    return [lines[0], *(" " * HANG + line for line in wrap_text(rest, width - HANG, wrap))]


def _share(nat: list[int], low: list[int], room: int) -> list[int]:
    """Widths between ``low`` and ``nat`` summing to at most ``room``: the spare cells go first to the
    columns that lack least, so that as many cells as possible stay on one line."""
    widths, spare = list(low), room - sum(low)
    for k in sorted(range(len(nat)), key=lambda k: (nat[k] - low[k], k)):
        add = min(spare, nat[k] - widths[k])
        widths[k] += add
        spare -= add
    return widths


def print_table(console: Console, cols: Sequence[Col], rows: Sequence[Sequence[object]], *, title: str | None = None,
                caption: str | None = None, wide: bool = False, show_header: bool = True,
                row_styles: Sequence[str | None] | None = None, caption_of: int | None = None) -> Fit:
    """Print a table of ``cols`` and ``rows`` (values ``str()``-ed, made safe by :func:`fbagent.text.shown`)
    on ``console`` so that it fits ``console.width`` (:func:`fit`): the title above (wrapped at words),
    the table, then ``caption`` and the legend lines. ``wide``: every column at its natural width, on a
    console as wide as the table needs. ``row_styles``: a Rich style per row (None: none). ``caption_of``: the
    index of the column the caption speaks of; the caption is left out when that column is not shown (a
    narrow terminal dropped it). Returns the :class:`Fit` used."""
    text_rows = [[shown(c) for c in r] for r in rows]
    chosen = fit(cols, text_rows, console.width, wide=wide, show_header=show_header)
    if caption_of is not None and not chosen.stacked and caption_of not in chosen.shown:
        caption = None
    if chosen.stacked:
        _print_stacked(console, cols, text_rows, title, caption)
        return chosen
    need = sum(chosen.widths) + _overhead(len(chosen.shown))
    if wide and need > console.width:
        console = new_console(file=console.file, width=need, force_terminal=console.is_terminal,
                              color_system=console.color_system)
    if title:
        for line in wrap_text(shown(title), console.width, "words"):
            console.print(Text(line, style="italic"), highlight=False)
    table = Table(show_header=show_header, box=boxes.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  collapse_padding=True, header_style="bold")
    for i, w, head in zip(chosen.shown, chosen.widths, chosen.headers, strict=True):
        c = cols[i]
        table.add_column(Text("\n".join(wrap_text(head, w, "words"))), justify=c.justify, no_wrap=True,  # type: ignore[arg-type]
                         width=w, style=c.style, overflow="crop")
    for k, r in enumerate(text_rows):
        cells_shown = [Text("\n".join(
            label_lines(r[i], w, cols[i].wrap) if not wide and hangs(cols[i], i == chosen.shown[0])
            else wrap_text(r[i], w, cols[i].wrap if not wide else "none")))
            for i, w in zip(chosen.shown, chosen.widths, strict=True)]
        table.add_row(*cells_shown, style=(row_styles[k] if row_styles else None))
    console.print(table)
    prose = min(console.width, max(PROSE_MIN, need))  # a caption spans its table, as Rich's own captions do
    for line in (wrap_text(shown(caption), prose, "words") if caption else []) + chosen.legend(prose):
        console.print(Text(line, style="dim"), highlight=False)
    return chosen


def _print_stacked(console: Console, cols: Sequence[Col], rows: Sequence[Sequence[str]], title: str | None,
                   caption: str | None) -> None:
    """Print ``rows`` as blocks (a table too wide for ``console`` even without its secondary columns):
    per row, one line per column, the header then the value wrapped at words; a value with a word too
    wide to stand beside the header goes under it, indented by 2; a blank line between rows."""
    width = console.width
    label = max(cells(c.header) for c in cols)

    def say(text: str, style: str | None = None) -> None:
        console.print(Text(text, style=style or ""), highlight=False)

    for line in (wrap_text(shown(title), width, "words") if title else []):
        say(line, "italic")
    for k, r in enumerate(rows):
        if k:
            say("")
        for c, value in zip(cols, r, strict=True):
            room = width - label - 2
            if _longest_piece(value, "words") <= room:
                lines = wrap_text(value, room, "words") or [""]
                say(c.header.ljust(label) + "  " + lines[0], c.style)
                for more in lines[1:]:
                    say(" " * (label + 2) + more, c.style)
            else:
                say(c.header, "bold")
                for more in wrap_text(value, width - 2, "words"):
                    say("  " + more, c.style)
    for line in (wrap_text(shown(caption), width, "words") if caption else []):
        say(line, "dim")
