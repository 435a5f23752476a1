"""A ``.zip`` of an NLTK-layout FrameNet release, read in place.

The archive may hold the resource at its top or in one folder (``fndata-1.5/``);
its ``frameIndex.xml`` marks the root; an archive with more than one (two releases
side by side) is refused rather than one of them taken silently. Only the files a read uses
are taken: ``*.xml`` at the root, ``frame/*.xml`` and ``lu/*.xml``. Links and
names with ``..`` are never extracted. :func:`extracted` copies them into a
private temporary folder (mode 0700) that is removed afterwards, and of ``lu/``
only the files of LUs that ``luIndex.xml`` names (the others are skipped with one
warning line).

Zip bombs: every member is read as a stream (1 MiB at a time, never whole into
memory) with a cap that follows what such a file holds (:data:`MEMBER_CAPS`: the
largest real ones are 1.4 MB for ``luIndex.xml``, 0.5 MB for a frame file and
0.9 MB for an LU file, FrameNet 1.5 and ASFALDA); a member whose size is over
its cap, declared or read, is refused in one line before anything is imported
(a 657 KB zip holding a 600 MB ``lu/*.xml`` was read whole: 1.28 GB of memory);
:func:`zip_fingerprint` hashes them exactly as
:func:`fbagent.lexicon.nltk_reader.fingerprint` hashes a folder, so a release
and its unzipped folder have the same content hash.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from fbagent.errors import FbagentError
from fbagent.lexicon.sniff import file_kind

MAX_UNZIPPED_BYTES = 4 * 2**30
#: the largest file fbagent unzips, by where it lies in the release (about 40-100 times the largest real one)
MEMBER_CAPS = {"": 128 * 2**20, "frame": 32 * 2**20, "lu": 64 * 2**20}
CHUNK = 2**20
UNZIP_FIX = "unzip it first and point PATH at the folder that holds frameIndex.xml"
DAMAGED_FIX = "fetch the archive again (`unzip -t FILE` tests a copy); nothing was imported"
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


def _open(path: Path) -> zipfile.ZipFile:
    """The archive open for reading. A file that starts as a zip but cannot be opened (its central directory at the
    end is missing: a cut download) is "damaged"; one that does not start as a zip is "not a zip archive"."""
    try:
        return zipfile.ZipFile(path)
    except OSError as err:
        raise FbagentError(f"{path}: cannot read it ({err.strerror or err})", "pass a readable file") from err
    except zipfile.BadZipFile as err:
        try:
            with open(path, "rb") as fh:
                head = fh.read(4)
        except OSError:
            head = b""
        if head in ZIP_MAGIC:
            raise FbagentError(f"{path}: a damaged zip archive (it starts as a zip, but its end, where a zip lists its "
                               "files, is missing or broken: a truncated download?)", DAMAGED_FIX) from err
        kind = file_kind(path)
        raise FbagentError(f"{path}: not a zip archive ({f'{kind} named .zip' if kind else 'its first bytes are not a zip'})",
                           "pass the FrameNet folder, or the .zip as it was downloaded") from err


def _root_in(zf: zipfile.ZipFile, path: Path) -> str:
    roots = [n[: -len("frameIndex.xml")] for n in zf.namelist()
             if PurePosixPath(n).name == "frameIndex.xml" and ".." not in PurePosixPath(n).parts]
    if not roots:
        found = other_layout_inside(zf.namelist())
        if found is not None:
            label, member, root = found
            raise FbagentError(f"{path}: a zip archive of {label} ({member} inside), a layout fbagent reads from a "
                               "folder; it holds no frameIndex.xml, so it is no NLTK-layout FrameNet release either",
                               f"unzip it first (unzip {path.name}) and pass the folder: fbagent lexicon add {root}")
        raise FbagentError(f"{path}: a zip archive without frameIndex.xml (not an NLTK-layout FrameNet release)",
                           UNZIP_FIX)
    if len(roots) > 1:
        shown = ", ".join(r or "(top level)" for r in sorted(roots)[:4]) + (", ..." if len(roots) > 4 else "")
        raise FbagentError(f"{path}: a zip archive holding {len(roots)} FrameNet releases ({shown}); fbagent will "
                           "not guess which one you mean",
                           "unzip it and pass the folder of the release you want (the one holding frameIndex.xml)")
    return roots[0]


#: files that mark another layout's root inside an archive: (file name or suffix, what it is, folders above the root)
_LAYOUT_MARKERS = (
    ("KFN_lus.json", "the Korean FrameNet (its repository layout)", 3),   # ROOT/resource/1.2/KFN_lus.json
    ("framenet.xml", "the Turkish FrameNet (Starlang XML)", 1),
    ("swefn.xml", "Swedish FrameNet++ (SweFN XML)", 1),
    ("frames.jsonl", "fbagent's JSONL lexicon", 1),
    (".conll2009", "CoNLL-2009 FrameNet files (the Latvian FrameNet layout)", 1),
)


def other_layout_inside(names: list[str]) -> tuple[str, str, str] | None:
    """What an archive without ``frameIndex.xml`` holds, from its member ``names``: ``(what it is, the member that
    says so, the folder to pass once unzipped)``, e.g. ``("the Korean FrameNet ...", "kfn/resource/1.2/KFN_lus.json",
    "kfn")``, for the layouts of :data:`_LAYOUT_MARKERS`; None when none is there (issue 40)."""
    for marker, label, up in _LAYOUT_MARKERS:
        for name in sorted(names, key=lambda n: (n.count("/"), n)):
            member = PurePosixPath(name)
            if ".." in member.parts or not (member.name == marker or (marker.startswith(".") and member.suffix == marker)):
                continue
            parts = member.parts[:-up] if len(member.parts) > up else ()
            if marker == "KFN_lus.json" and (len(member.parts) < 3 or member.parts[-3] != "resource"):
                continue
            return label, name, "/".join(parts) or "."
    return None


def zip_root(path: str | Path) -> str:
    """The folder prefix of the resource inside the archive (``""`` or ``"fndata-1.5/"``).

    Raises :class:`FbagentError`: "a damaged zip archive" (a cut download: fetch it again), "not a zip archive",
    or, for a sound archive without ``frameIndex.xml``, "unzip it first".
    """
    path = Path(path)
    with _open(path) as zf:
        return _root_in(zf, path)


def _members(zf: zipfile.ZipFile, prefix: str) -> list[tuple[str, zipfile.ZipInfo]]:
    out = []
    for info in zf.infolist():
        name = info.filename
        if info.is_dir() or not name.startswith(prefix) or not name.endswith(".xml"):
            continue
        rel = PurePosixPath(name[len(prefix):])
        if ".." in rel.parts or rel.is_absolute() or stat.S_ISLNK(info.external_attr >> 16):
            continue
        if len(rel.parts) == 1 or (len(rel.parts) == 2 and rel.parts[0] in ("frame", "lu")):
            out.append((rel.as_posix(), info))
    return sorted(out, key=lambda x: x[0])


def _cap(rel: str) -> int:
    return MEMBER_CAPS["" if "/" not in rel else rel.split("/", 1)[0]]


def _check_caps(members: list[tuple[str, zipfile.ZipInfo]], path: Path) -> None:
    """Refuse a member whose declared size is over its cap (:data:`MEMBER_CAPS`), or a total over
    :data:`MAX_UNZIPPED_BYTES`, before anything is read."""
    for rel, info in members:
        if info.file_size > _cap(rel):
            raise _too_big(path, rel, info.file_size)
    total = sum(info.file_size for _, info in members)
    if total > MAX_UNZIPPED_BYTES:
        raise FbagentError(f"{path}: its FrameNet files unzip to {total / 2**30:.1f} GiB, more than fbagent "
                           f"unzips in place ({MAX_UNZIPPED_BYTES / 2**30:.0f} GiB)", UNZIP_FIX)


def _too_big(path: Path, rel: str, size: int) -> FbagentError:
    return FbagentError(f"{path}!/{rel} unzips to {size / 2**20:,.0f} MiB, more than such a file holds (at most "
                        f"{_cap(rel) // 2**20} MiB): a zip bomb or a damaged archive; nothing was imported",
                        "check where the archive comes from; unzip it yourself and remove that file if it is unused")


def _chunks(zf: zipfile.ZipFile, rel: str, info: zipfile.ZipInfo, path: Path) -> Iterator[bytes]:
    """The member's bytes as a stream of chunks of at most :data:`CHUNK` bytes, at most its cap in all."""
    read = 0
    try:
        with zf.open(info) as fh:
            while chunk := fh.read(CHUNK):
                read += len(chunk)
                if read > _cap(rel):
                    raise _too_big(path, rel, read)
                yield chunk
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as err:
        raise FbagentError(f"{path}!/{info.filename}: a damaged zip archive: this file cannot be unzipped ({err})",
                           DAMAGED_FIX) from err


