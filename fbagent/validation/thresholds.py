"""Which human-filter thresholds fit the judgments stored: the hint where the default surprises.

The filter (FrameBench, Yano and Sasano 2026, section 3.2) keeps an entry when at least
``min_correct`` annotators judged it correct and at least ``min_acceptable`` judged it acceptable;
the default, 2 and 2, is the paper's "2 of 3". With fewer annotators than that (one researcher trying
the loop alone), or when the filter keeps nothing, :func:`filter_hint` returns one line naming the
filter, how many annotators judged the entries, and how many entries each threshold pair would keep.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# The entries are fbagent.validation.aggregate.EntryScore objects (scores, n_correct, n_acceptable, kept,
# unfixable); aggregate's report imports this module, so the type is named here, not imported.
EntryScore = Any


@dataclass(frozen=True)
class ThresholdFit:
    """``kept`` entries (not marked "cannot be fixed") at ``min_correct`` / ``min_acceptable``."""

    min_correct: int
    min_acceptable: int
    kept: int

    @property
    def options(self) -> str:
        """The command-line options of this threshold pair."""
        return f"--min-correct {self.min_correct} --min-acceptable {self.min_acceptable}"


def threshold_fits(entries: Iterable[EntryScore]) -> list[ThresholdFit]:
    """For every pair 1 <= min_correct, min_acceptable <= the largest number of annotators of one entry,
    how many judged entries it keeps; strictest first. Empty when no entry has a judgment."""
    judged = [e for e in entries if e.scores and not e.unfixable]
    size = max((len(e.scores) for e in judged), default=0)
    fits = []
    for c in range(size, 0, -1):
        for a in range(size, 0, -1):
            fits.append(ThresholdFit(c, a, sum(1 for e in judged if e.n_correct >= c and e.n_acceptable >= a)))
    return fits


def filter_hint(entries: Iterable[EntryScore], min_correct: int, min_acceptable: int) -> str | None:
    """One line when the filter (``min_correct``, ``min_acceptable``) asks for more annotators than any
    entry has, or keeps none of the judged entries: the filter, the annotators seen, and the entries
    each fitting threshold pair keeps (``"... --min-correct 1 --min-acceptable 1 keeps 3"``). ``None``
    when the filter fits, or when nothing is judged yet (that has its own message)."""
    entries = list(entries)
    judged = [e for e in entries if e.scores]
    if not judged:
        return None
    size = max(len(e.scores) for e in judged)
    kept = sum(1 for e in judged if e.kept)
    if max(min_correct, min_acceptable) <= size and kept:
        return None
    names = sorted({n for e in judged for n in e.scores})
    who = f"{len(names)} annotator{'s' if len(names) != 1 else ''} ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''})"
    fits = [f for f in threshold_fits(entries) if f.kept]
    keeps = "; ".join(f"{f.options} keeps {f.kept}" for f in fits[:4]) or _why_none(judged)
    return (f"the filter wants >= {min_correct} annotators judging an entry correct and >= {min_acceptable} "
            f"acceptable (--min-correct {min_correct} --min-acceptable {min_acceptable}), which keeps {kept} of "
            f"{len(judged)} judged entries; judgments come from {who}, at most {size} per entry: {keeps}")


def _why_none(judged: list[EntryScore]) -> str:
    """Why no threshold keeps an entry, and what to do: how many judged entries anyone found correct,
    and acceptable (an entry needs both)."""
    usable = [e for e in judged if not e.unfixable]
    correct = sum(1 for e in usable if e.n_correct >= 1)
    acceptable = sum(1 for e in usable if e.n_acceptable >= 1)
    both = "none both" if correct and acceptable else "and an entry needs both"
    return (f"no threshold keeps any entry yet: {correct} of {len(usable)} judged entries have a 'correct' judgment "
            f"and {acceptable} an 'acceptable' one, {both}; judge more entries (fbagent annotate), or export "
            "them all without --validated")
