"""Run evaluation jobs on a backend and store every prediction (JSONL) with a run manifest.

Result folder (``--out``)::

    manifest.json      options, seed, dataset hash, backend, model, prompt versions,
                       library versions, sessions (wall time, problems/s), status
    predictions.jsonl  one JSON object per prediction (appended batch by batch)
    summary.json       metrics (see fbagent.eval.metrics), written when the run ends

Predictions are appended and flushed after every batch, so a crash or Ctrl-C
loses at most the batches in flight; rerunning the same command resumes
(predictions already stored are skipped). A call that got no answer at all
(``raw_output`` null and an ``error``: server unreachable, 401, 500 after the
retries) is asked again on resume when the task says so (``retry_failed_calls``
of :class:`ResultWriter`, on for FrameBench and frame identification); the
file stays append-only and the LAST prediction of a key counts
(:func:`latest`). A folder holding a different run (other dataset, model,
backend, seed, language, templates or reasoning settings) is refused.
``manifest.json`` and ``summary.json`` are written atomically (temp file +
rename). Each session records how many of its predictions failed and the most
common error (``sessions[-1]["failed"]``, ``["top_error"]``).

Batching and concurrency: jobs are grouped (one group per template); a
group is cut into batches of ``batch_size`` prompts (``0`` = the whole group
in one call, which vLLM wants), and up to ``concurrency`` batches are in
flight at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from fbagent.errors import FbagentError
from fbagent.files import write_atomic
from fbagent.progress.events import OnEvent, ignore
from fbagent.providers import breaker as breakers
from fbagent.providers import known_secrets, may_hold_secret, redact_value
from fbagent.providers.base import Backend, ChoiceResult, TextResult, package_version
from fbagent.providers.breaker import guarding
from fbagent.providers.prices import CostMeter
from fbagent.store.clock import utc_now

MANIFEST = "manifest.json"
PREDICTIONS = "predictions.jsonl"
T = TypeVar("T")
SUMMARY = "summary.json"


def write_json_atomic(path: Path, obj: dict) -> None:
    """Write ``obj`` as indented JSON to ``path`` via a temp file and rename; secrets redacted
    (:func:`fbagent.providers.redact_value`: command lines, URLs, error texts)."""
    write_atomic(path, [json.dumps(redact_value(obj), ensure_ascii=False, indent=2) + "\n"])


def base_versions() -> dict[str, str | None]:
    """Python, platform and core library versions for the manifest."""
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "fbagent": package_version("fbagent"),
        "numpy": package_version("numpy"),
    }


def run_on_loop(backend: Backend, coro: Coroutine[object, None, T]) -> T:
    """``asyncio.run(coro)`` under the command's circuit breaker (:mod:`fbagent.providers.breaker`: a
    service that stopped answering raises its :class:`~fbagent.providers.breaker.ServiceDown`, exit 1),
    closing the backend's per-loop resources (API clients) before the loop ends."""

    async def main() -> T:
        try:
            return await coro
        finally:
            await backend.aclose_loop()

    with guarding():
        return asyncio.run(main())


def stop_if_down() -> None:
    """Raise the command's :class:`~fbagent.providers.breaker.ServiceDown` once its breaker has tripped:
    the answers of a batch then are the breaker's refusals, not predictions to store."""
    breaker = breakers.current()
    if breaker is not None:
        breaker.check()


