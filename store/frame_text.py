"""A stored lexicon's frame text, read back as :mod:`fbagent.framenet.model` records: what ``lexicon add
--frames-from`` borrows from a Berkeley FrameNet (definitions, frame ``<ex>`` examples, frame elements with their
core types, frame relations)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from fbagent.framenet.model import Example, Frame, FrameElement, FrameRelation


@dataclass(frozen=True)
class FrameText:
    """Every frame of one stored lexicon by name (``frames``) and by source id (``by_id``), and its relations."""

    frames: dict[str, Frame]
    by_id: dict[int, str]
    relations: list[FrameRelation]


def frame_text(db: sqlite_utils.Database, lexicon_id: int) -> FrameText:
    """The frames (definition, markup, examples, FEs in stored order) and relations of lexicon ``lexicon_id``."""
    frames: dict[str, Frame] = {}
    pk_name: dict[int, str] = {}
    for r in db.query("SELECT id, frame_id, name, definition, definition_markup FROM frames WHERE lexicon_id = ? "
                      "ORDER BY id", [lexicon_id]):
        frames[r["name"]] = Frame(r["name"], r["frame_id"], r["definition"] or "", r["definition_markup"] or "")
        pk_name[r["id"]] = r["name"]
    for r in db.query("SELECT e.frame_pk, e.name, e.core_type, e.definition FROM frame_elements e JOIN frames f "
                      "ON f.id = e.frame_pk WHERE f.lexicon_id = ? ORDER BY e.id", [lexicon_id]):
        frames[pk_name[r["frame_pk"]]].frame_elements.append(FrameElement(r["name"], r["core_type"], r["definition"]))
    for r in db.query("SELECT x.frame_pk, x.text, x.target_start, x.target_end FROM frame_examples x JOIN frames f "
                      "ON f.id = x.frame_pk WHERE f.lexicon_id = ? ORDER BY x.id", [lexicon_id]):
        frames[pk_name[r["frame_pk"]]].examples.append(Example(r["text"], r["target_start"], r["target_end"]))
    relations = [FrameRelation(r["type"], r["super_frame"], r["sub_frame"]) for r in db.query(
        "SELECT type, super_frame, sub_frame FROM frame_relations WHERE lexicon_id = ? ORDER BY id", [lexicon_id])]
    by_id = {f.frame_id: name for name, f in frames.items() if f.frame_id is not None}
    return FrameText(frames, by_id, relations)
