"""The dataset card's "Independent human baseline" section (a contributor of :mod:`fbagent.publish.sections`):
the human score to compare models with when ``annotate --mode baseline`` has answers, said as such beside the
paper-style score of the validation section."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from fbagent.validation.baseline import CONVENTION, independent_accuracy


def independent_human(db: sqlite_utils.Database, records: list[dict[str, Any]], facts: dict[str, Any]) -> str | None:
    """The section over the exported ``records``, or None when none of them has an independent baseline answer."""
    ind = independent_accuracy(db, [r["id"] for r in records])
    if ind is None:
        return None
    paper = ((facts.get("validation") or {}).get("human_accuracy") or {}).get("mean")
    than = "" if paper is None else (f" It replaces the paper-style human score of the validation section "
                                     f"({100 * paper:.1f}%) as the human reference, which is biased upward by "
                                     "construction (the same annotators' judgments kept the entries; FrameBench, "
                                     "Limitations).")
    return ("## Independent human baseline\n\n"
            f"Human accuracy {100 * ind['accuracy']:.1f}% (95% interval [{100 * ind['low']:.1f}, "
            f"{100 * ind['high']:.1f}]) from {ind['answers']:,} answers on {ind['entries']:,} exported entries by "
            f"{ind['annotators']:,} annotator(s) who judged none of the final entries.{than}\n\n"
            f"Convention: {CONVENTION}.\n")
