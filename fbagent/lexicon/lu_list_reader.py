"""Read a list of lexical units that names Berkeley frames: CSV, TSV or JSON (the Arabic FrameNet's CSV, the Open
Dutch FrameNet Lexicon's JSON, a user's own list).

One LU a row (CSV/TSV with a header line) or an object (JSON: a list of objects, an object holding such a list
under ``lexical_units``/``lus``/``entries``, or an object of objects keyed by LU id). The fields and the column
(or key) each is read from:

==============  ===================================================  =====================================
field           default columns (the first present, any case)         meaning
==============  ===================================================  =====================================
``lu``          lu, lexical_unit, lu_name                            ``leave.v`` (lemma and POS from it)
``lemma``       lemma, lexeme, word, lemma_ar                        with ``pos`` when there is no ``lu``
``pos``         pos, part_of_speech, pos_ar                          ``v``, ``verb``, ``VERB``, ``فعل``...
``frame``       frame, frame_name                                    a Berkeley frame name
``frame_id``    frame_id, fid                                        a Berkeley frame id (a frame or an id
                                                                     is required)
``lu_id``       lu_id, id, ar_lu_id                                  optional (kept when a number)
``definition``  definition, gloss, definition_ar                     optional
``exemplar``    exemplar, sentence, example                          ``<t>target</t>`` marks the target
``n_annotated`` n_annotated, annotated                               optional count
==============  ===================================================  =====================================

``--columns lemma=Word,pos=Tag,frame=FN_frame`` maps fields to other columns. A row without a frame, or without
an LU name or a lemma, is damage (``FILE:LINE``), as is a CSV/TSV row whose column count differs from the header's
and a JSON syntax error. The frames are the names the rows give, without text: ``--frames-from`` borrows
Berkeley's definitions, frame elements and relations (by ``frame_id`` where given, else by name). A row with a
``frame_id`` and no frame name (the Arabic FrameNet's ``release/layer2_vN/lus_ar.csv``: ``ar_lu_id, lemma_ar,
pos_ar, frame_id, ...``, which these defaults read without ``--columns``) is in the frame ``frame #ID`` until
``--frames-from`` finds that id and gives it the reference's name.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.framenet.markup import parse_example
from fbagent.framenet.model import Frame, LexicalUnit, LexiconData, split_lu_name
from fbagent.lexicon.frame_ids import id_name, is_id_name
from fbagent.lexicon.releases import known, unknown
from fbagent.lexicon.source_files import damaged, fingerprint, read_json, read_text

NAME = "lu-list"
LAYOUT = "LU list"
PARSER_VERSION = "lu-list-reader/1"
SUFFIXES = (".csv", ".tsv", ".tab", ".json")
FIELDS: dict[str, tuple[str, ...]] = {
    "lu": ("lu", "lexical_unit", "lu_name"),
    "lemma": ("lemma", "lexeme", "word", "lemma_ar"),
    "pos": ("pos", "part_of_speech", "pos_ar"),
    "frame": ("frame", "frame_name"),
    "frame_id": ("frame_id", "fid"),
    "lu_id": ("lu_id", "id", "ar_lu_id"),
    "definition": ("definition", "gloss", "definition_ar"),
    "exemplar": ("exemplar", "sentence", "example"),
    "n_annotated": ("n_annotated", "annotated"),
}
#: POS words (UD tags, English and a few other languages' names) -> the LU name suffix; others are lower-cased
POS_SUFFIX = {
    **dict.fromkeys(("verb", "verbe", "verbo", "werkwoord", "fiil", "fi'l", "فعل", "aux"), "v"),
    **dict.fromkeys(("noun", "nom", "nome", "nombre", "sustantivo", "substantief", "zelfstandig naamwoord", "isim",
                     "اسم", "propn"), "n"),
    **dict.fromkeys(("adjective", "adj", "adjectif", "adjetivo", "aggettivo", "bijvoeglijk naamwoord", "sıfat",
                     "صفة"), "a"),
    **dict.fromkeys(("adverb", "adverbe", "adverbio", "avverbio", "bijwoord", "zarf", "ظرف"), "adv"),
    **dict.fromkeys(("preposition", "adp", "préposition", "preposición", "voorzetsel", "حرف جر"), "prep"),
    # the Arabic FrameNet's closed list of 16 (release/layer2_v4/pos_ar_closed.txt): verbal nouns and the nouns of
    # instance, place and instrument are nouns; participles, intensive and relative (nisba) forms adjectives, as its
    # pos_glossary.tsv pairs them with FrameNet's N and A
    **dict.fromkeys(("فعل",), "v"),
    **dict.fromkeys(("مصدر", "اسم مصدر", "اسم مرة", "اسم جامد", "اسم آلة", "اسم مكان"), "n"),
    **dict.fromkeys(("اسم فاعل", "اسم مفعول", "صفة مشبهة", "صيغة مبالغة", "اسم منسوب"), "a"),
    **dict.fromkeys(("حرف",), "part"),
    **dict.fromkeys(("تركيب",), "mwe"),
    **dict.fromkeys(("مبني",), "pron"),
}
#: the header of the Arabic FrameNet's layer-2 release (release/layer2_vN/lus_ar.csv): frames by FrameNet 1.7 id
ARABIC_COLUMNS = frozenset({"ar_lu_id", "lemma_ar", "pos_ar", "frame_id"})


def detect(path: Path) -> bool:
    """Whether ``path`` is a CSV, TSV or JSON file (the JSON Korean FrameNet and JSONL lexicons are told apart first)."""
    return path.is_file() and path.suffix.lower() in SUFFIXES


def source_hash(path: Path) -> str:
    """The content hash of the file."""
    return fingerprint(PARSER_VERSION, [Path(path).expanduser()])


def parse_columns(spec: str | None) -> dict[str, str]:
    """``"lemma=Word,frame=FN"`` -> ``{"lemma": "Word", "frame": "FN"}``; :class:`FbagentError` for an unknown field
    or an item without ``=``."""
    mapping: dict[str, str] = {}
    for item in (spec or "").split(","):
        if not item.strip():
            continue
        field, eq, column = item.partition("=")
        field = field.strip().lower()
        if not eq or not column.strip() or field not in FIELDS:
            raise FbagentError(f"--columns item {item.strip()!r} is not FIELD=COLUMN with a known field",
                               f"write e.g. --columns lemma=Word,pos=Tag,frame=Frame (fields: {', '.join(FIELDS)})")
        mapping[field] = column.strip()
    return mapping


def _resolve(keys: list[str], mapping: dict[str, str], path: Path) -> dict[str, str]:
    """``{field: the column it is read from}`` for the fields present (``mapping`` first, then the defaults)."""
    lower = {k.lower(): k for k in keys}
    out: dict[str, str] = {}
    for field, names in FIELDS.items():
        if field in mapping:
            if mapping[field] not in keys and mapping[field].lower() not in lower:
                raise FbagentError(f"{path}: --columns {field}={mapping[field]} names no column (columns: "
                                   f"{', '.join(keys[:12])})", "pass a column the file has")
            out[field] = mapping[field] if mapping[field] in keys else lower[mapping[field].lower()]
            continue
        found = next((lower[n] for n in names if n in lower), None)
        if found is not None:
            out[field] = found
    if ("frame" not in out and "frame_id" not in out) or ("lu" not in out and "lemma" not in out):
        raise FbagentError(f"{path}: no frame (or frame_id) column, or neither an LU nor a lemma column (columns: "
                           f"{', '.join(keys[:12])})", "name them with --columns lu=COL,frame=COL (or lemma=, pos=)")
    return out


def _list_lines(text: str, n: int) -> list[int | None]:
    """The line where each of the ``n`` objects of a top-level JSON list starts (``None`` each when the file's top
    level is no list: an object holding the list)."""
    decoder = json.JSONDecoder()
    at = len(text) - len(text.lstrip())
    if not text[at:].startswith("["):
        return [None] * n
    lines: list[int | None] = []
    at += 1
    while len(lines) < n:
        while text[at] in " \t\r\n,":
            at += 1
        lines.append(text.count("\n", 0, at) + 1)
        at = decoder.raw_decode(text, at)[1]
    return lines


def _rows(path: Path) -> tuple[list[tuple[int | None, dict[str, Any]]], list[str]]:
    """``([(line or None, record)], keys)`` of a CSV/TSV or JSON file (the line where each record starts)."""
    if path.suffix.lower() == ".json":
        value = read_json(path, LAYOUT)
        if isinstance(value, dict):
            value = next((value[k] for k in ("lexical_units", "lus", "entries") if isinstance(value.get(k), list)),
                         [{"lu_id": k, **v} if isinstance(v, dict) else v for k, v in value.items()])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise damaged(path, None, "not a JSON list of LU objects (nor an object holding one)", LAYOUT)
        keys = list(dict.fromkeys(k for v in value for k in v))
        lines = _list_lines(read_text(path, LAYOUT), len(value))
        return list(zip(lines, value, strict=True)), keys
    text = read_text(path, LAYOUT)
    dialect = "excel-tab" if path.suffix.lower() in (".tsv", ".tab") else "excel"
    reader = csv.reader(io.StringIO(text, newline=""), dialect=dialect)
    try:
        header = next(reader)
    except StopIteration:
        raise damaged(path, 1, "empty: no header line", LAYOUT) from None
    rows: list[tuple[int | None, dict[str, Any]]] = []
    for cols in reader:
        if not any(c.strip() for c in cols):
            continue
        if len(cols) != len(header):
            raise damaged(path, reader.line_num, f"{len(cols)} column(s), the header has {len(header)}", LAYOUT)
        rows.append((reader.line_num, dict(zip(header, cols, strict=True))))
    return rows, header


def read_lu_list(path: str | Path, columns: str | None = None) -> LexiconData:
    """Read an LU list (module docstring). ``columns``: the ``--columns`` text.

    Raises:
        FbagentError: a damaged row (``FILE:LINE``), an unknown or missing column, a file without rows.
    """
    file = Path(path).expanduser()
    rows, keys = _rows(file)
    fields = _resolve(keys, parse_columns(columns), file)
    frames: dict[str, Frame] = {}
    lus: dict[tuple[str, str], LexicalUnit] = {}
    for n, (where, record) in enumerate(rows, 1):
        def get(field: str, record: dict[str, Any] = record) -> str:
            return str(record.get(fields[field], "") if field in fields else "").strip()

        fid = get("frame_id")
        frame, name = get("frame") or (id_name(int(fid)) if fid.isdigit() else ""), get("lu")
        if not name and get("lemma"):
            pos = get("pos")
            name = f"{get('lemma')}.{POS_SUFFIX.get(pos.lower(), pos.lower())}" if pos else get("lemma")
        if not frame or not name:
            what = f"entry {n}" if where is None else "row"
            raise damaged(file, where, f"{what} has no {'frame' if not frame else 'LU name or lemma'}", LAYOUT)
        frames.setdefault(frame, Frame(frame, int(fid) if fid.isdigit() else None, "", ""))
        lemma, pos = split_lu_name(name)
        lu_id = get("lu_id")
        lu = lus.setdefault((name, frame), LexicalUnit(name=name, lemma=lemma, pos=pos, frame=frame,
                                                        lu_id=int(lu_id) if lu_id.isdigit() else None,
                                                        definition=get("definition")))
        if get("exemplar"):
            lu.exemplars.append(parse_example(get("exemplar")))
        count = get("n_annotated")
        lu.n_annotated = max(lu.n_annotated, int(count) if count.isdigit() else 0)
    if not lus:
        raise FbagentError(f"{file}: holds no lexical unit", "add one LU a row (a header line first)")
    for lu in lus.values():
        lu.n_annotated = max(lu.n_annotated, len(lu.exemplars))
    by_id = [f for f in frames.values() if is_id_name(f.name)]
    notes = [f"{len(by_id):,} frame(s) named in the file only by their FrameNet id ({by_id[0].name} ...): "
             "--frames-from names each after the reference's frame of that id"] if by_id else []
    arabic = ARABIC_COLUMNS <= set(keys)
    return LexiconData(list(frames.values()), list(lus.values()), [], fingerprint(PARSER_VERSION, [file]), [], notes,
                       provenance=known("arabic-framenet", NAME) if arabic else unknown(NAME))
