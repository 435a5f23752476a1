"""Several servers of one model behind one client: ``--base-url`` given more than once (``openai`` backend).

A cluster recipe (docs/backends.md): N nodes each run ``vllm serve MODEL --data-parallel-size K``; fbagent
gets the N URLs and spreads its requests over them. :class:`EndpointPool` sends each request to the
**least-loaded** server: fewest requests in flight, plus one per failure in a row (a failing server is asked
less, but still probed), ties broken round robin. A request whose server fails (refused or reset
connection, timeout, HTTP 5xx or 429, an answer that is no chat completion) is sent at once to the next
server not tried yet; only when every server failed it does the error reach the caller's retries
(:func:`fbagent.providers.call_with_retries`, the same retries, backoff and circuit breaker as one server).

Each server has a breaker of its own (:class:`fbagent.providers.breaker.CircuitBreaker`, the same limits as
the command's: ``FBAGENT_BREAKER_CALLS``, ``FBAGENT_BREAKER_SECONDS``): once it trips, the server is
**dropped** and asked no more while another lives; the others finish the run. When every server is
dropped they are all asked again, so that the command's breaker sees the failures and stops the run.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from fbagent.providers.breaker import BreakerLimits, CircuitBreaker
from fbagent.providers.chat_http import ChatCompletionsHTTP, completions_url
from fbagent.providers.errors import describe_error, is_service_failure, status_of
from fbagent.providers.names import public_url

log = logging.getLogger(__name__)


@dataclass
class Endpoint:
    """One server: its ``url`` (``.../chat/completions``), requests ``in_flight``, ``answered``, ``failed``
    and its :class:`CircuitBreaker` (``dropped`` once it tripped)."""

    url: str
    breaker: CircuitBreaker
    in_flight: int = 0
    answered: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def dropped(self) -> bool:
        return self.breaker.tripped is not None

    def load(self) -> int:
        """Requests in flight plus failures in a row: what :meth:`EndpointPool.pick` minimises."""
        return self.in_flight + self.breaker.failed_in_row


class EndpointPool:
    """Chat Completions over several servers (see the module docstring) with the interface of
    :class:`~fbagent.providers.chat_http.ChatCompletionsHTTP` that the openai provider uses: ``create(body)``,
    ``sessions``, ``aclose()``, ``close_all()``. ``base_urls``: the servers' base URLs (two or more, e.g.
    ``http://node1:8000/v1``); one aiohttp session per event loop serves them all."""

    def __init__(self, http: ChatCompletionsHTTP, base_urls: list[str], limits: BreakerLimits | None = None) -> None:
        self.http = http
        self.sessions = http.sessions
        limits = limits or BreakerLimits.from_env()
        self.endpoints = [Endpoint(completions_url(u), CircuitBreaker(limits)) for u in base_urls]
        self._next = 0

    def pick(self, tried: set[int]) -> int | None:
        """The index of the server to ask now: among those not in ``tried`` and not dropped (all not tried
        when every one is dropped), the least loaded (:meth:`Endpoint.load`), ties round robin; ``None``
        when every server was tried."""
        n = len(self.endpoints)
        left = [i for i in range(n) if i not in tried]
        live = [i for i in left if not self.endpoints[i].dropped] or left
        if not live:
            return None
        best = min(live, key=lambda i: (self.endpoints[i].load(), (i - self._next) % n))
        self._next = (best + 1) % n
        return best

    async def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send ``body`` to the least-loaded server, and to the next ones while servers fail; returns the
        answer. Raises the last server's error when every server failed, at once an error that is not the
        server's fault (HTTP 400/401/403/404: the same on every server)."""
        tried: set[int] = set()
        while True:
            i = self.pick(tried)
            assert i is not None   # the loop returns or raises before every server is tried
            tried.add(i)
            ep = self.endpoints[i]
            ep.in_flight += 1
            try:
                answer = await self.http.create(body, url=ep.url)
            except Exception as exc:
                status = status_of(exc)
                if not is_service_failure(exc) or (status is not None and 400 <= status < 500 and status not in (408, 429)):
                    ep.breaker.answered()   # the server is up: the request is at fault
                    raise
                self._failed(ep, exc)
                if len(tried) == len(self.endpoints):
                    raise
                continue
            finally:
                ep.in_flight -= 1
            ep.answered += 1
            ep.breaker.answered()
            return answer

    def _failed(self, ep: Endpoint, exc: BaseException) -> None:
        line = describe_error(exc, provider_name="openai", endpoint_url=public_url(ep.url) or ep.url, limit=200)
        was = ep.dropped
        ep.failed += 1
        ep.breaker.failed(line)
        if ep.dropped and not was:
            live = sum(not e.dropped for e in self.endpoints)
            log.warning("dropped %s after %d failed requests in a row (%s); %d other server(s) go on",
                        public_url(ep.url), ep.breaker.failed_in_row, line, live)

    def stats(self) -> list[dict[str, Any]]:
        """Per server: its public URL, requests answered and failed, whether it was dropped."""
        return [{"url": public_url(e.url) or e.url, "answered": e.answered, "failed": e.failed, "dropped": e.dropped}
                for e in self.endpoints]

    async def aclose(self) -> None:
        await self.http.aclose()

    def close_all(self) -> None:
        self.http.close_all()
