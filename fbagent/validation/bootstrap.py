"""A mean with its seeded percentile-bootstrap interval over groups (entries), shared by the shortcut audit
and the independent human baseline.

Percentile bootstrap (Efron and Tibshirani 1993, ch. 13): resample the groups with replacement
``resamples`` times (``numpy.random.default_rng(seed)``), take the 2.5th and 97.5th percentiles of the
resampled means. Groups, not single scores, are resampled because the scores of one entry share its
sentences and are not independent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

DEFAULT_RESAMPLES = 1000


def mean_with_interval(scores: Sequence[float] | np.ndarray, groups: Sequence[str], *, seed: int,
                       resamples: int = DEFAULT_RESAMPLES) -> dict[str, float]:
    """``{"accuracy", "low", "high"}``: the mean of ``scores`` (in [0, 1]) and its 95% interval, resampling
    the ``groups`` (one per score). Raises ``ValueError`` when ``scores`` is empty or differs in length."""
    values = np.asarray(scores, dtype=float)
    if len(values) == 0 or len(values) != len(groups):
        raise ValueError("scores and groups must be non-empty and of the same length")
    ids = sorted(set(groups))
    index = {g: i for i, g in enumerate(ids)}
    g = np.fromiter((index[x] for x in groups), dtype=np.int64, count=len(groups))
    sums = np.bincount(g, weights=values, minlength=len(ids))
    counts = np.bincount(g, minlength=len(ids)).astype(float)
    draws = np.random.default_rng(seed).integers(0, len(ids), size=(resamples, len(ids)))
    means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return {"accuracy": float(values.mean()), "low": float(low), "high": float(high)}
