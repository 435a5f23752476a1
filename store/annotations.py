"""Annotation tables (human validation, FrameBench step 3) and their queries.

Owned by the annotation feature. Tables:

- ``annotators``: one row per annotator name with the seed of their task
  shuffle and sentence orders (recorded once, reused on every reopen).
- ``annotation_sessions``: one row per ``fbagent annotate`` start (mode,
  options, number of assigned tasks, start and last-activity times).
- ``annotation_tasks``: one row per annotator x pair task. A task is one of
  the four pairs of an entry (FrameBench, Yano and Sasano 2026, section 3.2):
  ``base`` (S_A, S_B), ``extended`` (S_B', S_A'), and the auxiliary
  ``both_correct`` (S_A, S_A') and ``neither_correct`` (S_B, S_B'). The row
  keeps the shown order (which item field was shown as "Sentence A" and which
  as "Sentence B"), the gold answer in the shown labels, the annotator's
  correctness choice and acceptability, comment, skip flag, seconds on screen
  and timestamps. The row is written the moment an answer is given.
- ``annotation_history``: the previous value of every answer field that an
  annotator changed (old, new, when).
- ``annotation_judgments`` (schema 4): every complete judgment (choice and
  acceptability) with the :func:`text_fingerprint` of what was shown, the
  question and the two sentences. A judgment counts only while the item's
  current (revised) text has that fingerprint (FrameBench 3.3, "Manual
  Revision": revised items are judged again); reverting the text makes it
  count again. Rows are appended, never changed.

``annotation_tasks.fingerprint`` is the fingerprint of the text the row's
current choice and acceptability were given on. When the text changed since,
the next answer first moves the old answer fields to ``annotation_history``
(old value, new NULL) and starts a fresh judgment of the new text.

Every write is one short ``BEGIN IMMEDIATE`` transaction (see
:func:`fbagent.store.db.transaction`), so several annotators in separate
processes can share one WAL database file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import sqlite_utils

from fbagent import seeds
from fbagent.errors import FbagentError
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.store.revisions import effective_texts
from fbagent.store.rows import AnnotationTaskRow, HistoryRow, JudgmentRow, RunRow
from fbagent.store.runs import get_run
from fbagent.store.transaction import inserted_id

#: Pair tasks of one entry (FrameBench section 3.2).
PAIR_KINDS = ("base", "extended", "both_correct", "neither_correct")

#: Valid correctness choices in the shown labels.
CHOICES = ("A", "B", "both", "neither")

#: Answer fields whose changes go to ``annotation_history``.
ANSWER_FIELDS = ("choice", "acceptability", "comment", "skipped")


def shown_question(texts: Mapping[str, str | None]) -> str | None:
    """The question a validate-mode task shows: the four-choice form, else the two-choice form.

    ``texts`` is an item (or its effective texts, :func:`fbagent.store.revisions.effective_texts`).
    """
    return texts.get("question_four_choice") or texts.get("question")


def text_fingerprint(question: str | None, first: str | None, second: str | None) -> str:
    """Fingerprint of what one pair task shows: 32 hex digits of sha256 over ``[question, first, second]``.

    ``first`` and ``second`` are the texts shown as Sentence A and Sentence B
    (JSON-encoded, so None and "" differ). Stable across versions: stored
    fingerprints are compared with fingerprints of the current text.
    """
    blob = json.dumps([question, first, second], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def task_fingerprint(texts: Mapping[str, str | None], shown_first: str, shown_second: str) -> str:
    """:func:`text_fingerprint` of a task whose item has ``texts`` and shows fields ``shown_first``, ``shown_second``."""
    return text_fingerprint(shown_question(texts), texts.get(shown_first), texts.get(shown_second))


def default_seed(annotator: str) -> int:
    """Seed recorded for a new annotator when none is given: first 4 bytes of sha256(name), as int."""
    return int.from_bytes(hashlib.sha256(annotator.encode("utf-8")).digest()[:4], "big")


# --------------------------------------------------------------------------- runs and items


def resolve_run(db: sqlite_utils.Database, run: str | None) -> RunRow | None:
    """The ``runs`` row named ``run`` (name, or numeric id); ``None`` when ``run`` is None.

    Raises :class:`FbagentError` when no such run exists.
    """
    if run is None:
        return None

    row = get_run(db, run)
    if row is None:
        names = [r["name"] for r in db.query("SELECT name FROM runs ORDER BY id")]
        known = ", ".join(names[:8]) + (" ..." if len(names) > 8 else "") if names else "none"
        raise FbagentError(
            f"unknown run {run!r} (runs in this database: {known})",
            "pass --run with one of these names, or see `fbagent runs list`",
        )
    return row


def select_items(
    db: sqlite_utils.Database,
    *,
    run: str | None = None,
    language: str | None = None,
    statuses: Sequence[str] = ANNOTATED_STATUSES,
    columns: str = "id",
) -> list[dict[str, Any]]:
    """Items (entries) in their stable order (run id, pair id, k), filtered by run, language, status.

    Returns a list of row dicts with ``columns``. Raises :class:`FbagentError`
    for an unknown run. An empty list means nothing matched (callers decide
    whether that is an error).
    """
    where = []
    params: list[Any] = []
    run_row = resolve_run(db, run)
    if run_row is not None:
        where.append("run_id = ?")
        params.append(run_row["id"])
    if language is not None:
        where.append("language = ?")
        params.append(language)
    if statuses:
        where.append(f"status IN ({', '.join('?' for _ in statuses)})")
        params.extend(statuses)
    sql = f"SELECT {columns} FROM items"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY run_id, pair_id, k, id"
    return list(db.query(sql, params))


def explain_no_items(
    db: sqlite_utils.Database,
    *,
    run: str | None,
    language: str | None,
    statuses: Sequence[str],
    options: Sequence[str] = ("--run", "--lang"),
) -> FbagentError:
    """The one-line error for an empty selection of items, naming what was asked for.

    ``options`` are the selection options the calling command has (the fix
    names only those, plus ``--status``).
    """
    total = db.execute("SELECT count(*) FROM items").fetchone()[0]
    if total == 0:
        return FbagentError(
            "the database has no generated entries (table items is empty)",
            "run `fbagent generate ...` first, or pass --db with the database that holds them",
        )
    parts = [f"status {'/'.join(statuses)}" if statuses else "any status"]
    if run:
        parts.append(f"run {run}")
    if language:
        parts.append(f"language {language}")
    by_status = ", ".join(f"{n} {st}" for st, n in db.execute(
        "SELECT status, count(*) FROM items GROUP BY status ORDER BY count(*) DESC, status"))
    given = [o for o, value in (("--run", run), ("--lang", language)) if value and o in options]
    widen = "widen --status (e.g. --status verified,flagged,rejected)"
    return FbagentError(
        f"no entries match {', '.join(parts)} ({total} entries in the database: {by_status})",
        f"drop or change {'/'.join(given)}, or {widen}" if given else widen,
    )


# --------------------------------------------------------------------------- annotators, sessions


def ensure_annotator(db: sqlite_utils.Database, name: str, seed: int | None = None) -> int:
    """Record ``name`` (first time only) and return its recorded seed.

    A new annotator gets ``seed`` or :func:`default_seed`. Raises
    :class:`FbagentError` when ``seed`` is given and differs from the seed
    already recorded (the task order was built with that one).
    """
    if not name or not name.strip():
        raise FbagentError("annotator name is empty", "pass --annotator NAME (e.g. your first name)")
    with transaction(db) as conn:
        row = conn.execute("SELECT seed FROM annotators WHERE name = ?", [name]).fetchone()
        if row is not None:
            stored = seeds.from_sql(row[0])
            if seed is not None and seed != stored:
                raise FbagentError(
                    f"annotator {name!r} already has seed {stored} (tasks were shuffled with it)",
                    f"drop --seed or pass --seed {stored}",
                )
            assert stored is not None   # the column is NOT NULL
            return stored
        new_seed = default_seed(name) if seed is None else seeds.check_seed(seed)
        conn.execute(
            "INSERT INTO annotators (name, seed, created_at) VALUES (?, ?, ?)",
            [name, seeds.to_sql(new_seed), utc_now()],
        )
        return new_seed


def start_session(
    db: sqlite_utils.Database, annotator: str, mode: str, seed: int, options: dict[str, Any], n_assigned: int
) -> int:
    """Insert an ``annotation_sessions`` row; returns its id."""
    ts = utc_now()
    with transaction(db) as conn:
        cur = conn.execute(
            "INSERT INTO annotation_sessions (annotator, mode, seed, options, n_assigned, started_at, last_active_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [annotator, mode, seed, json.dumps(options, sort_keys=True), n_assigned, ts, ts],
        )
        return inserted_id(cur)


# --------------------------------------------------------------------------- tasks


@dataclass
class Task:
    """One annotator x pair task as loaded into the app (mirrors an ``annotation_tasks`` row)."""

    id: int
    item_id: str
    pair: str
    shown_first: str
    shown_second: str
    gold: str
    choice: str | None = None
    acceptability: str | None = None
    acceptable: int | None = None
    comment: str | None = None
    skipped: int = 0
    seconds: float = 0.0
    first_shown_at: str | None = None
    answered_at: str | None = None
    fingerprint: str | None = None
    #: fingerprint of the item's text now (set by the session; None = not known, the row is taken as current)
    current_fingerprint: str | None = field(default=None, compare=False)
    #: judged before on a text that has been revised since, and not yet on the current text
    revised: bool = field(default=False, compare=False)

    @property
    def stale(self) -> bool:
        """The row's answer fields were given on another text than the current one."""
        return (
            self.current_fingerprint is not None
            and self.fingerprint != self.current_fingerprint
            and (self.choice is not None or self.acceptability is not None)
        )

    @property
    def shown_choice(self) -> str | None:
        """The choice given on the current text (None when unanswered or given on an older text)."""
        return None if self.stale else self.choice

    @property
    def shown_acceptability(self) -> str | None:
        """The acceptability level given on the current text (None when unanswered or stale)."""
        return None if self.stale else self.acceptability

    @property
    def done(self) -> bool:
        """Both judgments given (correctness choice and acceptability), on the current text."""
        return self.choice is not None and self.acceptability is not None and not self.stale


