"""The reliability block of ``validate report`` as (title, header, rows) tables of strings, each at most
eight short columns so that it fits 80 terminal columns (no numpy: rendering only; the numbers come from
:mod:`fbagent.validation.reliability`)."""

from __future__ import annotations

from typing import Any

Table = tuple[str, list[str], list[list[str]]]


def num(v: float | None) -> str:
    """A statistic with three decimals, ``n/a`` when undefined."""
    return "n/a" if v is None else f"{v:.3f}"


def pct(v: float | None) -> str:
    """A share as a percentage with one decimal, ``n/a`` when undefined."""
    return "n/a" if v is None else f"{100 * v:.1f}%"


def interval(s: dict[str, Any]) -> str:
    """``[low, high]`` of an :class:`fbagent.validation.reliability.Interval`, ``n/a`` when undefined."""
    return "n/a" if s.get("low") is None else f"[{s['low']:.2f}, {s['high']:.2f}]"


def reliability_tables(rel: dict[str, Any]) -> list[Table]:
    """Krippendorff's alpha, the pairwise Cohen's kappa table, the per-annotator lines and the convention."""
    boot = f"95% bootstrap over entries, {rel['resamples']} resamples, seed {rel['seed']}"
    out: list[Table] = [(
        f"Krippendorff's alpha (units: base and extended pair; {boot})",
        ["judgment", "level", "units", "alpha", "95% interval"],
        [[r["judgment"], r["level"], str(r["units"]), num(r["value"]), interval(r)] for r in rel["alpha"]],
    )]
    if rel["kappa"]:
        out.append((
            "Cohen's kappa per pair of annotators (units both judged; acceptability: linear weights)",
            ["annotators", "units", "answer", "95% interval", "accept.", "95% interval"],
            [[" / ".join(r["annotators"]), str(r["units"]), num(r["answer"]["value"]), interval(r["answer"]),
              num(r["acceptability"]["value"]), interval(r["acceptability"])] for r in rel["kappa"]],
        ))
    out.append((
        "Per annotator: attention checks, agreement with the majority of the others, pace, drift "
        "(majority agreement, first vs second half of the units in judging order)",
        ["annotator", "judged", "attention", "majority", "per hour", "1st half", "2nd half", "drift"],
        [[a["annotator"], str(a["judgments"]), pct(a["attention_accuracy"]), pct(a["majority_agreement"]),
          "n/a" if a["judgments_per_hour"] is None else f"{a['judgments_per_hour']:.0f}",
          pct(a["drift_first_half"]), pct(a["drift_second_half"]),
          "n/a" if a["drift"] is None else f"{100 * a['drift']:+.1f} pt"] for a in rel["annotators"]],
    ))
    return out
