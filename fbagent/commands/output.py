"""What commands print: every line goes through :func:`fbagent.text.shown`, so stored text (names, LLM
output, file contents) cannot put control sequences on the terminal. Use :func:`echo` / :func:`secho`
instead of ``typer.echo`` / ``typer.secho``, and :func:`console` instead of ``rich.console.Console``.
"""

from __future__ import annotations

from typing import Any

import typer

from fbagent.text import safe_console, shown


def echo(message: Any = "", **kwargs: Any) -> None:
    """``typer.echo`` of ``shown(message)`` (newlines and tabs kept; other controls made visible)."""
    typer.echo(shown(message), **kwargs)


def secho(message: Any = "", **kwargs: Any) -> None:
    """``typer.secho`` of ``shown(message)``: the style is typer's, the text is safe."""
    typer.secho(shown(message), **kwargs)


def new_console(**kwargs: Any):
    """A Rich console whose rendered strings pass through :func:`fbagent.text.shown`
    (:func:`fbagent.text.safe_console`)."""
    return safe_console(**kwargs)
