"""The readers of the published layouts ``lexicon add`` chooses from, in the order it tries them.

Each :class:`Reader` says whether a path holds its layout (``detect``), hashes the files it would read without
parsing them (``source_hash``: an unchanged resource is not read again) and reads it (``read``). The NLTK XML and
JSONL readers are chosen by :func:`fbagent.lexicon.importer.detect_format` before these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.framenet.model import LexiconData
from fbagent.lexicon import (
    conll2009_reader,
    kfn_reader,
    lu_list_reader,
    odfn_reader,
    starlang_reader,
    swefn_reader,
)

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class ReadOptions:
    """What the command passes to a reader: ``strict`` (CoNLL-2009: a truncated file is refused), ``columns``
    (LU lists: the ``--columns`` mapping text), ``progress`` (``(stage, done, total)``)."""

    strict: bool = False
    columns: str | None = None
    progress: Progress | None = None


@dataclass(frozen=True)
class Reader:
    """One layout: its ``name`` (the ``--format`` value), what it reads (``label``), ``detect``, ``source_hash``,
    ``read``, whether its frames come without text (``borrows``: ``--frames-from`` applies by default), what
    they lack (``lacks``), and ``damage``: the warnings ``read`` gives about damaged files (a truncated copy),
    found without a full read, for a re-add of an unchanged resource to repeat (``None``: the layout has none)."""

    name: str
    label: str
    detect: Callable[[Path], bool]
    source_hash: Callable[[Path], str]
    read: Callable[[Path, ReadOptions], LexiconData]
    borrows: bool = True
    lacks: str = "definitions, frame elements with core types, or relations"
    damage: Callable[[Path, ReadOptions], list[str]] | None = None


def _lu_list(path: Path, options: ReadOptions) -> LexiconData:
    return lu_list_reader.read_lu_list(path, options.columns)


READERS: tuple[Reader, ...] = (
    Reader(kfn_reader.NAME, "the Korean FrameNet repository layout (resource/V/KFN_lus.json, data/V/*.tsv)",
           kfn_reader.detect, kfn_reader.source_hash,
           lambda p, o: kfn_reader.read_kfn(p, progress=o.progress), lacks="relations"),
    Reader(starlang_reader.NAME, "Starlang's Turkish FrameNet XML (LUs as KeNet synsets)",
           starlang_reader.detect, starlang_reader.source_hash,
           lambda p, o: starlang_reader.read_starlang(p, progress=o.progress)),
    Reader(swefn_reader.NAME, "the Swedish FrameNet's LMF (swefn.xml; parts of speech from SALDO's saldo.xml beside it)",
           swefn_reader.detect, swefn_reader.source_hash,
           lambda p, o: swefn_reader.read_swefn(p, progress=o.progress), lacks="frame element core types or relations"),
    Reader(conll2009_reader.NAME, "CoNLL-2009 FrameNet annotation (FILLPRED/PRED columns; the Latvian FrameNet)",
           conll2009_reader.detect, conll2009_reader.source_hash,
           lambda p, o: conll2009_reader.read_conll2009(p, strict=o.strict, progress=o.progress),
           damage=lambda p, o: conll2009_reader.damage_warnings(p, strict=o.strict)),
    Reader(odfn_reader.NAME, "the Open Dutch FrameNet Lexicon's JSON (\"lemma:POS\" entries, fn17-FRAME keys)",
           odfn_reader.detect, odfn_reader.source_hash,
           lambda p, o: odfn_reader.read_odfn(p, progress=o.progress)),
    Reader(lu_list_reader.NAME, "an LU list naming Berkeley frames (CSV, TSV or JSON)",
           lu_list_reader.detect, lu_list_reader.source_hash, _lu_list),
)
BY_NAME = {r.name: r for r in READERS}


def detect_reader(path: Path) -> Reader | None:
    """The first reader of :data:`READERS` whose layout ``path`` holds, or ``None``."""
    return next((r for r in READERS if r.detect(path)), None)


def damage_warnings(path: Path, fmt: str, options: ReadOptions) -> list[str]:
    """The warnings a read of ``path`` in layout ``fmt`` would give about damaged files (:attr:`Reader.damage`;
    ``[]`` for a layout without such a check, NLTK and JSONL included). Raises what that read raises for them
    (:class:`FbagentError`, e.g. a truncated CoNLL-2009 file with ``strict``)."""
    reader = BY_NAME.get(fmt)
    return reader.damage(path, options) if reader is not None and reader.damage is not None else []


def reader_named(name: str) -> Reader:
    """The reader ``--format NAME`` names; :class:`FbagentError` for another name (a programming error upstream)."""
    if name not in BY_NAME:
        raise FbagentError(f"unknown format {name!r}", f"pass --format {' | '.join(BY_NAME)}")
    return BY_NAME[name]
