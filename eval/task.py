"""An evaluation as data, run by one runner (the shape of inspect_ai's ``Task`` and ``eval``).

An :class:`EvalTask` says WHAT a task is: its manifest (with the ``identity`` that decides resume),
how to predict (``solve``: answer what is not stored yet, appending predictions), how many units the
progress counts (``units``), and how to score and summarise the stored predictions (``score``).
:func:`run_task` does the rest the same way for FrameBench (:mod:`.framebench`), frame identification
(:mod:`.frame_id`) and SemBench (:mod:`.sembench`): it opens the result folder
(:class:`fbagent.eval.runner.ResultWriter`: manifest, appended and fsync'd ``predictions.jsonl``,
resume, refusal of another run's folder), reports progress as events of :mod:`fbagent.progress.events`,
and finishes the folder (session record, ``summary.json``, manifest status) however the run ends.
:func:`choice_task` builds the task of a list of constrained questions (:class:`~fbagent.eval.runner.ChoiceJob`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path

from fbagent.eval.runner import ChoiceJob, ResultWriter, latest, run_choice_jobs, run_on_loop
from fbagent.progress.events import Finished, OnEvent, Progress, Started, Stopped, ignore
from fbagent.providers.base import Backend
from fbagent.providers.breaker import ServiceDown
from fbagent.providers.prices import CostCapReached, CostMeter

#: ``solve(backend, writer, advance)``: answer what ``writer.done`` lacks, ``writer.write`` the predictions,
#: ``advance(n)`` after every ``n`` units finished
Solver = Callable[[Backend, ResultWriter, Callable[[int], None]], Coroutine[object, None, object]]


@dataclass
class EvalTask:
    """One evaluation run as data.

    ``name``: the manifest's ``task``; ``manifest``: what the run records, with ``identity``;
    ``solve``: how to predict (:data:`Solver`); ``units(done_keys) -> (total, already_done)``: what the
    progress counts, given the keys already stored; ``score(records) -> summary``: the summary of
    ``summary.json`` from every stored prediction (``predictions.jsonl`` in order, a retried key more
    than once); ``retry_failed_calls``: predictions whose call got no answer are asked again on resume.
    """

    name: str
    manifest: dict
    solve: Solver
    units: Callable[[set[str]], tuple[int, int]]
    score: Callable[[list[dict]], dict]
    retry_failed_calls: bool = False


def run_task(backend: Backend, task: EvalTask, out_dir: Path, *, on_event: OnEvent | None = None,
             meter: CostMeter | None = None) -> tuple[dict | None, dict]:
    """Run (or resume) ``task`` on ``backend`` into ``out_dir``; returns ``(summary, manifest)``.

    Events: ``Started(total, done, label=task.name)``, ``Progress`` after every batch, ``Stopped``, then
    ``Finished({"summary", "manifest"})`` when the run finished. ``summary`` is ``None`` when the run is
    interrupted (the exception propagates after the folder is finished as ``interrupted``). Raises
    :class:`fbagent.errors.FbagentError` for an ``out_dir`` that holds another run or cannot be written.
    ``meter``: ``--max-cost`` (:class:`~fbagent.providers.prices.CostMeter`): it counts the tokens of every
    stored prediction; once spent, no new request starts, those in flight are stored, and
    :class:`~fbagent.providers.prices.CostCapReached` (exit 1) says what is stored.
    """
    emit = on_event or ignore
    writer = ResultWriter(out_dir, task.manifest, retry_failed_calls=task.retry_failed_calls, meter=meter,
                          on_event=emit)
    total, done = task.units(writer.done)
    emit(Started(total=total, done=done, label=task.name))

    def advance(n: int) -> None:
        nonlocal done
        done += n
        emit(Progress(done=done, total=total))

    status, summary, before = "interrupted", None, done
    try:
        try:
            run_on_loop(backend, task.solve(backend, writer, advance))
        except (ServiceDown, CostCapReached) as down:   # the service stopped answering or the money is spent
            raise type(down)(f"{down.problem}; stopped: {done - before} new predictions of this session are stored "
                             f"({done} of {total} in {out_dir})", down.fix) from down
        status = "finished"
        summary = task.score(writer.records)
    finally:
        manifest = writer.finish(summary, status=status)
        emit(Stopped())
    emit(Finished({"summary": summary, "manifest": manifest}))
    return summary, manifest


def choice_task(name: str, manifest: dict, jobs: Sequence[ChoiceJob], score: Callable[[list[dict]], dict], *,
                batch_size: int | None = None, concurrency: int | None = None) -> EvalTask:
    """The task of constrained questions ``jobs``: solved by :func:`~fbagent.eval.runner.run_choice_jobs`
    (batching and concurrency as there), one unit per job, ``score`` given the latest prediction of each
    job's key (a retried call supersedes its failure); failed calls are asked again on resume."""
    wanted = {j.key for j in jobs}

    def solve(backend: Backend, writer: ResultWriter, advance: Callable[[int], None]) -> Coroutine[object, object, int]:
        return run_choice_jobs(backend, jobs, writer, batch_size=batch_size, concurrency=concurrency,
                               on_progress=advance)

    return EvalTask(
        name=name, manifest=manifest, solve=solve,
        units=lambda done: (len(jobs), sum(1 for j in jobs if j.key in done)),
        score=lambda records: score([r for r in latest(records) if r["key"] in wanted]),
        retry_failed_calls=True,
    )
