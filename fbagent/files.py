"""Files a user names: one atomic write that knows what it may replace, one reader of text input files.

:func:`write_atomic` is how fbagent writes every file a user names (``export OUT``, ``validate report
--out``, eval manifests, summaries and reports): a missing file or a regular one is written to a
temporary file in the same folder, fsync'd and renamed over it, so a reader sees the old file or the
new one, never half of one. Any other existing target is never replaced: a character device or a FIFO
(``/dev/stdout``, ``/dev/null``, a named pipe) is written in place, a socket or a block device is
refused, and so is an SQLite database (the ``--db`` file given as ``export``'s output by mistake) and its
``-wal``/``-shm``/``-journal`` files. A symbolic link is followed (the file it points to is replaced, the link stays). A failed
write (a full disk: ``ENOSPC``, also from ``/dev/full``) is one :class:`FbagentError`, and no temporary
file is left behind. The temporary file is ``flock``'ed while it is written, so a later write of the
same file removes the ones a killed writer left (:func:`remove_stale_temp_files`) and never a live one's.

:func:`read_text_input` reads every text input file (datasets, lexicon JSONL) the same way: UTF-8,
a byte-order mark accepted, and one line for anything else (UTF-16, Latin-1, binary data, a device
such as ``/dev/null``); :func:`parse_json_line` parses one JSON value with a nesting limit.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shlex
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from fbagent.errors import FbagentError

_FIX = "pass an output file in a folder you can write to"
SQLITE_HEADER = b"SQLite format 3\x00"   # the first 16 bytes of every SQLite database file
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
STDOUT = Path("/dev/stdout")   # what an output named ``-`` is


def _reason(err: OSError) -> str:
    if err.errno == errno.ENOSPC:
        return "no space left on the device"
    return err.strerror or str(err)


def _fix(err: OSError) -> str:
    return "free some space or pass an output file on another disk" if err.errno == errno.ENOSPC else _FIX


def write_atomic(out: Path | str, chunks: Iterable[str | bytes], *, mode: int = 0o644,
                 example: str | None = None) -> Path:
    """Write the text (UTF-8, ``\\n`` line ends) or bytes ``chunks`` to ``out`` (``-``: standard output); returns
    the path written.

    A missing or regular ``out`` is replaced atomically (temp file beside it, fsync, rename; file mode
    ``mode``). A character device or FIFO is written in place; a folder, a socket or a block device
    is refused (``example``: the file name the fix suggests, inside a folder given as ``out`` (default
    ``out.jsonl``) and instead of a database given as ``out`` (default ``entries.jsonl``)). Raises
    :class:`FbagentError` when ``out`` is a folder, its folder is missing, it is a
    socket or block device, or the write fails (no partial file is left and an existing file is
    untouched).
    """
    out = STDOUT if str(out) == "-" else Path(out)
    try:
        st = out.stat()  # follows a symlink: the file it points to is what gets replaced
    except FileNotFoundError:
        st = None
    except NotADirectoryError as err:   # ``afile/r.md``: a file where the path needs a folder
        raise under_a_file(out) from err
    except OSError as err:
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _FIX) from err
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise FbagentError(f"{out} is a folder", f"pass a file name such as {out / (example or 'out.jsonl')}")
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            return _write_in_place(out, chunks)
        if not stat.S_ISREG(st.st_mode):
            kind = "a socket" if stat.S_ISSOCK(st.st_mode) else "a block device" if stat.S_ISBLK(st.st_mode) \
                else "not a regular file"
            raise FbagentError(f"{out} is {kind}; it is never replaced", "pass a regular output file")
        out = out.resolve()
        refuse_database(out, example or "entries.jsonl")
    parent = out.parent
    if not parent.is_dir():
        raise FbagentError(f"folder {parent} of {out} does not exist",
                           f"create it (mkdir -p {parent}) or pass another output file")
    remove_stale_temp_files(out)
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{out.name}.", suffix=".tmp")
        fcntl.flock(fd, fcntl.LOCK_EX)   # held while written: marks a live writer for remove_stale_temp_files
    except OSError as err:
        # ENOENT for a folder that exists: a virtual file system (/proc, /sys) that takes no new files
        reason = ("the folder takes no new files: a virtual file system such as /proc or /sys?"
                  if err.errno == errno.ENOENT else _reason(err))
        raise FbagentError(f"cannot write into {parent} ({reason})", _fix(err)) from err
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _fix(err)) from err
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def under_a_file(out: Path) -> FbagentError:
    """The error for an output path ``out`` below an existing file (``report.md/r.md``, the system's "Not a
    directory"): names that file and suggests the same file name in its folder."""
    above = next((p for p in out.parents if p.exists() and not p.is_dir()), out.parent)
    instead = above.parent / out.name
    return FbagentError(f"cannot write {out}: {above} is an existing file, not a folder",
                        f"pass an output file in a folder, e.g. {instead}")


def is_sqlite_database(path: Path) -> bool:
    """Whether ``path`` is a file that starts with SQLite's 16-byte header (unreadable or missing: ``False``)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def refuse_database(out: Path, example: str = "entries.jsonl") -> None:
    """Raise :class:`FbagentError` when the existing file ``out`` is an SQLite database, or the ``-wal``,
    ``-shm`` or ``-journal`` file of one: an output file (JSONL, a report) never replaces a database.
    ``example``: the output file name the fix suggests (``report.json`` for ``validate report``)."""
    if is_sqlite_database(out):
        raise FbagentError(f"{out} is an SQLite database (the --db file?); an output never replaces one",
                           f"pass another output file name, e.g. {example}")
    for suffix in SQLITE_SIDE_FILES:
        base = out.with_name(out.name.removesuffix(suffix))
        if out.name.endswith(suffix) and is_sqlite_database(base):
            raise FbagentError(f"{out} belongs to the SQLite database {base}; an output never replaces it",
                               f"pass another output file name, e.g. {example}")


def remove_stale_temp_files(out: Path) -> list[Path]:
    """Remove the temporary files that writes of ``out`` killed mid-way left beside it (``.NAME.XXXXXXXX.tmp``,
    the pattern of :func:`write_atomic`) and that no live writer holds (an ``flock`` taken without waiting
    succeeds). Returns the files removed; files it cannot lock or remove are left."""
    pattern = re.compile(rf"\.{re.escape(out.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    return remove_stale(staged_beside(out.parent, pattern))


def staged_beside(folder: Path, pattern: re.Pattern[str]) -> list[Path]:
    """The entries of ``folder`` whose whole name matches ``pattern`` (none when it cannot be listed)."""
    try:
        return [p for p in folder.iterdir() if pattern.fullmatch(p.name)]
    except OSError:
        return []


def hold(path: Path) -> int:
    """Create (or open) the file ``path`` and take an exclusive ``flock`` on it; returns the descriptor.

    The lock lives until the descriptor is closed or the process ends (``kill -9`` included): it marks a live
    writer of a staging file or folder, which :func:`remove_stale` never removes. Raises :class:`OSError`.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise
    return fd


def remove_stale(candidates: Iterable[Path], lock_name: str | None = None) -> list[Path]:
    """Remove the staging files and folders in ``candidates`` that a killed writer left: those whose lock no
    live process holds (see :func:`hold`; an ``flock`` taken without waiting succeeds). A file is its own lock;
    a folder's lock is the file ``lock_name`` inside it, and a folder without it is left (its writer may not
    have made it yet). Returns what was removed; what cannot be locked or removed is left.
    """
    import shutil

    removed: list[Path] = []
    for path in candidates:
        folder = path.is_dir() and not path.is_symlink()
        if folder and lock_name is None:
            continue
        try:
            fd = os.open(path / lock_name if folder and lock_name else path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if folder:
                shutil.rmtree(path)
            else:
                path.unlink()
            removed.append(path)
        except OSError:
            pass   # a live writer holds it (or it went away)
        finally:
            os.close(fd)
    return removed


def _write_in_place(out: Path, chunks: Iterable[str | bytes]) -> Path:
    """Write to a character device or FIFO as it is (no temp file, no rename, no truncation). A FIFO
    that no process reads is refused at once instead of blocking until one does."""
    try:
        fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise FbagentError(f"{out} is a named pipe (FIFO) that no process reads", "start its reader first "
                               "(e.g. cat FIFO in another shell), or pass a regular output file") from err
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _fix(err)) from err
    os.set_blocking(fd, True)  # the reader is there: block while it catches up
    try:
        with os.fdopen(fd, "ab") as fh:  # append: never truncates (a no-op for devices and pipes anyway)
            for chunk in chunks:
                fh.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            fh.flush()
    except BrokenPipeError as err:   # `fbagent export - | head`: the reader stopped reading
        raise FbagentError(f"the reader of {out} closed it before everything was written (broken pipe)",
                           "let the reader take the whole output, or write it to a file first") from err
    except OSError as err:
        raise FbagentError(f"cannot write {out} ({_reason(err)})", _fix(err)) from err
    return out


def is_stream(out: Path | str) -> bool:
    """Whether ``out`` is ``-`` (standard output), a character device or a FIFO: an output a command's own
    messages must not go to (they go to standard error instead)."""
    if str(out) == "-":
        return True
    try:
        mode = Path(out).stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


#: bytes a text file holds: printable ASCII, tab, newlines, form feed, and every byte of a multi-byte character
_TEXT_BYTES = bytes(range(32, 127)) + bytes(range(128, 256)) + b"\t\n\r\f\x1b"
#: deepest nesting of arrays and objects a JSON input value may have (an fbagent row has 4 or 5 levels)
MAX_JSON_DEPTH = 100


def read_text_input(path: Path | str, what: str, fix: str) -> str:
    """The text of the input file ``path`` (``what``: e.g. ``"dataset"``), decoded as UTF-8; a UTF-8
    byte-order mark is accepted (and dropped) everywhere. Raises :class:`FbagentError` with ``fix`` for a
    path that does not exist, is not a regular file (``/dev/null``, a FIFO, a socket), cannot be read, or
    holds UTF-16, binary or non-UTF-8 (e.g. Latin-1) bytes, each named as such."""
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise FbagentError(f"{what} {path} does not exist", fix) from None
    except NotADirectoryError:   # ``afile/x.json``: a file where the path needs a folder
        above = next((p for p in path.parents if p.exists() and not p.is_dir()), path.parent)
        raise FbagentError(f"{what} {path} does not exist ({above} is a file, not a folder)", fix) from None
    except OSError as err:
        raise FbagentError(f"{what} {path} cannot be read ({_reason(err)})", fix) from err
    check_regular(path, what, fix, st)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise FbagentError(f"{what} {path} cannot be read ({_reason(err)})", fix) from err
    return decode_text(data, f"{what} {path}", path)


def check_regular(path: Path, what: str, fix: str, st: os.stat_result | None = None) -> None:
    """Raise :class:`FbagentError` (``"WHAT PATH is a named pipe (FIFO), not a file"``, ``fix``) when the existing
    ``path`` (a link followed) is not a regular file: reading a FIFO would wait for a writer forever, a device
    never ends. A missing path passes (its reader says so). ``st``: its ``stat``, when already taken."""
    if st is None:
        try:
            st = path.stat()
        except OSError:
            return
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a character device" if stat.S_ISCHR(st.st_mode)
                else "a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
                else "a block device" if stat.S_ISBLK(st.st_mode) else "not a regular file")
        raise FbagentError(f"{what} {path} is {kind}, not a file".lstrip(), fix)


