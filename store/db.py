"""Open the fbagent SQLite database: WAL, busy timeout, schema applied (or upgraded), or read-only.

Several processes (annotators, a running generation) share one file, so every
connection uses WAL journaling and a busy timeout, and writers keep their
transactions short. Read commands open the file read-only (``mode=ro``), so a
copy without write permission can be analysed; write commands on such a file
stop with one line before anything happens.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.files import check_regular
from fbagent.store.migrations import Upgrade
from fbagent.store.schema import SCHEMA_VERSION, ensure_schema, newer_error, schema_version
from fbagent.store.sqlite_errors import BUSY_TIMEOUT_MS, read_only_error, sqlite_error
from fbagent.store.transaction import commit_held, transaction

__all__ = ["BUSY_TIMEOUT_MS", "checkpoint", "close_all", "close_db", "holds_rows", "open_db", "sqlite_error", "tidy_wal",
           "transaction", "undo_wal_files", "wal_files"]

#: a long run copies its write-ahead log into the database file at least this often, seconds (:func:`checkpoint`)
CHECKPOINT_EVERY_S = 30.0
UPGRADE_COMMAND = "fbagent db upgrade"
#: SQLite's primary result codes for a damaged file and for a file that is not a database
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26



class Connection(sqlite3.Connection):
    """The connection of every database :func:`open_db` returns: SQLite's, plus what closing it needs
    (``fbagent_path``: its file, ``None`` in memory; ``fbagent_read_only``; ``fbagent_checkpointed``: the
    monotonic time of its last checkpoint). A subclass so that :data:`_OPEN` can hold it weakly."""

    fbagent_path: Path | None = None
    fbagent_read_only: bool = False
    fbagent_checkpointed: float = 0.0

    def __del__(self) -> None:
        """A read-only connection nobody holds any more (the command dropped its database) is closed as
        :func:`close_db` closes it: its ``-wal``/``-shm`` files do not outlive it."""
        if self.fbagent_read_only and self.fbagent_path is not None:
            try:
                self.close()
                tidy_wal(self.fbagent_path)
            except Exception:  # noqa: BLE001, S110 - a finaliser must not raise
                pass


#: every connection :func:`open_db` made that is still alive (closed by :func:`close_all` at exit); held
#: weakly: one nobody uses any more is closed by Python as before
_OPEN: weakref.WeakSet[Connection] = weakref.WeakSet()


def open_db(
    path: str | Path,
    *,
    create: bool = True,
    read_only: bool = False,
    on_upgrade: Callable[[Upgrade], None] | None = None,
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
    works on a file or folder without write permission and never writes: not
    a migration (a file of an earlier schema is refused with one line naming
    ``fbagent db upgrade``), and no ``-wal``/``-shm`` file is left once it is
    closed (:func:`close_db`); the file must exist.

    Every database returned is closed by :func:`close_all` (the CLI, on every
    exit path) unless closed before with :func:`close_db`.

    Raises :class:`FbagentError` (one line: problem and fix) when the file is
    missing and ``create`` is false or ``read_only`` is true, when it is an empty (0-byte) file and ``create``
    is false (nothing is written into it: the read commands refuse it alike), when its folder
    does not exist, when it is not an fbagent SQLite database, when it was
    written by a newer fbagent, or, without ``read_only``, when it cannot be
    written (no write permission on the file or its folder).
    """
    path = Path(path)
    memory = str(path) == ":memory:"
    if not memory:
        if not _exists(path) and (not create or read_only):
            raise FbagentError(f"database {path} does not exist", "pass --db PATH of an existing database or set FBAGENT_DB")
        if not path.parent.exists():
            raise FbagentError(f"folder {path.parent} of database {path} does not exist", "create the folder or pass another --db")
        if path.is_dir():
            raise FbagentError(f"database {path} is a folder, not a file",
                               f"pass --db with a database file, e.g. {path / 'framebench.db'}")
        check_regular(path, "database", DB_NOT_A_FILE_FIX)
        if not create and not read_only and path.stat().st_size == 0:   # as the read commands say (not schema'd)
            raise FbagentError(f"{path} is an empty database (no fbagent tables)", "pass --db PATH of a database fbagent wrote")
    if read_only and not memory:
        return _open_read_only(path, on_upgrade)
    if not memory:
        _refuse_unwritable(path)
    before = None if memory else wal_files(path)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False, factory=Connection)
    except sqlite3.DatabaseError as err:
        raise sqlite_error(err, path) from err
    return _prepared(conn, path, memory=memory, on_upgrade=on_upgrade, before=before)


