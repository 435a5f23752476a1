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
  English sample (imported on first use, and announced on stderr).
"""

from __future__ import annotations

import os
import sys
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.languages import normalize_lang
from fbagent.lexicon.model import LexiconData
from fbagent.store import lexicon as lexstore
from fbagent.store.clock import utc_now
from fbagent.store.db import transaction
from fbagent.text import check_name

EMBEDDED_NAME = "sample-en"
EMBEDDED_LANG = "en"
FORMATS = ("auto", "nltk", "jsonl")
NAME_PUNCTUATION = "_.+@-"
NAME_RULE = ("letters and digits of any script (é, ñ, ß, ü, 中 ...), combining marks and _ . + @ -, "
             "starting with a letter or digit")
ARCHIVES = (".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".7z", ".rar", ".gz", ".bz2", ".xz")

Format = Literal["auto", "nltk", "jsonl"]
Progress = Callable[[str, int, int], None]


@dataclass
class ImportResult:
    """Outcome of :func:`import_lexicon`.

    ``status``: ``"imported"`` (new name), ``"replaced"`` (same name, new
    content) or ``"unchanged"`` (same name, same content hash: nothing
    written). ``counts`` are the ``n_*`` columns written to ``lexicons``;
    ``seconds`` covers reading and writing; ``lang`` is the stored (canonical)
    language tag (``nld`` given -> ``nl``).
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
    """``"nltk"`` for a folder with ``frameIndex.xml`` or a ``.zip`` of one; ``"jsonl"`` for a
    ``.jsonl`` file or a folder with ``frames.jsonl``. Raises :class:`FbagentError` otherwise
    (other archives: one line saying to extract them first)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise FbagentError(f"{p} does not exist", "pass the folder of an NLTK-layout FrameNet or a JSONL lexicon file")
    if p.is_file() and p.suffix.lower() == ".zip":
        from fbagent.lexicon.nltk_reader import zip_root

        zip_root(p)  # raises with "unzip it first" when the archive holds no frameIndex.xml
        return "nltk"
    if p.is_file() and p.name.lower().endswith(ARCHIVES):
        raise FbagentError(f"{p}: an archive fbagent does not read in place",
                           "extract it first (e.g. tar xf FILE) and point PATH at the folder holding frameIndex.xml")
    if p.is_dir():
        if (p / "frameIndex.xml").exists():
            return "nltk"
        if (p / "frames.jsonl").exists():
            return "jsonl"
        raise FbagentError(
            f"{p}: neither an NLTK-layout FrameNet (no frameIndex.xml) nor a JSONL lexicon (no frames.jsonl)",
            "point PATH at the FrameNet root folder, or pass --format nltk|jsonl",
        )
    if p.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl"
    raise FbagentError(f"{p}: cannot tell its format",
                       "pass an NLTK-layout folder (or a .zip of one) with --format nltk, or a .jsonl file with --format jsonl")


def read_resource(
    path: str | Path,
    fmt: str = "auto",
    *,
    strict: bool = False,
    exemplars: str | Path | None = None,
    progress: Progress | None = None,
) -> tuple[LexiconData, str]:
    """Read a resource with the right reader: ``(data, format used)``.

    Raises :class:`FbagentError` (or its subclass
    :class:`fbagent.lexicon.jsonl_reader.LexiconFormatError`) on any problem.
    """
    if fmt not in FORMATS:
        raise FbagentError(f"unknown format {fmt!r}", "pass --format auto, nltk or jsonl")
    used = detect_format(path) if fmt == "auto" else fmt
    if used == "nltk":
        from fbagent.lexicon.nltk_reader import read_nltk

        if exemplars is not None:
            raise FbagentError("--exemplars applies to --format jsonl only", "drop --exemplars (NLTK layouts keep exemplars in lu/*.xml)")
        return read_nltk(path, strict=strict, progress=progress), used
    from fbagent.lexicon.jsonl_reader import read_jsonl

    return read_jsonl(path, exemplars), used


def resource_fingerprint(path: str | Path, fmt: str = "auto", exemplars: str | Path | None = None) -> tuple[str, str]:
    """``(content hash, format)`` of a resource without parsing it (see the readers' ``fingerprint``)."""
    used = detect_format(path) if fmt == "auto" else fmt
    if used == "nltk":
        from fbagent.lexicon.nltk_reader import fingerprint

        return fingerprint(path), used
    from fbagent.lexicon.jsonl_reader import fingerprint as jsonl_fingerprint
    from fbagent.lexicon.jsonl_reader import locate

    return jsonl_fingerprint(*locate(path, exemplars)), used


def default_name(path: str | Path) -> str:
    """Lexicon name from a path (NFC): the folder name, or the file stem (``frames.jsonl`` -> its folder,
    ``fn.zip`` -> ``fn``), as typed: a symlink gives its own name, not its target's."""
    p = Path(os.path.normpath(Path(path).expanduser().absolute()))
    if p.is_file():
        name = p.parent.name if p.name == "frames.jsonl" else p.name.removesuffix(".jsonl")
        if name.lower().endswith(".zip"):
            name = name[:-4]
        return unicodedata.normalize("NFC", name)
    return unicodedata.normalize("NFC", p.name)


def _write(db: sqlite_utils.Database, lexicon_id: int, data: LexiconData) -> None:
    """Insert all rows of ``data`` under ``lexicon_id`` (inside the caller's transaction)."""
    conn = db.conn
    frame_pk: dict[str, int] = {}
    for f in data.frames:
        cur = conn.execute(
            "INSERT INTO frames (lexicon_id, frame_id, name, definition, definition_markup) VALUES (?, ?, ?, ?, ?)",
            (lexicon_id, f.frame_id, f.name, f.definition, f.definition_markup),
        )
        pk = cur.lastrowid
        frame_pk[f.name] = pk
        conn.executemany(
            "INSERT INTO frame_examples (frame_pk, text, target_start, target_end) VALUES (?, ?, ?, ?)",
            [(pk, e.text, e.target_start, e.target_end) for e in f.examples],
        )
        conn.executemany(
            "INSERT INTO frame_elements (frame_pk, name, core_type, definition) VALUES (?, ?, ?, ?)",
            [(pk, fe.name, fe.core_type, fe.definition) for fe in f.frame_elements],
        )
    for lu in data.lexical_units:
        cur = conn.execute(
            """INSERT INTO lexical_units (lexicon_id, frame_pk, lu_id, name, lemma, pos, definition, n_annotated)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (lexicon_id, frame_pk[lu.frame], lu.lu_id, lu.name, lu.lemma, lu.pos, lu.definition, lu.n_annotated),
        )
        lu_pk = cur.lastrowid
        conn.executemany(
            "INSERT INTO exemplars (lu_pk, text, target_start, target_end) VALUES (?, ?, ?, ?)",
            [(lu_pk, e.text, e.target_start, e.target_end) for e in lu.exemplars],
        )
    conn.executemany(
        "INSERT INTO frame_relations (lexicon_id, type, super_frame, sub_frame) VALUES (?, ?, ?, ?)",
        [(lexicon_id, r.type, r.super_frame, r.sub_frame) for r in data.relations],
    )


def _delete_content(db: sqlite_utils.Database, lexicon_id: int) -> None:
    """Delete a lexicon's frames, FEs, LUs, exemplars and relations (children first)."""
    conn = db.conn
    conn.execute(
        "DELETE FROM exemplars WHERE lu_pk IN (SELECT id FROM lexical_units WHERE lexicon_id = ?)", (lexicon_id,)
    )
    conn.execute("DELETE FROM lexical_units WHERE lexicon_id = ?", (lexicon_id,))
    for child in ("frame_examples", "frame_elements"):
        conn.execute(f"DELETE FROM {child} WHERE frame_pk IN (SELECT id FROM frames WHERE lexicon_id = ?)", (lexicon_id,))
    conn.execute("DELETE FROM frames WHERE lexicon_id = ?", (lexicon_id,))
    conn.execute("DELETE FROM frame_relations WHERE lexicon_id = ?", (lexicon_id,))


_COUNT_KEYS = ("n_frames", "n_frame_elements", "n_lexical_units", "n_exemplars", "n_frame_relations")


def _counts(data: LexiconData) -> dict[str, int]:
    return {
        "n_frames": len(data.frames),
        "n_frame_elements": sum(len(f.frame_elements) for f in data.frames),
        "n_lexical_units": len(data.lexical_units),
        "n_exemplars": data.n_exemplars,
        "n_frame_relations": len(data.relations),
    }


def store_lexicon(
    db: sqlite_utils.Database,
    data: LexiconData,
    *,
    name: str,
    lang: str,
    fmt: str,
    source_path: str,
) -> tuple[int, str]:
    """Write ``data`` as lexicon ``name`` in one transaction: ``(lexicon_id, status)``.

    ``status`` is ``"imported"``, ``"replaced"`` or ``"unchanged"`` (same name,
    language and content hash: nothing is written). On any error the
    transaction rolls back and the previous content stays intact.
    """
    now = utc_now()
    counts = _counts(data)
    with transaction(db):
        existing = lexstore.get_lexicon(db, name)
        if existing and existing["source_hash"] == data.source_hash and existing["lang"] == lang:
            return existing["id"], "unchanged"
        row = {"lang": lang, "format": fmt, "source_path": source_path, "source_hash": data.source_hash,
               "imported_at": now, **counts}
        if existing:
            lexicon_id = existing["id"]
            _delete_content(db, lexicon_id)
            sets = ", ".join(f"{k} = ?" for k in row)
            db.conn.execute(f"UPDATE lexicons SET {sets} WHERE id = ?", [*row.values(), lexicon_id])
            status = "replaced"
        else:
            cols = ["name", *row]
            cur = db.conn.execute(
                f"INSERT INTO lexicons ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
                [name, *row.values()],
            )
            lexicon_id = cur.lastrowid
            status = "imported"
        _write(db, lexicon_id, data)
    return lexicon_id, status


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
) -> ImportResult:
    """Read the resource at ``path`` and store it as lexicon ``name`` (default: folder/file name).

    Args:
        db: open database (:func:`fbagent.store.db.open_db`).
        path: NLTK-layout folder (or ``.zip``), ``.jsonl`` frames file, folder with ``frames.jsonl``, or
            the name of an NLTK corpus in NLTK's data folders (:func:`fbagent.lexicon.locate.locate_resource`).
        lang: language code (BCP 47 / ISO 639, e.g. ``en``, ``fr``, ``nld``, ``nl-BE``),
            stored in canonical form (``nld`` -> ``nl``; :func:`fbagent.languages.normalize_lang`).
        name: lexicon name (:data:`NAME_RULE`, stored in NFC); default from ``path``.
        fmt: ``auto``, ``nltk`` or ``jsonl``.
        strict: NLTK layout: dangling references are errors, not skipped warnings.
        exemplars: JSONL only: exemplars file (default: found next to the frames file).
        progress: optional callback ``(stage, done, total)``.
        format_label: value of ``lexicons.format`` (default: the format used).

    Raises:
        FbagentError: bad name or language, a language other than the stored one
        for an existing name, unreadable or broken resource (the
        message names the file, and ``file:line`` for JSONL), a file that
        resolves outside the resource folder. Nothing is written in that case.
    """
    t0 = time.perf_counter()
    from fbagent.lexicon.locate import locate_resource

    located = locate_resource(path)  # a path, or an NLTK corpus name (corpora/NAME[.zip] under NLTK_DATA)
    path = located.path
    name = check_lexicon_name(name if name is not None else default_name(path))
    lang = normalize_lang(lang)
    if fmt not in FORMATS:
        raise FbagentError(f"unknown format {fmt!r}", "pass --format auto, nltk or jsonl")
    digest, used = resource_fingerprint(path, fmt, exemplars)
    existing = lexstore.get_lexicon(db, name)
    if existing and existing["lang"] != lang:
        raise FbagentError(
            f"lexicon {name!r} is stored with language {existing['lang']!r}, not {lang!r}; "
            "nothing was changed",
            f"pass --lang {existing['lang']} to re-import it, or --name NEW to add it as another lexicon",
        )
    if existing and existing["source_hash"] == digest and existing["lang"] == lang:
        return ImportResult(existing["id"], name, "unchanged", existing["format"],
                            {k: existing[k] for k in _COUNT_KEYS}, [], time.perf_counter() - t0, lang=lang)
    data, used = read_resource(path, used, strict=strict, exemplars=exemplars, progress=progress)
    lexicon_id, status = store_lexicon(
        db, data, name=name, lang=lang, fmt=format_label or used, source_path=str(Path(path).expanduser().resolve())
    )
    notes = [located.note, *data.notes] if located.note else data.notes
    return ImportResult(lexicon_id, name, status, format_label or used, _counts(data), data.warnings,
                        time.perf_counter() - t0, notes, lang)


def import_embedded(db: sqlite_utils.Database) -> ImportResult:
    """Import (or confirm) the embedded English sample as lexicon ``sample-en``."""
    return import_lexicon(db, embedded_path(), lang=EMBEDDED_LANG, name=EMBEDDED_NAME, fmt="nltk", format_label="embedded")


def _stderr(message: str) -> None:
    try:
        from rich.console import Console

        Console(stderr=True).print(message, highlight=False, markup=False)
    except Exception:  # pragma: no cover - rich is a dependency; never fail on a note
        print(message, file=sys.stderr)


def resolve_lexicon(
    db: sqlite_utils.Database,
    name: str | None = None,
    *,
    notify: Callable[[str], None] | None = _stderr,
) -> dict[str, Any]:
    """The lexicon a command works on, as its ``lexicons`` row (dict).

    - ``name`` given: that lexicon; unknown name -> :class:`FbagentError`
      listing the available names.
    - no name, one lexicon: that one.
    - no name, several: the most recently imported (``notify`` says which).
    - no lexicon at all: imports the embedded English sample ``sample-en``
      (34 frames, 16 polysemous verbs) and says so through ``notify``.

    ``notify`` receives one-line notes (default: printed to stderr with rich;
    pass ``None`` to stay silent, or a callable to capture them).
    """
    if name is not None:
        return lexstore.lexicon_by_name(db, name)
    rows = lexstore.list_lexicons(db)
    if not rows:
        result = import_embedded(db)
        if notify:
            notify(
                f"note: the database has no lexicon; using the embedded English sample lexicon "
                f"'{EMBEDDED_NAME}' ({result.counts['n_frames']} frames, {result.counts['n_lexical_units']} LUs). "
                "Add a FrameNet with: fbagent lexicon add PATH --lang LANG"
            )
        return lexstore.lexicon_by_name(db, EMBEDDED_NAME)
    if len(rows) > 1 and notify:
        notify(f"note: using lexicon '{rows[-1]['name']}', the most recent of {len(rows)}; choose one with --lexicon NAME")
    return rows[-1]
