"""Import a FrameNet-style lexicon into the store, and pick the lexicon a command uses.

- :func:`import_lexicon` reads a resource (NLTK XML layout or JSONL) and
  writes it in ONE transaction: a new name is inserted; an existing name is
  replaced (its frames, FEs, LUs, exemplars and relations; the ``lexicons``
  row and its id are kept, so selections that point to it stay valid); an
  unchanged resource (same content hash) is left alone ("unchanged"). Any
  error while reading happens before the transaction starts, and any error
  while writing rolls it back: the database is never half-written.
- :func:`resolve_lexicon` is what every other command calls to get "the"
  lexicon: the named one, else the only or most recent one, else the embedded
  English sample (imported on first use, and announced through ``notify``).

The SQL of the import (inserts, the replacement's deletes) is in :mod:`fbagent.store.lexicon`
(:func:`fbagent.store.lexicon.store_lexicon`); this module reads and decides.
"""

from __future__ import annotations

import os
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.framenet.model import LexiconData, Provenance
from fbagent.languages import normalize_lang
from fbagent.lexicon.foreign import foreign_error
from fbagent.lexicon.frames_from import Borrowed, borrow_frame_text, combined_hash
from fbagent.lexicon.jsonl_reader import fingerprint as jsonl_fingerprint
from fbagent.lexicon.jsonl_reader import locate, read_jsonl
from fbagent.lexicon.locate import locate_resource
from fbagent.lexicon.nesting import (
    lexicons_inside,
    nested_error,
    part_of_error,
    part_of_note,
    root_above,
)
from fbagent.lexicon.nltk_reader import fingerprint, read_nltk, zip_root
from fbagent.lexicon.provenance import READERS, Overrides, known_provenance, resolve
from fbagent.lexicon.readers import BY_NAME, ReadOptions, damage_warnings, reader_named
from fbagent.lexicon.readers import READERS as READERS_IN_ORDER
from fbagent.lexicon.sniff import forced_format_error
from fbagent.store import lexicon as lexstore
from fbagent.store.frame_text import frame_text
from fbagent.store.rows import LexiconRow
from fbagent.text import check_name

EMBEDDED_NAME = "sample-en"
EMBEDDED_LANG = "en"
FORMATS = ("auto", "nltk", "jsonl", *BY_NAME)
#: what each format reads, for the line that says which reader read a lexicon
FORMAT_LABELS = {"nltk": "the NLTK FrameNet XML layout (frameIndex.xml, frame/, lu/)",
                 "jsonl": "fbagent's JSONL lexicon format", **{name: r.label for name, r in BY_NAME.items()}}
NAME_PUNCTUATION = "_.+@-"
NAME_RULE = ("letters and digits of any script (é, ñ, ß, ü, 中 ...), combining marks and _ . + @ -, "
             "starting with a letter or digit")
