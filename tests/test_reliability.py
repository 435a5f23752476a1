"""Krippendorff's alpha and Cohen's kappa of `validate report` against a published worked example and
against values computed here independently (a coincidence-matrix alpha written from the paper's formulas)."""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations

import numpy as np
import pytest
from factories import make_db
from test_validation import scripted_answers

from fbagent.validation.aggregate import report_with_entries
from fbagent.validation.reliability import (
    ANSWERS,
    _alpha,
    build_units,
    canonical_answer,
    reliability_report,
)

NAN = math.nan
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers x 12 units,
# values 1..5, missing data. Published: nominal alpha = 0.743, ordinal 0.815, interval 0.849, ratio 0.797.
EXAMPLE_C = [[1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
             [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
             [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
             [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN]]


def nominal_alpha(data: list[list[float]]) -> float:
    """Nominal alpha from the coincidence matrix (Krippendorff 2011, sec. A): 1 - (n - 1) * D_o / D_e."""
    o: Counter[tuple[float, float]] = Counter()
    for u in range(len(data[0])):
        vals = [row[u] for row in data if not math.isnan(row[u])]
        if len(vals) < 2:
            continue
        for a, b in permutations(range(len(vals)), 2):
            o[(vals[a], vals[b])] += 1 / (len(vals) - 1)
    n_c: Counter[float] = Counter()
    for (c, _), w in o.items():
        n_c[c] += w
    n = sum(n_c.values())
    d_o = sum(w for (c, k), w in o.items() if c != k)
    d_e = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k)
    return 1 - (n - 1) * d_o / d_e


def test_published_worked_example():
    data = np.array(EXAMPLE_C, dtype=float)
    assert round(_alpha(data, "nominal"), 3) == 0.743
    assert round(_alpha(data, "ordinal"), 3) == 0.815
    assert round(nominal_alpha(EXAMPLE_C), 3) == 0.743   # the test's own implementation agrees


def test_report_matches_independent_computation(tmp_path):
    db = make_db(tmp_path / "v.db", n=6, statuses=("verified", "flagged", "verified", "flagged", "verified",
                                                     "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    _, entries = report_with_entries(db)
    rel = reliability_report(entries, seed=3, resamples=200)
    # the answers, rebuilt from the stored judgments by hand: annotator x (entry, pair)
    names = ["alice", "bob", "carol"]
    units = [(e, p) for e in entries for p in ("base", "extended")]
    data = [[float(ANSWERS.index(canonical_answer(p, entries[e].pairs[n][p]))) for e, p in units] for n in names]
    alpha = {r["judgment"]: r for r in rel["alpha"]}
    assert alpha["answer (4 choices)"]["value"] == pytest.approx(nominal_alpha(data))
    assert alpha["answer (4 choices)"]["units"] == 10
    assert alpha["answer (4 choices)"]["low"] <= alpha["answer (4 choices)"]["value"] <= alpha["answer (4 choices)"]["high"]
    # Cohen's kappa of alice and bob on the answers: p_o and p_e from the two rows
    a, b = data[0], data[1]
    p_o = sum(x == y for x, y in zip(a, b, strict=True)) / len(a)
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[k] * cb[k] for k in ca) / len(a) ** 2
    pair = next(r for r in rel["kappa"] if r["annotators"] == ["alice", "bob"])
    assert pair["answer"]["value"] == pytest.approx((p_o - p_e) / (1 - p_e))
    # attention checks: alice misses 1 of 10, bob none, carol 2 (test_validation's AUX_WRONG)
    per = {r["annotator"]: r for r in rel["annotators"]}
    assert [per[n]["attention_accuracy"] for n in names] == [0.9, 1.0, 0.8]
    # the same seed gives the same intervals; the matrix has one row per annotator
    assert reliability_report(entries, seed=3, resamples=200) == rel
    assert build_units(entries).answers.shape == (3, 10)


def test_fast_kappa_equals_scikit_learn():
    from fbagent.validation.reliability import fast_kappa, kappa

    rng = np.random.default_rng(1)
    for _ in range(200):
        a = rng.integers(0, 3, size=int(rng.integers(2, 15))).astype(float)
        b = rng.integers(0, 3, size=len(a)).astype(float)
        for weights in (None, "linear"):
            slow, fast = kappa(a, b, weights), fast_kappa(a, b, weights)
            assert (slow is None and fast is None) or fast == pytest.approx(slow, abs=1e-12)
