"""Annotators as every export publishes them: ``annotator_1..n`` unless the exporter asks for names.

The number of an annotator is their position among all the database's annotators in the order of their
first pair task (:func:`fbagent.store.annotations.annotators_by_first_task`), so ``annotator_2`` is the
same person in every export of one database (any run, ``--validated`` or not, before and after more
annotators join) and the ``i`` of the FrameBench authors' ``match_answer_annotator{i}_*`` columns of the
HF folder. The mapping to people stays in the database: no export writes it. ``--annotator-names``
(:attr:`fbagent.publish.options.HfOptions.annotator_names`) publishes the names instead, keeping the
numbers of the columns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from fbagent.store.annotations import annotators_by_first_task

PREFIX = "annotator_"


@dataclass(frozen=True)
class Published:
    """How the annotators of one database are published: ``numbers`` (name -> 1-based number, first-task
    order) and ``names`` (publish the names themselves instead of ``annotator_<number>``)."""

    numbers: dict[str, int]
    names: bool = False

    def number(self, name: str) -> int:
        """The annotator's number; a name with no task (not expected) gets one after every known number,
        in the order asked, so that it is never published as itself by mistake."""
        if name not in self.numbers:
            self.numbers[name] = len(self.numbers) + 1
        return self.numbers[name]

    def alias(self, name: str) -> str:
        """``annotator_<number>``, or ``name`` when names are published."""
        return name if self.names else f"{PREFIX}{self.number(name)}"

    def aliases(self, among: Iterable[str]) -> dict[str, str]:
        """``{name: published name}`` for the names in ``among``, in number order."""
        return {n: self.alias(n) for n in sorted(set(among), key=self.number)}


def published(db: sqlite_utils.Database, names: bool = False) -> Published:
    """The database's annotator numbering (module docstring); ``names``: publish names."""
    return Published({n: i for i, n in enumerate(annotators_by_first_task(db), start=1)}, names)


def anonymise_human(human: dict[str, Any], pub: Published) -> dict[str, Any]:
    """The ``human`` block of an fbagent-format record (:func:`fbagent.publish.jsonl.human_block`) with every
    annotator name replaced by its published name, in number order: ``annotators``, the keys of ``entry_scores`` and of each
    pair's judgments, and the adjudication's ``second_round``. The adjudicator is never in the block."""
    out = dict(human)
    out["annotators"] = [pub.alias(n) for n in sorted(human["annotators"], key=pub.number)]
    out["entry_scores"] = {pub.alias(n): v for n, v in sorted(human["entry_scores"].items(),
                                                               key=lambda kv: pub.number(kv[0]))}
    out["pairs"] = {p: {pub.alias(n): j for n, j in sorted(js.items(), key=lambda kv: pub.number(kv[0]))}
                    for p, js in human["pairs"].items()}
    if human.get("adjudication") is not None:
        a = human["adjudication"]
        out["adjudication"] = {**a, "second_round": [pub.alias(n) for n in sorted(a["second_round"], key=pub.number)]}
    return out


def anonymise_records(records: list[dict[str, Any]], pub: Published) -> list[dict[str, Any]]:
    """fbagent-format records with their ``human`` blocks anonymised (:func:`anonymise_human`)."""
    return [{**r, "human": anonymise_human(r["human"], pub)} for r in records]
