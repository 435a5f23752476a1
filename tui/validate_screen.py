"""Validate mode: one pair task per page, blind (no frame names, no gold, no verifier scores).

Layout (80x24 and 60x20): header (annotator, task number, REVISED when the
text changed since this annotator judged it, done/assigned, time on this
task), progress bar, the four-choice question, Sentence A and Sentence B
with the target verb highlighted, the four choices on keys 1-4,
acceptability on its own keys (per language, see :mod:`fbagent.tui.scales`)
with the level that counts as acceptable, the comment, a status line and
the key help. The answers, the levels, and comment / skip / next in the key help
take a tap or click as well as their key (:mod:`fbagent.tui.tap`). Choices, scale levels and key hints are packed whole
(:func:`fbagent.tui.layout.pack`), so a radio button never splits from its
label; below 24 rows or 80 columns the spacing tightens (class ``compact``).
Nothing is pre-selected. Every key that gives an answer writes it to SQLite
at once. Enter on an incomplete task says what is missing and stays.

State and view (Textual's reactive idiom): the page follows two reactive attributes of the screen,
``view`` (a :class:`TaskView`: where the session stands and the current task's answers, a frozen
snapshot taken after every action) and ``message`` (the status line's note). Actions change the
session and set them; ``watch_view`` draws the task page, ``watch_message`` the status line. The
answers themselves live in the :class:`~fbagent.tui.session.ValidateSession` (SQLite at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from fbagent.store.annotations import shown_question
from fbagent.tui.comment_screen import CommentScreen
from fbagent.tui.help_screen import HelpScreen
from fbagent.tui.layout import pack, wrap
from fbagent.tui.session import ValidateSession
from fbagent.tui.tap import tap

CHOICES = (("1", "A", "Sentence A"), ("2", "B", "Sentence B"), ("3", "both", "Both"), ("4", "neither", "Neither"))
HIGHLIGHT = "bold reverse"
SELECTED = "bold reverse"
#: Terminal sizes below which the page uses tight spacing.
COMPACT_BELOW = (80, 24)


def highlight(text: str, span: list[int] | tuple[int, int] | None) -> Content:
    """``text`` with the target verb ``span`` (start, end) styled as :data:`HIGHLIGHT`; line breaks (CR, LF)
    inside a sentence are shown as spaces, one for one, so the label layout holds and the span stays right."""
    content = Content(text.replace("\r", " ").replace("\n", " "))
    if span:
        content = content.stylize(HIGHLIGHT, span[0], span[1])
    return content


def clock(seconds: float) -> str:
    """``m:ss`` for a number of seconds."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def radio(key: str, label: str, chosen: bool, action: str | None = None) -> Content:
    """One control: ``key ● label`` (chosen, highlighted) or ``key ○ label``; never split across lines.

    With ``action`` a tap or click on it runs that action, as its key does (:func:`fbagent.tui.tap.tap`).
    """
    content = Content.assemble(f"{key} ", (f"{'●' if chosen else '○'} {label}", SELECTED if chosen else ""))
    return content if action is None else tap(content, action)


#: Key help chunks that take a tap too: label -> the screen action of the same key.
TAPPABLE_KEYS = {"c comment": "screen.comment", "s skip": "screen.skip", "Enter next": "screen.confirm",
                 "o next open": "screen.next_open", "? help": "screen.help", "Enter/→ open tasks": "screen.confirm",
                 "← previous": "screen.previous"}


def key_help(keys: list[str]) -> list[Content | str]:
    """The key help line's chunks; those of :data:`TAPPABLE_KEYS` run their action on a tap."""
    return [tap(k, TAPPABLE_KEYS[k]) if k in TAPPABLE_KEYS else k for k in keys]


@dataclass(frozen=True)
class TaskView:
    """What the page shows of a :class:`ValidateSession`: the position (``index``, ``n_done``, ``n_open``) and
    the current task's id, answers and flags (``task_id`` None: past the end of the queue)."""

    index: int
    n_done: int
    n_open: int
    task_id: int | None = None
    choice: str | None = None
    acceptability: str | None = None
    comment: str | None = None
    done: bool = False
    revised: bool = False
    skipped: bool = False

    @classmethod
    def of(cls, session: ValidateSession) -> TaskView:
        """The view of ``session`` as it stands now."""
        task = session.current
        if task is None:
            return cls(session.index, session.n_done, session.n_open)
        return cls(session.index, session.n_done, session.n_open, task.id, task.shown_choice,
                   task.shown_acceptability, task.comment, task.done, task.revised, bool(task.skipped))