async def gather_or_cancel(*coros: Coroutine[object, None, object]) -> list[object]:
    """``asyncio.gather`` that cancels the others when one raises (a tripped breaker, Ctrl-C), then re-raises."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def read_predictions(folder: Path) -> list[dict]:
    """All predictions of a result folder; a truncated last line (crash mid-write) is ignored."""
    path = Path(folder) / PREDICTIONS
    if not path.exists():
        return []
    out = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as err:
            if i == len(lines) - 1:
                break
            raise FbagentError(f"{path}:{i + 1}: not valid JSON", "delete the result folder and run again") from err
    return out


def latest(records: Iterable[dict]) -> list[dict]:
    """The last record of every ``key``, in the order the keys first appeared (a retried call
    supersedes its earlier failure)."""
    by_key: dict[str, dict] = {}
    for r in records:
        by_key[r["key"]] = r
    return list(by_key.values())


def is_call_error(record: dict) -> bool:
    """True for a prediction whose call got no answer (``raw_output`` null, ``error`` set)."""
    return record.get("raw_output") is None and bool(record.get("error"))


def read_manifest(folder: Path) -> dict:
    """The manifest of a result folder. Raises :class:`FbagentError` when it is missing or unreadable."""
    path = Path(folder) / MANIFEST
    if not Path(folder).exists():
        raise FbagentError(f"result folder {folder} does not exist", "pass a folder written by `fbagent eval run` (its --out)")
    if not Path(folder).is_dir():   # a dataset, a database, a report given where a result folder goes
        raise FbagentError(f"{folder} is a file, not a result folder",
                           "pass a folder written by `fbagent eval run` (its --out)")
    if not path.is_file():
        raise FbagentError(f"{folder} has no {MANIFEST}", "pass a folder written by `fbagent eval run` (its --out)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise FbagentError(f"{path} is not valid JSON", "run the evaluation again into a fresh --out") from err


class _BackgroundFsync:
    """``os.fsync`` of one file in a worker thread, coalesced: any number of :meth:`request` calls while a
    sync runs lead to one more sync, and the event loop never waits for the disk (an fsync on a network
    file system takes milliseconds). Written lines are flushed by the caller, so a killed process loses
    nothing; the syncs bound what a power cut can lose. :meth:`close` syncs a last time and stops."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._wanted = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="fbagent-fsync", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            self._wanted.clear()
            if self._stopping:
                return
            os.fsync(self._fd)

    def request(self) -> None:
        self._wanted.set()

    def close(self) -> None:
        self._stopping = True
        self._wanted.set()
        self._thread.join()
        os.fsync(self._fd)


def check_result_folder(out_dir: Path) -> Path:
    """``out_dir`` if it can be a result folder: an existing folder, or a missing one whose nearest
    existing ancestor is a folder. Raises :class:`FbagentError` when it (or a parent) is a file."""
    out_dir = Path(out_dir)
    for p in (out_dir, *out_dir.parents):
        if p.exists() or p.is_symlink():
            if not p.is_dir():
                where = "is" if p == out_dir else f"lies under {p}, which is"
                raise FbagentError(f"result folder {out_dir} {where} an existing file, not a folder",
                                   "pass a new or existing folder as the result folder (--out)")
            break
    return out_dir


