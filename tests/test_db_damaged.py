"""A --db file that is not a valid database (truncated, another kind of file) or is damaged (issue 34w): every
command stops with one line and leaves the folder exactly as it was (no -wal/-shm beside the file, read commands
included); `fbagent db backup` checks its copy and refuses a damaged database without writing OUT. The real entry
point (a subprocess), real SQLite files."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

READ_AND_UPGRADE = (("runs", "list"), ("lexicon", "list"), ("validate", "report"), ("export", "x.jsonl"),
                    ("db", "upgrade"), ("db", "backup", "copy.db"), ("pairs", "select", "--pairs", "1"))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_"))}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True,
                          env={**env, "COLUMNS": "200"}, timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def good_db(tmp_path_factory) -> Path:
    """A real fbagent database in WAL mode (the embedded lexicon and one selected pair)."""
    folder = tmp_path_factory.mktemp("good")
    res = _cli("pairs", "select", "--pairs", "1", "--db", "fb.db", cwd=folder)
    assert res.returncode == 0, res.stderr
    return folder / "fb.db"


def _integrity(db: Path) -> list[str]:
    """``PRAGMA integrity_check`` of ``db`` (a check too damaged to run: its error)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)   # nothing beside it
    try:
        return [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as err:
        return [str(err)]
    finally:
        conn.close()


def _listing(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in folder.iterdir()}


@pytest.mark.parametrize("kind", ["truncated", "passwd"])
def test_a_file_that_is_not_a_database_leaves_the_folder_as_it_was(tmp_path, good_db, kind):
    bad = tmp_path / "bad.db"
    if kind == "truncated":
        bad.write_bytes(good_db.read_bytes()[:5000])   # a WAL-mode header, the pages cut off
    else:
        bad.write_text("root:x:0:0:root:/root:/bin/bash\n" * 40)
    before = _listing(tmp_path)
    for args in READ_AND_UPGRADE:
        res = _cli(*args, "--db", "bad.db", cwd=tmp_path)
        assert res.returncode == 2, (args, res.stderr)
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and "not a usable fbagent SQLite database" in lines[0], (args, res.stderr)
        assert _listing(tmp_path) == before, args


def test_backup_of_a_damaged_database_is_refused_and_writes_nothing(tmp_path, good_db):
    db = tmp_path / "c.db"
    shutil.copyfile(good_db, db)
    with open(db, "r+b") as f:   # two pages in the middle overwritten, as a failing disk would
        f.seek(5 * 4096)
        f.write(os.urandom(2 * 4096))
    assert _integrity(db) != ["ok"]
    data, before = db.read_bytes(), _listing(tmp_path)
    res = _cli("db", "backup", "out.db", "--db", "c.db", cwd=tmp_path)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "c.db is damaged" in lines[0], res.stderr
    assert "earlier backup" in lines[0] and ".recover" in lines[0]
    assert _listing(tmp_path) == before and not (tmp_path / "out.db").exists()
    assert db.read_bytes() == data


def test_backup_of_a_sound_database_still_works(tmp_path, good_db):
    res = _cli("db", "backup", str(tmp_path / "out.db"), "--db", str(good_db), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert _integrity(tmp_path / "out.db") == ["ok"]
