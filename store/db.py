"""Open the fbagent SQLite database: WAL, busy timeout, schema applied (or upgraded), or read-only.

Several processes (annotators, a running generation) share one file, so every
connection uses WAL journaling and a busy timeout, and writers keep their
transactions short. Read commands open the file read-only (``mode=ro``), so a
copy without write permission can be analysed; write commands on such a file
stop with one line before anything happens.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store.schema import SCHEMA_VERSION, ensure_schema, newer_error, schema_version
from fbagent.store.transaction import transaction

__all__ = ["BUSY_TIMEOUT_MS", "holds_rows", "open_db", "sqlite_error", "transaction"]

BUSY_TIMEOUT_MS = 30_000


def open_db(
    path: str | Path,
    *,
    create: bool = True,
    read_only: bool = False,
    on_upgrade: Callable[[dict[str, Any]], None] | None = None,
) -> sqlite_utils.Database:
    """Open (and create/upgrade) the database at ``path``.

    Returns a :class:`sqlite_utils.Database` whose connection has WAL mode,
    ``busy_timeout`` = 30 s, foreign keys on and the schema of
    :data:`fbagent.store.schema.SCHEMA_VERSION` (a file of an earlier version
    is upgraded in place after a backup copy beside it, see
    :mod:`fbagent.store.migrations`; ``on_upgrade`` then receives
    ``{"from", "to", "backup"}``).

    ``read_only=True`` (the read commands: ``lexicon list|show``, ``pairs
    list|show``, ``runs list|show``, ``validate report``, ``export``, the
    eval readers) opens the file with ``mode=ro`` and ``query_only``, so it
    works on a file or folder without write permission and never writes; the
    file must exist. A file of an earlier schema is upgraded first when it is
    writable; a read-only one of an earlier schema is refused.

    Raises :class:`FbagentError` (one line: problem and fix) when the file is
    missing and ``create`` is false or ``read_only`` is true, when its folder
    does not exist, when it is not an fbagent SQLite database, when it was
    written by a newer fbagent, or, without ``read_only``, when it cannot be
    written (no write permission on the file or its folder).
    """
    path = Path(path)
    memory = str(path) == ":memory:"
    if not memory:
        if not path.exists() and (not create or read_only):
            raise FbagentError(f"database {path} does not exist", "pass --db PATH of an existing database or set FBAGENT_DB")
        if not path.parent.exists():
            raise FbagentError(f"folder {path.parent} of database {path} does not exist", "create the folder or pass another --db")
        if path.is_dir():
            raise FbagentError(f"database {path} is a folder, not a file",
                               f"pass --db with a database file, e.g. {path / 'framebench.db'}")
    if read_only and not memory:
        return _open_read_only(path, on_upgrade)
    if not memory:
        _refuse_unwritable(path)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _refuse_foreign(conn, path)

        db = sqlite_utils.Database(conn)
        version = schema_version(db)
        if version > SCHEMA_VERSION:
            conn.close()
            raise newer_error(path, version)
        if not memory:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")

        upgraded = ensure_schema(db, path)
    except sqlite3.DatabaseError as err:
        raise sqlite_error(err, path) from err
    if upgraded and on_upgrade:
        on_upgrade(upgraded)
    return db


def sqlite_error(err: sqlite3.Error, path: str | Path | None = None, *, fix: str | None = None) -> FbagentError:
    """The one-line :class:`FbagentError` for an SQLite failure, by what happened.

    A full disk, a read-only file, a disk I/O error, a write lock held too long
    and a file that is not an (fbagent) database each say what happened and what
    to do; SQLite has already rolled back the failed transaction, so what was
    stored before is intact. ``path``: the database file (``None``: "the database"); ``fix``: the
    fix for a file that is not usable (default: pass another ``--db``), e.g. for a checkpoint file.
    """
    where = str(path) if path is not None else "the database"
    text = str(err)
    low = text.lower()
    if "database or disk is full" in low or "disk is full" in low:
        return FbagentError(
            f"the disk holding {where} is full ({text}); this command stored nothing, earlier data is intact",
            "free space on that disk (df -h shows it) or pass --db on another disk, then rerun the command",
        )
    if "readonly" in low or "read-only" in low:
        return _read_only_error(Path(where))
    if "disk i/o error" in low or "i/o error" in low:
        return FbagentError(
            f"reading or writing {where} failed ({text}: the disk may be full, removed or failing); earlier data is"
            " intact",
            "check the disk (df -h; free space; a network disk still mounted?), then rerun the command",
        )
    if "locked" in low or "busy" in low:
        return FbagentError(
            f"{where} stayed locked by another process for more than {BUSY_TIMEOUT_MS // 1000} s ({text})",
            "wait for the other fbagent command (generate, annotate) to finish or stop it, then rerun",
        )
    return FbagentError(f"{where} is not a usable fbagent SQLite database ({text})",
                        fix or "pass --db with the path of an fbagent database or a new file name")


def _read_only_error(path: Path) -> FbagentError:
    return FbagentError(
        f"{path} is read-only (no write permission on the file or its folder) and this command writes to it",
        f"run it on a writable copy (cp {path} copy.db, then --db copy.db) or get write permission;"
        " read commands (validate report, export, runs/pairs/lexicon list) work on it as it is",
    )


def _refuse_unwritable(path: Path) -> None:
    """Raise the read-only error before connecting when ``path`` (or, for WAL files still to create, its folder) is not writable."""
    if path.exists() and not os.access(path, os.W_OK):
        raise _read_only_error(path)
    folder_ok = os.access(path.parent, os.W_OK)
    needs_folder = not path.exists() or not all(Path(f"{path}{s}").exists() for s in ("-wal", "-shm"))
    if needs_folder and not folder_ok:
        raise _read_only_error(path)


def _connect_read_only(path: Path, immutable: bool = False) -> sqlite3.Connection:
    uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA query_only = 1")
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a WAL file without -shm fails here
    return conn


def _open_read_only(path: Path, on_upgrade: Callable[[dict[str, Any]], None] | None) -> sqlite_utils.Database:
    """The read-only open of :func:`open_db` (``mode=ro``; ``immutable=1`` when the WAL index cannot be created)."""
    try:
        try:
            conn = _connect_read_only(path)
        except sqlite3.OperationalError:
            # a WAL database in a folder we cannot write to, with no -shm file: nobody can be writing it
            conn = _connect_read_only(path, immutable=True)
        _refuse_foreign(conn, path)
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as err:
        raise sqlite_error(err, path) from err
    if version > SCHEMA_VERSION:
        conn.close()
        raise newer_error(path, version)
    if version < SCHEMA_VERSION and (version > 0 or "lexicons" in tables):
        conn.close()
        writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
        if not writable:
            raise FbagentError(
                f"{path} has schema version {version} (this fbagent reads version {SCHEMA_VERSION}) and is read-only,"
                " so it cannot be upgraded",
                f"upgrade a writable copy once (cp {path} copy.db; fbagent runs list --db copy.db) and read that,"
                " or use the fbagent version that wrote it",
            )
        open_db(path, on_upgrade=on_upgrade).conn.close()
        return _open_read_only(path, None)
    if version == 0 and "lexicons" not in tables:
        conn.close()
        raise FbagentError(f"{path} is an empty database (no fbagent tables)", "pass --db PATH of a database fbagent wrote")
    return sqlite_utils.Database(conn)


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


def holds_rows(db: sqlite_utils.Database) -> bool:
    """Whether any table of the database (``sqlite_`` tables aside) holds a row."""
    tables = [t for t in db.table_names() if not t.startswith("sqlite_")]
    return any(db.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() for t in tables)
