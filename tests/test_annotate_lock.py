"""One terminal app per annotator and database (fbagent.commands.annotate_lock): a second `fbagent annotate` of the
same annotator is refused in one line naming the first, changes nothing, and a killed holder locks nobody out."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from factories import make_db

from fbagent.commands.annotate_lock import annotator_lock, lock_path
from fbagent.errors import FbagentError

FBAGENT = Path(sys.executable).with_name("fbagent")


def dump(path: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def annotate(db: Path, name: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(FBAGENT), "annotate", "--annotator", name, "--competence", "en=native", "--db", str(db)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)


def test_a_second_app_of_one_annotator_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    before = dump(db)
    with annotator_lock(db, "alice"):
        assert lock_path(db, "alice").read_text().startswith(f"pid {os.getpid()}, since ")
        res = annotate(db, "alice")
        assert res.returncode == 2
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1, res.stderr
        assert lines[0].startswith(f"error: alice is already annotating {db} in another app (pid {os.getpid()}, since ")
        assert "would overwrite each other's answers. Fix: go on in that app, or quit it (q)" in lines[0]
        # another annotator is not held by alice's lock (here: refused only for want of a terminal)
        other = annotate(db, "bob")
        assert other.returncode == 2 and "needs an interactive terminal" in other.stderr
    assert dump(db) == before
    assert not lock_path(db, "alice").exists()   # removed on a normal exit


def test_the_lock_is_per_process_and_released_when_its_holder_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "fb.db"
    db.touch()
    code = ("import sys, time; from pathlib import Path; from fbagent.commands.annotate_lock import annotator_lock\n"
            f"with annotator_lock(Path({str(db)!r}), 'alice'):\n    print('held', flush=True); time.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(FbagentError, match=f"pid {holder.pid}, since "):
            with annotator_lock(db, "alice"):
                pass
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        if holder.poll() is None:
            holder.kill()
    time.sleep(0.05)
    with annotator_lock(db, "alice"):   # the kernel released the killed holder's lock; its file stayed
        assert lock_path(db, "alice").read_text().startswith(f"pid {os.getpid()}")


def test_a_folder_without_write_permission_takes_no_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "fb.db"

    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    with annotator_lock(db, "alice"):
        assert not lock_path(db, "alice").exists()