def zip_fingerprint(path: str | Path, parser_version: str) -> str:
    """SHA-256 of the archive's resource files, equal to the fingerprint of the unzipped folder."""
    path = Path(path)
    h = hashlib.sha256(parser_version.encode())
    with _open(path) as zf:
        members = _members(zf, _root_in(zf, path))
        _check_caps(members, path)
        for rel, info in members:
            h.update(rel.encode() + b"\0" + info.file_size.to_bytes(8, "big"))
            for chunk in _chunks(zf, rel, info, path):
                h.update(chunk)
    return h.hexdigest()


def _named_lu_files(index: Path) -> set[str] | None:
    """``lu<ID>.xml`` of every ``<lu ID=...>`` of the unzipped ``luIndex.xml`` (None when there is none)."""
    try:
        text = index.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return {f"lu{m}.xml" for m in re.findall(r"<(?:\w+:)?lu\b[^>]*?\bID=[\"'](\d+)[\"']", text)}


@contextmanager
def extracted(path: str | Path, warnings: list[str] | None = None) -> Iterator[Path]:
    """Yield a private temporary folder holding the archive's resource files; removed on exit.

    ``lu/`` files that no LU of ``luIndex.xml`` names are not unzipped; one line saying so is appended to
    ``warnings``. Raises :class:`FbagentError` when the archive is unreadable, holds no ``frameIndex.xml``,
    a member is over its cap (:data:`MEMBER_CAPS`), or it unzips to more than :data:`MAX_UNZIPPED_BYTES`.
    """
    path = Path(path)
    tmp = Path(tempfile.mkdtemp(prefix="fbagent-zip-"))
    os.chmod(tmp, 0o700)
    try:
        folder = tmp / "resource"
        with _open(path) as zf:
            members = _members(zf, _root_in(zf, path))
            _check_caps(members, path)
            lus = [(rel, info) for rel, info in members if rel.startswith("lu/")]
            for rel, info in [m for m in members if not m[0].startswith("lu/")]:
                _unzip(zf, rel, info, folder, path)
            named = _named_lu_files(folder / "luIndex.xml")
            unused = [rel for rel, _ in lus if named is not None and rel[3:] not in named]
            for rel, info in lus:
                if rel not in unused:
                    _unzip(zf, rel, info, folder, path)
            if unused:
                shown = ", ".join(unused[:3]) + (", ..." if len(unused) > 3 else "")
                (warnings if warnings is not None else []).append(f"{path}: {len(unused):,} lu/ file(s) that no LU of luIndex.xml names were not "
                               f"unzipped ({shown})")
        yield folder
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _unzip(zf: zipfile.ZipFile, rel: str, info: zipfile.ZipInfo, folder: Path, path: Path) -> None:
    target = folder / rel
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(target, "wb") as out:
        for chunk in _chunks(zf, rel, info, path):
            out.write(chunk)
