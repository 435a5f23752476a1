"""Aggregation of human judgments and the validation report (FrameBench step 3).

Protocol (FrameBench, Yano and Sasano 2026, section 3.2): each annotator
judges, per entry, the base pair (S_A, S_B) and the extended pair (S_B', S_A')
for correctness (did they pick exactly the frame-A sentence?) and
acceptability (binarized: English Natural = positive; binary scales:
Acceptable = positive). The entry-level score of one annotator is the
minimum over the two pairs: correct only if both pairs are answered
correctly, acceptable only if both pairs are rated positive. An entry is kept
when at least ``min_correct`` annotators judged it correct and at least
``min_acceptable`` judged it acceptable (paper: 2 of 3 each), and it is not
marked "cannot be fixed". The auxiliary pairs (both-correct, neither-correct)
are attention checks, reported per annotator.

The report has the paper's tables: entries by number of annotators judging
correct x number judging acceptable (Table 2), positive rate per annotator,
full (3/3) agreement and Fleiss' kappa per judgment (Table 8; statsmodels),
and human accuracy (the "Human" row of Tables 3/4: mean over annotators of the
share of correctly answered base and extended pairs on the kept entries).

Judgments belong to the text they judged (FrameBench 3.3, "Manual
Revision": revised entries are judged again). Every judgment carries the
fingerprint of the question and the two sentences shown
(:func:`fbagent.store.annotations.text_fingerprint`); only the judgments of an
entry's current (revised) text count. Per pair task the state is
``current`` (judged on the current text), ``stale`` (judged only on an
older text: the task is pending again and comes first in that annotator's
queue) or ``pending`` (not judged yet). An entry is ``current`` when every
one of its tasks is, else ``pending`` (``unassigned`` when nobody has tasks
for it). Table 2, the filter, the export and human accuracy use current
judgments only.
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from fbagent.store import adjudications
from fbagent.store import annotations as ann
from fbagent.store.adjudications import Adjudication
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.store.revisions import effective_texts, unfixable_ids
from fbagent.store.rows import AnnotationTaskRow, JudgmentRow
from fbagent.validation.adjudication import CONVENTION as ADJUDICATION_CONVENTION
from fbagent.validation.adjudication import OUTCOMES, apply_adjudications
from fbagent.validation.assignment import AUXILIARY_PAIRS, SCORED_PAIRS, selected_fields
from fbagent.validation.reliability_tables import reliability_tables
from fbagent.validation.thresholds import filter_hint
from fbagent.verifier.agreement import verifier_vs_human

DEFAULT_MIN_CORRECT = 2
DEFAULT_MIN_ACCEPTABLE = 2


@dataclass
class PairJudgment:
    """One annotator's answer to one pair task (from ``annotation_tasks``)."""

    annotator: str
    pair: str
    choice: str
    correct: bool
    acceptability: str
    acceptable: bool
    shown_first: str
    shown_second: str
    comment: str | None = None
    seconds: float = 0.0
    fingerprint: str | None = None
    judged_at: str | None = None

    def as_dict(self) -> dict[str, object]:
        """Export form: choice in shown labels, the item fields it selects, shown order, both judgments."""
        return {
            "choice": self.choice,
            "selected": selected_fields(self.choice, self.shown_first, self.shown_second),
            "shown": [self.shown_first, self.shown_second],
            "correct": self.correct,
            "acceptability": self.acceptability,
            "acceptable": self.acceptable,
            "comment": self.comment,
        }


