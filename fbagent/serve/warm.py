"""Heavy state computed once in the server and shared with every app: the English inflections of the database's verbs.

An app process re-finds the target verb of a revised sentence with
:func:`fbagent.store.revisions.find_verb_span`, which needs a verb's
inflected forms. Loading lemminflect for that took 1.75-2.94 s and about
270 MB in every new tab (the first revised task stalled; each app grew from
83 to 309 MB). Instead the server computes ``lemma -> forms`` for every verb
of the ``items`` table once (lemminflect loads once, in the server), writes
it as JSON to a private temporary folder, and each app reads that file at
start (:func:`fbagent.store.revisions.use_inflections`): tens of milliseconds,
no lemminflect in the app. Verbs added while the server runs (a ``generate``
writing to the same database) are added before the next app starts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

import sqlite_utils

from fbagent.files import hold, remove_stale, staged_beside
from fbagent.store.revisions import inflection_table, use_inflections

#: the lock file inside a live server's private folder (see :class:`InflectionFile`)
LOCK = ".fbagent-serving"


def item_verbs(db: sqlite_utils.Database) -> set[str]:
    """The distinct verb lemmas of the ``items`` table."""
    return {r[0] for r in db.execute("SELECT DISTINCT verb FROM items WHERE verb IS NOT NULL AND verb != ''")}


class InflectionFile:
    """The shared ``lemma -> forms`` table as a JSON file in the server's private folder (removed by :meth:`close`).

    The folder (``$TMPDIR/fbagent-serve-XXXXXXXX``, mode 0700; the apps' logs go there too) holds :data:`LOCK`,
    ``flock``'ed while the server lives: a server killed with ``kill -9`` leaves its folder, and the next
    server's start removes it (never the folder of a server still running).
    """

    def __init__(self) -> None:
        temp = Path(tempfile.gettempdir())
        remove_stale(staged_beside(temp, re.compile(r"fbagent-serve-[A-Za-z0-9_]{8}")), LOCK)
        self.folder = Path(tempfile.mkdtemp(prefix="fbagent-serve-"))  # mode 0700
        self._lock_fd: int | None = hold(self.folder / LOCK)
        self.path = self.folder / "inflections.json"
        self.table: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def update(self, lemmas: Iterable[str]) -> str:
        """Add the forms of lemmas not in the table yet (lemminflect), rewrite the file atomically; returns its path."""
        with self._lock:
            new = sorted(set(lemmas) - set(self.table))
            if new or not self.path.exists():
                self.table.update(inflection_table(new))
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(self.table, ensure_ascii=False), encoding="utf-8")
                os.replace(tmp, self.path)
            return str(self.path)

    def close(self) -> None:
        """Remove the folder."""
        shutil.rmtree(self.folder, ignore_errors=True)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def load_inflections(path: str | None) -> int:
    """In an app process: use the table at ``path`` (:func:`fbagent.store.revisions.use_inflections`); returns its size.

    A missing or unreadable file is no error: the app then loads lemminflect when it needs it.
    """
    if not path:
        return 0

    try:
        table = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    use_inflections(table)
    return len(table)
