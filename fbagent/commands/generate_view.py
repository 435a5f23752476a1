"""How `fbagent generate` shows a run: the CLI's one renderer (:mod:`fbagent.commands.progress_view`)
set up for the events of :mod:`fbagent.generation.events`.

:class:`GenerateView` is the ``on_event`` callable: notes and the selection line as plain lines,
:class:`EntryBar` (counts, LLM usage and the :class:`UncachedRate` ETA) during the entry phase, the
plan table of a dry run and the summary table at the end of a session (also after Ctrl-C).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from fbagent.commands.progress_view import BarLayout, ProgressView
from fbagent.commands.tables import Col, print_table
from fbagent.generation.events import (
    GenerationSummary,
    PlanMade,
    Progress,
    SessionEnded,
)
from fbagent.progress.events import Progress as PhaseProgress
from fbagent.progress.events import Summary
from fbagent.providers.prices import usd
from fbagent.store.items import STATUSES


class EntryBar(BarLayout):
    """Generate's entry bar: ``━━  n/total  ok flag rej fail  calls tok cache  elapsed  ETA`` (calls
    ``3+2``: 3 answered, 2 in flight; the ETA of
    :class:`UncachedRate`, which starts afresh with every bar)."""

    def __init__(self) -> None:
        self._eta = UncachedRate()

    def columns(self) -> list[ProgressColumn]:
        return [
            BarColumn(bar_width=8), MofNCompleteColumn(),
            TextColumn("[green]ok {task.fields[verified]}[/] [yellow]flag {task.fields[flagged]}[/] "
                       "[red]rej {task.fields[rejected]}[/] [magenta]fail {task.fields[failed]}[/]"),
            TextColumn("calls {task.fields[calls]} tok {task.fields[tokens]} cache {task.fields[cache]}"),
            TimeElapsedColumn(), TextColumn("ETA"), UncachedEtaColumn(),
        ]

    def description(self, total: int, done: int, label: str) -> str:
        return label or "entries"

    def drop_order(self) -> list[tuple[int, ...]]:
        """Narrow terminal: the bar goes first, then the ETA, then the LLM usage, then the elapsed time."""
        return [(0,), (5, 6), (3,), (4,)]

    def start_fields(self) -> dict[str, Any]:
        self._eta = UncachedRate()
        return {**dict.fromkeys(STATUSES, 0), "calls": 0, "tokens": 0, "cache": 0, "eta_s": None}

    def fields(self, p: PhaseProgress) -> dict[str, Any]:
        assert isinstance(p, Progress)   # the entry phase's bar: a generation Progress
        counts = {k: p.counts.get(k, 0) for k in STATUSES}
        calls = f"{p.calls}+{p.in_flight}" if p.in_flight else p.calls   # 3+2: 3 answered, 2 in flight
        return {"calls": calls, "tokens": short(p.tokens), "cache": p.cache_hits, "eta_s": self._eta.update(p),
                **counts}


class GenerateView(ProgressView):
    """The renderer of :mod:`fbagent.commands.progress_view` set up for generation events on ``console``
    (default: stdout): the notes and the selection line as lines, :class:`EntryBar` during the entry phase,
    the plan table of a dry run and the summary table at the end of a session (also after Ctrl-C).
    ``progress=False`` hides the bar."""

    def __init__(self, console: Console | None = None, *, progress: bool = True) -> None:
        super().__init__(console, progress=progress, bar=EntryBar(), on_summary=self.final)

    def final(self, event: Summary) -> None:
        """The dry run's plan table, or a session's summary table."""
        if isinstance(event, PlanMade):
            print_table(self.console, *plan_table(event.plan), title="Plan (--dry-run: no LLM call made, nothing stored)",
                        show_header=False)
            self.line("Tokens are estimates (~4 characters a token); requests already in the llm_calls cache will cost "
                      "nothing. Run without --dry-run to start.")
        elif isinstance(event, SessionEnded):
            self.summary(event.summary)

    def summary(self, s: GenerationSummary) -> None:
        """The summary table (this session vs the whole run) and where to look next."""
        print_table(self.console, *summary_table(s),
                    title=f"fbagent generate: run {s.run_name}" + (" (interrupted)" if s.interrupted else ""))
        self.console.print(f"Results: table [bold]items[/] of {s.db_path} (run [bold]{s.run_name}[/]).", soft_wrap=True)
        self.console.print(f"Details: fbagent runs show {s.run_name}", soft_wrap=True, highlight=False, markup=False)
        # an interruption is reported once, by the CLI (stderr), after this table


class UncachedRate:
    """The ETA of the entry phase from the entries that cost LLM calls: an interval between two
    :class:`Progress` snapshots in which only cache hits came (no new call) is left out, its time and
    its entries alike, so that entries answered from the cache at the start of a resumed run do not
    make the rest look fast (one uncached entry 70 s, ETA 16 s before)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: tuple[float, int, int, int] | None = None   # time, done, calls, cache hits
        self.seconds = 0.0   # time spent on entries that made calls
        self.entries = 0     # entries finished in that time

    def update(self, p: Progress) -> float | None:
        """Seconds left for the ``p.total - p.done`` entries to go, ``None`` until one uncached entry finished."""
        now = self._clock()
        if self._last is not None:
            t, done, calls, hits = self._last
            if not (p.calls == calls and p.cache_hits > hits):  # not an interval served by the cache alone
                self.seconds += now - t
                self.entries += max(0, p.done - done)
        self._last = (now, p.done, p.calls, p.cache_hits)
        if not self.entries:
            return None
        return self.seconds / self.entries * max(0, p.total - p.done)


