"""Read FrameNet annotation in CoNLL-2009 columns (the Latvian FrameNet of the FullStack corpus, and the like).

A folder of ``*.conll2009`` / ``*.conll09`` files (searched recursively), or one such file. Two column layouts,
told apart by each file's first token row:

- CoNLL-2009 on top of CoNLL-U (12 columns; LUMII-AILab/FullStack ``FrameNet/``): ID FORM LEMMA UPOS XPOS FEATS
  HEAD DEPREL DEPS FILLPRED PRED APRED;
- classic CoNLL-2009 (14 or more): ID FORM LEMMA PLEMMA POS PPOS FEAT PFEAT HEAD PHEAD DEPREL PDEPREL FILLPRED
  PRED APRED...

A sentence is a block of token rows (``# text = ...`` gives its text; without it the forms joined by spaces); a row
with ``FILLPRED = Y`` is a target and its PRED is the frame: the targets of one frame in a sentence form one
annotation set, an exemplar of the LU ``LEMMA.pos`` in that frame (several target rows: lemmas joined by spaces,
span from the first to the last). ``pos`` comes from UPOS (or POS): VERB -> ``v`` and AUX -> ``aux`` (both POS
``V``, kept apart as the release counts them), NOUN -> ``n``, ADJ -> ``a``, ADV -> ``adv``, others lower-cased.
Frames are the frame names seen (no definitions: ``--frames-from`` borrows Berkeley's); the APRED labels seen
become the frame's frame elements (core type unknown until borrowed).

A row with another column count than its file's layout is damage (``FILE:LINE``, nothing imported); a file that
ends inside a row (no final newline, too few columns: a truncated copy) loses only that unfinished sentence, with
a warning (``--strict``: refused). An empty file is skipped with a warning naming it; a folder whose files are all
empty is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.framenet.model import Example, Frame, FrameElement, LexicalUnit, LexiconData
from fbagent.lexicon.releases import known, unknown
from fbagent.lexicon.source_files import damaged, fingerprint, read_text, token_offsets

NAME = "conll2009"
LAYOUT = "CoNLL-2009"
PARSER_VERSION = "conll2009-reader/1"
SUFFIXES = (".conll2009", ".conll09")
#: columns (0-based) of each layout: column count -> (LEMMA, POS, FILLPRED, PRED, first APRED)
LAYOUTS = {12: (2, 3, 9, 10, 11), 14: (2, 4, 12, 13, 14)}
POS = {"VERB": ("v", "V"), "AUX": ("aux", "V"), "NOUN": ("n", "N"), "PROPN": ("n", "N"), "ADJ": ("a", "A"),
       "ADV": ("adv", "ADV"), "ADP": ("prep", "PREP")}


def files_of(path: Path) -> list[Path]:
    """The CoNLL-2009 files of ``path`` (itself, or the folder's, recursively, sorted by path)."""
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())


def detect(path: Path) -> bool:
    """Whether ``path`` is a CoNLL-2009 file or a folder holding some."""
    return (path.is_file() and path.suffix.lower() in SUFFIXES) or (path.is_dir() and bool(files_of(path)))


def source_hash(path: Path) -> str:
    """The content hash of the files :func:`read_conll2009` reads."""
    return fingerprint(PARSER_VERSION, files_of(path))


def _provenance(path: Path) -> tuple[str, ...]:
    """The README next to the data (the folder or its parent) when it names the Latvian FullStack FrameNet."""
    for folder in (path if path.is_dir() else path.parent, (path if path.is_dir() else path.parent).parent):
        readme = folder / "README.md"
        if readme.is_file():
            text = readme.read_text("utf-8", errors="replace")
            if "FullStack" in text and "Latvian" in text:
                return ("latvian-framenet",)
    return ()


@dataclass
class _Lexicon:
    """Frames (name -> FE names in order seen) and LUs ((name, frame) -> LU) as the files are read."""

    frames: dict[str, list[str]] = field(default_factory=dict)
    lus: dict[tuple[str, str], LexicalUnit] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    sets: int = 0


def read_conll2009(path: str | Path, *, strict: bool = False,
                   progress: Callable[[str, int, int], None] | None = None) -> LexiconData:
    """Read CoNLL-2009 FrameNet files (module docstring): frames, LUs and one exemplar per annotation set.

    Raises:
        FbagentError: a row with a bad column count (``FILE:LINE``), no file of this layout, no annotation set;
            with ``strict``, a file that ends inside a row.
    """
    root = Path(path).expanduser()
    files = files_of(root)
    if not files:
        raise FbagentError(f"{root}: holds no *.conll2009 file", "point PATH at a CoNLL-2009 file or folder")
    lexicon = _Lexicon()
    empty = []
    for i, file in enumerate(files, 1):
        if not _read_file(file, lexicon, strict):
            empty.append(file)
        if progress:
            progress("CoNLL-2009 files", i, len(files))
    _check_empty(root, files, empty, lexicon)
    if not lexicon.lus:
        raise FbagentError(f"{root}: no row marks a target (FILLPRED = Y) with its frame (PRED)",
                           "pass CoNLL-2009 files with FrameNet annotation, or another --format")
    frames = [Frame(name, None, "", "", [], [FrameElement(fe, "") for fe in fes])
              for name, fes in sorted(lexicon.frames.items())]
    lus = list(lexicon.lus.values())
    for lu in lus:
        lu.n_annotated = len(lu.exemplars)
    release = _provenance(root)
    provenance = known(release[0], NAME) if release else unknown(NAME)
    notes = [f"{lexicon.sets:,} annotation set(s) in {len(files):,} file(s), one exemplar each"]
    return LexiconData(frames, lus, [], fingerprint(PARSER_VERSION, files), lexicon.warnings, notes, provenance)


