"""Inter-annotator reliability as reviewers report it: Krippendorff's alpha, pairwise Cohen's kappa, each
annotator's attention checks, agreement with the majority, pace and drift; intervals by bootstrap.

Units and values (one convention for every number here; only judgments of an entry's current text count,
:func:`fbagent.validation.aggregate.collect`):

- a *unit* is one scored pair task of one entry, ``(entry, base)`` or ``(entry, extended)`` (FrameBench,
  Yano and Sasano 2026, sec. 3.2: the pairs whose judgments decide the filter); the attention-check pairs
  are reported per annotator, not pooled into agreement;
- the *answer* is the four-choice answer in canonical terms, independent of the order the sentences were
  shown in: ``first`` / ``second`` / ``both`` / ``neither`` sentence of the pair's canonical order
  (:data:`fbagent.validation.assignment.PAIRS`); nominal data;
- *acceptability* is the level's rank on the ordinal scale ``unacceptable | unnatural < acceptable <
  natural`` (:data:`LEVEL_RANKS`; the English three-level and the binary scale of
  :mod:`fbagent.tui.scales` share it); ordinal data.

Statistics:

- Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", Annenberg School
  for Communication, sec. A and C): nominal for the answers, ordinal for acceptability, plus nominal alpha
  of the binary entry-level judgments (correct, acceptable: entry score = min over both pairs); missing
  judgments are allowed. Computed by the ``krippendorff`` package (Castro, MIT), which reproduces the
  paper's worked example C (nominal alpha = 0.743, ordinal 0.815: ``tests/test_reliability.py``).
- Cohen's kappa for every pair of annotators on the units both judged (scikit-learn ``cohen_kappa_score``):
  unweighted on the answers, linearly weighted on the acceptability ranks (the bootstrap draws use
  :func:`fast_kappa`, the same formula in numpy, scikit-learn's per-call checks cost 1 ms a draw).
- Intervals: 95% percentile bootstrap (Efron and Tibshirani 1993, ch. 13) resampling *entries* with
  replacement (both units of an entry travel together: they share the entry's sentences), ``resamples``
  draws of ``numpy.random.default_rng(seed)``; draws where the statistic is undefined (one value only)
  are left out and counted (``undefined_draws``).
- Per annotator: attention-check accuracy (both-correct and neither-correct pairs answered correctly),
  agreement with the majority (share of the annotator's units whose answer equals the strict majority
  answer of the *other* annotators of that unit; units with a tie or no other annotator are skipped),
  judgments per hour (pair tasks judged / hours on screen, the app's per-task timer), and drift: the
  agreement with the majority over the first and the second half of the annotator's units in the order
  they were judged (``judged_at``), and their difference (second - first).
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

import krippendorff
import numpy as np

from fbagent.seeds import DEFAULT_SEED
from fbagent.validation.aggregate import EntryScore, PairJudgment
from fbagent.validation.assignment import AUXILIARY_PAIRS, PAIRS, SCORED_PAIRS, selected_fields

DEFAULT_RESAMPLES = 1000
#: acceptability level name -> rank on the pooled ordinal scale (worst first; see the module docstring)
LEVEL_RANKS = {"unacceptable": 0, "unnatural": 0, "acceptable": 1, "natural": 2}
#: canonical answers: which of the pair's canonical sentences the annotator selected
ANSWERS = ("neither", "first", "second", "both")
CONVENTION = ("units: base and extended pair of each entry (current text); answers in canonical terms "
              "(first/second/both/neither sentence), nominal; acceptability ranks unacceptable|unnatural < "
              "acceptable < natural, ordinal; Krippendorff's alpha (krippendorff package), Cohen's kappa "
              "(scikit-learn; linear weights for acceptability); 95% percentile bootstrap over entries")


class Interval(TypedDict):
    """A statistic with its 95% bootstrap interval (``None`` where undefined)."""

    value: float | None
    low: float | None
    high: float | None
    undefined_draws: int


def canonical_answer(pair: str, j: PairJudgment) -> str:
    """The answer of judgment ``j`` of ``pair`` in canonical terms (:data:`ANSWERS`): which of the pair's
    canonical first / second sentence it selected, whatever order they were shown in."""
    chosen = set(selected_fields(j.choice, j.shown_first, j.shown_second))
    first, second = PAIRS[pair][0] in chosen, PAIRS[pair][1] in chosen
    return "both" if first and second else "first" if first else "second" if second else "neither"


@dataclass(frozen=True)
class Units:
    """The reliability data: ``annotators`` (sorted), ``entries`` (one per unit), ``answers`` and
    ``ranks`` (annotators x units, ``nan`` where missing; answers coded by :data:`ANSWERS` index),
    ``order`` (per annotator: unit indices in the order judged)."""

    annotators: list[str]
    entries: list[str]
    answers: np.ndarray
    ranks: np.ndarray
    order: dict[str, list[int]]


def build_units(entries: dict[str, EntryScore]) -> Units:
    """Annotators x units matrices of the current judgments of the scored pairs (module docstring)."""
    names = sorted({n for e in entries.values() for n in e.pairs})
    keys = [(e.item_id, p) for e in entries.values() for p in SCORED_PAIRS
            if any(p in e.pairs[n] for n in e.pairs)]
    answers = np.full((len(names), len(keys)), np.nan)
    ranks = np.full((len(names), len(keys)), np.nan)
    when: dict[str, list[tuple[str, int]]] = {n: [] for n in names}
    for u, (item, pair) in enumerate(keys):
        for r, name in enumerate(names):
            j = entries[item].pairs.get(name, {}).get(pair)
            if j is None:
                continue
            answers[r, u] = ANSWERS.index(canonical_answer(pair, j))
            ranks[r, u] = LEVEL_RANKS.get(j.acceptability, np.nan)
            when[name].append((j.judged_at or "", u))
    order = {n: [u for _, u in sorted(when[n])] for n in names}
    return Units(names, [k[0] for k in keys], answers, ranks, order)


def value_counts(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, domain)``: units x values matrix of how many raters gave each value (the ``krippendorff``
    package's ``value_counts`` input; built once, then resampled by rows) and the sorted values seen."""
    domain = np.unique(data[~np.isnan(data)])
    counts = np.stack([(data == v).sum(axis=0) for v in domain], axis=1) if len(domain) else np.zeros((data.shape[1], 0))
    return counts, domain


