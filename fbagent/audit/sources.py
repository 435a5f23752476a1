"""The entries an audit reads, and the lexicon facts beside them.

- a run: its entries as ``fbagent export`` writes them, each read as ``eval run`` reads an exported
  line (:func:`record_entries`; the records come from :func:`fbagent.publish.shortcuts.run_entries`,
  as the publish room owns them); frame definitions and relations from the run's lexicon;
- a dataset: a JSONL file (fbagent's export or the FrameBench authors' columns) or a Hugging Face
  folder, read by :func:`fbagent.eval.dataset.read_entries` exactly as ``eval run --dataset`` reads it;
  frame facts from a named lexicon of the database when given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.eval.dataset import entry_from_fbagent, read_entries
from fbagent.eval.entry import Entry
from fbagent.store.lexicon import frame_definitions, lexicon_by_name
from fbagent.store.pairs import frame_relations


@dataclass
class AuditInput:
    """``entries`` to audit, where they came from (``source``), and the lexicon facts found for them:
    frame ``definitions`` (name -> text) and ``relations`` (``None``: unknown)."""

    entries: list[Entry]
    source: str
    definitions: dict[str, str] = field(default_factory=dict)
    relations: list[tuple[str, str, str]] | None = None


def lexicon_facts(db: sqlite_utils.Database, lexicon_id: int) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Frame definitions and relations of a stored lexicon."""
    return frame_definitions(db, lexicon_id), frame_relations(db, lexicon_id)


def dataset_entries(path: Path, *, lang: str = "en", db: sqlite_utils.Database | None = None, lexicon: str | None = None) -> AuditInput:
    """The entries of a dataset file or Hugging Face folder, read as ``eval run`` reads it; with ``db`` and
    ``lexicon`` (a name), that lexicon's frame facts. Raises :class:`FbagentError` (bad file, unknown lexicon)."""
    entries = read_entries(Path(path), default_lang=lang)
    definitions: dict[str, str] = {}
    relations = None
    if db is not None and lexicon:
        definitions, relations = lexicon_facts(db, lexicon_by_name(db, lexicon)["id"])
    return AuditInput(entries, f"dataset {path}", definitions, relations)


def record_entries(records: Sequence[dict[str, Any]]) -> list[Entry]:
    """Export records in fbagent's format (:func:`fbagent.publish.jsonl.export_records`) read as ``eval run``
    reads an exported line."""
    return [entry_from_fbagent(r, f"entry {r['id']}", r.get("language") or "en") for r in records]