def check_folder(folder: Path, what: str, fix: str) -> Path:
    """``folder`` when an output folder can stand there: an existing folder, or a missing one whose nearest
    existing ancestor is a folder (nothing is created; ``what`` names it in the error).

    Raises:
        FbagentError: ``"WHAT FOLDER is an existing file, not a folder"`` (or ``lies under FILE``, when an ancestor
            is a file), with ``fix``.
    """
    for p in (folder, *folder.parents):
        if p.exists() or p.is_symlink():
            if not p.is_dir():
                where = "is" if p == folder else f"lies under {p}, which is"
                raise FbagentError(f"{what} {folder} {where} an existing file, not a folder", fix)
            break
    return folder


def make_folder(folder: Path, what: str, fix: str) -> Path:
    """Create ``folder`` (and its parents) for output, or find it there (:func:`check_folder` first).

    Raises:
        FbagentError: as :func:`check_folder`, or the reason the system gives (no permission, read-only file
            system), with ``fix``.
    """
    check_folder(folder, what, fix)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise FbagentError(f"{what} {folder} cannot be created ({_reason(err)})", fix) from err
    return folder


def decode_text(data: bytes, where: str, path: Path | str | None = None) -> str:
    """``data`` decoded as UTF-8 (a byte-order mark dropped); raises :class:`FbagentError` naming UTF-16,
    binary data or the first byte that is not UTF-8 (``where``: what the bytes are, for the message; ``path``: the
    file, for the iconv command of the fix; :func:`not_utf8`)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise not_utf8(where, data, None, path)
    head = data[:8192]
    controls = head.translate(None, _TEXT_BYTES)   # what is left: control bytes no text file holds
    if b"\x00" in head or len(controls) > len(head) // 20:
        raise FbagentError(f"{where} holds binary data (NUL or control bytes), not UTF-8 text",
                           "pass the JSONL text file (one JSON object per line)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise not_utf8(where, data, err, path) from err


def not_utf8(where: str, data: bytes, err: UnicodeDecodeError | None, path: Path | str | None = None) -> FbagentError:
    """The one error every reader gives for text that is not UTF-8 (``where``: the file as the message names it,
    e.g. ``"dataset x.jsonl"`` or a path; ``err``: the decoding error, ``None`` for UTF-16 with its byte-order mark):

    - UTF-16: ``"WHERE is UTF-16 text; fbagent reads UTF-8"``;
    - a file cut inside a character (the error at the last bytes): ``"WHERE ends inside a UTF-8 character on line N
      (a truncated copy)"``, fix: copy or fetch it again;
    - else ``"WHERE is not UTF-8 text (byte 0xE9 on line N, column C: Latin-1 or another encoding?)"``.

    The fix of the first and last is the iconv command that converts the file in place (``path``, shell-quoted;
    ``IN > OUT`` without one)."""
    if err is not None and err.end >= len(data) and "end of data" in err.reason:
        line = data.count(b"\n", 0, err.start) + 1
        return FbagentError(f"{where} ends inside a UTF-8 character on line {line} (a truncated copy)",
                            "copy or fetch the file again")
    source = "UTF-16" if err is None else "LATIN1"
    if path is None:
        command = f"iconv -f {source} -t UTF-8 IN > OUT"
    else:
        q, tmp = shlex.quote(str(path)), shlex.quote(f"{path}.utf8")
        command = f"iconv -f {source} -t UTF-8 {q} > {tmp} && mv {tmp} {q}"
    fix = f"save it as UTF-8 (e.g. {command}" + (", LATIN1 being the file's own encoding)" if err else ")")
    if err is None:
        return FbagentError(f"{where} is UTF-16 text; fbagent reads UTF-8", fix)
    line = data.count(b"\n", 0, err.start) + 1
    column = len(data[data.rfind(b"\n", 0, err.start) + 1:err.start].decode("utf-8", "replace")) + 1
    return FbagentError(f"{where} is not UTF-8 text (byte 0x{data[err.start]:02x} on line {line}, column {column}: "
                        "Latin-1 or another encoding?)", fix)


def xml_not_utf8(path: Path | str, data: bytes) -> FbagentError | None:
    """:func:`not_utf8`'s error for an XML file whose bytes are not the UTF-8 it declares (no ``encoding=`` in its
    XML declaration, or UTF-8), for an XML reader to give instead of the parser's "not well-formed (invalid
    token)"; ``None`` when the bytes are UTF-8 or the file declares another encoding (or has a UTF-16 mark)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    declared = re.match(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)", data[:200])
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return None
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return not_utf8(str(path), data, err, path)
    return None


