"""Read the Swedish FrameNet (SweFN, Språkbanken Text) as published: ``swefn.xml``, Språkbanken's LMF.

Layout (one ``LexicalEntry`` a frame; the feature names are those Språkbanken's own LMF/JSON converter for Karp
reads and writes)::

    <LexicalResource xmlns:karp="http://spraakbanken.gu.se/eng/research/infrastructure/karp/karp">
      <Lexicon>
        <LexicalEntry>
          <Lemma/>
          <Sense id="swefn--Ingestion">
            <feat att="BFNID" val="Ingestion"/>        the Berkeley frame it follows (BFN in some copies)
            <feat att="LU" val="äta..1"/>              each LU: a SALDO sense id, lemma..N
            <feat att="coreElement" val="Ingestor"/>   frame elements (also peripheralElement)
            <karp:definition>...</karp:definition>     the frame's Swedish definition (older copies: feat definition)
            <karp:example>                             an annotated sentence, in order: plain text and elements
              <karp:e n="0" name="Ingestor">Hon</karp:e>
              <karp:e n="1" name="LU">åt</karp:e>      the target (the frame's LU in this sentence)
              <karp:e n="2" name="Ingestibles">en smörgås</karp:e>
              <karp:text n="3">.</karp:text>
            </karp:example>
          </Sense>
        </LexicalEntry>
      </Lexicon>
    </LexicalResource>

Frames are named by their Berkeley frame (``BFNID``/``BFN``; SweFN-only frames keep the name of their sense id
after ``swefn--``), with SweFN's Swedish definition and FE names (core or peripheral); ``--frames-from`` adds
Berkeley's definitions, core types and relations as for the other readers. An LU is ``lemma.pos`` with the lemma
of its SALDO sense (``äta..1`` -> ``äta``). ``swefn.xml`` gives no part of speech: it comes from SALDO's own LMF
(``saldo.xml``, CC BY 4.0) when that file lies beside ``swefn.xml`` (``äta..vb.1`` -> ``V``); without it the LUs
have no POS, so none is a verb, and the import says so. An example becomes an exemplar of the frame's LU whose
lemma its target (the elements named ``LU``, from the first to the last) is a form of (the same word, the word's
simplemma lemma, or a word that begins with the lemma's stem, when exactly one LU fits); others are left out and
counted in a warning. Segments are joined with one space (none before closing punctuation).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import simplemma

from fbagent.errors import FbagentError
from fbagent.framenet.model import Example, Frame, FrameElement, LexicalUnit, LexiconData
from fbagent.lexicon.releases import known
from fbagent.lexicon.source_files import damaged, fingerprint, line_of, xml_encoding_error

NAME = "swefn"
LAYOUT = "Swedish FrameNet (swefn.xml)"
PARSER_VERSION = "swefn-reader/1"
FILE = "swefn.xml"
SALDO_FILE = "saldo.xml"
SENSE_PREFIX = "swefn--"
#: a SALDO sense id: the lemma, two dots, the sense number (``äta..1``, ``ge upp..2``)
SALDO_SENSE = re.compile(r"^(?P<lemma>.+?)\.\.(?P<n>\d+)$")
#: SALDO's parts of speech (multiword ones end in m: vbm, nnm...) -> (fbagent POS, LU name suffix)
SALDO_POS: dict[str, tuple[str, str]] = {
    "vb": ("V", "v"), "nn": ("N", "n"), "av": ("A", "a"), "ab": ("ADV", "adv"), "pp": ("PREP", "prep"),
    "pn": ("PRON", "pron"), "nl": ("NUM", "num"), "kn": ("CONJ", "c"), "sn": ("SCON", "scon"),
    "in": ("INTJ", "intj"), "pm": ("N", "n"),
}
_CLOSING = re.compile(r"^[.,!?;:)\]»”'\"%]")


def find_file(path: Path) -> Path | None:
    """The SweFN LMF at ``path`` (the file, or ``swefn.xml`` in the folder): an XML file whose root element is
    ``<LexicalResource>`` and whose senses are ``swefn--`` ids (read from its first 64 KiB); ``None`` otherwise."""
    candidate = path if path.is_file() else path / FILE
    if not candidate.is_file() or candidate.suffix.lower() != ".xml":
        return None
    with candidate.open("rb") as fh:
        head = fh.read(65536)
    body = re.sub(rb"^(\xef\xbb\xbf)?\s*(<\?xml[^>]*\?>\s*)?(<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*", b"", head, flags=re.S)
    if not body.startswith(b"<LexicalResource"):
        return None
    return candidate if b'id="swefn--' in head or candidate.name.lower() == FILE else None


def detect(path: Path) -> bool:
    """Whether ``path`` is (or holds) SweFN's ``swefn.xml``."""
    return find_file(path) is not None


def _file(path: Path) -> Path:
    found = find_file(Path(path).expanduser())
    if found is None:
        raise FbagentError(f"{path}: no Swedish FrameNet LMF (a {FILE} whose root is <LexicalResource> with swefn-- "
                           "senses)", "point PATH at swefn.xml as Språkbanken publishes it, or pass another --format")
    return found


