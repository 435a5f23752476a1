"""Metrics of a verifier calibration, computed from its per-sentence rows.

Every held-out exemplar is a sentence whose frame is known (FrameNet's annotation). For a signal
(roundtrip, encoder, both; :mod:`fbagent.verifier.verify`) its score is ``d = sim_own - sim_other``
(``both``: the smaller of the two signals' ``d``), the quantity the verifier compares with the
margin. Definitions (docs/verifier.md, "What the numbers mean"):

- ``accuracy``: share of sentences closer to their own frame (``d > 0``).
- precision and recall of the verdict ``pass`` (``d > margin``), sentence level: each sentence
  is judged twice, once as written for its own frame (a positive: a correct generated sentence)
  and once claimed for the other frame of the pair (a negative: a sentence that evokes the wrong
  frame, i.e. the generator's typical error; its score is ``-d``). ``precision = TP / (TP + FP)``
  with one negative per positive (a 50% prior of wrong sentences), ``recall = TP / positives``
  (scikit-learn ``precision_score`` / ``recall_score``).
- items: the four held-out sentences of a pair are one pseudo-entry (S_A, S_A' of frame A, S_B,
  S_B' of frame B), ``verified`` when all four pass (as in generation). ``items_verified``: share
  of pseudo-entries verified; ``items_false_verified``: share of their one-wrong-sentence variants
  (one of the four claimed for the other frame) that would still be verified.
- 95% intervals: percentile bootstrap over PAIRS (the sentences of a pair share their frames and
  references, so they are resampled together), ``scipy.stats.bootstrap``, seeded.
- ``margins``: for each target precision (0.8, 0.9, 0.95), the smallest margin of the grid
  :data:`MARGINS` whose precision reaches it (``None`` when none does), among the margins at
  which at least :data:`MIN_PASS_SHARE` of the sentences' claims pass (``n_pass``): a precision
  measured on a handful of passing sentences is noise (on ASFALDA, 0.875 from 8 sentences).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fbagent.limits import DEFAULT_N_BOOT
from fbagent.seeds import DEFAULT_SEED
from fbagent.verifier.margin import DEFAULT_MARGIN, smallest_margin

#: margins of the ``by_margin`` table: -0.10 .. 0.50 by 0.01 (cosine differences)
MARGINS = tuple(round(-0.10 + 0.01 * i, 2) for i in range(61))
TARGET_PRECISIONS = (0.8, 0.9, 0.95)
#: a margin is eligible for ``margins`` / ``--margin auto`` only when at least this share of the scored
#: sentences (and at least one) pass at it: TP + FP >= MIN_PASS_SHARE * n
MIN_PASS_SHARE = 0.05


def sentence_score(row: dict[str, Any], signal: str) -> float | None:
    """``d`` of one calibration row for ``signal`` (``None`` when that signal has no score for it)."""
    if row.get("error"):
        return None
    parts = []
    for name in (("roundtrip", "encoder") if signal == "both" else (signal,)):
        s = row.get(name)
        if not s or s.get("sim_own") is None or s.get("sim_other") is None:
            return None
        parts.append(float(s["sim_own"]) - float(s["sim_other"]))
    return min(parts)


def _bootstrap(num: np.ndarray, den: np.ndarray, n_boot: int, seed: int) -> list[float] | None:
    """95% percentile bootstrap interval of ``sum(num) / sum(den)``, resampling the groups (pairs)."""
    from scipy.stats import bootstrap

    if len(num) < 2 or den.sum() == 0:
        return None

    def ratio(n: np.ndarray, d: np.ndarray, axis: int = -1) -> np.ndarray:
        total = d.sum(axis=axis)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, n.sum(axis=axis) / np.where(total > 0, total, 1), np.nan)

    res = bootstrap((num, den), ratio, paired=True, vectorized=True, n_resamples=n_boot, confidence_level=0.95,
                    method="percentile", random_state=np.random.default_rng(seed))
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return [lo, hi] if np.isfinite(lo) and np.isfinite(hi) else None


def _precision_recall(d: np.ndarray, margin: float) -> tuple[float | None, float | None, float]:
    """Sentence-level precision, recall and false-pass rate of ``pass`` at ``margin`` (module doc)."""
    from sklearn.metrics import precision_score, recall_score

    if len(d) == 0:
        return None, None, 0.0
    y_true = np.r_[np.ones(len(d), dtype=int), np.zeros(len(d), dtype=int)]
    y_pred = np.r_[d > margin, -d > margin].astype(int)
    if y_pred.sum() == 0:
        precision = None
    else:
        precision = float(precision_score(y_true, y_pred, zero_division=0))
    recall = float(recall_score(y_true, y_pred, zero_division=0))
    return precision, recall, float(np.mean(-d > margin))


def _items(groups: dict[int, list[float]], margin: float) -> tuple[float | None, float | None]:
    """(share of complete pseudo-entries verified, share of their one-wrong-sentence variants verified)."""
    full = [np.asarray(v) for v in groups.values() if len(v) == 4]
    if not full:
        return None, None
    verified = np.mean([bool(np.all(v > margin)) for v in full])
    false = []
    for v in full:
        for i in range(4):
            w = v.copy()
            w[i] = -w[i]
            false.append(bool(np.all(w > margin)))
    return float(verified), float(np.mean(false))


def signal_summary(rows: Sequence[dict[str, Any]], signal: str, *, margin: float = DEFAULT_MARGIN, n_boot: int = DEFAULT_N_BOOT,
                   seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """Metrics of one signal over calibration ``rows`` (module doc for every definition).

    ``rows``: ``{"pair": pair index, "roundtrip": {"sim_own", "sim_other"} | None, "encoder": {...} |
    None, "error": str | None}``. Returns ``{"signal", "n_sentences" (scored), "n_unscored", "n_pairs",
    "accuracy", "ci95", "margin", "precision", "precision_ci95", "recall", "recall_ci95",
    "items_verified", "items_false_verified", "by_margin": [{"margin", "precision", "recall",
    "false_pass_rate", "items_verified", "items_false_verified"}], "margins": {target precision:
    smallest margin reaching it or None}, "d_mean"}``; rates in [0, 1], ``None`` when undefined.
    """
    scored = [(int(r["pair"]), sentence_score(r, signal)) for r in rows]
    valid = [(p, d) for p, d in scored if d is not None]
    d = np.asarray([v for _, v in valid], dtype=float)
    pair_ids = sorted({p for p, _ in valid})
    groups: dict[int, list[float]] = defaultdict(list)
    for p, v in valid:
        groups[p].append(v)

    def per_pair(fn: Callable[[np.ndarray], tuple[object, object]]) -> tuple[np.ndarray, np.ndarray]:
        num = np.asarray([fn(np.asarray(groups[p]))[0] for p in pair_ids], dtype=float)
        den = np.asarray([fn(np.asarray(groups[p]))[1] for p in pair_ids], dtype=float)
        return num, den

    precision, recall, _ = _precision_recall(d, margin)
    items_v, items_f = _items(groups, margin)
    by_margin = []
    for m in MARGINS:
        prec, rec, fpr = _precision_recall(d, m)
        iv, ifv = _items(groups, m)
        by_margin.append({"margin": m, "precision": prec, "recall": rec, "false_pass_rate": fpr,
                          "n_pass": int(np.sum(d > m) + np.sum(-d > m)), "min_pass": _min_pass(len(d)),
                          "items_verified": iv, "items_false_verified": ifv})
    margins = {str(target): smallest_margin(by_margin, target) for target in TARGET_PRECISIONS}
    return {
        "signal": signal, "n_sentences": len(d), "n_unscored": len(scored) - len(d), "n_pairs": len(pair_ids),
        "accuracy": float(np.mean(d > 0)) if len(d) else None,
        "ci95": _bootstrap(*per_pair(lambda v: (np.sum(v > 0), len(v))), n_boot, seed),
        "margin": margin, "precision": precision,
        "precision_ci95": _bootstrap(*per_pair(lambda v: (np.sum(v > margin), np.sum(v > margin) + np.sum(-v > margin))),
                                     n_boot, seed),
        "recall": recall,
        "recall_ci95": _bootstrap(*per_pair(lambda v: (np.sum(v > margin), len(v))), n_boot, seed),
        "items_verified": items_v, "items_false_verified": items_f,
        "by_margin": by_margin, "margins": margins,
        "d_mean": float(np.mean(d)) if len(d) else None,
    }


def _min_pass(n_sentences: int) -> int:
    return max(1, int(np.ceil(MIN_PASS_SHARE * n_sentences)))


def ratio_interval(num: np.ndarray, den: np.ndarray, n_boot: int = DEFAULT_N_BOOT,
                   seed: int = DEFAULT_SEED) -> list[float] | None:
    """95% percentile bootstrap interval of ``sum(num) / sum(den)`` resampling the groups (one value of
    each per group; ``scipy.stats.bootstrap``, seeded); None with fewer than 2 groups or no denominator."""
    return _bootstrap(num, den, n_boot, seed)
