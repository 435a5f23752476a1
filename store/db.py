"""Open the fbagent SQLite database: WAL, busy timeout, schema applied.

Several processes (annotators, a running generation) share one file, so every
connection uses WAL journaling and a busy timeout, and writers keep their
transactions short.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from fbagent.errors import FbagentError

BUSY_TIMEOUT_MS = 30_000


def open_db(path: str | Path, *, create: bool = True) -> sqlite_utils.Database:
    """Open (and create/migrate) the database at ``path``.

    Returns a :class:`sqlite_utils.Database` whose connection has WAL mode,
    ``busy_timeout`` = 30 s, foreign keys on and the full schema applied
    (idempotent ``CREATE ... IF NOT EXISTS``).

    Raises :class:`FbagentError` when the file is missing and ``create`` is
    false, when its folder does not exist, or when it is not an SQLite database.
    """
    path = Path(path)
    if str(path) != ":memory:":
        if not path.exists() and not create:
            raise FbagentError(f"database {path} does not exist", "pass --db PATH of an existing database or set FBAGENT_DB")
        if not path.parent.exists():
            raise FbagentError(f"folder {path.parent} of database {path} does not exist", "create the folder or pass another --db")
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _refuse_foreign(conn, path)
        if str(path) != ":memory:":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        db = sqlite_utils.Database(conn)
        from fbagent.store.schema import ensure_schema

        ensure_schema(db)
    except sqlite3.DatabaseError as err:
        raise FbagentError(f"{path} is not a usable fbagent SQLite database ({err})", "pass --db with another file name") from err
    return db


def _refuse_foreign(conn: sqlite3.Connection, path: Path) -> None:
    """Raise :class:`FbagentError` when ``path`` is another program's SQLite database.

    Checked before anything is written (journal mode, schema), so a mistyped
    ``--db`` never adds tables to someone else's file.
    """
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    if tables and "lexicons" not in tables:
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        conn.close()
        raise FbagentError(
            f"{path} is an SQLite database of another program (tables: {shown}); fbagent leaves it unchanged",
            "pass --db with the path of an fbagent database or a new file name",
        )


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite3.Connection]:
    """One short write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` on any error).

    ``BEGIN IMMEDIATE`` takes the write lock up front, so two writers queue on
    the busy timeout instead of failing with "database is locked" mid-way.
    """
    conn = db.conn
    if conn.in_transaction:  # nested: join the outer transaction
        yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")
