"""A small dialog to type the optional comment of a task (Enter saves, Esc cancels)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class CommentScreen(ModalScreen[str | None]):
    """Returns the new comment (``""`` clears it) or None when cancelled."""

    CSS_PATH = Path(__file__).parent / "comment_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Comment on this task (Enter saves, Esc cancels):")
            yield Input(value=self.text, id="comment-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
