"""Type-check fbagent with mypy over the package as it installs: ``fbagent.store``, ``fbagent.eval``, ``fbagent.tui``.

Usage: python scripts/typecheck.py [extra mypy arguments]
       python scripts/typecheck.py --any [--max N]

``--any`` counts instead of checking: the occurrences of the word ``Any`` (``\bAny\b``: annotations,
imports, comments and docstrings alike, so an alias of ``Any`` counts where it is used by name only if
it is spelled ``Any``: do not hide it behind one) in the ``.py`` files of ``fbagent/``, ``store/``,
``eval/`` and ``tui/``, per 1,000 lines of those files (every line, blank ones included). With
``--max N`` the exit status is 1 when the rate is above N (issue 44's target: 15).

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


ANY = re.compile(r"\bAny\b")
COUNTED = ("fbagent", "store", "eval", "tui")


def count_any(root: Path = REPO) -> tuple[int, int]:
    """``(occurrences of the word Any, lines)`` over the ``.py`` files of :data:`COUNTED` under ``root``."""
    hits = lines = 0
    for folder in COUNTED:
        for path in sorted((root / folder).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            hits += len(ANY.findall(text))
            lines += text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return hits, lines


def any_report(argv: list[str]) -> int:
    """Print the ``Any`` rate (``--any``); 1 when ``--max N`` is given and the rate is above it."""
    hits, lines = count_any()
    rate = 1000.0 * hits / max(1, lines)
    print(f"Any: {hits:,} in {lines:,} lines = {rate:.1f} per 1,000 lines")
    if "--max" in argv:
        limit = float(argv[argv.index("--max") + 1])
        if rate > limit:
            print(f"above the target of {limit:g} per 1,000 lines")
            return 1
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--any"]:
        return any_report(argv[1:])
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