_TASK_COLUMNS = (
    "id, item_id, pair, shown_first, shown_second, gold, choice, acceptability, acceptable,"
    " comment, skipped, seconds, first_shown_at, answered_at, fingerprint"
)


def insert_tasks(db: sqlite_utils.Database, rows: Iterable[dict[str, Any]], chunk: int = 2000) -> int:
    """Insert task rows that do not exist yet (``INSERT OR IGNORE`` on annotator x item x pair).

    ``rows`` are dicts with annotator, item_id, pair, sort_key, shown_first,
    shown_second, gold (see :func:`fbagent.validation.assignment.build_tasks`). Existing
    tasks keep their answers and order. Commits every ``chunk`` rows (short
    transactions). Returns the number of rows inserted.
    """
    ts = utc_now()
    inserted = 0
    batch: list[list[Any]] = []

    def flush() -> None:
        nonlocal inserted
        if not batch:
            return
        with transaction(db) as conn:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO annotation_tasks"
                " (annotator, item_id, pair, sort_key, shown_first, shown_second, gold, session_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                batch,
            )
            inserted += conn.total_changes - before
        batch.clear()

    for r in rows:
        batch.append(
            [r["annotator"], r["item_id"], r["pair"], r["sort_key"], r["shown_first"], r["shown_second"], r["gold"],
             r.get("session_id"), ts]
        )
        if len(batch) >= chunk:
            flush()
    flush()
    return inserted


