"""``fbagent eval run`` over several models: every model over the same problems and seed, one result folder each
(``OUT/<backend>-<label or model>/``, each resumable on its own), then one leaderboard.

Without several GPUs (``--gpus``, else ``CUDA_VISIBLE_DEVICES``) the models run in this process one after
another. With two or more, each model runs in a child process of its own (``multiprocessing`` spawn) under
``CUDA_VISIBLE_DEVICES`` = its GPU group, placed by :mod:`fbagent.eval.schedule` (API models at once, engines
in process largest first, one per GPU group); each child writes its lines to ``OUT/<folder>.log``. A model
that fails (its service down, every answer failed, a crash) does not stop the others; the command exits 1
after the leaderboard, naming it.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer

import fbagent.eval as evaluation
from fbagent.commands.eval_tables import print_report
from fbagent.commands.output import echo, report_console, secho
from fbagent.commands.tables import Col, print_table
from fbagent.errors import FbagentError
from fbagent.eval.runner import is_call_error, latest, read_predictions
from fbagent.eval.schedule import GpuJob, gpu_memory_bytes, gpus_needed, run_schedule, weights_bytes
from fbagent.providers import registry as provider_registry
from fbagent.providers.model_list import ModelRun
from fbagent.providers.prices import PriceTable, usd

if TYPE_CHECKING:
    from fbagent.eval.framebench import Plan, RunSettings
    from fbagent.providers.config import ModelConfig

#: backends whose engine runs in this process (they need GPUs of their own when run side by side)
IN_PROCESS = ("vllm", "transformers", "local", "llamacpp")
_PR_SET_PDEATHSIG = 1


def folders_of(runs: Sequence[ModelRun], out_root: Path) -> list[Path]:
    """Each model's result folder: ``out_root / run.folder``."""
    return [out_root / r.folder for r in runs]


def jobs_of(runs: Sequence[ModelRun], gpu_bytes: int | None = None) -> list[GpuJob]:
    """The scheduler's view of each model: GPUs it needs (0 for an API backend; for an engine in process
    :func:`fbagent.eval.schedule.gpus_needed` of its weights and tensor-parallel size) and its size."""
    jobs = []
    for r in runs:
        c = r.config
        if c.backend not in IN_PROCESS:
            jobs.append(GpuJob(r.folder, 0, 0))
            continue
        size = weights_bytes(c.model_path or c.model)
        tp = c.tensor_parallel_size if c.backend == "vllm" else 1
        jobs.append(GpuJob(r.folder, gpus_needed(size, tp, gpu_bytes) if c.backend == "vllm" else 1, size))
    return jobs


def run_models(runs: Sequence[ModelRun], settings: RunSettings, out_root: Path, gpus: Sequence[int],
               score_one: Callable[[ModelRun, RunSettings, Path], Path]) -> list[Path]:
    """Score every model of ``runs`` into ``out_root/<folder>``: in this process one after another
    (``score_one(run, settings, out)``) unless ``gpus`` holds two or more GPU ids (then side by side in child
    processes, :func:`run_side_by_side`); then print the leaderboard (:func:`print_leaderboard`). Returns the
    result folders. Exits 1 after the leaderboard when a model did not finish; Ctrl-C exits 130 with a line
    saying that each model resumes."""
    folders = folders_of(runs, out_root)
    failed: list[str] = []
    try:
        if len(gpus) > 1:
            failed = run_side_by_side(runs, settings, out_root, gpus)
        else:
            for i, (r, out) in enumerate(zip(runs, folders, strict=True), 1):
                echo(f"model {i}/{len(runs)}: {r.config.backend}:{r.config.model or r.config.model_path} -> {out}",
                     err=True)
                try:
                    score_one(r, replace(settings, label=r.label), out)
                except (FbagentError, typer.Exit) as err:
                    if isinstance(err, typer.Exit) and err.exit_code == 130:
                        raise
                    if isinstance(err, FbagentError) and err.exit_code == 2:
                        raise  # bad input: the same for every model
                    if isinstance(err, FbagentError):
                        secho(f"error: {r.folder}: {err}", err=True)
                    failed.append(r.folder)
    except KeyboardInterrupt:
        secho(f"interrupted: every model's predictions so far are stored under {out_root}; run the same "
              "command again to resume each where it stopped.", err=True)
        raise typer.Exit(130) from None
    done = [f for f in folders if (f / "manifest.json").is_file()]
    if done:
        print_leaderboard(done)
    if failed:
        secho(f"error: {len(failed)} of {len(runs)} models did not finish: {', '.join(failed)}; fix what their "
              "lines say and run the same command again (finished models are not asked again).", err=True)
        raise typer.Exit(1)
    return folders


def print_leaderboard(folders: Sequence[Path]) -> None:
    """One FrameBench table over ``folders`` (as ``fbagent eval report``), best accuracy first, with 95%
    bootstrap intervals; the caption names the conventions (std over templates, failures)."""
    results, scoring, warnings = evaluation.load_results(list(folders))
    results.sort(key=lambda r: -float((r.summary.get("accuracy") or {}).get("mean") or 0.0))
    console = report_console()
    for w in warnings:
        secho(f"warning: {w}", err=True)
    console.print(f"leaderboard: {len(results)} models (fbagent eval report {os.path.commonpath(folders)} "
                  "prints it again)", highlight=False)
    print_report(console, evaluation.tables(results, None, wide=False, scoring=scoring), wide=False)


