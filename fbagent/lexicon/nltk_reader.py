"""Read a FrameNet in the NLTK XML layout (any language) with NLTK's corpus reader.

Layout: ``frameIndex.xml``, ``luIndex.xml``, ``frame/<Name>.xml``, optional
``frRelation.xml``, ``semTypes.xml`` and ``lu/lu<ID>.xml`` (annotated exemplars).

Frames, frame elements, lexical units and frame relations are read with
:class:`nltk.corpus.reader.framenet.FramenetCorpusReader`. NLTK 3.10 has
three traps for a resource that is not an installed ``nltk_data`` corpus:

1. it refuses paths outside ``nltk.data.path`` ("Unauthorized path");
2. it refuses files writable by group/others or owned by another account
   ("chmod go-w"), surfacing as odd errors deep in the reader;
3. it needs ``frRelation.xml`` (and ``semTypes.xml`` once a frame names a
   semantic type) and IDs in ``frameIndex.xml``; the French ASFALDA FrameNet
   has neither file and an index without IDs.

All three are handled the same way: the small files NLTK needs (indexes,
relation and semantic-type files, ``frame/*.xml``) are read once by this
module (which also checks every file is well-formed XML and hashes it), then
written to a private temporary mirror (folder mode 0700, files 0600) whose
parent is added to ``nltk.data.path`` for the duration of the read. A missing
``frRelation.xml`` becomes an empty one; a missing ``semTypes.xml`` is built
from the semantic types the frame files name; a ``frameIndex.xml`` without IDs
is completed from the frame files; frame files get the small fixes NLTK needs
(:func:`_normalize_for_nltk`; FE core sets are not read). The source folder is
never modified.

Exemplars (``lu/*.xml``, 129 MB for FrameNet 1.5) are parsed directly with
:mod:`xml.etree.ElementTree`: NLTK's per-LU loading builds full annotation
objects and takes about 70 s for the 2,454 English LU files, against about
4 s for the direct parse (measured, see docs/lexicon.md).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from fbagent.errors import FbagentError
from fbagent.files import check_regular, xml_not_utf8
from fbagent.framenet.checks import frame_problem, relation_problem
from fbagent.framenet.markup import clean_text, parse_definition
from fbagent.framenet.model import (
    Example,
    Frame,
    FrameElement,
    FrameRelation,
    LexicalUnit,
    LexiconData,
    split_lu_name,
)
from fbagent.lexicon.archive import extracted, zip_fingerprint, zip_root

FN_NS = "http://framenet.icsi.berkeley.edu"
PARSER_VERSION = "nltk-reader/1"
_SAFE_NAME = re.compile(r"^[^/\\\x00]+$")
_LU_WITHOUT_STATUS = re.compile(rb"<((?:\w+:)?lexUnit)\b(?![^>]*\bstatus=)")
_FE_LINK = re.compile(rb"<(?:\w+:)?(?:requiresFE|excludesFE)\b[^>]*/>")
_ATTR = re.compile(rb'\b(name|ID)="([^"]*)"')


def _normalize_for_nltk(data: bytes, fe_ids: dict[str, int | None], notes: dict[str, int]) -> bytes:
    """Make a frame file acceptable to NLTK 3.10 (for the private mirror only).

    Adds ``status="Unspecified"`` to ``<lexUnit>`` elements without a status and
    drops ``<requiresFE>``/``<excludesFE>`` links whose FE name and ID do not
    match an FE of the frame (ASFALDA kept only core FEs); NLTK raises on both.
    """
    data, n = _LU_WITHOUT_STATUS.subn(rb'<\1 status="Unspecified"', data)
    notes["lexUnit without status"] = notes.get("lexUnit without status", 0) + n

    def drop(m: re.Match[bytes]) -> bytes:
        attrs = {k.decode(): v.decode("utf-8", "replace") for k, v in _ATTR.findall(m.group(0))}
        name = attrs.get("name", "")
        if name in fe_ids and (fe_ids[name] is None or _int(attrs.get("ID")) in (None, fe_ids[name])):
            return m.group(0)
        notes["link to a missing FE"] = notes.get("link to a missing FE", 0) + 1
        return b""

    return _FE_LINK.sub(drop, data)

Progress = Callable[[str, int, int], None]

FIX_LAYOUT = (
    "point PATH at the root folder of an NLTK-layout FrameNet (frameIndex.xml, luIndex.xml, "
    "frame/*.xml), or convert the resource to JSONL and use --format jsonl"
)
FIX_REGULAR = "replace it with the regular file it should be (cp the real file over it), then rerun; nothing was imported"
FIX_FILE = "repair or restore that file (or remove its entry from the index), then rerun; nothing was imported"


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _ns(root: ET.Element) -> str:
    return root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def inside(root: Path, path: Path) -> Path:
    """``path`` resolved, when it lies inside the (resolved) resource folder ``root``.

    Raises :class:`FbagentError` naming the path and where it leads (a symbolic
    link to a file or folder elsewhere is not read).
    """
    real = path.resolve()
    if real != root and root not in real.parents:
        raise FbagentError(
            f"{path} resolves to {real}, outside the resource folder {root}",
            "copy the file or folder into the resource folder instead of linking to it, then rerun; nothing was imported",
        )
    return real


def _is_zip(path: Path) -> bool:
    return path.is_file() and zipfile.is_zipfile(path)


def fingerprint(root: str | Path) -> str:
    """SHA-256 over every XML file of the resource that a read may use.

    Covers ``*.xml`` at the top level, ``frame/*.xml`` and ``lu/*.xml`` (sorted
    relative path + bytes) and :data:`PARSER_VERSION`. Reading 144 MB takes
    well under a second, so a re-import of an unchanged resource is detected
    before any parsing. A ``.zip`` release gives the hash of its unzipped
    folder (:func:`fbagent.lexicon.archive.zip_fingerprint`). Raises
    :class:`FbagentError` for an unreadable file or one that resolves outside
    the folder (:func:`inside`).
    """
    root = Path(root).expanduser().resolve()
    if _is_zip(root):
        return zip_fingerprint(root, PARSER_VERSION)
    h = hashlib.sha256(PARSER_VERSION.encode())
    files = [p for p in root.glob("*.xml")]
    for sub in ("frame", "lu"):
        if (root / sub).is_dir():
            inside(root, root / sub)
            files += list((root / sub).glob("*.xml"))
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        inside(root, path)
        check_regular(path, "", FIX_REGULAR)   # a FIFO would block the read forever
        try:
            data = path.read_bytes()
        except OSError as err:
            raise FbagentError(f"{path}: cannot read it ({err.strerror})", "make the file readable (chmod u+r) and rerun") from err
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


class _Source:
    """Reads and parses files of one resource, naming the file on any error."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def read(self, rel: str) -> bytes:
        path = self.root / rel
        inside(self.root, path)
        check_regular(path, "", FIX_REGULAR)
        try:
            return path.read_bytes()
        except OSError as err:
            raise FbagentError(f"{path}: cannot read it ({err.strerror})", "make the file readable (chmod u+r) and rerun") from err

    def parse(self, rel: str) -> tuple[bytes, ET.Element]:
        data = self.read(rel)
        try:
            return data, ET.fromstring(data)
        except ET.ParseError as err:
            if (encoding := xml_not_utf8(self.root / rel, data)) is not None:
                raise encoding from err
            raise FbagentError(f"{self.root / rel}: malformed XML ({err})", FIX_FILE) from err


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _frame_index_xml(entries: list[tuple[str, int]]) -> bytes:
    rows = "".join(f"<frame ID=\"{fid}\" name={quoteattr(name)}/>\n" for name, fid in entries)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<frameIndex xmlns="{FN_NS}">\n{rows}</frameIndex>\n'.encode()


def _semtypes_xml(refs: dict[int, str]) -> bytes:
    rows = "".join(
        f"<semType ID=\"{sid}\" name={quoteattr(name)} abbrev={quoteattr(name)}/>\n" for sid, name in sorted(refs.items())
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<semTypes xmlns="{FN_NS}">\n{rows}</semTypes>\n'.encode()


EMPTY_RELATIONS = f'<?xml version="1.0" encoding="UTF-8"?>\n<frameRelations xmlns="{FN_NS}"></frameRelations>\n'.encode()


def _targets(sentence: ET.Element, ns: str, text: str) -> tuple[int | None, int | None]:
    """The first Target label of the sentence as ``(start, end_exclusive)``."""
    for aset in sentence.iter(ns + "annotationSet"):
        for layer in aset.iter(ns + "layer"):
            if layer.get("name") != "Target":
                continue
            labels = [(_int(lab.get("start")), _int(lab.get("end"))) for lab in layer.iter(ns + "label")]
            spans = [(s, e) for s, e in labels if s is not None and e is not None]
            if spans:
                start, end = min(spans)
                end += 1  # FrameNet label ends are inclusive
                if 0 <= start < end <= len(text):
                    return start, end
    return None, None


def read_exemplars(root_el: ET.Element) -> tuple[list[Example], int]:
    """Exemplar sentences of one parsed ``lu/lu<ID>.xml``: text + first Target span, each once.

    Returns ``(exemplars, repeated)``: a sentence that the file holds twice with the same text and the
    same target span (seen in FrameNet releases, nltk issue #1370) is kept once and counted in
    ``repeated``; the same text with another target span is a different exemplar and is kept.
    """
    ns = _ns(root_el)
    out: list[Example] = []
    seen: set[tuple[str, int | None, int | None]] = set()
    repeated = 0
    for sentence in root_el.iter(ns + "sentence"):
        text_el = sentence.find(ns + "text")
        text = (text_el.text or "") if text_el is not None else ""
        if not text.strip():
            continue
        start, end = _targets(sentence, ns, text)
        if (text, start, end) in seen:
            repeated += 1
            continue
        seen.add((text, start, end))
        out.append(Example(text, start, end))
    return out, repeated


def _read_zip(path: Path, *, strict: bool, progress: Progress | None) -> LexiconData:
    """Read a ``.zip`` release through a private unzipped copy; messages name ``ARCHIVE!/file``."""
    zip_root(path)
    skipped: list[str] = []
    with extracted(path, skipped) as folder:
        shown = lambda text: text.replace(str(folder), f"{path}!")  # noqa: E731
        try:
            data = read_nltk(folder, strict=strict, progress=progress)
        except FbagentError as err:
            raise FbagentError(shown(err.problem), err.fix) from err
    data.warnings = skipped + [shown(w) for w in data.warnings]
    data.notes = [shown(n) for n in data.notes]
    return data


def read_nltk(root: str | Path, *, strict: bool = False, progress: Progress | None = None) -> LexiconData:
    """Read an NLTK-layout FrameNet folder into a :class:`LexiconData`.

    Args:
        root: the folder holding ``frameIndex.xml``, ``luIndex.xml`` and ``frame/``,
            or a ``.zip`` of such a release (read in place, see :mod:`fbagent.lexicon.archive`).
        strict: turn dangling references (an ``luIndex.xml`` LU whose frame has
            no frame file, an ``lu/*.xml`` file that disagrees with the index, an LU
            marked ``hasAnnotation="true"`` without its ``lu/lu<ID>.xml``)
            into errors instead of warnings (one warning line for all missing LU files).
        progress: optional callback ``(stage, done, total)``.

    Returns:
        frames (index order), LUs (``luIndex.xml`` order, POS = upper-cased
        name suffix, e.g. ``V`` for ``leave.v``),
        frame relations (empty without ``frRelation.xml``), exemplars attached
        to their LUs, the :func:`fingerprint` of the resource, and warnings.

    Raises:
        FbagentError: missing folder, index or frame file; malformed XML in
        any file read (the message names the file and position); an LU that
        ``luIndex.xml`` puts in one frame while another frame file lists it;
        NLTK failing on a frame file; a file or folder that resolves outside
        ``root`` (:func:`inside`); any dangling reference when ``strict``.
    """
    root = Path(root).expanduser().resolve()
    if _is_zip(root):
        return _read_zip(root, strict=strict, progress=progress)
    _check_layout(root)
    src = _Source(root)
    report = _Report(strict)
    if not (root / "frRelation.xml").is_file():
        report.notes.append(f"{root}: no frRelation.xml; read with an empty one (no frame relations)")
    files = _read_frame_files(src, progress)
    with _nltk_reader(files, report) as reader:
        frames = _read_frames(reader, root, files.frame_ids, progress)
        lexical_units, annotated = _read_lexical_units(reader, root, files, {f.name for f in frames}, report)
        relations = [FrameRelation(rel.type.name, rel.superFrameName, rel.subFrameName)
                     for rel in reader.frame_relations()]  # empty without frRelation.xml
    problem = relation_problem(relations)
    if problem:
        raise FbagentError(f"{root / 'frRelation.xml'}: {problem}", FIX_FILE)
    _attach_exemplars(src, lexical_units, annotated, report, progress)
    return LexiconData(frames, lexical_units, relations, fingerprint(root), report.warnings, report.notes)


@dataclass
class _Report:
    """Warnings and notes of one read; a dangling reference is a warning, or an error when ``strict``."""

    strict: bool
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def dangling(self, message: str) -> None:
        if self.strict:
            raise FbagentError(message, "repair the resource, or drop --strict to skip such entries with a warning")
        self.warnings.append(message)


@dataclass
class _FrameFiles:
    """Step 1's result: the small files NLTK needs, read once, hashed and checked well-formed.

    ``frame_ids``: (name, ID) in ``frameIndex.xml`` order (an ID missing from the index comes from
    the frame file); ``lu_home``: LU ID -> the frame whose file lists it; ``fe_ids``: per frame, FE
    name -> ID; ``semtype_refs``: semantic-type ID -> name, as the frame files name them.
    """

    root: Path
    frame_ids: list[tuple[str, int]] = field(default_factory=list)
    frame_bytes: dict[str, bytes] = field(default_factory=dict)
    fe_ids: dict[str, dict[str, int | None]] = field(default_factory=dict)
    lu_home: dict[int, str] = field(default_factory=dict)
    semtype_refs: dict[int, str] = field(default_factory=dict)
    luindex_bytes: bytes = b""
    luindex: ET.Element = field(default_factory=lambda: ET.Element("luIndex"))
    relations_bytes: bytes | None = None
    semtypes_bytes: bytes | None = None


def _check_layout(root: Path) -> None:
    """Raise :class:`FbagentError` unless ``root`` holds both indexes and ``frame/`` (inside ``root``)."""
    if not root.is_dir():
        raise FbagentError(f"{root} is not a folder", FIX_LAYOUT)
    for name in ("frameIndex.xml", "luIndex.xml"):
        check_regular(root / name, "", FIX_REGULAR)
        if not (root / name).is_file():
            raise FbagentError(f"{root}: missing index {name}", FIX_LAYOUT)
    if not (root / "frame").is_dir():
        raise FbagentError(f"{root}: missing folder frame/", FIX_LAYOUT)
    for sub in ("frame", "lu"):
        if (root / sub).exists():
            inside(root, root / sub)


def _frame_index(src: _Source) -> list[tuple[str, int | None]]:
    """``frameIndex.xml``: (frame name, ID or None), each name once; raises on an unusable name or none."""
    root = src.root
    _, findex = src.parse("frameIndex.xml")
    entries: list[tuple[str, int | None]] = []
    ids: dict[int, str] = {}
    names: set[str] = set()
    where = root / "frameIndex.xml"
    for el in findex:
        if _local(el.tag) != "frame":
            continue
        raw = el.get("name") or ""
        name, fid = raw.strip(), _int(el.get("ID"))
        problem = frame_problem(raw, fid, {})   # blank, control or bidi characters, an id past SQLite's range
        if problem or not _SAFE_NAME.match(name) or name in (".", ".."):
            raise FbagentError(f"{where}: {problem or f'unusable frame name {name!r}'}", FIX_FILE)
        if name in names:   # two entries of one name were merged silently
            raise FbagentError(f"{where}: frame {name} is listed twice", FIX_FILE)
        if fid is not None and fid in ids:
            raise FbagentError(f"{where}: frames {ids[fid]} and {name} have the same ID {fid}", FIX_FILE)
        if fid is not None:
            ids[fid] = name
        names.add(name)
        entries.append((name, fid))
    if not entries:
        raise FbagentError(f"{root / 'frameIndex.xml'}: lists no frames", FIX_LAYOUT)
    return entries


def _read_frame_files(src: _Source, progress: Progress | None) -> _FrameFiles:
    """Step 1: the indexes, relation and semantic-type files and every frame file, read and checked."""
    root = src.root
    entries = _frame_index(src)
    files = _FrameFiles(root)
    files.luindex_bytes, files.luindex = src.parse("luIndex.xml")
    files.relations_bytes = src.parse("frRelation.xml")[0] if (root / "frRelation.xml").is_file() else None
    files.semtypes_bytes = src.parse("semTypes.xml")[0] if (root / "semTypes.xml").is_file() else None
    for i, (name, fid) in enumerate(entries):
        _read_frame_file(src, name, fid, files)
        if progress:
            progress("check frame files", i + 1, len(entries))
    return files


def _read_frame_file(src: _Source, name: str, fid: int | None, files: _FrameFiles) -> None:
    """Read and check ``frame/<name>.xml`` into ``files`` (bytes, ID, FE IDs, LUs and semantic types it lists)."""
    root = src.root
    rel = f"frame/{name}.xml"
    if not (root / rel).is_file():
        raise FbagentError(f"{root / rel}: missing frame file (frame {name} is listed in frameIndex.xml)", FIX_FILE)
    data, el = src.parse(rel)
    if _local(el.tag) != "frame":
        raise FbagentError(f"{root / rel}: root element is <{_local(el.tag)}>, not <frame>", FIX_FILE)
    if (el.get("name") or name) != name:
        raise FbagentError(f"{root / rel}: declares frame name {el.get('name')!r}, the file name says {name!r}", FIX_FILE)
    fid = fid if fid is not None else _int(el.get("ID"))
    if fid is None:
        raise FbagentError(f"{root / rel}: frame {name} has no numeric ID (neither in frameIndex.xml nor in the file)", FIX_FILE)
    files.frame_ids.append((name, fid))
    files.frame_bytes[name] = data
    files.fe_ids[name] = {fe.get("name") or "": _int(fe.get("ID")) for fe in el if _local(fe.tag) == "FE"}
    for sub in el.iter():
        tag = _local(sub.tag)
        if tag == "lexUnit" and _int(sub.get("ID")) is not None:
            files.lu_home.setdefault(_int(sub.get("ID")), name)  # type: ignore[arg-type]
        elif tag == "semType" and _int(sub.get("ID")) is not None:
            files.semtype_refs.setdefault(_int(sub.get("ID")), sub.get("name") or f"semtype_{sub.get('ID')}")  # type: ignore[arg-type]


def _write_mirror(mirror: Path, files: _FrameFiles, report: _Report) -> None:
    """Step 2: the private copy NLTK reads (indexes completed, missing files made, frame files adapted)."""
    (mirror / "frame").mkdir(parents=True, mode=0o700)
    _write_private(mirror / "frameIndex.xml", _frame_index_xml(files.frame_ids))
    _write_private(mirror / "luIndex.xml", files.luindex_bytes)
    _write_private(mirror / "frRelation.xml", files.relations_bytes or EMPTY_RELATIONS)
    _write_private(mirror / "semTypes.xml", files.semtypes_bytes or _semtypes_xml(files.semtype_refs))
    fixes: dict[str, int] = {}
    for name, data in files.frame_bytes.items():
        data = _normalize_for_nltk(data, files.fe_ids[name], fixes)
        _write_private(mirror / "frame" / f"{name}.xml", data)
    if any(fixes.values()):
        summary = ", ".join(f"{n:,} {what}" for what, n in fixes.items() if n)
        report.notes.append(f"{files.root / 'frame'}: adapted for NLTK in a private copy ({summary}); source unchanged")


@contextmanager
def _nltk_reader(files: _FrameFiles, report: _Report) -> Iterator[Any]:
    """NLTK's ``FramenetCorpusReader`` on a private mirror (mode 0700) that is on ``nltk.data.path``
    while the block runs; the mirror is removed and the path restored afterwards."""
    import nltk
    from nltk.corpus.reader.framenet import FramenetCorpusReader

    tmp = Path(tempfile.mkdtemp(prefix="fbagent-framenet-"))
    os.chmod(tmp, 0o700)
    mirror = tmp / "framenet"
    try:
        _write_mirror(mirror, files, report)
        nltk.data.path.insert(0, str(tmp))
        try:
            yield FramenetCorpusReader(str(mirror), [])
        finally:
            try:
                nltk.data.path.remove(str(tmp))
            except ValueError:
                pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _read_frames(reader: Any, root: Path, frame_ids: list[tuple[str, int]], progress: Progress | None) -> list[Frame]:
    """Step 2: every frame through NLTK, in index order (definition, its examples, FEs)."""
    frames: list[Frame] = []
    for i, (name, fid) in enumerate(frame_ids):
        try:
            f = reader.frame_by_name(name, ignorekeys=["FEcoreSet"])
        except Exception as err:  # NLTK raises many kinds; name the file
            raise FbagentError(
                f"{root / 'frame' / (name + '.xml')}: NLTK could not read frame {name} ({type(err).__name__}: {err})",
                FIX_FILE,
            ) from err
        markup = f.get("definitionMarkup") or ""
        definition, examples = parse_definition(markup)
        fes = [
            FrameElement(fe.name, str(fe.get("coreType") or ""), clean_text(fe.get("definitionMarkup") or ""))
            for fe in f.FE.values()
        ]
        frames.append(Frame(name, fid, definition, markup, examples, fes))
        if progress:
            progress("read frames (NLTK)", i + 1, len(frame_ids))
    return frames


def _read_lexical_units(
    reader: Any, root: Path, files: _FrameFiles, frame_names: set[str], report: _Report
) -> tuple[list[LexicalUnit], set[int]]:
    """Step 3: lexical units in ``luIndex.xml`` order, resolved through NLTK.

    Returns the LUs and the IDs of those that the index marks ``hasAnnotation="true"``.
    """
    lexical_units: list[LexicalUnit] = []
    seen_ids: set[int] = set()
    annotated: set[int] = set()
    for el in files.luindex:
        if _local(el.tag) != "lu":
            continue
        lu_id, lu_name, frame_name = _int(el.get("ID")), el.get("name") or "", el.get("frameName") or ""
        if lu_id is None or lu_id in seen_ids:
            continue
        seen_ids.add(lu_id)
        if (el.get("hasAnnotation") or "").lower() == "true":
            annotated.add(lu_id)
        home = files.lu_home.get(lu_id)
        if home is not None and frame_name and home != frame_name:
            raise FbagentError(
                f"{root / 'luIndex.xml'}: LU {lu_name} (ID {lu_id}) points to frame {frame_name}, "
                f"but frame/{home}.xml lists it",
                FIX_FILE,
            )
        if frame_name and frame_name not in frame_names:
            report.dangling(f"{root / 'luIndex.xml'}: LU {lu_name} (ID {lu_id}) points to unknown frame {frame_name} (no frame/{frame_name}.xml); skipped")
            continue
        if home is None:
            report.dangling(f"{root / 'luIndex.xml'}: LU {lu_name} (ID {lu_id}) is not listed in frame/{frame_name}.xml; skipped")
            continue
        lu = _nltk_lexical_unit(reader, root, lu_id, lu_name, home, report)
        if lu is not None:
            lexical_units.append(lu)
    return lexical_units, annotated


def _nltk_lexical_unit(
    reader: Any, root: Path, lu_id: int, lu_name: str, home: str, report: _Report
) -> LexicalUnit | None:
    """One LU as NLTK reads it from ``frame/<home>.xml``; None (and a dangling note) when NLTK skips it."""
    try:
        lu = reader.lu(lu_id)
    except Exception as err:
        raise FbagentError(
            f"{root / 'frame' / (home + '.xml')}: NLTK could not read LU {lu_name} (ID {lu_id}) ({type(err).__name__}: {err})",
            FIX_FILE,
        ) from err
    if "frame" not in lu:  # e.g. status "Problem": NLTK leaves it out of its frame
        report.dangling(f"{root / 'frame' / (home + '.xml')}: NLTK skips LU {lu_name} (ID {lu_id}, status {lu.get('status')}); skipped")
        return None
    name = str(lu.get("name") or lu_name)
    lemma, suffix = split_lu_name(name)
    # The name suffix wins over the POS attribute: FrameNet 1.5 has
    # "come together.v" with POS="A"; users see and type the name.
    pos = suffix or str(lu.get("POS") or "").strip().upper()
    if not pos:   # no .v/.n suffix and no POS attribute: a verb gate cannot tell what it is
        report.dangling(f"{root / 'frame' / (home + '.xml')}: LU {lu_name} (ID {lu_id}) has no part of speech (no "
                        "POS attribute, no .v/.n suffix); skipped")
        return None
    counts = lu.get("sentenceCount") or {}
    return LexicalUnit(
        name=name,
        lemma=lemma,
        pos=pos,
        frame=lu.frame.name,
        lu_id=lu_id,
        definition=clean_text(lu.get("definitionMarkup") or lu.get("definition") or ""),
        n_annotated=int(counts.get("annotated") or 0),
    )


def _attach_exemplars(
    src: _Source, lexical_units: list[LexicalUnit], annotated: set[int], report: _Report, progress: Progress | None
) -> None:
    """Step 5: exemplars from ``lu/lu<ID>.xml`` (direct ElementTree parse; see the module docstring)."""
    root = src.root
    lu_dir = root / "lu"
    present = {p.name for p in lu_dir.iterdir() if p.suffix == ".xml"} if lu_dir.is_dir() else set()
    missing = [lu for lu in lexical_units if lu.lu_id in annotated and f"lu{lu.lu_id}.xml" not in present]
    if missing:
        shown = ", ".join(f"lu{lu.lu_id}.xml ({lu.name})" for lu in missing[:3]) + (", ..." if len(missing) > 3 else "")
        where = f"{lu_dir}: {len(missing):,} LU file(s) missing" if lu_dir.is_dir() else f"{root}: no lu/ folder"
        report.dangling(f"{where} for LUs that luIndex.xml marks hasAnnotation=\"true\" ({shown}); "
                        "they are imported without exemplars")
    if not lu_dir.is_dir():
        return
    used: set[str] = set()
    repeats: dict[str, int] = {}
    for i, lu in enumerate(lexical_units):
        fname = f"lu{lu.lu_id}.xml"
        if fname in present:
            used.add(fname)
            if not _read_lu_file(src, lu, fname, repeats, report):
                continue
        if not lu.n_annotated:
            lu.n_annotated = len(lu.exemplars)
        if progress:
            progress("read exemplars", i + 1, len(lexical_units))
    if repeats:
        shown = ", ".join(f"{f} ({n})" for f, n in list(repeats.items())[:3]) + (", ..." if len(repeats) > 3 else "")
        report.notes.append(f"{lu_dir}: {sum(repeats.values()):,} exemplar sentence(s) repeated in their LU file "
                            f"(same text, same target) were imported once ({shown})")
    unused = sorted(present - used)
    if unused:
        shown = ", ".join(unused[:5]) + (", ..." if len(unused) > 5 else "")
        report.warnings.append(f"{lu_dir}: {len(unused):,} file(s) name no imported LU ({shown}); not read")


def _read_lu_file(src: _Source, lu: LexicalUnit, fname: str, repeats: dict[str, int], report: _Report) -> bool:
    """Attach the exemplars of ``lu/<fname>`` to ``lu``; False (and a dangling note) when the file
    describes another LU or frame than the index. Repeated sentences are counted in ``repeats``."""
    lu_dir = src.root / "lu"
    _, el = src.parse(f"lu/{fname}")
    file_id, file_frame = _int(el.get("ID")), el.get("frame")
    if file_id != lu.lu_id or (file_frame and file_frame != lu.frame):
        report.dangling(
            f"{lu_dir / fname}: describes LU {el.get('name')} (ID {file_id}) in frame {file_frame}, "
            f"but the index has {lu.name} (ID {lu.lu_id}) in {lu.frame}; its exemplars are skipped"
        )
        return False
    lu.exemplars, repeated = read_exemplars(el)
    if repeated:
        repeats[fname] = repeated
    return True
