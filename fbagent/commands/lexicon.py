"""`fbagent lexicon` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="lexicon commands.", no_args_is_help=True)
