"""Annotation tables (human validation). Owned by the annotation feature."""

from __future__ import annotations

import sqlite_utils

SCHEMA_SQL = ""


def schema_present(db: sqlite_utils.Database) -> bool:
    """True when every annotation table exists."""
    return True
