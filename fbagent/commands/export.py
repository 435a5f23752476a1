"""`fbagent export` command."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `export` command to the root app."""