def _alpha_counts(counts: np.ndarray, domain: np.ndarray, level: Literal["nominal", "ordinal"]) -> float | None:
    """Krippendorff's alpha from a units x values count matrix, or None when undefined."""
    pairable = counts[counts.sum(axis=1) >= 2]
    if pairable.shape[0] == 0 or np.count_nonzero(pairable.sum(axis=0)) < 2:
        return None  # no unit judged twice, or one value only: alpha is 0/0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(krippendorff.alpha(value_counts=pairable, value_domain=domain, level_of_measurement=level))
    return None if math.isnan(value) or math.isinf(value) else value


def _alpha(data: np.ndarray, level: Literal["nominal", "ordinal"]) -> float | None:
    """Krippendorff's alpha of ``data`` (raters x units, nan = missing) or None when undefined."""
    if data.size == 0:
        return None
    return _alpha_counts(*value_counts(data), level)


def bootstrap(statistic: Callable[[np.ndarray], float | None], groups: Sequence[str], *, seed: int,
              resamples: int, point: Callable[[np.ndarray], float | None] | None = None) -> Interval:
    """``statistic(columns)`` on all columns and its 95% percentile interval, resampling ``groups`` (one
    per column, e.g. the entry of each unit) with replacement; columns are unit indices into the caller's
    data. Draws where the statistic is None are counted in ``undefined_draws``. ``point`` (default
    ``statistic``) gives the value on all columns (the library's function, where the draws use a faster
    equal one)."""
    cols_of: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        cols_of.setdefault(g, []).append(i)
    ids = sorted(cols_of)
    value = (point or statistic)(np.arange(len(groups)))
    if value is None or not ids:
        return {"value": value, "low": None, "high": None, "undefined_draws": 0}
    rng = np.random.default_rng(seed)
    draws, undefined = [], 0
    for pick in rng.integers(0, len(ids), size=(resamples, len(ids))):
        got = statistic(np.fromiter((c for g in pick for c in cols_of[ids[g]]), dtype=np.int64))
        if got is None:
            undefined += 1
        else:
            draws.append(got)
    if not draws:
        return {"value": value, "low": None, "high": None, "undefined_draws": undefined}
    low, high = np.percentile(draws, [2.5, 97.5])
    return {"value": value, "low": float(low), "high": float(high), "undefined_draws": undefined}