#: the fix for a --db that is a FIFO, a device or a socket (SQLite would block on a FIFO or refuse a device)
DB_NOT_A_FILE_FIX = "pass --db with a database file (a new name creates one)"


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; raises :class:`FbagentError` for a name the file system cannot hold (over 255
    bytes a name or 4096 a path: ``File name too long``) or a path that cannot be looked at."""
    try:
        path.stat()
        return True
    except FileNotFoundError:
        return False
    except OSError as err:
        if err.errno == errno.ENAMETOOLONG:
            raise FbagentError(f"the database file name {str(path)[:60]}... is too long for the file system "
                               f"({len(path.name.encode())} bytes; at most 255 a name)",
                               "pass --db with a shorter file name") from err
        if err.errno in (errno.ENOTDIR, errno.ELOOP):
            return False
        raise FbagentError(f"database {path} cannot be looked at ({err.strerror})", "pass another --db") from err


def open_db_copy(path: str | Path) -> sqlite_utils.Database:
    """An in-memory copy of the existing database at ``path``, at the current schema: what ``generate --dry-run``
    plans on (an embedded-lexicon import, a pair selection, a migration of an older file happen in the copy).

    The file is read once through a read-only connection (SQLite's online backup API) and never written: no row,
    no migration, no ``-wal``/``-shm`` left (:func:`tidy_wal`). Raises :class:`FbagentError` as
    :func:`open_db` does for a missing file, a folder, another program's database or a newer schema.
    """
    path = Path(path)
    if not _exists(path):
        raise FbagentError(f"database {path} does not exist", "pass --db PATH of an existing database or set FBAGENT_DB")
    if path.is_dir():
        raise FbagentError(f"database {path} is a folder, not a file",
                           f"pass --db with a database file, e.g. {path / 'framebench.db'}")
    check_regular(path, "database", DB_NOT_A_FILE_FIX)
    before = wal_files(path)
    try:
        try:
            source = _connect_read_only(path)
        except sqlite3.OperationalError:
            # a WAL database in a folder we cannot write to, with no -shm file: nobody can be writing it
            source = _connect_read_only(path, immutable=True)
        try:
            copy = sqlite3.connect(":memory:", check_same_thread=False, factory=Connection)
            source.backup(copy)
        finally:
            source.close()
            tidy_wal(path)
    except sqlite3.DatabaseError as err:
        undo_wal_files(path, before, err)
        raise sqlite_error(err, path) from err
    return _prepared(copy, path, memory=True, on_upgrade=None)


def _prepared(conn: sqlite3.Connection, path: Path, *, memory: bool,
              on_upgrade: Callable[[Upgrade], None] | None,
              before: frozenset[str] | None = None) -> sqlite_utils.Database:
    """``conn`` (of the file ``path``, or of memory) set up as :func:`open_db` describes: settings, the
    fbagent-file and newer-schema checks, the schema created or upgraded, registered for :func:`close_all`.
    ``before``: :func:`wal_files` of ``path`` before ``conn`` was opened (a file that is not a database
    gets none of them left, :func:`undo_wal_files`)."""
    try:
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

        upgraded = ensure_schema(db, None if memory else path)   # a copy in memory: no backup beside the file
    except sqlite3.DatabaseError as err:
        if before is not None:
            conn.close()
            undo_wal_files(path, before, err)
        raise sqlite_error(err, path) from err
    if upgraded and on_upgrade:
        on_upgrade(upgraded)
    return _opened(db, None if memory else path, read_only=False)


def _opened(db: sqlite_utils.Database, path: Path | None, *, read_only: bool) -> sqlite_utils.Database:
    """Register ``db``'s connection for :func:`close_all` with what closing it needs."""
    conn = db.conn
    if isinstance(conn, Connection):
        conn.fbagent_path, conn.fbagent_read_only, conn.fbagent_checkpointed = path, read_only, time.monotonic()
        _OPEN.add(conn)
    return db


def close_db(db: sqlite_utils.Database | sqlite3.Connection) -> None:
    """Close the connection of ``db`` so that SQLite copies its write-ahead log into the file and removes the
    ``-wal``/``-shm`` files (when it is the last connection): afterwards the ``.db`` file alone holds every
    committed row. A writing connection checkpoints first (``PASSIVE``: also while annotators keep the file
    open); a read-only one cannot, so the ``-wal``/``-shm`` files its read created are removed by SQLite
    through a short connection that writes nothing (``query_only``) when the folder is writable
    (:func:`tidy_wal`). Safe to call twice; database errors on the way are ignored (everything committed is
    stored already)."""
    conn = db if isinstance(db, sqlite3.Connection) else db.conn
    _OPEN.discard(conn)  # type: ignore[arg-type]
    path, read_only = getattr(conn, "fbagent_path", None), getattr(conn, "fbagent_read_only", False)
    try:
        commit_held(conn)   # rows held for a group commit (fbagent.llm.client) are stored, not dropped
        if not read_only:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error:
        pass
    try:
        conn.close()
    except sqlite3.Error:
        return
    if read_only and path is not None:
        tidy_wal(path)


def tidy_wal(path: Path) -> None:
    """Remove ``path``'s ``-wal``/``-shm`` files through SQLite: a connection that writes nothing, closed at
    once, checkpoints and deletes them when no other connection has the file open (and leaves them
    otherwise). Nothing happens without write permission on the file and its folder."""
    if not any(Path(f"{path}{s}").exists() for s in ("-wal", "-shm")):
        return
    if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return
    try:
        conn = sqlite3.connect(str(path), timeout=1.0)
        try:
            conn.execute("PRAGMA query_only = 1")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        pass


def wal_files(path: Path) -> frozenset[str]:
    """Which of ``path``'s ``-wal``/``-shm`` files exist now (e.g. ``{"-wal", "-shm"}``): what an open that
    fails on a file that is not a database must leave as it found (:func:`undo_wal_files`). Two ``stat`` calls."""
    return frozenset(s for s in ("-wal", "-shm") if os.path.exists(f"{path}{s}"))


def undo_wal_files(path: Path, before: frozenset[str], err: sqlite3.Error | None) -> None:
    """After an open of ``path`` failed with ``err`` (its connections closed already): when ``err`` says the file
    is not a database or is damaged (SQLite's ``SQLITE_NOTADB``/``SQLITE_CORRUPT``; a WAL-mode header makes SQLite
    create the ``-wal``/``-shm`` files before it reads the damaged page), or is None (fbagent refused the file:
    another program's WAL-mode database, e.g. generate's ``.checkpoints.db`` given as ``--db``), remove the ones
    SQLite created that were not there before (``before``: :func:`wal_files` taken before the open), so the folder
    is as it was. A ``-wal`` that holds anything is never removed (only SQLite's empty one); other errors (a lock,
    a full disk) leave everything alone: the file may be healthy and in use."""
    if err is not None and (getattr(err, "sqlite_errorcode", 0) & 0xFF) not in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return
    for suffix in ("-wal", "-shm"):
        if suffix not in before:
            with contextlib.suppress(OSError):
                Path(f"{path}{suffix}").unlink(missing_ok=True)


def close_all() -> None:
    """Close every database :func:`open_db` returned that is still open (:func:`close_db`): the CLI calls
    it on every exit path (normal, error, Ctrl-C)."""
    for conn in list(_OPEN):
        close_db(conn)


def checkpoint(db: sqlite_utils.Database, every_s: float = CHECKPOINT_EVERY_S) -> bool:
    """Copy the write-ahead log of ``db`` into the database file (``PRAGMA wal_checkpoint(PASSIVE)``: it
    never waits for readers) when the last such copy is ``every_s`` seconds old or more; a long run calls
    it after each stored unit, so the ``.db`` file alone is at most ``every_s`` behind. Returns whether it
    ran; database errors (a busy file) are ignored, and it does not run inside an open transaction (held rows of a
    group commit); the next call tries again."""
    conn, now = db.conn, time.monotonic()
    if not isinstance(conn, Connection) or conn.fbagent_read_only or now - conn.fbagent_checkpointed < every_s:
        return False
    if conn.in_transaction:   # e.g. held rows (group commit): the next call copies the log
        return False
    conn.fbagent_checkpointed = now
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error:
        return False
    return True


def _refuse_unwritable(path: Path) -> None:
    """Raise the read-only error before connecting when ``path`` (or, for WAL files still to create, its folder) is not writable."""
    if path.exists() and not os.access(path, os.W_OK):
        raise read_only_error(path)
    folder_ok = os.access(path.parent, os.W_OK)
    needs_folder = not path.exists() or not all(Path(f"{path}{s}").exists() for s in ("-wal", "-shm"))
    if needs_folder and not folder_ok:
        raise read_only_error(path)


def _connect_read_only(path: Path, immutable: bool = False) -> sqlite3.Connection:
    uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False, factory=Connection)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only = 1")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a WAL file without -shm fails here
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _open_read_only(path: Path, on_upgrade: Callable[[Upgrade], None] | None = None) -> sqlite_utils.Database:
    """The read-only open of :func:`open_db` (``mode=ro``; ``immutable=1`` when the WAL index cannot be created).

    Never writes: a file of an earlier schema is refused with one line naming ``fbagent db upgrade``
    (``on_upgrade`` is not called; it stays for the callers' signature)."""
    before, conn = wal_files(path), None
    try:
        try:
            conn = _connect_read_only(path)
        except sqlite3.OperationalError:
            # a WAL database in a folder we cannot write to, with no -shm file: nobody can be writing it
            conn = _connect_read_only(path, immutable=True)
        _refuse_foreign(conn, path)
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except FbagentError:  # another program's file (closed by the check): leave its folder as it was
        undo_wal_files(path, before, None)
        raise
    except sqlite3.DatabaseError as err:
        if conn is not None:
            conn.close()
        undo_wal_files(path, before, err)
        raise sqlite_error(err, path) from err
    db = _opened(sqlite_utils.Database(conn), path, read_only=True)
    if version > SCHEMA_VERSION:
        close_db(db)
        raise newer_error(path, version)
    if version < SCHEMA_VERSION and (version > 0 or "lexicons" in tables):
        close_db(db)
        raise _old_schema_error(path, version)
    if version == 0 and "lexicons" not in tables:
        close_db(db)
        raise FbagentError(f"{path} is an empty database (no fbagent tables)", "pass --db PATH of a database fbagent wrote")
    return db