@dataclass
class EntryScore:
    """Aggregated judgments of one entry.

    ``pairs[annotator][pair]`` holds every answered pair task;
    ``scores[annotator]`` = {"correct": bool, "acceptable": bool} for the
    annotators who answered both scored pairs (entry score = min over base
    and extended, paper 3.2); ``n_correct`` / ``n_acceptable`` count those.
    """

    item_id: str
    pairs: dict[str, dict[str, PairJudgment]] = field(default_factory=dict)
    scores: dict[str, dict[str, bool]] = field(default_factory=dict)
    n_correct: int = 0
    n_acceptable: int = 0
    kept: bool = False
    unfixable: bool = False
    #: ``states[annotator][pair]``: current | stale | pending, for every task of the entry
    states: dict[str, dict[str, str]] = field(default_factory=dict)
    #: ``stale[annotator][pair]``: the latest judgment of an older text, for the stale tasks
    stale: dict[str, dict[str, PairJudgment]] = field(default_factory=dict)
    #: ``comments[annotator][pair]``: the comment of every task that has one, judged or not
    comments: dict[str, dict[str, str]] = field(default_factory=dict)
    #: ``first_task_at[annotator]``: when the annotator's first task on the entry was created
    first_task_at: dict[str, str] = field(default_factory=dict)
    #: the vote filter's result; ``kept`` is the outcome (the adjudication's, when there is one)
    vote_kept: bool = False
    #: which rule decided ``kept`` (:data:`fbagent.validation.adjudication.OUTCOMES`)
    outcome: str = "votes"
    #: the latest adjudication (:class:`fbagent.store.adjudications.Adjudication`) or None
    adjudication: Adjudication | None = None
    #: second-round annotators (judged the entry after it was sent to a second round)
    second_round: list[str] = field(default_factory=list)
    #: the latest adjudication when a revision of the entry set it aside (:func:`fbagent.store.adjudications.set_aside`):
    #: ``{"decision", "reason", "decided_at", "revised": [fields], "why"}``; None when none was set aside
    set_aside: dict[str, Any] | None = None

    @property
    def annotators(self) -> list[str]:
        """Annotators with an entry score, sorted by name."""
        return sorted(self.scores)

    def count(self, state: str) -> int:
        """Number of pair tasks of the entry (all annotators) in ``state`` (current, stale or pending)."""
        return sum(1 for pairs in self.states.values() for s in pairs.values() if s == state)

    @property
    def state(self) -> str:
        """``current`` (every task judged on the current text), ``pending`` (some are not) or ``unassigned``."""
        if not self.states:
            return "unassigned"
        return "current" if self.count("current") == sum(len(p) for p in self.states.values()) else "pending"


def _judgment(task: AnnotationTaskRow, j: JudgmentRow) -> PairJudgment:
    return PairJudgment(
        annotator=task["annotator"],
        pair=task["pair"],
        choice=j["choice"],
        correct=bool(j["correct"]),
        acceptability=j["acceptability"],
        acceptable=bool(j["acceptable"]),
        shown_first=task["shown_first"],
        shown_second=task["shown_second"],
        comment=task["comment"],
        seconds=task["seconds"] or 0.0,
        fingerprint=j["fingerprint"],
        judged_at=j["judged_at"],
    )


def collect(db: sqlite_utils.Database, item_ids: Sequence[str]) -> dict[str, EntryScore]:
    """Judgments of ``item_ids`` grouped into :class:`EntryScore` (scores not yet thresholded).

    Per task, the judgment that counts is the latest one given on the
    entry's current text (see the module docstring); the task states and
    the latest stale judgments are kept for the report and the revise screen.
    """
    entries = {i: EntryScore(i) for i in item_ids}
    texts = effective_texts(db, item_ids)
    judgments = ann.judgments_by_task(db, item_ids)
    for t in ann.tasks_of_items(db, item_ids):
        e = entries[t["item_id"]]
        name, pair = t["annotator"], t["pair"]
        if t.get("created_at") and (name not in e.first_task_at or t["created_at"] < e.first_task_at[name]):
            e.first_task_at[name] = t["created_at"]
        if t["comment"]:
            e.comments.setdefault(name, {})[pair] = t["comment"]
        fp = ann.task_fingerprint(texts.get(t["item_id"], {}), t["shown_first"], t["shown_second"])
        history = judgments.get(t["id"], [])
        current = ann.latest_with(history, fp)
        if current is not None:
            e.pairs.setdefault(name, {})[pair] = _judgment(t, current)
            e.states.setdefault(name, {})[pair] = "current"
        elif history:
            e.stale.setdefault(name, {})[pair] = _judgment(t, history[-1])
            e.states.setdefault(name, {})[pair] = "stale"
        else:
            e.states.setdefault(name, {})[pair] = "pending"
    for e in entries.values():
        for name, pairs in e.pairs.items():
            if all(p in pairs for p in SCORED_PAIRS):
                e.scores[name] = {
                    "correct": min(pairs[p].correct for p in SCORED_PAIRS),
                    "acceptable": min(pairs[p].acceptable for p in SCORED_PAIRS),
                }
        e.n_correct = sum(s["correct"] for s in e.scores.values())
        e.n_acceptable = sum(s["acceptable"] for s in e.scores.values())
    return entries


