"""What commands print: every line goes through :func:`fbagent.text.shown`, so stored text (names, LLM
output, file contents) cannot put control sequences on the terminal. Use :func:`echo` / :func:`secho`
instead of ``typer.echo`` / ``typer.secho``, and :func:`console` instead of ``rich.console.Console``.

On a terminal, a line longer than the terminal is wrapped at spaces (the terminal itself would cut
words, and a command in a hint, in two); in files and pipes every message stays one line.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import Any

import typer

from fbagent.text import safe_console, shown


def echo(message: Any = "", **kwargs: Any) -> None:
    """``typer.echo`` of ``shown(message)`` (newlines and tabs kept; other controls made visible)."""
    typer.echo(_fitted(shown(message), kwargs.get("err", False)), **kwargs)


def secho(message: Any = "", **kwargs: Any) -> None:
    """``typer.secho`` of ``shown(message)``: the style is typer's, the text is safe."""
    typer.secho(_fitted(shown(message), kwargs.get("err", False)), **kwargs)


def _fitted(text: Any, err: bool) -> Any:
    """``text`` with each line longer than the terminal wrapped at spaces (never inside a word); as it
    is when the stream is not a terminal, or the text is not a string or is JSON."""
    stream = sys.stderr if err else sys.stdout
    if (not isinstance(text, str) or text.lstrip()[:1] in ("{", "[")   # JSON stays as written
            or not getattr(stream, "isatty", lambda: False)()):
        return text
    width = shutil.get_terminal_size().columns
    if all(len(line) <= width for line in text.splitlines()):
        return text
    return "\n".join(textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False) if len(line) > width
                     else line for line in text.split("\n"))


def new_console(**kwargs: Any):
    """A Rich console whose rendered strings pass through :func:`fbagent.text.shown`
    (:func:`fbagent.text.safe_console`)."""
    return safe_console(**kwargs)
