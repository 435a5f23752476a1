"""pyproject's one package list covers every folder that installs files, so that `pip install` prints no
setuptools "Package would be ignored" warning (a data folder it finds but no list names) and drops nothing."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _installed_folders() -> set[str]:
    """The dotted names of the folders (under each ``package-dir`` root) that hold at least one file that installs."""
    roots = PYPROJECT["tool"]["setuptools"]["package-dir"]
    names = set()
    for package, folder in roots.items():
        base = ROOT / folder
        for path in base.rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            rel = path.parent.relative_to(base)
            if any(part.startswith(".") for part in rel.parts):
                continue
            names.add(".".join([package, *rel.parts]))
    return names


def test_every_folder_with_files_is_a_listed_package():
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    missing = sorted(_installed_folders() - listed)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_the_licence_is_an_spdx_string():
    assert PYPROJECT["project"]["license"] == "Apache-2.0"   # a TOML table is deprecated by setuptools 77
