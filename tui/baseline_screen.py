"""Baseline mode: the four-choice question and two sentences only (no frames, no acceptability, no gold),
one problem per page, keys 1-4 answer and move on (the answer is stored at once), ←/→ move, q quits.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
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

    def __init__(self, session: BaselineSession) -> None:
        super().__init__()
        self.session = session
        self.message = session.resume_note

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
        self.refresh_page()

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
        done = "All problems answered: thank you. q quits." if s.finished else ""
        self.query_one("#status", Static).update(self.message or done)

    def action_answer(self, value: str) -> None:
        """Store the answer and show the next problem."""
        self.session.answer(value)
        self.message = ""
        self.refresh_page()

    def action_move(self, step: int) -> None:
        """Show another problem."""
        self.session.move(step)
        self.message = ""
        self.refresh_page()
