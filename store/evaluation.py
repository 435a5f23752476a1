"""Evaluation tables (model predictions). Owned by the evaluation feature."""

from __future__ import annotations

import sqlite_utils

SCHEMA_SQL = ""


def schema_present(db: sqlite_utils.Database) -> bool:
    """True when every evaluation table exists."""
    return True
