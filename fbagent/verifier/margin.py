"""``generate --margin auto``: the margin from the latest calibration of the run's lexicon.

Rule: the latest finished calibration of the lexicon that measured the run's verifier signal
(``--verifier``; a ``--signal both`` calibration measured all three); its ``by_margin`` table of
that signal; the smallest margin whose sentence-level precision reaches ``--target-precision``
(:func:`smallest_margin`; rows where too few claims pass are skipped, see
:mod:`fbagent.verifier.calibration.metrics`). The generation run records the margin (it
is one of the options that name the run) and which calibration gave it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store.calibrations import latest_calibration
from fbagent.store.rows import LexiconRow

#: the margin when none is given: a sentence passes when it is closer to its own frame at all
DEFAULT_MARGIN = 0.0
#: the range a margin (a cosine difference) must lie in, ``[low, high)``
MARGIN_RANGE = (-2.0, 2.0)


def check_margin(margin: float) -> None:
    """Raise :class:`FbagentError` when ``margin`` is outside :data:`MARGIN_RANGE`."""
    low, high = MARGIN_RANGE
    if not low <= margin < high:
        raise FbagentError(f"--margin must be in [{low:g}, {high:g}) (a cosine difference), got {margin}",
                           "pass a value such as 0.0")


@dataclass(frozen=True)
class AutoMargin:
    """The margin chosen for a run and where it came from (``text``: the line ``generate`` prints)."""

    margin: float
    calibration_id: int
    calibration: str
    precision: float
    recall: float | None
    text: str


#: a calibration that scored fewer held-out sentences gets a note with its margin: at precision 0.9 on
#: 80 sentences (20 pairs) with half of them passing, the 95% interval is still about +-0.09
FEW_SENTENCES = 80


def auto_margin(db: sqlite_utils.Database, lexicon: LexiconRow, signal: str, target_precision: float, *,
                encoder: str | None = None, verifier_model: str | None = None) -> AutoMargin:
    """The margin of :mod:`this module`'s rule for ``lexicon`` (a ``lexicons`` row) and ``signal``.

    ``encoder``/``verifier_model``: the run's; when the calibration used others the line says so.
    Raises :class:`FbagentError` when no calibration of the lexicon measured the signal, or when
    no margin of its table reaches ``target_precision``.
    """
    run = latest_calibration(db, lexicon["id"], signal)
    if run is None:
        raise FbagentError(
            f"--margin auto: no calibration of lexicon {lexicon['name']!r} measured the {signal} signal",
            f"run `fbagent verifier calibrate --lexicon {lexicon['name']} --signal {signal}` first, "
            "or pass --margin NUMBER")
    metrics = run["options"]["result"]["signals"][signal]
    margin = smallest_margin(metrics["by_margin"], target_precision)
    if margin is None:
        best = max((r["precision"] for r in metrics["by_margin"] if r.get("precision") is not None), default=None)
        raise FbagentError(
            f"--margin auto: no margin of calibration {run['name']!r} reaches precision {target_precision:g} "
            f"for the {signal} signal (best: {'n/a' if best is None else f'{best:.3f}'})",
            "lower --target-precision, or pass --margin NUMBER")
    row = next(r for r in metrics["by_margin"] if float(r["margin"]) == margin)
    text = (f"margin {margin:g} from calibration {run['name']!r} (id {run['id']}, {run['created_at'][:19]}): the "
            f"smallest margin with {signal} precision >= {target_precision:g} (precision {row['precision']:.3f}, "
            f"recall {row['recall']:.3f})")
    differs = []
    if encoder and (stored := run["encoder"]) and _short(encoder) != _short(stored):
        differs.append(f"encoder {run['encoder']}")
    if signal != "encoder" and verifier_model and run.get("verifier_model") and verifier_model != run["verifier_model"]:
        differs.append(f"verifier model {run['verifier_model']}")
    if differs:
        text += "; note: that calibration used " + " and ".join(differs)
    scored = metrics.get("n_sentences")
    if isinstance(scored, int) and scored < FEW_SENTENCES:
        text += (f"; note: it scored only {scored} held-out sentences, too few for a stable precision "
                 f"(calibrate with --pairs {FEW_SENTENCES // 4} or more)")
    return AutoMargin(margin=margin, calibration_id=run["id"], calibration=run["name"], precision=row["precision"],
                      recall=row.get("recall"), text=text)


def _short(name: str) -> str:
    return name.rstrip("/").split("/")[-1].lower()


def parse_margin(text: str | float) -> tuple[float, bool]:
    """``--margin`` as ``(margin, auto)``: ``"auto"`` -> ``(0.0, True)``, a number -> ``(number, False)``.

    Raises :class:`FbagentError` for anything else.
    """
    if isinstance(text, int | float):
        return float(text), False
    if text.strip().lower() == "auto":
        return 0.0, True
    try:
        return float(text), False
    except ValueError:
        raise FbagentError(f"--margin must be a number or 'auto', got {text!r}",
                           "pass --margin 0.05 (a cosine difference) or --margin auto") from None


def smallest_margin(by_margin: Sequence[dict[str, Any]], target_precision: float) -> float | None:
    """The smallest margin of a stored ``by_margin`` table whose precision is at least ``target_precision``
    and at which enough claims pass (``n_pass >= min_pass``, :mod:`fbagent.verifier.calibration.metrics`); ``None`` when there is none."""
    for row in sorted(by_margin, key=lambda r: r["margin"]):
        if row.get("n_pass", 1) < row.get("min_pass", 1):
            continue
        if row.get("precision") is not None and row["precision"] >= target_precision:
            return float(row["margin"])
    return None
