"""Which frame pairs a calibration uses and which exemplars it holds out (seeded).

Pairs: the selected pairs of a stored selection (``--selection``), or a seeded, verb-stratified
sample (:func:`fbagent.pairs.select.sample_pairs`, FrameBench step 1) of the lexicon's candidate pairs
that pass ``fbagent pairs select``'s default eligibility filters; either way only pairs whose two
frames have at least ``min_exemplars`` exemplars of the verb with a target span are kept.

Held-out split, per (frame, verb): ``HOLDOUT`` exemplars with a target span, drawn with
``random.Random(f"{seed}|{lexicon}|{frame}|{verb}")``, stand in for generated sentences; the
other exemplars with a span (at most ``max_references``, a seeded sample) are the encoder check's
references. A held-out exemplar is never a reference, also when the (frame, verb) belongs to
several pairs (its held-out set is the same in each).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.pairs import select as pair_steps
from fbagent.store import pairs as pair_store
from fbagent.store.exemplars import exemplar_counts, lu_exemplars
from fbagent.store.rows import ExemplarRow, LexiconRow
from fbagent.verifier.calibration.options import HOLDOUT, CalibrateOptions


@dataclass
class FrameSplit:
    """The held-out exemplars and the references of one (frame, verb): rows ``{"id", "text",
    "target_start", "target_end"}``."""

    held_out: list[ExemplarRow]
    references: list[ExemplarRow]


@dataclass
class CalibrationPairs:
    """The pairs of one lexicon's calibration and where they came from.

    ``pairs``: ``{"verb", "frame_a", "frame_b", "lu_a", "lu_b"}`` dicts; ``counts``: ``candidates``,
    ``eligible`` (after the selection filters), ``too_few_exemplars``, ``sampled``; ``source``:
    ``selection <id>`` or ``sample``.
    """

    pairs: list[dict[str, Any]]
    counts: dict[str, int]
    source: str
    splits: dict[tuple[str, str], FrameSplit] = field(default_factory=dict)


def choose_pairs(db: sqlite_utils.Database, lexicon: LexiconRow, opts: CalibrateOptions) -> CalibrationPairs:
    """The calibration pairs of ``lexicon`` (module doc). Raises :class:`FbagentError` for an unknown
    selection, a selection of another lexicon, or when no pair has enough exemplars."""
    counts_by = exemplar_counts(db, lexicon["id"])

    def enough(p: dict[str, Any]) -> bool:
        return min(counts_by.get((p["verb"], p["frame_a"]), 0),
                   counts_by.get((p["verb"], p["frame_b"]), 0)) >= opts.min_exemplars

    if opts.selection is not None:
        row = pair_store.find_selection(db, opts.selection)
        if row is None:
            raise FbagentError(f"selection {opts.selection} does not exist", "pass an id listed by `fbagent pairs list`")
        if row["lexicon_id"] != lexicon["id"]:
            raise FbagentError(f"selection {opts.selection} belongs to another lexicon than {lexicon['name']!r}",
                               "pass --lexicon with the selection's lexicon, or leave --lexicon out")
        stored = [dict(p) for p in pair_store.selection_pairs(db, opts.selection, "selected")]
        kept = [p for p in stored if enough(p)]
        counts = {"candidates": len(stored), "eligible": len(stored), "too_few_exemplars": len(stored) - len(kept),
                  "sampled": len(kept)}
        source = f"selection {opts.selection}"
    else:
        verb_lus = pair_store.verb_lexical_units(db, lexicon["id"])
        cands = pair_steps.candidates(verb_lus)
        eligible, _ = pair_steps.filter_candidates(cands, pair_store.frame_facts(db, lexicon["id"]), verb_lus,
                                                   pair_store.frame_relations(db, lexicon["id"]),
                                                   pair_steps.SelectionOptions())
        with_exemplars = [c for c in eligible if enough(c.as_dict())]
        sample = pair_steps.sample_pairs(with_exemplars, pairs=opts.pairs, seed=opts.seed) if with_exemplars else None
        kept = [c.as_dict() for c in sample.selected] if sample else []
        counts = {"candidates": len(cands), "eligible": len(eligible),
                  "too_few_exemplars": len(eligible) - len(with_exemplars), "sampled": len(kept)}
        source = "sample"
    if not kept:
        raise FbagentError(
            f"no frame pair of lexicon {lexicon['name']!r} has {opts.min_exemplars}+ exemplars of the verb "
            f"(with a target span) in both frames",
            "import a lexicon with annotated exemplars (FrameNet lu/ files), or lower --min-exemplars "
            f"(at least {HOLDOUT})")
    return CalibrationPairs(pairs=kept, counts=counts, source=source)


def split_exemplars(rows: list[ExemplarRow], *, seed: int, lexicon: str, frame: str, verb: str,
                    max_references: int) -> FrameSplit:
    """The seeded held-out split of one (frame, verb)'s exemplars (module doc). Exemplars without a
    target span are neither held out nor references. Raises ``ValueError`` with fewer than
    ``HOLDOUT`` exemplars with a span."""
    usable = [r for r in rows if r.get("target_start") is not None and r.get("target_end") is not None]
    if len(usable) < HOLDOUT:
        raise ValueError(f"{frame}/{verb}: {len(usable)} exemplars with a target span, need {HOLDOUT}")
    held = random.Random(f"{seed}|{lexicon}|{frame}|{verb}").sample(usable, HOLDOUT)
    held_ids = {r["id"] for r in held}
    rest = [r for r in usable if r["id"] not in held_ids]
    if len(rest) > max_references:
        rest = random.Random(f"{seed}|references|{lexicon}|{frame}|{verb}").sample(rest, max_references)
    return FrameSplit(held_out=held, references=rest)


def make_splits(db: sqlite_utils.Database, lexicon: LexiconRow, chosen: CalibrationPairs, opts: CalibrateOptions) -> None:
    """Fill ``chosen.splits`` for every (frame, verb) of its pairs (:func:`split_exemplars`)."""
    for p in chosen.pairs:
        for frame in (p["frame_a"], p["frame_b"]):
            key = (frame, p["verb"])
            if key not in chosen.splits:
                chosen.splits[key] = split_exemplars(lu_exemplars(db, lexicon["id"], frame, p["verb"]), seed=opts.seed,
                                                     lexicon=lexicon["name"], frame=frame, verb=p["verb"],
                                                     max_references=opts.max_references)
