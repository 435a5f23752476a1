"""Queries for generation runs: the ``runs`` table and the per-invocation ``run_sessions`` log.

A run (``runs`` row) is one named generation job: command line, lexicon,
selection, backends, models, encoder, seed, options and prompt versions. The
same run can be continued many times (resume after Ctrl-C or a crash); each
invocation of ``fbagent generate`` is one ``run_sessions`` row with its own
counters (new LLM calls, cache hits, tokens, entries finished, wall time),
because cache hits add no ``llm_calls`` row. This module knows no LLM.
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any, cast

import sqlite_utils

from fbagent import seeds
from fbagent.limits import SQLITE_INT_MAX
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.items import STATUSES
from fbagent.store.rows import (
    ModelUsage,
    RunListing,
    RunRow,
    RunSessionRow,
    RunUsage,
    SessionCounts,
    TokenUsage,
)
from fbagent.store.transaction import inserted_id

RUN_STATUSES = ("running", "finished", "interrupted")


def _decode(row: dict[str, Any] | None) -> RunRow | None:
    """A ``runs`` row as sqlite-utils gives it, ``options``/``prompt_versions`` decoded and ``seed`` read back."""
    if row is None:
        return None
    row = dict(row)
    for key in ("options", "prompt_versions"):
        if isinstance(row.get(key), str):
            row[key] = json.loads(row[key])
    if "seed" in row:
        row["seed"] = seeds.from_sql(row["seed"])
    return cast("RunRow", row)


def get_run(db: sqlite_utils.Database, name_or_id: str | int) -> RunRow | None:
    """The run named ``name_or_id`` (or with that integer id), ``options``/``prompt_versions`` decoded."""
    rows = list(db.query("SELECT * FROM runs WHERE name = ?", [str(name_or_id)]))
    if not rows and str(name_or_id).isdigit() and int(name_or_id) <= SQLITE_INT_MAX:  # else no such id
        rows = list(db.query("SELECT * FROM runs WHERE id = ?", [int(name_or_id)]))
    return _decode(rows[0]) if rows else None


def create_run(
    db: sqlite_utils.Database,
    *,
    name: str,
    command: str,
    lexicon_id: int | None,
    generator: str | None,
    model: str | None,
    verifier_generator: str | None,
    verifier_model: str | None,
    encoder: str | None,
    seed: int | None,
    options: dict[str, Any],
    prompt_versions: dict[str, str],
    kind: str = "generate",
) -> RunRow:
    """Insert a new ``runs`` row (status ``running``) in one transaction and return it."""
    stamp = utc_now()
    with transaction(db) as conn:
        conn.execute(
            "INSERT INTO runs (name, kind, command, lexicon_id, generator, model, verifier_generator,"
            " verifier_model, encoder, seed, options, prompt_versions, status, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)",
            (name, kind, command, lexicon_id, generator, model, verifier_generator, verifier_model, encoder,
             seeds.to_sql(seed), json.dumps(options, sort_keys=True), json.dumps(prompt_versions, sort_keys=True),
             stamp, stamp),
        )
    run = get_run(db, name)
    assert run is not None
    return run


def update_run(db: sqlite_utils.Database, run_id: int, **fields: object) -> None:
    """Set columns of one run (``status``, ``selection_id``, ``command``, ``prompt_versions``...)."""
    if not fields:
        return
    for key in ("options", "prompt_versions"):
        if key in fields and not isinstance(fields[key], str):
            fields[key] = json.dumps(fields[key], sort_keys=True)
    fields["updated_at"] = utc_now()
    cols = ", ".join(f"{k} = ?" for k in fields)
    with transaction(db) as conn:
        conn.execute(f"UPDATE runs SET {cols} WHERE id = ?", [*fields.values(), run_id])


def start_session(db: sqlite_utils.Database, run_id: int, command: str, *, pid: int | None = None) -> int:
    """Record the start of one ``fbagent generate`` invocation with its host and ``pid`` (default: this
    process's; a supervised command passes its supervisor's, the process the user started and sees);
    returns its id."""
    with transaction(db) as conn:
        cur = conn.execute(
            "INSERT INTO run_sessions (run_id, started_at, status, command, pid, host)"
            " VALUES (?, ?, 'running', ?, ?, ?)",
            (run_id, utc_now(), command, pid or os.getpid(), socket.gethostname()),
        )
        return inserted_id(cur)


def session_alive(session: RunSessionRow) -> bool | None:
    """Whether a ``running`` session's process still runs: True / False, or None when it ran on another host.

    A session without a pid (written before schema version 5) counts as gone.
    """
    if session.get("pid") is None:
        return False
    if session.get("host") not in (None, socket.gethostname()):
        return None
    try:
        os.kill(int(session["pid"] or 0), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user holds that pid: alive, not ours to judge
        return True
    return True


def stale_session_counts(db: sqlite_utils.Database, session: RunSessionRow) -> SessionCounts:
    """What a session that never finished did, counted from the rows it wrote.

    Window: from its ``started_at`` to the next session's start of the same run
    (or now). ``entries_done``: ``items`` rows of the run updated in the window;
    ``calls`` / ``failures`` / tokens: ``llm_calls`` rows of the run created in
    it; ``ended_at``: the last of those rows (else ``started_at``).
    """
    nxt = db.execute("SELECT MIN(started_at) FROM run_sessions WHERE run_id = ? AND id > ?",
                     [session["run_id"], session["id"]]).fetchone()[0] or "9999"
    window = [session["run_id"], session["started_at"], nxt]
    entries, last_item = db.execute(
        "SELECT COUNT(*), MAX(updated_at) FROM items WHERE run_id = ? AND updated_at >= ? AND updated_at < ?",
        window).fetchone()
    calls, failures, n_in, n_out, last_call = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(error IS NOT NULL), 0), COALESCE(SUM(input_tokens), 0),"
        " COALESCE(SUM(output_tokens), 0), MAX(created_at) FROM llm_calls"
        " WHERE run_id = ? AND created_at >= ? AND created_at < ?", window).fetchone()
    ended = max([t for t in (last_item, last_call) if t] or [session["started_at"]])
    return {"entries_done": int(entries), "calls": int(calls), "failures": int(failures),
            "input_tokens": int(n_in), "output_tokens": int(n_out), "ended_at": ended}


def recover_stale_sessions(db: sqlite_utils.Database, run_id: int) -> list[RunSessionRow]:
    """Mark the run's ``running`` sessions whose process is gone (killed, crashed) as ``interrupted``.

    Their counters come from :func:`stale_session_counts`; the run itself becomes
    ``interrupted`` when no session of it is still alive. Sessions on another host
    are left as they are. Returns the sessions marked, with their counts.
    """
    marked: list[RunSessionRow] = []
    for s in sessions(db, run_id):
        if s["status"] != "running" or session_alive(s) is not False:
            continue
        counts = stale_session_counts(db, s)
        with transaction(db) as conn:
            conn.execute(
                "UPDATE run_sessions SET status = 'interrupted', ended_at = ?, entries_done = ?, calls = ?,"
                " failures = ?, input_tokens = ?, output_tokens = ? WHERE id = ? AND status = 'running'",
                (counts["ended_at"], counts["entries_done"], counts["calls"], counts["failures"],
                 counts["input_tokens"], counts["output_tokens"], s["id"]))
        recovered: RunSessionRow = {**s, **counts, "status": "interrupted"}
        marked.append(recovered)
    if marked and not any(s["status"] == "running" and session_alive(s) is not False for s in sessions(db, run_id)):
        run = get_run(db, run_id)
        if run is not None and run.get("status") == "running":
            update_run(db, run_id, status="interrupted")
    return marked


def finish_session(db: sqlite_utils.Database, session_id: int, *, status: str, entries_done: int, calls: int,
                   cache_hits: int, failures: int, input_tokens: int, output_tokens: int, wall_s: float) -> None:
    """Store one session's final counters (wall time in seconds)."""
    with transaction(db) as conn:
        conn.execute(
            "UPDATE run_sessions SET ended_at = ?, status = ?, entries_done = ?, calls = ?, cache_hits = ?,"
            " failures = ?, input_tokens = ?, output_tokens = ?, wall_s = ? WHERE id = ?",
            (utc_now(), status, entries_done, calls, cache_hits, failures, input_tokens, output_tokens, wall_s,
             session_id),
        )


