"""``generate --batch``: an :class:`~fbagent.llm.client.LLMClient` whose cache misses go to a provider batch job.

Collect mode: with a :class:`BatchCollector` set on the client (``client.batch``), a request that the
``llm_calls`` cache does not hold is not sent; :meth:`BatchCollector.miss` records it as a
:class:`BatchLine` (its cache key is the line's custom id; its body is exactly the request the direct call
sends first: the provider's ``batch_body``) and raises :class:`BatchPending`, which stops the entry where it
is (its LangGraph checkpoint stays). :func:`settle` then sends every recorded line as one job of the
provider's batch API (:class:`fbagent.providers.batch_api.BatchAPI`), stores the job id in ``batch_jobs``
**before** waiting, polls it every ``FBAGENT_BATCH_POLL_S`` seconds, and writes each answer as the
``llm_calls`` row the direct call would write (validated the same way,
:func:`fbagent.providers.structured.validate_content`), so the next pass of the entries finds it in the cache.

Per line, as the direct call: a truncated answer is a failure; an answer that fails validation is re-asked
(its body gets the provider's re-ask: ``batch_reask``, the messages the direct path appends) in the next
round, at most ``client.max_retries`` times. A line that failed at the provider, or that an expired or
cancelled job did not answer, is submitted again; after :data:`ROUNDS` rounds it is stored as a failed call
and the entry's next pass gets that failure (the same command asks it again later, as a failed direct call).

Resume: the same command's first pass records the same lines (same keys); a job of the run still open
in ``batch_jobs`` that holds some of them is polled instead of submitting them again (``kill -9`` between
submit and completion pays nothing twice). Cancellation (Ctrl-C) cancels the open jobs at the provider
(their answered lines are collected by the next run) and re-raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ValidationError

from fbagent.providers import one_line, redact
from fbagent.providers.batch_api import BatchAPI, BatchStatus, poll_seconds
from fbagent.providers.structured import validate_content
from fbagent.store import batch_jobs as jobs_store
from fbagent.store import llm_calls

if TYPE_CHECKING:
    import sqlite_utils


class BatchClient(Protocol):
    """What collect mode needs of an :class:`fbagent.llm.client.LLMClient` (named here, not imported: the
    client imports this module)."""

    db: sqlite_utils.Database
    backend: str
    model: str
    max_retries: int
    stats: Any          # fbagent.llm.client.UsageStats (named, not imported: the client imports this module)

    @property
    def provider(self) -> Any: ...

    def describe(self, exc: BaseException) -> str: ...

#: submissions of one wave: the first, then the lines that failed, were not answered or are re-asked
ROUNDS = 4
NOT_ANSWERED = "batch line not answered (its job expired or was cancelled)"


class BatchPending(Exception):  # noqa: N818 - a signal, not an error: the entry waits for a batch
    """Raised by :meth:`LLMClient.complete` in collect mode for a request the cache does not hold: the entry
    stops here and goes on in the next pass, once the batch has answered."""


@dataclass
class BatchLine:
    """One request of a batch (a cache miss of one pass): what the ``llm_calls`` row needs, the body sent
    (``body``: the re-asks appended), and what its answers cost so far."""

    key: str
    task: str
    messages: list[dict[str, str]]
    response_model: type[BaseModel]
    params: dict[str, Any]
    body: dict[str, Any]
    run_id: int | None = None
    item_id: str | None = None
    prompt_version: str | None = None
    attempts: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    reasks: list[dict[str, Any]] = field(default_factory=list)
    line_errors: list[str] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)


class BatchCollector:
    """Collect mode of one client (module docstring): ``lines`` recorded in this pass (cache key -> line),
    ``failed`` (cache key -> ``(llm_calls id, error)``) lines that ended failed in this session."""

    def __init__(self, client: BatchClient, api: BatchAPI) -> None:
        self.client = client
        self.api = api
        self.lines: dict[str, BatchLine] = {}
        self.failed: dict[str, tuple[int, str]] = {}

    def miss(self, key: str, *, task: str, messages: list[dict[str, str]], response_model: type[BaseModel],
             temperature: float, max_tokens: int, seed: int | None, run_id: int | None, item_id: str | None,
             prompt_version: str | None) -> tuple[int, str]:
        """A request the cache does not hold: ``(llm_calls id, error)`` when its line failed in this session
        (the caller returns that failure), else record it and raise :class:`BatchPending`."""
        if key in self.failed:
            return self.failed[key]
        if key not in self.lines:
            body = self.client.provider.batch_body(response_model=response_model, messages=messages,
                                                   temperature=temperature, max_tokens=max_tokens, seed=seed)
            self.lines[key] = BatchLine(
                key=key, task=task, messages=messages, response_model=response_model, body=body,
                params={"temperature": temperature, "max_tokens": max_tokens, "seed": seed}, run_id=run_id,
                item_id=item_id, prompt_version=prompt_version)
        raise BatchPending(key)


@dataclass
class _Job:
    """A job this wave waits for: its ``batch_jobs`` row and the keys of its lines."""

    row: int
    job_id: str
    keys: tuple[str, ...]
    status: str = "submitted"


async def settle(collector: BatchCollector, *, run_id: int, wave: int,
                 report: Callable[[list[jobs_store.BatchJob]], None] | None = None) -> int:
    """Answer every line of ``collector.lines`` through batch jobs (module docstring); returns the lines
    answered (stored as successful ``llm_calls`` rows). ``report(jobs)`` hears the run's jobs whenever one is
    submitted or changes state. Re-raises cancellation after cancelling the open jobs."""
    client, db = collector.client, collector.client.db
    lines = collector.lines
    waiting = [_Job(j.id, j.job_id, j.keys, j.status)
               for j in jobs_store.run_jobs(db, run_id, open_only=True)
               if j.provider == collector.api.provider and j.model == client.model and set(j.keys) & lines.keys()]
    answered = 0

    def tell() -> None:
        if report is not None:
            report(jobs_store.run_jobs(db, run_id))

    if waiting:   # jobs of an earlier command (killed, or stopped by Ctrl-C) hold some lines: polled, not paid twice
        tell()
    try:
        for _ in range(ROUNDS):
            held = {k for j in waiting for k in j.keys}
            todo = [k for k in lines if k not in held]
            if todo:
                job_id = await asyncio.to_thread(collector.api.submit, {k: lines[k].body for k in todo})
                row = jobs_store.insert_job(db, run_id=run_id, provider=collector.api.provider, model=client.model,
                                            job_id=job_id, wave=wave, keys=todo)
                waiting.append(_Job(row, job_id, tuple(todo)))   # stored before waiting: a killed run polls it
                tell()
            if not waiting:
                break
            for job in waiting:
                status = await _wait(collector.api, job, db, tell)
                answers, errors = await asyncio.to_thread(collector.api.results, status)
                answered += _collect(collector, job, status, answers, errors)
                tell()
            waiting = []
            if not lines:
                break
    except (asyncio.CancelledError, KeyboardInterrupt):
        await asyncio.shield(asyncio.to_thread(_cancel, collector.api, waiting, db))
        raise
    for key in list(lines):   # still unanswered after every round: a failed call (asked again by a later run)
        line = lines.pop(key)
        _store(collector, line, None, line.line_errors[-1] if line.line_errors else NOT_ANSWERED)
    return answered


async def _wait(api: BatchAPI, job: _Job, db: sqlite_utils.Database, tell: Callable[[], None]) -> BatchStatus:
    """Poll ``job`` until it is final, recording each new state."""
    pause = poll_seconds()
    while True:
        status = await asyncio.to_thread(api.poll, job.job_id)
        if status.final:   # recorded with its counts once collected (and not cancelled on Ctrl-C)
            job.status = status.status
            return status
        if status.status != job.status:
            job.status = status.status
            jobs_store.update_job(db, job.row, status=status.status)
            tell()
        await asyncio.sleep(pause)


def _collect(collector: BatchCollector, job: _Job, status: BatchStatus, answers: dict[str, dict[str, Any]],
             errors: dict[str, str]) -> int:
    """Store the answers of a finished job; failed lines note their error and stay for the next round.
    Returns the lines answered with a valid object."""
    lines, provider = collector.lines, collector.client.provider
    ok = 0
    for key in job.keys:
        line = lines.get(key)
        if line is None:
            continue
        if key in errors:
            line.line_errors.append(redact(errors[key]))
            continue
        if key not in answers:
            continue
        answer = answers[key]
        line.attempts += 1
        line.jobs.append(job.job_id)
        n_in, n_out = provider.usage(answer)
        line.input_tokens += n_in
        line.output_tokens += n_out
        text, truncated = provider.batch_answer(answer)
        if truncated:
            _store(collector, lines.pop(key), None, collector.client.describe(provider.truncated_error(answer)),
                   last_text=text)
            continue
        try:
            value = validate_content(text, line.response_model)
        except ValidationError as exc:
            line.reasks.append({"attempt": line.attempts, "output": redact(text[:4000]),
                                "error": redact(one_line(str(exc)))})
            if len(line.reasks) > collector.client.max_retries:
                _store(collector, lines.pop(key), None, collector.client.describe(exc))
            else:   # re-asked in the next round, as instructor re-asks
                line.body = provider.batch_reask(line.body, text, exc)
            continue
        _store(collector, lines.pop(key), value, None)
        ok += 1
    jobs_store.update_job(collector.client.db, job.row, status=status.status,
                          answered=sum(1 for k in job.keys if k in answers), failed=sum(1 for k in job.keys if k in errors))
    return ok


def _store(collector: BatchCollector, line: BatchLine, value: BaseModel | None, error: str | None,
           last_text: str = "") -> None:
    """The line's ``llm_calls`` row (as the direct call writes it, with the jobs that answered it) and the
    client's counters; a failure is remembered in ``collector.failed``."""
    client = collector.client
    provider = client.provider
    request: dict[str, object] = {"messages": line.messages, "response_model": line.response_model.__name__,
                               "params": line.params, "mode": provider.mode,
                               "batch": {"provider": collector.api.provider, "jobs": line.jobs}}
    if line.reasks:
        request["reasks"] = line.reasks
    if line.line_errors:
        request["transport_errors"] = line.line_errors
    if error is not None and last_text:
        request["last_output"] = redact(last_text[:4000])
    call_id = llm_calls.insert_call(
        client.db, run_id=line.run_id, item_id=line.item_id, task=line.task, backend=client.backend,
        model=client.model, cache_key=line.key, prompt_version=line.prompt_version, request=request,
        response=None if value is None else value.model_dump(mode="json"), input_tokens=line.input_tokens,
        output_tokens=line.output_tokens, latency_ms=None,
        attempts=max(line.attempts, 1), error=error)
    stats = client.stats
    stats.calls += 1
    stats.input_tokens += line.input_tokens
    stats.output_tokens += line.output_tokens
    stats.batch_input_tokens += line.input_tokens
    stats.batch_output_tokens += line.output_tokens
    if error is not None:
        stats.failures += 1
        stats.errors[error] += 1
        collector.failed[line.key] = (call_id, error)


def _cancel(api: BatchAPI, waiting: list[_Job], db: sqlite_utils.Database) -> None:
    """Ctrl-C: ask the provider to cancel every open job (answered lines are collected on resume)."""
    for job in waiting:
        if job.status in ("completed", "expired", "failed", "cancelled"):
            continue
        try:
            api.cancel(job.job_id)
            jobs_store.update_job(db, job.row, status="cancelling")
        except Exception:  # noqa: BLE001, S110 - best effort: the next run polls the job whatever its state
            pass