def apply_filter(entries: dict[str, EntryScore], min_correct: int, min_acceptable: int, unfixable: set[str],
                 decisions: dict[str, Adjudication] | None = None, aside: dict[str, list[str]] | None = None) -> None:
    """Set ``kept`` in place: >= min_correct correct, >= min_acceptable acceptable, not unfixable, unless the
    lead adjudicated the entry (``decisions``: :func:`fbagent.store.adjudications.latest`; ``aside``: the
    decisions a later revision set aside, :func:`fbagent.store.adjudications.set_aside`; the rules:
    :mod:`fbagent.validation.adjudication`)."""
    for e in entries.values():
        e.unfixable = e.item_id in unfixable
    apply_adjudications(entries.values(), decisions or {}, min_correct, min_acceptable, aside)


def score_entries(
    db: sqlite_utils.Database,
    item_ids: Sequence[str],
    *,
    min_correct: int = DEFAULT_MIN_CORRECT,
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE,
) -> dict[str, EntryScore]:
    """:func:`collect` then :func:`apply_filter` with the database's "cannot be fixed" marks and the lead's
    adjudications (the outcome of an adjudicated entry is the adjudication's)."""
    entries = collect(db, item_ids)
    decisions = adjudications.latest(db, item_ids)
    apply_filter(entries, min_correct, min_acceptable, unfixable_ids(db), decisions,
                 adjudications.set_aside(db, decisions))
    return entries


# --------------------------------------------------------------------------- statistics


def fleiss(ratings: Sequence[Sequence[bool]]) -> float | None:
    """Fleiss' kappa of binary ``ratings`` (subjects x raters, same number of raters each).

    Uses :func:`statsmodels.stats.inter_rater.fleiss_kappa` on the
    subjects x {negative, positive} count table. Returns None when undefined
    (no subjects, or every rating in one category: chance agreement is 1).
    """
    if not ratings:
        return None
    from statsmodels.stats.inter_rater import fleiss_kappa

    table = [[sum(1 for v in row if not v), sum(1 for v in row if v)] for row in ratings]
    col = [sum(r[0] for r in table), sum(r[1] for r in table)]
    if 0 in col:
        return None
    with warnings.catch_warnings():
        # one rater per subject divides by zero inside statsmodels: kappa is undefined (reported n/a)
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(fleiss_kappa(table, method="fleiss"))
    return None if math.isnan(value) or math.isinf(value) else value


def _rate(values: Iterable[bool]) -> float | None:
    vals = list(values)
    return sum(vals) / len(vals) if vals else None


def panel_size(entries: Iterable[EntryScore]) -> int:
    """Most common number of annotators with an entry score (ties -> the larger); 0 when none."""
    counts = Counter(len(e.scores) for e in entries if e.scores)
    if not counts:
        return 0
    return max(counts, key=lambda k: (counts[k], k))


def build_report(
    entries: dict[str, EntryScore], *, scope: dict[str, Any], min_correct: int, min_acceptable: int
) -> dict[str, Any]:
    """The validation report as a JSON-friendly dict (see the module docstring for the tables).

    Keys: scope, judgments (pair tasks current / stale / pending in total,
    entries per state, and per entry: state, the three counts, kept),
    entries (counts), table2 (counts[n_correct][n_acceptable] over judged
    entries), annotators (positive rates, pair accuracies, attention checks,
    median seconds per task), agreement (per judgment: subjects, raters, full
    agreement, Fleiss' kappa), human_accuracy. Every number uses current
    judgments only.
    """
    judged = [e for e in entries.values() if e.scores]
    size = max([len(e.scores) for e in judged], default=0)
    counts = [[0] * (size + 1) for _ in range(size + 1)]
    for e in judged:
        counts[e.n_correct][e.n_acceptable] += 1
    kept = [e for e in judged if e.kept]
    names = sorted({n for e in entries.values() for n in e.pairs})
    return {
        "scope": {**scope, "min_correct": min_correct, "min_acceptable": min_acceptable},
        "judgments": _judgment_counts(entries),
        "entries": {
            "in_scope": len(entries),
            "judged": len(judged),
            "annotators_per_entry": {str(k): v for k, v in sorted(Counter(len(e.scores) for e in judged).items())},
            "kept": len(kept),
            "unfixable": sum(1 for e in entries.values() if e.unfixable),
        },
        "table2": {"max_annotators": size, "counts": counts},
        "adjudication": _adjudication_block(entries),
        "annotators": [_annotator_row(name, entries, judged) for name in names],
        "agreement": _agreement(judged),
        "human_accuracy": _human_accuracy(kept, names),
    }


