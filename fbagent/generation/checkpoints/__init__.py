"""The entry graph's checkpointer: LangGraph's SQLite saver, written on the event loop thread (:mod:`.saver`).

The names below load on first use (PEP 562): :class:`~.saver.LoopSqliteSaver` subclasses LangGraph's
``SqliteSaver`` when its module is imported, and :mod:`fbagent.generation.run` imports this package at
module level but opens the checkpointer only after the first screening requests are out
(tests/test_startup_selection.py), so LangGraph's import runs behind them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.generation.checkpoints.saver import (
        FLUSH_AFTER_S,
        LoopSqliteSaver,
        open_checkpointer,
    )

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.generation.checkpoints.saver": ("FLUSH_AFTER_S", "LoopSqliteSaver", "open_checkpointer"),
}
__all__ = ["FLUSH_AFTER_S", "LoopSqliteSaver", "open_checkpointer"]

__getattr__ = lazy_attributes(__name__, _MODULES)
