"""open_db: WAL, schema, and refusal of files that are not fbagent databases."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.store import open_db
from fbagent.store.schema import SCHEMA_VERSION


def test_new_database_gets_wal_and_every_table(tmp_path):
    db = open_db(tmp_path / "fb.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000
    names = set(db.table_names())
    assert {"lexicons", "frames", "frame_pairs", "runs", "llm_calls", "items", "item_revisions", "run_sessions"} <= names
    # reopening is idempotent
    assert set(open_db(tmp_path / "fb.db").table_names()) == names


def test_another_programs_database_is_refused_and_left_byte_identical(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE items (x)")
    conn.execute("INSERT INTO items VALUES (1)")
    conn.commit()
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(FbagentError, match="another program .*tables: items"):
        open_db(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert not (tmp_path / "other.db-wal").exists()


def test_a_file_that_is_not_sqlite_is_one_clear_error(tmp_path):
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\n" * 20)
    with pytest.raises(FbagentError, match="not a usable fbagent SQLite database"):
        open_db(path)
    assert path.read_text().startswith("root:x")


@pytest.mark.parametrize("args", [["lexicon", "list"], ["pairs", "list"], ["runs", "list"], ["runs", "show", "x"]])
def test_read_only_commands_do_not_create_a_mistyped_database(tmp_path, args):
    missing = tmp_path / "typo.db"
    proc = subprocess.run(
        [sys.executable, "-m", "fbagent.cli", *args, "--db", str(missing)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"error: database {missing} does not exist. Fix: pass --db PATH of an existing database or set FBAGENT_DB"
    ]
    assert not missing.exists()


# --------------------------------------------------------------------------- schema migrations (issue 10)

FIXTURE_V3 = Path(__file__).parent / "data" / "fbagent_schema_v3.sqlite"  # made by tests/data/make_schema_v3_db.py


def _raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]


def _dump(path: Path) -> dict[str, list[dict]]:
    conn = _raw(path)
    try:
        return {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY rowid")] for t in _tables(conn)}
    finally:
        conn.close()


def _layout(path: Path) -> dict[str, list[tuple]]:
    """Columns (name, type, notnull, default, pk) of every table, and every index with its columns."""
    conn = _raw(path)
    try:
        out = {t: [tuple(r)[1:] for r in conn.execute(f"PRAGMA table_info({t})")] for t in _tables(conn)}
        for (name, table) in conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"):
            out[f"index {name}"] = [table, *[r[2] for r in conn.execute(f"PRAGMA index_info({name})")]]
        return out
    finally:
        conn.close()


def _version(path: Path) -> int:
    conn = _raw(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_schema_v3_fixture_upgrades_in_place_and_every_row_survives(tmp_path):
    from fbagent.store.annotations import text_fingerprint
    from fbagent.store.schema import SCHEMA_VERSION
    from fbagent.validation.aggregate import collect

    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_V3, path)
    assert _version(path) == 3
    before = _dump(path)
    assert {t: len(r) for t, r in before.items() if t.startswith(("annotation", "item")) or t == "annotators"} == {
        "annotation_history": 7, "annotation_sessions": 3, "annotation_tasks": 72, "annotators": 3,
        "item_revisions": 5, "items": 6,
    }
    notes: list[dict] = []
    db = open_db(path, on_upgrade=notes.append)
    assert SCHEMA_VERSION == 14 and db.execute("PRAGMA user_version").fetchone()[0] == 14
    backup = tmp_path / "old.db.v3.bak"
    assert notes == [{"from": 3, "to": 14, "backup": backup}]
    # the copy beside the file is the version-3 database as it was
    assert _version(backup) == 3 and _dump(backup) == before
    assert [(r["from_version"], r["to_version"], r["backup"]) for r in db.query("SELECT * FROM schema_migrations")] == [
        (3, 14, str(backup))
    ]

    # every row survives with every old column unchanged; the only rewrite: binary-scale level names
    after = _dump(path)
    binary = {r["id"] for r in db.query("SELECT t.id FROM annotation_tasks t JOIN items i ON i.id = t.item_id"
                                        " WHERE i.language = 'ja'")}
    renames = {"acceptable": "natural", "unacceptable": "unnatural"}
    renamed = 0
    for table, rows in before.items():
        assert len(after[table]) == len(rows), table
        for old, new in zip(rows, after[table], strict=True):
            for col, value in old.items():
                if table == "annotation_tasks" and col == "acceptability" and old["id"] in binary and value:
                    assert new[col] == renames[value]
                    renamed += 1
                else:
                    assert new[col] == value, (table, col)
    assert renamed == 19  # the rated Japanese tasks (2 entries x 4 pairs): alice 8, bob 8, carol 3 of her 5
    # new columns and tables exist, and the upgraded layout is exactly the layout of a new database
    assert {"fingerprint"} <= set(after["annotation_tasks"][0]) and "last_task_id" in after["annotation_sessions"][0]
    open_db(tmp_path / "new.db").conn.close()
    assert _layout(path) == _layout(tmp_path / "new.db")

    # answers given before fingerprints existed got the fingerprint of the text shown when they were given:
    # alice judged run1:1:0 before the lead revised S_A', bob after it
    q = "Select all sentences where someone physically went away from a place."
    alice = next(db.query("SELECT * FROM annotation_tasks WHERE annotator = 'alice' AND item_id = 'run1:1:0'"
                          " AND pair = 'extended'"))
    assert (alice["shown_first"], alice["shown_second"]) == ("sentence_b_prime", "sentence_a_prime")
    assert alice["fingerprint"] == text_fingerprint(
        q, "The storm left the village without power.", "After the argument, the guests left quickly.")
    bob = next(db.query("SELECT * FROM annotation_tasks WHERE annotator = 'bob' AND item_id = 'run1:1:0'"
                        " AND pair = 'extended'"))
    assert (bob["shown_first"], bob["shown_second"]) == ("sentence_a_prime", "sentence_b_prime")
    assert bob["fingerprint"] == text_fingerprint(
        q, "After the long argument, the guests left quickly.", "The storm left the village without power.")
    # 53 complete answers became judgments; carol's half-answered task has a fingerprint but no judgment
    assert db.execute("SELECT source, count(*) FROM annotation_judgments GROUP BY source").fetchall() == [("migration", 53)]
    assert db.execute("SELECT count(*) FROM annotation_tasks WHERE fingerprint IS NOT NULL").fetchone()[0] == 54

    entries = collect(db, ["run1:1:0", "run-ja:5:0", "run1:2:0"])
    e = entries["run1:1:0"]  # S_A' revised: alice's two pairs that show S_A' are stale, carol judged nothing
    assert e.states["alice"] == {"base": "current", "both_correct": "stale", "extended": "stale", "neither_correct": "current"}
    assert set(e.states["bob"].values()) == {"current"} and set(e.states["carol"].values()) == {"pending"}
    assert (e.count("current"), e.count("stale"), e.count("pending"), e.state) == (6, 2, 4, "pending")
    e = entries["run-ja:5:0"]  # S_B revised: alice's base and neither_correct are stale
    assert e.states["alice"] == {"base": "stale", "both_correct": "current", "extended": "current", "neither_correct": "stale"}
    assert e.states["carol"] == {"base": "current", "both_correct": "pending", "extended": "pending", "neither_correct": "current"}
    # the four-choice question of run1:2:0 was revised and reverted between alice and bob: every judgment counts
    e = entries["run1:2:0"]
    assert set(e.states["alice"].values()) == set(e.states["bob"].values()) == {"current"}

    # reopening is a no-op: no second backup, no second migration row
    open_db(path).conn.close()
    assert sorted(p.name for p in tmp_path.iterdir() if ".bak" in p.name) == ["old.db.v3.bak"]
    assert db["schema_migrations"].count == 1


def test_older_versions_upgrade_through_every_step(tmp_path):
    """A version-1 file (no lexicon child indexes, no run_sessions) gets steps 2, 3 and 4."""
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURE_V3, path)
    conn = sqlite3.connect(path)
    for index in ("frames_lexicon", "frame_examples_frame", "frame_elements_frame", "lexical_units_frame",
                  "frame_relations_lexicon"):
        conn.execute(f"DROP INDEX {index}")
    conn.execute("DROP TABLE run_sessions")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    db = open_db(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 14
    assert next(db.query("SELECT note FROM schema_migrations"))["note"] == "steps 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14"
    open_db(tmp_path / "new.db").conn.close()
    assert _layout(path) == _layout(tmp_path / "new.db")
    assert (tmp_path / "v1.db.v1.bak").exists()


def test_a_failed_step_changes_nothing(tmp_path, monkeypatch):
    from fbagent.store import migrations

    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_V3, path)
    before = _dump(path)

    def broken(conn):
        migrations._step4(conn)  # everything of step 4, then a failure
        conn.execute("SELECT * FROM no_such_table")

    monkeypatch.setitem(migrations.MIGRATIONS, 4, broken)
    with pytest.raises(FbagentError) as err:
        open_db(path)
    assert "from schema version 3 to 14 failed (no such table: no_such_table); nothing was changed" in str(err.value)
    assert "\n" not in str(err.value)
    assert _version(path) == 3 and _dump(path) == before  # one transaction: no new column, no renamed level


def test_a_database_newer_than_the_code_is_refused_in_one_line(tmp_path):
    path = tmp_path / "future.db"
    shutil.copy(FIXTURE_V3, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    for kwargs in ({}, {"read_only": True}):
        with pytest.raises(FbagentError) as err:
            open_db(path, **kwargs)
        assert str(err.value) == (
            f"{path} has schema version 99, newer than this fbagent understands (14); it was left unchanged. "
            "Fix: upgrade fbagent (pip install -U fbagent) or use the version that wrote it"
        )
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert not (tmp_path / "future.db.v9.bak").exists()


def test_two_processes_opening_an_old_file_upgrade_it_once(tmp_path):
    """Concurrent opens (annotators starting at the same time) queue on the write lock; one upgrades."""
    import threading

    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_V3, path)
    results, errors = [], []

    def opener():
        try:
            got: list = []
            open_db(path, on_upgrade=got.append).conn.close()
            results.append(got)
        except Exception as err:  # pragma: no cover - the assertion below shows it
            errors.append(err)

    threads = [threading.Thread(target=opener) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(len(r) for r in results) == [0, 0, 1]
    assert sorted(p.name for p in tmp_path.iterdir() if ".bak" in p.name) == ["old.db.v3.bak"]
    assert _version(path) == 14


# --------------------------------------------------------------------------- read-only databases (issue 10)


def _make_read_only(*paths: Path) -> list[Path]:
    """chmod a-w; as root (who ignores permissions) also ``chattr +i``. Returns what needs ``chattr -i`` later."""
    import os

    for p in paths:
        os.chmod(p, 0o555 if p.is_dir() else 0o444)
    if os.geteuid() != 0:
        return []
    res = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"running as root and chattr +i failed ({res.stderr.strip()}): no way to make a read-only file")
    return list(paths)


@pytest.fixture
def read_only_db(tmp_path):
    """A database with a lexicon, a selection, a run, answers and a revision, in a folder nobody may write."""
    import os

    from factories import make_db

    from fbagent.lexicon.importer import import_embedded
    from fbagent.store.revisions import save_revision
    from fbagent.tui.scales import THREE_LEVEL
    from fbagent.tui.session import Selection, ValidateSession

    folder = tmp_path / "shared"
    folder.mkdir()
    path = folder / "copy.db"
    db = open_db(path)
    import_embedded(db)
    db.conn.close()
    db = make_db(path, n=2)
    for name in ("alice", "bob"):
        s = ValidateSession.open(db, name, Selection())
        while not s.finished:
            s.choose(s.current.gold)
            s.rate(THREE_LEVEL.by_name("natural"))
            s.next()
        s.close()
    save_revision(db, "run1:2:0", "sentence_b", "Tom ran the small bakery in Boston.", "lead")
    db.conn.close()
    assert sorted(p.name for p in folder.iterdir()) == ["copy.db"]  # WAL checkpointed and removed on close
    out = tmp_path / "out"
    out.mkdir()
    immutable = _make_read_only(path, folder)
    assert not os.access(path, os.W_OK) and not os.access(folder, os.W_OK)
    yield path, out
    if immutable:
        subprocess.run(["chattr", "-i", *map(str, immutable)], check=True)
    os.chmod(folder, 0o755)
    os.chmod(path, 0o644)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=120)


def test_read_commands_work_on_a_read_only_file_and_write_commands_say_so(read_only_db):
    path, out = read_only_db
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    reads = {
        ("lexicon", "list"): "fn-test",
        ("lexicon", "show", "sample-en"): "frames",
        ("pairs", "list"): "Frame-pair selections",
        ("pairs", "show", "1"): "leave",
        ("runs", "list"): "run1",
        ("runs", "show", "run1"): "Items by status",
        ("validate", "report", "--format", "json"): '"kept": 1',
        ("export", str(out / "all.jsonl")): "wrote 2 entries",
        ("export", "--validated", str(out / "v.jsonl")): "wrote 1 validated entry",
    }
    for args, needle in reads.items():
        res = _cli(*args, "--db", str(path))
        assert res.returncode == 0, (args, res.stderr)
        assert needle in res.stdout, (args, res.stdout[:400])
        assert "readonly" not in res.stderr
    # the revision of run1:2:0 made bob's and alice's judgments of the pairs with S_B stale: only run1:1:0 is kept
    assert [line.count('"id": "run1:1:0"') for line in (out / "v.jsonl").read_text().splitlines()] == [1]
    # the eval reader of the store (frame-id pairs from the lexicon's exemplars)
    code = ("from fbagent.eval.frame_id import FrameIdSettings, load_pairs; "
            f"pairs, lex = load_pairs(FrameIdSettings(db={str(path)!r}, lexicon='sample-en')); print(len(pairs), lex['name'])")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[1] == "sample-en" and int(res.stdout.split()[0]) > 0
    # write commands: one line, exit 2
    for args in (("annotate", "--annotator", "carol"), ("lexicon", "add", "--lang", "en", str(Path(__file__).parents[1] / "fbagent" / "data" / "sample_en"))):
        res = _cli(*args, "--db", str(path))
        assert res.returncode == 2, (args, res.stderr)
        assert res.stderr.count("\n") == 1, res.stderr
        assert res.stderr.startswith(f"error: {path} is read-only (no write permission on the file or its folder)"
                                     " and this command writes to it. Fix: run it on a writable copy"), res.stderr
    # nothing changed, nothing created beside the file
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in path.parent.iterdir()) == ["copy.db"]


def test_read_commands_never_upgrade_and_db_upgrade_does(tmp_path):
    """Issue 35 item 3: `export` and `lexicon list` (read commands) on the schema-3 fixture refuse with one
    line naming `fbagent db upgrade` and leave its bytes unchanged, with nothing beside it (no -wal, -shm or
    .bak); `fbagent db upgrade` upgrades it (with the backup), then the read commands work on it."""
    old = tmp_path / "old.db"
    shutil.copy(FIXTURE_V3, old)
    digest = hashlib.sha256(old.read_bytes()).hexdigest()
    for args in (("export", str(tmp_path / "x.jsonl")), ("lexicon", "list"), ("validate", "report")):
        res = _cli(*args, "--db", str(old))
        assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
        assert res.stderr.startswith(f"error: {old} has schema version 3 and this fbagent reads version "
                                     f"{SCHEMA_VERSION}; a command that only reads never changes a database, so it left the file as it is. Fix: "
                                     f"upgrade it once with `fbagent db upgrade --db {old}`"), res.stderr
        assert hashlib.sha256(old.read_bytes()).hexdigest() == digest
        assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db"]
    res = _cli("db", "upgrade", "--db", str(old))
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == (f"upgraded {old} from schema version 3 to {SCHEMA_VERSION}; the copy taken before "
                                  f"is {old}.v3.bak")
    assert hashlib.sha256((tmp_path / "old.db.v3.bak").read_bytes()).hexdigest() != digest  # journal mode DELETE
    assert not Path(f"{old}-wal").exists() and _version(old) == SCHEMA_VERSION
    res = _cli("db", "upgrade", "--db", str(old))
    assert res.returncode == 0
    assert res.stdout.strip() == f"{old} has schema version {SCHEMA_VERSION} already: nothing to do"
    res = _cli("validate", "report", "--format", "json", "--db", str(old))
    assert res.returncode == 0, res.stderr
    # one hint, wrapped at 80 columns with its continuation lines indented (issue 42)
    hint = res.stderr.splitlines()
    assert hint[0].startswith("hint: the filter wants >= 2") and all(x.startswith("      ") for x in hint[1:])
    rep = json.loads(res.stdout)
    per = {r["entry"]: r for r in rep["judgments"]["per_entry"]}
    assert (per["run1:1:0"]["current"], per["run1:1:0"]["stale"], per["run1:1:0"]["pending"]) == (6, 2, 4)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["old.db", "old.db.v3.bak"]


def test_read_commands_refuse_an_old_read_only_file(tmp_path):
    import os

    folder = tmp_path / "ro"
    folder.mkdir()
    frozen = folder / "old.db"
    shutil.copy(FIXTURE_V3, frozen)
    digest = hashlib.sha256(frozen.read_bytes()).hexdigest()
    immutable = _make_read_only(frozen, folder)
    try:
        res = _cli("export", str(tmp_path / "x.jsonl"), "--db", str(frozen))
        assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
        assert res.stderr.startswith(f"error: {frozen} has schema version 3 and this fbagent reads version "
                                     f"{SCHEMA_VERSION}; a command that only reads never changes a database, so it left the file as it "
                                     "is (it is read-only). Fix: upgrade a writable copy once (fbagent db backup")
        assert hashlib.sha256(frozen.read_bytes()).hexdigest() == digest and not (tmp_path / "x.jsonl").exists()
        assert sorted(p.name for p in folder.iterdir()) == ["old.db"]
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", *map(str, immutable)], check=True)
        os.chmod(folder, 0o755)


def test_generate_dry_run_plans_on_a_read_only_wal_file(read_only_db):
    """New user (session 12): `generate --dry-run` (it writes nothing) on a WAL-mode database in a folder nobody
    may write said "not a usable fbagent SQLite database (unable to open database file)"; it plans on it as
    the other read commands do (``immutable=1`` when the ``-shm`` index cannot be created), leaving it as it was."""
    path, _ = read_only_db
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    res = _cli("generate", "--pairs", "1", "--generator", "openai", "--base-url", "http://127.0.0.1:9/v1",
               "--model", "m", "--dry-run", "--lexicon", "sample-en", "--db", str(path))
    assert res.returncode == 0, res.stderr
    assert "Run without --dry-run to start" in res.stdout, res.stdout[-800:]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in path.parent.iterdir()) == ["copy.db"]


@pytest.mark.parametrize("args", [("lexicon", "list"), ("validate", "report"), ("runs", "list")])
def test_a_read_command_leaves_no_wal_files_beside_another_programs_wal_database(tmp_path, args):
    """New user (session 12): `--db framebench.checkpoints.db` (LangGraph's WAL-mode file beside the database,
    one tab-completion away) was refused in one line but left ``-wal`` and ``-shm`` files beside it; a read
    command now leaves the folder as it found it (and the file's bytes unchanged)."""
    other = tmp_path / "framebench.checkpoints.db"
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE checkpoints (thread_id TEXT, checkpoint BLOB)")
    conn.execute("CREATE TABLE writes (thread_id TEXT, value BLOB)")
    conn.commit()
    conn.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name]
    digest = hashlib.sha256(other.read_bytes()).hexdigest()
    res = _cli(*args, "--db", str(other))
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith(f"error: {other} is an SQLite database of another program (tables: checkpoints, "
                                 "writes); fbagent leaves it unchanged. Fix:"), res.stderr
    assert res.stderr.count("\n") == 1, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name]
    assert hashlib.sha256(other.read_bytes()).hexdigest() == digest
