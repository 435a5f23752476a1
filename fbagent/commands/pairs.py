"""`fbagent pairs` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="pairs commands.", no_args_is_help=True)
