"""Read Starlang's Turkish FrameNet XML (StarlangSoftware/TurkishFrameNet), its LUs resolved through KeNet.

Layout (``framenet.xml``, or a folder holding it, also as ``src/main/resources/framenet.xml``)::

    <FRAMENET>
      <FRAME NAME="Abandonment">
        <LEXICAL_UNITS><LEXICAL_UNIT>TUR10-0100120</LEXICAL_UNIT>...</LEXICAL_UNITS>
        <FRAME_ELEMENTS><FRAME_ELEMENT>Agent</FRAME_ELEMENT>...</FRAME_ELEMENTS>
      </FRAME>
    </FRAMENET>

An LU is a synset id of KeNet, the Turkish wordnet, shipped as ``WordNet/data/turkish_wordnet.xml`` in the PyPI
package ``nlptoolkit-wordnet`` (GPL-3.0; the ``tr`` extra). Each literal of the synset becomes an LU in the frame
(``bırakmak.v``: lemma, POS from the synset's ``<POS>``), with the synset's ``<DEF>`` as its definition and the
synset's ``<EXAMPLE>`` sentences (``|`` between them) as exemplars of the literal it contains (the target: the literal's stem, the
infinitive's -mak/-mek removed, at the start of a word; no literal found: the first literal, no target). KeNet's
examples are dictionary sentences, not FrameNet annotation: ``n_annotated`` stays 0. The release has no frame
definitions and no frame relations (``--frames-from`` borrows Berkeley's); its FE names come without core types.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.framenet.model import Example, Frame, FrameElement, LexicalUnit, LexiconData
from fbagent.lexicon.releases import known
from fbagent.lexicon.source_files import fingerprint, xml_encoding_error

NAME = "starlang"
LAYOUT = "Turkish FrameNet XML"
PARSER_VERSION = "starlang-reader/1"
FILE = "framenet.xml"
KENET_PACKAGE = "nlptoolkit-wordnet"
POS = {"v": "V", "n": "N", "adj": "A", "adv": "ADV", "prep": "PREP", "conj": "CONJ", "pron": "PRON", "interj": "INTJ"}


def find_file(path: Path) -> Path | None:
    """The Turkish FrameNet XML at or under ``path`` (the file, ``framenet.xml``, ``src/main/resources/framenet.xml``)
    when its root element is ``<FRAMENET>``; ``None`` otherwise."""
    candidates = [path] if path.is_file() else [path / FILE, path / "src" / "main" / "resources" / FILE]
    for candidate in candidates:
        if candidate.is_file() and candidate.suffix.lower() == ".xml":
            with candidate.open("rb") as fh:
                head = fh.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
            if re.match(rb"(<\?xml[^>]*\?>\s*)?<FRAMENET[\s>]", head):
                return candidate
    return None


def detect(path: Path) -> bool:
    """Whether ``path`` is (or holds) a Turkish FrameNet XML file."""
    return find_file(path) is not None


def source_hash(path: Path) -> str:
    """The content hash of the XML file (KeNet's version is part of the package, not hashed)."""
    return fingerprint(PARSER_VERSION, [_file(path)])


def _file(path: Path) -> Path:
    found = find_file(Path(path).expanduser())
    if found is None:
        raise FbagentError(f"{path}: no Turkish FrameNet XML (a {FILE} whose root is <FRAMENET>)",
                           "point PATH at the TurkishFrameNet checkout or its framenet.xml, or pass another --format")
    return found


@dataclass(frozen=True)
class Synset:
    """A KeNet synset: its ``literals`` (in order), ``pos`` (KeNet's tag), ``definition`` and ``example``."""

    literals: tuple[str, ...]
    pos: str
    definition: str
    example: str


def kenet_path() -> Path:
    """The KeNet XML of the installed ``nlptoolkit-wordnet``; :class:`FbagentError` (which extra to install) without it."""
    if find_spec("WordNet") is None or not resources.files("WordNet").joinpath("data/turkish_wordnet.xml").is_file():
        raise FbagentError("the Turkish FrameNet names its LUs by KeNet synset ids, and KeNet (the Turkish wordnet, "
                           f"PyPI {KENET_PACKAGE}) is not installed",
                           "pip install 'fbagent[tr]' (nlptoolkit-wordnet, GPL-3.0), then rerun")
    return Path(str(resources.files("WordNet").joinpath("data/turkish_wordnet.xml")))


@cache
def kenet(path: Path) -> dict[str, Synset]:
    """Every synset of the KeNet XML at ``path`` by id (about 78,000; 3 s)."""
    synsets: dict[str, Synset] = {}
    for _, el in ET.iterparse(path):
        if el.tag == "SYNSET":
            literals = tuple((lit.text or "").strip() for lit in el.iter("LITERAL") if (lit.text or "").strip())
            synsets[(el.findtext("ID") or "").strip()] = Synset(
                literals, (el.findtext("POS") or "").strip(), (el.findtext("DEF") or "").strip(),
                (el.findtext("EXAMPLE") or "").strip())
            el.clear()
    return synsets


def read_starlang(path: str | Path, *, progress: Callable[[str, int, int], None] | None = None) -> LexiconData:
    """Read the Turkish FrameNet XML (module docstring) with its LUs resolved through KeNet.

    Raises:
        FbagentError: malformed XML (``FILE:LINE``), KeNet not installed (the extra to install), a folder that
            holds no such file.
    """
    xml_path = _file(Path(path))
    try:
        root = ET.parse(xml_path).getroot()
    except ET.ParseError as err:
        if (encoding := xml_encoding_error(xml_path)) is not None:
            raise encoding from err
        line, column = err.position
        raise FbagentError(f"{xml_path}:{line}: malformed XML ({str(err).split(':')[0]}, column {column})",
                           f"repair that line or fetch the {LAYOUT} file again; nothing was imported") from err
    synsets = kenet(kenet_path())
    frames: list[Frame] = []
    lus: dict[tuple[str, str], LexicalUnit] = {}
    unknown_ids: list[str] = []
    all_frames = root.findall("FRAME")
    for i, el in enumerate(all_frames, 1):
        name = (el.get("NAME") or "").strip()
        fes = [FrameElement((fe.text or "").strip(), "") for fe in el.iter("FRAME_ELEMENT") if (fe.text or "").strip()]
        frames.append(Frame(name, None, "", "", [], fes))
        for lu_el in el.iter("LEXICAL_UNIT"):
            synset_id = (lu_el.text or "").strip()
            synset = synsets.get(synset_id)
            if synset is None:
                unknown_ids.append(synset_id)
                continue
            _add_synset(synset, name, lus)
        if progress:
            progress("frames", i, len(all_frames))
    warnings = []
    if unknown_ids:
        warnings.append(f"{len(unknown_ids):,} LU synset id(s) are not in the installed KeNet ({KENET_PACKAGE}): "
                        + ", ".join(unknown_ids[:5]) + ("..." if len(unknown_ids) > 5 else "") + "; left out")
    notes = ["LUs resolved through KeNet (the Turkish wordnet, nlptoolkit-wordnet): one LU per synset literal; "
             "its example sentences are dictionary examples, not FrameNet annotation (n_annotated 0)"]
    return LexiconData(frames, list(lus.values()), [], fingerprint(PARSER_VERSION, [xml_path]), warnings, notes,
                       known("turkish-framenet", NAME))


def _stem(literal: str) -> str:
    """The literal without its infinitive ending (``bırakmak`` -> ``bırak``; multiword: the last word's)."""
    return re.sub(r"m[ae]k$", "", literal) if len(literal) > 4 else literal


def _find(stem: str, sentence: str) -> tuple[int, int] | None:
    """Where the word starting with ``stem`` is in ``sentence`` (case-insensitive): ``(start, end of that word)``."""
    match = re.search(rf"(?<!\w){re.escape(stem.casefold())}\w*", sentence.casefold())
    return (match.start(), match.end()) if match and len(sentence.casefold()) == len(sentence) else None


def _add_synset(synset: Synset, frame: str, lus: dict[tuple[str, str], LexicalUnit]) -> None:
    """One LU per literal of ``synset`` in ``frame`` (merged with an LU already there); each example sentence (KeNet
    separates several with ``|``) to the literal it contains, else to the first literal without a target."""
    suffix = synset.pos or "x"
    pos = POS.get(synset.pos, synset.pos.upper())
    for literal in synset.literals:
        lus.setdefault((f"{literal}.{suffix}", frame), LexicalUnit(name=f"{literal}.{suffix}", lemma=literal, pos=pos,
                                                                    frame=frame, definition=synset.definition))
    if not synset.literals:
        return
    for sentence in (s.strip() for s in synset.example.split("|")):
        if not sentence:
            continue
        for literal in synset.literals:
            span = _find(_stem(literal), sentence)
            if span is not None:
                lus[(f"{literal}.{suffix}", frame)].exemplars.append(Example(sentence, *span))
                break
        else:
            lus[(f"{synset.literals[0]}.{suffix}", frame)].exemplars.append(Example(sentence))
