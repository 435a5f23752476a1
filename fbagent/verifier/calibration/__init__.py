"""Measure the verifier against gold data: ``fbagent verifier calibrate`` and ``generate --margin auto``.

FrameNet ships human-annotated exemplar sentences for each LU, so the frame a verb evokes in them
is known. A calibration holds out exemplars of each frame's LU of the verb (:mod:`.split`), runs
them through the generation verifier as if they were generated sentences (:mod:`.run`: the same
:func:`fbagent.verifier.verify.verify_item`, clients and encoder), and reports how often the verdict is
right (:mod:`.metrics`: accuracy, precision and recall of ``pass`` / ``verified`` with 95%
intervals, a table over margins). Results are stored (:mod:`fbagent.store.calibrations`);
``generate --margin auto`` takes the smallest margin that reaches a target precision on the
latest one (:mod:`.margin`). docs/verifier.md has the measured numbers.

The names below load on first use (PEP 562): importing :mod:`.options` (whose defaults ``verifier
calibrate --help`` reads) must not import the calibration's machinery (numpy, sqlite-utils).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.verifier.calibration.metrics import MARGINS, TARGET_PRECISIONS, signal_summary
    from fbagent.verifier.calibration.options import (
        HOLDOUT,
        CalibrateOptions,
        validate_calibrate_options,
    )
    from fbagent.verifier.calibration.run import (
        CalibrationEvent,
        CalibrationNote,
        CalibrationProgress,
        CalibrationStarted,
        calibrate,
    )
    from fbagent.verifier.calibration.split import choose_pairs, make_splits, split_exemplars
    from fbagent.verifier.margin import AutoMargin, auto_margin, smallest_margin

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.verifier.calibration.metrics": ("MARGINS", "TARGET_PRECISIONS", "signal_summary"),
    "fbagent.verifier.calibration.options": ("HOLDOUT", "CalibrateOptions", "validate_calibrate_options"),
    "fbagent.verifier.calibration.run": ("CalibrationEvent", "CalibrationNote", "CalibrationProgress",
                                         "CalibrationStarted", "calibrate"),
    "fbagent.verifier.calibration.split": ("choose_pairs", "make_splits", "split_exemplars"),
    "fbagent.verifier.margin": ("AutoMargin", "auto_margin", "smallest_margin"),
}
__all__ = [
    "HOLDOUT", "MARGINS", "TARGET_PRECISIONS", "AutoMargin", "CalibrateOptions", "CalibrationEvent", "CalibrationNote",
    "CalibrationProgress", "CalibrationStarted", "auto_margin", "calibrate", "choose_pairs", "make_splits",
    "signal_summary", "smallest_margin", "split_exemplars", "validate_calibrate_options",
]

__getattr__ = lazy_attributes(__name__, _MODULES)
