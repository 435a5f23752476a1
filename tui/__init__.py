"""Textual annotation app. Knows no LLM.

Rooms: :mod:`.session` (validate and revise sessions: state and SQLite, no Textual),
:mod:`.baseline_session` (the human baseline's session), :mod:`.app` (the Textual app) and one screen per
file (``*_screen.py``, its CSS beside it).

The names below load on first use (PEP 562): ``fbagent annotate --help`` imports this package, and
must not import Textual (the screens subclass it at module level) nor the baseline's bootstrap (numpy).
``from fbagent import tui`` at module level, then ``tui.AnnotateApp(session)`` at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.tui.adjudicate_session import AdjudicateSession
    from fbagent.tui.app import AnnotateApp
    from fbagent.tui.baseline_session import BaselineSession

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.tui.adjudicate_session": ("AdjudicateSession",),
    "fbagent.tui.app": ("AnnotateApp",),
    "fbagent.tui.baseline_session": ("BaselineSession",),
}
__all__ = ["AdjudicateSession", "AnnotateApp", "BaselineSession"]

__getattr__ = lazy_attributes(__name__, _MODULES)
