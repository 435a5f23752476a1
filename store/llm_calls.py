"""Queries for the ``llm_calls`` table: the audit log and the cache of every LLM request.

One row per request that reached a backend (cache hits add no row; see
``docs/backends.md``). A row with ``error IS NULL`` holds the validated object
in ``response`` and serves as the cache for every later request with the same
``cache_key`` (any run). This module knows no LLM: it stores and reads JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.transaction import hold, inserted_id, is_held


@dataclass(frozen=True)
class CachedCall:
    """A successful ``llm_calls`` row found by :func:`find_cached`."""

    id: int
    response: str          # JSON of the validated object
    input_tokens: int
    output_tokens: int
    latency_ms: float


def insert_call(
    db: sqlite_utils.Database,
    *,
    run_id: int | None,
    item_id: str | None,
    task: str,
    backend: str,
    model: str,
    cache_key: str,
    prompt_version: str | None,
    request: dict[str, Any],
    response: dict[str, Any] | None,
    input_tokens: int | None,
    output_tokens: int | None,
    latency_ms: float | None,
    attempts: int,
    error: str | None,
    held: bool = False,
) -> int:
    """Insert one ``llm_calls`` row and return its id: in its own short transaction, or with ``held=True``
    into the connection's held group (:func:`fbagent.store.transaction.hold`: committed by the caller's
    :func:`~fbagent.store.transaction.commit_held`, or first thing by the next :func:`transaction`),
    so that the rows of many answers share one commit. ``held`` inside another open transaction joins it.

    ``request`` must hold no secrets (the caller strips API keys); ``response``
    is the validated object as a dict, ``None`` on failure (then ``error`` is a
    one-line message). Latency in milliseconds. Raises ``sqlite3.Error`` when the database fails.
    """
    row = (
        run_id, item_id, task, backend, model, cache_key, prompt_version,
        json.dumps(request, ensure_ascii=False),
        None if response is None else json.dumps(response, ensure_ascii=False),
        input_tokens, output_tokens, latency_ms, attempts, error, utc_now(),
    )
    conn = db.conn
    if held and (is_held(conn) or not conn.in_transaction):
        hold(conn)
        return inserted_id(conn.execute(_INSERT, row))
    with transaction(db) as conn:
        return inserted_id(conn.execute(_INSERT, row))


_INSERT = ("INSERT INTO llm_calls (run_id, item_id, task, backend, model, cache_key, prompt_version,"
           " request, response, input_tokens, output_tokens, latency_ms, attempts, error, created_at)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def find_cached(db: sqlite_utils.Database, cache_key: str) -> CachedCall | None:
    """The newest successful row with ``cache_key`` (any run), or ``None``.

    Usually there is one; a forced re-ask (``use_cache=False``) or an answer that
    no longer validates adds a newer row, which then wins. Uses the
    ``llm_calls_cache (cache_key, error)`` index.
    """
    row = db.execute(
        "SELECT id, response, input_tokens, output_tokens, latency_ms FROM llm_calls"
        " WHERE cache_key = ? AND error IS NULL AND response IS NOT NULL ORDER BY id DESC LIMIT 1",
        [cache_key],
    ).fetchone()
    if row is None:
        return None
    return CachedCall(int(row[0]), row[1], int(row[2] or 0), int(row[3] or 0), float(row[4] or 0.0))
