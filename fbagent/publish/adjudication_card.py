"""The card's "Human filter, adjudication and agreement" section (a contributor of
:mod:`fbagent.publish.sections`): the filter applied, how many exported entries each rule decided (the
votes or the lead's adjudication, :mod:`fbagent.validation.adjudication`), and Krippendorff's alpha of
the judgments (:mod:`fbagent.validation.reliability`), so that a reader can recompute them from the
``human`` field."""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlite_utils

from fbagent.publish.card_creation import table
from fbagent.store.annotations import select_items
from fbagent.store.calibrations import list_calibrations
from fbagent.validation.adjudication import CONVENTION, OUTCOMES
from fbagent.validation.aggregate import score_entries
from fbagent.validation.reliability import CONVENTION as RELIABILITY_CONVENTION
from fbagent.validation.reliability import reliability_report
from fbagent.verifier.agreement import verifier_vs_human


def adjudication_section(db: sqlite_utils.Database, records: list[dict[str, Any]], facts: dict[str, Any]) -> str | None:
    """The section's Markdown; None when no exported entry has judgments."""
    judged = [r for r in records if r["human"]["annotators"]]
    if not judged:
        return None
    s = facts["scope"]
    outcomes = Counter(r["human"].get("outcome", "votes") for r in judged)
    rows = [[o, outcomes[o], sum(1 for r in judged if r["human"].get("outcome") == o and r["human"]["kept"])]
            for o in OUTCOMES if outcomes[o]]
    entries = score_entries(db, [r["id"] for r in judged], min_correct=s["min_correct"],
                            min_acceptable=s["min_acceptable"])
    rel = reliability_report(entries)
    alpha = [[a["judgment"], a["level"], a["units"], "n/a" if a["value"] is None else f"{a['value']:.3f}",
              "n/a" if a["low"] is None else f"[{a['low']:.3f}, {a['high']:.3f}]"] for a in rel["alpha"]]
    verifier = _verifier_lines(db, entries, [r["id"] for r in judged], s)
    aside = [r for r in judged if r["human"].get("adjudication_set_aside")]
    aside_line = (f"{len(aside)} exported {'entry was' if len(aside) == 1 else 'entries were'} revised after the "
                  "lead's decision: that decision is set aside (`human.adjudication_set_aside` gives it, the revised "
                  "fields and why) and the judgments of the revised text decide.\n\n") if aside else ""
    return ("## Human filter, adjudication and agreement\n\n"
            f"Filter: an entry is kept when at least {s['min_correct']} annotators judged it correct and at least "
            f"{s['min_acceptable']} acceptable (FrameBench 3.2), unless the lead adjudicated it; {CONVENTION}. "
            "Each row's `human.outcome` names the rule that decided, `human.vote_kept` the vote filter alone, "
            "`human.adjudication` the decision and its reason.\n\n"
            + table(["outcome", "judged entries exported", "kept"], rows) + "\n\n" + aside_line
            + f"Krippendorff's alpha of the exported entries' judgments ({RELIABILITY_CONVENTION}; "
            f"{rel['resamples']} resamples, seed {rel['seed']}):\n\n"
            + table(["judgment", "level", "units", "alpha", "95% interval"], alpha) + "\n" + verifier)


def _verifier_lines(db: sqlite_utils.Database, entries: dict[str, Any], ids: list[str], scope: dict[str, Any]) -> str:
    """The verifier against the humans on the exported judged entries (precision and recall of ``verified``
    with bootstrap intervals, :func:`fbagent.verifier.agreement.verifier_vs_human`) and the margins of the
    latest calibration from annotations (``verifier calibrate --from-annotations``), when there is one."""
    items = [i for i in select_items(db, statuses=scope["statuses"], columns="id, status, verifier, generator_model, "
                                     "language") if i["id"] in set(ids)]
    rows = verifier_vs_human(entries, items, min_correct=scope["min_correct"],
                             min_acceptable=scope["min_acceptable"])["rows"]
    shown = [[r["scope"], r["n"], _pct(r["precision"]), _span(r["precision_interval"]), _pct(r["recall"]),
              _span(r["recall_interval"])] for r in rows if not r["scope"].startswith(("base", "extended", "model"))]
    text = ("\nThe verifier against the humans (positive = `verified` / kept by the filter above; 95% bootstrap "
            "intervals over entries):\n\n" + table(["scope", "entries", "precision", "95% interval", "recall",
                                                     "95% interval"], shown) + "\n")
    human = [c for c in list_calibrations(db) if (c["options"].get("calibration") or {}).get("source") == "annotations"]
    if human:
        res = human[0]["options"]["result"]
        margins = ", ".join(f"precision {k}: {'none' if v is None else v}" for k, v in res["margins"].items())
        text += (f"\nMargin set from these judgments (`fbagent verifier calibrate --from-annotations`, signal "
                 f"{res['signal']}, {res['n_entries']} entries): smallest margin reaching {margins}.\n")
    return text


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def _span(v: list[float] | None) -> str:
    return "n/a" if not v else f"[{100 * v[0]:.1f}, {100 * v[1]:.1f}]"
