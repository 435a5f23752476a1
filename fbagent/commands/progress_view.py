"""The CLI's one renderer of :mod:`fbagent.progress.events` (``generate``, ``verifier calibrate``, ``eval``).

:class:`ProgressView` is the ``on_event`` callable: a :class:`~fbagent.progress.events.Note` becomes its
lines (``warning: `` before a warning, red for an error, the run name in bold), a
:class:`~fbagent.progress.events.Started` a Rich progress bar that each
:class:`~fbagent.progress.events.Progress` moves and :class:`~fbagent.progress.events.Stopped` (or the
end) stops, and a :class:`~fbagent.progress.events.Summary` goes to the command's ``on_summary``. How the bar
looks is a :class:`BarLayout`: :class:`CountBar` (description, bar, n/total, elapsed, optionally the time
left) here, generate's entry bar with its uncached-rate ETA in :mod:`fbagent.commands.generate_view`.
With ``progress=False`` (``--json``) the bar is hidden; on a console that is not a terminal Rich draws the
bar once, when it stops.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress
from rich.table import Column
from rich.text import Text

from fbagent.commands.output import fit_line, new_console
from fbagent.progress.events import Note, Progress, Started, Stopped, Summary


class BarLayout:
    """The look of a phase's bar: its columns, the task's description and fields, whether it stays."""

    transient = False

    def columns(self) -> list[ProgressColumn]:
        raise NotImplementedError

    def description(self, total: int, done: int, label: str) -> str:
        return label

    def start_fields(self) -> dict[str, Any]:
        """Task fields at the start (columns read them as ``task.fields[...]``)."""
        return {}

    def fields(self, event: Progress) -> dict[str, Any]:
        """Task fields after ``event``."""
        return {}


class CountBar(BarLayout):
    """``description  ━━━━  n/total  elapsed  [left]``; ``description`` fixed, else the phase's label;
    a resumed phase (``done`` > 0) says ``(resumed: n of total already done)``."""

    def __init__(self, description: str = "", *, remaining: bool = True, transient: bool = False) -> None:
        self.fixed = description
        self.remaining = remaining
        self.transient = transient

    def columns(self) -> list[ProgressColumn]:
        # the description takes what the counts leave and ends in "…" on a narrow terminal (never wraps)
        room = max(16, shutil.get_terminal_size().columns - 42)   # the bar, counts and times take ~40
        cols = [TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis", max_width=room)),
                BarColumn(bar_width=12), MofNCompleteColumn(), TimeElapsedColumn()]
        return cols + [TimeRemainingColumn()] if self.remaining else cols

    def description(self, total: int, done: int, label: str) -> str:
        return (self.fixed or label) + (f" (resumed: {done} of {total} already done)" if done else "")


class ProgressView:
    """Renders progress events on ``console`` (default: stdout). ``progress=False`` hides the bar; ``bar``:
    the :class:`BarLayout` (default :class:`CountBar`); ``on_summary(event)`` renders the final
    :class:`~fbagent.progress.events.Summary` (``None``: the command renders the returned result itself).
    A context manager: leaving it stops the bar."""

    def __init__(self, console: Console | None = None, *, progress: bool = True, bar: BarLayout | None = None,
                 on_summary: Callable[[Any], None] | None = None) -> None:
        self.console = console or new_console()
        self.show_progress = progress
        self.layout = bar or CountBar()
        self.on_summary = on_summary
        self.progress: RichProgress | None = None
        self.task: Any = None

    def __enter__(self) -> ProgressView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, event: Any) -> None:
        """Render one event (the ``on_event`` of the library call)."""
        if isinstance(event, Note):
            self.note(event)
        elif isinstance(event, Started):
            if event.text:
                self.line(event.text)
            self.start(event.total, event.done, event.label)
        elif isinstance(event, Progress):
            self.update(event)
        elif isinstance(event, Stopped):
            self.close()
        elif isinstance(event, Summary):
            self.close()
            if self.on_summary is not None:
                self.on_summary(event)

    def line(self, text: str) -> None:
        """One line of plain text (no Rich markup interpreted)."""
        self.console.print(fit_line(text, self.console.width), markup=False, highlight=False, soft_wrap=True)

    def note(self, note: Note) -> None:
        """A note's lines: ``warning: `` before a warning, red for an error, its ``bold`` part in bold."""
        for line in note.lines():
            if note.level == "warning":
                line = f"warning: {line}"
            text = Text(fit_line(line, self.console.width), style="red" if note.level == "error" else "")
            if note.bold:
                text.highlight_words([note.bold], "bold")
            self.console.print(text, highlight=note.highlight, soft_wrap=True)   # wrapped by fit_line

    def start(self, total: int, done: int = 0, label: str = "") -> None:
        """Start a bar of ``total`` units at ``done`` (a bar still running is stopped first)."""
        self.close()
        self.progress = RichProgress(*self.layout.columns(), console=self.console, disable=not self.show_progress,
                                     transient=self.layout.transient)
        self.task = self.progress.add_task(self.layout.description(total, done, label), total=total, completed=done,
                                           **self.layout.start_fields())
        self.progress.start()

    def update(self, event: Progress) -> None:
        """Move the bar to ``event.done`` (no bar: nothing)."""
        if self.progress is not None:
            self.progress.update(self.task, completed=event.done, **self.layout.fields(event))

    def close(self) -> None:
        """Stop the bar if it runs (safe to call twice)."""
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