def kappa(a: Sequence[float], b: Sequence[float], weights: str | None = None) -> float | None:
    """Cohen's kappa of two raters' codes (scikit-learn ``cohen_kappa_score``, ``weights`` None or
    ``"linear"``); None when undefined (no units, or both raters use one and the same code only)."""
    if len(a) == 0 or len(set(a) | set(b)) < 2:
        return None
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(cohen_kappa_score([int(x) for x in a], [int(x) for x in b], weights=weights))
    return None if math.isnan(value) else value


def fast_kappa(a: np.ndarray, b: np.ndarray, weights: str | None = None) -> float | None:
    """:func:`kappa` computed with numpy as scikit-learn computes it (labels = the sorted codes seen in
    either rater; linear weights on the labels' positions), for the bootstrap's many draws; the test
    checks that both agree."""
    if len(a) == 0:
        return None
    labels = np.unique(np.concatenate([a, b]))
    k = len(labels)
    if k < 2:
        return None
    ia, ib = np.searchsorted(labels, a), np.searchsorted(labels, b)
    confusion = np.bincount(ia * k + ib, minlength=k * k).reshape(k, k).astype(float)
    expected = np.outer(confusion.sum(axis=1), confusion.sum(axis=0)) / confusion.sum()
    idx = np.arange(k)
    w = np.abs(idx[:, None] - idx[None, :]).astype(float) if weights == "linear" else 1.0 - np.eye(k)
    denominator = float(np.sum(w * expected))
    if denominator == 0:
        return None
    return 1.0 - float(np.sum(w * confusion)) / denominator


def _entry_alpha(entries: dict[str, EntryScore], names: list[str], key: str, seed: int,
                 resamples: int) -> dict[str, Any]:
    """Nominal alpha of the binary entry-level judgment ``key`` (correct | acceptable), entries as units."""
    judged = [e for e in entries.values() if e.scores]
    data = np.full((len(names), len(judged)), np.nan)
    for u, e in enumerate(judged):
        for r, n in enumerate(names):
            if n in e.scores:
                data[r, u] = float(e.scores[n][key])
    groups = [e.item_id for e in judged]
    counts, domain = value_counts(data)
    return {"judgment": f"entry {key}", "level": "nominal", "units": len(judged),
            **bootstrap(lambda c: _alpha_counts(counts[c], domain, "nominal"), groups, seed=seed,
                        resamples=resamples)}


def alphas(entries: dict[str, EntryScore], units: Units, *, seed: int, resamples: int) -> list[dict[str, Any]]:
    """Krippendorff's alpha rows: the answers (nominal), acceptability (ordinal), and the entry-level
    correct / acceptable judgments (nominal), each with ``units`` and its bootstrap interval."""
    answers, answer_domain = value_counts(units.answers)
    ranks, rank_domain = value_counts(units.ranks)
    rows = [
        {"judgment": "answer (4 choices)", "level": "nominal", "units": len(units.entries),
         **bootstrap(lambda c: _alpha_counts(answers[c], answer_domain, "nominal"), units.entries, seed=seed,
                     resamples=resamples)},
        {"judgment": "acceptability", "level": "ordinal", "units": len(units.entries),
         **bootstrap(lambda c: _alpha_counts(ranks[c], rank_domain, "ordinal"), units.entries, seed=seed,
                     resamples=resamples)},
    ]
    rows += [_entry_alpha(entries, units.annotators, k, seed, resamples) for k in ("correct", "acceptable")]
    return rows