def _files(xml_path: Path) -> list[Path]:
    saldo = xml_path.parent / SALDO_FILE
    return [xml_path, saldo] if saldo.is_file() else [xml_path]


def source_hash(path: Path) -> str:
    """The content hash of ``swefn.xml`` and, when it lies beside it, SALDO's ``saldo.xml``."""
    return fingerprint(PARSER_VERSION, _files(_file(path)))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


@dataclass
class _Entry:
    """One ``Sense`` of swefn.xml: its id, frame name, LU sense ids, FEs, definition and examples (elements)."""

    sense_id: str
    frame: str
    lus: list[str]
    fes: list[FrameElement]
    definition: str
    examples: list[ET.Element]


def _parse(xml_path: Path) -> Iterator[_Entry]:
    """The frame entries of ``swefn.xml`` in file order; malformed XML or an entry without its parts is damage."""
    try:
        for _, el in ET.iterparse(xml_path):
            if el.tag == "Sense":
                yield _entry(xml_path, el)
                el.clear()
    except ET.ParseError as err:
        if (encoding := xml_encoding_error(xml_path)) is not None:
            raise encoding from err
        line, column = err.position
        raise damaged(xml_path, line, f"malformed XML ({str(err).split(':')[0]}, column {column})", LAYOUT) from err


def _entry(xml_path: Path, sense: ET.Element) -> _Entry:
    """One ``Sense`` read into an :class:`_Entry` (damage: no ``swefn--`` id, an LU that is no SALDO sense)."""
    sense_id = sense.get("id") or ""
    if not sense_id.startswith(SENSE_PREFIX) or len(sense_id) == len(SENSE_PREFIX):
        raise damaged(xml_path, line_of(xml_path, f'<Sense id="{sense_id}"') if sense_id else None,
                      f"a <Sense> whose id {sense_id!r} is not swefn--FRAME", LAYOUT)
    feats: dict[str, list[str]] = {}
    for feat in sense.findall("feat"):
        feats.setdefault(feat.get("att") or "", []).append((feat.get("val") or "").strip())
    for lu in feats.get("LU", []):
        if not SALDO_SENSE.match(lu):
            raise damaged(xml_path, line_of(xml_path, f'val="{lu}"') or line_of(xml_path, f'id="{sense_id}"'),
                          f"LU {lu!r} of {sense_id} is not a SALDO sense id (lemma..N)", LAYOUT)
    frame = next((v for att in ("BFNID", "BFN") for v in feats.get(att, []) if v), sense_id[len(SENSE_PREFIX):])
    fes = [FrameElement(v, "Core") for v in feats.get("coreElement", []) if v]
    fes += [FrameElement(v, "Peripheral") for v in feats.get("peripheralElement", []) if v]
    definition = " ".join(" ".join(d.itertext()).split()) if (d := _child(sense, "definition")) is not None else ""
    definition = definition or " ".join(feats.get("definition", []))
    examples = [child for child in sense if _local(child.tag) == "example"]
    return _Entry(sense_id, frame, list(dict.fromkeys(feats.get("LU", []))), fes, definition, examples)


def _child(el: ET.Element, local: str) -> ET.Element | None:
    return next((c for c in el if _local(c.tag) == local), None)


def saldo_pos(path: Path, wanted: set[str]) -> dict[str, str]:
    """``{SALDO sense id: SALDO POS}`` for the ``wanted`` senses from SALDO's LMF (``LexicalEntry`` > ``Lemma`` >
    ``FormRepresentation`` > ``feat partOfSpeech``, ``Sense id``); malformed XML is damage (``FILE:LINE``)."""
    found: dict[str, str] = {}
    try:
        for _, el in ET.iterparse(path):
            if el.tag != "LexicalEntry":
                continue
            pos = next((f.get("val") or "" for f in el.iter("feat") if f.get("att") == "partOfSpeech"), "")
            for sense in el.iter("Sense"):
                if (sid := sense.get("id") or "") in wanted:
                    found[sid] = pos
            el.clear()
    except ET.ParseError as err:
        if (encoding := xml_encoding_error(path)) is not None:
            raise encoding from err
        line, column = err.position
        raise damaged(path, line, f"malformed XML ({str(err).split(':')[0]}, column {column})", "SALDO") from err
    return found


def _example(el: ET.Element) -> tuple[str, tuple[int, int] | None, str]:
    """``(sentence, (target start, end) or None, target text)`` of one ``karp:example``: its segments in document
    order joined with one space (none before closing punctuation); the target spans the elements named ``LU``."""
    parts: list[str] = []
    span: list[int] = []

    def add(text: str | None) -> None:
        chunk = " ".join((text or "").split())
        if chunk:
            parts.append(("" if not parts or _CLOSING.match(chunk) else " ") + chunk)

    def walk(node: ET.Element) -> None:
        is_target = (node.get("name") or "").upper() == "LU"
        at = len("".join(parts))
        add(node.text)
        for child in node:
            walk(child)
            add(child.tail)
        if is_target and len("".join(parts)) > at:
            start = at + (1 if "".join(parts)[at:at + 1] == " " else 0)
            span.extend((start, len("".join(parts))))

    walk(el)
    sentence = "".join(parts)
    if not span:
        return sentence, None, ""
    start, end = min(span[::2]), max(span[1::2])
    return sentence, (start, end), sentence[start:end]