def _adjudication_block(entries: dict[str, EntryScore]) -> dict[str, Any]:
    """How many entries each rule decided (:data:`fbagent.validation.adjudication.OUTCOMES`), the entries the
    lead decided (entry, decision, reason, votes kept?, outcome, second-round annotators) and the convention."""
    decided = [e for e in entries.values() if e.adjudication is not None]
    return {
        "outcomes": {o: sum(1 for e in entries.values() if e.scores and e.outcome == o) for o in OUTCOMES},
        "entries": [{"entry": e.item_id, "decision": e.adjudication["decision"], "reason": e.adjudication["reason"],
                     "adjudicator": e.adjudication["adjudicator"], "vote_kept": e.vote_kept, "kept": e.kept,
                     "outcome": e.outcome, "second_round": e.second_round} for e in decided
                    if e.adjudication is not None],
        "set_aside": [{"entry": e.item_id, "decision": e.set_aside["decision"], "reason": e.set_aside["reason"],
                       "revised": e.set_aside["revised"], "why": e.set_aside["why"], "kept": e.kept,
                       "outcome": e.outcome} for e in entries.values() if e.set_aside is not None],
        "convention": ADJUDICATION_CONVENTION,
    }


def _judgment_counts(entries: dict[str, EntryScore]) -> dict[str, Any]:
    """Pair tasks current / stale / pending in total, entries per state, and the per-entry rows."""
    per_entry = [
        {"entry": e.item_id, "state": e.state, "current": e.count("current"), "stale": e.count("stale"),
         "pending": e.count("pending"), "kept": e.kept}
        for e in entries.values()
    ]
    return {
        "counts": {k: sum(r[k] for r in per_entry) for k in ("current", "stale", "pending")},
        "entries": {k: sum(1 for r in per_entry if r["state"] == k) for k in ("current", "pending", "unassigned")},
        "per_entry": per_entry,
    }


def _annotator_row(name: str, entries: dict[str, EntryScore], judged: list[EntryScore]) -> dict[str, Any]:
    """One annotator: entries scored, positive rates, accuracy per pair, median seconds per pair task."""
    scored = [e.scores[name] for e in judged if name in e.scores]
    pairs = [e.pairs[name] for e in entries.values() if name in e.pairs]
    row: dict[str, Any] = {
        "annotator": name,
        "entries": len(scored),
        "correct_rate": _rate(s["correct"] for s in scored),
        "acceptable_rate": _rate(s["acceptable"] for s in scored),
    }
    for p in (*SCORED_PAIRS, *AUXILIARY_PAIRS):
        row[f"{p}_accuracy"] = _rate(ps[p].correct for ps in pairs if p in ps)
    secs = [j.seconds for ps in pairs for j in ps.values()]
    row["median_seconds"] = statistics.median(secs) if secs else None
    return row


def _agreement(judged: list[EntryScore]) -> list[dict[str, Any]]:
    """Per judgment (entry level and per scored pair): subjects, raters, positive rate, full agreement and
    Fleiss' kappa over the entries judged by the usual panel size (:func:`panel_size`) of those judged by two
    annotators or more. Agreement needs two raters: when no entry has two, the panel is the entries' usual
    size (1) and full agreement and kappa are None (n/a), not a trivial 100%."""
    multi = [e for e in judged if len(e.scores) >= 2]
    r = panel_size(multi or judged)
    panel = [e for e in judged if len(e.scores) == r]
    judgments: list[tuple[str, str, Callable[..., Any]]] = [
        ("correctness", "entry", lambda e, n: e.scores[n]["correct"]),
        ("acceptability", "entry", lambda e, n: e.scores[n]["acceptable"]),
    ]
    for p in SCORED_PAIRS:
        judgments.append(("correctness", p, lambda e, n, p=p: e.pairs[n][p].correct))
        judgments.append(("acceptability", p, lambda e, n, p=p: e.pairs[n][p].acceptable))
    agreement = []
    for judgment, level, get in judgments:
        ratings = [[get(e, n) for n in e.annotators] for e in panel]
        agreement.append(
            {
                "judgment": judgment,
                "level": level,
                "subjects": len(ratings),
                "raters": r,
                "positive_rate": _rate(v for row in ratings for v in row),
                "full_agreement": _rate(len(set(row)) == 1 for row in ratings) if r >= 2 else None,
                "fleiss_kappa": fleiss(ratings) if r >= 2 else None,
            }
        )
    return agreement


