"""Which provider errors are worth another try, the retry loop, and one redacted line per failure."""

from __future__ import annotations

import asyncio
import random
import re
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar, cast

import tenacity

from fbagent.providers import breaker as breakers
from fbagent.providers.config import DEFAULT_BACKOFF_S, GENERATION_RETRIES, MAX_BACKOFF_S
from fbagent.providers.redact import redact

T = TypeVar("T")


# Status codes worth another try: request timeout, conflict, too early, rate limit, server errors.
TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})

_NETWORK_ERROR_NAMES = frozenset({
    "TimeoutException", "ConnectError", "ConnectTimeout", "ReadTimeout", "WriteTimeout",
    "PoolTimeout", "ReadError", "WriteError", "RemoteProtocolError", "NetworkError",
    "ClientConnectorError", "ClientConnectionError", "ClientOSError", "ServerDisconnectedError",
    "ServerTimeoutError", "APIConnectionError", "APITimeoutError", "ClientPayloadError",
})


def exception_chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and its causes (``__cause__`` / ``__context__``), outermost first, no cycles."""
    chain: list[BaseException] = []
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        chain.append(cur)
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return chain


def status_of(exc: BaseException) -> int | None:
    """HTTP status carried by an SDK exception (openai ``status_code``, google-genai ``code``); aiohttp's
    own errors carry none (their ``code`` is a parser's, e.g. 400 for a body cut short)."""
    if type(exc).__module__.startswith("aiohttp"):
        return None
    for attr in ("status_code", "code"):
        value = getattr(exc, attr, None)
        if isinstance(value, int) and 100 <= value < 600:
            return value
    return None


def is_network_error(exc: BaseException) -> bool:
    """Timeouts and connection failures of httpx/httpx2/aiohttp/asyncio/openai."""
    if isinstance(exc, TimeoutError | ConnectionError):
        return True
    return any(cls.__name__ in _NETWORK_ERROR_NAMES for cls in type(exc).__mro__)


_RESET_NAMES = frozenset({"ClientPayloadError", "ServerDisconnectedError", "RemoteProtocolError", "ReadError"})


def is_reset(exc: BaseException) -> bool:
    """A connection that was open and broke mid-answer (reset by the peer, the body cut short, the server
    gone after the request), as opposed to one that never connected."""
    return isinstance(exc, ConnectionResetError | BrokenPipeError) or type(exc).__name__ in _RESET_NAMES


def is_transient(exc: BaseException) -> bool:
    """True when the request may succeed if sent again: 408/429/5xx, timeouts, connection errors.

    Looks through wrapping (instructor's ``InstructorRetryException`` ->
    ``__cause__``). Validation errors and other 4xx are permanent, and so is
    :class:`fbagent.providers.breaker.ServiceDown` (the command is stopping).
    """
    if isinstance(exc, breakers.ServiceDown):
        return False
    for err in exception_chain(exc):
        status = status_of(err)
        if status is not None:
            return status in TRANSIENT_STATUS or status >= 500
        if is_network_error(err) or getattr(err, "transient", False) is True:   # empty or cut-off 200 answers too
            return True
    return False


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds from a ``Retry-After`` (or ``retry-after-ms``) header on the failed response, if any."""
    for err in exception_chain(exc):
        headers = getattr(getattr(err, "response", None), "headers", None)
        if headers is None:
            continue
        try:
            if headers.get("retry-after-ms") is not None:
                return max(0.0, float(headers.get("retry-after-ms")) / 1000.0)
            if headers.get("retry-after") is not None:
                return max(0.0, float(headers.get("retry-after")))
        except (TypeError, ValueError):
            return _http_date_s(headers.get("retry-after"))
    return None


def _http_date_s(value: object) -> float | None:
    """Seconds from now to an HTTP-date ``Retry-After`` (RFC 9110 sec. 10.2.3), or ``None``."""
    import time
    from email.utils import parsedate_to_datetime

    try:
        return max(0.0, parsedate_to_datetime(str(value)).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


@dataclass(frozen=True)
class RetryPolicy:
    """Transport retries: at most ``retries`` more tries after the first, for transient errors only.

    Backoff before retry n (1-based): ``Retry-After`` when the server sends one,
    else ``backoff_s * 2**(n-1)`` plus up to ``backoff_s`` of jitter; capped
    at ``max_backoff_s`` seconds.
    """

    retries: int = GENERATION_RETRIES
    backoff_s: float = DEFAULT_BACKOFF_S
    max_backoff_s: float = MAX_BACKOFF_S


def retry_wait_s(policy: RetryPolicy, attempt: int, exc: BaseException) -> float:
    """Seconds to wait before transport retry ``attempt`` (1-based) after ``exc`` (see :class:`RetryPolicy`)."""
    after = retry_after_s(exc)
    if after is not None:
        return min(after, policy.max_backoff_s)
    base = policy.backoff_s * (2 ** (attempt - 1))
    return min(base + random.uniform(0, policy.backoff_s), policy.max_backoff_s)


async def call_with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy,
                            on_retry: Callable[[BaseException], None] | None = None,
                            describe: Callable[[BaseException], str] | None = None) -> T:
    """Await ``call()``; on a transient error (:func:`is_transient`) wait and try again, per ``policy``.

    ``on_retry(exc)`` is called before each wait. The last error, or the first
    permanent one, is raised; ``asyncio.CancelledError`` passes through at once.
    The first try is a plain ``await`` (no retry machinery for the common case);
    the retries after a transient failure run under tenacity. Every try reports
    to the command's circuit breaker (:mod:`fbagent.providers.breaker`), which
    raises :class:`~fbagent.providers.breaker.ServiceDown` instead of a try
    once it has tripped; ``describe(exc)`` words a failed try for it (default:
    :func:`describe_error` without the server's URL).
    """
    breaker = breakers.current()
    if breaker is not None:
        call = _reported(call, breaker, describe)
    try:
        return await call()
    except Exception as exc:  # noqa: BLE001 - classified here; CancelledError is not an Exception
        if policy.retries < 1 or not is_transient(exc):
            raise
        first = exc
    if on_retry is not None:
        on_retry(first)
    await asyncio.sleep(retry_wait_s(policy, 1, first))

    def wait(state: tenacity.RetryCallState) -> float:  # attempt_number 1 here is the second try overall
        assert state.outcome is not None   # tenacity waits after an attempt
        return retry_wait_s(policy, state.attempt_number + 1, cast(BaseException, state.outcome.exception()))

    def before_sleep(state: tenacity.RetryCallState) -> None:
        if on_retry is not None and state.outcome is not None:
            on_retry(cast(BaseException, state.outcome.exception()))

    retrying = tenacity.AsyncRetrying(
        stop=tenacity.stop_after_attempt(policy.retries), wait=wait,
        retry=tenacity.retry_if_exception(is_transient), before_sleep=before_sleep, reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            return await call()
    raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover


def is_service_failure(exc: BaseException) -> bool:
    """True when ``exc`` says the service did not answer: an HTTP error status, a timeout, a refused or
    reset connection, a 2xx answer that is not a chat completion. A wrong answer (invalid JSON, failed
    validation, truncated) is False: the service answered."""
    for err in exception_chain(exc):
        if status_of(err) is not None or is_network_error(err) or type(err).__name__ == "ChatResponseError":
            return True
    return False


def _reported(call: Callable[[], Awaitable[T]], breaker: breakers.CircuitBreaker,
              describe: Callable[[BaseException], str] | None = None) -> Callable[[], Awaitable[T]]:
    """``call`` reporting each try's outcome to ``breaker`` (checked before the try and after a failure;
    ``describe``: one line per failure)."""
    describe = describe or (lambda exc: describe_error(exc, provider_name="the server", endpoint_url="the server"))

    async def reported() -> T:
        breaker.check()
        try:
            result = await call()
        except Exception as exc:  # noqa: BLE001 - reported, then re-raised (or the breaker's error instead)
            if not is_service_failure(exc):
                breaker.answered()
                raise
            breaker.failed(describe(exc))
            if breaker.tripped is not None:
                raise breaker.tripped from exc
            raise
        breaker.answered()
        return result

    return reported


def one_line(text: object, limit: int = 400) -> str:
    """Collapse whitespace into single spaces and cut to ``limit`` characters (an ellipsis marks the cut)."""
    flat = re.sub(r"\s+", " ", str(text)).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def network_reason(chain: list[BaseException]) -> str:
    """Short cause of a connection failure: 'connection refused', 'host name not resolved', or the innermost error."""
    for err in chain:
        if isinstance(err, ConnectionRefusedError):
            return "connection refused"
    for err in chain:
        text = str(err).lower()
        if "refused" in text:
            return "connection refused"
        if "name or service not known" in text or "nodename nor servname" in text or "name resolution" in text:
            return "host name not resolved"
        if "network is unreachable" in text:
            return "network unreachable"
    inner = chain[-1]
    return one_line(f"{type(inner).__name__}: {inner}", 200)


def _is_validation_error(err: BaseException) -> bool:
    """Whether ``err`` is pydantic's ``ValidationError``. Not imported for this: pydantic is loaded by whatever
    raised one, and this module is read at every command's start (``fbagent --help``), where pydantic is not."""
    pydantic_core = sys.modules.get("pydantic_core")
    return pydantic_core is not None and isinstance(err, pydantic_core.ValidationError)


def describe_error(exc: BaseException, *, provider_name: str, endpoint_url: str, timeout_s: float | None = None,
                   limit: int = 400) -> str:
    """One redacted line naming what went wrong: truncation, validation, JSON, HTTP status, timeout, connection.

    ``endpoint_url``: where the request went (already public); ``timeout_s``: the
    per-request timeout, for the timeout text.
    """
    chain = exception_chain(exc)
    for err in chain:
        name = type(err).__name__
        if name == "IncompleteOutputException":
            return "answer truncated at max_tokens (finish_reason=length): raise max_tokens or shorten the prompt"
        if _is_validation_error(err):
            return redact(one_line(f"answer failed validation for {getattr(err, 'title', '')}: {err}", limit))
        if name == "JSONDecodeError":
            return redact(one_line(f"answer is not valid JSON: {err}", limit))
        if name == "ChatResponseError" and getattr(err, "transient", False):   # empty or cut off: the server works
            return redact(one_line(f"{err} (from {endpoint_url})", limit))
        if name == "ChatResponseError":
            return redact(one_line(f"{err} (from {endpoint_url}; is it the /v1 URL of an OpenAI-compatible "
                                   f"server?)", limit))
        status = status_of(err)
        if status is not None:
            message = getattr(err, "message", None) or err
            return redact(one_line(f"HTTP {status} from {provider_name}: {message}", limit))
        if "Timeout" in name or isinstance(err, TimeoutError):
            after = f" after {timeout_s:g} s" if timeout_s else ""
            return redact(f"request to {endpoint_url} timed out{after}")
        if is_reset(err):
            return redact(one_line(f"the connection to {endpoint_url} was reset before the answer was complete "
                                   f"({network_reason(chain)})", limit))
        if is_network_error(err):
            return redact(one_line(f"cannot connect to {endpoint_url} ({network_reason(chain)})", limit))
    return redact(one_line(f"{type(exc).__name__}: {exc}", limit))
