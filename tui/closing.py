"""Keys and taps for a screen that is already closing are ignored.

Keys typed before the app has drawn its first screen (three keys queued while a new annotator's app
starts, a phone's double tap) all reach the first-time help screen. The first closes it; Textual's
``dismiss`` pops *the app's top screen*, so each further one popped the screen below (the task screen)
and at last raised ``ScreenStackError: Can't pop screen`` (issue 43 item 1). :func:`on_top` is the guard
every dialog checks before it closes itself.
"""

from __future__ import annotations

from typing import Any

from textual.app import ScreenStackError
from textual.screen import Screen


def on_top(screen: Screen[Any]) -> bool:
    """Whether ``screen`` is the app's top screen (not dismissed yet), so that a key or tap may close it."""
    try:
        return screen.app.screen is screen
    except ScreenStackError:
        return False
