"""Sections other rooms contribute to the dataset card (:mod:`fbagent.publish.card`).

A contributor is a function ``(db, records, facts) -> str | None``: ``records`` are the exported
fbagent-format records, ``facts`` the card's provenance (:func:`fbagent.publish.provenance.provenance`).
It returns one Markdown section starting with ``## Title`` (numbers from the database, no placeholder),
or None to add nothing. The card places contributed sections, in the order of :data:`CONTRIBUTORS`,
after "Considerations for using the data" and before "Evaluation protocol". To add one: write the
function in its own room and append it to :data:`CONTRIBUTORS` here (e.g. the pairs room's
"Known shortcuts").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlite_utils

from fbagent.publish.adjudication_card import adjudication_section
from fbagent.publish.human_baseline import independent_human
from fbagent.publish.shortcuts import known_shortcuts

Contributor = Callable[[sqlite_utils.Database, list[dict[str, Any]], dict[str, Any]], "str | None"]

#: the contributed sections, in card order
CONTRIBUTORS: list[Contributor] = [known_shortcuts, independent_human, adjudication_section]


def contributed_sections(db: sqlite_utils.Database, records: list[dict[str, Any]], facts: dict[str, Any]) -> list[str]:
    """The Markdown of every contributor that has something to say, in :data:`CONTRIBUTORS` order."""
    out = []
    for make in CONTRIBUTORS:
        text = make(db, records, facts)
        if text and text.strip():
            out.append(text.strip() + "\n")
    return out
