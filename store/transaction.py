"""One short write transaction on the fbagent database (the lowest store module: it imports no other).

:func:`transaction` is re-exported by :mod:`fbagent.store.db`; the schema and the migrations take it
from here, so that opening a database (db -> schema -> migrations) never imports back into db.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils


#: connections with a held group open (:func:`hold`): rows written, not committed yet
_HELD: weakref.WeakSet[sqlite3.Connection] = weakref.WeakSet()


def hold(conn: sqlite3.Connection) -> bool:
    """Open (or join) the held group of ``conn``: the rows written next stay uncommitted until
    :func:`commit_held`, so that many small inserts share one commit (group commit).

    Returns True when this call opened the group (the caller then arranges its :func:`commit_held`, e.g.
    at the end of the event loop's iteration), False when one was open. Every :func:`transaction` on the
    same connection commits the group first, so a held row never joins another write's transaction (nor
    its rollback). Raises ``sqlite3.OperationalError`` when the write lock is not granted in the busy
    timeout, or when ``conn`` is inside a transaction of its own.
    """
    if is_held(conn):
        return False
    _HELD.discard(conn)        # a group somebody committed with a plain COMMIT is over
    if conn.in_transaction:
        raise sqlite3.OperationalError("hold() inside an open transaction")
    conn.execute("BEGIN IMMEDIATE")
    _HELD.add(conn)
    return True


def is_held(conn: sqlite3.Connection) -> bool:
    """Whether ``conn`` has a held group open (:func:`hold`) that nothing committed yet."""
    return conn in _HELD and conn.in_transaction


def commit_held(conn: sqlite3.Connection) -> bool:
    """Commit the held group of ``conn`` (:func:`hold`); returns whether there was one.

    Raises ``sqlite3.Error`` when the commit fails (the group is then rolled back: its rows are lost, as
    after a kill before the commit).
    """
    if conn not in _HELD:
        return False
    _HELD.discard(conn)
    if conn.in_transaction:   # else committed already by a plain COMMIT on the connection
        _commit(conn)
    return True


def _commit(conn: sqlite3.Connection) -> None:
    """``COMMIT``; when it fails, ``ROLLBACK`` unless SQLite already rolled back, and the error passes through."""
    try:
        conn.execute("COMMIT")
    except sqlite3.Error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite3.Connection]:
    """One short write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` on any error).

    ``BEGIN IMMEDIATE`` takes the write lock up front, so two writers queue on
    the busy timeout instead of failing with "database is locked" mid-way.
    SQLite errors pass through unchanged (the CLI turns them into one line with
    :func:`sqlite_error`); a rollback SQLite already did is not repeated.
    """
    conn = db.conn
    commit_held(conn)         # rows held for a group commit are committed first, never mixed with this write
    if conn.in_transaction:  # nested: join the outer transaction
        yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite already rolled back after a full disk or an I/O error
            conn.execute("ROLLBACK")
        raise
    _commit(conn)


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The rowid of the row the ``INSERT`` on ``cursor`` just wrote. Raises ``RuntimeError`` when it wrote none."""
    if cursor.lastrowid is None:
        raise RuntimeError("the INSERT wrote no row")
    return cursor.lastrowid
