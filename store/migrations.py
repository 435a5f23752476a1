"""Numbered schema migrations, keyed by ``PRAGMA user_version``.

:func:`upgrade` brings a database written by an earlier fbagent to
:data:`fbagent.store.schema.SCHEMA_VERSION`: it takes the write lock, copies
the file beside itself (``NAME.v<old>.bak``, with the SQLite backup API, so
the copy includes what is still in the WAL), then runs every step from the
file's version to the current one and sets ``user_version``, all in one
transaction: an error rolls everything back and leaves the file as it was.
Each upgrade is a row in ``schema_migrations``.

Steps (``MIGRATIONS[n]`` turns version ``n - 1`` into ``n``):

1. (nothing: version 1 is the first released schema; a version-0 file with
   fbagent tables is treated as version 1)
2. the lexicon child-key indexes (``frames_lexicon``, ...).
3. ``run_sessions``; the annotation tables, for a file older than the
   annotation feature.
4. judgments belong to the text they judged (FrameBench 3.3, "Manual
   Revision"): ``annotation_tasks.fingerprint``,
   ``annotation_sessions.last_task_id``, the ``annotation_judgments`` and
   ``schema_migrations`` tables. Every answer stored before gets the
   fingerprint of the text shown when it was given: the item's original
   text with the revisions created before the answer (the last change of
   choice or acceptability: ``answered_at`` or a later ``annotation_history``
   row); complete answers become one ``annotation_judgments`` row each
   (source ``migration``). The binary acceptability scale (every language
   but English) stored ``acceptable`` = positive, the English scale stores
   ``acceptable`` = negative; the binary levels are renamed ``natural`` /
   ``unnatural`` (tasks and history), so a level name has one meaning.

5. ``run_sessions.pid`` and ``run_sessions.host``: the process of a
   ``generate`` session, so that the next command can tell a session that was
   killed (``kill -9``, a lost terminal) from one still running, and mark it
   ``interrupted`` with its entries and calls counted from ``items`` and
   ``llm_calls`` (:func:`fbagent.store.runs.recover_stale_sessions`).
6. ``annotator_invites`` and ``annotator_web_sessions``: invite links and
   browser sessions of ``fbagent annotate --serve`` (token and cookie hashes
   only, :mod:`fbagent.store.invites`).
7. ``selections.protocol``: which pair-selection protocol made a selection
   (:data:`fbagent.pairs.options.PROTOCOLS`); every selection stored before
   was made by fbagent's own (``fbagent``).
8. ``annotator_languages``: each annotator's stated language competence
   (:mod:`fbagent.store.competence`; asked by ``annotate`` and ``annotators invite``).
9. ``baseline_tasks``: the independent human baseline (``annotate --mode baseline``,
   :mod:`fbagent.store.baseline`).
10. ``items.verb_check``: which check vouched for the verb.
11. the provenance of each lexicon (issue 40): ``lexicons.license``, ``license_source``, ``citation``,
    ``url``, ``source_name``, ``reader``; a lexicon stored before gets licence ``unknown`` (nobody said),
    which the dataset card states as such.
12. ``adjudications``: the lead's decision (keep, drop, second round) and reason on a disputed entry
    (``annotate --mode adjudicate``, :mod:`fbagent.store.adjudications`); no row is changed.
13. ``batch_jobs``: the provider batch jobs of ``generate --batch`` (:mod:`fbagent.store.batch_jobs`);
    no row is changed.
14. ``adjudications.fingerprint``: a decision belongs to the entry's text it was taken on (a revision after
    it sets it aside, :mod:`fbagent.validation.adjudication`); a stored decision gets the fingerprint of the
    entry's text at its ``decided_at``.

Steps never use today's ``CREATE TABLE`` scripts (those describe the newest
schema); each step's SQL is frozen here. Every step is idempotent (an older
fbagent that opened an upgraded file may have set ``user_version`` back).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict

from fbagent.errors import FbagentError
from fbagent.store.clock import as_instant, utc_now

# --------------------------------------------------------------------------- frozen SQL of the steps

V2_SQL = """
CREATE INDEX IF NOT EXISTS frames_lexicon ON frames (lexicon_id, name);
CREATE INDEX IF NOT EXISTS frame_examples_frame ON frame_examples (frame_pk);
CREATE INDEX IF NOT EXISTS frame_elements_frame ON frame_elements (frame_pk);
CREATE INDEX IF NOT EXISTS lexical_units_frame ON lexical_units (frame_pk);
CREATE INDEX IF NOT EXISTS frame_relations_lexicon ON frame_relations (lexicon_id);
"""

V3_SQL = """
CREATE TABLE IF NOT EXISTS run_sessions (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL DEFAULT 'running',
    command TEXT,
    entries_done INTEGER NOT NULL DEFAULT 0,
    calls INTEGER NOT NULL DEFAULT 0,
    cache_hits INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    wall_s REAL
);
CREATE INDEX IF NOT EXISTS run_sessions_run ON run_sessions (run_id);
CREATE TABLE IF NOT EXISTS annotators (
    name TEXT PRIMARY KEY,
    seed INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS annotation_sessions (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL REFERENCES annotators(name),
    mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    n_assigned INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS annotation_tasks (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL REFERENCES annotators(name),
    item_id TEXT NOT NULL REFERENCES items(id),
    pair TEXT NOT NULL,
    sort_key REAL NOT NULL,
    shown_first TEXT NOT NULL,
    shown_second TEXT NOT NULL,
    gold TEXT NOT NULL,
    choice TEXT,
    correct INTEGER,
    acceptability TEXT,
    acceptable INTEGER,
    comment TEXT,
    skipped INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    session_id INTEGER REFERENCES annotation_sessions(id),
    created_at TEXT NOT NULL,
    first_shown_at TEXT,
    answered_at TEXT,
    updated_at TEXT,
    UNIQUE (annotator, item_id, pair)
);
CREATE INDEX IF NOT EXISTS annotation_tasks_queue ON annotation_tasks (annotator, sort_key);
CREATE INDEX IF NOT EXISTS annotation_tasks_item ON annotation_tasks (item_id, pair);
CREATE TABLE IF NOT EXISTS annotation_history (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES annotation_tasks(id),
    annotator TEXT NOT NULL,
    field TEXT NOT NULL,
    old TEXT, new TEXT,
    changed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS annotation_history_task ON annotation_history (task_id, id);
"""

V4_SQL = """
CREATE TABLE IF NOT EXISTS annotation_judgments (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES annotation_tasks(id),
    annotator TEXT NOT NULL,
    item_id TEXT NOT NULL,
    pair TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    choice TEXT NOT NULL,
    correct INTEGER NOT NULL,
    acceptability TEXT NOT NULL,
    acceptable INTEGER NOT NULL,
    judged_at TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'app'
);
CREATE INDEX IF NOT EXISTS annotation_judgments_item ON annotation_judgments (item_id, task_id, id);
CREATE INDEX IF NOT EXISTS annotation_judgments_annotator ON annotation_judgments (annotator, task_id, id);
CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY,
    from_version INTEGER NOT NULL,
    to_version INTEGER NOT NULL,
    applied_at TEXT NOT NULL,
    backup TEXT,
    note TEXT
);
"""

V6_SQL = """
CREATE TABLE IF NOT EXISTS annotator_invites (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS annotator_invites_annotator ON annotator_invites (annotator, id);
CREATE TABLE IF NOT EXISTS annotator_web_sessions (
    id INTEGER PRIMARY KEY,
    invite_id INTEGER NOT NULL REFERENCES annotator_invites(id),
    annotator TEXT NOT NULL,
    session_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS annotator_web_sessions_annotator ON annotator_web_sessions (annotator, id);
"""

V8_SQL = """
CREATE TABLE IF NOT EXISTS annotator_languages (
    annotator TEXT NOT NULL,
    lang TEXT NOT NULL,
    competence TEXT NOT NULL,
    source TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (annotator, lang)
);
"""

V9_SQL = """
CREATE TABLE IF NOT EXISTS baseline_tasks (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL,
    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    pair TEXT NOT NULL,
    position INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    shown_first TEXT NOT NULL,
    shown_second TEXT NOT NULL,
    gold TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    answer TEXT,
    correct INTEGER,
    created_at TEXT NOT NULL,
    answered_at TEXT,
    UNIQUE (annotator, item_id, pair)
);
CREATE INDEX IF NOT EXISTS baseline_tasks_annotator ON baseline_tasks (annotator, position);
"""

#: Binary-scale level names before schema 4 -> after (FrameBench appendix A.2: only the positive level counts).
BINARY_RENAMES = {"acceptable": "natural", "unacceptable": "unnatural"}
#: SQL condition on ``items.language`` for the languages of the binary scale (every language but English).
BINARY_LANGUAGE_SQL = "NOT (lower(coalesce(i.language, '')) = 'en' OR lower(coalesce(i.language, '')) LIKE 'en-%')"


def statements(sql: str) -> list[str]:
    """Split an SQL script into complete statements (:func:`sqlite3.complete_statement`), for use inside a transaction.

    ``executescript`` would COMMIT first, so the steps run statement by statement.
    """
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()):
        raise ValueError(f"incomplete SQL statement: {buf.strip()[:60]!r}")
    return out


def run_script(conn: sqlite3.Connection, sql: str) -> None:
    """Execute every statement of ``sql`` on ``conn`` (inside the caller's transaction)."""
    for stmt in statements(sql):
        conn.execute(stmt)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


def _add_column(conn: sqlite3.Connection, table: str, column: str, decl: str) -> None:
    if column not in _columns(conn, table):
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")


# --------------------------------------------------------------------------- the steps


def _step2(conn: sqlite3.Connection) -> None:
    run_script(conn, V2_SQL)


def _step3(conn: sqlite3.Connection) -> None:
    run_script(conn, V3_SQL)


def _step4(conn: sqlite3.Connection) -> None:
    run_script(conn, V3_SQL)  # annotation tables of a file older than the annotation feature
    _add_column(conn, "annotation_tasks", "fingerprint", "TEXT")
    _add_column(conn, "annotation_sessions", "last_task_id", "INTEGER")
    run_script(conn, V4_SQL)
    _rename_binary_levels(conn)
    backfill_fingerprints(conn)


def _rename_binary_levels(conn: sqlite3.Connection) -> None:
    """Binary-scale tasks: ``acceptable`` -> ``natural``, ``unacceptable`` -> ``unnatural`` (tasks and history)."""
    for old, new in BINARY_RENAMES.items():
        conn.execute(
            f"UPDATE annotation_tasks SET acceptability = ? WHERE acceptability = ? AND item_id IN"
            f" (SELECT i.id FROM items i WHERE {BINARY_LANGUAGE_SQL})",
            [new, old],
        )
        for col in ("old", "new"):
            conn.execute(
                f"UPDATE annotation_history SET {col} = ? WHERE field = 'acceptability' AND {col} = ? AND task_id IN"
                f" (SELECT t.id FROM annotation_tasks t JOIN items i ON i.id = t.item_id WHERE {BINARY_LANGUAGE_SQL})",
                [new, old],
            )


def backfill_fingerprints(conn: sqlite3.Connection) -> int:
    """Give every answer without a fingerprint the fingerprint of the text shown when it was given.

    The moment of an answer is the last change of its choice or acceptability:
    the latest of ``answered_at`` and the ``annotation_history`` rows of those
    fields (``updated_at`` for a half-answered task). The text at that moment
    is the item's original text with the revisions created before it. A
    complete answer also becomes an ``annotation_judgments`` row (source
    ``migration``). Returns the number of tasks given a fingerprint.
    """
    conn.row_factory = sqlite3.Row
    try:
        todo = conn.execute(
            "SELECT id, annotator, item_id, pair, shown_first, shown_second, choice, correct, acceptability, acceptable,"
            " answered_at, updated_at, created_at FROM annotation_tasks"
            " WHERE fingerprint IS NULL AND (choice IS NOT NULL OR acceptability IS NOT NULL) ORDER BY id"
        ).fetchall()
        if not todo:
            return 0
        last_change: dict[int, str] = {}
        for r in conn.execute(
            "SELECT task_id, changed_at FROM annotation_history WHERE field IN ('choice', 'acceptability') ORDER BY id"
        ):
            last_change[r["task_id"]] = max(last_change.get(r["task_id"], r["changed_at"]), r["changed_at"], key=_key)
        item_ids = sorted({r["item_id"] for r in todo})
        items: dict[str, dict] = {}
        revisions: dict[str, list[dict]] = {}
        cols = ", ".join(("id", *V4_REVISABLE_FIELDS))
        for chunk in range(0, len(item_ids), 500):
            ids = item_ids[chunk:chunk + 500]
            marks = ", ".join("?" for _ in ids)
            for r in conn.execute(f"SELECT {cols} FROM items WHERE id IN ({marks})", ids):
                items[r["id"]] = dict(r)
            for r in conn.execute(f"SELECT * FROM item_revisions WHERE item_id IN ({marks}) ORDER BY id", ids):
                revisions.setdefault(r["item_id"], []).append(dict(r))
        for t in todo:
            times = [x for x in (t["answered_at"], last_change.get(t["id"])) if x]
            when = max(times, key=_key) if times else (t["updated_at"] or t["created_at"])
            texts = _v4_texts_at(items.get(t["item_id"], {}), revisions.get(t["item_id"], []), before=when)
            fp = _v4_task_fingerprint(texts, t["shown_first"], t["shown_second"])
            conn.execute("UPDATE annotation_tasks SET fingerprint = ? WHERE id = ?", [fp, t["id"]])
            if t["choice"] is not None and t["acceptability"] is not None:
                conn.execute(
                    "INSERT INTO annotation_judgments (task_id, annotator, item_id, pair, fingerprint, choice, correct,"
                    " acceptability, acceptable, judged_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'migration')",
                    [t["id"], t["annotator"], t["item_id"], t["pair"], fp, t["choice"], int(t["correct"] or 0),
                     t["acceptability"], int(t["acceptable"] or 0), when],
                )
        return len(todo)
    finally:
        conn.row_factory = None


def _key(ts: str) -> datetime:
    return as_instant(ts)


# Frozen copies (schema 4) of what step 4 needs from the store modules, so that a later change there
# never changes what an upgrade computes. The fingerprint must equal
# fbagent.store.annotations.task_fingerprint of schema 4 and later (tests/test_store_db.py checks an
# upgraded file against answers given in the app).

#: The revisable item fields of schema 4 (fbagent.store.revisions.REVISABLE_FIELDS then).
V4_REVISABLE_FIELDS = ("question", "question_four_choice", "sentence_a", "sentence_b", "sentence_a_prime",
                       "sentence_b_prime")


def _v4_texts_at(item: dict[str, Any], revisions: list[dict[str, Any]], before: str) -> dict[str, Any]:
    """The revisable texts of ``item`` with the ``revisions`` created strictly before ``before`` applied."""
    out = {f: item.get(f) for f in V4_REVISABLE_FIELDS}
    limit = as_instant(before)
    for r in revisions:
        if r["field"] in V4_REVISABLE_FIELDS and as_instant(r["created_at"]) < limit:
            out[r["field"]] = r["new"]
    return out


def _v4_task_fingerprint(texts: dict[str, Any], shown_first: str, shown_second: str) -> str:
    """32 hex digits of sha256 over ``[question shown, Sentence A, Sentence B]`` (JSON), as schema 4 defines it."""
    question = texts.get("question_four_choice") or texts.get("question")
    blob = json.dumps([question, texts.get(shown_first), texts.get(shown_second)], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def _step5(conn: sqlite3.Connection) -> None:
    run_script(conn, V3_SQL)  # run_sessions of a file older than it
    _add_column(conn, "run_sessions", "pid", "INTEGER")
    _add_column(conn, "run_sessions", "host", "TEXT")


def _step6(conn: sqlite3.Connection) -> None:
    run_script(conn, V6_SQL)


def _step7(conn: sqlite3.Connection) -> None:
    _add_column(conn, "selections", "protocol", "TEXT NOT NULL DEFAULT 'fbagent'")


def _step8(conn: sqlite3.Connection) -> None:
    run_script(conn, V8_SQL)


def _step9(conn: sqlite3.Connection) -> None:
    run_script(conn, V9_SQL)


#: version n -> the step that turns version n - 1 into n.
def _step10(conn: sqlite3.Connection) -> None:
    _add_column(conn, "items", "verb_check", "TEXT")  # which check vouched for the verb (issue 29)


def _step11(conn: sqlite3.Connection) -> None:
    """The provenance columns of ``lexicons`` (issue 40); existing lexicons: licence ``unknown``."""
    _add_column(conn, "lexicons", "license", "TEXT NOT NULL DEFAULT 'unknown'")
    _add_column(conn, "lexicons", "license_source", "TEXT NOT NULL DEFAULT 'unknown'")
    for column in ("citation", "url", "source_name", "reader"):
        _add_column(conn, "lexicons", column, "TEXT NOT NULL DEFAULT ''")


def _step12(conn: sqlite3.Connection) -> None:
    run_script(conn, V12_SQL)


def _step13(conn: sqlite3.Connection) -> None:
    run_script(conn, V13_SQL)


def _step14(conn: sqlite3.Connection) -> None:
    """``adjudications.fingerprint``: each decision belongs to the text it was taken on (issue 45). Rows stored
    before get the fingerprint of the entry's text at their ``decided_at`` (revisions created strictly before)."""
    _add_column(conn, "adjudications", "fingerprint", "TEXT")
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute("SELECT id, item_id, decided_at FROM adjudications WHERE fingerprint IS NULL").fetchall()
        cols = ", ".join(V4_REVISABLE_FIELDS)
        for r in rows:
            item = conn.execute(f"SELECT {cols} FROM items WHERE id = ?", [r["item_id"]]).fetchone()
            if item is None:
                continue
            revs = [dict(x) for x in conn.execute(
                "SELECT field, new, created_at FROM item_revisions WHERE item_id = ? ORDER BY id", [r["item_id"]])]
            texts = _v4_texts_at(dict(item), revs, r["decided_at"])
            conn.execute("UPDATE adjudications SET fingerprint = ? WHERE id = ?",
                         [_v14_entry_fingerprint(texts), r["id"]])
    finally:
        conn.row_factory = None


def _v14_entry_fingerprint(texts: Mapping[str, object]) -> str:
    """32 hex digits of sha256 over the six revisable texts in schema-4 order (JSON), as schema 14 defines it
    (equal to fbagent.store.adjudications.entry_fingerprint)."""
    blob = json.dumps([texts.get(f) for f in V4_REVISABLE_FIELDS], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {2: _step2, 3: _step3, 4: _step4, 5: _step5, 6: _step6,
                                                               7: _step7, 8: _step8, 9: _step9, 10: _step10,
                                                               11: _step11, 12: _step12, 13: _step13, 14: _step14}


V12_SQL = """
CREATE TABLE IF NOT EXISTS adjudications (
    id INTEGER PRIMARY KEY,
    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    adjudicator TEXT NOT NULL,
    decision TEXT NOT NULL,            -- keep | drop | second_round
    reason TEXT NOT NULL,
    seen TEXT NOT NULL,                -- JSON: the votes the decision saw (n_correct, n_acceptable, annotators)
    decided_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS adjudications_item ON adjudications (item_id, id);
"""


# --------------------------------------------------------------------------- running them


def backup_path(path: Path, version: int) -> Path:
    """A free file name beside ``path`` for the copy taken before upgrading from ``version``: ``NAME.v3.bak``, ``NAME.v3.1.bak``, ..."""
    candidate = path.with_name(f"{path.name}.v{version}.bak")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.v{version}.{n}.bak")
        n += 1
    return candidate


def _backup(path: Path, dest: Path) -> None:
    src = sqlite3.connect(str(path))
    try:
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
        finally:
            dst.close()
    finally:
        src.close()


#: what an upgrade did (:func:`upgrade`): the versions before and after, and the copy taken before (None: in memory)
Upgrade = TypedDict("Upgrade", {"from": int, "to": int, "backup": "Path | None"})


def upgrade(conn: sqlite3.Connection, path: Path | None, target: int) -> Upgrade | None:
    """Upgrade the database on ``conn`` (file ``path``; None for ``:memory:``) to schema ``target``.

    Returns ``{"from": old, "to": target, "backup": path or None}``, or None
    when another process upgraded it meanwhile. Raises :class:`FbagentError`
    when a step fails (everything rolled back; the backup copy stays).
    """
    conn.execute("BEGIN IMMEDIATE")
    backup = None
    current: int | str = "?"
    try:
        current = found = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if found >= target:
            conn.execute("COMMIT")
            return None
        start = max(found, 1)
        if path is not None:
            backup = backup_path(path, found)
            _backup(path, backup)
        for version in range(start + 1, target + 1):
            MIGRATIONS[version](conn)
        conn.execute(
            "INSERT INTO schema_migrations (from_version, to_version, applied_at, backup, note) VALUES (?, ?, ?, ?, ?)",
            [current, target, utc_now(), None if backup is None else str(backup),
             f"steps {', '.join(str(v) for v in range(start + 1, target + 1))}"],
        )
        conn.execute(f"PRAGMA user_version = {int(target)}")
        conn.execute("COMMIT")
    except BaseException as err:
        conn.execute("ROLLBACK")
        if isinstance(err, sqlite3.DatabaseError):
            where = f"; the copy taken before is {backup}" if backup else ""
            raise FbagentError(
                f"upgrading {path or 'the database'} from schema version {current} to {target} failed ({err});"
                f" nothing was changed{where}",
                "report this with the file; until then use the fbagent version that wrote it",
            ) from err
        raise
    return {"from": current, "to": target, "backup": backup}


V13_SQL = """
CREATE TABLE IF NOT EXISTS batch_jobs (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,            -- openai | gemini
    model TEXT NOT NULL,
    job_id TEXT NOT NULL,              -- the provider's id (batch_..., batches/...)
    wave INTEGER NOT NULL,             -- 1, 2, ...: the pass of the entry graph that asked its lines
    keys TEXT NOT NULL,                -- JSON list: the llm_calls cache keys of its lines (custom ids)
    lines INTEGER NOT NULL,
    status TEXT NOT NULL,              -- submitted | in_progress | ... | completed | expired | failed | cancelled
    answered INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    submitted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS batch_jobs_run ON batch_jobs (run_id, status);
"""
