"""``eval run --batch``: the questions of a run as provider batch jobs (OpenAI Batch, Gemini batch mode: half the
price, within 24 hours; :class:`fbagent.providers.batch_api.BatchAPI`).

The requests are the ones the direct run sends (the backend's ``choice_body``:
:meth:`fbagent.providers.openai.OpenAIBackend.choice_body`, :meth:`fbagent.providers.gemini.GeminiBackend.choice_body`),
and each answer is read the same way (the backend's ``choice_of``), so the
predictions equal a direct run's. Each round submits every question the result folder lacks and no job
holds yet, stores the job id in ``OUT/batch_jobs.json`` **before** waiting for it, polls it every
``FBAGENT_BATCH_POLL_S`` seconds (default 30) until it ends, and appends its answers. Lines that failed
or that an expired / cancelled job never answered are submitted again in the next round (at most
:data:`ROUNDS` rounds; what is still unanswered then is stored as a failed call, asked again on resume).

``--max-cost``: no job is submitted once the stored predictions' tokens reach the cap (a batch-answered
prediction, marked ``"batch": true``, counted at the provider's batch price, as it is billed). Resume: the same command reads ``batch_jobs.json`` and polls the jobs still open instead of submitting
their questions again (after ``kill -9`` between submit and completion nothing is paid twice). Ctrl-C
cancels the open jobs at the provider (their answered lines are collected on resume) and exits 130.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.eval.runner import ChoiceJob, ResultWriter, write_json_atomic
from fbagent.eval.task import EvalTask, choice_task
from fbagent.generation.events import BatchJobs
from fbagent.providers.base import Backend, ChoiceResult
from fbagent.providers.batch_api import ENV_POLL, POLL_S, BatchAPI, BatchStatus, poll_seconds
from fbagent.store.batch_jobs import BatchJob
from fbagent.store.clock import utc_now

__all__ = ["ENV_POLL", "POLL_S", "ROUNDS", "batch_choice_task", "job_row", "poll_seconds", "read_jobs", "run_batches"]

JOBS_FILE = "batch_jobs.json"
#: submissions per session: the first, then resubmissions of failed or unanswered lines
ROUNDS = 3


def read_jobs(out_dir: Path) -> list[dict[str, Any]]:
    """The jobs of ``OUT/batch_jobs.json``: ``[{"id", "keys", "status", ...}]`` (``[]`` before the first)."""
    path = Path(out_dir) / JOBS_FILE
    return list(json.loads(path.read_text(encoding="utf-8")).get("jobs") or []) if path.is_file() else []


def batch_choice_task(name: str, manifest: dict, jobs: Sequence[ChoiceJob], score: Callable[[list[dict]], dict],
                      client: Callable[[Backend], BatchAPI] | None = None) -> EvalTask:
    """:func:`fbagent.eval.task.choice_task` whose questions go through batch jobs (see the module
    docstring). ``client(backend)``: the batch client (default: the backend's ``batch_api()``)."""
    task = choice_task(name, manifest, jobs, score)

    def solve(backend: Backend, writer: ResultWriter, advance: Callable[[int], None]) -> Any:
        batches = (client or _client)(backend)
        return run_batches(backend, batches, jobs, writer, advance)

    task.solve = solve
    return task


def _client(backend: Backend) -> BatchAPI:
    """The backend's batch API (``batch_api()``). Raises :class:`FbagentError` when it has none here."""
    make = getattr(backend, "batch_api", None)
    api = make() if make is not None else None
    if api is None:
        raise FbagentError(f"--batch: the {backend.name} backend has no batch API here (several --base-url, or "
                           "FBAGENT_OPENAI_MODE / FBAGENT_OPENAI_TRANSPORT set)",
                           "leave --batch out, or use one --base-url and the default transport")
    return api


async def run_batches(backend: Any, batches: BatchAPI, jobs: Sequence[ChoiceJob], writer: ResultWriter,
                      advance: Callable[[int], None]) -> int:
    """Rounds of submit, store the id, poll, collect (module docstring); returns the predictions written."""
    by_key = {j.key: j for j in jobs}
    state = read_jobs(writer.out_dir)
    written = 0

    def tell() -> None:   # the progress view's "waiting for 1 batch job: ..." line, as generate --batch prints it
        writer.on_event(BatchJobs(tuple(job_row(batches.provider, backend.model, state, i) for i in range(len(state)))))

    def changed() -> None:   # a job's new state: stored, then shown
        _save(writer.out_dir, state)
        tell()
    last_errors: dict[str, str] = {}
    try:
        for _ in range(ROUNDS):
            open_jobs = [s for s in state if s["status"] not in ("completed", "expired", "failed", "cancelled")]
            held = {k for s in open_jobs for k in s["keys"]}
            todo = [j for j in jobs if j.key not in writer.done and j.key not in held]
            if todo and writer.meter is not None and writer.meter.over:   # --max-cost: submit nothing more
                raise writer.meter.stop(f"{len(todo)} questions not submitted")
            if todo:
                requests = {j.key: backend.choice_body(j.prompt, j.choices) for j in todo}
                bid = await asyncio.to_thread(batches.submit, requests)
                entry: dict[str, Any] = {"id": bid, "keys": [j.key for j in todo], "status": "submitted",
                                         "submitted_at": utc_now()}
                state.append(entry)
                _save(writer.out_dir, state)   # before waiting: a killed run polls this job, never pays twice
                open_jobs.append(entry)
            if not open_jobs:
                break
            tell()
            last_errors = {}
            for entry in open_jobs:
                status = await _wait(batches, entry, changed)
                answers, errors = await asyncio.to_thread(batches.results, status)
                records = [{**by_key[k].make_record(backend.choice_of(answers[k], by_key[k].choices)), "batch": True}
                           for k in entry["keys"] if k in answers and k in by_key and k not in writer.done]
                writer.write(records)
                advance(len(records))
                written += len(records)
                last_errors.update({k: e for k, e in errors.items() if k in by_key})
                entry.update(status=status.status, answered=len(records), failed=len(errors))
                _save(writer.out_dir, state)
                tell()
    except (asyncio.CancelledError, KeyboardInterrupt):
        await asyncio.shield(asyncio.to_thread(_cancel_open, batches, state, writer.out_dir))
        raise
    left = [j for j in jobs if j.key not in writer.done]
    if left:   # still unanswered after every round: failed calls, asked again on resume
        writer.write([j.make_record(ChoiceResult(raw=None, choice=None, error=last_errors.get(
            j.key, "batch line not answered (job expired or cancelled)"))) for j in left])
        advance(len(left))
    return written + len(left)


async def _wait(batches: BatchAPI, entry: dict[str, Any], changed: Callable[[], object]) -> BatchStatus:
    """Poll the job of ``entry`` until it is final; each new state is put in ``entry`` and ``changed()`` called."""
    pause = poll_seconds()
    while True:
        status = await asyncio.to_thread(batches.poll, entry["id"])
        if status.final:
            return status
        if status.status != entry["status"]:
            entry["status"] = status.status
            changed()
        await asyncio.sleep(pause)


def job_row(provider: str, model: str, state: Sequence[dict[str, Any]], index: int) -> BatchJob:
    """Job ``index`` of ``OUT/batch_jobs.json`` (``state``) as a :class:`~fbagent.store.batch_jobs.BatchJob`
    (what ``generate --batch`` shows): ``wave`` is its submission's number (1 = the first, 2 = the first
    resubmission...), its age counted from ``submitted_at`` (jobs of files written before it was recorded:
    from now)."""
    entry = state[index]
    submitted = str(entry.get("submitted_at") or utc_now())
    return BatchJob(id=index + 1, run_id=None, provider=provider, model=model, job_id=str(entry["id"]),
                    wave=index + 1, keys=tuple(entry["keys"]), status=str(entry["status"]),
                    answered=int(entry.get("answered") or 0), failed=int(entry.get("failed") or 0),
                    submitted_at=submitted, updated_at=submitted)


def _save(out_dir: Path, state: list[dict[str, Any]]) -> None:
    write_json_atomic(Path(out_dir) / JOBS_FILE, {"jobs": state})


def _cancel_open(batches: BatchAPI, state: list[dict[str, Any]], out_dir: Path) -> None:
    """Ctrl-C: ask the provider to cancel every open job (answered lines are collected on resume)."""
    for entry in state:
        if entry["status"] in ("submitted", "in_progress", "validating", "finalizing"):
            try:
                batches.cancel(entry["id"])
                entry["status"] = "cancelling"
            except Exception:  # noqa: BLE001, S110 - best effort: resume polls the job whatever its state
                pass
    _save(out_dir, state)
