"""The question asked when a dialog with unsaved text is closed: save, discard, or keep editing.

Escape (or a stray key) never drops typed text: Escape in the comment or the
edit dialog with changed text opens this question, and Escape here means
"keep editing" (the safe answer). Keys other than the listed ones do
nothing, so the tail of an escape sequence split by a slow link (``[D``)
cannot answer it.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from fbagent.tui.closing import on_top

#: The answers, as returned by :class:`UnsavedScreen`.
SAVE, DISCARD, KEEP = "save", "discard", "keep"


class UnsavedScreen(ModalScreen[str]):
    """Returns :data:`SAVE`, :data:`DISCARD` or :data:`KEEP` (keep editing)."""

    CSS_PATH = Path(__file__).parent / "unsaved_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [
        Binding("s,enter", f"answer('{SAVE}')", "Save", show=False),
        Binding("d", f"answer('{DISCARD}')", "Discard", show=False),
        Binding("k,escape", f"answer('{KEEP}')", "Keep editing", show=False),
    ]

    def __init__(self, what: str, then: str = "") -> None:
        super().__init__()
        self.what = what
        self.then = then

    def compose(self) -> ComposeResult:
        """The question and its three answers."""
        with Vertical(id="unsaved-dialog"):
            yield Static(f"The {self.what} has unsaved changes{self.then}.", id="unsaved-text")
            yield Static("s/Enter save · d discard · k/Esc keep editing", id="unsaved-keys")

    def action_answer(self, answer: str) -> None:
        """One of the three answers closes the question (a second key while it closes is ignored)."""
        if on_top(self):
            self.dismiss(answer)
