"""One async LLM client for every backend: structured output, retries, cache, audit log.

:func:`fbagent.llm.factory.make_client` returns an :class:`LLMClient`; its
:meth:`LLMClient.complete` sends chat messages and returns a
:class:`CallResult` holding a validated pydantic object (models in
:mod:`fbagent.schemas`), or ``None`` and a one-line error. It never raises for
LLM or server trouble:

1. Cache: the request's ``cache_key`` (:func:`fbagent.llm.cache.cache_key`) is
   looked up in ``llm_calls``; a successful row (any run) answers at once with
   ``cached=True`` and no new request and no new row.
2. Concurrency: at most ``concurrency`` requests are in flight
   (``asyncio.Semaphore``); identical requests in flight at the same time are
   sent once.
3. instructor re-asks on validation errors (``max_retries`` re-asks, the
   validation error is sent back to the model).
4. tenacity retries the whole exchange on 408/429/5xx, timeouts and connection
   errors, with exponential backoff (and ``Retry-After`` when the server sends
   it), at most ``max_retries`` times; other 4xx fail at once. The SDKs' own
   retries are off. Names, keys, URLs, error classes, the retry loop and
   redaction come from :mod:`fbagent.providers`, shared with evaluation.
5. Every request that reached the backend is one ``llm_calls`` row (request
   without secrets, validated response or error, tokens summed over every
   HTTP attempt, latency, attempts).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import sqlite_utils
from pydantic import BaseModel, ValidationError

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.llm.cache import cache_key
from fbagent.providers import one_line, public_url, redact
from fbagent.providers.breaker import ServiceDown
from fbagent.providers.config import (
    DEFAULT_BACKOFF_S,
    DEFAULT_CONCURRENCY,
    GENERATION_MAX_TOKENS,
    GENERATION_RETRIES,
    GENERATION_TIMEOUT_S,
    MAX_BACKOFF_S,
)
from fbagent.providers.hooks import CallHooks
from fbagent.store import llm_calls
from fbagent.store.transaction import commit_held, is_held

if TYPE_CHECKING:
    from fbagent.llm.batch import BatchCollector
    from fbagent.providers.base import Backend

_MAX_OUTPUT_CHARS = 4000

# instructor logs every failed attempt at ERROR level, with the server's error text
# (which may quote a masked API key); without a handler Python's last-resort handler
# would print them over the progress bar. The llm_calls row is the log of record
# (scrubbed of secrets), so instructor's own records are dropped below CRITICAL.
_instructor_logger = logging.getLogger("instructor")
_instructor_logger.addHandler(logging.NullHandler())
_instructor_logger.setLevel(logging.CRITICAL)


@dataclass
class CallResult:
    """What :meth:`LLMClient.complete` returns; it never raises for LLM/server trouble.

    ``value``: the validated pydantic object, ``None`` on failure. ``error``: one
    line, ``None`` on success. ``cached``: answered from ``llm_calls`` without a
    new request (then tokens are 0, ``attempts`` is 0 and ``call_id`` is the id of
    the row that answered). Tokens are summed over every HTTP attempt of this
    call; ``latency_ms`` is wall time in milliseconds including retries and
    backoff; ``attempts`` counts HTTP requests (re-asks and transport retries).
    """

    value: BaseModel | None
    error: str | None
    cached: bool
    input_tokens: int
    output_tokens: int
    latency_ms: float
    attempts: int
    call_id: int


@dataclass
class UsageStats:
    """Live counters for the progress bar (updated on the event loop thread).

    ``calls``: finished calls that sent requests (each is one ``llm_calls`` row);
    ``cache_hits``: calls answered from the cache; ``failures``: calls that ended
    with an error; tokens as counted by the backend; ``errors``: error text ->
    number of failed calls with it (for the end-of-session diagnosis).
    """

    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    #: of the tokens above, those of calls answered through a provider batch job (billed at its discount)
    batch_input_tokens: int = 0
    batch_output_tokens: int = 0


def most_common_error(errors: Mapping[str, int]) -> str:
    """``"; most common error (Nx): TEXT"`` for failed-call counts ``errors`` (error text -> calls, as
    :attr:`UsageStats.errors`), ``""`` when there are none: the end of a line saying calls failed."""
    if not errors:
        return ""
    text, n = Counter(errors).most_common(1)[0]
    return f"; most common error ({n}x): {text}"


class LLMClient:
    """Async structured-output client for one backend and model (see module docstring).

    Build it with :func:`make_client`. Attributes: ``backend`` (``openai`` |
    ``gemini`` | ``local``), ``model`` (model name; for ``local`` the GGUF file
    name), ``stats`` (:class:`UsageStats`). Writes to ``db`` happen on the event
    loop thread in short transactions.
    """

    def __init__(
        self,
        adapter: Backend,
        *,
        db: sqlite_utils.Database,
        concurrency: int = DEFAULT_CONCURRENCY,
        max_retries: int = GENERATION_RETRIES,
        timeout_s: float = GENERATION_TIMEOUT_S,
        backoff_s: float = DEFAULT_BACKOFF_S,
        max_backoff_s: float = MAX_BACKOFF_S,
    ) -> None:
        if concurrency < 1:
            raise FbagentError(f"concurrency must be at least 1, got {concurrency}", "pass --concurrency 1 or more")
        if max_retries < 0:
            raise FbagentError(f"max retries must be 0 or more, got {max_retries}", "pass --max-retries 0 or more")
        self._adapter: Backend | None = adapter
        self.backend: str = adapter.name
        #: the backend part of cache keys: the adapter's ``cache_backend`` where it has one (the embedded engine:
        #: another engine's answers under the same provider name are not its own), else its name
        self.cache_backend: str = str(getattr(adapter, "cache_backend", adapter.name))
        self.model: str = adapter.model
        self.db = db
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.stats = UsageStats()
        self._semaphore: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._inflight: dict[str, asyncio.Event] = {}
        self.in_flight = 0   # requests sent (holding the concurrency semaphore) and not answered yet
        self._commit_error: sqlite3.Error | None = None   # a failed group commit, raised by the next _store
        #: ``generate --batch``: cache misses are recorded for a provider batch, not sent (fbagent.llm.batch)
        self.batch: BatchCollector | None = None

    # -- public ---------------------------------------------------------------
    async def complete(
        self,
        *,
        task: str,
        messages: list[dict[str, str]],
        response_model: type[BaseModel],
        run_id: int | None = None,
        item_id: str | None = None,
        prompt_version: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = GENERATION_MAX_TOKENS,
        seed: int | None = None,
        use_cache: bool = True,
    ) -> CallResult:
        """Send ``messages`` and return a :class:`CallResult` with a ``response_model`` instance.

        ``messages``: OpenAI-style ``[{"role": "system"|"user"|"assistant", "content": str}]``.
        ``task`` names the step (``generate_base``, ``extend``, ``define``, ``judge``,
        ``screen``...); ``run_id``/``item_id``/``prompt_version`` are stored with the
        row. ``max_tokens`` bounds the answer (a truncated answer is a failure).
        ``seed`` is part of the cache key: pass different seeds to get different
        answers to the same prompt. ``use_cache=False`` skips the lookup (the row
        is still written and serves later lookups).

        Every LLM/server problem (HTTP errors, timeouts, invalid answers, llama.cpp
        errors) is a failed :class:`CallResult` and a row with ``error`` set. Raises
        only ``asyncio.CancelledError`` (Ctrl-C: nothing is recorded for the call),
        :class:`fbagent.llm.batch.BatchPending` (collect mode, :attr:`batch`: the request joins a batch),
        :class:`fbagent.providers.breaker.ServiceDown` (the command's circuit breaker
        tripped: the service is down; nothing is recorded for the call),
        ``sqlite3.Error`` when the database itself fails, ``TypeError`` for messages
        that are not JSON, and ``RuntimeError`` after :meth:`aclose`.
        """
        started = time.perf_counter()
        semaphore = self._limit()
        key = cache_key(
            backend=self.cache_backend, model=self.model, messages=messages, response_model=response_model,
            temperature=temperature, max_tokens=max_tokens, seed=seed,
        )
        if use_cache:
            hit = self._from_cache(key, response_model, started)
            if hit is not None:
                return hit
            pending = self._inflight.get(key)
            if pending is not None:  # the same request is in flight: wait for its answer
                await pending.wait()
                hit = self._from_cache(key, response_model, started)
                if hit is not None:
                    return hit
            if self.batch is not None:   # collect mode: the request joins the next batch; the entry waits
                call_id, error = self.batch.miss(
                    key, task=task, messages=messages, response_model=response_model, temperature=temperature,
                    max_tokens=max_tokens, seed=seed, run_id=run_id, item_id=item_id, prompt_version=prompt_version)
                return CallResult(value=None, error=error, cached=False, input_tokens=0, output_tokens=0,
                                  latency_ms=0.0, attempts=0, call_id=call_id)   # its batch line failed
        done: asyncio.Event | None = None
        if use_cache and key not in self._inflight:
            done = self._inflight[key] = asyncio.Event()
        try:
            async with semaphore:
                with self._counted():
                    return await self._call(
                        key=key, task=task, messages=messages, response_model=response_model, run_id=run_id,
                        item_id=item_id, prompt_version=prompt_version, temperature=temperature,
                        max_tokens=max_tokens, seed=seed, started=started,
                    )
        finally:
            if done is not None:
                self._inflight.pop(key, None)
                done.set()

    @property
    def provider(self) -> Any:
        """The provider object the requests go to (:mod:`fbagent.providers`), e.g. for its batch API."""
        return self._adapter

    async def aclose(self) -> None:
        """Close the backend's HTTP client (or free the local model). Safe to call twice."""
        adapter, self._adapter = self._adapter, None
        if adapter is not None:
            await adapter.aclose()

    # -- internals ------------------------------------------------------------
    @contextlib.contextmanager
    def _counted(self) -> Iterator[None]:
        """Count one request in :attr:`in_flight` while it runs."""
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1

    def _limit(self) -> asyncio.Semaphore:
        """The concurrency semaphore of the running event loop (a new loop gets a new one)."""
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._loop is not loop:
            self._semaphore, self._loop = asyncio.Semaphore(self.concurrency), loop
            self._inflight = {}
        return self._semaphore

    def _from_cache(self, key: str, response_model: type[BaseModel], started: float) -> CallResult | None:
        row = llm_calls.find_cached(self.db, key)
        if row is None:
            return None
        try:
            value = response_model.model_validate_json(row.response)
        except ValidationError:
            return None  # the model's validators changed since: ask again
        self.stats.cache_hits += 1
        return CallResult(
            value=value, error=None, cached=True, input_tokens=0, output_tokens=0,
            latency_ms=(time.perf_counter() - started) * 1000.0, attempts=0, call_id=row.id,
        )

    def describe(self, exc: BaseException) -> str:
        """One line naming what went wrong (status, timeout, validation...), secrets removed."""
        return providers.describe_error(exc, provider_name=self.backend, endpoint_url=self.endpoint,
                                        timeout_s=self.timeout_s)

    @property
    def endpoint(self) -> str:
        """The server URL requests go to, without credentials or query (for error texts)."""
        return providers.endpoint(providers.provider(self.backend), getattr(self._adapter, "base_url", None))

    async def _call(
        self, *, key: str, task: str, messages: list[dict[str, str]], response_model: type[BaseModel],
        run_id: int | None, item_id: str | None, prompt_version: str | None, temperature: float,
        max_tokens: int, seed: int | None, started: float,
    ) -> CallResult:
        adapter = self._adapter
        if adapter is None:
            raise RuntimeError("LLMClient.complete called after aclose()")
        exchange = _Exchange(adapter)
        hooks = exchange.hooks()
        value: BaseModel | None = None
        error: str | None = None
        transport_errors: list[str] = []
        policy = providers.RetryPolicy(self.max_retries, self.backoff_s, self.max_backoff_s)

        def create() -> Awaitable[BaseModel]:
            return adapter.create(
                response_model=response_model, messages=messages, temperature=temperature,
                max_tokens=max_tokens, seed=seed, max_reasks=self.max_retries, hooks=hooks,
            )

        try:
            value = await providers.call_with_retries(
                create, policy, on_retry=lambda exc: transport_errors.append(self.describe(exc)),
                describe=self.describe)   # the breaker's line names the server's URL, as the stored errors do
        except (asyncio.CancelledError, ServiceDown):  # Ctrl-C, or the command's breaker tripped: no row
            raise
        except Exception as exc:  # noqa: BLE001 - every failure becomes a recorded CallResult
            error = self.describe(exc)
            truncated = _truncated_response(exc)
            if truncated is not None and id(truncated) not in exchange.seen:  # raised before the response hook
                exchange.on_response(truncated)

        latency_ms = (time.perf_counter() - started) * 1000.0
        request = exchange.request_record(
            messages, response_model, {"temperature": temperature, "max_tokens": max_tokens, "seed": seed},
            transport_errors, failed=error is not None)
        attempts = max(exchange.attempts, 1)
        response: dict[str, Any] | None = None
        if value is not None and error is None:
            response = value.model_dump(mode="json")
            if type(value) is not response_model:  # instructor's wrapper class, with the raw completion attached:
                value = response_model.model_validate(response)  # a clean object, equal to what the cache returns
        call_id = self._store(functools.partial(
            llm_calls.insert_call, self.db, held=True, run_id=run_id, item_id=item_id, task=task, backend=self.backend, model=self.model,
            cache_key=key, prompt_version=prompt_version, request=request,
            response=response,
            input_tokens=exchange.input_tokens, output_tokens=exchange.output_tokens, latency_ms=latency_ms,
            attempts=attempts, error=error,
        ))
        self._count(exchange, error)
        return CallResult(
            value=None if error is not None else value, error=error, cached=False,
            input_tokens=exchange.input_tokens, output_tokens=exchange.output_tokens,
            latency_ms=latency_ms, attempts=attempts, call_id=call_id,
        )

    def _store(self, insert: Callable[[], int]) -> int:
        """Run ``insert`` (:func:`fbagent.store.llm_calls.insert_call` of one answered request with
        ``held=True``: its row goes into the database's held group) and return the row's id; the group is
        committed at the start of the event loop's next iteration (group commit: the rows of every answer
        of one iteration share one commit; docs/generate.md, "Durability"). A write transaction, a checkpoint or closing the database commits them earlier.

        Raises ``sqlite3.Error`` when the database fails, also a failed group commit of earlier rows.
        """
        failed, self._commit_error = self._commit_error, None
        if failed is not None:
            raise failed
        conn = self.db.conn
        opened = not is_held(conn)
        call_id = insert()
        if opened and is_held(conn):
            asyncio.get_running_loop().call_soon(self._commit_held, conn)
        return call_id

    def _commit_held(self, conn: sqlite3.Connection) -> None:
        """Commit the held ``llm_calls`` rows (a no-op when something committed them already); a failure is
        raised by the next :meth:`_store`."""
        try:
            commit_held(conn)
        except sqlite3.Error as err:
            self._commit_error = err

    def _count(self, exchange: _Exchange, error: str | None) -> None:
        """Add one sent call to :attr:`stats` (tokens of every attempt; the error line when it failed)."""
        self.stats.calls += 1
        self.stats.input_tokens += exchange.input_tokens
        self.stats.output_tokens += exchange.output_tokens
        if error is not None:
            self.stats.failures += 1
            self.stats.errors[error] += 1


