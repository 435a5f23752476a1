"""Frame pairs shared across lexicons (languages): ``fbagent pairs select --shared-with LEX[,LEX...]``.

A frame pair {A, B} of a lexicon is a polysemous-verb pair when some verb (LUs with POS V, grouped by lemma as
the selection groups them: :func:`fbagent.store.lexicon.verb_frames`) evokes both A and B. A pair of the
selecting lexicon is shared when it is a polysemous-verb pair in every named lexicon, its frames found there:

- by frame ID, when both lexicons have IDs and their IDs agree (:func:`ids_comparable`: at least
  :data:`ID_AGREEMENT` of the frames named alike in both carry the same ID; Berkeley FrameNet and the lexicons
  built on it keep Berkeley's IDs, and FrameNet 1.5 and 1.7 share them across renames);
- else by name, each lexicon's names mapped to FrameNet 1.7's (:func:`fbagent.framenet.pair_keys.canonical_names`:
  the 1.5/1.7 renames).

A benchmark selected from shared pairs tests the same frame distinctions in every language; its entries carry
the pair's ``frame_pair`` key (:func:`fbagent.framenet.pair_keys.frame_pair_key`), common to all languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.framenet.pair_keys import canonical_names
from fbagent.pairs.options import distinct_names
from fbagent.store import lexicon as lexstore
from fbagent.store.rows import LexiconRow

#: the share of frames named alike in two lexicons that must carry the same ID for IDs to be compared
ID_AGREEMENT = 0.9
Pair = frozenset[str]


@dataclass
class LexiconFrames:
    """One lexicon's frames: ``ids`` (``{name: frame ID or None}``), ``canonical`` (``{name: FrameNet 1.7
    name}``) and ``verbs`` (``{frame pair: [verbs evoking both]}``, the polysemous-verb pairs)."""

    name: str
    ids: dict[str, int | None]
    canonical: dict[str, str]
    verbs: dict[Pair, list[str]] = field(default_factory=dict)


def verb_pairs(verb_frames: Mapping[str, Iterable[str]]) -> dict[Pair, list[str]]:
    """``{frozenset({A, B}): [verbs, sorted]}`` from ``{verb: frames}``: every 2-combination of a verb's frames."""
    out: dict[Pair, list[str]] = {}
    for verb, frames in sorted(verb_frames.items()):
        for a, b in combinations(sorted(set(frames)), 2):
            out.setdefault(frozenset((a, b)), []).append(verb)
    return out


def load(db: sqlite_utils.Database, lexicon: LexiconRow) -> LexiconFrames:
    """The :class:`LexiconFrames` of a ``lexicons`` row."""
    ids = lexstore.frame_ids(db, lexicon["id"])
    return LexiconFrames(lexicon["name"], ids, canonical_names(ids), verb_pairs(lexstore.verb_frames(db, lexicon["id"])))


def ids_comparable(a: LexiconFrames, b: LexiconFrames) -> bool:
    """Whether frame IDs identify frames across ``a`` and ``b``: both give IDs, and at least :data:`ID_AGREEMENT`
    of the frames named alike in both (at least one) carry the same ID."""
    same = [n for n in a.ids if n in b.ids and a.ids[n] is not None and b.ids[n] is not None]
    if not same:
        return False
    return sum(a.ids[n] == b.ids[n] for n in same) >= ID_AGREEMENT * len(same)


def matcher(a: LexiconFrames, b: LexiconFrames) -> dict[str, str]:
    """``{frame of a: the same frame's name in b}`` for the frames found in ``b`` (module docstring: by ID
    where comparable, else by canonical name)."""
    by_canonical = {c: n for n, c in b.canonical.items()}
    by_id = {i: n for n, i in b.ids.items() if i is not None} if ids_comparable(a, b) else {}
    out = {}
    for name, fid in a.ids.items():
        found = by_id.get(fid) if fid is not None else None
        found = found or by_canonical.get(a.canonical[name])
        if found is not None:
            out[name] = found
    return out


@dataclass
class Shared:
    """The pairs of ``base`` shared with every lexicon of ``others``: ``pairs`` (frozensets of ``base``'s frame
    names), ``n_base`` (polysemous-verb pairs of ``base``), ``per_lexicon`` (``{name: pairs of base shared with it
    alone}``), ``by_id`` (``{name: whether IDs matched the frames}``) and the ``matches`` used."""

    base: LexiconFrames
    others: list[LexiconFrames]
    pairs: set[Pair]
    n_base: int
    per_lexicon: dict[str, int]
    by_id: dict[str, bool]
    matches: dict[str, dict[str, str]]

    def verbs_in(self, other: str, frame_a: str, frame_b: str) -> list[str]:
        """The verbs of lexicon ``other`` that evoke both frames of the pair (``base``'s names)."""
        lex = next(o for o in self.others if o.name == other)
        m = self.matches[other]
        if frame_a not in m or frame_b not in m:
            return []
        return lex.verbs.get(frozenset((m[frame_a], m[frame_b])), [])


def shared_pairs(db: sqlite_utils.Database, base: LexiconRow, names: Iterable[str]) -> Shared:
    """The polysemous-verb pairs of lexicon ``base`` (a ``lexicons`` row) that are polysemous-verb pairs in every
    lexicon named in ``names`` (module docstring).

    Raises :class:`FbagentError` for an unknown lexicon name (listing the available ones) or ``base`` itself
    among ``names``.
    """
    lex = load(db, base)
    others = []
    for name in dict.fromkeys(names):
        if name == base["name"]:
            raise FbagentError(f"--shared-with names lexicon {name}, the one selecting pairs",
                               "name the other languages' lexicons only (see fbagent lexicon list)")
        others.append(load(db, lexstore.lexicon_by_name(db, name)))
    pairs = set(lex.verbs)
    per, by_id, matches = {}, {}, {}
    for other in others:
        m = matcher(lex, other)
        kept = {p for p in lex.verbs if all(f in m for f in p) and frozenset(m[f] for f in p) in other.verbs}
        per[other.name], by_id[other.name], matches[other.name] = len(kept), ids_comparable(lex, other), m
        pairs &= kept
    return Shared(lex, others, pairs, len(lex.verbs), per, by_id, matches)


def parse_names(text: str | None) -> tuple[str, ...]:
    """``"ko,lv"`` -> ``("ko", "lv")`` (spaces dropped, order kept); None or empty -> ``()``. Raises
    :class:`FbagentError` when a name comes twice (:func:`fbagent.pairs.options.distinct_names`)."""
    return distinct_names((text or "").split(","))