def pairwise_kappas(units: Units, *, seed: int, resamples: int) -> list[dict[str, Any]]:
    """Cohen's kappa for every pair of annotators (name order) on the units both judged: ``answer``
    (unweighted) and ``acceptability`` (linear weights), each with its bootstrap interval."""
    rows = []
    for i, a in enumerate(units.annotators):
        for j in range(i + 1, len(units.annotators)):
            both = ~np.isnan(units.answers[i]) & ~np.isnan(units.answers[j])
            cols = np.flatnonzero(both)
            groups = [units.entries[c] for c in cols]
            ans = units.answers[[i, j]][:, cols]
            rk = units.ranks[[i, j]][:, cols]
            def on_answers(c: np.ndarray, x: np.ndarray = ans) -> float | None:
                return fast_kappa(x[0, c], x[1, c])

            def on_ranks(c: np.ndarray, x: np.ndarray = rk) -> float | None:
                return fast_kappa(x[0, c], x[1, c], "linear")

            def answers_point(c: np.ndarray, x: np.ndarray = ans) -> float | None:
                return kappa(x[0, c], x[1, c])

            def ranks_point(c: np.ndarray, x: np.ndarray = rk) -> float | None:
                return kappa(x[0, c], x[1, c], "linear")

            rows.append({
                "annotators": [a, units.annotators[j]], "units": len(cols),
                "answer": bootstrap(on_answers, groups, seed=seed, resamples=resamples, point=answers_point),
                "acceptability": bootstrap(on_ranks, groups, seed=seed, resamples=resamples, point=ranks_point),
            })
    return rows


def _majority_hits(units: Units, r: int) -> dict[int, bool]:
    """Unit index -> whether annotator ``r``'s answer equals the strict majority of the others' answers
    (units with a tie or no other answer are left out)."""
    hits = {}
    for u in np.flatnonzero(~np.isnan(units.answers[r])):
        others = [v for k, v in enumerate(units.answers[:, u]) if k != r and not np.isnan(v)]
        if not others:
            continue
        (top, n), *rest = Counter(others).most_common(2) + [(None, 0)]
        if rest[0][1] == n:
            continue
        hits[int(u)] = bool(units.answers[r, u] == top)
    return hits


def _rate(values: Sequence[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def annotator_rows(entries: dict[str, EntryScore], units: Units) -> list[dict[str, Any]]:
    """Per annotator: attention-check accuracy, agreement with the majority, judgments per hour, drift."""
    rows = []
    for r, name in enumerate(units.annotators):
        judgments = [j for e in entries.values() for p, j in e.pairs.get(name, {}).items()]
        checks = [j.correct for e in entries.values() for p, j in e.pairs.get(name, {}).items()
                  if p in AUXILIARY_PAIRS]
        hits = _majority_hits(units, r)
        ordered = [hits[u] for u in units.order[name] if u in hits]
        half = len(ordered) // 2
        first, second = _rate(ordered[:half]), _rate(ordered[half:]) if half else None
        seconds = sum(j.seconds for j in judgments)
        rows.append({
            "annotator": name, "judgments": len(judgments),
            "attention_checks": len(checks), "attention_accuracy": _rate(checks),
            "majority_units": len(ordered), "majority_agreement": _rate(ordered),
            "judgments_per_hour": 3600 * len(judgments) / seconds if seconds > 0 else None,
            "drift_first_half": first, "drift_second_half": second,
            "drift": None if first is None or second is None else second - first,
        })
    return rows


def reliability_report(entries: dict[str, EntryScore], *, seed: int = DEFAULT_SEED,
                resamples: int = DEFAULT_RESAMPLES) -> dict[str, Any]:
    """The reliability block of ``validate report`` (module docstring): ``{"alpha": [...], "kappa":
    [...], "annotators": [...], "seed", "resamples", "convention"}``. ``entries``: current judgments
    (:func:`fbagent.validation.aggregate.collect`). Raises ValueError when ``resamples`` < 1."""
    if resamples < 1:
        raise ValueError("resamples must be >= 1")
    units = build_units(entries)
    return {"alpha": alphas(entries, units, seed=seed, resamples=resamples),
            "kappa": pairwise_kappas(units, seed=seed, resamples=resamples),
            "annotators": annotator_rows(entries, units), "seed": seed, "resamples": resamples,
            "convention": CONVENTION}
