"""`fbagent generate` command."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `generate` command to the root app."""