class ResultWriter:
    """The result folder of one run: manifest, appended predictions, summary.

    ``manifest["identity"]`` must match an existing folder's identity to
    resume in it; otherwise :class:`FbagentError`. ``retry_failed_calls``:
    keys whose latest prediction is a call error (:func:`is_call_error`) are
    not in :attr:`done`, so they are asked again. :attr:`failed` and
    :attr:`errors` count this session's failed predictions (``error`` set).
    """

    def __init__(self, out_dir: Path, manifest: dict, *, retry_failed_calls: bool = False,
                 meter: CostMeter | None = None, on_event: OnEvent | None = None) -> None:
        self.out_dir = check_result_folder(out_dir)
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise FbagentError(f"cannot create result folder {self.out_dir} ({err.strerror})",
                               "pass a result folder (--out) in a place you can write to") from err
        self.manifest_path = self.out_dir / MANIFEST
        self.pred_path = self.out_dir / PREDICTIONS
        existing = None
        if self.manifest_path.exists():
            existing = read_manifest(self.out_dir)
            if existing.get("identity") != manifest.get("identity"):
                diff = sorted(k for k in set(existing.get("identity", {})) | set(manifest["identity"])
                              if existing.get("identity", {}).get(k) != manifest["identity"].get(k))
                raise FbagentError(
                    f"{self.out_dir} holds results of another run (differs in: {', '.join(diff)})",
                    "pass another --out folder, or delete that one",
                )
        self.records = read_predictions(self.out_dir)
        self._repair_truncated_tail()
        self.done = {r["key"] for r in latest(self.records) if not (retry_failed_calls and is_call_error(r))}
        #: ``--max-cost``: every stored prediction's tokens were paid for, earlier sessions' too
        self.meter = meter
        #: the run's progress events (a solver's notes, e.g. the pending batch jobs; default: dropped)
        self.on_event: OnEvent = on_event or ignore
        if meter is not None:
            for r in self.records:
                meter.add(r.get("input_tokens"), r.get("output_tokens"), batch=bool(r.get("batch")))
        self.manifest = {**(existing or {}), **manifest,
                         "created_at": (existing or {}).get("created_at", utc_now()),
                         "sessions": list((existing or {}).get("sessions", []))}
        self.manifest["status"] = "running"
        self.manifest["updated_at"] = utc_now()
        write_json_atomic(self.manifest_path, self.manifest)
        self._fh = self.pred_path.open("a", encoding="utf-8")
        self._fsync = _BackgroundFsync(self._fh.fileno())
        self.written = 0
        self.failed = 0
        self.call_errors = 0  # failed calls that got no answer at all (asked again on resume)
        self.errors: Counter[str] = Counter()
        self._t0 = time.perf_counter()

    def _repair_truncated_tail(self) -> None:
        """Rewrite predictions.jsonl without a half-written last line (atomic)."""
        if not self.pred_path.exists():
            return
        text = self.pred_path.read_text(encoding="utf-8")
        if text and not text.endswith("\n"):
            write_atomic(self.pred_path, (json.dumps(r, ensure_ascii=False) + "\n" for r in self.records))

    def write(self, records: Sequence[dict]) -> None:
        """Append ``records`` (each with a unique ``key``; secrets redacted), flush them to the OS and ask for
        an fsync in the background (:class:`_BackgroundFsync`; :meth:`finish` waits for the last one)."""
        secrets = known_secrets()
        redacted = []
        for r in records:
            line = json.dumps(r, ensure_ascii=False)
            if may_hold_secret(line, secrets):  # else redact_value would return r unchanged
                r = redact_value(r, secrets)
                line = json.dumps(r, ensure_ascii=False)
            redacted.append(r)
            self._fh.write(line + "\n")
            self.done.add(r["key"])
            if self.meter is not None:
                self.meter.add(r.get("input_tokens"), r.get("output_tokens"), batch=bool(r.get("batch")))
            if r.get("error"):
                self.failed += 1
                self.call_errors += is_call_error(r)
                self.errors[str(r["error"])] += 1
        self._fh.flush()
        self._fsync.request()
        self.records.extend(redacted)
        self.written += len(redacted)

    def finish(self, summary: dict | None, status: str = "finished") -> dict:
        """Sync and close the predictions file, record this session (wall time, problems/s), write summary and
        manifest."""
        self._fh.flush()
        self._fsync.close()
        self._fh.close()
        wall = time.perf_counter() - self._t0
        top = self.errors.most_common(1)
        self.manifest["sessions"].append({
            "ended_at": utc_now(), "wall_s": round(wall, 3), "predictions": self.written,
            "problems_per_s": round(self.written / wall, 4) if wall > 0 and self.written else None,
            "failed": self.failed, "call_errors": self.call_errors, "top_error": top[0][0] if top else None,
            "top_error_count": top[0][1] if top else 0,
        })
        self.manifest["status"] = status
        self.manifest["updated_at"] = utc_now()
        self.manifest["n_predictions"] = len(latest(self.records))
        if summary is not None:
            write_json_atomic(self.out_dir / SUMMARY, summary)
        write_json_atomic(self.manifest_path, self.manifest)
        return self.manifest


@dataclass
class ChoiceJob:
    """One constrained question: ``key`` (unique in the run), ``group`` (template), prompt, options,
    and ``make_record(result) -> dict`` building the stored prediction."""

    key: str
    group: str
    prompt: str
    choices: tuple[str, ...]
    make_record: Callable[[ChoiceResult], dict]


def _chunks(items: list, size: int) -> list[list]:
    if size <= 0:
        return [items] if items else []
    return [items[i:i + size] for i in range(0, len(items), size)]


