"""What :func:`fbagent.generation.generate` reports: typed events while it runs, and its summary.

The library prints nothing. A caller passes ``on_event`` (one callable taking any
:data:`GenerationEvent`) and renders what it wants; ``fbagent generate`` renders
them with the CLI's one renderer (``fbagent/commands/progress_view.py``, set up by
``fbagent/commands/generate_view.py``). Every event is one of the four kinds of
:mod:`fbagent.progress.events`: the notes (``LexiconNote``, ``SelectionChosen``,
``ScreeningDone``, ``Resuming``, ``NothingToDo``, ``EntryError``, ``RunWarning``, ``BatchJobs``) carry
their own lines (``lines()``), ``EntriesStarted`` / :class:`Progress` / ``EntriesStopped``
are the entry phase, ``PlanMade`` and ``SessionEnded`` are summaries. Events arrive in this order:
``LexiconNote``*, then either ``PlanMade`` + ``RunWarning``* (dry run) or
[``SelectionChosen``] [``ScreeningDone``] [``Resuming`` | ``NothingToDo``]
[``EntriesStarted`` (``Progress`` | ``EntryError``)* ``EntriesStopped``] ``SessionEnded``;
``RunWarning`` may come at any point; with ``--batch`` the entry phase repeats once per wave, each followed
by ``BatchJobs`` notes while its jobs run. ``SessionEnded`` also comes after an
interruption (Ctrl-C), when :func:`generate` re-raises instead of returning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from fbagent.progress import events as protocol
from fbagent.store.batch_jobs import BatchJob, age_text
from fbagent.store.items import STATUSES


@dataclass
class GenerationSummary:
    """What one ``generate`` invocation did (returned to the CLI, tests and the benchmark).

    ``counts``: entries finished in this session by status; ``run_counts``: the whole
    run's items by status; ``calls``/``cache_hits``/``failures``/tokens: this session's
    LLM usage; ``wall_s``/``entries_wall_s``: seconds (the whole call; the entry phase
    only); ``status``: ``finished`` | ``interrupted`` | ``error`` (``None`` for a dry run).
    """

    run_name: str
    run_id: int | None
    db_path: str
    entries_total: int = 0
    entries_skipped: int = 0          # already finished before this session
    calls_before: int = 0             # LLM calls of this run stored before this session (a resumed run)
    entries_done: int = 0             # finished in this session
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    run_counts: dict[str, int] = field(default_factory=dict)
    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    wall_s: float = 0.0
    entries_wall_s: float = 0.0       # wall time of the entry phase only (no start-up, no selection)
    interrupted: bool = False
    dry_run: bool = False
    plan: dict[str, Any] | None = None
    lexicon_imported: bool = False
    selection: dict[str, Any] | None = None
    status: str | None = None
    # set when every new LLM call of the session failed, or every entry of the session failed: one line
    # naming the most common error and the fix (the CLI prints it and exits 1; stored data stays)
    session_failed: str | None = None
    batch_waves: int = 0              # --batch: waves of batch jobs this session sent or waited for


@dataclass(frozen=True)
class LexiconNote(protocol.Message):
    """A note of the lexicon lookup, e.g. that the embedded sample lexicon was imported."""


@dataclass(frozen=True)
class SelectionChosen(protocol.Note):
    """The run got its frame-pair selection: a stored one reused, or a new one made.

    ``reason`` says why (see ``docs/generate.md``, "Which selection a run uses"):
    for a reused selection who made it, for a new one why none was reused.
    ``pairs``: selected pairs; ``requested``: ``--pairs``; ``candidates``: candidate
    pairs of the lexicon (``None`` when the stored selection has no counts).
    """

    selection_id: int
    reused: bool
    reason: str
    pairs: int
    requested: int
    candidates: int | None = None

    def lines(self) -> list[str]:
        """``Using selection 3 made by `pairs select` ...`` or ``Making selection 4 because ...``: one line."""
        if self.reused:
            msg = f"Using selection {self.selection_id} {self.reason}: {self.pairs} frame pairs"
        else:
            msg = f"Making selection {self.selection_id} because {self.reason}: selected {self.pairs} frame pairs"
            if self.candidates is not None:
                msg += f" from {self.candidates:,} candidates"
        if self.pairs < self.requested:
            msg += f" (asked for {self.requested}: fewer eligible pairs are available)"
        return [msg + "."]


@dataclass(frozen=True)
class ScreeningDone(protocol.Note):
    """LLM screening of the run's selection finished.

    ``checked``: pairs the LLM was asked about; ``screened_out``: the rejected pairs
    (``frame_pairs`` rows with ``reason``); ``failed``: pairs kept because their
    screening call failed; ``selected``: pairs selected now.
    """

    checked: int
    screened_out: list[dict[str, Any]]
    failed: int
    selected: int

    def lines(self) -> list[str]:
        """``Screening: N pair(s) checked by the LLM, M screened out ...; P pairs selected.``, then one line
        per pair screened out."""
        msg = f"Screening: {self.checked} pair(s) checked by the LLM, {len(self.screened_out)} screened out"
        if self.screened_out:
            msg += " and replaced from the seeded reserve"
        if self.failed:
            msg += f", {self.failed} kept because the screening call failed"
        return [msg + f"; {self.selected} pairs selected.",
                *(f"  screened out: {p['verb']} {p['frame_a']} / {p['frame_b']}: {p['reason']}"
                  for p in self.screened_out)]


@dataclass(frozen=True)
class Resuming(protocol.Note):
    """The run existed: ``finished`` of its ``total`` entries were finished before this session and are
    skipped, and ``calls_before`` of its LLM calls were stored before (an interrupted entry continues from
    its checkpoint; a request made again is answered from the stored calls at no cost)."""

    run_name: str
    finished: int
    total: int
    calls_before: int = 0
    highlight: ClassVar[bool] = True

    @property
    def bold(self) -> str:
        return self.run_name

    def lines(self) -> list[str]:
        calls = (f"; {self.calls_before:,} LLM call{'' if self.calls_before == 1 else 's'} stored before "
                 "(an interrupted entry continues from its checkpoint; a repeated request costs nothing)"
                 if self.calls_before else "")
        return [f"Resuming run {self.run_name}: {self.finished:,} of {self.total:,} entries finished before, "
                f"skipped{calls}."]


@dataclass(frozen=True)
class NothingToDo(protocol.Note):
    """Every one of the run's ``total`` entries is already finished: no model is loaded, nothing is called."""

    run_name: str
    total: int
    highlight: ClassVar[bool] = True

    @property
    def bold(self) -> str:
        return self.run_name

    def lines(self) -> list[str]:
        return [f"Run {self.run_name}: all {self.total} entries already finished; nothing to do."]


