"""``fbagent verifier calibrate --from-annotations``: the verifier's margin set from the annotators'
judgments instead of FrameNet's exemplars.

Truth: the human filter's outcome of each judged entry (FrameBench 3.2, adjudicated where the lead
decided: :func:`fbagent.validation.aggregate.score_entries`). Score: for a signal (``roundtrip``,
``encoder``, ``both`` = the smaller of the two), the entry's ``d`` is the smallest ``sim_own -
sim_other`` over its four sentences, as stored by generation (:func:`fbagent.verifier.agreement.signal_scores`);
the entry is verified at margin ``m`` when ``d > m`` (all four sentences pass, as in generation).

Per margin of :data:`fbagent.verifier.calibration.metrics.MARGINS`: ``precision`` = kept / verified,
``recall`` = verified / kept, ``false_pass_rate`` = verified / dropped, ``items_verified`` = verified /
judged; ``margins``: the smallest margin reaching each target precision among those where at least
:data:`~fbagent.verifier.calibration.metrics.MIN_PASS_SHARE` of the entries pass
(:func:`fbagent.verifier.margin.smallest_margin`), the rule of a calibration on exemplars. 95% intervals:
percentile bootstrap over entries. ``accuracy`` = share of entries where the verdict at the margin
equals the humans' outcome. The result has the keys of a calibration on exemplars
(:func:`fbagent.verifier.calibration.metrics.signal_summary`) and is stored the same way, one calibration
per lexicon (:mod:`fbagent.store.calibrations`, ``source`` = ``annotations``): ``generate --margin auto``
takes the latest calibration of a lexicon, whichever its source.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, TypedDict

import numpy as np
import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.seeds import DEFAULT_SEED
from fbagent.store import calibrations as store
from fbagent.store.annotations import select_items
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.validation.aggregate import DEFAULT_MIN_ACCEPTABLE, DEFAULT_MIN_CORRECT, score_entries
from fbagent.verifier.agreement import signal_scores
from fbagent.verifier.calibration.metrics import (
    MARGINS,
    MIN_PASS_SHARE,
    TARGET_PRECISIONS,
    ratio_interval,
)
from fbagent.verifier.margin import smallest_margin

SIGNALS = ("roundtrip", "encoder", "both")


class HumanRow(TypedDict):
    """One judged entry: its id, lexicon, language, the humans' outcome and ``d`` per signal (None: no score)."""

    entry: str
    lexicon: str
    language: str
    kept: bool
    d: dict[str, float | None]


def human_rows(db: sqlite_utils.Database, *, statuses: Sequence[str] = ANNOTATED_STATUSES,
               min_correct: int = DEFAULT_MIN_CORRECT, min_acceptable: int = DEFAULT_MIN_ACCEPTABLE) -> list[HumanRow]:
    """The judged entries with the verifier's scores (module docstring), in stable entry order."""
    items = select_items(db, statuses=statuses, columns="id, lexicon, language, verifier")
    entries = score_entries(db, [i["id"] for i in items], min_correct=min_correct, min_acceptable=min_acceptable)
    rows: list[HumanRow] = []
    for i in items:
        e = entries[i["id"]]
        if not e.scores:
            continue
        parts = {s: signal_scores(i["verifier"], s) for s in ("roundtrip", "encoder")}
        d: dict[str, float | None] = {s: None if v is None else min(v) for s, v in parts.items()}
        both = [x for x in (d["roundtrip"], d["encoder"]) if x is not None]
        d["both"] = min(both) if len(both) == 2 else None
        rows.append({"entry": i["id"], "lexicon": i["lexicon"], "language": i["language"], "kept": e.kept, "d": d})
    return rows


def _at(d: np.ndarray, kept: np.ndarray, m: float) -> dict[str, Any]:
    v = d > m
    tp, fp = int(np.sum(v & kept)), int(np.sum(v & ~kept))
    pos, neg = int(np.sum(kept)), int(np.sum(~kept))
    return {"margin": m, "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / pos if pos else None,
            "false_pass_rate": fp / neg if neg else None, "n_pass": tp + fp, "min_pass": max(1, int(np.ceil(MIN_PASS_SHARE * len(d)))),
            "items_verified": float(np.mean(v)) if len(d) else None,
            "items_false_verified": fp / neg if neg else None}


