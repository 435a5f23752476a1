"""The dialog to type the optional comment of a task, docked at the bottom so the task stays visible.

Enter (or a tap on Save) saves. Escape (or a tap on Close) closes it when nothing changed; with changed text it
asks first (:class:`~fbagent.tui.unsaved_screen.UnsavedScreen`: save,
discard, keep editing), so a typed comment is never dropped without a word.
The comment is stored by the ``on_save`` callback of the caller at once,
also when the app is quit with the dialog open.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from fbagent.tui.closing import on_top
from fbagent.tui.layout import pack
from fbagent.tui.tap import tap
from fbagent.tui.unsaved_screen import DISCARD, KEEP, SAVE, UnsavedScreen


class CommentScreen(ModalScreen[str]):
    """Edit a comment; returns the status message to show (what happened to the comment)."""

    what = "comment"  # named by the unsaved-changes question
    CSS_PATH = Path(__file__).parent / "comment_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [Binding("escape", "close", "Close", show=False)]

    def __init__(self, text: str, on_save: Callable[[str], str], title: str = "this task") -> None:
        super().__init__()
        self.text = text
        self.on_save = on_save
        self.title_text = title

    def compose(self) -> ComposeResult:
        """The prompt line and the input field."""
        with Vertical(id="dialog"):
            yield Static(f"Comment on {self.title_text} (Enter saves, Esc closes):")
            yield Input(value=self.text, id="comment-input")
            yield Static(pack([tap("[ Save ]", "screen.save"), tap("[ Close ]", "screen.close")], 40), id="comment-taps")

    @property
    def value(self) -> str:
        """The text in the dialog now."""
        return self.query_one("#comment-input", Input).value

    def unsaved(self) -> bool:
        """True when the typed text differs from the stored comment."""
        return self.value.strip() != (self.text or "").strip()

    def save_now(self) -> str:
        """Store the typed text through ``on_save``; returns its status message."""
        return self.on_save(self.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: store the comment (when changed) and close."""
        self.action_save()

    def action_save(self) -> None:
        """Enter or a tap on Save: store the comment (when changed) and close."""
        if not on_top(self):   # a second Enter while it closes
            return
        self.dismiss(self.save_now() if self.unsaved() else "Comment unchanged.")

    def action_close(self) -> None:
        """Esc: close when nothing changed, else ask (save / discard / keep editing)."""
        if not on_top(self):
            return
        if not self.unsaved():
            self.dismiss("Comment unchanged.")
            return

        def settle(answer: str | None) -> None:
            if answer == SAVE:
                self.dismiss(self.save_now())
            elif answer == DISCARD:
                self.dismiss("Comment discarded; the stored comment is unchanged.")
            else:
                assert answer in (KEEP, None)
                self.query_one("#comment-input", Input).focus()

        self.app.push_screen(UnsavedScreen("comment"), settle)
