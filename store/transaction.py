"""One short write transaction on the fbagent database (the lowest store module: it imports no other).

:func:`transaction` is re-exported by :mod:`fbagent.store.db`; the schema and the migrations take it
from here, so that opening a database (db -> schema -> migrations) never imports back into db.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite3.Connection]:
    """One short write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` on any error).

    ``BEGIN IMMEDIATE`` takes the write lock up front, so two writers queue on
    the busy timeout instead of failing with "database is locked" mid-way.
    SQLite errors pass through unchanged (the CLI turns them into one line with
    :func:`sqlite_error`); a rollback SQLite already did is not repeated.
    """
    conn = db.conn
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
    try:
        conn.execute("COMMIT")
    except sqlite3.OperationalError:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The rowid of the row the ``INSERT`` on ``cursor`` just wrote. Raises ``RuntimeError`` when it wrote none."""
    if cursor.lastrowid is None:
        raise RuntimeError("the INSERT wrote no row")
    return cursor.lastrowid
