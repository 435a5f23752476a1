"""A dialog with a TextArea to revise one field (Ctrl+S saves, Esc cancels)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea


class EditScreen(ModalScreen[str | None]):
    """Returns the edited text, or None when cancelled."""

    CSS_PATH = Path(__file__).parent / "edit_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", show=False, priority=True),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"Edit {self.title_text} (Ctrl+S saves, Esc cancels)")
            yield TextArea(self.text, soft_wrap=True, id="editor")

    def on_mount(self) -> None:
        editor = self.query_one("#editor", TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    def action_save(self) -> None:
        self.dismiss(self.query_one("#editor", TextArea).text)

    def action_cancel(self) -> None:
        self.dismiss(None)