def run_side_by_side(runs: Sequence[ModelRun], settings: RunSettings, out_root: Path,
                     gpus: Sequence[int]) -> list[str]:
    """Each model in a child process on its GPU group (:func:`fbagent.eval.schedule.run_schedule`); returns
    the folders of the models whose child did not exit 0."""
    ctx = multiprocessing.get_context("spawn")
    by_key = {r.folder: r for r in runs}
    out_root.mkdir(parents=True, exist_ok=True)
    children: list[multiprocessing.process.BaseProcess] = []

    def start(job: GpuJob, group: tuple[int, ...]) -> _Child:
        r = by_key[job.key]
        config = r.config
        if config.backend == "vllm" and len(group) > config.tensor_parallel_size:
            config = replace(config, tensor_parallel_size=len(group))
        echo(f"start {job.key} on GPU {','.join(map(str, group)) or '-'} (log: {out_root / job.key}.log)", err=True)
        p = ctx.Process(target=child_main, args=(config, replace(settings, label=r.label), out_root / job.key,
                                                 group, out_root / f"{job.key}.log"), daemon=False)
        p.start()
        children.append(p)
        return _Child(p, job.key)

    try:
        codes = run_schedule(jobs_of(runs, gpu_memory_bytes(gpus)), gpus, start)
    finally:
        for p in children:
            if p.is_alive():
                p.terminate()
            p.join()
    return [k for k, c in codes.items() if c != 0]


class _Child:
    """A child process as a :class:`fbagent.eval.schedule.Handle`; says when it ends."""

    def __init__(self, process: multiprocessing.process.BaseProcess, key: str) -> None:
        self.process, self.key = process, key

    def poll(self) -> int | None:
        code = self.process.exitcode
        if code is not None:
            echo(f"{self.key}: {'finished' if code == 0 else f'stopped (exit {code})'}", err=True)
        return code


def child_main(config: ModelConfig, settings: RunSettings, out: Path, gpus: tuple[int, ...], log: Path) -> None:
    """The body of one child process: ``CUDA_VISIBLE_DEVICES`` = ``gpus`` (empty for an API model) before any
    engine loads, killed with its parent (Linux ``PR_SET_PDEATHSIG``), its lines to ``log``; build the
    provider, score, exit 0 (1 on an error, whose line ends the log)."""
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, gpus))
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    fh = open(log, "a", encoding="utf-8")  # noqa: SIM115 - the child's stdout/stderr until it exits
    sys.stdout = sys.stderr = fh
    print(f"CUDA_VISIBLE_DEVICES={os.environ['CUDA_VISIBLE_DEVICES']}", file=fh, flush=True)
    try:
        plan = evaluation.plan_run(settings)
        be = provider_registry.create_backend(config)
        try:
            _, manifest = evaluation.run_framebench(be, settings, out, reasoning=config.reasoning,
                                                    command=sys.argv, plan=plan)
        finally:
            be.close()
        session = (manifest.get("sessions") or [{}])[-1]
        print(f"finished: {session.get('predictions')} predictions, {session.get('failed')} failed", file=fh)
        code = 1 if session.get("predictions") and session.get("failed") == session.get("predictions") else 0
    except Exception as err:  # noqa: BLE001 - the child's last line says why; the parent names the model
        print(f"error: {err}", file=fh)
        code = 1
    fh.flush()
    os._exit(code)


def dry_run(runs: Sequence[ModelRun], settings: RunSettings, plan: Plan, folders: Sequence[Path],
            prices: PriceTable) -> None:
    """``eval run --dry-run``: per model, the requests still to ask (what its result folder lacks), their
    estimated tokens (:func:`fbagent.eval.framebench.request_estimate`) and dollars: without retries, with every
    transport retry (``(1 + --llm-retries)`` x: an upper bound) and at batch prices. Loads no model, calls
    nothing, writes nothing."""
    rows = []
    for r, folder in zip(runs, folders, strict=True):
        c = r.config
        done = {p["key"] for p in latest(read_predictions(folder)) if not is_call_error(p)} if folder.is_dir() else set()
        n, tokens_in, tokens_out = evaluation.request_estimate(plan, settings, done, c.reasoning)
        price = prices.lookup(c.backend, c.model)
        cost = None if price is None else price.cost(tokens_in, tokens_out)
        tries = 1 + int(c.retries or 0)
        batch = None if price is None or price.batch_discount == 1.0 else price.cost(tokens_in, tokens_out, batch=True)
        rows.append([r.label or f"{c.backend}:{c.model or c.model_path or 'default'}", f"{n:,}", f"{tokens_in:,}", f"{tokens_out:,}",
                     usd(cost), usd(None if cost is None else cost * tries),
                     "unknown" if price is None else ("-" if batch is None else usd(batch)),
                     price.key if price else "no price: --prices FILE"])
    cols = [Col("model", wrap="path"), Col("requests", "right"), Col("tokens in", "right"), Col("tokens out", "right"),
            Col("cost", "right"), Col("all retries", "right"), Col("batch", "right"), Col("price of", wrap="words")]
    print_table(report_console(), cols, rows,
                title=f"eval run --dry-run: what is left to ask (prices of {prices.date}, US$; tokens: chars/4)")
    echo("nothing was asked or stored (dry run)")