def sessions(db: sqlite_utils.Database, run_id: int, *, as_recovered: bool = False) -> list[RunSessionRow]:
    """Every session of a run, oldest first.

    ``as_recovered=True`` (read-only views such as ``runs show``): a ``running``
    session whose process is gone is shown as :func:`recover_stale_sessions` would
    record it (``status`` ``interrupted``, counts from the stored rows, ``killed``
    True), without writing anything.
    """
    rows = [cast("RunSessionRow", dict(r))
            for r in db.query("SELECT * FROM run_sessions WHERE run_id = ? ORDER BY id", [run_id])]
    if as_recovered:
        for i, s in enumerate(rows):
            if s["status"] == "running" and session_alive(s) is False:
                rows[i] = {**s, **stale_session_counts(db, s), "status": "interrupted", "killed": True}
    return rows


def item_counts(db: sqlite_utils.Database, run_id: int) -> dict[str, int]:
    """Items of a run by status: ``{"verified": n, "flagged": n, "rejected": n, "failed": n}`` (zeros included)."""
    counts = dict.fromkeys(STATUSES, 0)
    for status, n in db.execute("SELECT status, COUNT(*) FROM items WHERE run_id = ? GROUP BY status", [run_id]):
        counts[status] = int(n)
    return counts


def usage(db: sqlite_utils.Database, run_id: int) -> RunUsage:
    """LLM usage of a run: ``calls``, ``failures``, ``input_tokens``, ``output_tokens`` (from ``llm_calls``),
    ``cache_hits`` and ``wall_s`` summed over sessions, and ``by_task``."""
    sql = (
        "SELECT task, COUNT(*), COALESCE(SUM(error IS NOT NULL), 0), COALESCE(SUM(input_tokens), 0),"
        " COALESCE(SUM(output_tokens), 0) FROM llm_calls WHERE run_id = ? GROUP BY task ORDER BY task"
    )
    by_task: dict[str, TokenUsage] = {}
    for task, calls, failures, n_in, n_out in db.execute(sql, [run_id]).fetchall():
        by_task[task] = TokenUsage(calls=int(calls), failures=int(failures), input_tokens=int(n_in),
                                   output_tokens=int(n_out))
    hits, wall = db.execute(
        "SELECT COALESCE(SUM(cache_hits), 0), COALESCE(SUM(wall_s), 0) FROM run_sessions WHERE run_id = ?", [run_id]
    ).fetchone()
    return RunUsage(calls=sum(t["calls"] for t in by_task.values()),
                    failures=sum(t["failures"] for t in by_task.values()),
                    input_tokens=sum(t["input_tokens"] for t in by_task.values()),
                    output_tokens=sum(t["output_tokens"] for t in by_task.values()),
                    cache_hits=int(hits), wall_s=float(wall), by_task=by_task)


