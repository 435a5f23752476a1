"""Output files: one atomic write that knows what it may replace.

:func:`write_atomic` is how fbagent writes every file a user names (``export OUT``, ``validate report
--out``, eval manifests, summaries and reports): a missing file or a regular one is written to a
temporary file in the same folder, fsync'd and renamed over it, so a reader sees the old file or the
new one, never half of one. Any other existing target is never replaced: a character device or a FIFO
(``/dev/stdout``, ``/dev/null``, a named pipe) is written in place, a socket or a block device is
refused. A symbolic link is followed (the file it points to is replaced, the link stays). A failed
write (a full disk: ``ENOSPC``, also from ``/dev/full``) is one :class:`FbagentError`, and no temporary
file is left behind.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from fbagent.errors import FbagentError

_FIX = "pass an output file in a folder you can write to"


def _reason(err: OSError) -> str:
    if err.errno == errno.ENOSPC:
        return "no space left on the device"
    return err.strerror or str(err)


def _fix(err: OSError) -> str:
    return "free some space or pass an output file on another disk" if err.errno == errno.ENOSPC else _FIX


def write_atomic(out: Path | str, chunks: Iterable[str | bytes], *, mode: int = 0o644) -> Path:
    """Write the text (UTF-8, ``\\n`` line ends) or bytes ``chunks`` to ``out``; returns the path written.

    A missing or regular ``out`` is replaced atomically (temp file beside it, fsync, rename; file mode
    ``mode``). A character device or FIFO is written in place; a folder, a socket or a block device
    is refused. Raises :class:`FbagentError` when ``out`` is a folder, its folder is missing, it is a
    socket or block device, or the write fails (no partial file is left and an existing file is
    untouched).
    """
    out = Path(out)
    try:
        st = out.stat()  # follows a symlink: the file it points to is what gets replaced
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _FIX) from err
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise FbagentError(f"{out} is a folder", "pass a file name such as out.jsonl")
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            return _write_in_place(out, chunks)
        if not stat.S_ISREG(st.st_mode):
            kind = "a socket" if stat.S_ISSOCK(st.st_mode) else "a block device" if stat.S_ISBLK(st.st_mode) \
                else "not a regular file"
            raise FbagentError(f"{out} is {kind}; it is never replaced", "pass a regular output file")
        out = out.resolve()
    parent = out.parent
    if not parent.is_dir():
        raise FbagentError(f"folder {parent} of {out} does not exist",
                           f"create it (mkdir -p {parent}) or pass another output file")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{out.name}.", suffix=".tmp")
    except OSError as err:
        # ENOENT for a folder that exists: a virtual file system (/proc, /sys) that takes no new files
        reason = ("the folder takes no new files: a virtual file system such as /proc or /sys?"
                  if err.errno == errno.ENOENT else _reason(err))
        raise FbagentError(f"cannot write into {parent} ({reason})", _fix(err)) from err
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _fix(err)) from err
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def _write_in_place(out: Path, chunks: Iterable[str | bytes]) -> Path:
    """Write to a character device or FIFO as it is (no temp file, no rename, no truncation). A FIFO
    that no process reads is refused at once instead of blocking until one does."""
    try:
        fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise FbagentError(f"{out} is a named pipe (FIFO) that no process reads", "start its reader first "
                               "(e.g. cat FIFO in another shell), or pass a regular output file") from err
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _fix(err)) from err
    os.set_blocking(fd, True)  # the reader is there: block while it catches up
    try:
        with os.fdopen(fd, "ab") as fh:  # append: never truncates (a no-op for devices and pipes anyway)
            for chunk in chunks:
                fh.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            fh.flush()
    except OSError as err:
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _fix(err)) from err
    return out


def write_text_atomic(out: Path | str, text: str) -> Path:
    """:func:`write_atomic` of one string (UTF-8)."""
    return write_atomic(out, [text])
