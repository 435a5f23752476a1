"""A folder written whole or not at all: files go to a temporary folder beside the target, which is
then renamed over it. An existing target is replaced only when it is empty or an earlier export
(it holds :data:`MARKER`), so a mistyped path never deletes someone's folder."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fbagent.errors import FbagentError

#: the manifest every export folder carries (what it holds and how it was made)
MARKER = "fbagent-export.json"


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
    try:
        tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{out.name}.", suffix=".tmp"))
    except OSError as err:
        raise FbagentError(f"cannot write into {parent} ({err.strerror})",
                           "pass an output folder in a folder you can write to") from err
    try:
        yield tmp
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
        raise FbagentError(f"cannot write {out} ({err.strerror})",
                           "pass an output folder in a folder you can write to") from err
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


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