def _human_accuracy(kept: list[EntryScore], names: list[str]) -> dict[str, Any]:
    """Human accuracy on the kept entries: per annotator (all scored pairs, each pair), and the mean over
    the annotators with answers."""
    per_annotator: dict[str, dict[str, float | None]] = {}
    for name in names:
        answers = {p: [e.pairs[name][p].correct for e in kept if name in e.scores] for p in SCORED_PAIRS}
        per_annotator[name] = {
            "all": _rate(v for p in SCORED_PAIRS for v in answers[p]),
            **{p: _rate(answers[p]) for p in SCORED_PAIRS},
        }
    with_answers = [n for n in names if per_annotator[n]["all"] is not None]

    def mean_over(key: str) -> float | None:
        vals = [v for n in with_answers if (v := per_annotator[n][key]) is not None]
        return sum(vals) / len(vals) if vals else None

    return {
        "entries": len(kept),
        "mean": mean_over("all"),
        "base": mean_over("base"),
        "extended": mean_over("extended"),
        "per_annotator": {n: per_annotator[n] for n in with_answers},
    }


def worst_first(entries: dict[str, EntryScore]) -> list[str]:
    """Entry ids ordered for the lead's correction pass: lowest correctness first, then lowest acceptability.

    Rates are over the annotators with an entry score (current judgments
    only); entries nobody has judged on their current text come last; ties
    keep the stable entry order (the order of ``entries``).
    """
    def key(pos_e: tuple[int, EntryScore]) -> tuple[int, float, float, int]:
        pos, e = pos_e
        if not e.scores:
            return (1, 0.0, 0.0, pos)
        n = len(e.scores)
        return (0, e.n_correct / n, e.n_acceptable / n, pos)

    return [e.item_id for _, e in sorted(enumerate(entries.values()), key=key)]


def report(
    db: sqlite_utils.Database,
    *,
    run: str | None = None,
    statuses: Sequence[str] = ANNOTATED_STATUSES,
    min_correct: int = DEFAULT_MIN_CORRECT,
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE,
) -> dict[str, Any]:
    """Build the report for the entries of ``run`` (all runs when None) with ``statuses``.

    Raises :class:`FbagentError` for an unknown run or when no entry matches.
    """
    return report_with_entries(db, run=run, statuses=statuses, min_correct=min_correct,
                               min_acceptable=min_acceptable)[0]


def report_with_entries(
    db: sqlite_utils.Database,
    *,
    run: str | None = None,
    statuses: Sequence[str] = ANNOTATED_STATUSES,
    min_correct: int = DEFAULT_MIN_CORRECT,
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE,
) -> tuple[dict[str, Any], dict[str, EntryScore]]:
    """:func:`report` and the scored entries it was built from (for the reliability block,
    :func:`fbagent.validation.reliability.reliability_report`). Raises as :func:`report`."""
    items = ann.select_items(db, run=run, statuses=statuses)
    if not items:
        raise ann.explain_no_items(db, run=run, language=None, statuses=statuses, options=("--run",))
    entries = score_entries(db, [i["id"] for i in items], min_correct=min_correct, min_acceptable=min_acceptable)
    rep = build_report(
        entries, scope={"run": run, "statuses": list(statuses)}, min_correct=min_correct, min_acceptable=min_acceptable
    )

    rows = ann.select_items(db, run=run, statuses=statuses, columns="id, status, verifier, generator_model, language")
    rep["verifier_vs_human"] = verifier_vs_human(entries, rows, min_correct=min_correct, min_acceptable=min_acceptable)

    rep["filter_hint"] = filter_hint(entries.values(), min_correct, min_acceptable)
    return rep, entries


