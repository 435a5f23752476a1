"""Metrics of FrameBench, frame identification and SemBench runs, computed from stored predictions.

FrameBench (Yano and Sasano 2026, section 4, Tables 3-4, appendix B). The
conventions are a :class:`Scoring` and every summary names them
(``summary["conventions"]``):

- failures (no valid answer: API error, malformed reply, a free-text answer
  that could not be parsed): COUNTED AS WRONG by default, as the authors'
  evaluator and lm-evaluation-harness do (``failures="count"``: the
  denominator of every rate is every answer); ``failures="exclude"`` leaves
  them out of every rate (the denominator is the scored answers). The failure
  rate is always reported (``failed``, ``failure_rate``).
- accuracy per prompt template = correct / answers of that template (under
  the failure convention); reported as the mean and the standard deviation
  over templates: POPULATION std (``ddof=0``, the authors' convention,
  ``std="population"``) by default, or the sample std (``ddof=1``,
  ``std="sample"``; ``None`` with one template). With one template the
  population std is 0 by definition; :func:`mean_std` reports ``n``.
- base vs extended pair accuracy and their difference (base - extended);
- accuracy when the correct sentence is shown 1st vs 2nd and the difference
  (1st - 2nd);
- error breakdown: Both, Neither, Opposite (the frame-B sentence only) and,
  when failures are counted, Failed. Per template, accuracy + Both + Neither
  + Opposite (+ Failed) = 1; every condition metric is computed per template
  and then averaged over templates, so the means also add up to 1.
- 95% confidence interval of the pooled accuracy (all templates) by a
  percentile bootstrap over ENTRIES (all problems of an entry are resampled
  together, since they share sentences), ``n_boot`` resamples, seeded; the
  entries are sorted by id first, so the interval does not depend on the
  order of ``predictions.jsonl``.
- per language (``per_language``): the same accuracy over the entries of
  each language (templates grouped by name).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from fbagent.limits import DEFAULT_N_BOOT
from fbagent.seeds import DEFAULT_SEED

CI_LEVEL = 0.95
FAILURES = ("count", "exclude")
STDS = ("population", "sample")


@dataclass(frozen=True)
class Scoring:
    """How predictions become numbers: ``failures`` (``count`` as wrong | ``exclude``) and ``std``
    over templates (``population``, ddof=0 | ``sample``, ddof=1). Defaults: the authors' conventions."""

    failures: str = "count"
    std: str = "population"

    def __post_init__(self) -> None:
        if self.failures not in FAILURES:
            raise ValueError(f"failures must be one of {FAILURES}, not {self.failures!r}")
        if self.std not in STDS:
            raise ValueError(f"std must be one of {STDS}, not {self.std!r}")

    @property
    def ddof(self) -> int:
        return 0 if self.std == "population" else 1

    @property
    def count_failures(self) -> bool:
        return self.failures == "count"

    def as_dict(self) -> dict:
        """``{"failures": ..., "std": ...}`` (stored in the manifest's ``scoring``)."""
        return {"failures": self.failures, "std": self.std}

    @classmethod
    def from_dict(cls, d: dict | None) -> Scoring | None:
        """The scoring a manifest recorded, or None (older manifests record none)."""
        if not isinstance(d, dict) or d.get("failures") not in FAILURES or d.get("std") not in STDS:
            return None
        return cls(failures=d["failures"], std=d["std"])

    def label(self) -> str:
        """Short text for table titles: ``population std (ddof=0); failures counted as wrong``."""
        fail = "failures counted as wrong" if self.count_failures else "failures excluded"
        return f"{self.std} std (ddof={self.ddof}); {fail}"


DEFAULT_SCORING = Scoring()