class ValidateScreen(Screen):
    """The validate-mode page; the answers live in the :class:`ValidateSession`, what the page shows follows
    the reactive ``view`` and ``message`` (module docstring)."""

    #: the session's position and the current task's answers; the task page follows it (:meth:`watch_view`)
    view: var[TaskView | None] = var(None, init=False)
    #: the status line's note ("" for the task's own hint); the status line follows it (:meth:`watch_message`)
    message: var[str] = var("", init=False)

    CSS_PATH = Path(__file__).parent / "validate_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [
        *[Binding(key, f"choose('{value}')", label, show=False) for key, value, label in CHOICES],
        *[Binding(key, f"rate('{key}')", show=False) for key in ("u", "a", "n")],
        Binding("enter", "confirm", "Next", show=False),
        Binding("right", "next", "Next", show=False),
        Binding("left", "previous", "Previous", show=False),
        Binding("o", "next_open", "Next open task", show=False),
        Binding("s", "skip", "Skip", show=False),
        Binding("c", "comment", "Comment", show=False),
        Binding("question_mark", "help", "Help", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def __init__(self, session: ValidateSession) -> None:
        super().__init__()
        self.session = session
        self.set_reactive(ValidateScreen.message, session.resume_note)   # shown once the page is drawn

    def compose(self) -> ComposeResult:
        """Header, progress bar, the task (scrollable as a last resort), status line, key help."""
        yield Static(id="header", classes="header")
        yield ProgressBar(total=max(self.session.total, 1), show_eta=False, id="progress")
        with VerticalScroll(id="body"):
            yield Static(id="question")
            yield Static(id="sentence-a", classes="sentence")
            yield Static(id="sentence-b", classes="sentence")
            yield Static(id="choices")
            yield Static(id="acceptability")
            yield Static(id="comment")
        yield Static(id="status")
        yield Static(id="keys", classes="keys")

    def on_mount(self) -> None:
        """Draw the task, tick the header every second, show the help the first time."""
        self._fit()
        self.view = TaskView.of(self.session)   # draws the page (watch_view)
        self.set_interval(1.0, self.render_header)
        if self.session.first_time:
            self.action_help()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the task out again for the new size (compact below 80x24)."""
        self._fit()
        self.render_task()

    def _fit(self) -> None:
        width, height = self.app.size
        self.set_class(width < COMPACT_BELOW[0] or height < COMPACT_BELOW[1], "compact")

    @property
    def line_width(self) -> int:
        """Cells available to a line of the page (screen width less margins and the scrollbar)."""
        return max(20, self.app.size.width - 4)

    # ------------------------------------------------------------------ the view follows the state

    def watch_view(self, _view: TaskView | None) -> None:
        """The session moved or an answer changed: draw the task page."""
        self.render_task()

    def watch_message(self, _message: str) -> None:
        """A new note: draw the status line."""
        if self.view is not None:
            self.render_status()

    def _show(self, widget_id: str, content: Content | str) -> None:
        self.query_one(f"#{widget_id}", Static).update(content)

    # ------------------------------------------------------------------ drawing

    def render_header(self) -> None:
        """Annotator, task number, REVISED, done/assigned and the time on this task (stopped while paused)."""
        s = self.session
        task = s.current
        where = f"task {s.index + 1}/{s.total}" if task is not None else ("all done" if s.n_open == 0 else "end of queue")
        chunks: list = [s.annotator, where]
        if task is not None and task.revised and not task.done:
            chunks.append(("REVISED: judge again", "bold"))
        chunks.append(f"done {s.n_done}/{s.total}")
        chunks.append(f"{clock(s.seconds_on_task())} on this task" + (" (paused)" if s.paused else ""))
        self._show("header", pack(chunks, self.app.size.width - 2, indent=0, sep=" · "))

    def render_task(self) -> None:
        """Draw the task on screen (or the end-of-queue page): header, progress, the task, status, key help."""
        s = self.session
        width = self.line_width
        self.render_header()
        self.query_one("#progress", ProgressBar).update(progress=s.n_done)
        task = s.current
        if task is None:
            skipped = sum(1 for t in s.tasks if t.skipped and not t.done)
            open_ = s.n_open
            text = f"All {s.total} tasks are answered. Thank you!" if open_ == 0 else (
                f"End of the queue: {open_} task(s) still open ({skipped} skipped). "
                "Press Enter or → to go on to them, ← to go back."
            )
            self._show("question", wrap(text, width))
            for wid in ("sentence-a", "sentence-b", "choices", "acceptability", "comment"):
                self._show(wid, "")
            self.render_status()
            keys = ["← previous", "q quit"] if open_ == 0 else ["Enter/→ open tasks", "← previous", "q quit"]
            self._show("keys", pack(key_help(keys), width, indent=0, sep=" · "))
            return
        item = s.item(task)
        spans = item.get("target_spans") or {}
        question = " ".join((shown_question(item) or "(no question)").split())  # CR LF in stored text: one line
        self._show("question", wrap(Content.assemble(("Question: ", "bold"), question), width, hang=10))
        for wid, label, field in (("sentence-a", "Sentence A: ", task.shown_first), ("sentence-b", "Sentence B: ", task.shown_second)):
            self._show(wid, wrap(
                Content.assemble((label, "bold"), highlight(item.get(field) or "(missing)", spans.get(field))), width, hang=12
            ))
        chosen = task.shown_choice
        self._show("choices", pack([radio(k, label, chosen == v, f"screen.choose('{v}')") for k, v, label in CHOICES],
                                   width, lead=("Answer: ", "bold")))
        scale = s.scale(task)
        level = task.shown_acceptability
        controls: list = [radio(lv.key, lv.label, level == lv.name or level in lv.aliases, f"screen.rate('{lv.key}')")
                          for lv in scale.levels]
        controls.append((f"({scale.counts_note()})", "dim"))
        self._show("acceptability", pack(controls, width, lead=("Acceptability: ", "bold")))
        self._show("comment", wrap(Content.assemble(("Comment: ", "bold"), task.comment or "(none; press c to add one)"),
                                   width, hang=9))
        self.render_status()
        keys = ["1-4 answer", f"{scale.keys} rate", "c comment", "s skip", "Enter next", "→/← move",
                "o next open", "? help", "q quit"]
        self._show("keys", pack(key_help(keys), width, indent=0, sep=" · "))

    def render_status(self) -> None:
        """The status line: :attr:`message` when there is one, else what the current task asks for next."""
        s = self.session
        task = s.current
        if self.message or task is None:
            status = self.message
        elif task.done and s.n_open == 0:
            status = "Saved. Every task is answered: press Enter to finish, or q to quit."
        elif task.done:
            status = "Saved. Press Enter for the next task."
        elif task.revised:
            status = "This pair was revised after you judged it: judge the new text again."
        else:
            status = "Which sentences fit the question? Then rate the less natural one. ? = help"
        self._show("status", wrap(status, self.line_width))

    # ------------------------------------------------------------------ actions

    def _after(self, message: str = "") -> None:
        """After an action: the new note and the session's new view (each watcher draws what follows it)."""
        self.message = message
        self.view = TaskView.of(self.session)

    def action_choose(self, value: str) -> None:
        """Keys 1-4: the correctness choice (saved at once)."""
        if self.session.current is not None:
            self.session.choose(value)
            self._after()

    def action_rate(self, key: str) -> None:
        """Acceptability keys of the task's language (saved at once); a key of another scale says so."""
        if self.session.current is None:
            return
        scale = self.session.scale()
        level = scale.by_key(key)
        if level is None:
            levels = ", ".join(f"{lv.key} = {lv.label}" for lv in scale.levels)
            self._after(f"{key!r} is not on this task's scale ({scale.title}: {levels}). Nothing saved.")
            return
        self.session.rate(level)
        self._after()

    def action_confirm(self) -> None:
        """Enter: on to the next open task once both judgments are given; otherwise say what is missing and stay."""
        s = self.session
        missing = s.missing()
        if s.current is not None and missing:
            self._after(f"Not done yet: {' and '.join(missing)} missing. → moves on and leaves it open.")
            return
        s.advance()
        self._after()

    def action_next(self) -> None:
        """→: next task, complete or not (an incomplete one stays open)."""
        left_open = self.session.current is not None and not self.session.current.done
        here = self.session.index + 1
        self.session.next()
        self._after(f"Task {here} left open; o jumps to the next open task." if left_open else "")

    def action_previous(self) -> None:
        """←: previous task (answers can be changed; the old value goes to the history table)."""
        self.session.previous()
        self._after()

    def action_next_open(self) -> None:
        """o: jump to the next open task (unanswered, half-answered, skipped or revised)."""
        if self.session.next_open():
            self._after(f"Next open task: task {self.session.index + 1}/{self.session.total}.")
        else:
            self._after("No other task is open." if self.session.current is not None else "")

    def action_skip(self) -> None:
        """s: skip this task for now; it comes back after the open ones (same session)."""
        self.session.skip()
        self._after("Skipped the previous task; it comes back after the last open task.")

    def action_comment(self) -> None:
        """c: edit the optional comment in a dialog docked at the bottom (the task stays visible)."""
        task = self.session.current
        if task is None:
            return
        session = self.session

        def save(text: str) -> str:
            before = task.comment
            session.comment(text)
            if task.comment == before:
                return "Comment unchanged."
            return "Comment saved." if task.comment else "Comment removed."

        def done(message: str | None) -> None:
            session.resume()
            self._after(message or "")

        session.pause()
        self.render_header()
        self.app.push_screen(CommentScreen(task.comment or "", save, f"task {session.index + 1}"), done)

    def action_help(self) -> None:
        """?: the instructions, with every scale of the queue; the task timer stops meanwhile."""
        self.session.pause()
        self.render_header()

        def done(_: None) -> None:
            self.session.resume()
            self.render_header()

        self.app.push_screen(HelpScreen(self.session.scales_in_queue()), done)
