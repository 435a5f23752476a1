"""Invite tokens and session ids: random, URL-safe, stored only as SHA-256; link lifetimes; invites.

A token is 32 random bytes (:func:`secrets.token_urlsafe`, 43 characters,
256 bits), so guessing one is hopeless and rate limiting only keeps logs and
CPU quiet. The database keeps ``sha256(token)`` (hex); a stolen database
copy opens no link and no session.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from fbagent.errors import FbagentError
from fbagent.store import invites
from fbagent.text import check_name

if TYPE_CHECKING:
    import sqlite_utils

TOKEN_BYTES = 32
_DURATION = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
#: The longest link lifetime (ten years); longer ones overflow the calendar or mean "forever", which a link must not.
MAX_LIFETIME = timedelta(days=3650)


def new_token() -> str:
    """A fresh random token (43 URL-safe characters, 256 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """``sha256(token)`` as 64 hex characters: what the database stores for a link or a session cookie."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def parse_duration(text: str) -> timedelta:
    """``30m``, ``12h``, ``14d``, ``2w`` -> a timedelta. Raises FbagentError for anything else, zero, or more than
    :data:`MAX_LIFETIME`."""
    m = _DURATION.match(text or "")
    if not m or int(m.group(1)) == 0:
        raise FbagentError(f"--expires {text!r} is not a lifetime", "pass a number and a unit, e.g. 14d, 12h, 30m or 2w")
    number, unit = int(m.group(1)), _UNITS[m.group(2).lower()]
    if number > MAX_LIFETIME / timedelta(**{unit: 1}):
        raise FbagentError(f"--expires {text!r} is longer than {MAX_LIFETIME.days // 365} years",
                           "pass a shorter lifetime, e.g. 14d or 52w (a new invite can always be sent)")
    return timedelta(**{unit: number})


def expiry(lifetime: timedelta, now: datetime | None = None) -> str:
    """``now + lifetime`` in the store's timestamp format (ISO 8601 UTC, milliseconds)."""
    start = now or datetime.now(UTC)
    return (start + lifetime).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Invite:
    """A new invite: the one-time ``link`` (holds the token; shown once, never stored) and its expiry."""

    annotator: str
    link: str
    expires_at: str


def create_invite(db: sqlite_utils.Database, annotator: str, lifetime: timedelta, base_url: str) -> Invite:
    """Store an invite for ``annotator`` (the token's hash only) and return its link ``BASE/join?token=T``.

    ``base_url``: the address browsers open (``--public-url``). The name is
    checked with :func:`fbagent.text.check_name` (the one name check); earlier unused links of the name
    are revoked (:func:`fbagent.store.invites.add_invite`). Raises FbagentError for a bad name.
    """
    annotator = check_name(annotator, "annotator name")   # normalised: one name, one annotator
    token = new_token()
    expires_at = expiry(lifetime)
    invites.add_invite(db, annotator, token_hash(token), expires_at)
    return Invite(annotator, f"{base_url.rstrip('/')}/join?token={token}", expires_at)
