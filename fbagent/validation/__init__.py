"""Human validation (FrameBench sec. 3.2): who judges what, and what the judgments add up to.

- :mod:`.assignment`: which entries an annotator gets and the four pair tasks built from each;
- :mod:`.aggregate`: correctness and acceptability per entry, the filter, agreement, the report;
- :mod:`.thresholds`: which filter thresholds fit the judgments (the hint where the default surprises);
- :mod:`.baseline`: the independent human baseline (a seeded sample of final entries) and its score;
- :mod:`.bootstrap`: a mean with its seeded bootstrap interval;
- :mod:`.reliability`: Krippendorff's alpha, pairwise Cohen's kappa, per-annotator checks, drift.

:class:`BaselineOptions` and :func:`human_scores` load on first use (PEP 562): ``fbagent annotate --help``
and ``fbagent validate --help`` import this package, and the baseline's bootstrap (numpy) is not needed to
show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.validation.baseline import BaselineOptions, human_scores
    from fbagent.validation.human_calibration import calibrate_from_annotations
    from fbagent.validation.reliability import reliability_report

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.validation.baseline": ("BaselineOptions", "human_scores"),
    "fbagent.validation.reliability": ("reliability_report",),
    "fbagent.validation.human_calibration": ("calibrate_from_annotations",),
}
__all__ = ["BaselineOptions", "calibrate_from_annotations", "human_scores", "reliability_report"]

__getattr__ = lazy_attributes(__name__, _MODULES)