def existing_task_keys(db: sqlite_utils.Database, annotator: str) -> set[tuple[str, str]]:
    """(item_id, pair) of every task already built for ``annotator``."""
    return {
        (r[0], r[1])
        for r in db.execute("SELECT item_id, pair FROM annotation_tasks WHERE annotator = ?", [annotator])
    }


def load_queue(db: sqlite_utils.Database, annotator: str, item_ids: Iterable[str] | None = None) -> list[Task]:
    """The annotator's tasks in queue order (ascending sort_key, then id), restricted to ``item_ids``."""
    wanted = None if item_ids is None else set(item_ids)
    out = []
    for row in db.execute(
        f"SELECT {_TASK_COLUMNS} FROM annotation_tasks WHERE annotator = ? ORDER BY sort_key, id", [annotator]
    ):
        if wanted is not None and row[1] not in wanted:
            continue
        out.append(Task(*row))
    return out


def resume_index(tasks: Sequence[Task]) -> int:
    """Where to resume: the first task neither done nor skipped; else the first skipped one; else 0."""
    for i, t in enumerate(tasks):
        if not t.done and not t.skipped:
            return i
    for i, t in enumerate(tasks):
        if not t.done:
            return i
    return 0


def save_answer(
    db: sqlite_utils.Database,
    task: Task,
    *,
    annotator: str,
    seconds: float | None = None,
    shown_at: str | None = None,
    fingerprint: str | None = None,
    **changes: str | int | None,
) -> list[str]:
    """Write changed answer fields of ``task`` now (one short transaction) and update ``task`` in place.

    ``changes`` may hold choice (A|B|both|neither), acceptability (level
    name) with acceptable (0/1), comment, skipped (0/1). ``correct`` is
    recomputed against the stored gold, which is in the shown labels. A field
    that already had a value and changes keeps its old value in
    ``annotation_history``. ``seconds`` (total seconds on screen) is written
    too when given; ``shown_at`` (ISO time the task appeared) fills
    ``first_shown_at`` once. ``answered_at`` is set the first time the task is done.

    ``fingerprint`` is the :func:`text_fingerprint` of the text on screen
    (default: the item's current text, read from the database). A choice or
    acceptability given on another text than the row's earlier answer first
    clears that answer (history rows: old value, new NULL), so the row never
    mixes judgments of two texts. Each time the task is complete after a
    change of choice or acceptability, one ``annotation_judgments`` row is
    appended. Returns the names of the fields that changed (a re-judgment of
    a revised text reports choice/acceptability even when the value is the
    same as before). Raises ValueError for an unknown choice.
    """
    if "choice" in changes and changes["choice"] is not None and changes["choice"] not in CHOICES:
        raise ValueError(f"choice must be one of {CHOICES}, got {changes['choice']!r}")
    ts = utc_now()
    judging = "choice" in changes or "acceptability" in changes
    if judging and fingerprint is None:
        fingerprint = current_fingerprint(db, task)
    plan = _plan_answer(task, changes, judging=judging, fingerprint=fingerprint, seconds=seconds,
                        shown_at=shown_at, ts=ts)
    if plan is None:
        return []
    _write_answer(db, task, plan, changes, annotator=annotator, fingerprint=fingerprint, ts=ts)
    if isinstance(shown_s := plan.sets.get("seconds"), float):   # set (rounded) when seconds were given
        task.seconds = shown_s
    return plan.changed + [f for f, _ in plan.reset if f not in plan.changed]


