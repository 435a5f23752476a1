"""docs/architecture.md names every room that exists, in the order of scripts/import_graph.py's ranks, and
pyproject's package list names every package folder (a wheel built from it holds all of them).

The rooms table is read from the page itself: the first cell of each row names its rooms as backticked paths
(``fbagent/cli.py``, ``fbagent/verifier/``, ``store/``); the last row (``root helpers``) names the root
modules and folders of rank 0 in its second cell. A new folder under ``fbagent/`` (or a new root module)
fails here until the page says what lives there.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOP = {"store": "store", "tui": "tui", "eval": "eval"}   # top-level folders installed as fbagent.<name>


def _ranks() -> dict[str, int]:
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import import_graph
    finally:
        sys.path.remove(str(REPO / "scripts"))
    return dict(import_graph.RANKS)


def _table() -> list[tuple[list[str], str]]:
    """``[(rooms of the row, the row's second cell)]`` of the rooms table, top to bottom."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Rooms (top to bottom)", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith("| room ") or line.startswith("|---"):
            continue
        first, second = line.split(" | ", 2)[:2]
        rooms = [_room(tok) for tok in re.findall(r"`([^`]+)`", first)]
        rows.append(([r for r in rooms if r], second))
    return rows


def _room(token: str) -> str | None:
    """``fbagent/cli.py`` -> ``cli``; ``fbagent/verifier/`` -> ``verifier``; ``store/`` -> ``store``."""
    m = re.fullmatch(r"(?:fbagent/)?([a-z_]+)(?:/|\.py)", token)
    return m.group(1) if m else None


def _folders() -> set[str]:
    """The rooms that exist: every package folder below ``fbagent/`` and the three top-level ones."""
    inner = {p.parent.name for p in (REPO / "fbagent").glob("*/__init__.py")}
    return inner | set(TOP)


def _root_modules() -> set[str]:
    return {p.stem for p in (REPO / "fbagent").glob("*.py") if p.stem != "__init__"}


def test_every_room_that_exists_is_in_the_rooms_table():
    rows = _table()
    named = {r for rooms, _ in rows[:-1] for r in rooms}
    root_cell = rows[-1][1]
    in_root_row = set(re.findall(r"`([a-z_]+)/?`", root_cell))
    missing = sorted((_folders() - named - in_root_row) - {"data", "json_schemas"})
    assert not missing, f"docs/architecture.md's rooms table does not name these folders: {missing}"
    root_missing = sorted(_root_modules() - named - in_root_row)
    assert not root_missing, f"root modules missing from the table's root helpers row: {root_missing}"


def test_the_table_names_no_room_that_does_not_exist_and_follows_the_ranks():
    rows = _table()
    ranks = _ranks()
    exists = _folders() | _root_modules()
    assert not sorted(set(ranks) - exists), f"RANKS lists rooms that do not exist: {sorted(set(ranks) - exists)}"
    named = [r for rooms, _ in rows[:-1] for r in rooms]
    assert not sorted(set(named) - exists), f"the table names rooms that do not exist: {sorted(set(named) - exists)}"
    assert set(named) == set(ranks), f"table and RANKS differ: {sorted(set(named) ^ set(ranks))}"
    row_ranks = []
    for rooms, _ in rows[:-1]:
        assert len({ranks[r] for r in rooms}) == 1, f"rooms on one row have different ranks: {rooms}"
        row_ranks.append(ranks[rooms[0]])
    assert row_ranks == sorted(row_ranks, reverse=True) and len(set(row_ranks)) == len(row_ranks), (
        f"the rows are not in the order of the ranks (top to bottom): {list(zip([r for r, _ in rows[:-1]], row_ranks, strict=True))}")


def test_the_package_list_names_every_package_folder():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = set()
    for folder, package in {"fbagent": "fbagent", **{k: f"fbagent.{v}" for k, v in TOP.items()}}.items():
        for init in (REPO / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / folder).parts
            found.add(".".join([package, *parts]))
    assert not sorted(found - listed), f"pyproject's packages list misses {sorted(found - listed)}"


def test_no_file_cites_a_design_document_outside_the_repository():
    """The design card the project started from is not in the repository: no file names it."""
    card = "DESIGN" + ".md"   # spelled apart so that this file does not name it either
    hits = []
    for path in REPO.rglob("*"):
        if path.is_file() and path.suffix in {".py", ".md", ".toml", ".txt", ".tcss", ".html"} \
                and not {".venv", ".git", "build", ".mypy_cache"} & set(path.parts):
            if card in path.read_text(encoding="utf-8", errors="replace"):
                hits.append(str(path.relative_to(REPO)))
    assert not hits, f"files cite {card}, which is not in the repository: {hits}"
