"""Read a lexicon in fbagent's JSONL format (for FrameNets without NLTK-style XML).

Frames file: one frame per line, with its frame elements (FEs) and lexical
units (LUs); optional exemplars file: one annotated sentence per line. The
format is defined by ``fbagent/json_schemas/lexicon.schema.json`` and
documented in ``docs/lexicon.md``. Example frame line::

    {"frame": "Departing", "definition": "A <fen>Theme</fen> moves away from a <fen>Source</fen>.
      <ex>The bus <t>left</t> at noon.</ex>",
     "frame_elements": [{"name": "Theme", "core_type": "Core", "definition": "What moves."}],
     "lexical_units": [{"name": "leave.v", "definition": "go away from a place"}]}

Example exemplar line::

    {"lu": "leave.v", "frame": "Departing", "text": "The last train <t>left</t> at midnight."}

Every line is validated (JSON syntax, the JSON Schema, then cross-line
checks: duplicate frames or LUs, relations or exemplars naming an unknown
frame or LU); problems are reported as ``file:line: problem``.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from fbagent.errors import FbagentError
from fbagent.files import parse_json_line, read_text_input
from fbagent.framenet.checks import frame_problem, relation_problem, sqlite_integer
from fbagent.framenet.lu_names import lu_name_problem
from fbagent.framenet.markup import clean_text, parse_definition, parse_example, target_mark_problem
from fbagent.framenet.model import (
    Frame,
    FrameElement,
    FrameRelation,
    LexicalUnit,
    LexiconData,
    split_lu_name,
)

PARSER_VERSION = "jsonl-reader/1"
FRAMES_FILE = "frames.jsonl"
EXEMPLARS_FILE = "exemplars.jsonl"
MAX_REPORTED = 20


def fix_lines(files: list[Path]) -> str:
    """The fix of a :class:`LexiconFormatError`: the user's ``files`` to correct, and where the format is described
    (docs/lexicon.md and the JSON Schema as installed, a file the user can open)."""
    named = " and ".join(str(f) for f in files) or "the file"
    return (f"correct the named line(s) of {named} as docs/lexicon.md describes (JSON Schema: {schema_path()}),"
            " then rerun; nothing was imported")


class LexiconFormatError(FbagentError):
    """One or more bad lines in a JSONL lexicon.

    ``problems`` lists up to :data:`MAX_REPORTED` lines ``"file:line: problem"``;
    ``str(err)`` names the first and how many more there are, and the fix names ``files`` (those with problems).
    """

    def __init__(self, problems: list[str], total: int, files: list[Path] | None = None) -> None:
        self.problems = problems
        more = f" (and {total - 1} more problem(s))" if total > 1 else ""
        super().__init__(problems[0] + more, fix_lines(files or []))


def schema_path() -> str:
    """Where the JSON Schema of the JSONL lexicon format lies in the installed package (a path or resource name)."""
    return str(resources.files("fbagent").joinpath("json_schemas/lexicon.schema.json"))


@cache
def lexicon_schema() -> dict[str, Any]:
    """The JSON Schema of the JSONL lexicon format (``fbagent/json_schemas/lexicon.schema.json``)."""
    text = resources.files("fbagent").joinpath("json_schemas/lexicon.schema.json").read_text("utf-8")
    return json.loads(text)


@cache
def _validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    schema = lexicon_schema()
    frame = Draft202012Validator(schema)
    exemplar = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/exemplar"})
    return frame, exemplar


def _describe(err: ValidationError) -> str:
    """One readable sentence for a jsonschema ValidationError."""
    where = "/".join(str(p) for p in err.absolute_path)
    prefix = f"{where}: " if where else ""
    if err.validator == "pattern":
        path = list(err.absolute_path)
        if len(path) >= 3 and path[0] == "lexical_units" and path[-1] == "name" and isinstance(err.instance, str):
            why = lu_name_problem(err.instance)
            if why:
                return f"{prefix}{err.instance!r} is not valid: the LU name {why}"
        if isinstance(err.instance, str):
            bad = sorted({ch for ch in err.instance if ch in "/\\" or unicodedata.category(ch) == "Cc"})
            if bad:
                shown = ", ".join(repr(ch) for ch in bad)
                desc = err.schema.get("description", "not allowed here")
                return f"{prefix}{err.instance!r} is not valid: it contains {shown} ({desc})"
        desc = err.schema.get("description") or "the required pattern"
        return f"{prefix}{err.instance!r} is not valid ({desc})"
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed and not k.startswith("x_")]
        return (f"{prefix}unknown key(s) {', '.join(map(repr, extra))} (allowed: {', '.join(allowed)}; "
                "prefix private keys with x_)")
    return f"{prefix}{err.message}"


def fingerprint(frames: Path, exemplars: Path | None) -> str:
    """SHA-256 of the frames file and the exemplars file (if any), with :data:`PARSER_VERSION`."""
    h = hashlib.sha256(PARSER_VERSION.encode())
    for path in (frames, exemplars):
        if path is None:
            continue
        try:
            data = path.read_bytes()
        except OSError as err:
            raise FbagentError(f"{path}: cannot read it ({err.strerror})", "pass an existing, readable JSONL file") from err
        h.update(path.name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _lines(path: Path, problems: _Problems) -> list[tuple[int, Any]]:
    """Parse the JSON lines of ``path``: ``[(line number, object)]``; bad lines go to ``problems``."""
    text = read_text_input(path, "lexicon file", "pass an existing, readable JSONL file (UTF-8)")
    out = []
    for no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append((no, parse_json_line(line, f"{path}:{no}", "")))
        except FbagentError as err:   # collected: every bad line is named at once
            problems.append(err.problem)
    return out


def locate(path: str | Path, exemplars: str | Path | None = None) -> tuple[Path, Path | None]:
    """Resolve the frames file and the optional exemplars file.

    ``path`` is a ``.jsonl`` file or a folder holding ``frames.jsonl`` (and
    optionally ``exemplars.jsonl``). Next to a file ``NAME.jsonl`` the
    exemplars file ``NAME.exemplars.jsonl`` is used when present; ``exemplars``
    overrides both. Raises :class:`FbagentError` when a file is missing.
    """
    path = Path(path).expanduser()
    if path.is_dir():
        frames = path / FRAMES_FILE
        guess = path / EXEMPLARS_FILE
    else:
        frames = path
        guess = path.with_name(path.name.removesuffix(".jsonl") + ".exemplars.jsonl")
    if not frames.is_file():
        raise FbagentError(f"{frames}: no such JSONL frames file", f"pass a .jsonl file or a folder holding {FRAMES_FILE}")
    if exemplars is not None:
        ex = Path(exemplars).expanduser()
        if not ex.is_file():
            raise FbagentError(f"{ex}: no such exemplars file", "pass an existing JSONL file to --exemplars")
        return frames, ex
    return frames, (guess if guess.is_file() and guess != frames else None)


def read_jsonl(path: str | Path, exemplars: str | Path | None = None) -> LexiconData:
    """Read a JSONL lexicon (see the module docstring and :func:`locate`).

    Returns a :class:`LexiconData` (frames in file order, LUs in frame then
    line order, POS = upper-cased name suffix, relations, exemplars attached
    to their LUs, SHA-256 of both files).

    Raises:
        LexiconFormatError: any invalid line (JSON syntax, schema, duplicate
            frame or LU, relation or exemplar naming an unknown frame or LU);
            lists up to 20 problems as ``file:line: problem``.
        FbagentError: a file is missing, unreadable or not UTF-8.
    """
    frames_path, exemplars_path = locate(path, exemplars)
    problems = _Problems()
    frame_validator, exemplar_validator = _validators()
    lexicon = _Frames(frames_path)
    for no, obj in _lines(frames_path, problems):
        lexicon.add_line(no, obj, frame_validator, problems)
    relations = lexicon.relations(problems)
    if exemplars_path is not None:
        _attach_exemplars(exemplars_path, lexicon, exemplar_validator, problems)
    if problems.total:
        raise problems.error(frames_path, exemplars_path)
    if not lexicon.frames:
        raise FbagentError(f"{frames_path}: holds no frame", "add one JSON object per frame, one per line")
    for lu in lexicon.lus:
        if lu.n_annotated < 0:
            lu.n_annotated = len(lu.exemplars)
    return LexiconData(lexicon.frames, lexicon.lus, relations, fingerprint(frames_path, exemplars_path), [])


class _Problems:
    """Problems of one read as ``file:line: problem``: the first :data:`MAX_REPORTED` kept, all counted."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.total = 0

    def append(self, msg: str) -> None:
        self.total += 1
        if len(self.kept) < MAX_REPORTED:
            self.kept.append(msg)

    def error(self, frames_path: Path, exemplars_path: Path | None) -> LexiconFormatError:
        """The error listing the kept problems in file order (frames file first), then line order."""
        order = {str(frames_path): 0, str(exemplars_path): 1}

        def where(msg: str) -> tuple[int, int]:
            path, _, rest = msg.partition(".jsonl:")
            line = rest.split(":", 1)[0]
            return order.get(path + ".jsonl", 2), int(line) if line.isdigit() else 0

        kept = sorted(self.kept, key=where)
        files = [p for p in (frames_path, exemplars_path)
                 if p is not None and any(msg.startswith(f"{p}:") for msg in kept)]
        return LexiconFormatError(kept, self.total, files)


