"""`fbagent runs` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="runs commands.", no_args_is_help=True)
