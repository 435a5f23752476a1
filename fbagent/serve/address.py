"""Where a running ``annotate --serve`` listens, for ``annotators invite``'s links.

While the server listens it keeps one small JSON file beside the database, ``<db stem>.serve.json``
(``{"url": "http://127.0.0.1:8765", "pid": 1234}``), written atomically once the port is bound and removed
when it stops. ``annotators invite`` without ``--public-url`` or ``--port`` names that address, so a link
points at the port the server really uses; a file left by a server that died (its process is gone) is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.files import write_atomic


def address_file(db: Path | str) -> Path:
    """The address file of the database ``db``: ``<folder>/<db stem>.serve.json``."""
    db = Path(db)
    return db.with_name(f"{db.stem}.serve.json")


def record_address(db: Path | str, url: str, pid: int | None = None) -> None:
    """Write the address file of ``db``: ``url`` (the base URL browsers open) and ``pid`` (default: this
    process). A folder that cannot be written is no error: invites then name ``--port`` or the default."""
    doc = {"url": url, "pid": os.getpid() if pid is None else pid}
    with contextlib.suppress(FbagentError, OSError):
        write_atomic(address_file(db), [json.dumps(doc) + "\n"])


def forget_address(db: Path | str, pid: int | None = None) -> None:
    """Remove the address file of ``db`` when it is the one process ``pid`` (default: this one) wrote."""
    path = address_file(db)
    if running_pid(path) == (os.getpid() if pid is None else pid):
        with contextlib.suppress(OSError):
            path.unlink()


def running_pid(path: Path) -> int | None:
    """The ``pid`` of the address file ``path``; ``None`` for a missing or unreadable file."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return int(doc["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:   # another user's process: it exists
        return True
    return True


def running_address(db: Path | str) -> str | None:
    """The base URL of the server that listens on ``db`` now (its address file, its process alive), else ``None``."""
    path = address_file(db)
    pid = running_pid(path)
    if pid is None or not _alive(pid):
        return None
    try:
        url = json.loads(path.read_text(encoding="utf-8"))["url"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return url if isinstance(url, str) and url.startswith(("http://", "https://")) else None
