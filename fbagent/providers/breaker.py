"""One circuit breaker for every command that calls a model service: stop a run whose service is down.

Every HTTP request that :func:`fbagent.providers.call_with_retries` sends (generation, the verifier,
``verifier calibrate``, ``eval run`` / ``frame-id`` / ``sembench``) reports its outcome to the
breaker of the running command (:func:`guarding` installs one; none is installed outside a command,
so library calls and tests that do not ask for it are never stopped). The breaker **trips** when

- the last :data:`FAILED_CALLS` requests all failed (an HTTP error status, a timeout, a refused or
  reset connection, a 2xx answer that is not a chat completion), and
- none succeeded in the last :data:`QUIET_S` seconds (a service that never answered since the command
  started has not answered in the last ``QUIET_S`` seconds either).

A hung request counts when its timeout fires. An answer the model got wrong (invalid JSON, a failed
validation, a truncated answer) is an answer: the service works. A service that fails now and then
(429s between answers, one 500 in ten) never trips it: every answer starts the count again, and a
request that fails one time in five fails :data:`FAILED_CALLS` times in a row with probability
0.2**8 = 3e-6.

Once tripped, every request of the command raises :class:`ServiceDown` (before it is sent, or instead
of its next retry); the command stops with one line naming the most common error and its fix, exit 1,
with everything finished already stored, so the same command resumes.

Both limits are declared here once and read from the environment: ``FBAGENT_BREAKER_CALLS``
(``0`` turns the breaker off) and ``FBAGENT_BREAKER_SECONDS``.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from fbagent.errors import FbagentError

#: N: requests that must fail in a row before the breaker trips
FAILED_CALLS = 8
#: M: seconds without a single answered request before the breaker trips
QUIET_S = 30.0
ENV_CALLS = "FBAGENT_BREAKER_CALLS"
ENV_SECONDS = "FBAGENT_BREAKER_SECONDS"


class ServiceDown(FbagentError):
    """The breaker tripped: the model service failed :data:`FAILED_CALLS` requests in a row and answered
    none in :data:`QUIET_S` seconds. Exit code 1 (a run that stopped, not a bad input); what was finished
    is stored and the same command resumes."""

    exit_code = 1


@dataclass(frozen=True)
class BreakerLimits:
    """``failed_calls`` (N, ``0``: never trip) and ``quiet_s`` (M, seconds) of a :class:`CircuitBreaker`."""

    failed_calls: int = FAILED_CALLS
    quiet_s: float = QUIET_S

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> BreakerLimits:
        """The limits from ``FBAGENT_BREAKER_CALLS`` / ``FBAGENT_BREAKER_SECONDS`` (``env``: default
        ``os.environ``), the defaults where unset. Raises :class:`FbagentError` for a value that is not a
        whole number 0..1,000,000 (calls) or a number of seconds 0..86,400."""
        source: Mapping[str, str] = os.environ if env is None else env
        calls, seconds = source.get(ENV_CALLS, "").strip(), source.get(ENV_SECONDS, "").strip()
        try:
            n = int(calls) if calls else FAILED_CALLS
            m = float(seconds) if seconds else QUIET_S
        except ValueError:
            n, m = -1, -1.0
        if not (0 <= n <= 1_000_000 and 0 <= m <= 86_400):
            raise FbagentError(
                f"{ENV_CALLS}={calls!r} / {ENV_SECONDS}={seconds!r} is not a number of calls (0..1,000,000) and "
                "of seconds (0..86,400)",
                f"unset them or set e.g. {ENV_CALLS}={FAILED_CALLS} {ENV_SECONDS}={QUIET_S:g} ({ENV_CALLS}=0: never stop)",
            )
        return cls(n, m)


@dataclass
class CircuitBreaker:
    """The breaker of one command (see the module docstring). ``clock``: seconds, monotonic.

    ``failed_in_row``: requests failed since the last answer; ``requests``/``failures``: counted so far;
    ``errors``: error line -> failed requests with it; ``tripped``: the :class:`ServiceDown` once tripped.
    """

    limits: BreakerLimits = field(default_factory=BreakerLimits)
    clock: Callable[[], float] = time.monotonic
    describe: Callable[[BaseException], str] = repr
    failed_in_row: int = 0
    requests: int = 0
    failures: int = 0
    last_answer: float | None = None
    errors: Counter[str] = field(default_factory=Counter)
    tripped: ServiceDown | None = None

    def answered(self) -> None:
        """One request got an answer from the service (whatever the model said)."""
        self.requests += 1
        self.failed_in_row = 0
        self.last_answer = self.clock()

    def failed(self, error: str) -> None:
        """One request failed with the one-line ``error``; trips the breaker when the limits are met."""
        self.requests += 1
        self.failures += 1
        self.failed_in_row += 1
        self.errors[error] += 1
        n, m = self.limits.failed_calls, self.limits.quiet_s
        quiet = self.last_answer is None or self.clock() - self.last_answer >= m
        if self.tripped is None and n > 0 and self.failed_in_row >= n and quiet:
            self.tripped = self._down()

    def check(self) -> None:
        """Raise :class:`ServiceDown` once the breaker has tripped (a request about to be sent, or retried)."""
        if self.tripped is not None:
            raise self.tripped

    def _down(self) -> ServiceDown:
        text, count = self.errors.most_common(1)[0]
        since = ("answered none since the command started" if self.last_answer is None
                 else f"answered none in the last {self.clock() - self.last_answer:.0f} s")
        return ServiceDown(
            f"the model service failed {self.failed_in_row} requests in a row and {since} "
            f"(most common error ({count}x): {text})",
            f"{fix_for(text)}; then run the same command again: what finished is stored and is not asked again "
            f"(the breaker's limits: {ENV_CALLS}, {ENV_SECONDS})",
        )


def fix_for(error: str) -> str:
    """What to do about the failed requests whose most common one-line error is ``error``."""
    low = error.lower()
    if "http 401" in low or "http 403" in low:
        return "check the API key (the environment variable the backend reads) and its permissions"
    if "http 404" in low:
        return "check --model (the model's name on that server) and --base-url (the /v1 URL)"
    if "http 429" in low:
        return "the service refuses requests (rate limit or quota): wait, lower --concurrency or raise the quota"
    if "timed out" in low:
        return "the server does not answer in time: check that it is running and not overloaded, or raise --timeout"
    if "cannot connect" in low or "connection" in low:
        return "check that the server is running and that --base-url (or OPENAI_BASE_URL) points to it"
    if "http 5" in low:
        return "the server fails every request: check its log (out of memory? model not loaded?) or try later"
    return "check the server, --base-url, --model and the API key"


_current: contextvars.ContextVar[CircuitBreaker | None] = contextvars.ContextVar("fbagent_breaker", default=None)


def current() -> CircuitBreaker | None:
    """The breaker of the running command (``None`` outside :func:`guarding`)."""
    return _current.get()


@contextlib.contextmanager
def guarding(breaker: CircuitBreaker | None = None) -> Iterator[CircuitBreaker]:
    """Install ``breaker`` (default: a new one with :meth:`BreakerLimits.from_env`) for the body; tasks and
    threads started inside it (``asyncio.run``, ``asyncio.create_task`` copy the context) report to it. A
    breaker already installed is kept (a nested command shares its caller's)."""
    installed = _current.get()
    if installed is not None:
        yield installed
        return
    breaker = breaker or CircuitBreaker(BreakerLimits.from_env())
    token = _current.set(breaker)
    try:
        yield breaker
    finally:
        _current.reset(token)
