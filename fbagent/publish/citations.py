"""Which works a dataset card cites: FrameBench and SemBench always, and the FrameNet each exported
entry's lexicon came from, chosen from the lexicon's recorded metadata (language, name, release).

Entries live in ``citations.bib`` beside this module, keyed as below. A lexicon no rule recognises is
named with its recorded metadata and no invented reference.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

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


def bib_entries() -> dict[str, str]:
    """``{key: entry text}`` of ``citations.bib``, in file order."""
    text = BIB.read_text(encoding="utf-8")
    out = {}
    for chunk in re.split(r"\n(?=@)", text.strip()):
        m = re.match(r"@\w+\{([^,]+),", chunk)
        if m:
            out[m.group(1)] = chunk.strip()
    return out


def lexicon_sources(lexicons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One ``{"lexicon", "lang", "release", "source", "keys"}`` per lexicon (facts of
    :func:`fbagent.publish.provenance.lexicon_facts`): ``source`` is the FrameNet it came from and
    ``keys`` its citation keys, or ``source`` None and ``keys`` () when no rule recognises it."""
    out = []
    for lx in lexicons:
        source, keys = next(((name, keys) for name, test, keys in FRAMENETS if test(lx)), (None, ()))
        out.append({"lexicon": lx["name"], "lang": lx["lang"], "release": lx.get("release"), "source": source,
                    "keys": keys})
    return out


def bibtex(lexicons: list[dict[str, Any]]) -> str:
    """The BibTeX of FrameBench, SemBench and the FrameNets of ``lexicons`` (each entry once)."""
    entries = bib_entries()
    keys = [FRAMEBENCH, SEMBENCH]
    for src in lexicon_sources(lexicons):
        keys += [k for k in src["keys"] if k not in keys]
    return "\n\n".join(entries[k] for k in keys)
