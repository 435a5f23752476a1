"""The independent human baseline: annotators who judged none of the final entries answer the four-choice
question on a seeded sample of them (``fbagent annotate --mode baseline``).

Why: the paper's human score (FrameBench, Limitations) comes from the annotators whose judgments kept
the entries, on entries at least two of them answered correctly, so it is biased upward by
construction; the authors name an independent baseline as the fix.

Rules:
- final entries: the entries in scope that pass the human filter (:func:`fbagent.validation.aggregate.score_entries`,
  ``kept``);
- an annotator who answered a validation task of any final entry is refused (:class:`FbagentError`);
- the sample: ``random.Random(seed)`` draws ``sample`` of the final entries (all when fewer); each gives
  two problems, the base pair (S_A, S_B) and the extended pair (S_B', S_A'), each with its two sentences
  in a seeded order, and the problems are shown in a seeded order; the annotator sees the four-choice
  question and the two sentences only (no frames, no acceptability, no verifier);
- the score: correct when the answer names the frame-A sentence alone (gold "A only" / "B only", as
  evaluation scores a model). Accuracy = share of correct answers pooled over annotators; 95% percentile
  bootstrap interval over entries (:mod:`fbagent.validation.bootstrap`, seed 0).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.seeds import DEFAULT_SEED
from fbagent.store import annotations as ann
from fbagent.store import baseline as store
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.store.revisions import effective_texts
from fbagent.validation.aggregate import DEFAULT_MIN_ACCEPTABLE, DEFAULT_MIN_CORRECT, score_entries
from fbagent.validation.bootstrap import mean_with_interval

DEFAULT_SAMPLE = 100
PAIRS = {"base": ("sentence_a", "sentence_b"), "extended": ("sentence_b_prime", "sentence_a_prime")}
A_FRAME = ("sentence_a", "sentence_a_prime")
CONVENTION = ("independent annotators (judged none of the final entries), seeded sample, four-choice question "
              "only; share of correct answers pooled over annotators; 95% percentile bootstrap over entries "
              "(1000 resamples, seed 0)")
PAPER_CONVENTION = ("the validating annotators on the entries their judgments kept (FrameBench's Human row: mean "
                    "over annotators); biased upward by construction (FrameBench, Limitations)")


@dataclass(frozen=True)
class BaselineOptions:
    """``sample``: final entries to draw; ``seed``: of the sample and orders (None: from the name);
    ``run`` / ``language`` / ``statuses``: the scope (an annotator answers in their language);
    ``min_correct`` / ``min_acceptable``: the human filter."""

    sample: int = DEFAULT_SAMPLE
    seed: int | None = None
    run: str | None = None
    language: str | None = None
    statuses: Sequence[str] = ANNOTATED_STATUSES
    min_correct: int = DEFAULT_MIN_CORRECT
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE


def final_entries(db: sqlite_utils.Database, options: BaselineOptions) -> list[str]:
    """Ids of the entries in scope that pass the human filter, in stable order; :class:`FbagentError` when none."""
    items = ann.select_items(db, run=options.run, language=options.language, statuses=options.statuses)
    if not items:
        raise ann.explain_no_items(db, run=options.run, language=options.language, statuses=options.statuses)
    scores = score_entries(db, [i["id"] for i in items], min_correct=options.min_correct,
                           min_acceptable=options.min_acceptable)
    kept = [i["id"] for i in items if scores[i["id"]].kept]
    if not kept:
        raise FbagentError(f"none of the {len(items)} entries in scope passes the human filter yet, so there is no "
                           "final entry for an independent baseline",
                           "validate first (fbagent annotate --annotator NAME), then check with fbagent validate report")
    return kept


def plan(db: sqlite_utils.Database, annotator: str, options: BaselineOptions) -> list[dict[str, Any]]:
    """The annotator's baseline tasks, created on first use (seeded) and kept after; see the module rules.
    Raises :class:`FbagentError` for an annotator who validated final entries, or when there is none."""
    existing = store.tasks(db, annotator)
    if existing:
        return existing
    final = final_entries(db, options)
    judged = store.judged_items(db, annotator) & set(final)
    if judged:
        raise FbagentError(f"{annotator} validated {len(judged)} of the {len(final)} final entries, so their answers "
                           "would not be independent", "ask an annotator who judged none of them (fbagent annotators "
                           "list shows who did)")
    seed = ann.default_seed(annotator) if options.seed is None else options.seed
    rng = random.Random(seed)
    chosen = rng.sample(final, min(options.sample, len(final)))
    texts = effective_texts(db, chosen)
    rows = []
    for item_id in chosen:
        for pair, shown in PAIRS.items():
            first, second = shown if rng.random() < 0.5 else shown[::-1]
            t = texts[item_id]
            rows.append({"annotator": annotator, "item_id": item_id, "pair": pair, "seed": seed,
                         "shown_first": first, "shown_second": second,
                         "gold": "sentence_a" if first in A_FRAME else "sentence_b",
                         "fingerprint": ann.text_fingerprint(ann.shown_question(t), t[first], t[second])})
    rng.shuffle(rows)
    store.insert_tasks(db, [{**r, "position": i} for i, r in enumerate(rows)])
    return store.tasks(db, annotator)


def independent_accuracy(db: sqlite_utils.Database, item_ids: Sequence[str] | None = None) -> dict[str, Any] | None:
    """The independent human accuracy over the answered baseline tasks (of ``item_ids`` when given):
    ``{"accuracy", "low", "high", "answers", "entries", "annotators", "per_annotator", "convention"}`` in
    [0, 1]; ``None`` when no baseline answer exists."""
    rows = store.answered(db, item_ids)
    if not rows:
        return None
    per: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        per[r["annotator"]].append(int(r["correct"]))
    out = mean_with_interval([int(r["correct"]) for r in rows], [r["item_id"] for r in rows], seed=DEFAULT_SEED)
    return {**out, "answers": len(rows), "entries": len({r["item_id"] for r in rows}), "annotators": len(per),
            "per_annotator": {n: sum(v) / len(v) for n, v in sorted(per.items())}, "convention": CONVENTION}


def human_scores(db: sqlite_utils.Database, rep: dict[str, Any], item_ids: Sequence[str]) -> list[dict[str, Any]]:
    """The two human scores side by side for ``validate report`` / ``eval report`` / the card: the
    paper-style one (``rep["human_accuracy"]`` of :func:`fbagent.validation.aggregate.report`) and the
    independent one over ``item_ids`` (``None`` fields when no baseline answer exists). Each row:
    ``{"score", "accuracy", "low", "high", "entries", "annotators", "convention"}``."""
    h = rep["human_accuracy"]
    paper = {"score": "paper-style (filter)", "accuracy": h["mean"], "low": None, "high": None,
             "entries": h["entries"], "annotators": len(h["per_annotator"]), "convention": PAPER_CONVENTION}
    ind = independent_accuracy(db, item_ids)
    independent = {"score": "independent (baseline)", "accuracy": None, "low": None, "high": None, "entries": 0,
                   "annotators": 0, "convention": "none yet: fbagent annotate --mode baseline --annotator NAME"}
    if ind is not None:
        independent.update({k: ind[k] for k in ("accuracy", "low", "high", "entries", "annotators", "convention")})
    return [paper, independent]
