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
entries the verifier verified), ``agreement = (tp + tn) / n`` and Cohen's kappa (scikit-learn
``cohen_kappa_score``; ``None`` when undefined, e.g. one class only). ``judgments_saved``: the
entry judgments (annotators x entries) the verified entries received, i.e. what accepting
``verified`` without human validation would have saved, at the row's precision.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

PAIR_SENTENCES = {"base": ("sentence_a", "sentence_b"), "extended": ("sentence_a_prime", "sentence_b_prime")}


def confusion_row(scope: str, pairs: Iterable[tuple[bool, bool]], judgments: int = 0) -> dict[str, Any]:
    """One row of the table from ``(verifier positive, human positive)`` pairs (module doc for the keys)."""
    pairs = list(pairs)
    tp = sum(1 for v, h in pairs if v and h)
    fp = sum(1 for v, h in pairs if v and not h)
    fn = sum(1 for v, h in pairs if not v and h)
    tn = sum(1 for v, h in pairs if not v and not h)
    n = len(pairs)
    return {"scope": scope, "n": n, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None,
            "agreement": (tp + tn) / n if n else None, "kappa": cohens_kappa([v for v, _ in pairs], [h for _, h in pairs]),
            "judgments_saved": judgments}


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


def verifier_vs_human(entries: dict[str, Any], items: Sequence[dict[str, Any]], *, min_correct: int,
                      min_acceptable: int) -> dict[str, Any]:
    """The verifier-vs-human table (module doc) of the judged ``entries``.

    ``entries``: :class:`fbagent.validation.aggregate.EntryScore` by item id, filter applied; ``items``: their
    ``items`` rows with ``id``, ``status``, ``verifier``, ``generator_model``. Returns
    ``{"rows": [row, ...], "convention": str}``; rows in order: ``all entries``, ``base pair``,
    ``extended pair``, then ``model <name>`` per generator model (sorted).
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
    models = sorted({str(by_id[e.item_id].get("generator_model") or "unknown") for e in judged})
    for model in models:
        group = [e for e in judged if str(by_id[e.item_id].get("generator_model") or "unknown") == model]
        pairs, saved = entry_pairs(group)
        rows.append(confusion_row(f"model {model}", pairs, saved))
    return {"rows": rows, "convention": "positive = verified (verifier) / kept (human filter); precision = "
            "tp/(tp+fp), recall = tp/(tp+fn), agreement = (tp+tn)/n, Cohen's kappa (scikit-learn); pair rows: "
            "both sentences pass / the pair judged correct and acceptable by enough annotators"}