def _old_schema_error(path: Path, version: int) -> FbagentError:
    """The refusal of a read command on a database of the earlier schema ``version``: it names
    ``fbagent db upgrade`` (on a writable copy when the file or its folder is read-only)."""
    problem = (f"{path} has schema version {version} and this fbagent reads version {SCHEMA_VERSION}; a command that "
               "only reads never changes a database, so it left the file as it is")
    if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
        return FbagentError(problem, f"upgrade it once with `{UPGRADE_COMMAND} --db {path}` (it keeps a backup copy "
                            "beside it), then rerun this command; or use the fbagent version that wrote it")
    return FbagentError(f"{problem} (it is read-only)",
                        f"upgrade a writable copy once (fbagent db backup copy.db --db {path}; {UPGRADE_COMMAND} "
                        "--db copy.db) and read that, or use the fbagent version that wrote it")


#: columns the ``lexicons`` table of every fbagent database has had since schema version 1
FBAGENT_LEXICON_COLUMNS = frozenset({"id", "name", "lang", "format", "imported_at"})


def _refuse_foreign(conn: sqlite3.Connection, path: Path) -> None:
    """Raise :class:`FbagentError` when ``path`` is another program's SQLite database.

    Checked before anything is written (journal mode, schema, an upgrade's ``.vN.bak`` copy), so a mistyped
    ``--db`` never adds tables to someone else's file. fbagent's files are told by their tables and columns:
    a ``lexicons`` table with fbagent's columns (:data:`FBAGENT_LEXICON_COLUMNS`), not the table name alone
    (another program's file with a ``lexicons`` table got a ``.v0.bak`` and an "upgrade"); a negative
    ``user_version`` (no fbagent writes one) is refused too.
    """
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    columns = {r[1] for r in conn.execute("PRAGMA table_info(lexicons)")} if "lexicons" in tables else set()
    if tables and not FBAGENT_LEXICON_COLUMNS <= columns:
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        conn.close()
        mine = " (its lexicons table is not fbagent's)" if "lexicons" in tables else ""
        raise FbagentError(
            f"{path} is an SQLite database of another program (tables: {shown}){mine}; fbagent leaves it unchanged",
            "pass --db with the path of an fbagent database or a new file name",
        )
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version < 0:
        conn.close()
        raise FbagentError(f"{path} has schema version {version}, which no fbagent writes (another program's file, or "
                           "a damaged one); fbagent leaves it unchanged",
                           "pass --db with the path of an fbagent database or a new file name")