#: the readers that search a folder's subfolders for their files (a folder of several lexicons would look like one)
RECURSIVE = ("conll2009", "odfn")
ARCHIVES = (".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".7z", ".rar", ".gz", ".bz2", ".xz")

Progress = Callable[[str, int, int], None]


@dataclass
class ImportResult:
    """Outcome of :func:`import_lexicon`.

    ``status``: ``"imported"`` (new name), ``"replaced"`` (same name, new
    content) or ``"unchanged"`` (same name, same content hash: nothing
    written). ``counts`` are the ``n_*`` columns written to ``lexicons``;
    ``seconds`` covers reading and writing; ``lang`` is the stored (canonical)
    language tag (``nld`` given -> ``nl``); ``provenance`` the licence, citation and source stored.
    """

    lexicon_id: int
    name: str
    status: str
    format: str
    counts: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    lang: str = ""
    provenance: Provenance = field(default_factory=Provenance)


def embedded_path() -> Path:
    """Folder of the embedded English sample lexicon (NLTK layout), inside the package."""
    return Path(str(resources.files("fbagent").joinpath("data/sample_en")))


def check_lexicon_name(name: str) -> str:
    """The NFC form of ``name`` when it is usable as a lexicon name (see :data:`NAME_RULE`).

    Raises :class:`FbagentError` naming the characters that are not allowed.
    """
    nfc = unicodedata.normalize("NFC", name or "")
    if nfc:
        check_name(nfc, "lexicon name")  # length and control characters, as for every name
    bad = sorted({ch for ch in nfc if unicodedata.category(ch)[0] not in "LNM" and ch not in NAME_PUNCTUATION})
    if not nfc:
        what = "it is empty"
    elif bad:
        what = "it contains " + ", ".join(f"{ch!r} ({unicodedata.name(ch, f'U+{ord(ch):04X}')})" for ch in bad)
    elif unicodedata.category(nfc[0])[0] not in "LN":
        what = f"it starts with {nfc[0]!r}"
    else:
        return nfc
    raise FbagentError(f"lexicon name {name!r} is not usable: {what}", f"pass --name with {NAME_RULE}")


def detect_format(path: str | Path) -> str:
    """The format of ``path``: ``"nltk"`` for a folder with ``frameIndex.xml`` or a ``.zip`` of one; ``"jsonl"`` for
    a ``.jsonl`` file or a folder with ``frames.jsonl``; else the first reader of
    :data:`fbagent.lexicon.readers.READERS` whose layout it holds (``kfn``, ``starlang``, ``conll2009``,
    ``lu-list``). Raises :class:`FbagentError` otherwise (other archives: one line saying to extract them first)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise FbagentError(f"{p} does not exist", "pass the folder or file of a FrameNet (docs/lexicon.md lists the layouts)")
    if p.is_file() and p.suffix.lower() == ".zip":
        zip_root(p)  # raises with "unzip it first" when the archive holds no frameIndex.xml
        return "nltk"
    if p.is_file() and p.name.lower().endswith(ARCHIVES):
        raise FbagentError(f"{p}: an archive fbagent does not read in place",
                           "extract it first (e.g. tar xf FILE) and point PATH at the folder it holds")
    foreign = foreign_error(p)   # another tool's file (Prodigy, Argilla, lm-eval, CoNLL-U, ...): say what it is
    if foreign is not None:
        raise foreign
    fmt = _layout_of(p)
    if fmt is None and (above := root_above(p, _root_layout)) is not None:
        raise part_of_error(p, above[0], above[1], FORMAT_LABELS, "")
    if p.is_dir() and fmt in (None, *RECURSIVE):
        _check_nested(p, fmt)
    if fmt is not None:
        return fmt
    raise FbagentError(
        f"{p}: no FrameNet layout fbagent reads (NLTK XML with frameIndex.xml, JSONL with frames.jsonl, Korean "
        "FrameNet resource/V/KFN_lus.json, Turkish framenet.xml, SweFN swefn.xml, *.conll2009 files, a CSV/TSV/JSON LU "
        "list)",
        f"point PATH at the lexicon's root folder or file, or pass --format {'|'.join(FORMATS[1:])}",
    )


def _layout_of(p: Path, skip: tuple[str, ...] = ()) -> str | None:
    """The layout ``p`` holds itself (a folder with frameIndex.xml or frames.jsonl, a JSONL file, a reader's layout
    but those named in ``skip``), or ``None``."""
    if p.is_dir() and (p / "frameIndex.xml").exists():
        return "nltk"
    if (p.is_dir() and (p / "frames.jsonl").exists()) or (p.is_file() and p.suffix.lower() in (".jsonl", ".ndjson")):
        return "jsonl"
    reader = next((r for r in READERS_IN_ORDER if r.name not in skip and r.detect(p)), None)
    return reader.name if reader is not None else None


def _root_layout(p: Path) -> str | None:
    """A lexicon root above a path: a layout found without a recursive search (not CoNLL-2009 or ODFN, whose readers
    take any folder holding such files, nor an LU list, which is one file)."""
    return _layout_of(p, skip=(*RECURSIVE, "lu-list")) if p.is_dir() else None


def _check_nested(folder: Path, fmt: str | None) -> None:
    """Refuse a folder of lexicons of several layouts, or one lexicon in a subfolder of a folder that holds none
    itself (:func:`fbagent.lexicon.nesting.nested_error`). ``fmt``: the folder's own layout, ``None`` or a layout
    found by a recursive search (:data:`RECURSIVE`): subfolders all of that layout are one lexicon (CoNLL-2009
    batches), and a single one is checked in turn (``../shared``: its ``data/`` holds five lexicons)."""
    nested = lexicons_inside(folder, _layout_of)
    if (fmt is None and nested) or any(f != fmt for _, f in nested):
        raise nested_error(folder, nested, FORMAT_LABELS)
    if fmt is not None and len(nested) == 1:
        _check_nested(nested[0][0], fmt)


@contextmanager
def explain_forced(path: str | Path, fmt: str) -> Iterator[None]:
    """Around a forced reader (``fmt`` not ``auto``): its :class:`FbagentError` becomes "PATH holds X, but --format
    Y reads Z; pass --format X" when ``path`` holds another layout or kind of file
    (:func:`fbagent.lexicon.sniff.forced_format_error`); else it stands (a damaged file of that layout). With
    ``auto``: "PATH is part of X at ROOT" when a lexicon's root lies above it (:mod:`fbagent.lexicon.nesting`)."""
    try:
        yield
    except FbagentError as err:
        p = Path(path).expanduser()
        if fmt == "auto":  # a file of a lexicon (KFN's dev.tsv) read alone by the reader its name suggests
            own = _layout_of(p) if p.is_file() else None
            above = root_above(p, _root_layout) if own is not None else None
            if above is None or above[1] == own:
                raise
            raise part_of_error(p, above[0], above[1], FORMAT_LABELS, err.problem) from err
        try:
            detected: str | None = detect_format(p)
        except FbagentError:
            detected = None
        better = forced_format_error(p, fmt, detected, FORMAT_LABELS)
        if better is None:
            raise
        raise better from err


def _check_options(used: str, exemplars: str | Path | None, columns: str | None) -> None:
    """Refuse an option the format ``used`` does not take (one line)."""
    if exemplars is not None and used != "jsonl":
        raise FbagentError(f"--exemplars applies to --format jsonl only, not {used}",
                           "drop --exemplars (the other layouts keep their sentences in their own files)")
    if columns is not None and used != "lu-list":
        raise FbagentError(f"--columns applies to LU lists (--format lu-list) only, not {used}", "drop --columns")


def read_resource(
    path: str | Path,
    fmt: str = "auto",
    *,
    strict: bool = False,
    exemplars: str | Path | None = None,
    progress: Progress | None = None,
    columns: str | None = None,
) -> tuple[LexiconData, str]:
    """Read a resource with the right reader: ``(data, format used)``.

    Raises :class:`FbagentError` (or its subclass
    :class:`fbagent.lexicon.jsonl_reader.LexiconFormatError`) on any problem.
    """
    if fmt not in FORMATS:
        raise FbagentError(f"unknown format {fmt!r}", f"pass --format {' | '.join(FORMATS)}")
    used = detect_format(path) if fmt == "auto" else fmt
    _check_options(used, exemplars, columns)
    if used == "nltk":
        return read_nltk(path, strict=strict, progress=progress), used
    if used == "jsonl":
        return read_jsonl(path, exemplars), used
    options = ReadOptions(strict=strict, columns=columns, progress=progress)
    return reader_named(used).read(Path(path).expanduser(), options), used


def resource_fingerprint(path: str | Path, fmt: str = "auto", exemplars: str | Path | None = None) -> tuple[str, str]:
    """``(content hash, format)`` of a resource without parsing it (see the readers' ``fingerprint``)."""
    used = detect_format(path) if fmt == "auto" else fmt
    if used == "nltk":
        return fingerprint(path), used
    if used == "jsonl":
        return jsonl_fingerprint(*locate(path, exemplars)), used
    return reader_named(used).source_hash(Path(path).expanduser()), used


def reference_lexicon(db: sqlite_utils.Database, frames_from: str | None, used: str) -> tuple[LexiconRow | None, str | None]:
    """The Berkeley lexicon whose frame text a lexicon of format ``used`` borrows, and a note about the choice.

    ``frames_from`` given: that lexicon (unknown name: :class:`FbagentError`). Else, for a layout whose frames come
    without text (:attr:`fbagent.lexicon.readers.Reader.borrows`): the one Berkeley FrameNet in the database (an
    English NLTK-layout lexicon), said in the note; none or several: no reference, and the note says what to pass.
    NLTK and JSONL lexicons borrow only when asked.
    """
    if frames_from is not None:
        return lexstore.lexicon_by_name(db, frames_from), None
    if used not in BY_NAME or not BY_NAME[used].borrows:
        return None, None
    berkeley = [r for r in lexstore.list_lexicons(db) if r["format"] == "nltk" and r["lang"] == "en"]
    if len(berkeley) == 1:
        return berkeley[0], (f"frame definitions, frame elements and relations from lexicon {berkeley[0]['name']}, "
                             "the one Berkeley FrameNet in the database (--frames-from NAME picks another)")
    if not berkeley:
        return None, (f"this layout names Berkeley frames without their {BY_NAME[used].lacks}, and the database holds "
                      "no Berkeley FrameNet: import one (e.g. fbagent lexicon add framenet_v17 --lang en) and add this "
                      "lexicon again (or with --frames-from NAME)")
    names = ", ".join(r["name"] for r in berkeley)
    return None, f"several Berkeley FrameNets in the database ({names}): pass --frames-from NAME to take frame text from one"


def default_name(path: str | Path) -> str:
    """Lexicon name from a path (NFC): the folder name, or the file stem (``frames.jsonl`` -> its folder,
    ``fn.zip`` -> ``fn``, ``lus.csv`` -> ``lus``), as typed: a symlink gives its own name, not its target's."""
    p = Path(os.path.normpath(Path(path).expanduser().absolute()))
    if p.is_file():
        name = p.parent.name if p.name == "frames.jsonl" else p.name.removesuffix(".jsonl")
        for suffix in (".csv", ".tsv", ".tab", ".json", ".xml", ".conll2009", ".conll09"):
            name = name.removesuffix(suffix)
        if name.lower().endswith(".zip"):
            name = name[:-4]
        return unicodedata.normalize("NFC", name)
    return unicodedata.normalize("NFC", p.name)


@dataclass(frozen=True)
class ImportOptions:
    """The options of one import beyond path and language: ``columns`` (LU lists: ``--columns`` text),
    ``frames_from`` (the Berkeley lexicon whose frame text to borrow; ``None``: the one there is, for layouts
    without frame text)."""

    columns: str | None = None
    frames_from: str | None = None


def import_lexicon(
    db: sqlite_utils.Database,
    path: str | Path,
    *,
    lang: str,
    name: str | None = None,
    fmt: str = "auto",
    strict: bool = False,
    exemplars: str | Path | None = None,
    progress: Progress | None = None,
    format_label: str | None = None,
    options: ImportOptions | None = None,
    given: Overrides | None = None,
) -> ImportResult:
    """Read the resource at ``path`` and store it as lexicon ``name`` (default: folder/file name).

    Args:
        db: open database (:func:`fbagent.store.db.open_db`).
        path: NLTK-layout folder (or ``.zip``), ``.jsonl`` frames file, folder with ``frames.jsonl``, a published
            layout of :data:`fbagent.lexicon.readers.READERS` (Korean FrameNet, Turkish FrameNet XML, CoNLL-2009,
            an LU list), or the name of an NLTK corpus in NLTK's data folders
            (:func:`fbagent.lexicon.locate.locate_resource`).
        lang: language code (BCP 47 / ISO 639, e.g. ``en``, ``fr``, ``nld``, ``nl-BE``),
            stored in canonical form (``nld`` -> ``nl``; :func:`fbagent.languages.normalize_lang`).
        name: lexicon name (:data:`NAME_RULE`, stored in NFC); default from ``path``.
        fmt: ``auto`` or one of :data:`FORMATS`.
        strict: NLTK layout: dangling references are errors, not skipped warnings; CoNLL-2009: a truncated file too.
        exemplars: JSONL only: exemplars file (default: found next to the frames file).
        progress: optional callback ``(stage, done, total)``.
        format_label: value of ``lexicons.format`` (default: the format used).
        options: :class:`ImportOptions` (``--columns``, ``--frames-from``).
        given: ``lexicon add --license/--citation/--source-url`` (:func:`fbagent.lexicon.provenance.resolve`).

    Raises:
        FbagentError: bad name or language, a language other than the stored one
        for an existing name, unreadable or broken resource (the
        message names the file, and ``file:line`` where the layout has lines), a file that
        resolves outside the resource folder, an unknown ``--frames-from`` lexicon. Nothing is written in that case.
    """
    t0 = time.perf_counter()
    options = options or ImportOptions()
    located = locate_resource(path)  # a path, or an NLTK corpus name (corpora/NAME[.zip] under NLTK_DATA)
    path = located.path
    name = check_lexicon_name(name if name is not None else default_name(path))
    lang = normalize_lang(lang)
    if fmt not in FORMATS:
        raise FbagentError(f"unknown format {fmt!r}", f"pass --format {' | '.join(FORMATS)}")
    with explain_forced(path, fmt):
        digest, used = resource_fingerprint(path, fmt, exemplars)
    _check_options(used, exemplars, options.columns)
    reference, reference_note = reference_lexicon(db, options.frames_from, used)
    if reference is not None and reference["name"] == name:
        raise FbagentError(f"--frames-from {name} names the lexicon being imported", "pass another lexicon's name")
    if reference is not None:
        digest = combined_hash(digest, reference["source_hash"] or "")
    existing = lexstore.get_lexicon(db, name)
    if existing and existing["lang"] != lang:
        raise FbagentError(f"lexicon {name!r} is stored with language {existing['lang']!r}, not {lang!r}; nothing was "
                           "changed", f"pass --lang {existing['lang']} to re-import it, or --name NEW to add it as "
                           "another lexicon")
    if existing and existing["source_hash"] == digest and existing["lang"] == lang:
        with explain_forced(path, fmt):   # the stored lexicon came from these files: their damage is said again
            damage = damage_warnings(Path(path).expanduser(), used, ReadOptions(strict=strict))
        return _unchanged(db, existing, (format_label or used, lang, path), given or Overrides(), t0, damage)
    with explain_forced(path, fmt):
        data, used = read_resource(path, used, strict=strict, exemplars=exemplars, progress=progress,
                                   columns=options.columns)
    data.provenance = _provenance(data, format_label or used, lang, path, given or Overrides(), READERS.get(used, used))
    borrowed = None
    if reference is not None:
        borrowed = borrow_frame_text(data, frame_text(db, reference["id"]), reference["name"])
        data.source_hash = digest
    lexicon_id, status = lexstore.store_lexicon(
        db, data, name=name, lang=lang, fmt=format_label or used, source_path=str(Path(path).expanduser().resolve())
    )
    notes = [*_part_of(Path(path), fmt, used), *_notes(located.note, data, reference_note, borrowed)]
    missing = borrowed.missing_line() if borrowed is not None else None
    warnings = [*data.warnings, missing] if missing else data.warnings
    return ImportResult(lexicon_id, name, status, format_label or used, lexstore.lexicon_counts(data), warnings,
                        time.perf_counter() - t0, notes, lang, data.provenance)


def _part_of(path: Path, fmt: str, used: str) -> list[str]:
    """The note for a file of a lexicon read alone as an LU list (``KFN_lus.json``), else ``[]``."""
    above = root_above(path, _root_layout) if fmt == "auto" and used == "lu-list" else None
    return [part_of_note(path, above[0], above[1], FORMAT_LABELS)] if above is not None else []


def _notes(located: str | None, data: LexiconData, reference_note: str | None, borrowed: Borrowed | None) -> list[str]:
    """The import's notes: where the resource was found, the reader's notes, the frame text borrowed, and a
    lexicon without polysemous verbs."""
    notes = [n for n in (located, *data.notes, reference_note) if n]
    if borrowed is not None:
        notes.append(borrowed.line())
    if data.lexical_units and data.n_polysemous_verbs == 0:
        notes.append("no verb lexical unit (POS V) evokes two or more frames, so `fbagent generate` and "
                     "`fbagent pairs select` will find no frame pair here; LU names need a POS suffix such as "
                     "'run.v' (a lexicon of nouns or adjectives can still be browsed and exported)")
    return notes


def _provenance(data: LexiconData, fmt: str, lang: str, path: str | Path, given: Overrides, reader: str) -> Provenance:
    """The provenance to store with a resource just read (:func:`fbagent.lexicon.provenance.resolve`)."""
    return resolve(data.provenance, known_provenance(fmt, lang, path, len(data.frames)), given, reader)


def _unchanged(db: sqlite_utils.Database, existing: LexiconRow, read: tuple[str, str, str | Path],
               given: Overrides, t0: float, warnings: list[str]) -> ImportResult:
    """The result of re-adding an unchanged resource (``read``: its format, language and path; ``warnings``: its
    files' damage, :func:`fbagent.lexicon.readers.damage_warnings`). Its provenance is replaced when a licence is
    given now, or when a known release was stored before licences were recorded
    (:func:`fbagent.lexicon.provenance.resolve`); nothing else is written."""
    fmt, lang, path = read
    stored = lexstore.lexicon_provenance(existing)
    now = resolve(stored, known_provenance(fmt, lang, path, existing["n_frames"] or 0), given, stored.reader)
    if now != stored:
        lexstore.set_provenance(db, existing["id"], now)
    return ImportResult(existing["id"], existing["name"], "unchanged", existing["format"],
                        lexstore.stored_counts(existing), warnings, time.perf_counter() - t0, lang=lang,
                        provenance=now)


def import_embedded(db: sqlite_utils.Database) -> ImportResult:
    """Import (or confirm) the embedded English sample as lexicon ``sample-en``."""
    return import_lexicon(db, embedded_path(), lang=EMBEDDED_LANG, name=EMBEDDED_NAME, fmt="nltk", format_label="embedded")


def needs_embedded(db: sqlite_utils.Database, name: str | None) -> bool:
    """Whether :func:`resolve_lexicon` of ``name`` imports the embedded sample (a write): no name and no
    lexicon at all, or the sample's own name while the database does not hold it."""
    return not lexstore.has_lexicon(db) if name is None else name == EMBEDDED_NAME and not lexstore.has_lexicon(db, name)


def resolve_lexicon(
    db: sqlite_utils.Database,
    name: str | None = None,
    *,
    notify: Callable[[str], None] | None = None,
) -> LexiconRow:
    """The lexicon a command works on, as its ``lexicons`` row.

    - ``name`` given: that lexicon; unknown name -> :class:`FbagentError`
      listing the available names.
    - no name, one lexicon: that one.
    - no name, several: the most recently imported (``notify`` says which).
    - no lexicon at all: imports the embedded English sample ``sample-en``
      (34 frames, 16 polysemous verbs) and says so through ``notify``; so does ``name`` =
      ``sample-en`` when the database does not hold it yet.

    ``notify`` receives one-line notes (``None``, the default: nothing is said; the commands pass
    a callable that prints them, library callers one that collects them).
    """
    if needs_embedded(db, name):
        first = not lexstore.has_lexicon(db)
        result = import_embedded(db)
        size = f"'{EMBEDDED_NAME}' ({result.counts['n_frames']} frames, {result.counts['n_lexical_units']} LUs)"
        if notify and first:
            notify(f"note: the database has no lexicon; using the embedded English sample lexicon {size}. "
                   "Add a FrameNet with: fbagent lexicon add PATH --lang LANG")
        elif notify:
            notify(f"note: imported the embedded English sample lexicon {size} into the database")
        return lexstore.lexicon_by_name(db, EMBEDDED_NAME)
    if name is not None:
        return lexstore.lexicon_by_name(db, name)
    rows = lexstore.list_lexicons(db)
    if len(rows) > 1 and notify:
        notify(f"note: using lexicon '{rows[-1]['name']}', the most recent of {len(rows)}; choose one with --lexicon NAME")
    return rows[-1]
