"""Seeds: one range everywhere (64-bit unsigned), stored losslessly in SQLite, sent in a range backends take.

Every random choice of fbagent takes a seed recorded with what it made (docs/architecture.md,
"Conventions"). A seed is a whole number from 0 to 2**64 - 1. SQLite integers are
signed 64-bit, so a seed of 2**63 or more is stored as its two's complement
(:func:`to_sql`) and read back with :func:`from_sql`. LLM servers and llama.cpp
take smaller request seeds (llama.cpp: 32-bit), so :func:`request_seed` folds a
large seed into 0..2**31 - 1; smaller seeds are sent unchanged, so requests
(and cache keys) of runs made with them stay what they were.
"""

from __future__ import annotations

from fbagent.errors import FbagentError

DEFAULT_SEED = 0          # the seed of every command and function that takes one, when none is given
MAX_SEED = 2**64 - 1
_SIGNED = 2**63
_REQUEST = 2**31


def check_seed(seed: object, what: str = "--seed") -> int:
    """``seed`` as an int in 0..2**64-1; raises :class:`FbagentError` (one line, the fix) otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise FbagentError(f"{what} must be a whole number from 0 to 2^64-1 ({MAX_SEED}), got {seed!r}",
                           f"pass {what} 0 (or any seed in that range)")
    return seed


def to_sql(seed: int | None) -> int | None:
    """The signed 64-bit integer that stores ``seed`` (two's complement for seeds of 2**63 or more)."""
    if seed is None:
        return None
    return seed - 2**64 if seed >= _SIGNED else seed


def from_sql(value: int | None) -> int | None:
    """The seed stored as ``value`` by :func:`to_sql` (a negative integer is a seed of 2**63 or more)."""
    if value is None:
        return None
    value = int(value)
    return value + 2**64 if value < 0 else value


def request_seed(seed: int | None) -> int | None:
    """The seed sent to an LLM backend: ``seed`` itself below 2**31, else ``seed mod 2**31``."""
    if seed is None:
        return None
    return seed if 0 <= seed < _REQUEST else seed % _REQUEST