@contextlib.contextmanager
def removed_if_failed(path: Path | str) -> Iterator[None]:
    """Around a command that may create the database file ``path``: when the file did not exist before and the
    command raises, this process's connections to it are closed and the file (with its -wal/-shm/-journal)
    removed, unless a table holds a row (another program wrote there meanwhile). The exception propagates.
    A refused first command thus leaves no empty database behind (``lexicon add`` does the same itself)."""
    p = Path(path)
    new = str(p) != ":memory:" and not _exists(p)
    try:
        yield
    except BaseException:
        if new and _exists(p):
            _remove_empty(p)
        raise


def _remove_empty(path: Path) -> None:
    """Close this process's connections to ``path``, then delete it and its side files if no table holds a row."""
    target = path.resolve()
    for conn in list(_OPEN):
        if conn.fbagent_path is not None and Path(conn.fbagent_path).resolve() == target:
            close_db(conn)
    try:
        probe = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
        try:
            kept = holds_rows(sqlite_utils.Database(probe))
        finally:
            probe.close()
    except sqlite3.Error:
        return   # not a database we can read: leave it
    if not kept:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def holds_rows(db: sqlite_utils.Database) -> bool:
    """Whether any table of the database (``sqlite_`` tables aside) holds a row."""
    tables = [t for t in db.table_names() if not t.startswith("sqlite_")]
    return any(db.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() for t in tables)
