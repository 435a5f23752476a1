"""Baseline mode without UI: an independent annotator's seeded sample of final entries, one four-choice
problem per page, every answer written at once (:mod:`fbagent.validation.baseline` has the rules).

The screen (:mod:`fbagent.tui.baseline_screen`) only draws and forwards keys.
"""

from __future__ import annotations

from typing import Any

import sqlite_utils

from fbagent.store import baseline as store
from fbagent.validation.baseline import BaselineOptions, plan


class BaselineSession:
    """One annotator's baseline problems (:func:`fbagent.validation.baseline.plan`), walked in order."""

    mode = "baseline"

    def __init__(self, db: sqlite_utils.Database, annotator: str, tasks: list[dict[str, Any]]) -> None:
        self.db = db
        self.annotator = annotator
        self.tasks = tasks
        open_ = [i for i, t in enumerate(tasks) if t["answer"] is None]
        self.index = open_[0] if open_ else 0
        self.resume_note = (f"Resuming at problem {self.index + 1} of {len(tasks)}." if self.n_done and open_
                            else "")

    @classmethod
    def open(cls, db: sqlite_utils.Database, annotator: str, options: BaselineOptions) -> BaselineSession:
        """Plan (first time) or reload the annotator's sample. Raises :class:`fbagent.errors.FbagentError`
        for an annotator who validated final entries, or when no entry is final yet."""
        return cls(db, annotator, plan(db, annotator, options))

    @property
    def total(self) -> int:
        """Problems in the sample (two per sampled entry)."""
        return len(self.tasks)

    @property
    def n_done(self) -> int:
        """Problems answered."""
        return sum(1 for t in self.tasks if t["answer"] is not None)

    @property
    def finished(self) -> bool:
        """Every problem answered."""
        return self.n_done == self.total

    def current(self) -> dict[str, Any]:
        """The task on screen: ``question``, ``first``, ``second``, ``answer`` (None until given), ..."""
        return self.tasks[self.index]

    def answer(self, choice: str) -> None:
        """Store ``choice`` (sentence_a | sentence_b | both | neither) for the current problem and move on to
        the next open one (the last one stays)."""
        task = self.current()
        task["correct"] = int(store.save_answer(self.db, task["id"], choice))
        task["answer"] = choice
        self.move(1)

    def move(self, step: int) -> None:
        """Go ``step`` problems forward (negative: back), staying inside the sample."""
        self.index = max(0, min(self.total - 1, self.index + step))

    def close(self) -> None:
        """Nothing to flush: every answer is already stored."""
