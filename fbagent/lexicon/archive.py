"""A ``.zip`` of an NLTK-layout FrameNet release, read in place.

The archive may hold the resource at its top or in one folder (``fndata-1.5/``);
its ``frameIndex.xml`` marks the root; an archive with more than one (two releases
side by side) is refused rather than one of them taken silently. Only the files a read uses
are taken: ``*.xml`` at the root, ``frame/*.xml`` and ``lu/*.xml``. Links and
names with ``..`` are never extracted. :func:`extracted` copies them into a
private temporary folder (mode 0700) that is removed afterwards;
:func:`zip_fingerprint` hashes them exactly as
:func:`fbagent.lexicon.nltk_reader.fingerprint` hashes a folder, so a release
and its unzipped folder have the same content hash.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from fbagent.errors import FbagentError

MAX_UNZIPPED_BYTES = 4 * 2**30
UNZIP_FIX = "unzip it first and point PATH at the folder that holds frameIndex.xml"


def _open(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as err:
        raise FbagentError(f"{path}: not a readable zip archive ({err})", UNZIP_FIX) from err


def _root_in(zf: zipfile.ZipFile, path: Path) -> str:
    roots = [n[: -len("frameIndex.xml")] for n in zf.namelist()
             if PurePosixPath(n).name == "frameIndex.xml" and ".." not in PurePosixPath(n).parts]
    if not roots:
        raise FbagentError(f"{path}: a zip archive without frameIndex.xml (not an NLTK-layout FrameNet release)",
                           UNZIP_FIX)
    if len(roots) > 1:
        shown = ", ".join(r or "(top level)" for r in sorted(roots)[:4]) + (", ..." if len(roots) > 4 else "")
        raise FbagentError(f"{path}: a zip archive holding {len(roots)} FrameNet releases ({shown}); fbagent will "
                           "not guess which one you mean",
                           "unzip it and pass the folder of the release you want (the one holding frameIndex.xml)")
    return roots[0]


def zip_root(path: str | Path) -> str:
    """The folder prefix of the resource inside the archive (``""`` or ``"fndata-1.5/"``).

    Raises :class:`FbagentError` ("unzip it first") when the file is not a zip
    archive or holds no ``frameIndex.xml``.
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


def _read(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> bytes:
    try:
        return zf.read(info)
    except (zipfile.BadZipFile, zlib.error, OSError) as err:
        raise FbagentError(f"{path}!/{info.filename}: cannot be unzipped ({err})", UNZIP_FIX) from err


def zip_fingerprint(path: str | Path, parser_version: str) -> str:
    """SHA-256 of the archive's resource files, equal to the fingerprint of the unzipped folder."""
    path = Path(path)
    h = hashlib.sha256(parser_version.encode())
    with _open(path) as zf:
        for rel, info in _members(zf, _root_in(zf, path)):
            data = _read(zf, info, path)
            h.update(rel.encode() + b"\0" + len(data).to_bytes(8, "big"))
            h.update(data)
    return h.hexdigest()


@contextmanager
def extracted(path: str | Path) -> Iterator[Path]:
    """Yield a private temporary folder holding the archive's resource files; removed on exit.

    Raises :class:`FbagentError` when the archive is unreadable, holds no
    ``frameIndex.xml``, or unzips to more than :data:`MAX_UNZIPPED_BYTES`.
    """
    path = Path(path)
    tmp = Path(tempfile.mkdtemp(prefix="fbagent-zip-"))
    os.chmod(tmp, 0o700)
    try:
        folder = tmp / "resource"
        with _open(path) as zf:
            members = _members(zf, _root_in(zf, path))
            total = sum(info.file_size for _, info in members)
            if total > MAX_UNZIPPED_BYTES:
                raise FbagentError(f"{path}: its FrameNet files unzip to {total / 2**30:.1f} GiB, more than fbagent "
                                   f"unzips in place ({MAX_UNZIPPED_BYTES / 2**30:.0f} GiB)", UNZIP_FIX)
            for rel, info in members:
                target = folder / rel
                target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                target.write_bytes(_read(zf, info, path))
        yield folder
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
