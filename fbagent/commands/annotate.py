"""`fbagent annotate` command."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `annotate` command to the root app."""
