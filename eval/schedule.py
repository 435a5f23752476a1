"""Several models on the GPUs of one node: which model runs on which GPUs, and when (pure; no engine, no process).

``fbagent eval run --model A --model B ... --gpus 0,1,2,3`` runs every model over the same problems. Models
served by an API need no GPU and start at once; a model whose engine runs in process (vLLM, transformers,
llama.cpp) needs a **group** of GPUs of its own: its tensor-parallel size, or more where its weights do not
fit one GPU (:func:`gpus_needed`). Groups are packed by model size, largest first (the longest-processing-
time rule: the big models, which take longest, start first, and the small ones fill the GPUs that free up),
one engine per GPU: vLLM reserves a fixed fraction of a GPU's memory (``--gpu-memory-utilization``), so two
engines on one GPU would fight over it.

:func:`next_starts` is the whole policy (what to start, given the models waiting and the GPUs free);
:func:`run_schedule` drives it with any ``start(job, gpus)`` that returns a handle with ``poll()``
(a child process in ``fbagent eval run``, a fake engine in the tests).
"""

from __future__ import annotations

import math
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from fbagent.errors import FbagentError

#: weights x this = the memory a model needs on its GPUs (KV cache, activations, CUDA context)
MEMORY_OVERHEAD = 1.2
#: file names whose bytes are a model's weights
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".gguf", ".pt", ".pth")


@dataclass(frozen=True)
class GpuJob:
    """One model to place: ``key`` (its result folder's name), ``gpus`` (GPUs it needs at once, 0 for an
    API model) and ``size_bytes`` (its weights, 0 when unknown), by which groups are packed."""

    key: str
    gpus: int
    size_bytes: int = 0


class Handle(Protocol):
    """A started job: ``poll()`` is ``None`` while it runs, else its exit code."""

    def poll(self) -> int | None: ...


def parse_gpus(text: str | None, env: str | None) -> list[int]:
    """The GPU ids to use: ``--gpus`` (``"0,1,3"``) if given, else ``CUDA_VISIBLE_DEVICES`` (``env``), else
    none (``[]``: every model runs in this process, one after another). Raises :class:`FbagentError` for a
    value that is not a comma-separated list of distinct whole numbers >= 0."""
    raw = text if text is not None else (env or "")
    raw = raw.strip()
    if not raw:
        return []
    try:
        ids = [int(p) for p in raw.split(",") if p.strip()]
    except ValueError:
        ids = [-1]
    if any(i < 0 for i in ids) or len(set(ids)) != len(ids):
        source = "--gpus" if text is not None else "CUDA_VISIBLE_DEVICES"
        raise FbagentError(f"{source}={raw!r} is not a list of GPU numbers",
                           "pass --gpus 0,1,... (distinct GPU numbers as nvidia-smi lists them)")
    return ids


def weights_bytes(path: str | None) -> int:
    """Bytes of a model's weights: a file's size, or the sum over a folder's weight files
    (:data:`WEIGHT_SUFFIXES`, recursively); 0 for a name that is no local path (an API or hub model)."""
    if not path:
        return 0
    p = Path(path)
    if p.is_file():
        return p.stat().st_size
    if p.is_dir():
        return sum(f.stat().st_size for f in p.rglob("*") if f.is_file() and f.suffix in WEIGHT_SUFFIXES)
    return 0


def gpus_needed(size_bytes: int, tensor_parallel: int, gpu_bytes: int | None) -> int:
    """GPUs one engine needs: ``tensor_parallel``, raised to the next power of two that holds the weights x
    :data:`MEMORY_OVERHEAD` when ``gpu_bytes`` (memory of one GPU) is known. E.g. 30 GB of weights on
    24 GB GPUs: 36 GB / 24 GB = 1.5 -> 2 GPUs."""
    need = max(1, tensor_parallel)
    if gpu_bytes and size_bytes:
        fit = math.ceil(size_bytes * MEMORY_OVERHEAD / gpu_bytes)
        need = max(need, 1 << max(0, fit - 1).bit_length())
    return need


def gpu_memory_bytes(gpus: Sequence[int], query: Callable[[], str] | None = None) -> int | None:
    """The memory of the smallest of ``gpus``, in bytes, from ``nvidia-smi --query-gpu=index,memory.total
    --format=csv,noheader,nounits`` (lines ``"0, 81559"``, MiB; ``query`` returns that text, for tests);
    ``None`` when nvidia-smi is missing or fails or lists none of them."""
    if query is None:
        if shutil.which("nvidia-smi") is None:
            return None

        def query() -> str:
            return subprocess.run(["nvidia-smi", "--query-gpu=index,memory.total", "--format=csv,noheader,nounits"],
                                  capture_output=True, text=True, timeout=20, check=True).stdout
    try:
        rows = [line.split(",") for line in query().splitlines() if line.strip()]
        mib = {int(r[0]): int(float(r[1])) for r in rows}
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None
    sizes = [mib[g] for g in gpus if g in mib]
    return min(sizes) * 1024 * 1024 if sizes else None


def check_fits(jobs: Sequence[GpuJob], gpus: Sequence[int]) -> None:
    """Raise :class:`FbagentError` when a job needs more GPUs than there are."""
    for job in jobs:
        if job.gpus > len(gpus):
            raise FbagentError(f"{job.key} needs {job.gpus} GPUs at once but only {len(gpus)} are given",
                               "pass more GPUs (--gpus) or a smaller --tensor-parallel-size for that model")


def next_starts(waiting: Sequence[GpuJob], free: Sequence[int]) -> list[tuple[GpuJob, tuple[int, ...]]]:
    """The jobs to start now and their GPUs: every API job (``gpus == 0``, no GPU), then GPU jobs largest
    first (``size_bytes``, then GPUs needed; ties in the given order), each on the lowest-numbered free GPUs
    while enough are free. A job that does not fit now waits; a smaller one behind it may start (it does
    not delay the big one: that one waits for GPUs that only finishing jobs free)."""
    starts: list[tuple[GpuJob, tuple[int, ...]]] = [(j, ()) for j in waiting if j.gpus == 0]
    pool = sorted(free)
    order = sorted((j for j in waiting if j.gpus > 0), key=lambda j: (-j.size_bytes, -j.gpus))
    for job in order:
        if job.gpus <= len(pool):
            group, pool = tuple(pool[:job.gpus]), pool[job.gpus:]
            starts.append((job, group))
    return starts


def run_schedule(jobs: Sequence[GpuJob], gpus: Sequence[int], start: Callable[[GpuJob, tuple[int, ...]], Handle], *,
                 poll_s: float = 0.2, sleep: Callable[[float], None] = time.sleep) -> dict[str, int]:
    """Run ``jobs`` on ``gpus``: start what :func:`next_starts` says, wait until one ends, free its GPUs,
    repeat. ``start(job, group)`` launches one job on the GPU ids ``group``. Returns ``{key: exit code}``.
    Raises :class:`FbagentError` first when a job needs more GPUs than given (:func:`check_fits`)."""
    check_fits(jobs, gpus)
    waiting = list(jobs)
    free = list(gpus)
    running: list[tuple[GpuJob, tuple[int, ...], Handle]] = []
    codes: dict[str, int] = {}
    while waiting or running:
        for job, group in next_starts(waiting, free):
            waiting.remove(job)
            free = [g for g in free if g not in group]
            running.append((job, group, start(job, group)))
        still = []
        for job, group, handle in running:
            code = handle.poll()
            if code is None:
                still.append((job, group, handle))
            else:
                codes[job.key] = code
                free.extend(group)
        if len(still) == len(running):
            sleep(poll_s)
        running = still
    return codes
