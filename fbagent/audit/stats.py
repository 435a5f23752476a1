"""Accuracy of a baseline with a seeded bootstrap interval over entries.

Convention: a problem scores 1 when the baseline picks the gold sentence, 0 when it picks the
other, 0.5 on a tie (the expected score of breaking it by a coin). Accuracy = mean over problems.
The 95% interval is the percentile bootstrap (Efron and Tibshirani 1993, ch. 13) resampling
*entries* with replacement (an entry's problems share its sentences, so they are not independent),
``resamples`` times with ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

DEFAULT_RESAMPLES = 1000
CONVENTION = ("problem score 1 gold / 0 other / 0.5 tie; 95% percentile bootstrap over entries "
              "({resamples} resamples, seed {seed}); chance 50% (one of two sentences)")


def problem_scores(picks: Sequence[int], gold: Sequence[int]) -> np.ndarray:
    """Per problem: 1.0 (pick == gold position), 0.0 (the other), 0.5 (tie: pick 0)."""
    p, g = np.asarray(picks), np.asarray(gold)
    return np.where(p == 0, 0.5, (p == g).astype(float))


def accuracy_with_interval(scores: np.ndarray, groups: Sequence[str], *, seed: int,
                           resamples: int = DEFAULT_RESAMPLES) -> dict[str, float]:
    """``{"accuracy", "low", "high"}`` in [0, 1]: the mean of ``scores`` and its 95% percentile bootstrap
    interval, resampling the groups (entry ids, one per score) with replacement. Raises ``ValueError``
    when ``scores`` is empty or its length differs from ``groups``."""
    if len(scores) == 0 or len(scores) != len(groups):
        raise ValueError("scores and groups must be non-empty and of the same length")
    ids = sorted(set(groups))
    index = {g: i for i, g in enumerate(ids)}
    g = np.fromiter((index[x] for x in groups), dtype=np.int64, count=len(groups))
    sums = np.bincount(g, weights=scores, minlength=len(ids))
    counts = np.bincount(g, minlength=len(ids)).astype(float)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(ids), size=(resamples, len(ids)))
    means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return {"accuracy": float(scores.mean()), "low": float(low), "high": float(high)}
