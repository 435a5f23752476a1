"""Metrics of FrameBench, frame identification and SemBench runs, computed from stored predictions.

FrameBench (Yano and Sasano 2026, section 4, Tables 3-4, appendix B):

- accuracy per prompt template = correct / scored answers of that template;
  reported as the mean and the standard deviation over templates. The
  standard deviation is the SAMPLE standard deviation (``ddof=1``, the
  spread of the template accuracies as a sample of possible prompts); it is
  ``None`` with fewer than two templates.
- base vs extended pair accuracy and their difference (base - extended);
- accuracy when the correct sentence is shown 1st vs 2nd and the difference
  (1st - 2nd);
- error breakdown over scored answers: Both, Neither, Opposite (the frame-B
  sentence only). Per template, accuracy + Both + Neither + Opposite = 1;
  every condition metric is computed per template and then averaged over
  templates, so the means also add up to 1.
- 95% confidence interval of the pooled accuracy (all templates) by a
  percentile bootstrap over ENTRIES (all problems of an entry are resampled
  together, since they share sentences), ``n_boot`` resamples, seeded.

Failures (no parseable answer: API error, malformed reply) are NOT scored:
they are excluded from every rate above and reported separately
(``n_failed``, ``failure_rate``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

DDOF = 1
CI_LEVEL = 0.95


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def mean_std(values: Iterable[float | None], ddof: int = DDOF) -> dict[str, float | None]:
    """Mean and standard deviation (``ddof``) of the non-None values; ``std`` None when n <= ddof."""
    vals = [v for v in values if v is not None]
    if not vals:
        return {"mean": None, "std": None, "n": 0}
    arr = np.asarray(vals, dtype=float)
    std = float(arr.std(ddof=ddof)) if len(arr) > ddof else None
    return {"mean": float(arr.mean()), "std": std, "n": len(vals)}


def bootstrap_ci(correct: Sequence[int], scored: Sequence[int], n_boot: int = 1000, seed: int = 0,
                 level: float = CI_LEVEL) -> tuple[float, float] | None:
    """Percentile bootstrap CI of ``sum(correct) / sum(scored)`` resampling groups (entries).

    ``correct[i]``/``scored[i]``: counts of group i. Returns ``(low, high)`` in
    [0, 1], or ``None`` when nothing is scored. Deterministic for a ``seed``.
    """
    c = np.asarray(correct, dtype=float)
    s = np.asarray(scored, dtype=float)
    if len(s) == 0 or s.sum() == 0:
        return None
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(s), size=(n_boot, len(s)))
    num, den = c[idx].sum(axis=1), s[idx].sum(axis=1)
    acc = np.divide(num, den, out=np.full(n_boot, np.nan), where=den > 0)
    acc = acc[~np.isnan(acc)]
    alpha = (1.0 - level) / 2.0
    return float(np.quantile(acc, alpha)), float(np.quantile(acc, 1.0 - alpha))


def _group_counts(preds: Sequence[dict], key: str) -> tuple[list[int], list[int]]:
    groups: dict[str, list[int]] = {}
    for p in preds:
        g = groups.setdefault(str(p[key]), [0, 0])
        if p.get("correct") is not None:
            g[1] += 1
            g[0] += int(bool(p["correct"]))
    return [v[0] for v in groups.values()], [v[1] for v in groups.values()]


def _usage(preds: Sequence[dict]) -> dict:
    def total(key):
        vals = [p.get(key) for p in preds if p.get(key) is not None]
        return int(sum(vals)) if vals else None

    lat = [p["latency_ms"] for p in preds if p.get("latency_ms") is not None]
    think = [p.get("thinking_tokens") or 0 for p in preds]
    return {
        "input_tokens": total("input_tokens"),
        "output_tokens": total("output_tokens"),
        "thinking_tokens_mean": float(np.mean(think)) if think else None,
        "budget_exhausted": sum(1 for p in preds if p.get("budget_exhausted")),
        "latency_ms_mean": float(np.mean(lat)) if lat else None,
    }


def template_metrics(preds: Sequence[dict]) -> dict:
    """Metrics of one template's predictions (all rates over scored answers, in [0, 1])."""
    scored = [p for p in preds if p.get("outcome") is not None]
    n = len(scored)

    def acc(rows):
        return _rate(sum(1 for p in rows if p["outcome"] == "correct"), len(rows))

    base = [p for p in scored if p["kind"] == "base"]
    ext = [p for p in scored if p["kind"] == "extended"]
    first = [p for p in scored if p["correct_position"] == 1]
    second = [p for p in scored if p["correct_position"] == 2]
    m = {
        "n": len(preds), "n_scored": n, "n_failed": len(preds) - n,
        "accuracy": acc(scored),
        "base": acc(base), "extended": acc(ext),
        "first": acc(first), "second": acc(second),
        **{err: _rate(sum(1 for p in scored if p["outcome"] == err), n) for err in ("both", "neither", "opposite")},
    }
    m["base_minus_extended"] = None if m["base"] is None or m["extended"] is None else m["base"] - m["extended"]
    m["first_minus_second"] = None if m["first"] is None or m["second"] is None else m["first"] - m["second"]
    return m


FRAMEBENCH_KEYS = ("accuracy", "base", "extended", "base_minus_extended", "first", "second",
                   "first_minus_second", "both", "neither", "opposite")


