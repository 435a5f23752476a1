"""What commands print: every line goes through :func:`fbagent.text.shown`, so stored text (names, LLM
output, file contents) cannot put control sequences on the terminal. Use :func:`echo` / :func:`secho`
instead of ``typer.echo`` / ``typer.secho``, and :func:`console` instead of ``rich.console.Console``.

On a terminal, a line longer than the terminal is wrapped at spaces (the terminal itself would cut
words in two), never inside a command the message suggests (a line break there would break a copy of
it); in files and pipes every message stays one line.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, Any

import typer

from fbagent.text import safe_console, shown

if TYPE_CHECKING:
    from rich.console import Console

    from fbagent.store.migrations import Upgrade


def echo(message: object = "", **kwargs: Any) -> None:
    """``typer.echo`` of ``shown(message)`` (newlines and tabs kept; other controls made visible)."""
    typer.echo(_fitted(shown(message), kwargs.get("err", False)), **kwargs)


def secho(message: object = "", **kwargs: Any) -> None:
    """``typer.secho`` of ``shown(message)``: the style is typer's, the text is safe."""
    typer.secho(_fitted(shown(message), kwargs.get("err", False)), **kwargs)


def _fitted(text: str, err: bool) -> str:
    """``text`` with each line longer than the terminal wrapped at spaces (never inside a word); as it
    is when the stream is not a terminal, or the text is not a string or is JSON."""
    stream = sys.stderr if err else sys.stdout
    if (not isinstance(text, str) or text.lstrip()[:1] in ("{", "[")   # JSON stays as written
            or not getattr(stream, "isatty", lambda: False)()):
        return text
    width = shutil.get_terminal_size().columns
    if all(len(line) <= width for line in text.splitlines()):
        return text
    return "\n".join(fit_line(line, width) for line in text.split("\n"))


#: a command a message suggests (``fbagent lexicon add PATH --lang LANG``), up to a quote, bracket,
#: comma or semicolon: wrapped as one word, so that it can be copied whole
_COMMAND = re.compile(r"(?<![\w/.-])fbagent(?: [^\s`'\"(),;]+)+")
_GLUE = "\x00"   # a space inside a command while the line is wrapped (shown() leaves no NUL in text)


def fit_line(line: str, width: int, indent: str = "") -> str:
    """``line`` (no newline) wrapped at spaces to ``width`` columns (``indent`` before each next line), never
    inside a word, between an option and its value, nor inside a
    suggested command (one longer than the width gets a line of its own, and the terminal folds it without a
    line break, so that a copy of it stays one command); as it is when it fits. Print the result on a
    Rich console with ``soft_wrap=True`` (Rich's own wrapping would break the command again)."""
    if len(line) <= width:
        return line
    glued = _COMMAND.sub(lambda m: m.group(0).replace(" ", _GLUE), line)
    glued = _OPTION.sub(lambda m: m.group(0).replace(" ", _GLUE), glued)
    return textwrap.fill(glued, width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False).replace(_GLUE, " ")


#: an option with its value (``--min-correct 1``): never broken between the two
_OPTION = re.compile(r"(?<!\S)--[A-Za-z][\w-]* [\w.]+")
HINT_WIDTH = 80   # a hint's width in a file or pipe: it is read by a person, as on an 80-column terminal


def hint(text: str) -> None:
    """``hint: text`` on stderr for a person to read, wrapped at words (never inside a suggested command or
    between an option and its value) to the terminal's width, :data:`HINT_WIDTH` in a file or pipe; the
    next lines indented under the text."""
    width = shutil.get_terminal_size().columns if sys.stderr.isatty() else HINT_WIDTH
    typer.echo(fit_line(f"hint: {shown(text)}", max(width, 20), indent=" " * 6), err=True)


def new_console(**kwargs: Any) -> Console:
    """A Rich console whose rendered strings pass through :func:`fbagent.text.shown`
    (:func:`fbagent.text.safe_console`)."""
    return safe_console(**kwargs)


def report_console() -> Console:
    """A Rich console for tables on stdout: the terminal's width, else ``$COLUMNS``, else 200 columns (files and
    pipes: a wide table keeps its columns; its caption still wraps at the table's width, at least 80 columns,
    :data:`fbagent.commands.tables.PROSE_MIN`)."""
    probe = new_console()
    return probe if probe.is_terminal or os.environ.get("COLUMNS") else new_console(width=200)


def upgrade_note(info: Upgrade) -> None:
    """Say on stderr that the database was upgraded to a new schema, and where the copy taken before is."""
    echo(
        f"note: upgraded the database from schema version {info['from']} to {info['to']}"
        + (f"; the copy taken before is {info['backup']}" if info.get("backup") else ""),
        err=True,
    )