def usage_by_model(db: sqlite_utils.Database, run_id: int) -> list[ModelUsage]:
    """Tokens a run's requests used per model, from ``llm_calls`` (failed requests too: a provider bills
    what it answered): ``[{"backend", "model", "batch", "calls", "input_tokens", "output_tokens"}]`` by backend,
    model and ``batch`` (whether the requests went through a provider batch job, ``generate --batch``: billed
    at the batch discount; their request record has a ``batch`` key)."""
    rows = db.execute(
        "SELECT backend, model, json_extract(request, '$.batch') IS NOT NULL AS batch, COUNT(*),"
        " COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0)"
        " FROM llm_calls WHERE run_id = ? GROUP BY backend, model, batch ORDER BY backend, model, batch",
        [run_id]).fetchall()
    return [ModelUsage(backend=b, model=m, batch=bool(batch), calls=int(n), input_tokens=int(i), output_tokens=int(o))
            for b, m, batch, n, i, o in rows]


def list_runs(db: sqlite_utils.Database) -> list[RunListing]:
    """Every run, newest first, with item counts by status and LLM usage totals."""
    out: list[RunListing] = []
    for row in db.query("SELECT * FROM runs ORDER BY id DESC"):
        run = _decode(row)
        assert run is not None
        out.append(RunListing(**run, items=item_counts(db, run["id"]), usage=usage(db, run["id"])))
    return out


def run_names(db: sqlite_utils.Database) -> dict[int, str]:
    """``{run id: run name}`` of every run."""
    return {r["id"]: r["name"] for r in db.query("SELECT id, name FROM runs")}
