"""A folder written whole or not at all: files go to a temporary folder beside the target, which is
then renamed over it. An existing target is replaced only when it is empty or an earlier export
(it holds :data:`MARKER`), so a mistyped path never deletes someone's folder.

The temporary folder ``.OUT.XXXXXXXX.tmp/`` holds a lock file (:data:`LOCK`, ``flock``'ed while it is written,
removed before the rename): an export killed mid-way leaves the folder, and the next export to the same
``OUT`` removes it (:func:`fbagent.files.remove_stale`) unless a live export holds it."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.files import hold, remove_stale, staged_beside

#: the manifest every export folder carries (what it holds and how it was made)
MARKER = "fbagent-export.json"
#: the lock file inside a staging folder while an export writes it
LOCK = ".fbagent-writing"


def check_target(out: Path) -> None:
    """Refuse ``out`` when it is a file, a non-empty folder that is not an earlier export, or when
    its parent folder is missing. Raises :class:`FbagentError`."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise FbagentError(f"{out} is a file", "pass a folder name (it is created) for --format hf or lm-eval")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise FbagentError(f"folder {out} exists, is not empty and is not an fbagent export",
                           "pass a new folder name, or empty that folder first")
    parent = out.absolute().parent
    if not parent.is_dir():
        raise FbagentError(f"folder {parent} of {out} does not exist",
                           f"create it (mkdir -p {parent}) or pass another output folder")


@contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``out``; when the body returns, it replaces ``out``.

    On any error the temporary folder is removed and ``out`` is left as it was. Files are fsync'd
    before the rename. Raises :class:`FbagentError` (see :func:`check_target`, or a folder that
    cannot be written).
    """
    out = Path(out)
    check_target(out)
    parent = out.absolute().parent
    remove_stale(staged_beside(parent, re.compile(rf"\.{re.escape(out.name)}\.[A-Za-z0-9_]{{8}}\.tmp")), LOCK)
    tmp: Path | None = None
    try:
        tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{out.name}.", suffix=".tmp"))
        lock = hold(tmp / LOCK)
    except OSError as err:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        raise _write_error(f"cannot write into {parent}", err) from err
    try:
        yield tmp
        (tmp / LOCK).unlink()   # not part of the export (the lock itself is held until the end)
        for path in sorted(tmp.rglob("*")):
            if path.is_file():
                with path.open("rb") as f:
                    os.fsync(f.fileno())
        os.chmod(tmp, 0o755)
        old = None
        if out.exists():
            old = parent / f".{out.name}.old-{os.getpid()}"
            os.replace(out, old)
        try:
            os.replace(tmp, out)
        except OSError:
            if old is not None:
                os.replace(old, out)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as err:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _write_error(f"cannot write {out}", err) from err
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        os.close(lock)


def _write_error(what: str, err: OSError) -> FbagentError:
    """The one line for a failed write of an export folder: a full disk says so, anything else names the folder."""
    if err.errno == errno.ENOSPC or "no space left" in str(err).lower():
        return FbagentError(f"{what}: the disk is full (no space left on the device); nothing was written",
                            "free some space on that disk (df -h) or pass an output folder on another disk")
    return FbagentError(f"{what} ({err.strerror or err})", "pass an output folder in a folder you can write to")


def write_text(folder: Path, rel: str, text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``folder/rel``, creating sub-folders; returns the path."""
    path = Path(folder) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return path


def write_marker(folder: Path, manifest: dict) -> None:
    """Write :data:`MARKER` (indented JSON, keys in the given order)."""
    write_text(folder, MARKER, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