@dataclass
class _AnswerPlan:
    """What :func:`save_answer` writes: the changed fields, the earlier answer moved to the history
    (``reset``: field, old value), the task row's new values (``sets``) and whether a judgment row
    is appended (``judged``)."""

    changed: list[str]
    reset: list[tuple[str, str | int | None]]
    sets: dict[str, str | int | float | None]
    judged: bool


def _plan_answer(task: Task, changes: dict[str, str | int | None], *, judging: bool, fingerprint: str | None,
                 seconds: float | None, shown_at: str | None, ts: str) -> _AnswerPlan | None:
    """Apply ``changes`` to ``task`` in memory and say what to write; None when nothing changes."""
    reset: list[tuple[str, str | int | None]] = []
    if judging and task.fingerprint not in (None, fingerprint):
        # the earlier answer was given on another text: it goes to the history, the new one starts empty
        reset = [(f, getattr(task, f)) for f in ("choice", "acceptability") if getattr(task, f) is not None]
        task.choice = task.acceptability = task.acceptable = None
    changed = [f for f, v in changes.items() if getattr(task, f) != v]
    if not changed and seconds is None and not reset:
        return None
    sets: dict[str, str | int | float | None] = {f: changes[f] for f in changed}
    if reset:
        for f in ("choice", "correct", "acceptability", "acceptable"):
            sets.setdefault(f, None)
    if "choice" in changed:
        sets["correct"] = None if changes["choice"] is None else int(changes["choice"] == task.gold)
    if changed or reset:
        sets["updated_at"] = ts
    if judging and (changed or reset or task.fingerprint is None):
        sets["fingerprint"] = fingerprint
    if seconds is not None:
        sets["seconds"] = round(float(seconds), 3)
    was_done = task.done
    for f in changed:
        setattr(task, f, changes[f])
    if "fingerprint" in sets:
        task.fingerprint = fingerprint
    if task.current_fingerprint is not None and fingerprint is not None:
        task.current_fingerprint = fingerprint
    if task.done and not was_done and task.answered_at is None:
        task.answered_at = ts
        sets["answered_at"] = ts
    if task.first_shown_at is None:
        task.first_shown_at = shown_at or ts
        sets["first_shown_at"] = task.first_shown_at
    complete = task.choice is not None and task.acceptability is not None
    judged = judging and complete and bool(reset or {"choice", "acceptability"} & set(changed))
    return _AnswerPlan(changed, reset, sets, judged)