# --------------------------------------------------------------------------- rendering


def _fmt(v: Any, pct: bool = False) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{100 * v:.1f}%" if pct else f"{v:.3f}"
    return str(v)


def _span(interval: list[float] | None) -> str:
    """``[low, high]`` in percent, ``n/a`` when undefined."""
    return "n/a" if not interval else f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def tables(rep: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The report as (title, header, rows) tables of strings, shared by the Rich, Markdown and CSV outputs."""
    out = []
    e = rep["entries"]
    s = rep["scope"]
    out.append((
        "Entries",
        ["", "in scope", "judged", "annotators per entry", "kept", "cannot be fixed", "filter"],
        [[
            "entries", str(e["in_scope"]), str(e["judged"]),
            ", ".join(f"{k}: {v}" for k, v in e["annotators_per_entry"].items()) or "-",
            str(e["kept"]), str(e["unfixable"]),
            f">= {s['min_correct']} correct, >= {s['min_acceptable']} acceptable",
        ]],
    ))
    j = rep.get("judgments")
    if j is not None:
        c = j["counts"]
        rows = [[r["entry"], r["state"], str(r["current"]), str(r["stale"]), str(r["pending"]), "yes" if r["kept"] else "no"]
                for r in j["per_entry"]]
        rows.append([
            "total", f"{j['entries']['current']} current, {j['entries']['pending']} pending",
            str(c["current"]), str(c["stale"]), str(c["pending"]), str(e["kept"]),
        ])
        out.append((
            "Judgments per entry (pair tasks; only judgments of the current text count;"
            " stale = judged an older text, pending again)",
            ["entry", "state", "current", "stale", "pending", "kept"],
            rows,
        ))
    out.extend(_adjudication_tables(rep))
    size = rep["table2"]["max_annotators"]
    counts = rep["table2"]["counts"]
    rows = [[f"{c} correct", *[str(counts[c][a]) for a in range(size + 1)], str(sum(counts[c]))] for c in range(size, -1, -1)]
    rows.append(["total", *[str(sum(counts[c][a] for c in range(size + 1))) for a in range(size + 1)], str(e["judged"])])
    out.append(("Table 2: entries by # annotators judging correct x # judging acceptable",
                ["", *[f"{a} acceptable" for a in range(size + 1)], "total"], rows))
    out.append((
        "Positive rate per annotator (entry level) and pair accuracy",
        ["annotator", "entries", "correct", "acceptable", "base", "extended", "both (check)", "neither (check)", "median s/task"],
        [[a["annotator"], str(a["entries"]), _fmt(a["correct_rate"], True), _fmt(a["acceptable_rate"], True),
          _fmt(a["base_accuracy"], True), _fmt(a["extended_accuracy"], True),
          _fmt(a["both_correct_accuracy"], True), _fmt(a["neither_correct_accuracy"], True),
          "n/a" if a["median_seconds"] is None else f"{a['median_seconds']:.1f}"] for a in rep["annotators"]],
    ))
    out.append((
        "Agreement per judgment (Table 8)",
        ["judgment", "level", "subjects", "raters", "positive", "full agreement", "Fleiss' kappa"],
        [[g["judgment"], g["level"], str(g["subjects"]), str(g["raters"]), _fmt(g["positive_rate"], True),
          _fmt(g["full_agreement"], True), _fmt(g["fleiss_kappa"])] for g in rep["agreement"]],
    ))
    if rep.get("reliability"):  # fbagent.validation.reliability
        out.extend(reliability_tables(rep["reliability"]))
    h = rep["human_accuracy"]
    rows = [[n, _fmt(v["all"], True), _fmt(v["base"], True), _fmt(v["extended"], True)] for n, v in h["per_annotator"].items()]
    rows.append(["Human (mean)", _fmt(h["mean"], True), _fmt(h["base"], True), _fmt(h["extended"], True)])
    out.append((f"Human accuracy on the {h['entries']} kept {'entry' if h['entries'] == 1 else 'entries'}", ["annotator", "accuracy", "base", "extended"], rows))
    if rep.get("human_scores"):  # fbagent.validation.baseline.human_scores
        scores = rep["human_scores"]
        out.append((
            "Human scores: paper-style (filter) and independent (annotate --mode baseline)",
            ["human score", "accuracy", "95% interval", "entries", "annotators"],
            [[r["score"], _fmt(r["accuracy"], True),
              "n/a" if r["low"] is None else f"[{_fmt(r['low'], True)}, {_fmt(r['high'], True)}]",
              str(r["entries"]), str(r["annotators"])] for r in scores],
        ))
        out.append(("Conventions of the human scores", ["convention"],
                    [[f"{r['score']}: {r['convention']}"] for r in scores]))
    out.extend(_verifier_tables(rep))
    return out


def _adjudication_tables(rep: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The "Adjudicated entries" table, only when the lead decided an entry (else nothing: the report of a
    database without adjudications is what it was)."""
    adj = rep.get("adjudication") or {}
    out = []
    if adj.get("entries"):
        out.append((
            "Adjudicated entries (the filter uses the adjudicated outcome: " + adj["convention"] + ")",
            ["entry", "decision", "votes", "outcome", "reason"],
            [[r["entry"], r["decision"].replace("_", " "), "kept" if r["vote_kept"] else "dropped",
              f"{'kept' if r['kept'] else 'dropped'} ({r['outcome']})", r["reason"]] for r in adj["entries"]],
        ))
    if adj.get("set_aside"):
        out.append((
            "Adjudications set aside (the entry was revised after the decision: judgments of the new text "
            "decide until the lead decides again)",
            ["entry", "decision", "revised", "outcome now"],
            [[r["entry"], r["decision"].replace("_", " "), ", ".join(r["revised"]) or "text changed",
              f"{'kept' if r['kept'] else 'dropped'} ({r['outcome']})"] for r in adj["set_aside"]],
        ))
    return out


def _verifier_tables(rep: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The verifier-vs-human tables (counts and rates; the rates' bootstrap intervals)."""
    if not rep.get("verifier_vs_human"):  # fbagent.verifier.agreement
        return []
    out: list[tuple[str, list[str], list[list[str]]]] = []
    out.append((
        "Verifier vs human filter (judged entries; positive = verified / kept)",
        ["scope", "n", "verified+kept", "verified+dropped", "flagged+kept", "flagged+dropped", "precision",
         "recall", "agreement", "Cohen's kappa", "judgments saved"],
        [[r["scope"], str(r["n"]), str(r["tp"]), str(r["fp"]), str(r["fn"]), str(r["tn"]), _fmt(r["precision"], True),
          _fmt(r["recall"], True), _fmt(r["agreement"], True), _fmt(r["kappa"]), str(r["judgments_saved"])]
         for r in rep["verifier_vs_human"]["rows"]],
    ))
    out.append((
        "Verifier vs human filter: 95% bootstrap intervals over entries (1000 resamples, seed 0)",
        ["scope", "precision", "95% interval", "recall", "95% interval"],
        [[r["scope"], _fmt(r["precision"], True), _span(r.get("precision_interval")), _fmt(r["recall"], True),
          _span(r.get("recall_interval"))] for r in rep["verifier_vs_human"]["rows"]],
    ))
    return out


def render_markdown(rep: dict[str, Any]) -> str:
    """The report as Markdown tables."""
    parts = []
    for title, header, rows in tables(rep):
        parts.append(f"### {title}\n")
        parts.append("| " + " | ".join(header) + " |")
        parts.append("|" + "|".join("---" for _ in header) + "|")
        parts.extend("| " + " | ".join(r) + " |" for r in rows)
        parts.append("")
    return "\n".join(parts)


def render_csv(rep: dict[str, Any]) -> str:
    """The report as long-form CSV: table, row, column, value (one line per cell)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["table", "row", "column", "value"])
    for title, header, rows in tables(rep):
        for r in rows:
            for col, val in zip(header[1:], r[1:], strict=True):
                w.writerow([title, r[0], col, val])
    return buf.getvalue()


def render_json(rep: dict[str, Any]) -> str:
    """The report as indented JSON (numbers unrounded, None as null)."""
    return json.dumps(rep, indent=2, ensure_ascii=False) + "\n"
