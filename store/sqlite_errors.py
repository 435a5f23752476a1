"""SQLite failures as one-line errors (:func:`sqlite_error`): the standard library and :mod:`fbagent.errors`
only, so that the CLI can name a failed database without importing sqlite-utils (``fbagent --help``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fbagent.errors import FbagentError

#: how long a connection waits for another process's write lock, in milliseconds
BUSY_TIMEOUT_MS = 30_000


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
            f"the disk holding {where} is full ({text}); the write that failed was rolled back, what was stored "
            "before it is intact",
            "free space on that disk (df -h shows it) or pass --db on another disk, then rerun the command",
        )
    if "readonly" in low or "read-only" in low:
        return read_only_error(Path(where))
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


def read_only_error(path: Path) -> FbagentError:
    """The error for a write to the read-only database file ``path``."""
    return FbagentError(
        f"{path} is read-only (no write permission on the file or its folder) and this command writes to it",
        f"run it on a writable copy (fbagent db backup copy.db --db {path}, then --db copy.db) or get write permission;"
        " read commands (validate report, export, runs/pairs/lexicon list) work on it as it is",
    )
