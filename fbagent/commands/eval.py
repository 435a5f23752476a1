"""`fbagent eval` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="eval commands.", no_args_is_help=True)
