"""The one timestamp format of the database: UTC, ISO 8601, milliseconds.

Every store module (and the lexicon importer and eval runner) writes times
through :func:`utc_now`, so that text comparison of two stored timestamps is
time order and every column has the same precision.
"""

from __future__ import annotations

from datetime import UTC, datetime


def as_instant(ts: str) -> datetime:
    """An ISO 8601 timestamp as an aware datetime (UTC when it has no offset), for comparing stored times."""
    value = datetime.fromisoformat(ts)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def utc_now() -> str:
    """Current UTC time as ``YYYY-MM-DDTHH:MM:SS.mmm+00:00`` (ISO 8601, milliseconds; 29 chars)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
