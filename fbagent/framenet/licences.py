"""The terms of a lexicon's licence, and the licence a benchmark built from several lexicons may carry.

A lexicon stores its licence as an SPDX id where one exists (``CC-BY-4.0``, ``CC-BY-NC-SA-2.0``,
``GPL-3.0-only``) or in the source's own words (``"LGPL-LR (Sequoia part); free for research (French
Treebank part)"``), or ``unknown`` (:class:`fbagent.framenet.model.Provenance`). :func:`terms` reads what
such a text obliges: attribution, non-commercial use, share-alike (Creative Commons SA, or a copyleft licence
of the GPL family: derived data under the same licence), no derivatives, research use only.

A benchmark generated from a lexicon is an adaptation of it: its sentences are new, but its frames, frame
pairs, verbs and definitions are the lexicon's. :func:`combined_licence` is the licence that keeps every
source's terms (the Creative Commons elements carried over: BY-NC-SA from a BY-NC-SA source; a GPL source
makes it GPL); :func:`dropped_terms` says which terms of a source a chosen licence drops (what ``fbagent export
--license`` refuses without ``--force-license``). Licences are compared as Hugging Face Hub licence ids
(``cc-by-nc-sa-4.0``, ``gpl-3.0``): :func:`hub_id`.

This is a reading of licence names, not legal advice; the card names each source's own terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

UNKNOWN = "unknown"
#: the Creative Commons version a combination is written in (a later version is allowed by every CC SA licence:
#: "this License, a later version of this License with the same License Elements", CC BY-SA 2.0 section 4.b)
CC_VERSION = "4.0"
_GPL = re.compile(r"\b(A|L)?GPL[-\s]?v?(\d)(?:\.\d)?", re.I)


@dataclass(frozen=True)
class Terms:
    """What one licence text obliges. ``known``: the text names a licence this module reads (else every flag is
    False and nothing can be checked); ``family``: ``cc``, ``gpl``, ``lgpl``, ``agpl``, ``lgpl-lr``,
    ``permissive``, ``public-domain`` or ``""``; ``cc_elements``: the CC elements in canonical order
    (``("by", "nc", "sa")``); ``copyleft_id``: the Hub id a GPL-family source imposes (``gpl-3.0``)."""

    text: str
    known: bool
    family: str = ""
    non_commercial: bool = False
    share_alike: bool = False
    no_derivatives: bool = False
    research_only: bool = False
    cc_elements: tuple[str, ...] = ()
    copyleft_id: str = ""

    def obligations(self) -> list[str]:
        """The restrictive terms in words: ``["non-commercial", "share-alike"]`` (``[]`` for CC BY)."""
        out = []
        if self.non_commercial:
            out.append("non-commercial")
        if self.research_only:
            out.append("research use only")
        if self.no_derivatives:
            out.append("no derivatives")
        if self.share_alike:
            out.append(f"share-alike ({self.copyleft_id})" if self.copyleft_id else "share-alike")
        return out


def _cc_elements(upper: str) -> tuple[str, ...]:
    words = set(re.findall(r"[A-Z]+", upper.replace("CC0", " ")))
    return tuple(e.lower() for e in ("BY", "NC", "ND", "SA") if e in words)


def terms(text: str | None) -> Terms:
    """The terms of a licence text (SPDX id, Hub id or the source's words; case and spacing free).

    ``"CC BY-NC-SA"`` / ``"CC-BY-NC-SA-2.0"`` / ``"cc-by-nc-sa-4.0"`` -> non-commercial, share-alike;
    ``"GPL-3.0-only"`` -> share-alike (copyleft ``gpl-3.0``); ``"LGPL-LR ...; free for research ..."`` ->
    share-alike (``lgpl-lr``) and research only; ``"unknown"``, ``""`` or an unread text -> ``known`` False.
    """
    raw = (text or "").strip()
    upper = raw.upper().replace("_", "-")
    if not raw or upper in ("UNKNOWN", "OTHER", "NOASSERTION"):
        return Terms(raw or UNKNOWN, known=False)
    research = bool(re.search(r"\bRESEARCH\b", upper)) and not re.search(r"\bCOMMERCIAL USE (IS )?ALLOWED\b", upper)
    if "LGPL-LR" in upper or "LGPLLR" in upper:
        return Terms(raw, True, "lgpl-lr", share_alike=True, research_only=research, copyleft_id="lgpl-lr")
    gpl = _GPL.search(upper)
    if gpl:
        family = {"A": "agpl", "L": "lgpl"}.get((gpl.group(1) or "").upper(), "gpl")
        version = f"{gpl.group(2)}.0" if family != "lgpl" or gpl.group(2) != "2" else "2.1"
        return Terms(raw, True, family, share_alike=True, research_only=research, copyleft_id=f"{family}-{version}")
    if upper.startswith("CC0") or "PUBLIC DOMAIN" in upper:
        return Terms(raw, True, "public-domain", research_only=research)
    if re.match(r"^(CC|CREATIVE COMMONS)\b", upper) or upper.startswith("CC-"):
        elements = _cc_elements(upper.replace("CREATIVE COMMONS", "CC"))
        if "by" not in elements:
            elements = ("by", *elements)
        return Terms(raw, True, "cc", non_commercial="nc" in elements, share_alike="sa" in elements,
                     no_derivatives="nd" in elements, research_only=research, cc_elements=elements)
    if re.match(r"^(APACHE|MIT|BSD|ISC|ODC-BY|CDLA-PERMISSIVE|UNLICENSE|ZLIB)", upper):
        return Terms(raw, True, "permissive", research_only=research)
    if research:
        return Terms(raw, True, "", research_only=True)
    return Terms(raw, known=False)


def hub_id(text: str | None) -> str:
    """The Hugging Face Hub licence id of a licence text: ``CC-BY-NC-SA-2.0`` -> ``cc-by-nc-sa-2.0``,
    ``GPL-3.0-only`` -> ``gpl-3.0``, ``Apache-2.0`` -> ``apache-2.0``; a text the Hub has no id for (the
    source's own words) -> ``other``; unknown -> ``unknown``."""
    t = terms(text)
    if not t.known:
        return UNKNOWN
    if t.copyleft_id:
        return t.copyleft_id
    if t.family == "cc":
        return "cc-" + "-".join(t.cc_elements) + f"-{cc_version(t.text) or CC_VERSION}"
    if t.family == "public-domain":
        return "cc0-1.0" if t.text.upper().startswith("CC0") else "other"
    spdx = re.fullmatch(r"[A-Za-z0-9.\-]+", t.text)
    return t.text.lower() if spdx else "other"


@dataclass(frozen=True)
class Combination:
    """The licence of a benchmark made from several sources: ``licence`` (a Hub id), ``why`` (one sentence),
    ``conflict`` (no single licence keeps every source's terms: the card says so and the licence is ``other``)
    and ``unknown`` (names of the sources whose licence nobody stated)."""

    licence: str
    why: str
    conflict: bool = False
    unknown: tuple[str, ...] = ()


def combined_licence(sources: dict[str, str]) -> Combination:
    """The licence that keeps the terms of every source (``{source name: licence text}``).

    Rules: Creative Commons sources give CC BY with every element any of them has (NC, ND, SA), in version
    :data:`CC_VERSION`; a GPL-family (or LGPL-LR) source imposes its own licence; permissive and public-domain
    sources add no term. Conflicts (two different copyleft licences; a CC SA source whose elements differ from
    the combination's, e.g. CC BY-SA with CC BY-NC-SA; a copyleft licence with a CC NC or SA source) give
    ``other`` with ``conflict`` True. Sources of unknown licence are listed in ``unknown`` and do not change
    the result; when every source is unknown the licence is ``unknown``.
    """
    read = {name: terms(text) for name, text in sources.items()}
    known = {n: t for n, t in read.items() if t.known}
    unknown = tuple(sorted(n for n, t in read.items() if not t.known))
    if not known:
        return Combination(UNKNOWN, "no source states its licence", unknown=unknown)
    copyleft = sorted({t.copyleft_id for t in known.values() if t.copyleft_id})
    cc = {n: t for n, t in known.items() if t.family == "cc"}
    elements = tuple(e for e in ("by", "nc", "nd", "sa") if any(e in t.cc_elements for t in cc.values())) or ("by",)
    if copyleft:
        clash = [n for n, t in cc.items() if t.non_commercial or t.share_alike or t.no_derivatives]
        if len(copyleft) > 1 or clash:
            what = ", ".join(copyleft + [f"{n} ({known[n].text})" for n in clash])
            return Combination("other", f"no single licence keeps the terms of {what}", True, unknown)
        return Combination(copyleft[0], f"{copyleft[0]} is share-alike (copyleft): data derived from it keeps it",
                           unknown=unknown)
    sa_clash = [n for n, t in cc.items() if t.share_alike and tuple(e for e in t.cc_elements if e != "sa")
                != tuple(e for e in elements if e != "sa")]
    if sa_clash:
        what = ", ".join(f"{n} ({known[n].text})" for n in sa_clash)
        return Combination("other", f"share-alike sources ask for their own terms and the others add terms: {what}",
                           True, unknown)
    version = sa_version(cc.values())
    licence = "cc-" + "-".join(elements) + f"-{version or CC_VERSION}"
    kept = sorted({o for t in known.values() for o in t.obligations()})
    why = (", ".join(kept) + " carried over") if kept else "attribution only"
    if version:
        why += f" (version {version}, the one its share-alike source states or links)"
    return Combination(licence, why, unknown=unknown)


def cc_version(text: str) -> str | None:
    """The Creative Commons version a licence text states or links (``CC-BY-NC-SA-2.0``, ``CC BY-NC-SA
    (https://creativecommons.org/licenses/by-nc-sa/2.0/)`` -> ``"2.0"``), or ``None``."""
    found = re.search(r"(?<![\d.])(\d\.\d)(?![\d.]*\d)", text)
    return found.group(1) if found else None


def sa_version(sources: Iterable[Terms]) -> str | None:
    """The version a combination of Creative Commons sources is written in when a share-alike source states or
    links one (the Korean FrameNet's README links the BY-NC-SA 2.0 deed: the card says ``cc-by-nc-sa-2.0``, the
    Hub id of what the source links); the latest when several do; ``None`` (use :data:`CC_VERSION`) otherwise."""
    versions = {v for t in sources if t.share_alike and (v := cc_version(t.text))}
    return max(versions, key=lambda v: tuple(int(p) for p in v.split("."))) if versions else None


def dropped_terms(chosen: str, source: str) -> list[str]:
    """The terms of licence ``source`` that licence ``chosen`` (a Hub id) drops: ``["non-commercial",
    "share-alike"]`` for ``cc-by-4.0`` over ``CC-BY-NC-SA-2.0``; ``[]`` when ``chosen`` keeps them, when
    ``source`` is unknown (nothing to check) or when ``chosen`` is ``other``/``unknown`` (the exporter's own
    words, not checkable)."""
    src, out = terms(source), terms(chosen)
    if not src.known or chosen in ("other", UNKNOWN):
        return []
    dropped = []
    if src.non_commercial and not (out.non_commercial or out.research_only):
        dropped.append("non-commercial")
    if src.research_only and not (out.research_only or out.non_commercial):
        dropped.append("research use only")
    if src.no_derivatives and not out.no_derivatives:
        dropped.append("no derivatives")
    if src.copyleft_id and out.copyleft_id != src.copyleft_id:
        dropped.append(f"share-alike ({src.copyleft_id})")
    elif src.family == "cc" and src.share_alike and not (
            out.family == "cc" and out.share_alike and set(out.cc_elements) == set(src.cc_elements)):
        dropped.append("share-alike")
    return dropped
