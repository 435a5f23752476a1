"""`fbagent validate` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="validate commands.", no_args_is_help=True)
