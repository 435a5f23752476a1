"""SQLite persistence (sqlite-utils): connection, schema, queries. Knows no LLM."""

from fbagent.store.db import open_db, transaction

__all__ = ["open_db", "transaction"]
