"""The provenance a lexicon is stored with: what its reader found, a known release, or ``lexicon add`` options.

Order (the first that says something wins, field by field for citation and URL):

1. ``lexicon add --license TEXT --citation FILE.bib --source-url URL`` (:class:`Overrides`; the licence's
   ``license_source`` is ``"--license at import"``);
2. what the reader found (a JSONL lexicon's ``{"lexicon": {...}}`` line, a reader that knows its layout's
   release: :attr:`fbagent.framenet.model.LexiconData.provenance`);
3. a known release (:mod:`fbagent.framenet.releases`): an English NLTK-layout FrameNet of 1,019 or 1,221
   frames is Berkeley FrameNet 1.5 or 1.7, an NLTK-layout folder holding ``Asfalda.html`` (or named so) is
   ASFALDA (a smaller English folder, a subset or one's own, is not assumed Berkeley's: the card still
   recognises it as Berkeley FrameNet at export, as before licences were stored);
4. else licence ``unknown``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.files import read_text_input
from fbagent.framenet import licences
from fbagent.framenet.model import Provenance
from fbagent.framenet.releases import berkeley_release, known_release
from fbagent.framenet.spdx import read_licence
from fbagent.languages import base_lang
from fbagent.text import first_unsafe

IMPORT_SOURCE = "--license at import"
_BIB_ENTRY = re.compile(r"@\s*[A-Za-z]+\s*\{\s*[^,\s]+\s*,")
_URL = re.compile(r"^(https?|ftp)://\S+$")
#: the reader name stored for each format of :func:`fbagent.lexicon.importer.read_resource`
READERS = {"nltk": "nltk-xml", "jsonl": "jsonl", "embedded": "nltk-xml"}


@dataclass(frozen=True)
class Overrides:
    """What ``lexicon add`` was told: ``license`` (text: an SPDX id in its spelling, or the source's words),
    ``citation`` (BibTeX text, read from ``--citation``), ``url`` (``--source-url``); None = not given.
    ``license_note``: the line saying what ``--license`` was stored as, when that differs from what was typed."""

    license: str | None = None
    citation: str | None = None
    url: str | None = None
    license_note: str | None = None

    def any(self) -> bool:
        """Whether any option was given."""
        return any(v is not None for v in (self.license, self.citation, self.url))


def import_overrides(license: str | None = None, citation: Path | None = None, url: str | None = None) -> Overrides:
    """Check and read the options of ``lexicon add``: a licence text without control characters (an SPDX id or a
    near miss stored as the SPDX id, :func:`fbagent.framenet.spdx.read_licence`), a ``.bib`` file holding at least
    one BibTeX entry (``@type{key,``), an ``http(s)://`` URL.

    Raises :class:`FbagentError` naming the bad option and its fix (nothing is imported then); a licence word close
    to SPDX ids but none of them is refused with the close ids.
    """
    if license is not None:
        license = " ".join(license.split())
        if not license or first_unsafe(license) is not None:
            raise FbagentError(f"--license {license!r} is empty or holds a control character",
                               "pass an SPDX id such as CC-BY-SA-4.0, or the source's own words in quotes")
        read = read_licence(license)  # an SPDX id in its spelling; a near miss repaired (said) or refused
        license, note = read.text, read.note
    else:
        note = None
    bib = None
    if citation is not None:
        bib = read_text_input(citation, "citation file", "pass --citation with a BibTeX file (UTF-8)").strip()
        if not _BIB_ENTRY.search(bib):
            raise FbagentError(f"{citation}: holds no BibTeX entry (@article{{key, ...}})",
                               "pass --citation with a .bib file holding the source's BibTeX entries")
    if url is not None and not _URL.match(url.strip()):
        raise FbagentError(f"--source-url {url!r} is not a URL", "pass the source's home page as https://...")
    return Overrides(license, bib, url.strip() if url else None, note)


def known_provenance(fmt: str, lang: str, path: str | Path, n_frames: int) -> Provenance | None:
    """The provenance of a known release read in layout ``fmt`` (``nltk`` / ``embedded`` / ``jsonl``), or None.

    ``embedded``: fbagent's own sample (fbagent's licence, Apache-2.0: its own definitions and examples under
    Berkeley frame names); ``nltk`` + English: Berkeley FrameNet 1.5 or 1.7
    (:func:`fbagent.framenet.releases.berkeley_release` by ``n_frames``); ``nltk`` with ``Asfalda.html`` in the
    folder or ``asfalda`` in its name: ASFALDA.
    """
    reader = READERS.get(fmt, fmt)
    if fmt == "embedded":
        return Provenance("Apache-2.0", "fbagent's embedded sample (its own wording, under fbagent's licence)",
                          "", "", "fbagent embedded sample", reader)
    if fmt != "nltk":
        return None
    folder = Path(path)
    if (folder.is_dir() and (folder / "Asfalda.html").exists()) or "asfalda" in folder.name.lower():
        return known_release("ASFALDA French FrameNet", reader)
    release = berkeley_release(n_frames) if base_lang(lang) == "en" else None
    return known_release(release, reader) if release else None


def resolve(found: Provenance, known: Provenance | None, given: Overrides, reader: str) -> Provenance:
    """The provenance to store (module docstring's order): ``given`` over ``found`` (what the reader read) over
    ``known`` (a known release), with ``reader`` filled when the reader left it empty."""
    base = found if found.license != licences.UNKNOWN or found.citation or found.url else (known or found)
    base = replace(base, reader=base.reader or found.reader or reader)
    if given.license is not None:
        base = replace(base, license=given.license, license_source=IMPORT_SOURCE)
    if given.citation is not None:
        base = replace(base, citation=given.citation)
    if given.url is not None:
        base = replace(base, url=given.url)
    return base


def licence_note(p: Provenance) -> str:
    """One line for ``lexicon add``: the licence stored and where it came from, and what a reader of the card must
    know (unknown, or not a licence fbagent can check exports against)."""
    if p.license == licences.UNKNOWN:
        return ("licence: unknown (the source states none that fbagent knows); say it with `lexicon add ... "
                "--license SPDX-ID --citation FILE.bib` so that exports carry it")
    terms = licences.terms(p.license)
    what = ", ".join(terms.obligations()) if terms.known else "not a licence fbagent reads: exports cannot be checked against it"
    return f"licence: {p.license} ({p.license_source}{'; ' + what if what else ''})"