def parse_json_line(line: str, where: str, fix: str) -> object:
    """The JSON value of ``line``; raises :class:`FbagentError` (``"WHERE: ..."`` and ``fix``) for text that
    is not JSON, an object holding one key twice, or nested deeper than :data:`MAX_JSON_DEPTH` arrays/objects
    (checked before parsing, so a line of 100,000 brackets is one line, not a ``RecursionError``)."""
    if line.count("[") + line.count("{") > MAX_JSON_DEPTH and json_depth(line) > MAX_JSON_DEPTH:
        raise FbagentError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels", fix)
    try:
        return json.loads(line, object_pairs_hook=_unique_keys)
    except _DuplicateKey as err:
        raise FbagentError(f"{where}: the key {err.args[0]!r} appears twice in one JSON object (JSON readers keep "
                           "the last value or the first: which one is meant?)", "keep one of the two") from None
    except json.JSONDecodeError as err:  # msg may end in "at" ("Unterminated string starting at")
        raise FbagentError(f"{where}: not valid JSON ({err.msg.removesuffix(' at')} at column {err.colno})",
                           fix) from err
    except RecursionError as err:
        raise FbagentError(f"{where}: JSON nested too deep to read", fix) from err


class _DuplicateKey(ValueError):
    """A key that one JSON object holds twice (its name is ``args[0]``)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """``json.loads``'s ``object_pairs_hook``: the object, or :class:`_DuplicateKey` for a repeated key."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in the JSON ``text`` (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