@dataclass(frozen=True)
class EntriesStarted(protocol.Started):
    """The entry phase starts with ``total`` entries to generate in this session (``done`` 0: the
    entries finished before are not counted in ``total``)."""


@dataclass(frozen=True)
class Progress(protocol.Progress):
    """A snapshot of the entry phase (after every finished entry and twice a second).

    ``done`` of ``total`` entries of this session; ``counts`` by status; ``calls``,
    ``tokens`` (input + output) and ``cache_hits`` of this session's LLM clients; ``in_flight``:
    their requests sent and not answered yet (a slow local model shows work before its first answer).
    """

    counts: dict[str, int]
    calls: int
    tokens: int
    cache_hits: int
    in_flight: int = 0


@dataclass(frozen=True)
class EntryError(protocol.Note):
    """An entry hit an internal error (a bug); it is stored as ``failed`` with ``error`` as its reason."""

    item_id: str
    error: str
    level: ClassVar[str] = "error"
    highlight: ClassVar[bool] = True

    def lines(self) -> list[str]:
        return [f"entry {self.item_id}: {self.error}"]


@dataclass(frozen=True)
class EntriesStopped(protocol.Stopped):
    """The entry phase ended (finished, interrupted or failed)."""


@dataclass(frozen=True)
class PlanMade(protocol.Summary):
    """The dry-run plan (the dict of :func:`fbagent.generation.plan.build_plan`); ``data`` is ``plan``."""

    plan: dict[str, Any]

    @property
    def data(self) -> dict[str, Any]:
        return self.plan


@dataclass(frozen=True)
class RunWarning(protocol.Message):
    """Something the user should know that does not stop the run (e.g. a missing key in a dry run)."""

    level: ClassVar[str] = "warning"


@dataclass(frozen=True)
class SessionEnded(protocol.Summary):
    """The session ended (finished or interrupted) and was recorded; ``summary`` (= ``data``) is final."""

    summary: GenerationSummary

    @property
    def data(self) -> GenerationSummary:
        return self.summary


@dataclass(frozen=True)
class BatchJobs(protocol.Note):
    """The run's batch jobs after one was submitted or changed state: one line per job that is still
    open (job id, provider, lines, state, age), and the wave it belongs to."""

    jobs: tuple[BatchJob, ...]

    def lines(self) -> list[str]:
        open_jobs = [j for j in self.jobs if j.open]
        if not open_jobs:
            done = self.jobs[-1] if self.jobs else None
            return [f"batch job {done.job_id}: {done.status}, {done.answered} of {done.lines} lines answered"
                    if done else "no batch job"]
        return [f"waiting for {len(open_jobs)} batch job{'s' if len(open_jobs) != 1 else ''}: "
                + "; ".join(job_line(j) for j in open_jobs)]


def job_line(job: BatchJob) -> str:
    """``batch_1 (openai gpt-4o-mini, wave 2, 24 lines): in_progress, 3 min`` for one job."""
    return (f"{job.job_id} ({job.provider} {job.model}, wave {job.wave}, {job.lines} lines): {job.status}, "
            f"{age_text(job.age_s())}")


GenerationEvent = (LexiconNote | SelectionChosen | ScreeningDone | Resuming | NothingToDo | EntriesStarted | Progress
                   | EntryError | EntriesStopped | PlanMade | RunWarning | SessionEnded | BatchJobs)
OnEvent = Callable[[GenerationEvent], None]
ignore = protocol.ignore   # the default ``on_event``: drop every event