def _write_answer(db: sqlite_utils.Database, task: Task, plan: _AnswerPlan, changes: dict[str, str | int | None], *,
                  annotator: str, fingerprint: str | None, ts: str) -> None:
    """One transaction: history rows for the replaced values, the task row, and the judgment row."""
    changed, reset, sets = plan.changed, plan.reset, plan.sets
    with transaction(db) as conn:
        history = [[task.id, annotator, f, str(o), None, ts] for f, o in reset]
        if changed:
            old = conn.execute(
                f"SELECT {', '.join(changed)} FROM annotation_tasks WHERE id = ?", [task.id]
            ).fetchone()
            reset_fields = {f for f, _ in reset}
            history += [
                [task.id, annotator, f, None if o is None else str(o), None if changes[f] is None else str(changes[f]), ts]
                for f, o in zip(changed, old, strict=True)
                if f in ANSWER_FIELDS and f not in reset_fields and o is not None and o != changes[f]
            ]
        if history:
            conn.executemany(
                "INSERT INTO annotation_history (task_id, annotator, field, old, new, changed_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                history,
            )
        assignments = ", ".join(f"{k} = ?" for k in sets)
        conn.execute(f"UPDATE annotation_tasks SET {assignments} WHERE id = ?", [*sets.values(), task.id])
        if plan.judged:
            row = conn.execute("SELECT correct, acceptable FROM annotation_tasks WHERE id = ?", [task.id]).fetchone()
            conn.execute(
                "INSERT INTO annotation_judgments (task_id, annotator, item_id, pair, fingerprint, choice, correct,"
                " acceptability, acceptable, judged_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'app')",
                [task.id, annotator, task.item_id, task.pair, fingerprint, task.choice, int(row[0]),
                 task.acceptability, int(row[1] or 0), ts],
            )


def current_fingerprint(db: sqlite_utils.Database, task: Task) -> str:
    """:func:`task_fingerprint` of ``task`` on its item's current (revised) text, read from the database."""
    texts = effective_texts(db, [task.item_id]).get(task.item_id, {})
    return task_fingerprint(texts, task.shown_first, task.shown_second)


def restore_judgment(db: sqlite_utils.Database, task: Task, judgment: JudgmentRow, *, annotator: str) -> None:
    """Put an earlier ``annotation_judgments`` row back into the task row (the text was reverted to it).

    The row's answer fields at that moment go to ``annotation_history``; no
    judgment row is appended (the restored one is already there).
    """
    ts = utc_now()
    with transaction(db) as conn:
        history = [
            [task.id, annotator, f, None if getattr(task, f) is None else str(getattr(task, f)), str(judgment[f]), ts]
            for f in ("choice", "acceptability")
            if getattr(task, f) is not None and getattr(task, f) != judgment[f]
        ]
        if history:
            conn.executemany(
                "INSERT INTO annotation_history (task_id, annotator, field, old, new, changed_at) VALUES (?, ?, ?, ?, ?, ?)",
                history,
            )
        conn.execute(
            "UPDATE annotation_tasks SET choice = ?, correct = ?, acceptability = ?, acceptable = ?, fingerprint = ?,"
            " updated_at = ?, answered_at = coalesce(answered_at, ?) WHERE id = ?",
            [judgment["choice"], judgment["correct"], judgment["acceptability"], judgment["acceptable"],
             judgment["fingerprint"], ts, ts, task.id],
        )
    task.choice, task.acceptability, task.acceptable = (judgment["choice"], judgment["acceptability"],
                                                        judgment["acceptable"])
    setattr(task, "correct", judgment["correct"])   # noqa: B010 - as before: Task has no such field
    task.fingerprint = judgment["fingerprint"]
    task.answered_at = task.answered_at or ts