class _Frames:
    """The frames file's frames, FEs and LUs as its lines are read; relations wait for every frame."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.frames: list[Frame] = []
        self.lus: list[LexicalUnit] = []
        self.frame_line: dict[str, int] = {}
        self.lu_index: dict[tuple[str, str], LexicalUnit] = {}
        self.pending_relations: list[tuple[int, str, dict]] = []
        self.id_line: dict[int, int] = {}

    def add_line(self, no: int, obj: Any, validator: Any, problems: _Problems) -> None:
        """Validate line ``no`` and add its frame, FEs and LUs (a duplicate frame or LU is a problem)."""
        errors = sorted(validator.iter_errors(obj), key=lambda e: list(e.absolute_path))
        if errors:
            for err in errors[:3]:
                problems.append(f"{self.path}:{no}: {_describe(err)}")
            return
        name = obj["frame"]
        if name in self.frame_line:
            problems.append(f"{self.path}:{no}: frame {name} is already defined on line {self.frame_line[name]}")
            return
        problem = frame_problem(name, obj.get("id"), {i: f"line {n}" for i, n in self.id_line.items()})
        if problem:
            problems.append(f"{self.path}:{no}: {problem}")
            return
        self.frame_line[name] = no
        if obj.get("id") is not None:
            self.id_line[obj["id"]] = no
        markup = obj["definition"]
        definition, examples = parse_definition(markup)
        examples += [parse_example(s) for s in obj.get("examples", [])]
        fes = []
        seen_fes: set[str] = set()
        for fe in obj["frame_elements"]:
            if fe["name"] in seen_fes:
                problems.append(f"{self.path}:{no}: frame_elements: FE {fe['name']} appears twice in frame {name}")
            seen_fes.add(fe["name"])
            fes.append(FrameElement(fe["name"], fe["core_type"], clean_text(fe.get("definition", ""))))
        self.frames.append(Frame(name, obj.get("id"), definition, markup, examples, fes))
        for lu_obj in obj["lexical_units"]:
            self._add_lu(no, name, lu_obj, problems)
        for rel in obj.get("relations", []):
            self.pending_relations.append((no, name, rel))

    def _add_lu(self, no: int, frame: str, lu_obj: dict[str, Any], problems: _Problems) -> None:
        key = (lu_obj["name"], frame)
        if key in self.lu_index:
            problems.append(f"{self.path}:{no}: lexical_units: LU {lu_obj['name']} appears twice in frame {frame}")
            return
        if not sqlite_integer(lu_obj.get("id")):
            problems.append(f"{self.path}:{no}: lexical_units: LU {lu_obj['name']} has id {lu_obj['id']}, outside "
                            f"SQLite's integer range (at most {2**63 - 1:,})")
            return
        lemma, pos = split_lu_name(lu_obj["name"])
        lu = LexicalUnit(
            name=lu_obj["name"],
            lemma=lemma,
            pos=pos,
            frame=frame,
            lu_id=lu_obj.get("id"),
            definition=clean_text(lu_obj.get("definition", "")),
            n_annotated=lu_obj.get("n_annotated", -1),
        )
        self.lu_index[key] = lu
        self.lus.append(lu)

    def relations(self, problems: _Problems) -> list[FrameRelation]:
        """The frame relations, once every frame is known (a super frame not in the file is a problem)."""
        out = []
        for no, name, rel in self.pending_relations:
            if rel["super_frame"] not in self.frame_line:
                problems.append(f"{self.path}:{no}: relations: super_frame {rel['super_frame']} is not a frame of this file")
                continue
            out.append(FrameRelation(rel["type"], rel["super_frame"], name))
            problem = relation_problem([out[-1]])   # related to itself: named on its own line
            if problem:
                problems.append(f"{self.path}:{no}: relations: {problem}")
                out.pop()
        problem = relation_problem(out)
        if problem:   # a cycle: named on the line of its first frame
            first = problem.rsplit(": ", 1)[-1].split(" -> ")[0]
            problems.append(f"{self.path}:{self.frame_line.get(first, 0)}: relations: {problem}")
        return out


def _attach_exemplars(path: Path, lexicon: _Frames, validator: Any, problems: _Problems) -> None:
    """Validate the exemplars file's lines and attach each exemplar to its LU of the frames file."""
    for no, obj in _lines(path, problems):
        errors = list(validator.iter_errors(obj))
        if errors:
            for err in errors[:3]:
                problems.append(f"{path}:{no}: {_describe(err)}")
            continue
        lu = lexicon.lu_index.get((obj["lu"], obj["frame"]))
        if lu is None:
            known = obj["frame"] in lexicon.frame_line
            what = f"LU {obj['lu']} is not in frame {obj['frame']}" if known else f"frame {obj['frame']} is unknown"
            problems.append(f"{path}:{no}: {what} (exemplars must name an LU of the frames file)")
            continue
        ex = parse_example(obj["text"])
        if not ex.text:
            problems.append(f"{path}:{no}: text is empty once markup is removed")
            continue
        mark = target_mark_problem(obj["text"])
        if mark:
            problems.append(f"{path}:{no}: text: {mark}")
            continue
        lu.exemplars.append(ex)
