"""Baseline mode: the four-choice question and two sentences only (no frames, no acceptability, no gold),
one problem per page, keys 1-4 answer and move on (the answer is stored at once), ←/→ move, q quits.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from fbagent.tui.baseline_session import BaselineSession

CHOICES = (("1", "sentence_a", "Sentence A"), ("2", "sentence_b", "Sentence B"), ("3", "both", "Both"),
           ("4", "neither", "Neither"))


class BaselineScreen(Screen):
    """The baseline-mode page; all state lives in the :class:`BaselineSession`."""

    CSS_PATH = Path(__file__).parent / "baseline_screen.tcss"
    BINDINGS = [
        *[Binding(key, f"answer('{value}')", label, show=False) for key, value, label in CHOICES],
        Binding("right", "move(1)", "Next", show=False),
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    #: what the page shows of the session: (problem index, its answer, answered count); the page follows it
    shown: var[tuple[int, str | None, int] | None] = var(None, init=False)
    #: the status line's note (the page follows it)
    message: var[str] = var("", init=False)

    def __init__(self, session: BaselineSession) -> None:
        super().__init__()
        self.session = session
        self.set_reactive(BaselineScreen.message, session.resume_note)   # shown once the page is drawn

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="body"):
            yield Static(id="header")
            yield Static(id="question")
            yield Static(id="sentence-a", classes="sentence")
            yield Static(id="sentence-b", classes="sentence")
            yield Static(id="choices")
            yield Static(id="status")
        yield Static("1-4 answer · ←/→ move · q quit", id="keys")

    def on_mount(self) -> None:
        self._follow()

    def _follow(self) -> None:
        """Take the session's state into :attr:`shown` (the page follows it)."""
        s = self.session
        self.shown = (s.index, s.current()["answer"], s.n_done)

    def watch_shown(self, _shown: tuple[int, str | None, int] | None) -> None:
        """The session moved or an answer changed: draw the page."""
        self.refresh_page()

    def watch_message(self, _message: str) -> None:
        """A new note: draw the status line."""
        if self.shown is not None:
            self.render_status()

    def render_status(self) -> None:
        """The status line: :attr:`message`, else the closing line once every problem is answered."""
        done = "All problems answered: thank you. q quits." if self.session.finished else ""
        self.query_one("#status", Static).update(self.message or done)

    def refresh_page(self) -> None:
        """Draw the current problem and the status line."""
        s = self.session
        t = s.current()
        self.query_one("#header", Static).update(
            f"{s.annotator} · independent baseline · problem {s.index + 1}/{s.total} · answered {s.n_done}/{s.total}")
        self.query_one("#question", Static).update(t["question"] or "")
        self.query_one("#sentence-a", Static).update(f"Sentence A: {t['first']}")
        self.query_one("#sentence-b", Static).update(f"Sentence B: {t['second']}")
        self.query_one("#choices", Static).update("   ".join(
            f"{key} {'●' if t['answer'] == value else '○'} {label}" for key, value, label in CHOICES))
        self.render_status()

    def action_answer(self, value: str) -> None:
        """Store the answer and show the next problem."""
        self.session.answer(value)
        self.message = ""
        self._follow()

    def action_move(self, step: int) -> None:
        """Show another problem."""
        self.session.move(step)
        self.message = ""
        self._follow()
