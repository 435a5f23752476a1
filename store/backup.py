"""A consistent copy of a live fbagent database: SQLite's online backup API, while others write.

``cp fb.db copy.db`` copies only the main file: rows still in the write-ahead log (``fb.db-wal``) are
missing from the copy, and a copy taken while a transaction writes may be torn. :func:`backup_database`
reads one snapshot (a read transaction: writers in WAL mode go on meanwhile) and writes it, page by
page, into a new self-contained file (journal mode ``DELETE``: no ``-wal`` beside it), renamed into
place only when complete. The source is opened read-only and never upgraded, so an old schema is
copied as it is (a copy before ``fbagent db upgrade``).

The copy is written to ``.DEST.PID.partial`` (and SQLite's ``-journal`` beside it), ``flock``'ed while
written: a backup killed mid-way leaves them, and the next backup to the same ``DEST`` removes them
(:func:`remove_stale_partials`) unless a live backup holds them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fbagent.errors import FbagentError
from fbagent.files import hold, remove_stale, staged_beside
from fbagent.store.db import BUSY_TIMEOUT_MS, sqlite_error, tidy_wal, undo_wal_files, wal_files


def backup_target(source: Path, dest: Path) -> Path:
    """The file a backup of ``source`` goes to: ``dest``, or ``dest/<source name>`` for a folder.
    Raises :class:`FbagentError` when it exists already, is ``source`` itself, or its folder is missing."""
    target = dest / source.name if dest.is_dir() else dest
    if target.resolve() == source.resolve():
        raise FbagentError(f"the backup {target} would overwrite the database itself", "pass another file name")
    if target.exists():
        raise FbagentError(f"{target} exists already; a backup never overwrites a file",
                           "pass a new file name (e.g. with the date in it) or remove the old copy first")
    if not target.parent.is_dir():
        raise FbagentError(f"folder {target.parent} of the backup does not exist", "create it or pass another DEST")
    return target


def backup_database(source: str | Path, dest: str | Path) -> dict[str, Any]:
    """Copy the fbagent database ``source`` into the new file ``dest`` (a folder: the same file name in it).

    Returns ``{"source", "dest", "bytes", "pages", "seconds"}`` (the copy's size in bytes, SQLite pages,
    wall seconds). The copy is checked in full (``PRAGMA integrity_check``) before it is renamed into place.
    Raises :class:`FbagentError` for a missing source, a ``dest`` that exists or is the source, a damaged
    source (the check of the copy fails: no copy is kept), a file that is not a database (nothing is left
    beside it), or an SQLite failure (e.g. a full disk; no partial copy is left: it is written to a
    temporary name first).
    """
    source = Path(source)
    if not source.is_file():
        raise FbagentError(f"database {source} does not exist", "pass --db PATH of an existing database")
    dest = Path(dest)
    with contextlib.suppress(OSError):   # what killed backups to this name left (even when it exists by now)
        remove_stale_partials(dest / source.name if dest.is_dir() else dest)
    target = backup_target(source, dest)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    started, before = time.perf_counter(), wal_files(source)
    lock = None
    try:
        lock = hold(partial)   # held while written: a later backup removes it only once this one is gone
        pages = _copy(source, partial)
        _refuse_damaged(partial, source)
        os.replace(partial, target)
    except sqlite3.Error as err:
        _drop(partial)
        undo_wal_files(source, before, err)
        if _full(err):
            raise _full_disk(target, err) from err
        raise sqlite_error(err, source) from err
    except (OSError, FbagentError) as err:
        _drop(partial)
        if isinstance(err, FbagentError):
            raise
        if _full(err):
            raise _full_disk(target, err) from err
        raise FbagentError(f"writing the backup {target} failed ({err})", "check the disk and the folder's permissions") from err
    finally:
        if lock is not None:
            os.close(lock)
    return {"source": str(source), "dest": str(target), "bytes": target.stat().st_size, "pages": pages,
            "seconds": round(time.perf_counter() - started, 3)}


def remove_stale_partials(target: Path) -> list[Path]:
    """Remove the ``.TARGET.PID.partial`` copies (and their ``-journal``) that killed backups to ``target``
    left and no live backup holds; returns what was removed."""
    name = re.escape(target.name)
    removed = remove_stale(staged_beside(target.parent, re.compile(rf"\.{name}\.\d+\.partial")))
    for journal in staged_beside(target.parent, re.compile(rf"\.{name}\.\d+\.partial-journal")):
        if not journal.with_name(journal.name.removesuffix("-journal")).exists():   # its copy is gone: it is too
            with contextlib.suppress(OSError):
                journal.unlink()
                removed.append(journal)
    return removed


def _drop(partial: Path) -> None:
    for path in (partial, partial.with_name(partial.name + "-journal")):
        with contextlib.suppress(OSError):
            path.unlink()


def _full(err: BaseException) -> bool:
    """Whether ``err`` (SQLite's or the OS's) says the disk is full."""
    return getattr(err, "errno", None) == errno.ENOSPC or "disk is full" in str(err).lower() \
        or getattr(err, "sqlite_errorname", "") == "SQLITE_FULL"


def _full_disk(target: Path, err: BaseException) -> FbagentError:
    """The error of a backup whose copy filled its disk: the destination's disk, not the database's."""
    return FbagentError(f"the disk holding the backup {target} is full ({err}); no copy was kept and the database "
                        "was not changed", f"free space on the disk of {target.parent} (df -h {target.parent}) or "
                        "pass a DEST on another disk")


def _copy(source: Path, partial: Path) -> int:
    """Write one consistent snapshot of ``source`` (opened read-only) into the new file ``partial`` (journal mode
    ``DELETE``); returns its page count. Raises :class:`sqlite3.Error`."""
    uri = f"file:{quote(str(source.resolve()))}?mode=ro"
    src = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        try:
            src.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:   # a WAL file in a read-only folder without -shm: nobody writes it
            src.close()
            src = sqlite3.connect(uri + "&immutable=1", uri=True)
        src.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        dst = sqlite3.connect(str(partial))
        try:
            src.backup(dst)   # one step: one consistent snapshot of the source
            dst.execute("PRAGMA journal_mode = DELETE")
            return int(dst.execute("PRAGMA page_count").fetchone()[0])
        finally:
            dst.close()
    finally:
        src.close()
        tidy_wal(source)


def _refuse_damaged(copy: Path, source: Path) -> None:
    """Raise :class:`FbagentError` when the fresh copy ``copy`` of ``source`` fails SQLite's full
    ``PRAGMA integrity_check`` (a damaged source: the backup API copies its pages as they are)."""
    conn = sqlite3.connect(f"file:{quote(str(copy.resolve()))}?mode=ro", uri=True)
    try:
        problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check(3)")]
    except sqlite3.DatabaseError as err:   # too damaged for the check to run through
        problems = [str(err)]
    finally:
        conn.close()
    if problems != ["ok"]:
        lines = [ln.strip() for p in problems for ln in p.splitlines() if ln.strip() and not ln.startswith("***")]
        raise FbagentError(
            f"{source} is damaged (SQLite's integrity check of the copy: {'; '.join(lines[:2])}); no backup was "
            "written and the database was left as it is",
            f"restore it from an earlier backup; `sqlite3 {source} .recover | sqlite3 salvaged.db` can salvage the "
            "readable rows into a new file",
        )
