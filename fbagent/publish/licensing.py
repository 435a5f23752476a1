"""The licence of a Hugging Face export, from the terms of its sources, and the card's licensing section.

Each exported entry's lexicon carries its licence, where that came from and its citation (schema 11,
:mod:`fbagent.lexicon.provenance`). A lexicon stored before licences were recorded reads ``unknown``; a rule of
:mod:`fbagent.publish.citations` may still recognise it (an English NLTK-layout lexicon is Berkeley FrameNet:
CC-BY-4.0, "recognised at export"). :func:`decide` gives the card's licence:

- no ``--license``: :func:`fbagent.framenet.licences.combined_licence` of the sources (CC BY from Berkeley
  FrameNet; CC BY-NC-SA 4.0 from a CC BY-NC-SA source; GPL-3.0 from a GPL-3.0 source; ``other`` when no
  single licence keeps every source's terms; ``unknown`` when no source states one);
- ``--license X``: X, unless it drops a non-commercial, share-alike, no-derivatives or research-only term of a
  source (:func:`fbagent.framenet.licences.dropped_terms`): refused in one line naming the source and its
  terms, unless ``--force-license`` (the card then says which terms were dropped, by whom).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fbagent.errors import FbagentError
from fbagent.framenet import licences
from fbagent.framenet.releases import ASFALDA_LICENSE, BERKELEY_LICENSE
from fbagent.publish.citations import EMBEDDED_SOURCE, lexicon_sources

#: what a rule of :mod:`fbagent.publish.citations` gives a lexicon stored without a licence (older databases)
RECOGNISED = {"Berkeley FrameNet": BERKELEY_LICENSE, "ASFALDA French FrameNet": ASFALDA_LICENSE,
              EMBEDDED_SOURCE: "Apache-2.0"}


@dataclass(frozen=True)
class Source:
    """One lexicon of the export: ``lexicon`` (its name), ``source`` (the FrameNet it is, or None), ``licence``
    (as stored or recognised), ``licence_source`` (where that came from), ``keys`` (its citation keys) and
    ``url``."""

    lexicon: str
    source: str | None
    licence: str
    licence_source: str
    keys: tuple[str, ...]
    url: str = ""

    @property
    def unknown(self) -> bool:
        """Whether nobody stated this source's licence."""
        return not licences.terms(self.licence).known


@dataclass(frozen=True)
class Licensing:
    """The card's licence: ``licence`` (a Hub id), ``how`` (the words after it on the licence line),
    ``sources``, ``combination`` (what the sources' terms give) and ``dropped`` (``[(lexicon, licence, terms)]``
    that a forced ``--license`` drops)."""

    licence: str
    how: str
    sources: list[Source]
    combination: licences.Combination
    dropped: list[tuple[str, str, list[str]]] = field(default_factory=list)


def sources(lexicons: list[dict[str, Any]]) -> list[Source]:
    """The :class:`Source` of each lexicon (facts of :func:`fbagent.publish.provenance.lexicon_facts`)."""
    out = []
    for lx, src in zip(lexicons, lexicon_sources(lexicons), strict=True):
        licence, where = lx.get("license") or licences.UNKNOWN, lx.get("license_source") or licences.UNKNOWN
        if licence == licences.UNKNOWN and src["source"] in RECOGNISED:
            licence = RECOGNISED[src["source"]]
            where = (f"recognised at export as {src['source']} (language {lx['lang']}, format {lx['format']}); "
                     "the lexicon was stored without a licence")
        out.append(Source(lx["name"], src["source"], licence, where, src["keys"], lx.get("url") or ""))
    return out


def decide(lexicons: list[dict[str, Any]], chosen: str | None, force: bool = False) -> Licensing:
    """The licence of an export of ``lexicons`` (module docstring).

    Raises :class:`FbagentError` in one line when ``chosen`` drops a term of a source and ``force`` is False:
    the source, its licence and the dropped terms, and the fix (the default licence, or ``--force-license``).
    """
    srcs = sources(lexicons)
    combo = licences.combined_licence({s.lexicon: s.licence for s in srcs})
    if chosen is None:
        return Licensing(combo.licence, f"from the terms of its sources: {combo.why}", srcs, combo)
    dropped = [(s.lexicon, s.licence, d) for s in srcs if (d := licences.dropped_terms(chosen, s.licence))]
    if dropped and not force:
        what = "; ".join(f"lexicon {name} is {lic} ({', '.join(terms)})" for name, lic, terms in dropped)
        raise FbagentError(f"--license {chosen} drops terms of the data it is made from: {what}; nothing was written",
                           f"export without --license (the card then carries {combo.licence}, the terms of its "
                           f"sources) or with --license {combo.licence}; --force-license publishes under {chosen} "
                           "anyway (only if you hold other rights to the sources)")
    if dropped:
        what = "; ".join(f"{name} ({lic}): {', '.join(terms)}" for name, lic, terms in dropped)
        return Licensing(chosen, f"chosen by the exporter with --force-license, dropping terms of its sources: {what}",
                         srcs, combo, dropped)
    return Licensing(chosen, "chosen by the exporter with --license; it keeps the terms of every source "
                             "fbagent could read", srcs, combo)


def source_rows(lic: Licensing) -> list[list[str]]:
    """The rows of the card's licensing table: lexicon, source, licence, where the licence came from, citation keys."""
    return [[f"`{s.lexicon}`", s.source or "not recognised", s.licence,
             "not stated" if s.licence_source == licences.UNKNOWN else s.licence_source,
             ", ".join(f"`{k}`" for k in s.keys) or "none stored"] for s in lic.sources]


def licensing_notes(lic: Licensing) -> list[str]:
    """Sentences the card adds under the table: which sources' licence is unknown, and a conflict of terms."""
    notes = []
    unknown = [s.lexicon for s in lic.sources if s.unknown]
    if unknown:
        notes.append("The licence of " + ", ".join(f"`{n}`" for n in unknown) + " is unknown: nobody stated it to "
                     "fbagent (a lexicon stored before licences were recorded, or added without `--license`). Check "
                     "its terms before publishing; `fbagent lexicon add PATH --license ID` records them.")
    if lic.combination.conflict:
        notes.append(f"No single licence keeps every source's terms ({lic.combination.why}); the licence is "
                     "`other`: each language's data keeps its own source's terms.")
    return notes
