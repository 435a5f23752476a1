"""Verifier vs human validation: would the verifier's verdict have saved human judgments, at what precision?

For every judged entry (an annotator gave both scored pairs a judgment on its current text;
:mod:`fbagent.validation.aggregate`) the verifier's verdict is set beside the human filter (FrameBench sec.
3.2: kept when at least ``min_correct`` annotators judged it correct and ``min_acceptable``
acceptable, and not marked "cannot be fixed"):

- entry level: the item's status, ``verified`` (every check and all four round trips passed) or
  not (``flagged``), against kept / dropped;
- per pair type (``base``: S_A, S_B; ``extended``: S_A', S_B'): the verifier passes the pair when
  both of its sentences pass (``items.verifier`` ``sentences[key].pass``); the humans keep the
  pair when at least ``min_correct`` annotators answered THAT pair correctly and ``min_acceptable``
  rated it acceptable (and the entry is not "cannot be fixed");
- per generator model (``items.generator_model``), entry level.

Each row is a 2x2 table, positive = verified / kept: ``tp`` (verified, kept), ``fp`` (verified,
dropped), ``fn`` (not verified, kept), ``tn`` (not verified, dropped); ``precision = tp / (tp +
fp)`` (how many verified entries the humans keep), ``recall = tp / (tp + fn)`` (how many kept
entries the verifier verified), each with a 95% percentile bootstrap interval over entries
(``precision_interval``, ``recall_interval``: 1000 resamples, ``random.Random(0)``), ``agreement = (tp + tn) / n`` and Cohen's kappa (scikit-learn
``cohen_kappa_score``; ``None`` when undefined, e.g. one class only). ``judgments_saved``: the
entry judgments (annotators x entries) the verified entries received, i.e. what accepting
``verified`` without human validation would have saved, at the row's precision.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

from fbagent.seeds import DEFAULT_SEED

PAIR_SENTENCES = {"base": ("sentence_a", "sentence_b"), "extended": ("sentence_a_prime", "sentence_b_prime")}
SENTENCE_KEYS = ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime")
#: the verifier's signals, each counted alone against the humans (``signal_passed``)
SIGNALS = ("roundtrip", "encoder")
RESAMPLES = 1000


def confusion_row(scope: str, pairs: Iterable[tuple[bool, bool]], judgments: int = 0) -> dict[str, Any]:
    """One row of the table from ``(verifier positive, human positive)`` pairs (module doc for the keys)."""
    pairs = list(pairs)
    tp = sum(1 for v, h in pairs if v and h)
    fp = sum(1 for v, h in pairs if v and not h)
    fn = sum(1 for v, h in pairs if not v and h)
    tn = sum(1 for v, h in pairs if not v and not h)
    n = len(pairs)
    intervals = rate_intervals(pairs)
    return {"scope": scope, "n": n, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None,
            "precision_interval": intervals["precision"], "recall_interval": intervals["recall"],
            "agreement": (tp + tn) / n if n else None, "kappa": cohens_kappa([v for v, _ in pairs], [h for _, h in pairs]),
            "judgments_saved": judgments}


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of sorted ``values`` with linear interpolation (numpy's default)."""
    pos = q * (len(values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def rate_intervals(pairs: Sequence[tuple[bool, bool]], *, seed: int = DEFAULT_SEED,
                   resamples: int = RESAMPLES) -> dict[str, list[float] | None]:
    """95% percentile bootstrap intervals of precision and recall of ``(verifier, human)`` pairs, one per
    entry, resampling entries with replacement (``random.Random(seed)``, ``resamples`` draws; draws where
    a rate is undefined are left out). ``{"precision": [low, high] | None, "recall": ...}``."""
    if not pairs:
        return {"precision": None, "recall": None}
    rng = random.Random(seed)
    prec: list[float] = []
    rec: list[float] = []
    n = len(pairs)
    for _ in range(resamples):
        tp = fp = fn = 0
        for _ in range(n):
            v, h = pairs[rng.randrange(n)]
            tp += v and h
            fp += v and not h
            fn += (not v) and h
        if tp + fp:
            prec.append(tp / (tp + fp))
        if tp + fn:
            rec.append(tp / (tp + fn))
    prec.sort()
    rec.sort()
    return {"precision": [_percentile(prec, 0.025), _percentile(prec, 0.975)] if prec else None,
            "recall": [_percentile(rec, 0.025), _percentile(rec, 0.975)] if rec else None}


def cohens_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two binary raters (scikit-learn ``cohen_kappa_score``); ``None`` when undefined
    (no subjects, or chance agreement 1: both raters use one and the same class only)."""
    import math
    import warnings

    if not a:
        return None
    if len(set(a) | set(b)) < 2:
        return None
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(cohen_kappa_score([int(x) for x in a], [int(x) for x in b]))
    return None if math.isnan(value) else value


def _pair_passed(verifier: Any, pair: str) -> bool | None:
    """Whether both sentences of ``pair`` passed the verifier (``None`` when it has no score for them)."""
    if isinstance(verifier, str):
        try:
            verifier = json.loads(verifier)
        except json.JSONDecodeError:
            return None
    sentences = (verifier or {}).get("sentences") or {}
    got = [sentences.get(k) for k in PAIR_SENTENCES[pair]]
    if any(not isinstance(s, dict) or "pass" not in s for s in got):
        return None
    return all(bool(s["pass"]) for s in got if s is not None)


def _decoded(verifier: object) -> dict[str, Any]:
    if isinstance(verifier, str):
        try:
            verifier = json.loads(verifier)
        except json.JSONDecodeError:
            return {}
    return verifier if isinstance(verifier, dict) else {}


def signal_scores(verifier: object, signal: str) -> list[float] | None:
    """Per sentence of an entry, ``sim_own - sim_other`` of ``signal`` (``roundtrip``: the round trip's
    cosines; ``encoder``: the encoder check's); None unless all four sentences have the signal's scores."""
    sentences = _decoded(verifier).get("sentences") or {}
    out = []
    for key in SENTENCE_KEYS:
        s = sentences.get(key)
        scores = (s or {}).get("encoder_check") if signal == "encoder" else s
        if not isinstance(scores, dict) or scores.get("sim_own") is None or scores.get("sim_other") is None:
            return None
        out.append(float(scores["sim_own"]) - float(scores["sim_other"]))
    return out


def signal_passed(verifier: object, signal: str, margin: float | None = None) -> bool | None:
    """Whether every sentence of an entry passes ``signal`` alone: ``sim_own - sim_other > margin`` (the
    margin stored with the entry when ``margin`` is None); None without the signal's scores."""
    diffs = signal_scores(verifier, signal)
    if diffs is None:
        return None
    m = float(_decoded(verifier).get("margin") or 0.0) if margin is None else margin
    return all(d > m for d in diffs)


def verifier_vs_human(entries: dict[str, Any], items: Sequence[dict[str, Any]], *, min_correct: int,
                      min_acceptable: int) -> dict[str, Any]:
    """The verifier-vs-human table (module doc) of the judged ``entries``.

    ``entries``: :class:`fbagent.validation.aggregate.EntryScore` by item id, filter applied; ``items``: their
    ``items`` rows with ``id``, ``status``, ``verifier``, ``generator_model``, ``language``. Returns
    ``{"rows": [row, ...], "convention": str}``; rows in order: ``all entries``, ``base pair``,
    ``extended pair``, ``signal roundtrip`` / ``signal encoder`` (each signal alone at the stored margin,
    where the entries have its scores), ``language <code>`` per language, then ``model <name>`` per
    generator model (sorted).
    """
    by_id = {i["id"]: i for i in items}
    judged = [e for e in entries.values() if e.scores and e.item_id in by_id]
    rows = []

    def entry_pairs(group: list[Any]) -> tuple[list[tuple[bool, bool]], int]:
        out, saved = [], 0
        for e in group:
            verified = by_id[e.item_id]["status"] == "verified"
            out.append((verified, bool(e.kept)))
            saved += len(e.scores) if verified else 0
        return out, saved

    pairs, saved = entry_pairs(judged)
    rows.append(confusion_row("all entries", pairs, saved))
    for pair in PAIR_SENTENCES:
        got, saved = [], 0
        for e in judged:
            v = _pair_passed(by_id[e.item_id].get("verifier"), pair)
            answers = [p[pair] for p in e.pairs.values() if pair in p]
            if v is None or not answers:
                continue
            kept = (sum(a.correct for a in answers) >= min_correct and sum(a.acceptable for a in answers) >= min_acceptable
                    and not e.unfixable)
            got.append((v, kept))
            saved += len(answers) if v else 0
        rows.append(confusion_row(f"{pair} pair", got, saved))
    for signal in SIGNALS:
        got = [(passed, bool(e.kept)) for e in judged
               if (passed := signal_passed(by_id[e.item_id].get("verifier"), signal)) is not None]
        if got:
            rows.append(confusion_row(f"signal {signal}", got))
    languages = sorted({str(by_id[e.item_id].get("language") or "unknown") for e in judged})
    for lang in languages:
        pairs, saved = entry_pairs([e for e in judged if str(by_id[e.item_id].get("language") or "unknown") == lang])
        rows.append(confusion_row(f"language {lang}", pairs, saved))
    models = sorted({str(by_id[e.item_id].get("generator_model") or "unknown") for e in judged})
    for model in models:
        group = [e for e in judged if str(by_id[e.item_id].get("generator_model") or "unknown") == model]
        pairs, saved = entry_pairs(group)
        rows.append(confusion_row(f"model {model}", pairs, saved))
    return {"rows": rows, "convention": "positive = verified (verifier) / kept (human filter); precision = "
            "tp/(tp+fp), recall = tp/(tp+fn), agreement = (tp+tn)/n, Cohen's kappa (scikit-learn); pair rows: "
            "both sentences pass / the pair judged correct and acceptable by enough annotators; signal rows: every sentence's "
            "sim_own - sim_other > the stored margin for that signal alone; 95% bootstrap intervals of precision and recall "
            "over entries (1000 resamples, seed 0); human = the filter's outcome (adjudicated where the lead decided)"}
