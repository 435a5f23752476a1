"""Queries for ``batch_jobs``: the provider batch jobs of ``generate --batch`` (schema 13).

A job row is written right after the provider accepted the job and **before** it is waited for, so that a
command killed while the job runs (``kill -9``, a closed terminal) finds it on the next run and polls it
instead of submitting (and paying for) its lines again. ``keys`` are the ``llm_calls`` cache keys of its
lines (the lines' custom ids). This module knows no LLM: it stores and reads JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlite_utils

from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.transaction import inserted_id

#: states after which a job changes no more (OpenAI's and Gemini's final states, as fbagent names them)
FINAL_STATES = ("completed", "expired", "failed", "cancelled")


@dataclass(frozen=True)
class BatchJob:
    """One ``batch_jobs`` row: ``id`` (the row), ``job_id`` (the provider's), ``keys`` (cache keys of its
    lines), ``status`` (the provider's state as last read), ``answered`` / ``failed`` lines once collected,
    ``submitted_at`` / ``updated_at`` (ISO 8601 UTC)."""

    id: int
    run_id: int | None
    provider: str
    model: str
    job_id: str
    wave: int
    keys: tuple[str, ...]
    status: str
    answered: int
    failed: int
    submitted_at: str
    updated_at: str

    @property
    def lines(self) -> int:
        """The job's lines (requests)."""
        return len(self.keys)

    @property
    def open(self) -> bool:
        """Whether the job may still answer lines (its state is not final, or it is being cancelled)."""
        return self.status not in FINAL_STATES

    def age_s(self, now: datetime | None = None) -> float:
        """Seconds since the job was submitted (``now``: default the current UTC time)."""
        start = datetime.fromisoformat(self.submitted_at.replace("Z", "+00:00"))
        if start.tzinfo is None:
            start = start.replace(tzinfo=UTC)
        return max(0.0, ((now or datetime.now(UTC)) - start).total_seconds())


def _row(r: tuple) -> BatchJob:
    return BatchJob(int(r[0]), r[1], r[2], r[3], r[4], int(r[5]), tuple(json.loads(r[6])), r[7], int(r[8]),
                    int(r[9]), r[10], r[11])


_COLUMNS = ("id, run_id, provider, model, job_id, wave, keys, status, answered, failed, submitted_at, updated_at")


def insert_job(db: sqlite_utils.Database, *, run_id: int | None, provider: str, model: str, job_id: str, wave: int,
               keys: list[str], status: str = "submitted") -> int:
    """Store a job the provider accepted (one short transaction); returns the row id."""
    stamp = utc_now()
    with transaction(db) as conn:
        cur = conn.execute(
            "INSERT INTO batch_jobs (run_id, provider, model, job_id, wave, keys, lines, status, submitted_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run_id, provider, model, job_id, wave, json.dumps(keys), len(keys), status, stamp, stamp))
        return inserted_id(cur)


def update_job(db: sqlite_utils.Database, row_id: int, *, status: str, answered: int | None = None,
               failed: int | None = None) -> None:
    """Record a job's state (and, once collected, its answered and failed lines)."""
    with transaction(db) as conn:
        conn.execute("UPDATE batch_jobs SET status = ?, answered = COALESCE(?, answered),"
                     " failed = COALESCE(?, failed), updated_at = ? WHERE id = ?",
                     (status, answered, failed, utc_now(), row_id))


def run_jobs(db: sqlite_utils.Database, run_id: int, *, open_only: bool = False) -> list[BatchJob]:
    """The jobs of run ``run_id`` in submission order (``open_only``: those not in a final state)."""
    if "batch_jobs" not in db.table_names():   # a file opened read-only before its upgrade
        return []
    rows = db.execute(f"SELECT {_COLUMNS} FROM batch_jobs WHERE run_id = ? ORDER BY id", [run_id]).fetchall()
    jobs = [_row(r) for r in rows]
    return [j for j in jobs if j.open] if open_only else jobs


def age_text(seconds: float) -> str:
    """``12 s``, ``3 min``, ``5.2 h``: a job's age (:meth:`BatchJob.age_s`) for people."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
