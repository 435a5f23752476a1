"""Options shared by every command (Typer ``Annotated`` aliases).

Only ``typer`` is imported here so that ``fbagent --help`` stays fast.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

DEFAULT_DB = Path("framebench.db")

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="FBAGENT_DB",
        help="SQLite database file (created if missing). Env: FBAGENT_DB.",
        show_default=True,
    ),
]


def db_path(db: Path | None) -> Path:
    """Resolve the database path: explicit ``--db``, then ``$FBAGENT_DB``, then ``./framebench.db``."""
    if db is not None:
        return db
    env = os.environ.get("FBAGENT_DB")
    return Path(env) if env else DEFAULT_DB
