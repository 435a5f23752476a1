"""PNG plots of an audit result (matplotlib, Agg backend): baselines with intervals, and distributions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fbagent.audit.audit import AuditResult


def write_plots(result: AuditResult, folder: Path) -> list[Path]:
    """Write ``baselines.png`` (accuracy per baseline, 95% interval bars, the chance line) and
    ``distributions.png`` (entries per verb histogram, frame relations, gold positions) into ``folder``
    (created). Returns the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    rows = [r for r in result["baselines"] if r["available"]]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    names = [r["name"] for r in rows]
    acc = [100 * r["accuracy"] for r in rows]
    err = [[100 * (r["accuracy"] - r["low"]) for r in rows], [100 * (r["high"] - r["accuracy"]) for r in rows]]
    ax.bar(names, acc, yerr=err, capsize=4, color="#4c72b0")
    ax.axhline(50, color="#c44e52", linestyle="--", label="chance (50%)")
    ax.set_ylim(0, 100)
    ax.set_ylabel("accuracy % (95% bootstrap interval)")
    ax.set_title(f"Shortcut baselines ({result['entries']} entries, {result['problems']} problems)")
    ax.legend(loc="lower right")
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    fig.tight_layout()
    first = folder / "baselines.png"
    fig.savefig(first, dpi=120)
    plt.close(fig)
    dist = result["distributions"]
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.5))
    axes[0].hist(list(dist["per_verb"].values()) or [0], bins=20, color="#55a868")
    axes[0].set_title("entries per verb")
    axes[0].set_xlabel("entries")
    axes[0].set_ylabel("verbs")
    rel = dist["per_relation"]
    axes[1].barh(list(rel), list(rel.values()), color="#8172b2")
    axes[1].set_title("frame relation of the pair")
    pos = dist["gold_position"]
    axes[2].bar([f"shown {k}" for k in pos], list(pos.values()), color="#ccb974")
    axes[2].set_title("problems per gold position")
    fig.tight_layout()
    second = folder / "distributions.png"
    fig.savefig(second, dpi=120)
    plt.close(fig)
    return [first, second]
