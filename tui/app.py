"""The annotation app: one Textual App that shows the validate or the revise screen.

Start it with ``fbagent annotate --annotator NAME`` (see :mod:`fbagent.commands.annotate`)
or, in code and tests, ``AnnotateApp(ValidateSession.open(...))``. Every answer
is already in SQLite when the app exits, however it exits; quitting with
unsaved text in a dialog asks first (save / discard / keep editing).

Escape sequences over slow links: a terminal sends ← as ``ESC [ D``. Textual
reports a bare Escape when nothing follows ``ESC`` within ``ESCAPE_DELAY``
(default 100 ms), so on an SSH link with 200 ms of jitter ← arrives as
Escape (closing a dialog) plus ``[`` and ``D``. The app waits
:data:`ESCAPE_DELAY_MS` instead (tmux's ``escape-time`` default), unless the
``ESCDELAY`` environment variable (milliseconds, read by Textual) is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, cast

from textual import constants
from textual.app import App
from textual.binding import Binding

from fbagent.tui.adjudicate_screen import AdjudicateScreen
from fbagent.tui.adjudicate_session import AdjudicateSession
from fbagent.tui.baseline_screen import BaselineScreen
from fbagent.tui.baseline_session import BaselineSession
from fbagent.tui.revise_screen import ReviseScreen
from fbagent.tui.session import ReviseSession, ValidateSession
from fbagent.tui.unsaved_screen import DISCARD, SAVE, UnsavedScreen
from fbagent.tui.validate_screen import ValidateScreen

#: How long (ms) the app waits after ESC for the rest of an escape sequence.
ESCAPE_DELAY_MS = 500


def tune_escape_delay(environ: dict[str, str] | None = None) -> float:
    """Set Textual's escape delay to :data:`ESCAPE_DELAY_MS` unless ``ESCDELAY`` is set; returns the delay in seconds."""
    env = os.environ if environ is None else environ
    if "ESCDELAY" not in env:
        setattr(constants, "ESCAPE_DELAY", ESCAPE_DELAY_MS / 1000.0)  # noqa: B010 - Final in Textual, set before the app starts
    return constants.ESCAPE_DELAY


class AnnotateApp(App[None]):
    """Keyboard-first annotation app for 80x24 and 60x20 terminals (works over SSH)."""

    CSS_PATH = Path(__file__).parent / "app.tcss"  # absolute: subclasses elsewhere keep it
    TITLE = "fbagent annotate"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, session: ValidateSession | ReviseSession | BaselineSession | AdjudicateSession) -> None:
        super().__init__()
        self.session = session
        self.sub_title = f"{session.annotator} · {session.mode}"
        tune_escape_delay()

    def make_screen(self) -> ValidateScreen | ReviseScreen | BaselineScreen | AdjudicateScreen:
        """The screen of the session's mode (override to customize)."""
        if isinstance(self.session, AdjudicateSession):
            return AdjudicateScreen(self.session)
        if isinstance(self.session, BaselineSession):
            return BaselineScreen(self.session)
        if isinstance(self.session, ReviseSession):
            return ReviseScreen(self.session)
        return ValidateScreen(self.session)

    def on_mount(self) -> None:
        """Show the screen of the session's mode."""
        self.push_screen(self.make_screen())

    async def action_quit(self) -> None:
        """Quit; with unsaved text in a dialog, ask first (save / discard / keep editing)."""
        screen = self.screen
        if isinstance(screen, UnsavedScreen):
            self.bell()
            return
        unsaved = getattr(screen, "unsaved", None)
        if callable(unsaved) and unsaved():

            def settle(answer: str | None) -> None:
                if answer == SAVE:
                    cast(Any, screen).save_now()   # the screen that has unsaved text
                if answer in (SAVE, DISCARD):
                    self._quit()

            self.push_screen(UnsavedScreen(getattr(screen, "what", "text"), " and the app is about to quit"), settle)
            return
        self._quit()

    def _quit(self) -> None:
        """Record the time on the current task, then exit (answers are already stored)."""
        self.session.close()
        self.exit()
