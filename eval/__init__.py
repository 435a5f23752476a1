"""Model scoring on FrameBench-style data: protocol, backends, metrics, reports.

The names below load on first use (PEP 562): ``fbagent eval``'s commands import this package at module
level and call ``evaluation.run_framebench(...)`` and the like when they run, so that ``fbagent eval
--help`` loads none of the scoring modules (numpy, sqlite-utils). Each name is looked up in its module on
every access (nothing is cached here), so a test that patches ``fbagent.eval.sembench.load_instances``
patches what the command calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.eval.frame_id import FrameIdSettings, load_pairs, run_frame_id
    from fbagent.eval.framebench import RunSettings, plan_run, request_estimate, run_framebench
    from fbagent.eval.metrics import STDS, Scoring, pct
    from fbagent.eval.report import (
        FIGURE_FORMATS,
        dataset_warning,
        human_score_from_report,
        load_result,
        load_results,
        parse_human_accuracy,
        tables,
        write_report,
    )
    from fbagent.eval.sembench import SemBenchSettings, load_instances, run_sembench

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.eval.frame_id": ("FrameIdSettings", "load_pairs", "run_frame_id"),
    "fbagent.eval.framebench": ("RunSettings", "plan_run", "request_estimate", "run_framebench"),
    "fbagent.eval.metrics": ("STDS", "Scoring", "pct"),
    "fbagent.eval.report": ("FIGURE_FORMATS", "dataset_warning", "human_score_from_report", "load_result",
                            "load_results", "parse_human_accuracy", "tables", "write_report"),
    "fbagent.eval.sembench": ("SemBenchSettings", "load_instances", "run_sembench"),
}
__all__ = [
    "FIGURE_FORMATS", "STDS", "FrameIdSettings", "RunSettings", "Scoring", "SemBenchSettings", "dataset_warning",
    "human_score_from_report", "load_instances", "load_pairs", "load_result", "load_results", "parse_human_accuracy",
    "pct", "plan_run", "request_estimate", "run_frame_id", "run_framebench", "run_sembench", "tables", "write_report",
]

__getattr__ = lazy_attributes(__name__, _MODULES)
