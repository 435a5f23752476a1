"""Where a lexicon lies relative to the path ``lexicon add`` was given: above it (PATH is a file or subfolder of a
Korean FrameNet checkout, an NLTK release, ...) or below it (PATH is a folder of several lexicons).

A new user pointed ``lexicon add`` at ``../shared/data`` (five lexicons side by side): the CoNLL-2009 reader, which
searches folders recursively, found the Latvian files and imported them as a lexicon named ``data`` in whatever
``--lang`` was given. At ``framenet-ko-kfn-1.2/data/1.2/dev.tsv`` the LU-list reader read the sentence file as an LU
list and failed on its line 3. :func:`nested_error` and :func:`part_of_error` say instead where the lexicon is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from fbagent.errors import FbagentError

Detect = Callable[[Path], "str | None"]
#: how far above PATH a lexicon's root is looked for (dev.tsv -> data/1.2 -> data -> the checkout)
LEVELS = 3


def lexicons_inside(folder: Path, detect: Detect) -> list[tuple[Path, str]]:
    """``(subfolder, format)`` of each immediate, not hidden subfolder of ``folder`` that holds a layout
    (``detect``: its format or ``None``), sorted by name; ``[]`` when the folder cannot be listed."""
    try:
        children = sorted(c for c in folder.iterdir() if c.is_dir() and not c.name.startswith("."))
    except OSError:
        return []
    return [(child, fmt) for child in children if (fmt := detect(child)) is not None]


def root_above(path: Path, detect: Detect) -> tuple[Path, str] | None:
    """The farthest folder above ``path`` (at most :data:`LEVELS` up) that is a lexicon's root by ``detect`` (which
    must not search recursively: it runs on ``/`` too), with its format; ``None`` when none is. The farthest: a
    Korean FrameNet's ``resource/1.2`` is read as its checkout, which is the root to name."""
    found = None
    for parent in list(path.absolute().parents)[:LEVELS]:
        fmt = detect(parent)
        if fmt is not None:
            found = (parent, fmt)
    return found


def nested_error(folder: Path, nested: list[tuple[Path, str]], labels: Mapping[str, str]) -> FbagentError:
    """The error for a folder whose lexicons lie in its subfolders: several (fbagent will not guess), or one below a
    folder that holds none itself."""
    shown = ", ".join(f"{p.name} ({fmt})" for p, fmt in nested[:6]) + (", ..." if len(nested) > 6 else "")
    if len(nested) == 1:
        (sub, fmt), = nested
        return FbagentError(f"{folder} holds no lexicon itself; its subfolder {sub.name} holds {labels.get(fmt, fmt)}",
                            f"pass that folder: fbagent lexicon add {sub} --lang LANG")
    return FbagentError(f"{folder} holds {len(nested)} lexicons in its subfolders ({shown}); fbagent will not guess "
                        "which one you mean", f"pass one of them, e.g. fbagent lexicon add {nested[0][0]} --lang LANG")


def part_of_error(path: Path, root: Path, fmt: str, labels: Mapping[str, str], why: str) -> FbagentError:
    """The error for a file or subfolder of a lexicon (``root``, of format ``fmt``) that cannot be read alone
    (``why``: what reading it alone gave, or ``""``)."""
    alone = f" (read alone: {why})" if why else ""
    return FbagentError(f"{path} is part of {labels.get(fmt, fmt)} at {root}{alone}",
                        f"pass the lexicon's root folder: fbagent lexicon add {root} --lang LANG")


def part_of_note(path: Path, root: Path, fmt: str, labels: Mapping[str, str]) -> str:
    """The note for a file of a lexicon that was read alone (``KFN_lus.json`` as an LU list): what the whole adds."""
    return (f"{path.name} is part of {labels.get(fmt, fmt)} at {root}; read alone it gives what this file holds only "
            f"(`fbagent lexicon add {root}` reads the whole: sentences, frame text)")