def _rows_of_items(
    db: sqlite_utils.Database, table: str, item_ids: Iterable[str] | None, order: str
) -> Iterable[dict[str, Any]]:
    """Rows of ``table`` whose ``item_id`` is in ``item_ids`` (all rows when None), in ``order``.

    A few ids are looked up by index; many are filtered while scanning once.
    """
    if item_ids is None:
        return db.query(f"SELECT * FROM {table} ORDER BY {order}")
    ids = list(dict.fromkeys(item_ids))
    if len(ids) <= 200:
        marks = ", ".join("?" for _ in ids)
        return db.query(f"SELECT * FROM {table} WHERE item_id IN ({marks}) ORDER BY {order}", ids) if ids else iter(())
    wanted = set(ids)
    return (r for r in db.query(f"SELECT * FROM {table} ORDER BY {order}") if r["item_id"] in wanted)


def judgments_by_task(
    db: sqlite_utils.Database, item_ids: Iterable[str] | None = None, *, annotator: str | None = None
) -> dict[int, list[JudgmentRow]]:
    """``annotation_judgments`` rows grouped by task id, oldest first.

    Restricted to ``item_ids`` and to one ``annotator`` when given.
    """
    out: dict[int, list[JudgmentRow]] = {}
    if annotator is not None:
        wanted = None if item_ids is None else set(item_ids)
        rows: Iterable[dict[str, Any]] = (
            r for r in db.query("SELECT * FROM annotation_judgments WHERE annotator = ? ORDER BY task_id, id", [annotator])
            if wanted is None or r["item_id"] in wanted
        )
    else:
        rows = _rows_of_items(db, "annotation_judgments", item_ids, "task_id, id")
    for r in rows:
        out.setdefault(r["task_id"], []).append(cast("JudgmentRow", r))
    return out


def latest_with(judgments: Sequence[JudgmentRow], fingerprint: str) -> JudgmentRow | None:
    """The latest of ``judgments`` (oldest first) given on the text with ``fingerprint``; None when there is none."""
    return next((j for j in reversed(judgments) if j["fingerprint"] == fingerprint), None)


def touch_session(db: sqlite_utils.Database, session_id: int, last_task_id: int | None = None) -> None:
    """Update ``last_active_at`` of a session (and ``last_task_id``, the task on screen, when given)."""
    with transaction(db) as conn:
        if last_task_id is None:
            conn.execute("UPDATE annotation_sessions SET last_active_at = ? WHERE id = ?", [utc_now(), session_id])
        else:
            conn.execute(
                "UPDATE annotation_sessions SET last_active_at = ?, last_task_id = ? WHERE id = ?",
                [utc_now(), last_task_id, session_id],
            )


def previous_position(db: sqlite_utils.Database, annotator: str, mode: str, before_session: int) -> int | None:
    """``last_task_id`` of the annotator's latest earlier session in ``mode`` (None when unknown)."""
    row = db.execute(
        "SELECT last_task_id FROM annotation_sessions WHERE annotator = ? AND mode = ? AND id < ?"
        " AND last_task_id IS NOT NULL ORDER BY id DESC LIMIT 1",
        [annotator, mode, before_session],
    ).fetchone()
    return None if row is None else int(row[0])


def annotators_by_first_task(db: sqlite_utils.Database) -> list[str]:
    """Every annotator with a pair task, in the order of their first task (smallest ``annotation_tasks.id``;
    ties, impossible in one table, by name). A later annotator only adds to the end, so positions in this
    list never change as the database grows (the exports' ``annotator_i`` numbers)."""
    if not db["annotation_tasks"].exists():
        return []
    return [r[0] for r in db.execute("SELECT annotator FROM annotation_tasks GROUP BY annotator"
                                     " ORDER BY MIN(id), annotator")]


def tasks_of_items(db: sqlite_utils.Database, item_ids: Iterable[str]) -> list[AnnotationTaskRow]:
    """Every ``annotation_tasks`` row of ``item_ids`` (all annotators), ordered by item, annotator, pair."""
    return cast("list[AnnotationTaskRow]", list(_rows_of_items(db, "annotation_tasks", item_ids, "item_id, annotator, pair")))


def task_history(db: sqlite_utils.Database, task_id: int) -> list[HistoryRow]:
    """History rows of one task, oldest first."""
    return cast("list[HistoryRow]", list(db.query("SELECT * FROM annotation_history WHERE task_id = ? ORDER BY id",
                                                  [task_id])))
