"""Issue 43 item 5: staging copies a killed command leaves are removed by the next run of the same command.

`db backup` stages `.DEST.PID.partial` (the whole database) and SQLite's `-journal` beside it; `export --format hf`
stages `.OUT.XXXXXXXX.tmp/` (the parquet of every entry). A `kill -9` mid-way left them for good. Each is now
`flock`'ed by its live writer: the next run of the same command removes those of dead writers, never a live one's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from factories import make_db

SLOW_BACKUP = """
import sys, time
from fbagent.store import backup
real = backup._copy
def slow(source, partial):
    pages = real(source, partial)
    partial.with_name(partial.name + "-journal").write_bytes(b"journal")  # as SQLite leaves it mid-write
    print("copying", flush=True)
    time.sleep(120)
    return pages
backup._copy = slow
backup.backup_database(sys.argv[1], sys.argv[2])
"""

SLOW_HF = """
import sys, time
from pathlib import Path
from fbagent.publish.folder import staged_folder
with staged_folder(Path(sys.argv[1])) as tmp:
    (tmp / "data").mkdir()
    (tmp / "data" / "test.parquet").write_bytes(b"x" * 4096)
    print("writing", flush=True)
    time.sleep(120)
"""


def _start(code: str, *args: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() in ("copying", "writing")
    return proc


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=240,
                          stdin=subprocess.DEVNULL)


def _hidden(folder: Path, name: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}."))


def test_a_killed_backup_leaves_nothing_after_the_next_backup(tmp_path):
    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    dest = tmp_path / "copy.db"
    killed = _start(SLOW_BACKUP, str(db), str(dest))
    _kill(killed)
    assert _hidden(tmp_path, "copy.db") == [f".copy.db.{killed.pid}.partial", f".copy.db.{killed.pid}.partial-journal"]
    live = _start(SLOW_BACKUP, str(db), str(dest))   # a backup still running: its copy is never removed
    try:
        res = _cli("db", "backup", str(dest), "--db", str(db))
        assert res.returncode == 0, res.stderr
        assert _hidden(tmp_path, "copy.db") == [f".copy.db.{live.pid}.partial", f".copy.db.{live.pid}.partial-journal"]
    finally:
        _kill(live)
    res = _cli("db", "backup", str(dest), "--db", str(db))   # refused (it exists), and still tidies up
    assert res.returncode == 2 and "exists already" in res.stderr
    assert _hidden(tmp_path, "copy.db") == []


def test_a_killed_hf_export_leaves_nothing_after_the_next_export(tmp_path):
    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    out = tmp_path / "hf"
    killed = _start(SLOW_HF, str(out))
    _kill(killed)
    assert len(_hidden(tmp_path, "hf")) == 1 and _hidden(tmp_path, "hf")[0].endswith(".tmp")
    live = _start(SLOW_HF, str(out))   # a next run: the killed one's folder is gone, its own is locked
    (staged,) = _hidden(tmp_path, "hf")
    assert (tmp_path / staged / ".fbagent-writing").exists()
    res = _cli("export", str(out), "--format", "hf", "--db", str(db))
    assert res.returncode == 0, res.stderr
    assert _hidden(tmp_path, "hf") == [staged]   # the live export's folder stays
    assert not (out / ".fbagent-writing").exists()
    _kill(live)
    res = _cli("export", str(out), "--format", "hf", "--db", str(db))
    assert res.returncode == 0, res.stderr
    assert _hidden(tmp_path, "hf") == [] and os.listdir(out)
