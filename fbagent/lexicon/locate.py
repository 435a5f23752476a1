"""Where ``fbagent lexicon add NAME`` finds a lexicon: a path, or a corpus name in NLTK's data folders.

NLTK's downloader (``python -m nltk.downloader framenet_v17``, or the same data prepared by hand)
keeps a FrameNet release as ``corpora/framenet_v17.zip`` (and, unzipped, ``corpora/framenet_v17/``)
under one of the folders of ``nltk.data.path``: ``NLTK_DATA`` (colon-separated) first, then
``~/nltk_data``, the Python prefix's ``nltk_data`` and the system folders (``/usr/share/nltk_data``...).
:func:`locate_resource` takes an existing path as given; a bare name that is no path is looked up
there as ``corpora/NAME`` (a folder, preferred) or ``corpora/NAME.zip``.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from fbagent.errors import FbagentError


@dataclass(frozen=True)
class Located:
    """A lexicon resource found: ``path`` (as the user typed it, symlinks kept) and ``note`` (``None``
    when the path was given; else which NLTK data folder held the name)."""

    path: Path
    note: str | None = None


def nltk_data_folders() -> list[Path]:
    """NLTK's data search path in its order (``nltk.data.path``: ``NLTK_DATA`` first); without nltk
    the folders of ``NLTK_DATA`` and ``~/nltk_data``."""
    try:
        import nltk.data

        folders = [str(p) for p in nltk.data.path]
    except ImportError:  # pragma: no cover - nltk is a dependency
        folders = [*os.environ.get("NLTK_DATA", "").split(os.pathsep), str(Path.home() / "nltk_data")]
    env = [p for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    seen: list[Path] = []
    for folder in [*env, *folders]:  # NLTK_DATA set after nltk was imported still comes first
        path = Path(folder).expanduser()
        if folder and path not in seen:
            seen.append(path)
    return seen


def _is_name(text: str) -> bool:
    return bool(text) and os.sep not in text and "/" not in text and not text.startswith((".", "~"))


def locate_resource(path: str | Path) -> Located:
    """The resource ``path`` names: the path itself when it exists (or looks like a path), else the
    NLTK corpus of that name (``corpora/NAME``, then ``corpora/NAME.zip``, in the order of
    :func:`nltk_data_folders`).

    Raises :class:`FbagentError` for a name found nowhere, in one line: the places looked at (the
    folders of ``NLTK_DATA`` by name, NLTK's defaults counted), a close corpus name found there, and
    how to get a FrameNet release.
    """
    text = str(path)
    given = Path(text).expanduser()
    if given.exists() or not _is_name(text):
        if not given.exists():
            raise FbagentError(f"{given} does not exist",
                               "pass the folder of an NLTK-layout FrameNet (or its .zip) or a JSONL lexicon file; "
                               "docs/lexicon.md says where FrameNet releases come from")
        return Located(given)
    folders = nltk_data_folders()
    for folder in folders:
        for candidate in (folder / "corpora" / text, folder / "corpora" / f"{text}.zip"):
            if candidate.exists():
                return Located(candidate, f"{text}: found in NLTK's data folder {folder} ({candidate})")
    raise FbagentError(
        f"{text} is neither a file or folder here nor an NLTK corpus (no corpora/{text}[.zip] {_where(folders)})",
        f"{_did_you_mean(text, folders)}pass a FrameNet folder, .zip or JSONL file, or a corpus name"
        " (python -m nltk.downloader framenet_v17 gets one); see `fbagent lexicon add --help`, docs/lexicon.md")


def _where(folders: list[Path]) -> str:
    """The folders looked in, short: those of ``NLTK_DATA`` by name, NLTK's defaults counted."""
    env = [Path(p).expanduser() for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    others = len([f for f in folders if f not in env])
    if not env:
        return f"in NLTK's {others} data folders"
    return f"in NLTK_DATA ({', '.join(str(f) for f in env)}) or NLTK's {others} default folders"


def _corpus_names(folders: list[Path]) -> list[str]:
    """The corpora present in ``folders`` (``corpora/NAME`` and ``corpora/NAME.zip``), sorted, each once."""
    names: set[str] = set()
    for folder in folders:
        corpora = folder / "corpora"
        if corpora.is_dir():
            names.update(p.name.removesuffix(".zip") for p in corpora.iterdir() if not p.name.startswith("."))
    return sorted(names)


def _did_you_mean(text: str, folders: list[Path]) -> str:
    close = difflib.get_close_matches(text, _corpus_names(folders), n=1, cutoff=0.75)
    return f"did you mean {close[0]}? Else " if close else ""
