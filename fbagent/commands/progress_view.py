"""The CLI's one renderer of :mod:`fbagent.progress.events` (``generate``, ``verifier calibrate``, ``eval``).

:class:`ProgressView` is the ``on_event`` callable: a :class:`~fbagent.progress.events.Note` becomes its
lines (``warning: `` before a warning, red for an error, the run name in bold), a
:class:`~fbagent.progress.events.Started` a Rich progress bar that each
:class:`~fbagent.progress.events.Progress` moves and :class:`~fbagent.progress.events.Stopped` (or the
end) stops, and a :class:`~fbagent.progress.events.Summary` goes to the command's ``on_summary``. How the bar
looks is a :class:`BarLayout`: :class:`CountBar` (description, bar, n/total, elapsed, optionally the time
left) here, generate's entry bar with its uncached-rate ETA in :mod:`fbagent.commands.generate_view`.
With ``progress=False`` (``--json``) the bar is hidden; on a console that is not a terminal Rich draws the
bar once, when it stops. A line wider than the terminal drops whole columns, in the layout's
:meth:`BarLayout.drop_order`, before any column is cut (:class:`FittingProgress`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.measure import Measurement
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress
from rich.table import Column, Table
from rich.text import Text

from fbagent.commands.output import fit_line, new_console
from fbagent.progress.events import Event, Note, Progress, Started, Stopped, Summary


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

    def drop_order(self) -> list[tuple[int, ...]]:
        """Groups of column indices given up, first group first, while the line is wider than the terminal."""
        return []


class FittingProgress(RichProgress):
    """A Rich progress display whose line never gets cut while a column can go: while the columns'
    widths (plus one space between neighbours) exceed the console's width, the next group of
    ``drop_order`` (column indices) is left out of this refresh; the description column ellipsizes
    only when nothing is left to drop."""

    def __init__(self, *columns: str | ProgressColumn, drop_order: list[tuple[int, ...]] | None = None, **kwargs: Any) -> None:
        self.drop_order = drop_order or []
        super().__init__(*columns, **kwargs)

    def make_tasks_table(self, tasks: Iterable[Task]) -> Table:  # noqa: D102 (Rich's hook)

        if not hasattr(self, "live"):  # Rich renders once while constructing, before it has a console
            return super().make_tasks_table(tasks)
        visible = [t for t in tasks if t.visible]
        cells = [[c.format(task=t) if isinstance(c, str) else c(t) for c in self.columns] for t in visible]
        options = self.console.options

        def width(i: int) -> int:
            return max((Measurement.get(self.console, options, row[i]).maximum for row in cells), default=0)

        keep = list(range(len(self.columns)))
        widths = {i: width(i) for i in keep}
        for group in self.drop_order:
            if sum(widths[i] for i in keep) + len(keep) - 1 <= self.console.width:
                break
            keep = [i for i in keep if i not in group]
        table_columns = [column.get_table_column().copy() if isinstance(column := self.columns[i], ProgressColumn)
                         else Column(no_wrap=True) for i in keep]
        over = sum(widths[i] for i in keep) + len(keep) - 1 - self.console.width
        for col, i in zip(table_columns, keep, strict=True):  # nothing left to drop: "…" ends the description
            if over > 0 and col.overflow == "ellipsis":
                col.max_width = max(8, widths[i] - over)
                over -= widths[i] - col.max_width
        table = Table.grid(*table_columns, padding=(0, 1), expand=self.expand)
        for row in cells:
            table.add_row(*(row[i] for i in keep))
        return table


class FieldColumn(ProgressColumn):
    """A task field as text; empty when the task was added without it (a task made outside
    :class:`ProgressView`, which passes :meth:`CountBar.start_fields`)."""

    def __init__(self, field: str) -> None:
        self.field = field
        super().__init__()

    def render(self, task: Task) -> Text:
        return Text(str(task.fields.get(self.field, "")))


class CountBar(BarLayout):
    """``description  ━━━━  n/total  elapsed  [left]``; ``description`` fixed, else the phase's label;
    a resumed phase (``done`` > 0) says ``(resumed: n of total already done)`` in a column of its own.
    On a narrow terminal the time left goes first, then the bar, then the elapsed time, then the
    resume label (:meth:`drop_order`)."""

    def __init__(self, description: str = "", *, remaining: bool = True, transient: bool = False) -> None:
        self.fixed = description
        self.remaining = remaining
        self.transient = transient

    def columns(self) -> list[ProgressColumn]:
        # the description ends in "…" only when every other column but the counts has been dropped
        cols = [TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis")),
                BarColumn(bar_width=12), MofNCompleteColumn(), FieldColumn("resumed"),
                TimeElapsedColumn()]
        return cols + [TimeRemainingColumn()] if self.remaining else cols

    def drop_order(self) -> list[tuple[int, ...]]:
        return [(5,), (1,), (4,), (3,)] if self.remaining else [(1,), (4,), (3,)]

    def description(self, total: int, done: int, label: str) -> str:
        self._resumed = f"(resumed: {done} of {total} already done)" if done else ""
        return self.fixed or label

    def start_fields(self) -> dict[str, Any]:
        return {"resumed": getattr(self, "_resumed", "")}


class ProgressView:
    """Renders progress events on ``console`` (default: stdout). ``progress=False`` hides the bar; ``bar``:
    the :class:`BarLayout` (default :class:`CountBar`); ``on_summary(event)`` renders the final
    :class:`~fbagent.progress.events.Summary` (``None``: the command renders the returned result itself).
    A context manager: leaving it stops the bar."""

    def __init__(self, console: Console | None = None, *, progress: bool = True, bar: BarLayout | None = None,
                 on_summary: Callable[[Summary], None] | None = None) -> None:
        self.console = console or new_console()
        self.show_progress = progress
        self.layout = bar or CountBar()
        self.on_summary = on_summary
        self.progress: RichProgress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> ProgressView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, event: Event) -> None:
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
        self.progress = FittingProgress(*self.layout.columns(), console=self.console, disable=not self.show_progress,
                                        transient=self.layout.transient, drop_order=self.layout.drop_order())
        self.task = self.progress.add_task(self.layout.description(total, done, label), total=total, completed=done,
                                           **self.layout.start_fields())
        self.progress.start()

    def update(self, event: Progress) -> None:
        """Move the bar to ``event.done`` (no bar: nothing)."""
        if self.progress is not None and self.task is not None:   # a bar has its task
            self.progress.update(self.task, completed=event.done, **self.layout.fields(event))

    def close(self) -> None:
        """Stop the bar if it runs (safe to call twice)."""
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