class UncachedEtaColumn(ProgressColumn):
    """The ETA of :class:`UncachedRate` (task field ``eta_s``), as ``m:ss``; ``-:--`` before it is known."""

    def render(self, task: Task) -> Text:
        eta = task.fields.get("eta_s")
        if eta is None or task.finished:
            return Text("-:--", style="progress.remaining")
        minutes, seconds = divmod(int(eta + 0.5), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}",
                    style="progress.remaining")


def short(n: int) -> str:
    """1234 -> '1.2k', 2_500_000 -> '2.5M'."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def plan_table(plan: dict[str, Any]) -> tuple[list[Col], list[list[str]]]:
    """The dry-run plan as two columns (what, value) for :func:`fbagent.commands.tables.print_table`."""
    rows = [
        ("run", f"{plan['run']}{' (exists: resume)' if plan['run_exists'] else ' (new)'}"),
        ("lexicon", f"{plan['lexicon']} ({plan['language']})"),
        ("selection", str(plan.get("selection", ""))),
        ("frame pairs", f"{plan['pairs']:,}"),
        ("entries (pairs x per-pair)", f"{plan['entries']:,}"),
        ("entries to generate", f"{plan['entries_todo']:,}"),
        ("entries already finished", f"{plan['entries_finished']:,}"),
        ("LLM calls: screening", f"{plan['screen_calls']:,}"),
        *([("LLM calls: verb check (--verb-check llm, no retries)", f"{plan['verb_check_calls']:,}")]
          if plan.get("verb_check_calls") else []),
        ("LLM calls (no retries .. all retries)", f"{plan['calls_min']:,} .. {plan['calls_max']:,}"),
        ("input tokens (no retries)", f"{plan['input_tokens']:,}"),
        ("output tokens (no retries)", f"{plan['output_tokens']:,}"),
        ("generator / verifier", f"{plan['generator']} / {plan['verifier']}"),
    ]
    if "cost_usd" in plan:
        if plan["cost_usd"] is None:
            rows.append(("cost (US$)", f"unknown: no price for {', '.join(plan['price_missing'])} "
                                       "(add it in a TOML file named by FBAGENT_PRICES)"))
        else:
            rows.append((f"cost, US$ (prices of {plan['prices_date']}): no retries / all retries / batch",
                         f"{usd(plan['cost_usd'])} / {usd(plan['cost_usd_retries'])} / {usd(plan['cost_usd_batch'])}"))
            if plan.get("batch"):   # this run sends its entries' requests as batch jobs
                rows.append(("cost of this --batch run, US$ (no retries; screening batched too)",
                             usd(plan["cost_usd_batch"])))
    return [Col("what", wrap="words", style="bold"), Col("value", "right", wrap="words")], [list(r) for r in rows]


def summary_table(s: GenerationSummary) -> tuple[list[Col], list[list[str]]]:
    """This session's and the whole run's entries by status, LLM usage and wall time (columns and rows for
    :func:`fbagent.commands.tables.print_table`)."""
    rc = s.run_counts or {}
    rows = [["entries", f"{s.entries_done:,} done", f"{sum(rc.values()):,} of {s.entries_total:,}"]]
    rows += [[status, f"{s.counts.get(status, 0):,}", f"{rc.get(status, 0):,}"]
             for status in STATUSES]
    rows += [["skipped (finished before)", f"{s.entries_skipped:,}", ""],
             ["LLM calls stored before", "", f"{s.calls_before:,}"],
             ["LLM calls (new)", f"{s.calls:,}", ""],
             ["cache hits", f"{s.cache_hits:,}", ""],
             ["failed LLM calls", f"{s.failures:,}", ""],
             ["tokens in / out", f"{s.input_tokens:,} / {s.output_tokens:,}", ""],
             ["wall time", f"{s.wall_s:.1f} s", ""]]
    return [Col("", wrap="words", style="bold"), Col("this session", "right", wrap="words"),
            Col("whole run", "right", wrap="words")], rows