def human_summary(rows: Sequence[HumanRow], signal: str, *, margin: float, n_boot: int, seed: int) -> dict[str, Any]:
    """The metrics of ``signal`` against the humans (module docstring), keyed as a calibration on exemplars."""
    scored = [r for r in rows if r["d"].get(signal) is not None]
    d = np.asarray([r["d"][signal] for r in scored], dtype=float)
    kept = np.asarray([r["kept"] for r in scored], dtype=bool)
    now = _at(d, kept, margin)
    v = d > margin
    ones = np.ones(len(d))
    return {
        "signal": signal, "source": "annotations", "n_sentences": 4 * len(d), "n_unscored": len(rows) - len(d),
        "n_pairs": len(d), "n_entries": len(d), "n_kept": int(np.sum(kept)),
        "accuracy": float(np.mean(v == kept)) if len(d) else None,
        "ci95": ratio_interval((v == kept).astype(float), ones, n_boot, seed),
        "margin": margin, "precision": now["precision"],
        "precision_ci95": ratio_interval((v & kept).astype(float), v.astype(float), n_boot, seed),
        "recall": now["recall"],
        "recall_ci95": ratio_interval((v & kept).astype(float), kept.astype(float), n_boot, seed),
        "items_verified": now["items_verified"], "items_false_verified": now["items_false_verified"],
        "by_margin": (table := [_at(d, kept, m) for m in MARGINS]),
        "margins": {str(t): smallest_margin(table, t) for t in TARGET_PRECISIONS},
        "d_mean": float(np.mean(d)) if len(d) else None,
    }


def calibrate_from_annotations(db: sqlite_utils.Database, *, signal: str, margin: float, command: str,
                               lexicons: Sequence[str] = (), n_boot: int = 1000, seed: int = DEFAULT_SEED,
                               min_correct: int = DEFAULT_MIN_CORRECT,
                               min_acceptable: int = DEFAULT_MIN_ACCEPTABLE) -> dict[str, Any]:
    """Measure every signal against the humans, store one calibration per lexicon and return the pooled
    result in the shape of :func:`fbagent.verifier.calibration.run.calibrate`'s. Raises
    :class:`FbagentError` for an unknown signal, or when no judged entry has the signal's scores."""
    if signal not in SIGNALS:
        raise FbagentError(f"--signal {signal!r} is not a signal", f"pass --signal {', '.join(SIGNALS)}")
    started = time.perf_counter()
    rows = [r for r in human_rows(db, min_correct=min_correct, min_acceptable=min_acceptable)
            if not lexicons or r["lexicon"] in lexicons]
    if not any(r["d"][signal] is not None for r in rows):
        raise FbagentError(f"no judged entry has {signal} scores ({len(rows)} judged entries)",
                           "judge generated entries first (fbagent annotate), or pick the signal generation used "
                           "(--signal roundtrip or encoder)")
    by_lexicon = []
    for name in sorted({r["lexicon"] for r in rows}):
        part = [r for r in rows if r["lexicon"] == name]
        lex = db.execute("SELECT id, lang FROM lexicons WHERE name = ?", [name]).fetchone()
        if lex is None:
            raise FbagentError(f"the judged entries name lexicon {name!r}, which this database does not hold",
                               "import it again (fbagent lexicon add), or pass --lexicon with another one")
        signals = {s: human_summary(part, s, margin=margin, n_boot=n_boot, seed=seed) for s in SIGNALS}
        result = {**signals[signal], "signals": signals}
        run = store.create_calibration(
            db, name=_name(db, name), command=command, lexicon_id=int(lex[0]), verifier=None,
            verifier_model=None, encoder=None, seed=seed, prompt_versions={},
            options={"source": "annotations", "signal": signal, "margin": margin, "min_correct": min_correct,
                     "min_acceptable": min_acceptable, "n_boot": n_boot})
        store.finish_calibration(db, run, result=result, sentences=[dict(r) for r in part])
        by_lexicon.append({**result, "lexicon": name, "language": lex[1],
                           "calibration": run["name"], "calibration_id": run["id"], "source": "annotations",
                           "llm": {}, "seconds": round(time.perf_counter() - started, 3)})
    signals = {s: human_summary(rows, s, margin=margin, n_boot=n_boot, seed=seed) for s in SIGNALS}
    return {**signals[signal], "signals": signals, "by_lexicon": by_lexicon, "source": "annotations",
            "seconds": round(time.perf_counter() - started, 3)}


def _name(db: sqlite_utils.Database, lexicon: str) -> str:
    base = f"calibrate-{lexicon}-annotations"
    n = 1
    name = base
    while store.calibration_name_taken(db, name):
        n += 1
        name = f"{base}-{n}"
    return name
