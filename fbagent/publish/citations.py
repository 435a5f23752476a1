"""Which works a dataset card cites: FrameBench and SemBench always, and the FrameNet each exported
entry's lexicon came from: the BibTeX stored with the lexicon (``lexicon add``: a known release's, the file's
declaration or ``--citation``), else the entries a rule below recognises from the lexicon's recorded metadata
(language, name, release: lexicons stored before citations were recorded).

FrameBench's and SemBench's entries live in ``citations.bib`` beside this module; the FrameNet releases' in
:mod:`fbagent.framenet.releases` (one text for the lexicon and the card). A lexicon neither names is named
with its recorded metadata and no invented reference.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fbagent.framenet.releases import ASFALDA_BIBTEX, BERKELEY_BIBTEX
from fbagent.languages import base_lang

BIB = Path(__file__).with_name("citations.bib")
FRAMEBENCH = "yano-sasano-2026-framebench"
SEMBENCH = "zubillaga-etal-2026-sembench"
EMBEDDED_SOURCE = "fbagent's embedded sample (Berkeley FrameNet frame names, own definitions and examples)"
#: the FrameNet releases the card recognises: (name, test on the lexicon facts, keys). fbagent's embedded
#: sample (``sample-en``) is its own wording under Berkeley frame names: credited as such, citing no release.
#: An English lexicon in the NLTK layout is Berkeley FrameNet; a JSONL one only when its name or release says so.
FRAMENETS: tuple[tuple[str, Any, tuple[str, ...]], ...] = (
    (EMBEDDED_SOURCE, lambda lx: lx["format"] == "embedded", ()),
    ("Berkeley FrameNet", lambda lx: base_lang(lx["lang"]) == "en" and (
        lx["format"] == "nltk" or "framenet" in f"{lx['name']} {lx.get('release') or ''}".lower()),
     ("baker-etal-1998-berkeley", "ruppenhofer-etal-2016-framenet")),
    ("ASFALDA French FrameNet", lambda lx: "asfalda" in f"{lx['name']} {lx.get('release') or ''}".lower(),
     ("candito-etal-2014-developing", "djemaa-etal-2016-corpus")),
)


def parse_bibtex(text: str) -> dict[str, str]:
    """``{key: entry text}`` of the BibTeX entries in ``text`` (``@type{key, ...}``), in order."""
    out = {}
    for chunk in re.split(r"\n\s*(?=@)", (text or "").strip()):
        m = re.match(r"\s*@\s*\w+\s*\{\s*([^,\s]+)\s*,", chunk)
        if m:
            out[m.group(1)] = chunk.strip()
    return out


def bib_entries() -> dict[str, str]:
    """``{key: entry text}`` of ``citations.bib`` and the known releases' BibTeX, in that order."""
    out = parse_bibtex(BIB.read_text(encoding="utf-8"))
    for text in (BERKELEY_BIBTEX, ASFALDA_BIBTEX):
        out.update(parse_bibtex(text))
    return out


def lexicon_sources(lexicons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One ``{"lexicon", "lang", "release", "source", "keys", "entries"}`` per lexicon (facts of
    :func:`fbagent.publish.provenance.lexicon_facts`): ``source`` is the FrameNet it came from (a rule's name,
    else the release name stored with the lexicon, else None); ``keys`` its citation keys and ``entries``
    ``{key: BibTeX}``: the stored citation's, else the rule's, else none."""
    out = []
    known = bib_entries()
    for lx in lexicons:
        source, keys = next(((name, keys) for name, test, keys in FRAMENETS if test(lx)), (None, ()))
        stored = parse_bibtex(lx.get("citation") or "")
        entries = stored or {k: known[k] for k in keys}
        out.append({"lexicon": lx["name"], "lang": lx["lang"], "release": lx.get("release"),
                    "source": source or lx.get("source_name") or None, "keys": tuple(entries), "entries": entries})
    return out


def _title(entry: str) -> str:
    """The title of a BibTeX entry, lower case, letters and digits only (two keys for one work share it)."""
    m = re.search(r"\btitle\s*=\s*[{\"](.*?)[}\"]\s*,?\s*\n", entry, flags=re.I | re.S)
    return re.sub(r"[^a-z0-9]", "", m.group(1).lower()) if m else entry


def bibtex(lexicons: list[dict[str, Any]]) -> str:
    """The BibTeX of FrameBench, SemBench and the FrameNets of ``lexicons``: each key once, and each work once
    (an entry whose title an earlier entry has is left out: lexicons cite FrameNet 1.7 under their own keys)."""
    known = bib_entries()
    entries = {FRAMEBENCH: known[FRAMEBENCH], SEMBENCH: known[SEMBENCH]}
    titles = {_title(t) for t in entries.values()}
    for src in lexicon_sources(lexicons):
        for key, text in src["entries"].items():
            if key not in entries and _title(text) not in titles:
                entries[key] = text
                titles.add(_title(text))
    return "\n\n".join(entries.values())
