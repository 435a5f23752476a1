"""In-memory records of one FrameNet-style lexicon, shared by every reader.

A reader (:mod:`fbagent.lexicon.nltk_reader`, :mod:`fbagent.lexicon.jsonl_reader`)
returns a :class:`LexiconData`; :mod:`fbagent.lexicon.importer` writes it to the
store in one transaction. Nothing here touches the database or the file system.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fbagent.framenet.lu_names import group_lemma


@dataclass(frozen=True)
class Example:
    """One sentence with the target word(s) marked.

    ``target_start``/``target_end`` are character offsets into ``text`` (end
    exclusive), or ``None`` when the sentence has no marked target.
    """

    text: str
    target_start: int | None = None
    target_end: int | None = None


@dataclass
class FrameElement:
    """A frame element (FE): ``name``, ``core_type`` (Core, Core-Unexpressed,
    Peripheral, Extra-Thematic) and its clean ``definition``."""

    name: str
    core_type: str
    definition: str = ""


@dataclass
class Frame:
    """A frame: clean ``definition`` (``<ex>`` examples removed), the original
    ``definition_markup``, the ``<ex>`` ``examples`` and its ``frame_elements``."""

    name: str
    frame_id: int | None
    definition: str
    definition_markup: str
    examples: list[Example] = field(default_factory=list)
    frame_elements: list[FrameElement] = field(default_factory=list)


@dataclass
class LexicalUnit:
    """A lexical unit (LU) such as ``leave.v`` in frame ``Departing``.

    ``pos`` is upper case (V, N, A, ADV, PREP, ...); ``n_annotated`` is the
    number of annotated sentences the resource reports for the LU (or, when it
    reports none, the number of ``exemplars`` read).
    """

    name: str
    lemma: str
    pos: str
    frame: str
    lu_id: int | None = None
    definition: str = ""
    n_annotated: int = 0
    exemplars: list[Example] = field(default_factory=list)


@dataclass(frozen=True)
class FrameRelation:
    """A frame-to-frame relation, e.g. ``Inheritance`` from ``super_frame`` to ``sub_frame``."""

    type: str
    super_frame: str
    sub_frame: str


@dataclass(frozen=True)
class Provenance:
    """Where a lexicon comes from and under which terms it may be shared.

    ``license``: an SPDX id where one exists (``CC-BY-4.0``, ``CC-BY-NC-SA-4.0``, ``GPL-3.0-only``), else the
    source's own words; ``"unknown"`` when nobody said. ``license_source``: where that came from (``"known
    release: Korean FrameNet 1.2"``, ``"declared in the file"``, ``"--license at import"``, ``"unknown"``).
    ``citation``: BibTeX (one or more entries, empty when unknown); ``url``: the source's home page or
    repository; ``name``: the release's human-readable name (``"Korean FrameNet 1.2"``); ``reader``: the reader
    that read it (``"nltk-xml"``, ``"jsonl"``, ...).
    """

    license: str = "unknown"
    license_source: str = "unknown"
    citation: str = ""
    url: str = ""
    name: str = ""
    reader: str = ""


@dataclass
class LexiconData:
    """Everything one reader read from one resource.

    ``source_hash`` is the SHA-256 of every file read (in a fixed order), so a
    re-import of unchanged files is detected; ``warnings`` are one-line notes
    about skipped, dangling entries (see ``--strict``); ``notes`` say how the
    resource was adapted for the reader (nothing skipped); ``provenance`` is the resource's licence,
    citation and source (filled by the reader for a known release or from what the file declares).
    """

    frames: list[Frame]
    lexical_units: list[LexicalUnit]
    relations: list[FrameRelation]
    source_hash: str
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    provenance: Provenance = field(default_factory=Provenance)

    @property
    def n_polysemous_verbs(self) -> int:
        """Verb lemmas (LU POS ``V``) that evoke two or more frames: the verbs base pairs are drawn from, grouped
        as ``pairs select`` and ``lexicon show`` group them (:func:`fbagent.framenet.lu_names.group_lemma`:
        ``sleep.v`` and ``sleep (together/with).v`` are one verb ``sleep``)."""
        frames_of: dict[str, set[str]] = {}
        for lu in self.lexical_units:
            if lu.pos == "V":
                frames_of.setdefault(group_lemma(lu.lemma), set()).add(lu.frame)
        return sum(len(frames) >= 2 for frames in frames_of.values())

    @property
    def n_exemplars(self) -> int:
        """Total number of exemplar sentences over all LUs."""
        return sum(len(lu.exemplars) for lu in self.lexical_units)


def split_lu_name(name: str) -> tuple[str, str]:
    """Split an LU name into ``(lemma, POS)``: ``"leave.v"`` -> ``("leave", "V")``.

    The POS is the part after the last dot, stripped and upper-cased; a name
    without a dot gives POS ``""``.
    """
    lemma, dot, pos = name.rpartition(".")
    if not dot:
        return name.strip(), ""
    return lemma.strip(), pos.strip().upper()
