"""Type-check fbagent with mypy over the package as it installs: ``fbagent.store``, ``fbagent.eval``, ``fbagent.tui``.

Usage: python scripts/typecheck.py [extra mypy arguments]

pyproject maps the top-level folders ``store/``, ``eval/`` and ``tui/`` into the ``fbagent`` namespace
(``package-dir``), as docs/architecture.md's layout keeps them visible at the top. mypy has no such mapping: run on
the checkout it sees ``store/db.py`` as a module ``store.db`` and cannot resolve ``from fbagent.store
import open_db``. So this script lays out the package as it is installed, in a temporary folder of
symbolic links (``fbagent/<each entry of fbagent/>``, ``fbagent/store`` -> ``store/``, ``fbagent/eval``
-> ``eval/``, ``fbagent/tui`` -> ``tui/``), runs ``mypy -p fbagent`` there with the settings of
``[tool.mypy]`` in pyproject.toml and the cache in ``.mypy_cache/`` of the checkout, and prints mypy's
lines with the checkout's paths (``fbagent/store/db.py`` -> ``store/db.py``). Nothing is copied or
moved, and the checkout's layout stays as it is (moving the three folders under ``fbagent/`` would
have hidden the top-level rooms).

Exit status: mypy's (0 when clean, 1 with errors, 2 when mypy itself fails).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAPPED = {"store": "store", "eval": "eval", "tui": "tui"}   # fbagent/<name> -> <folder> of the checkout


def lay_out(root: Path) -> Path:
    """Build ``root/fbagent`` as installed (symbolic links into the checkout) and return it."""
    package = root / "fbagent"
    package.mkdir()
    for entry in sorted((REPO / "fbagent").iterdir()):
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name, folder in MAPPED.items():
        (package / name).symlink_to(REPO / folder)
    return package


def checkout_path(line: str) -> str:
    """A mypy line with ``fbagent/store/...``, ``fbagent/eval/...``, ``fbagent/tui/...`` as checkout paths."""
    return re.sub(r"^fbagent/(store|eval|tui)/", lambda m: f"{MAPPED[m.group(1)]}/", line)


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="fbagent-typecheck-") as tmp:
        lay_out(Path(tmp))
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
               "--cache-dir", str(REPO / ".mypy_cache"), "-p", "fbagent", *argv]
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True,
                              env={**os.environ, "MYPYPATH": ""})
    for line in (proc.stdout + proc.stderr).splitlines():
        print(checkout_path(line))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