def _check_empty(root: Path, files: list[Path], empty: list[Path], lexicon: _Lexicon) -> None:
    """Refuse a folder whose files are all ``empty``; else add the warning naming the empty ones (if any)."""
    if empty and len(empty) == len(files):
        shown = ", ".join(p.name for p in empty[:3]) + (", ..." if len(empty) > 3 else "")
        raise FbagentError(f"{root}: every CoNLL-2009 file is empty ({len(empty):,}: {shown})",
                           "fetch the data again (a copy or checkout without the files' contents?); nothing was imported")
    if empty:
        shown = ", ".join(str(p) for p in empty[:3]) + (", ..." if len(empty) > 3 else "")
        lexicon.warnings.append(f"{len(empty):,} of {len(files):,} CoNLL-2009 file(s) are empty and were skipped: "
                                f"{shown} (fetch them again if they should hold sentences)")


def damage_warnings(path: str | Path, *, strict: bool = False) -> list[str]:
    """The warnings :func:`read_conll2009` gives about damaged files (one that ends inside a row: a truncated copy;
    empty files), found by reading only the files that could give one: those that are blank or do not end with a
    line break (a damaged row elsewhere refuses the whole read, so a stored lexicon has none). ``lexicon add``
    repeats them when the resource is unchanged and not read again.

    Returns:
        The warnings, in the words and order of a full read (``[]`` for a whole copy).

    Raises:
        FbagentError: as :func:`read_conll2009` for those files: with ``strict``, a file that ends inside a row;
            every file empty.
    """
    root = Path(path).expanduser()
    files = files_of(root)
    lexicon = _Lexicon()
    empty = [f for f in files if not _ends_whole(f) and not _read_file(f, lexicon, strict)]
    _check_empty(root, files, empty, lexicon)
    return lexicon.warnings


def _ends_whole(path: Path) -> bool:
    """Whether ``path`` holds some text in its first 4 KiB and ends with a line break: such a file can give
    :func:`_read_file` no warning (only a blank file or one that ends inside a row does). Reads 4 KiB + 1 byte."""
    with path.open("rb") as f:
        head = f.read(4096)
        if not head or head.isspace():   # blank (read in full to be sure) or empty
            return False
        f.seek(-1, 2)
        return f.read(1) == b"\n"


def _read_file(path: Path, lexicon: _Lexicon, strict: bool) -> bool:
    """Read one file's sentences into ``lexicon`` (see the module docstring for damage and truncation); ``False``
    when the file is empty (nothing but white space)."""
    text = read_text(path, LAYOUT)
    if not text.strip():
        return False
    lines = text.split("\n")
    width: int | None = None
    rows: list[list[str]] = []
    sentence_text: str | None = None
    start = 1
    for no, line in enumerate([*lines, ""], 1):
        line = line.rstrip("\r")
        if line.startswith("#"):
            if line.startswith("# text = "):
                sentence_text = line[len("# text = "):]
            continue
        if line.strip():
            cols = line.split("\t")
            width = width or len(cols)
            if width not in LAYOUTS and width < 14:
                raise damaged(path, no, f"{width} tab-separated column(s); CoNLL-2009 FrameNet rows have 12 "
                              "(CoNLL-U + FILLPRED, PRED, APRED) or 14 and more", LAYOUT)
            if len(cols) != width:
                if no == len(lines) and not text.endswith("\n") and len(cols) < width and not strict:
                    lexicon.warnings.append(f"{path}:{no}: the file ends inside a row ({len(cols)} of {width} "
                                            f"columns: a truncated copy); its unfinished sentence from line {start} "
                                            "is left out (--strict refuses it)")
                    return True
                raise damaged(path, no, f"{len(cols)} tab-separated column(s), the file's rows have {width}", LAYOUT)
            if not rows:
                start = no
            rows.append(cols)
            continue
        if rows:
            _add_sentence(rows, sentence_text, LAYOUTS.get(width or 0, LAYOUTS[14]), lexicon)
        rows, sentence_text = [], None
    return True


def _add_sentence(rows: list[list[str]], text: str | None, columns: tuple[int, int, int, int, int],
                  lexicon: _Lexicon) -> None:
    """One exemplar per frame the sentence's target rows (FILLPRED = Y) evoke."""
    lemma_col, pos_col, fill_col, pred_col, arg_col = columns
    targets: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if row[fill_col] == "Y" and row[pred_col] not in ("", "_"):
            targets.setdefault(row[pred_col], []).append(i)
    if not targets:
        return
    sentence, spans = token_offsets([r[1] for r in rows], text)
    for frame, idx in targets.items():
        fes = lexicon.frames.setdefault(frame, [])
        for row in rows:
            for label in row[arg_col:arg_col + 1]:
                if label not in ("", "_") and label not in fes:
                    fes.append(label)
        suffix, pos = POS.get(rows[idx[0]][pos_col], (rows[idx[0]][pos_col].lower(), rows[idx[0]][pos_col].upper()))
        lemma = " ".join(rows[i][lemma_col] for i in idx)
        name = f"{lemma}.{suffix}"
        lu = lexicon.lus.setdefault((name, frame), LexicalUnit(name=name, lemma=lemma, pos=pos, frame=frame))
        lu.exemplars.append(Example(sentence, spans[idx[0]][0], spans[idx[-1]][1]))
        lexicon.sets += 1