async def run_choice_jobs(backend: Backend, jobs: Sequence[ChoiceJob], writer: ResultWriter, *,
                          batch_size: int | None = None, concurrency: int | None = None,
                          on_progress: Callable[[int], None] | None = None) -> int:
    """Answer every job not yet in ``writer.done``; returns the number answered now.

    Batches of ``batch_size`` (default: the backend's; 0 = whole group) run with
    up to ``concurrency`` in flight (default: the backend's). Groups run one
    after the other when the backend says so (``groups_in_turn``: batch
    engines); for request-per-prompt backends (APIs) all groups share the
    slots, so no slot waits at the end of a group.
    """
    size = backend.default_batch_size if batch_size is None else batch_size
    backend.requested_batch_size = batch_size
    sem = asyncio.Semaphore(max(1, concurrency or backend.default_concurrency))
    todo = [j for j in jobs if j.key not in writer.done]
    groups: dict[str, list[ChoiceJob]] = {}
    for j in todo:
        groups.setdefault(j.group, []).append(j)
    meter = writer.meter
    capped = 0

    async def run(batch: list[ChoiceJob]) -> None:
        nonlocal capped
        async with sem:
            if meter is not None and meter.over:   # --max-cost spent: start nothing new; those in flight end
                capped += len(batch)
                return
            stop_if_down()
            results = await backend.choose_batch([j.prompt for j in batch], batch[0].choices)
        stop_if_down()
        writer.write([j.make_record(r) for j, r in zip(batch, results, strict=True)])
        if on_progress:
            on_progress(len(batch))

    def batches(group_jobs: list[ChoiceJob]) -> list[list[ChoiceJob]]:
        by_choices: dict[tuple[str, ...], list[ChoiceJob]] = {}
        for j in group_jobs:
            by_choices.setdefault(j.choices, []).append(j)
        return [b for js in by_choices.values() for b in _chunks(js, size)]

    if backend.groups_in_turn:
        for group_jobs in groups.values():
            await gather_or_cancel(*(run(b) for b in batches(group_jobs)))
    else:
        await gather_or_cancel(*(run(b) for group_jobs in groups.values() for b in batches(group_jobs)))
    if capped and meter is not None:
        raise meter.stop(f"{capped} questions not asked")
    return len(todo) - capped


async def generate_all(backend: Backend, prompts: Sequence[str], *, max_new_tokens: int, stop: Sequence[str],
                       batch_size: int | None = None, concurrency: int | None = None,
                       on_progress: Callable[[int], None] | None = None) -> list[TextResult]:
    """Free generation for ``prompts`` in batches (order kept); see :func:`run_choice_jobs` for batching."""
    size = backend.default_batch_size if batch_size is None else batch_size
    backend.requested_batch_size = batch_size
    sem = asyncio.Semaphore(max(1, concurrency or backend.default_concurrency))
    prompts = list(prompts)
    idx_batches = _chunks(list(range(len(prompts))), size)
    results: list[TextResult | None] = [None] * len(prompts)

    async def run(idx: list[int]) -> None:
        async with sem:
            stop_if_down()
            out = await backend.generate_batch([prompts[i] for i in idx], max_new_tokens, stop)
        stop_if_down()
        for i, r in zip(idx, out, strict=True):
            results[i] = r
        if on_progress:
            on_progress(len(idx))

    await gather_or_cancel(*(run(b) for b in idx_batches))
    return [r for r in results if r is not None]


MAX_STORED_CHARS = 20_000   # of a raw answer or its thinking in predictions.jsonl (a 100 MB answer is not kept)


def stored_text(text: str | None, limit: int = MAX_STORED_CHARS) -> str | None:
    """``text`` as stored: cut at ``limit`` characters, with a note of how many more there were."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters not stored]"


def choice_fields(r: ChoiceResult) -> dict:
    """The stored fields every constrained prediction carries (raw output, tokens, latency, thinking); the
    texts are cut at :data:`MAX_STORED_CHARS` (the choice was read from the whole answer before)."""
    return {
        "raw_output": stored_text(r.raw), "choice": r.choice, "error": r.error,
        "input_tokens": r.input_tokens, "output_tokens": r.output_tokens,
        "thinking_tokens": r.thinking_tokens, "thinking_chars": len(r.thinking or ""),
        "thinking": stored_text(r.thinking) or None, "budget_exhausted": r.budget_exhausted,
        "latency_ms": None if r.latency_ms is None else round(r.latency_ms, 3), "batch_size": r.batch_size,
        "option_probs": r.option_probs,
    }
