"""Read the Open Dutch FrameNet Lexicon (cltl/OpenDutchFrameNetLexicon) as published: its JSON lexicons.

Layout (``data/odfn_lexicon_v0.1.json``, the merged lexicon, and the lexicons it merges, e.g.
``data/DFN-corpus-based/lexicon-manual.json`` and ``data/RBN-based/rbn_dfn_1_2.json``; one object each)::

    {"bekogelen:VERB": {"lemma": "bekogelen", "pos": "VERB",
                        "frames": {"fn17-cause_harm": {"annotations": [
                            {"project": "DutchFrameNet", "status": "manual", ...,
                             "mention": [{"doc": "7b2c....naf", "term": "t160",
                                          "tokens": [{"token_id": "w160", "sent": "9", "offset": "956",
                                                      "length": "10"}],
                                          "text": "... the sentence's tokens joined by single spaces ..."}]},
                            {"project": "RBN_DFN_mapping", "status": "manual", "definition": "..."}]},
                                   "fn17-cause_harm@victim": {...}}}}

An entry is an LU in each frame it is associated with (``fn17-cause_harm`` -> FrameNet 1.7's ``Cause_harm``: the
key's name with its first letter upper case; ``--frames-from`` then finds Berkeley's frame also where the case
differs), ``lemma.pos`` with UD tags mapped (VERB and AUX -> V, NOUN -> N, ADJ -> A, ...). Keys with ``@`` are
frame-element associations (the entry fills that FE, e.g. ``fn17-catastrophe@undesirable_event``): the FE is added
to its frame, no LU. Each mention of a ``manual`` annotation that carries its sentence is an exemplar; ``system``
(open-sesame) and ``automatic`` annotations are counted, not used. The target: the mention's tokens are NAF word
ids (``w160``, numbered through the document) with their lengths; the sentence's first word id is the one every
mention of that document sentence agrees with (word id minus position, among the positions whose word has the
token's length), so the target is found by position; where several numbers fit, the one that puts a word
beginning with the lemma's first three letters at a token; a mention no single number fits is left out and
counted. An
``RBN_DFN_mapping`` annotation's ``definition`` is the LU's definition. A folder is read as the merged lexicon
where ``data/odfn_lexicon_v*.json`` holds it, else as the lexicons under ``data/`` merged by entry key (the
repository's ``merge_lexicons.py`` does the same).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simplemma

from fbagent.errors import FbagentError
from fbagent.framenet.model import Example, Frame, FrameElement, LexicalUnit, LexiconData
from fbagent.lexicon.releases import known
from fbagent.lexicon.source_files import damaged, fingerprint, line_of, read_json

NAME = "odfn"
LAYOUT = "Open Dutch FrameNet Lexicon JSON"
PARSER_VERSION = "odfn-reader/1"
MERGED = "odfn_lexicon_v*.json"
#: the start of such a file: an object whose first key is ``lemma:POS`` and whose value begins with ``"lemma"``
_HEAD = re.compile(rb'^(\xef\xbb\xbf)?\s*\{\s*"[^"\n]*:[A-Z]*"\s*:\s*\{\s*"lemma"\s*:')
#: UD parts of speech -> (fbagent POS, LU name suffix)
UD_POS: dict[str, tuple[str, str]] = {
    "VERB": ("V", "v"), "AUX": ("V", "v"), "NOUN": ("N", "n"), "PROPN": ("PROPN", "propn"), "ADJ": ("A", "a"),
    "ADV": ("ADV", "adv"), "ADP": ("PREP", "prep"), "NUM": ("NUM", "num"), "PRON": ("PRON", "pron"),
    "DET": ("DET", "det"), "CONJ": ("CONJ", "c"), "CCONJ": ("CONJ", "c"), "SCONJ": ("SCON", "scon"),
    "MWE": ("MWE", "mwe"),
}
_WORD_ID = re.compile(r"^w(\d+)$")


def _is_lexicon(path: Path) -> bool:
    if not path.is_file() or path.suffix.lower() != ".json":
        return False
    with path.open("rb") as fh:
        return bool(_HEAD.match(fh.read(4096)))


def find_files(path: Path) -> list[Path]:
    """The lexicon files at ``path``: the file itself; in a folder (the checkout or its ``data/``) the newest
    ``odfn_lexicon_v*.json``, else every lexicon file under it (sorted). ``[]``: not this layout."""
    if path.is_file():
        return [path] if _is_lexicon(path) else []
    if not path.is_dir():
        return []
    data = path / "data" if (path / "data").is_dir() else path
    merged = sorted((p for p in data.glob(MERGED) if _is_lexicon(p)), key=lambda p: p.name)
    if merged:
        return [merged[-1]]
    return sorted(p for p in data.rglob("*.json") if _is_lexicon(p))


def detect(path: Path) -> bool:
    """Whether ``path`` is (or holds) an Open Dutch FrameNet Lexicon JSON file."""
    return bool(find_files(path))


def _files(path: Path) -> list[Path]:
    files = find_files(Path(path).expanduser())
    if not files:
        raise FbagentError(f"{path}: no Open Dutch FrameNet Lexicon JSON (an object of \"lemma:POS\" entries with "
                           "lemma, pos and frames)", "point PATH at the OpenDutchFrameNetLexicon checkout or one of "
                           "its data/*.json lexicons, or pass another --format")
    return files


def source_hash(path: Path) -> str:
    """The content hash of the lexicon files :func:`read_odfn` reads."""
    return fingerprint(PARSER_VERSION, _files(path))


@dataclass
class _Counts:
    """What the reader counts for its notes and warnings."""

    fe_links: int = 0
    not_manual: int = 0
    no_target: int = 0
    english_mentions: int = 0
    english_entries: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _merged(files: list[Path]) -> dict[str, dict[str, Any]]:
    """The entries of ``files`` merged by key (frames' annotations concatenated); damage as ``FILE:LINE``."""
    out: dict[str, dict[str, Any]] = {}
    for path in files:
        entries = read_json(path, LAYOUT)
        if not isinstance(entries, dict):
            raise damaged(path, 1, "not a JSON object of \"lemma:POS\" entries", LAYOUT)
        for key, entry in entries.items():
            if not (isinstance(entry, dict) and isinstance(entry.get("lemma"), str) and isinstance(entry.get("pos"), str)
                    and isinstance(entry.get("frames"), dict)):
                raise damaged(path, line_of(path, json.dumps(key, ensure_ascii=False)),
                              f"entry {key!r} lacks a lemma, pos or frames object", LAYOUT)
            have = out.setdefault(key, {**entry, "frames": {}})
            for frame, info in entry["frames"].items():
                annotations = info.get("annotations") if isinstance(info, dict) else None
                if not isinstance(annotations, list):
                    raise damaged(path, line_of(path, json.dumps(frame)), f"frame {frame!r} of entry {key!r} has no "
                                  "annotations list", LAYOUT)
                have["frames"].setdefault(frame, []).extend(a for a in annotations if isinstance(a, dict))
    return out


def frame_name(key: str) -> tuple[str, str | None]:
    """``(frame, FE or None)`` of an association key: ``fn17-cause_harm`` -> ``("Cause_harm", None)``,
    ``fn17-catastrophe@undesirable_event`` -> ``("Catastrophe", "Undesirable_event")``."""
    name = key.split("-", 1)[1] if re.match(r"^fn\d+-", key) else key
    frame, _, fe = name.partition("@")
    cap = lambda s: s[:1].upper() + s[1:]  # noqa: E731
    return cap(frame), (cap(fe) if fe else None)


def english(text: str) -> bool:
    """Whether simplemma's language detector scores ``text`` higher as English than as Dutch (the DataToText
    corpus behind ``lexicon-manual.json`` holds English reference texts beside the Dutch ones)."""
    scores = dict(simplemma.langdetect(text, lang=("nl", "en")))
    return scores.get("en", 0.0) > scores.get("nl", 0.0)


def _entry_mentions(entry: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for key, anns in entry["frames"].items() if "@" not in key for a in anns if a.get("status") == "manual"
            for m in a.get("mention") or [] if isinstance(m, dict) and isinstance(m.get("text"), str)]


def _mentions(entries: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every mention of a manual annotation with its sentence, in file order."""
    return [m for e in entries.values() for anns in e["frames"].values() for a in anns if a.get("status") == "manual"
            for m in a.get("mention") or [] if isinstance(m, dict) and isinstance(m.get("text"), str)]


def _tokens(mention: dict[str, Any]) -> list[tuple[int, int]]:
    """``[(word number, length)]`` of a mention's whole-word tokens (compound subtokens ``w144.sub2`` left out)."""
    out = []
    for tok in mention.get("tokens") or []:
        match = _WORD_ID.match(str(tok.get("token_id") or ""))
        if match and str(tok.get("length") or "").isdigit():
            out.append((int(match.group(1)), int(tok["length"])))
    return out


def sentence_starts(mentions: list[dict[str, Any]]) -> dict[tuple[str, str], set[int]]:
    """``{(doc, sentence text): the word numbers its first word may have}``: those every mention of that sentence
    agrees with (module docstring); one number where the sentence is placed, several where it is not yet."""
    options: dict[tuple[str, str], set[int] | None] = {}
    for m in mentions:
        words = m["text"].split(" ")
        key = (str(m.get("doc")), m["text"])
        for number, length in _tokens(m):
            fits = {number - i for i, w in enumerate(words) if len(w) == length}
            have = options.get(key)
            options[key] = fits if have is None else have & fits
    return {k: v for k, v in options.items() if v}


def _first_word(lemma: str, words: list[str], tokens: list[tuple[int, int]], options: set[int]) -> int | None:
    """The sentence's first word number: the one option, else the one option that puts a word beginning with the
    lemma's first three letters (its first word's, for ``mee te werken``-like lemmas: any of its words) at a token
    (the lemma's form at the target); ``None`` when no single one does."""
    if len(options) == 1:
        return next(iter(options))
    stems = {w[:3].casefold() for w in lemma.split() if w}
    fits = [first for first in options
            if any(0 <= n - first < len(words) and words[n - first][:3].casefold() in stems for n, _ in tokens)]
    return fits[0] if len(fits) == 1 else None


def _exemplar(mention: dict[str, Any], lemma: str, starts: dict[tuple[str, str], set[int]]) -> Example | None:
    """The exemplar of one mention: its sentence with the target from its first to its last token; ``None`` when
    the sentence's first word number is not known (:func:`_first_word`) or a token falls outside the sentence."""
    text = mention["text"]
    words = text.split(" ")
    tokens = _tokens(mention)
    options = starts.get((str(mention.get("doc")), text))
    first = _first_word(lemma, words, tokens, options) if options and tokens else None
    if first is None:
        return None
    at = [0]
    for w in words:
        at.append(at[-1] + len(w) + 1)
    positions = sorted(n - first for n, _ in tokens)
    if positions[0] < 0 or positions[-1] >= len(words):
        return None
    return Example(text, at[positions[0]], at[positions[-1]] + len(words[positions[-1]]))


def read_odfn(path: str | Path, *, progress: Callable[[str, int, int], None] | None = None) -> LexiconData:
    """Read the Open Dutch FrameNet Lexicon (module docstring): LUs in FrameNet 1.7's frames, manual exemplars.

    Raises:
        FbagentError: a damaged file (``FILE:LINE``: JSON syntax, an entry without lemma, pos or frames), a path
            holding no such file.
    """
    files = _files(Path(path))
    entries = _merged(files)
    starts = sentence_starts(_mentions(entries))
    frames: dict[str, Frame] = {}
    lus: dict[tuple[str, str], LexicalUnit] = {}
    counts = _Counts(files=[p.name for p in files])
    is_english = {t: english(t) for t in {m["text"] for m in _mentions(entries)}}
    for i, entry in enumerate(entries.values(), 1):
        said = _entry_mentions(entry)
        if said and all(is_english[m["text"]] for m in said):
            counts.english_entries.append(f"{entry['lemma']}:{entry['pos']}")
            continue
        pos, suffix = UD_POS.get(entry["pos"], (entry["pos"].upper(), entry["pos"].lower()))
        name = f"{entry['lemma']}.{suffix}" if suffix else entry["lemma"]
        for key, links in entry["frames"].items():
            frame, fe = frame_name(key)
            target = frames.setdefault(frame, Frame(frame, None, "", ""))
            if fe is not None:
                counts.fe_links += 1
                if fe not in {x.name for x in target.frame_elements}:
                    target.frame_elements.append(FrameElement(fe, ""))
                continue
            lu = lus.setdefault((name, frame), LexicalUnit(name=name, lemma=entry["lemma"], pos=pos, frame=frame))
            _annotate(lu, links, starts, counts, is_english)
        if progress and i % 500 == 0:
            progress("entries", i, len(entries))
    return LexiconData(list(frames.values()), list(lus.values()), [], fingerprint(PARSER_VERSION, files),
                       _warnings(counts), _notes(counts), known("odfn", NAME))


def _annotate(lu: LexicalUnit, annotations: list[dict[str, Any]], starts: dict[tuple[str, str], set[int]],
              counts: _Counts, is_english: dict[str, bool]) -> None:
    """Add one frame association's annotations to ``lu``: manual mentions of Dutch sentences as exemplars (once
    each; English ones counted), the RBN definition, the number of those mentions as ``n_annotated``."""
    seen = {(e.text, e.target_start, e.target_end) for e in lu.exemplars}
    for a in annotations:
        if a.get("definition") and not lu.definition:
            lu.definition = " ".join(str(a["definition"]).split())
        if a.get("status") != "manual":
            counts.not_manual += 1
            continue
        for m in a.get("mention") or []:
            if not (isinstance(m, dict) and isinstance(m.get("text"), str)):
                continue
            if is_english[m["text"]]:
                counts.english_mentions += 1
                continue
            lu.n_annotated += 1
            ex = _exemplar(m, lu.lemma, starts)
            if ex is None:
                counts.no_target += 1
            elif (ex.text, ex.target_start, ex.target_end) not in seen:
                seen.add((ex.text, ex.target_start, ex.target_end))
                lu.exemplars.append(ex)


def _warnings(counts: _Counts) -> list[str]:
    out = []
    if counts.no_target:
        out.append(f"{counts.no_target:,} manual mention(s) whose target word could not be placed in its sentence "
                   "(no single first word number fits every mention of that sentence); left out")
    if counts.english_entries:
        shown = ", ".join(counts.english_entries[:5]) + ("..." if len(counts.english_entries) > 5 else "")
        out.append(f"{len(counts.english_entries):,} entr(y/ies) annotated only in English sentences (the DataToText "
                   f"corpus holds English texts too): {shown}; left out")
    if counts.english_mentions:
        out.append(f"{counts.english_mentions:,} manual mention(s) in English sentences left out as exemplars")
    return out


def _notes(counts: _Counts) -> list[str]:
    notes = [f"read {', '.join(counts.files)}"]
    if counts.fe_links:
        notes.append(f"{counts.fe_links:,} frame-element association(s) (fn17-FRAME@FE keys) added as FE names, "
                     "not as LUs")
    if counts.not_manual:
        notes.append(f"{counts.not_manual:,} system/automatic annotation(s) (open-sesame, RBN mapping) counted for "
                     "no exemplar: only manual annotations become exemplars")
    return notes
