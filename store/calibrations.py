"""Stored verifier calibrations (``fbagent verifier calibrate``): rows of ``runs`` with ``kind = 'calibrate'``.

A calibration is a run like a generation run (command line, lexicon, verifier backend and model,
encoder, seed, prompt versions, status), so its LLM calls are ``llm_calls`` rows with its
``run_id`` (the audit log and the cache) and ``fbagent runs list`` shows it. Its result lives in
``runs.options`` next to its options::

    {"calibration": {options}, "result": {metrics, by signal}, "sentences": [one row per held-out sentence]}

No schema change: the ``runs`` table already has ``kind``. This module knows no LLM.
"""

from __future__ import annotations

from typing import Any

import sqlite_utils

from fbagent.store import runs as runs_store
from fbagent.store.rows import RunRow

KIND = "calibrate"


def create_calibration(db: sqlite_utils.Database, *, name: str, command: str, lexicon_id: int, verifier: str | None,
                       verifier_model: str | None, encoder: str | None, seed: int, options: dict[str, Any],
                       prompt_versions: dict[str, str]) -> RunRow:
    """Insert the ``runs`` row of a new calibration (status ``running``) and return it."""
    return runs_store.create_run(
        db, name=name, command=command, lexicon_id=lexicon_id, generator=verifier, model=verifier_model,
        verifier_generator=verifier, verifier_model=verifier_model, encoder=encoder, seed=seed,
        options={"calibration": options}, prompt_versions=prompt_versions, kind=KIND,
    )


def finish_calibration(db: sqlite_utils.Database, run: RunRow, *, result: dict[str, Any],
                       sentences: list[dict[str, Any]], status: str = "finished") -> None:
    """Store the result and the per-sentence rows of a calibration and set its status (one transaction)."""
    options = {**(run.get("options") or {}), "result": result, "sentences": sentences}
    runs_store.update_run(db, run["id"], options=options, status=status)


def list_calibrations(db: sqlite_utils.Database, lexicon_id: int | None = None) -> list[RunRow]:
    """Finished calibrations (newest first), of one lexicon when ``lexicon_id`` is given; ``options`` decoded."""
    sql = "SELECT name FROM runs WHERE kind = ? AND status = 'finished'"
    args: list[Any] = [KIND]
    if lexicon_id is not None:
        sql += " AND lexicon_id = ?"
        args.append(lexicon_id)
    names = [r["name"] for r in db.query(sql + " ORDER BY id DESC", args)]
    return [run for run in (runs_store.get_run(db, n) for n in names) if run is not None]


def latest_calibration(db: sqlite_utils.Database, lexicon_id: int, signal: str) -> RunRow | None:
    """The newest finished calibration of the lexicon that measured ``signal`` (roundtrip, encoder, both),
    or ``None``."""
    for run in list_calibrations(db, lexicon_id):
        if signal in ((run.get("options") or {}).get("result") or {}).get("signals", {}):
            return run
    return None


def calibration_name_taken(db: sqlite_utils.Database, name: str) -> bool:
    """Whether a run (of any kind) is named ``name``."""
    return db.execute("SELECT 1 FROM runs WHERE name = ?", [name]).fetchone() is not None
