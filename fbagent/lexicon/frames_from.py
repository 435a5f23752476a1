"""Frame text by reference: a lexicon that names Berkeley frames (Korean, Latvian, Turkish, an LU list) takes the
definitions, frame elements with core types, and frame relations of an imported Berkeley FrameNet
(``lexicon add ... --frames-from LEXICON``).

A frame is found in the reference by its id where both have ids (frame ids are stable across Berkeley releases),
else by name, else by the name it had or has in the other release (:mod:`fbagent.framenet.renames`: FrameNet 1.5
<-> 1.7, 46 renames), else by its name in other letter case (the Open Dutch FrameNet Lexicon writes
``fn17-cause_harm``): such a frame and its LUs take the reference's spelling, as does a frame an LU list names
only by id (``frame #262``, :mod:`fbagent.lexicon.frame_ids`). What a found frame gets:

- its definition (clean text, markup, ``<ex>`` examples) when it has none;
- its frame id when it has none;
- frame elements: the reference frame's (with core types and definitions), then the lexicon's own FE names the
  reference lacks, unless every FE of its own already has a core type (the Korean FrameNet ships 1.7's);
- relations: the reference's relations between two frames of the lexicon (named as the lexicon names them),
  when the lexicon has none of its own.

Frames not found keep what they had, and are counted and named in one line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

from fbagent.framenet.model import Frame, FrameElement, FrameRelation, LexiconData
from fbagent.framenet.renames import other_names
from fbagent.lexicon.frame_ids import is_id_name
from fbagent.store.frame_text import FrameText

SHOWN_MISSING = 5


@dataclass
class Borrowed:
    """What :func:`borrow_frame_text` did: frames ``matched`` (of them ``by_id`` and ``by_rename``), definitions and
    FE lists filled, ``relations`` added, and the lexicon's frame names not found (``missing``)."""

    reference: str
    frames: int = 0
    matched: int = 0
    by_id: int = 0
    by_rename: int = 0
    by_case: int = 0
    definitions: int = 0
    fe_lists: int = 0
    relations: int = 0
    missing: list[str] = field(default_factory=list)

    def line(self) -> str:
        """One line of what was borrowed."""
        return (f"frame text from lexicon {self.reference}: {self.matched:,} of {self.frames:,} frames found "
               f"({self.by_id:,} by frame id, {self.by_rename:,} under their FrameNet 1.5/1.7 name"
               + (f", {self.by_case:,} in other letter case, renamed as the reference spells them" if self.by_case else "")
               + "); "
               f"{self.definitions:,} definitions, {self.fe_lists:,} frame-element lists, "
               f"{self.relations:,} frame relations taken")

    def missing_line(self) -> str | None:
        """One line counting and naming (the first :data:`SHOWN_MISSING`) the frames not found; ``None``: all found."""
        if not self.missing:
            return None
        shown = ", ".join(self.missing[:SHOWN_MISSING]) + (", ..." if len(self.missing) > SHOWN_MISSING else "")
        return (f"{len(self.missing):,} of {self.frames:,} frame(s) not found in {self.reference}, under their name, "
                f"id or FrameNet 1.5/1.7 name (kept without its text): {shown}")


def combined_hash(source_hash: str, reference_hash: str) -> str:
    """The content hash of a lexicon whose frame text comes from a reference with ``reference_hash``: a re-import
    with another reference is a change, not "unchanged"."""
    return hashlib.sha256(f"{source_hash}\0frames-from\0{reference_hash}".encode()).hexdigest()


def _find(frame: Frame, ref: FrameText, folded: dict[str, str]) -> tuple[Frame | None, str]:
    """The reference frame for ``frame`` and how it was found (``"id"``, ``"name"``, ``"rename"``, ``"case"``: the
    name in other letter case, ``folded`` mapping casefolded reference names to theirs)."""
    if frame.frame_id is not None and frame.frame_id in ref.by_id:
        return ref.frames[ref.by_id[frame.frame_id]], "id"
    if frame.name in ref.frames:
        return ref.frames[frame.name], "name"
    for other in other_names(frame.name):
        if other in ref.frames:
            return ref.frames[other], "rename"
    if (name := folded.get(frame.name.casefold())) is not None:
        return ref.frames[name], "case"
    return None, ""


def _rename(data: LexiconData, frame: Frame, name: str) -> None:
    """Give ``frame`` and its LUs the reference's spelling ``name`` (a frame found in other letter case)."""
    for lu in data.lexical_units:
        if lu.frame == frame.name:
            lu.frame = name
    frame.name = name


def _fill(frame: Frame, found: Frame, done: Borrowed) -> None:
    """Fill ``frame``'s missing text from ``found`` (module docstring)."""
    if not frame.definition.strip():
        frame.definition, frame.definition_markup = found.definition, found.definition_markup
        frame.examples = list(found.examples)
        done.definitions += 1
    if frame.frame_id is None:
        frame.frame_id = found.frame_id
    own = frame.frame_elements
    if found.frame_elements and not (own and all(fe.core_type for fe in own)):
        names = {fe.name for fe in found.frame_elements}
        frame.frame_elements = [replace(fe) for fe in found.frame_elements] + \
            [FrameElement(fe.name, fe.core_type, fe.definition) for fe in own if fe.name not in names]
        done.fe_lists += 1


def borrow_frame_text(data: LexiconData, ref: FrameText, reference: str) -> Borrowed:
    """Fill ``data``'s frames (in place) from the reference lexicon ``ref`` named ``reference`` (module docstring).

    Returns:
        :class:`Borrowed`, the counts and the frames not found (their names in the lexicon's order).
    """
    done = Borrowed(reference, frames=len(data.frames))
    names_of: dict[str, list[str]] = {}   # reference frame name -> the lexicon's frame names found there
    folded = {name.casefold(): name for name in ref.frames}
    own = {f.name for f in data.frames}
    for frame in data.frames:
        found, how = _find(frame, ref, folded)
        if found is None:
            done.missing.append(frame.name)
            continue
        if how == "case" and found.name not in own:
            _rename(data, frame, found.name)
            done.by_case += 1
        elif how == "id" and is_id_name(frame.name) and found.name not in own:
            _rename(data, frame, found.name)
        done.matched += 1
        done.by_id += how == "id"
        done.by_rename += how == "rename"
        names_of.setdefault(found.name, []).append(frame.name)
        _fill(frame, found, done)
    if not data.relations:
        seen: set[FrameRelation] = set()
        for rel in ref.relations:
            for sup in names_of.get(rel.super_frame, []):
                for sub in names_of.get(rel.sub_frame, []):
                    new = FrameRelation(rel.type, sup, sub)
                    if sup != sub and new not in seen:
                        seen.add(new)
                        data.relations.append(new)
        done.relations = len(data.relations)
    return done
