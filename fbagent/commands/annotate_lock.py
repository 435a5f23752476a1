"""One terminal app per annotator and database at a time.

Two `fbagent annotate --annotator NAME` on one database (two terminals, or a forgotten tmux window) answer the same
queue, and the later answer silently replaces the earlier one (new user, session 13: task 1 stored B/unacceptable
over A/natural, no word from either app). The browser has ``--max-tabs 1`` for the same reason; here the second
app is refused at start with one line naming the first (its pid and start time).

The lock is ``fcntl.flock`` on ``<db stem>.annotate-<sha256(name)[:12]>.lock`` beside the database: the kernel
releases it when the process ends however it ends (``kill -9`` included), so a crash never leaves anybody locked
out. The file is removed on a normal exit (taken again only when the path still names the locked file, so a
remover and a newcomer cannot both hold it). A folder where no file can be created (read-only) takes no lock: the
command refuses to write there anyway.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from fbagent.errors import FbagentError


def lock_path(db: Path, annotator: str) -> Path:
    """The lock file of ``annotator`` on database ``db`` (beside it; the name hashed: any characters are safe)."""
    digest = hashlib.sha256(annotator.encode("utf-8")).hexdigest()[:12]
    return db.resolve().with_name(f"{db.stem}.annotate-{digest}.lock")


def _take(path: Path) -> int | None:
    """An open descriptor of ``path`` holding its exclusive lock; None when the file cannot be created. Raises
    BlockingIOError when another process holds it."""
    for _ in range(3):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise
        try:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)   # the holder removed the file between our open and our lock: take the new one
    return None


def _holder(path: Path) -> str:
    """What the lock file says about the app holding it ("pid 123, since 12:04 UTC"), or "" when unreadable."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()[:80]
    except OSError:
        return ""


@contextlib.contextmanager
def annotator_lock(db: Path, annotator: str) -> Iterator[None]:
    """Hold ``annotator``'s lock on ``db`` while the block runs (see the module docstring).

    Raises :class:`FbagentError` when another process holds it (the one line names that app and the fix).
    """
    path = lock_path(db, annotator)
    try:
        fd = _take(path)
    except BlockingIOError:
        held = _holder(path)
        raise FbagentError(f"{annotator} is already annotating {db} in another app{f' ({held})' if held else ''}; "
                           "two apps of one annotator would overwrite each other's answers",
                           "go on in that app, or quit it (q) and run this again") from None
    if fd is None:
        yield
        return
    try:
        since = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}, since {since}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)