def framebench_summary(preds: Sequence[dict], n_boot: int = 1000, seed: int = 0) -> dict:
    """Summary of FrameBench predictions (see the module docstring for every definition).

    ``preds``: dicts with ``template``, ``entry_id``, ``kind``,
    ``correct_position``, ``outcome`` (``correct``/``both``/``neither``/
    ``opposite``/None) and ``correct`` (bool/None). Returns a JSON-ready dict:
    ``{key: {"mean", "std", "n"}}`` for every key in :data:`FRAMEBENCH_KEYS`,
    plus ``per_template``, ``accuracy_pooled``, ``ci95``, counts and usage.
    """
    templates = sorted({p["template"] for p in preds})
    per_template = {t: template_metrics([p for p in preds if p["template"] == t]) for t in templates}
    n_scored = sum(m["n_scored"] for m in per_template.values())
    n_correct = sum(1 for p in preds if p.get("outcome") == "correct")
    correct, scored = _group_counts(preds, "entry_id")
    out = {
        "task": "framebench",
        "ddof": DDOF,
        "n_predictions": len(preds),
        "n_scored": n_scored,
        "n_failed": len(preds) - n_scored,
        "failure_rate": _rate(len(preds) - n_scored, len(preds)),
        "n_entries": len({p["entry_id"] for p in preds}),
        "n_templates": len(templates),
        "templates": templates,
        "accuracy_pooled": _rate(n_correct, n_scored),
        "ci95": bootstrap_ci(correct, scored, n_boot=n_boot, seed=seed),
        "n_boot": n_boot,
        **{k: mean_std(per_template[t][k] for t in templates) for k in FRAMEBENCH_KEYS},
        "per_template": per_template,
        **_usage(preds),
    }
    return out


def frame_id_summary(preds: Sequence[dict], n_boot: int = 1000, seed: int = 0) -> dict:
    """Frame identification (FrameBench appendix B.5): accuracy, errors (other frame / neither), failures.

    ``preds``: dicts with ``pair_id``, ``outcome`` (``correct``/``other_frame``/
    ``neither``/None) and ``correct``. The CI resamples frame pairs.
    """
    scored = [p for p in preds if p.get("outcome") is not None]
    n = len(scored)
    correct, sc = _group_counts(preds, "pair_id")
    return {
        "task": "frame_id",
        "n_predictions": len(preds), "n_scored": n, "n_failed": len(preds) - n,
        "failure_rate": _rate(len(preds) - n, len(preds)),
        "n_pairs": len({p["pair_id"] for p in preds}),
        "accuracy": _rate(sum(1 for p in scored if p["outcome"] == "correct"), n),
        "other_frame": _rate(sum(1 for p in scored if p["outcome"] == "other_frame"), n),
        "neither": _rate(sum(1 for p in scored if p["outcome"] == "neither"), n),
        "ci95": bootstrap_ci(correct, sc, n_boot=n_boot, seed=seed),
        "n_boot": n_boot,
        **_usage(preds),
    }


def sembench_summary(preds: Sequence[dict], n_boot: int = 1000, seed: int = 0) -> dict:
    """SemBench accuracy per distractor difficulty (easy / mid / hard / rand) with bootstrap CIs.

    ``preds``: one dict per instance with ``instance_id``, ``error`` (None when
    a definition was produced) and ``scores``: ``{difficulty: {"correct": bool,
    ...}}``. An instance whose generation failed is counted in ``n_failed``
    and in no accuracy. CIs resample instances.
    """
    ok = [p for p in preds if p.get("error") is None and p.get("scores")]
    difficulties = [d for d in ("easy", "mid", "hard", "rand") if any(d in p["scores"] for p in ok)]
    per = {}
    for d in difficulties:
        rows = [p for p in ok if d in p["scores"]]
        c = [int(bool(p["scores"][d]["correct"])) for p in rows]
        per[d] = {
            "n": len(rows),
            "accuracy": _rate(sum(c), len(c)),
            "ci95": bootstrap_ci(c, [1] * len(c), n_boot=n_boot, seed=seed),
            "margin_mean": float(np.mean([p["scores"][d]["sim_own"] - p["scores"][d]["sim_other"] for p in rows]))
            if rows else None,
        }
    all_acc = [per[d]["accuracy"] for d in difficulties if per[d]["accuracy"] is not None]
    return {
        "task": "sembench",
        "n_predictions": len(preds), "n_scored": len(ok), "n_failed": len(preds) - len(ok),
        "failure_rate": _rate(len(preds) - len(ok), len(preds)),
        "difficulties": per,
        "accuracy_mean_over_difficulties": float(np.mean(all_acc)) if all_acc else None,
        "n_boot": n_boot,
        **_usage(preds),
    }


def summarize(task: str, preds: Sequence[dict], n_boot: int = 1000, seed: int = 0) -> dict:
    """Dispatch to the summary of ``task`` (``framebench`` / ``frame_id`` / ``sembench``)."""
    fn = {"framebench": framebench_summary, "frame_id": frame_id_summary, "sembench": sembench_summary}[task]
    return fn(preds, n_boot=n_boot, seed=seed)


def pct(value: float | None, digits: int = 1) -> str:
    """A rate in [0, 1] as a percent string (``"-"`` for None or NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * value:.{digits}f}"
