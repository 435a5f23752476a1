"""Annotator invites and browser sessions for ``fbagent annotate --serve`` (schema 6).

Tables:

- ``annotator_invites``: one row per invite link. Only the SHA-256 of the
  link's token is stored (``token_hash``), never the token. A link is used
  once (``used_at``); it expires at ``expires_at``; ``revoked_at`` ends it.
  A new invite for a name revokes that name's unused links, so one link per
  annotator is open at a time.
- ``annotator_web_sessions``: one row per browser that exchanged a link for a
  session cookie. Only the SHA-256 of the cookie value is stored
  (``session_hash``). A session ends at its invite's expiry or when revoked;
  ``last_seen_at`` is the last request (or live connection check) of that browser.

This module stores and looks up hashes; making tokens, hashing them and the
web server live in :mod:`fbagent.serve` (the store knows no web). Every write
is one short ``BEGIN IMMEDIATE`` transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.transaction import inserted_id

#: Why a link or a session does not let a browser in.
USED, EXPIRED, REVOKED, UNKNOWN = "used", "expired", "revoked", "unknown"


@dataclass(frozen=True)
class Redeemed:
    """The outcome of :func:`redeem`: ``annotator`` and ``expires_at`` when the link let the browser in, else ``refused`` (a reason)."""

    annotator: str | None = None
    expires_at: str | None = None
    refused: str | None = None


@dataclass(frozen=True)
class WebSession:
    """A live browser session: its row id, annotator and expiry (ISO 8601 UTC)."""

    id: int
    annotator: str
    expires_at: str


def add_invite(db: sqlite_utils.Database, annotator: str, token_hash: str, expires_at: str) -> int:
    """Store a new invite (the token's hash) for ``annotator``, revoking that name's unused links; returns its id.

    ``expires_at``: ISO 8601 UTC (:func:`fbagent.store.clock.utc_now` format).
    Sessions opened with earlier links stay valid (``revoke`` ends them).
    """
    now = utc_now()
    with transaction(db) as conn:
        conn.execute(
            "UPDATE annotator_invites SET revoked_at = ? WHERE annotator = ? AND used_at IS NULL AND revoked_at IS NULL",
            [now, annotator],
        )
        cur = conn.execute(
            "INSERT INTO annotator_invites (annotator, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
            [annotator, token_hash, now, expires_at],
        )
        return inserted_id(cur)


def redeem(db: sqlite_utils.Database, token_hash: str, session_hash: str) -> Redeemed:
    """Exchange an invite (by token hash) for a browser session (by session hash), once.

    Returns :class:`Redeemed` with the annotator and the session's expiry (the
    invite's), or with ``refused`` = ``unknown`` (no such link), ``used``,
    ``expired`` or ``revoked``; a refusal writes nothing. The check and the
    ``used_at`` mark are one transaction, so two browsers racing on one link
    get one session.
    """
    now = utc_now()
    with transaction(db) as conn:
        row = conn.execute(
            "SELECT id, annotator, expires_at, used_at, revoked_at FROM annotator_invites WHERE token_hash = ?",
            [token_hash],
        ).fetchone()
        if row is None:
            return Redeemed(refused=UNKNOWN)
        invite_id, annotator, expires_at, used_at, revoked_at = row
        if revoked_at is not None:
            return Redeemed(refused=REVOKED)
        if expires_at <= now:
            return Redeemed(refused=EXPIRED)
        if used_at is not None:
            return Redeemed(refused=USED)
        conn.execute("UPDATE annotator_invites SET used_at = ? WHERE id = ?", [now, invite_id])
        conn.execute(
            "INSERT INTO annotator_web_sessions (invite_id, annotator, session_hash, created_at, expires_at, last_seen_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [invite_id, annotator, session_hash, now, expires_at, now],
        )
    return Redeemed(annotator=annotator, expires_at=expires_at)


def invite_state(db: sqlite_utils.Database, token_hash: str) -> Redeemed:
    """What :func:`redeem` would answer for a link, without writing: the annotator and expiry of an open
    link, or ``refused`` (``unknown``, ``used``, ``expired``, ``revoked``). For the join page a GET shows."""
    row = db.execute(
        "SELECT annotator, expires_at, used_at, revoked_at FROM annotator_invites WHERE token_hash = ?", [token_hash],
    ).fetchone()
    if row is None:
        return Redeemed(refused=UNKNOWN)
    if row[3] is not None:
        return Redeemed(refused=REVOKED)
    if row[1] <= utc_now():
        return Redeemed(refused=EXPIRED)
    if row[2] is not None:
        return Redeemed(refused=USED)
    return Redeemed(annotator=row[0], expires_at=row[1])


def session_state(db: sqlite_utils.Database, session_hash: str) -> WebSession | str:
    """The live :class:`WebSession` of a cookie (by hash), or why it is not live: ``unknown``, ``expired``, ``revoked``."""
    row = db.execute(
        "SELECT id, annotator, expires_at, revoked_at FROM annotator_web_sessions WHERE session_hash = ?",
        [session_hash],
    ).fetchone()
    if row is None:
        return UNKNOWN
    if row[3] is not None:
        return REVOKED
    if row[2] <= utc_now():
        return EXPIRED
    return WebSession(id=int(row[0]), annotator=row[1], expires_at=row[2])


def invite_of_session(db: sqlite_utils.Database, session_id: int) -> str | None:
    """The token hash of the invite a session was opened with (None for an unknown session)."""
    row = db.execute(
        "SELECT i.token_hash FROM annotator_web_sessions s JOIN annotator_invites i ON i.id = s.invite_id WHERE s.id = ?",
        [session_id],
    ).fetchone()
    return None if row is None else row[0]


def ended_sessions(db: sqlite_utils.Database, session_ids: Iterable[int]) -> set[int]:
    """Of ``session_ids``, those revoked or expired by now (the server ends their running apps)."""
    ids = sorted(set(session_ids))
    if not ids:
        return set()
    marks = ", ".join("?" for _ in ids)
    rows = db.execute(
        f"SELECT id FROM annotator_web_sessions WHERE id IN ({marks}) AND (revoked_at IS NOT NULL OR expires_at <= ?)",
        [*ids, utc_now()],
    ).fetchall()
    return {int(r[0]) for r in rows}


def touch(db: sqlite_utils.Database, session_ids: Iterable[int]) -> None:
    """Set ``last_seen_at`` of these sessions to now (one transaction)."""
    ids = sorted(set(session_ids))
    if not ids:
        return
    marks = ", ".join("?" for _ in ids)
    with transaction(db) as conn:
        conn.execute(f"UPDATE annotator_web_sessions SET last_seen_at = ? WHERE id IN ({marks})", [utc_now(), *ids])


def revoke(db: sqlite_utils.Database, annotator: str) -> dict[str, int]:
    """Revoke every open link and every session of ``annotator``; returns ``{"links": n, "sessions": m}`` newly revoked.

    A running ``annotate --serve`` ends that annotator's apps within its
    check interval (answers are already stored).
    """
    now = utc_now()
    with transaction(db) as conn:
        links = conn.execute(
            "UPDATE annotator_invites SET revoked_at = ? WHERE annotator = ? AND revoked_at IS NULL AND used_at IS NULL",
            [now, annotator],
        ).rowcount
        sessions = conn.execute(
            "UPDATE annotator_web_sessions SET revoked_at = ? WHERE annotator = ? AND revoked_at IS NULL",
            [now, annotator],
        ).rowcount
    return {"links": links, "sessions": sessions}


def known_names(db: sqlite_utils.Database) -> set[str]:
    """Names that ever had an invite."""
    return {r[0] for r in db.execute("SELECT DISTINCT annotator FROM annotator_invites")}


def overview(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """One row per invited annotator, by name: ``annotator``, ``link`` (state of the newest link:
    ``open`` | ``used`` | ``expired`` | ``revoked``), ``link_expires_at``, ``sessions`` (live ones),
    ``session_expires_at`` (latest live), ``last_seen_at`` (any session; None if never)."""
    now = utc_now()
    out = []
    for r in db.query(
        "SELECT i.annotator, i.expires_at, i.used_at, i.revoked_at FROM annotator_invites i"
        " WHERE i.id = (SELECT max(id) FROM annotator_invites j WHERE j.annotator = i.annotator) ORDER BY i.annotator"
    ):
        if r["revoked_at"] is not None:
            link = REVOKED
        elif r["used_at"] is not None:
            link = USED
        elif r["expires_at"] <= now:
            link = EXPIRED
        else:
            link = "open"
        s = db.execute(
            "SELECT sum(revoked_at IS NULL AND expires_at > ?), max(CASE WHEN revoked_at IS NULL AND expires_at > ?"
            " THEN expires_at END), max(last_seen_at) FROM annotator_web_sessions WHERE annotator = ?",
            [now, now, r["annotator"]],
        ).fetchone()
        out.append({"annotator": r["annotator"], "link": link, "link_expires_at": r["expires_at"],
                    "sessions": int(s[0] or 0), "session_expires_at": s[1], "last_seen_at": s[2]})
    return out
