"""Who a request comes from and how often it may be wrong: client address, cross-site test, wrong-token limits, refusal log.

The limits protect invite tokens without ever locking an invited person out:

- only *wrong* attempts count (an unknown or used link, an unknown session
  cookie); a request that carries a live session is never limited, and a good
  link is always accepted (a token has 256 bits, see :mod:`fbagent.serve.tokens`:
  the limit keeps logs, CPU and scanners quiet, it is not what makes guessing hopeless);
- a wrong token counts whatever the request's headers say (issue 43: with
  ``Sec-Fetch-Site: cross-site`` or a foreign ``Origin`` wrong tries were never
  counted); what keeps a page elsewhere with ``<img src=".../join?token=bad">``
  from using up anyone's allowance is that such a request (cross-site, not a
  document) is refused before any lookup and counts against nobody; a cross-site
  request from an address over its allowance, or one carrying a session cookie (a browser
  never sends the ``SameSite=Strict`` cookie cross-site), is refused before the
  database lookup too;
- wrong attempts count per client address and per token prefix (the first
  :data:`PREFIX_CHARS` characters): past the address's allowance its wrong
  attempts get 429 with a backoff that doubles with every further wrong attempt
  (up to ``max_backoff_s``); past a prefix's allowance that prefix gets 429
  before any lookup (someone working on one leaked half of a link);
- behind a reverse proxy every request comes from the proxy's address: with
  ``--trusted-proxy ADDR`` the client address is the last ``X-Forwarded-For``
  entry that is not a trusted proxy.

Refusals are reported through :class:`RefusalLog`: the first ``burst`` of a
minute one by one, the rest as one count per minute.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import TypedDict

from limits import parse, storage, strategies

#: Characters of a token that name its prefix bucket (the token itself is 43).
PREFIX_CHARS = 8


def client_address(remote: str | None, forwarded_for: str | None, trusted_proxies: Iterable[str]) -> str:
    """The client's address: ``remote``, or, when ``remote`` is a trusted proxy, the last
    ``X-Forwarded-For`` entry (comma-separated) that is not a trusted proxy. ``"?"`` when unknown."""
    trusted = set(trusted_proxies)
    address = remote or "?"
    if address in trusted and forwarded_for:
        for hop in reversed([h.strip() for h in forwarded_for.split(",") if h.strip()]):
            if hop not in trusted:
                return hop
    return address


class Refusal(TypedDict):
    """A refused request as the log shows it: the HTTP status, the path, why, and the client's address."""

    status: int
    path: str
    reason: str
    remote: str


def cross_site(headers: Mapping[str, str], origin: str) -> bool:
    """True when the browser says the request was started by another site.

    ``headers``: the request headers. Fetch metadata first (``Sec-Fetch-Site``
    ``cross-site`` or ``same-site``: a sibling host is another origin too), then
    an ``Origin`` other than ``origin`` (``null`` included). Requests without
    either header (curl, old browsers) are not cross-site.
    """
    site = headers.get("Sec-Fetch-Site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return True
    sent = headers.get("Origin")
    return sent is not None and sent != origin


class WrongTokens:
    """Moving-window counts of wrong attempts per address and per token prefix, with a backoff per address.

    ``per_address`` / ``per_prefix``: ``limits`` rate strings (``10/minute``).
    ``max_backoff_s``: the longest wait a limited address is told (Retry-After).
    """

    def __init__(self, per_address: str, per_prefix: str, max_backoff_s: float = 900.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.address_limit = parse(per_address)
        self.prefix_limit = parse(per_prefix)
        self.max_backoff_s = max_backoff_s
        self.clock = clock
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._backoff: dict[str, tuple[float, int]] = {}  # address -> (until, wrong attempts while limited)

    @staticmethod
    def prefix(token: str) -> str:
        """The bucket of a token: its first :data:`PREFIX_CHARS` characters."""
        return token[:PREFIX_CHARS]

    def prefix_wait(self, token: str) -> float | None:
        """Seconds until a token with this prefix may be tried again, or None."""
        key = "p:" + self.prefix(token)
        if self._limiter.test(self.prefix_limit, key):
            return None
        return max(1.0, self._limiter.get_window_stats(self.prefix_limit, key).reset_time - self.clock())

    def address_wait(self, address: str) -> float | None:
        """Seconds a wrong attempt from ``address`` is told to wait (backoff included), or None while it is within its allowance."""
        now = self.clock()
        until, _ = self._backoff.get(address, (0.0, 0))
        if until > now:
            return until - now
        key = "a:" + address
        if self._limiter.test(self.address_limit, key):
            return None
        return max(1.0, self._limiter.get_window_stats(self.address_limit, key).reset_time - now)

    def wrong(self, address: str, token: str | None = None) -> float | None:
        """Count one wrong attempt; returns the seconds to tell the client to wait (429) or None (an ordinary 401)."""
        wait = self.address_wait(address)
        if token:
            self._limiter.hit(self.prefix_limit, "p:" + self.prefix(token))
        if wait is not None:  # already limited: back off further
            _, n = self._backoff.get(address, (0.0, 0))
            delay = min(self.max_backoff_s, max(wait, 2.0 ** min(n + 1, 30)))
            self._backoff[address] = (self.clock() + delay, n + 1)
            self._prune()
            return delay
        self._limiter.hit(self.address_limit, "a:" + address)
        return None

    def _prune(self) -> None:
        if len(self._backoff) > 10_000:
            now = self.clock()
            self._backoff = {a: v for a, v in self._backoff.items() if v[0] > now}


class RefusalLog:
    """Reports refusals through ``emit``: the first ``burst`` in each ``period_s`` one by one, then a count.

    ``emit("refused", fields)`` for a single refusal; ``emit("refused_summary",
    {"count", "statuses", "seconds"})`` once a period for the ones not shown
    (:meth:`flush`, called by the server's watcher and at shutdown).
    """

    def __init__(self, emit: Callable[[str, dict[str, object]], None], burst: int = 10, period_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.emit = emit
        self.burst = burst
        self.period_s = period_s
        self.clock = clock
        self._start = clock()
        self._shown = 0
        self._held: dict[int, int] = {}

    def refused(self, fields: Refusal) -> None:
        """One refusal."""
        self.flush()
        if self._shown < self.burst:
            self._shown += 1
            self.emit("refused", dict(fields))
        else:
            self._held[fields["status"]] = self._held.get(fields["status"], 0) + 1

    def flush(self, force: bool = False) -> None:
        """Emit the count of held refusals once the period is over (or now with ``force``); start a new period."""
        now = self.clock()
        if not force and now - self._start < self.period_s:
            return
        if self._held:
            self.emit("refused_summary", {"count": sum(self._held.values()), "statuses": dict(sorted(self._held.items())),
                                          "seconds": round(now - self._start)})
        self._start, self._shown, self._held = now, 0, {}
