"""A dialog with a TextArea to revise one field (Ctrl+S saves, Esc closes and asks when text changed).

The text is stored by the caller's ``on_save`` callback (one
``item_revisions`` row), also when the app is quit with the dialog open and
the annotator chooses to save. Escape with changed text asks first (save,
discard, keep editing); nothing typed is dropped without a word.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from fbagent.tui.closing import on_top
from fbagent.tui.unsaved_screen import DISCARD, KEEP, SAVE, UnsavedScreen


class EditScreen(ModalScreen[str]):
    """Edit one field; returns the status message to show (saved, unchanged or discarded)."""

    what = "edit"  # named by the unsaved-changes question
    CSS_PATH = Path(__file__).parent / "edit_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", show=False, priority=True),
        Binding("escape", "close", "Close", show=False),
    ]

    def __init__(self, title: str, text: str, on_save: Callable[[str], str]) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.on_save = on_save

    def compose(self) -> ComposeResult:
        """The title line and the editor."""
        with Vertical(id="dialog"):
            yield Static(f"Edit {self.title_text} (Ctrl+S saves, Esc closes)", id="edit-title")
            yield TextArea(self.text, soft_wrap=True, id="editor")

    def on_mount(self) -> None:
        """Focus the editor with the cursor at the end of the text."""
        editor = self.query_one("#editor", TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    @property
    def value(self) -> str:
        """The text in the editor now."""
        return self.query_one("#editor", TextArea).text

    def unsaved(self) -> bool:
        """True when the editor text differs from the text it opened with."""
        return self.value != self.text

    def save_now(self) -> str:
        """Store the editor text through ``on_save``; returns its status message."""
        return self.on_save(self.value)

    def action_save(self) -> None:
        """Ctrl+S: store and close."""
        if not on_top(self):   # a second Enter while it closes
            return
        self.dismiss(self.save_now())

    def action_close(self) -> None:
        """Esc: close when nothing changed, else ask (save / discard / keep editing)."""
        if not on_top(self):
            return
        if not self.unsaved():
            self.dismiss("Edit closed; nothing changed.")
            return

        def settle(answer: str | None) -> None:
            if answer == SAVE:
                self.dismiss(self.save_now())
            elif answer == DISCARD:
                self.dismiss("Edit discarded; nothing saved.")
            else:
                assert answer in (KEEP, None)
                self.query_one("#editor", TextArea).focus()

        self.app.push_screen(UnsavedScreen("edit"), settle)
