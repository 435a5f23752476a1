"""Disputed entries and what the lead's adjudication does to the human filter.

Disputed (``fbagent annotate --mode adjudicate`` shows these only): an entry with an entry score from at
least one annotator whose judgments disagree (two annotators differ on the entry's correctness or
acceptability, or on a scored pair's answer) or whose votes are within one vote of the filter (FrameBench,
Yano and Sasano 2026, sec. 3.2: kept with >= ``min_correct`` correct and >= ``min_acceptable`` acceptable
votes; within one vote: one vote more or less would change the outcome, i.e. ``n_correct`` or
``n_acceptable`` equals the threshold or the threshold - 1).

The outcome of an entry (``EntryScore.kept``), in this order:

- "cannot be fixed" (revise mode): dropped, whatever was decided;
- no adjudication: the vote filter, exactly as before adjudication existed;
- an adjudication taken on a text the entry no longer has (revised afterwards in revise mode; FrameBench 3.3:
  a revised entry is judged again) is set aside: the vote filter on the judgments of the new text decides,
  and the report and the exports say which decision was set aside and why, until the lead decides again;
- ``keep`` / ``drop``: kept / dropped;
- ``second_round``: decided by the second-round annotators alone (their answers override the first round,
  as the FrameBench authors' ``merge_eval_rounds.py`` does): those whose tasks on the entry were created
  after the decision (annotators who had not seen it). Kept when a strict majority of them judged it
  correct and a strict majority acceptable (with three, the paper's 2 of 3; with one, that one); until
  one has judged it the entry is dropped and its outcome is ``second round pending``.

``EntryScore.outcome`` names which rule decided: ``votes``, ``adjudicated keep``, ``adjudicated drop``,
``second round`` or ``second round pending`` (``unfixable`` for "cannot be fixed").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fbagent.store.adjudications import Adjudication
from fbagent.validation.assignment import selected_fields

# fbagent.validation.aggregate.EntryScore (aggregate imports this module, so the type is named, not imported)
EntryScore = Any

#: the outcome names (module docstring)
OUTCOMES = ("votes", "adjudicated keep", "adjudicated drop", "second round", "second round pending", "unfixable")
CONVENTION = ("adjudicated entries: keep / drop as decided; second round: a strict majority of the annotators "
              "who judged the entry after the decision (correct and acceptable); otherwise the vote filter")


def vote_kept(e: EntryScore, min_correct: int, min_acceptable: int) -> bool:
    """The vote filter alone (paper 3.2): an entry score and enough correct and acceptable votes."""
    return bool(e.scores) and e.n_correct >= min_correct and e.n_acceptable >= min_acceptable


def disputed(e: EntryScore, min_correct: int, min_acceptable: int) -> bool:
    """Whether ``e`` is disputed (module docstring): judged, and disagreeing or within one vote."""
    if not e.scores:
        return False
    votes = list(e.scores.values())
    if len({v["correct"] for v in votes}) > 1 or len({v["acceptable"] for v in votes}) > 1:
        return True
    for pair in ("base", "extended"):
        answers = {frozenset(selected_fields(j.choice, j.shown_first, j.shown_second))
                   for ps in e.pairs.values() if (j := ps.get(pair)) is not None}
        if len(answers) > 1:
            return True
    return e.n_correct in (min_correct, min_correct - 1) or e.n_acceptable in (min_acceptable, min_acceptable - 1)


def second_round_annotators(e: EntryScore, decision: Adjudication) -> list[str]:
    """Annotators with an entry score whose first task on the entry was created after ``decision`` (in its
    millisecond or later)."""
    # timestamps have milliseconds: a task created in the decision's millisecond counts as after it, as
    # second_round_for hands it out (only tasks created strictly before the decision were seen)
    return sorted(n for n in e.scores if (e.first_task_at.get(n) or "") >= decision["decided_at"])


def set_aside_note(d: Adjudication, revised: list[str]) -> dict[str, Any]:
    """What the report and the exports say about a decision a revision set aside: decision, reason, when,
    the revised fields and ``why`` in words."""
    what = ", ".join(revised) or "its text"
    return {"decision": d["decision"], "reason": d["reason"], "decided_at": d["decided_at"], "revised": revised,
            "why": f"the entry was revised after the decision ({what}); the judgments of the new text decide "
                   "until the lead decides again"}


def apply_adjudications(entries: Iterable[EntryScore], decisions: dict[str, Adjudication], min_correct: int,
                        min_acceptable: int, aside: dict[str, list[str]] | None = None) -> None:
    """Set ``kept``, ``vote_kept``, ``outcome``, ``adjudication``, ``second_round`` and ``set_aside`` of every
    entry in place (module docstring for the rules); entries without a decision keep the vote filter's
    result. ``aside``: item id -> revised fields, for the decisions taken on a text the entry no longer has
    (:func:`fbagent.store.adjudications.set_aside`): they do not apply, as if there were none."""
    aside = aside or {}
    for e in entries:
        e.vote_kept = vote_kept(e, min_correct, min_acceptable)
        d = decisions.get(e.item_id)
        e.set_aside = None
        if d is not None and e.item_id in aside:
            e.set_aside, d = set_aside_note(d, aside[e.item_id]), None
        e.adjudication, e.second_round = d, []
        if e.unfixable:
            e.kept, e.outcome = False, "unfixable"
        elif d is None:
            e.kept, e.outcome = e.vote_kept, "votes"
        elif d["decision"] in ("keep", "drop"):
            e.kept, e.outcome = d["decision"] == "keep", f"adjudicated {d['decision']}"
        else:
            e.second_round = second_round_annotators(e, d)
            votes = [e.scores[n] for n in e.second_round]
            half = len(votes) / 2
            e.kept = bool(votes) and sum(v["correct"] for v in votes) > half and sum(
                v["acceptable"] for v in votes) > half
            e.outcome = "second round" if votes else "second round pending"
