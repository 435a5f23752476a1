"""SQLite persistence (sqlite-utils): connection, schema, queries. Knows no LLM.

:func:`open_db` and :func:`transaction` load on first use (PEP 562): importing a light module of the store
(``fbagent.store.items`` for the item statuses) must not import sqlite-utils (which imports numpy) into
``fbagent --help``.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fbagent.store.db import open_db, transaction

__all__ = ["open_db", "transaction"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("fbagent.store.db"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
