"""Options shared by every command (Typer ``Annotated`` aliases).

Light imports only (typer, the item statuses) so that every command's ``--help`` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from fbagent.errors import FbagentError
from fbagent.store.items import ANNOTATED_STATUSES, STATUSES
from fbagent.text import check_name

DEFAULT_DB = Path("framebench.db")
#: the default of every ``--status`` option (annotate, validate report, export): :data:`ANNOTATED_STATUSES`
DEFAULT_STATUS = ",".join(ANNOTATED_STATUSES)

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="FBAGENT_DB",
        help="SQLite database file (created if missing). Env: FBAGENT_DB.",
        show_default=True,
    ),
]

# Commands that read (or add to) a database some other command made, and refuse a missing one.
ExistingDbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="FBAGENT_DB",
        help="SQLite database file, an existing one (this command creates none). Env: FBAGENT_DB.",
        show_default=True,
    ),
]


def db_path(db: Path | None) -> Path:
    """Resolve the database path: explicit ``--db``, then ``$FBAGENT_DB``, then ``./framebench.db``."""
    if db is not None:
        return db
    env = os.environ.get("FBAGENT_DB")
    return Path(env) if env else DEFAULT_DB


def name_check(what: str) -> Callable[[object], object]:
    """A Typer ``callback=`` that passes a name option's value (``None`` or a list: each item) through
    :func:`fbagent.text.check_name` as a ``what`` (``"run name"``...), before the command runs."""

    def callback(value: object) -> object:
        if value is None:
            return value

        if isinstance(value, (list, tuple)):
            return type(value)(check_name(v, what) for v in value)
        return check_name(value, what)

    return callback


def parse_statuses(text: str) -> tuple[str, ...]:
    """The ``--status`` option of annotate, validate and export: ``verified,flagged`` -> ('verified', 'flagged'); ``all`` -> every status. Raises FbagentError."""
    if text.strip().lower() == "all":
        return STATUSES
    out = tuple(s.strip() for s in text.split(",") if s.strip())
    bad = [s for s in out if s not in STATUSES]
    if bad or not out:
        raise FbagentError(
            f"--status {text!r} names unknown statuses {bad or '(none)'}",
            f"use a comma list of {', '.join(STATUSES)}, or all",
        )
    return out