class DifficultyScore(TypedDict):
    """SemBench accuracy on one distractor difficulty: instances, accuracy, its bootstrap 95% interval and the mean
    cosine margin (own minus other frame)."""

    n: int
    accuracy: float | None
    ci95: tuple[float, float] | None
    margin_mean: float | None


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def mean_std(values: Iterable[float | None], ddof: int = 0) -> dict[str, float | None]:
    """Mean and standard deviation (``ddof``: 0 population, 1 sample) of the non-None values.

    Returns ``{"mean", "std", "n"}``; ``std`` is None when ``n <= ddof`` (the sample
    std of one value is undefined; the population std of one value is 0).
    """
    vals = [v for v in values if v is not None]
    if not vals:
        return {"mean": None, "std": None, "n": 0}
    arr = np.asarray(vals, dtype=float)
    std = float(arr.std(ddof=ddof)) if len(arr) > ddof else None
    return {"mean": float(arr.mean()), "std": std, "n": len(vals)}


def bootstrap_ci(correct: Sequence[int], scored: Sequence[int], n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED,
                 level: float = CI_LEVEL) -> tuple[float, float] | None:
    """Percentile bootstrap CI of ``sum(correct) / sum(scored)`` resampling groups (entries).

    ``correct[i]``/``scored[i]``: counts of group i (pass them in a fixed order,
    e.g. sorted by group id). Returns ``(low, high)`` in [0, 1], or ``None``
    when nothing is scored. Deterministic for a ``seed`` and an order.
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


def _group_counts(preds: Sequence[dict], key: str, count_failures: bool = True) -> tuple[list[int], list[int]]:
    """Per group (sorted by ``str(p[key])``): (correct answers, answers in the denominator)."""
    groups: dict[str, list[int]] = {}
    for p in preds:
        g = groups.setdefault(str(p[key]), [0, 0])
        if p.get("correct") is not None or count_failures:
            g[1] += 1
            g[0] += int(bool(p.get("correct")))
    ordered = [groups[k] for k in sorted(groups)]
    return [v[0] for v in ordered], [v[1] for v in ordered]


def _usage(preds: Sequence[dict]) -> dict:
    def total(key: str) -> int | None:
        vals = [int(p[key]) for p in preds if p.get(key) is not None]
        return sum(vals) if vals else None

    lat = [p["latency_ms"] for p in preds if p.get("latency_ms") is not None]
    think = [p.get("thinking_tokens") or 0 for p in preds]
    return {
        "input_tokens": total("input_tokens"),
        "output_tokens": total("output_tokens"),
        "thinking_tokens_mean": float(np.mean(think)) if think else None,
        "budget_exhausted": sum(1 for p in preds if p.get("budget_exhausted")),
        "latency_ms_mean": float(np.mean(lat)) if lat else None,
    }


def template_metrics(preds: Sequence[dict], scoring: Scoring = DEFAULT_SCORING) -> dict:
    """Metrics of one template's predictions (rates in [0, 1], denominators per ``scoring``).

    ``failed``: share of failures among all answers when failures are counted,
    None when they are excluded (then ``failure_rate`` still gives it).
    """
    scored = [p for p in preds if p.get("outcome") is not None]
    rows = list(preds) if scoring.count_failures else scored
    n = len(rows)

    def acc(rs: list[dict]) -> float | None:
        return _rate(sum(1 for p in rs if p.get("outcome") == "correct"), len(rs))

    base = [p for p in rows if p["kind"] == "base"]
    ext = [p for p in rows if p["kind"] == "extended"]
    first = [p for p in rows if p["correct_position"] == 1]
    second = [p for p in rows if p["correct_position"] == 2]
    n_failed = len(preds) - len(scored)
    m = {
        "n": len(preds), "n_scored": len(scored), "n_failed": n_failed,
        "failure_rate": _rate(n_failed, len(preds)),
        "accuracy": acc(rows),
        "base": acc(base), "extended": acc(ext),
        "first": acc(first), "second": acc(second),
        **{err: _rate(sum(1 for p in rows if p.get("outcome") == err), n) for err in ("both", "neither", "opposite")},
        "failed": _rate(n_failed, n) if scoring.count_failures else None,
    }
    m["base_minus_extended"] = None if m["base"] is None or m["extended"] is None else m["base"] - m["extended"]
    m["first_minus_second"] = None if m["first"] is None or m["second"] is None else m["first"] - m["second"]
    return m


FRAMEBENCH_KEYS = ("accuracy", "base", "extended", "base_minus_extended", "first", "second",
                   "first_minus_second", "both", "neither", "opposite", "failed")


def conventions(scoring: Scoring, n_boot: int, seed: int) -> dict:
    """The ``conventions`` block of a FrameBench summary: one sentence per convention."""
    return {
        "failures": ("counted as wrong (denominator: every answer)" if scoring.count_failures
                     else "excluded (denominator: answers with a valid option)"),
        "std": f"{scoring.std} standard deviation over templates (ddof={scoring.ddof})",
        "mean": "rates per template, then the mean over templates",
        "ci95": f"percentile bootstrap of the pooled accuracy over entries sorted by id "
                f"({n_boot} resamples, seed {seed})",
    }


def _per_template(preds: Sequence[dict], scoring: Scoring) -> tuple[list[str], dict[str, dict]]:
    templates = sorted({p["template"] for p in preds})
    return templates, {t: template_metrics([p for p in preds if p["template"] == t], scoring) for t in templates}


def framebench_summary(preds: Sequence[dict], n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED,
                       scoring: Scoring = DEFAULT_SCORING, default_lang: str = "en") -> dict:
    """Summary of FrameBench predictions (see the module docstring for every definition).

    ``preds``: dicts with ``template``, ``entry_id``, ``kind``,
    ``correct_position``, ``outcome`` (``correct``/``both``/``neither``/
    ``opposite``/None), ``correct`` (bool/None), optionally ``language``
    (else ``default_lang``) and ``parsed_from_text``. Returns a JSON-ready
    dict: ``{key: {"mean", "std", "n"}}`` for every key in
    :data:`FRAMEBENCH_KEYS`, plus ``per_template``, ``per_language``,
    ``accuracy_pooled``, ``ci95``, counts, usage and ``conventions``.
    """
    ddof = scoring.ddof
    templates, per_template = _per_template(preds, scoring)
    n_scored = sum(m["n_scored"] for m in per_template.values())
    n_correct = sum(1 for p in preds if p.get("outcome") == "correct")
    correct, den = _group_counts(preds, "entry_id", scoring.count_failures)
    languages: dict[str, list[dict]] = {}
    for p in preds:
        languages.setdefault(str(p.get("language") or default_lang), []).append(p)
    per_language = {}
    for lang, rows in sorted(languages.items()):
        lt, lm = _per_template(rows, scoring)
        lc, ld = _group_counts(rows, "entry_id", scoring.count_failures)
        per_language[lang] = {
            "n_predictions": len(rows), "n_entries": len({p["entry_id"] for p in rows}),
            "n_failed": sum(m["n_failed"] for m in lm.values()),
            "failure_rate": _rate(sum(m["n_failed"] for m in lm.values()), len(rows)),
            "templates": lt,
            "template_sets": sorted({str(p.get("template_lang")) for p in rows if p.get("template_lang")}),
            "accuracy_pooled": _rate(sum(lc), sum(ld)),
            **{k: mean_std((lm[t][k] for t in lt), ddof) for k in ("accuracy", "base", "extended", "failed")},
        }
    n_failed = len(preds) - n_scored
    return {
        "task": "framebench",
        "failures": scoring.failures,
        "std_convention": scoring.std,
        "ddof": ddof,
        "conventions": conventions(scoring, n_boot, seed),
        "n_predictions": len(preds),
        "n_scored": n_scored,
        "n_failed": n_failed,
        "failure_rate": _rate(n_failed, len(preds)),
        "n_parsed_from_text": sum(1 for p in preds if p.get("parsed_from_text")),
        "n_entries": len({p["entry_id"] for p in preds}),
        "n_templates": len(templates),
        "templates": templates,
        "accuracy_pooled": _rate(n_correct, len(preds) if scoring.count_failures else n_scored),
        "ci95": bootstrap_ci(correct, den, n_boot=n_boot, seed=seed),
        "n_boot": n_boot,
        **{k: mean_std((per_template[t][k] for t in templates), ddof) for k in FRAMEBENCH_KEYS},
        "per_template": per_template,
        "per_language": per_language,
        **_usage(preds),
    }


def frame_id_summary(preds: Sequence[dict], n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED,
                     scoring: Scoring = DEFAULT_SCORING, default_lang: str = "en") -> dict:
    """Frame identification (FrameBench appendix B.5): accuracy, errors (other frame / neither), failures.

    ``preds``: dicts with ``pair_id``, ``outcome`` (``correct``/``other_frame``/
    ``neither``/None) and ``correct``. Failures are counted as wrong or
    excluded per ``scoring`` (the std convention does not apply: one prompt).
    The CI resamples frame pairs (sorted by id).
    """
    scored = [p for p in preds if p.get("outcome") is not None]
    n = len(preds) if scoring.count_failures else len(scored)
    correct, sc = _group_counts(preds, "pair_id", scoring.count_failures)
    return {
        "task": "frame_id",
        "failures": scoring.failures,
        "conventions": {k: v for k, v in conventions(scoring, n_boot, seed).items() if k in ("failures", "ci95")},
        "n_predictions": len(preds), "n_scored": len(scored), "n_failed": len(preds) - len(scored),
        "failure_rate": _rate(len(preds) - len(scored), len(preds)),
        "n_pairs": len({p["pair_id"] for p in preds}),
        "accuracy": _rate(sum(1 for p in scored if p["outcome"] == "correct"), n),
        "other_frame": _rate(sum(1 for p in scored if p["outcome"] == "other_frame"), n),
        "neither": _rate(sum(1 for p in scored if p["outcome"] == "neither"), n),
        "ci95": bootstrap_ci(correct, sc, n_boot=n_boot, seed=seed),
        "n_boot": n_boot,
        **_usage(preds),
    }


def sembench_summary(preds: Sequence[dict], n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED, **_: object) -> dict:
    """SemBench accuracy per distractor difficulty (easy / mid / hard / rand) with bootstrap CIs.

    ``preds``: one dict per instance with ``instance_id``, ``error`` (None when
    a definition was produced) and ``scores``: ``{difficulty: {"correct": bool,
    ...}}``. An instance whose generation failed is counted in ``n_failed``
    and in no accuracy. CIs resample instances.
    """
    ok = [p for p in preds if p.get("error") is None and p.get("scores")]
    difficulties = [d for d in ("easy", "mid", "hard", "rand") if any(d in p["scores"] for p in ok)]
    per: dict[str, DifficultyScore] = {}
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
    all_acc = [acc for d in difficulties if (acc := per[d]["accuracy"]) is not None]
    return {
        "task": "sembench",
        "n_predictions": len(preds), "n_scored": len(ok), "n_failed": len(preds) - len(ok),
        "failure_rate": _rate(len(preds) - len(ok), len(preds)),
        "difficulties": per,
        "accuracy_mean_over_difficulties": float(np.mean(all_acc)) if all_acc else None,
        "n_boot": n_boot,
        **_usage(preds),
    }


def summarize(task: str, preds: Sequence[dict], n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED,
              scoring: Scoring = DEFAULT_SCORING, default_lang: str = "en") -> dict:
    """Dispatch to the summary of ``task`` (``framebench`` / ``frame_id`` / ``sembench``).

    ``scoring`` applies to FrameBench and frame identification; SemBench keeps
    failed generations out of its accuracies and reports them as ``n_failed``.
    """
    summaries: dict[str, Callable[..., dict]] = {"framebench": framebench_summary, "frame_id": frame_id_summary,
                                                 "sembench": sembench_summary}
    fn = summaries[task]
    return fn(preds, n_boot=n_boot, seed=seed, scoring=scoring, default_lang=default_lang)


def pct(value: float | None, digits: int = 1) -> str:
    """A rate in [0, 1] as a percent string (``"-"`` for None or NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * value:.{digits}f}"