class Reask(TypedDict):
    """One re-ask of a structured call: the attempt, the model's (redacted) answer and the validation error."""

    attempt: int
    output: str
    error: str


class _Exchange:
    """What the hooks of one :meth:`LLMClient._call` see: HTTP attempts, tokens summed over them,
    the last answer's text and each re-ask (attempt number, redacted answer, validation error)."""

    def __init__(self, adapter: Backend) -> None:
        self.adapter = adapter
        self.attempts = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.last_text = ""
        self.seen: set[int] = set()  # ids of the responses the hooks saw
        self.reasks: list[Reask] = []

    def hooks(self) -> CallHooks:
        return CallHooks(attempt=self.on_attempt, response=self.on_response, parse_error=self.on_parse_error)

    def on_attempt(self, *_args: Any, **_kwargs: Any) -> None:
        self.attempts += 1

    def on_response(self, response: Any) -> None:
        self.seen.add(id(response))
        n_in, n_out = self.adapter.usage(response)
        self.input_tokens += n_in
        self.output_tokens += n_out
        self.last_text = self.adapter.text(response)

    def on_parse_error(self, error: Exception, *_args: Any, **_kwargs: Any) -> None:
        self.reasks.append({
            "attempt": self.attempts,
            "output": redact(self.last_text[:_MAX_OUTPUT_CHARS]),
            "error": redact(one_line(str(error))),
        })

    def request_record(self, messages: list[dict[str, str]], response_model: type[BaseModel],
                       params: dict[str, float | int | None], transport_errors: list[str], *,
                       failed: bool) -> dict[str, object]:
        """The ``llm_calls.request`` of the call: messages, model name, params, mode, public base URL,
        re-asks, transport errors and, for a failed call, the last answer unless the last re-ask holds it."""
        adapter = self.adapter
        request: dict[str, object] = {
            "messages": messages,
            "response_model": response_model.__name__,
            "params": params,
            "mode": adapter.mode,
        }
        if adapter.base_url:
            request["base_url"] = public_url(adapter.base_url)
        if self.reasks:
            request["reasks"] = self.reasks
        if transport_errors:
            request["transport_errors"] = transport_errors
        if failed and self.last_text:   # redacted only when it may be stored: a failed call's last answer
            last_output = redact(self.last_text[:_MAX_OUTPUT_CHARS])
            if not self.reasks or self.reasks[-1]["output"] != last_output:
                request["last_output"] = last_output  # e.g. the truncated answer
        return request


def _truncated_response(exc: BaseException) -> Any:
    """The response carried by an ``IncompleteOutputException`` in ``exc``'s chain (a truncated answer), or None."""
    for err in providers.exception_chain(exc):
        if type(err).__name__ == "IncompleteOutputException":
            return getattr(err, "last_completion", None)
    return None