def pos_tag(saldo: str) -> tuple[str, str]:
    """``(fbagent POS, LU name suffix)`` of a SALDO part of speech (``vb``, multiword ``vbm``); ``("", "")`` for
    none or one fbagent does not map."""
    return SALDO_POS.get(saldo) or SALDO_POS.get(saldo[:-1] if saldo.endswith("m") else "", ("", ""))


def _lemma_of(word: str) -> str:
    return str(simplemma.lemmatize(word, lang="sv")).casefold()


def match_lu(target: str, lemmas: list[str]) -> str | None:
    """The one lemma of ``lemmas`` whose form ``target`` is (module docstring: the same word, its simplemma lemma,
    or a word beginning with the lemma's stem, the lemma less a final vowel, at least 3 letters); ``None`` when none
    or several fit at the best level. Multiword targets compare their first word with the lemma's."""
    words = target.casefold().split()
    if not words:
        return None
    first = words[0]
    tests: list[Callable[[str], bool]] = [
        lambda lemma: lemma.casefold() == target.casefold(),
        lambda lemma: lemma.casefold().split()[0] == _lemma_of(first),
        lambda lemma: len(stem := re.sub(r"[aeiouyåäö]$", "", lemma.casefold().split()[0])) >= 3
        and first.startswith(stem),
    ]
    for test in tests:
        fits = [lemma for lemma in dict.fromkeys(lemmas) if test(lemma)]
        if len(fits) == 1:
            return fits[0]
        if fits:
            return None
    return None


def read_swefn(path: str | Path, *, progress: Callable[[str, int, int], None] | None = None) -> LexiconData:
    """Read SweFN's ``swefn.xml`` (module docstring): frames by Berkeley name, LUs from SALDO senses, exemplars.

    Raises:
        FbagentError: malformed XML or a damaged entry (``FILE:LINE``), a path holding no such file.
    """
    xml_path = _file(Path(path))
    entries = list(_parse(xml_path))
    saldo_path = xml_path.parent / SALDO_FILE
    wanted = {lu for e in entries for lu in e.lus}
    pos_of = saldo_pos(saldo_path, wanted) if saldo_path.is_file() else {}
    frames: list[Frame] = []
    lus: dict[tuple[str, str], LexicalUnit] = {}
    left_out = no_target = 0
    for i, entry in enumerate(entries, 1):
        frames.append(Frame(entry.frame, None, entry.definition, entry.definition, [], entry.fes))
        by_lemma: dict[str, LexicalUnit] = {}
        for sense in entry.lus:
            lemma = SALDO_SENSE.match(sense).group("lemma")  # type: ignore[union-attr]  # checked in _entry
            pos, suffix = pos_tag(pos_of.get(sense, ""))
            name = f"{lemma}.{suffix}" if suffix else lemma
            lu = lus.setdefault((name, entry.frame), LexicalUnit(name=name, lemma=lemma, pos=pos, frame=entry.frame))
            by_lemma.setdefault(lemma, lu)
        for example in entry.examples:
            sentence, span, target = _example(example)
            if span is None:
                no_target += 1
                continue
            lemma = match_lu(target, list(by_lemma))
            if lemma is None:
                left_out += 1
                continue
            by_lemma[lemma].exemplars.append(Example(sentence, *span))
        if progress:
            progress("frames", i, len(entries))
    for lu in lus.values():
        lu.n_annotated = len(lu.exemplars)
    return LexiconData(frames, list(lus.values()), [], fingerprint(PARSER_VERSION, _files(xml_path)),
                       _warnings(saldo_path, pos_of, wanted, left_out, no_target), _notes(saldo_path, pos_of),
                       known("swefn", NAME))


def _warnings(saldo: Path, pos_of: dict[str, str], wanted: set[str], left_out: int, no_target: int) -> list[str]:
    warnings = []
    if not saldo.is_file():
        warnings.append(f"swefn.xml gives no part of speech (its LUs are SALDO senses such as äta..1) and no "
                        f"{SALDO_FILE} lies beside it: no LU is known to be a verb, so no pair can be drawn; put "
                        "SALDO's saldo.xml (Språkbanken, CC BY 4.0) in the same folder and import again")
    elif missing := len(wanted) - len(pos_of):
        warnings.append(f"{missing:,} LU sense(s) are not in {saldo}: imported without a part of speech")
    if left_out:
        warnings.append(f"{left_out:,} example(s) whose target is no form of exactly one LU of its frame; left out")
    if no_target:
        warnings.append(f"{no_target:,} example(s) without a target (no element named LU); left out")
    return warnings


def _notes(saldo: Path, pos_of: dict[str, str]) -> list[str]:
    if not pos_of:
        return []
    return [f"parts of speech of {len(pos_of):,} LU sense(s) from SALDO ({saldo.name} beside swefn.xml)"]
