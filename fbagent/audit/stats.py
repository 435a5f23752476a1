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

from fbagent.validation.bootstrap import DEFAULT_RESAMPLES, mean_with_interval

CONVENTION = ("problem score 1 gold / 0 other / 0.5 tie; 95% percentile bootstrap over entries "
              "({resamples} resamples, seed {seed}); chance 50% (one of two sentences)")


def problem_scores(picks: Sequence[int], gold: Sequence[int]) -> np.ndarray:
    """Per problem: 1.0 (pick == gold position), 0.0 (the other), 0.5 (tie: pick 0)."""
    p, g = np.asarray(picks), np.asarray(gold)
    return np.where(p == 0, 0.5, (p == g).astype(float))


def accuracy_with_interval(scores: np.ndarray, groups: Sequence[str], *, seed: int,
                           resamples: int = DEFAULT_RESAMPLES) -> dict[str, float]:
    """``{"accuracy", "low", "high"}`` in [0, 1]: the mean of ``scores`` and its 95% percentile bootstrap
    interval over the groups (entry ids, one per score): :func:`fbagent.validation.bootstrap.mean_with_interval`."""
    return mean_with_interval(scores, groups, seed=seed, resamples=resamples)
