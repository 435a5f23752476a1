"""Frame-pair eligibility options shared by `fbagent pairs select` and `fbagent generate`, declared once.

:data:`selection_options` is an option group (:func:`fbagent.commands.option_groups.option_group`,
help panel "Selection"): both commands offer the same flags with the same help and defaults
(read from :class:`fbagent.pairs.select.SelectionOptions`), and receive ``selection: SelectionOptions``
(those fields set, the others at their defaults: the command sets its own with :func:`dataclasses.replace`). Only ``typer`` and :mod:`fbagent.pairs.select` (the standard
library) are imported here, so that ``--help`` stays fast.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from fbagent.commands.option_groups import option_group
from fbagent.pairs.options import SelectionOptions

_SELECTION: dict[str, tuple[Any, Any]] = {
    "protocol": (Annotated[str, typer.Option(
        "--protocol", help="fbagent: verbs by lemma, the eligibility filters below, a seeded sample stratified by "
        "verb (one pair per verb first), optional LLM screening. framebench: the FrameBench authors' rules (LUs with "
        "an annotated sentence grouped by LU name, every pair of frames, one seeded shuffle, the first P; no "
        "filter, no screening; see docs/pairs.md).")], SelectionOptions.protocol),
    "max_per_verb": (Annotated[int | None, typer.Option(
        "--max-per-verb", help="At most M pairs per verb in the sample (default: no cap; one per verb comes first "
        "anyway).")], SelectionOptions.max_per_verb),
    "min_examples": (Annotated[int, typer.Option(
        "--min-examples", help="Each frame needs at least N examples (frame <ex> + the verb's exemplars in it).")],
        SelectionOptions.min_examples),
    "require_definition": (Annotated[bool, typer.Option(
        "--require-definition/--no-require-definition", help="Both frames need a non-empty definition.")],
        SelectionOptions.require_definition),
    "require_core_fe": (Annotated[bool, typer.Option(
        "--require-core-fe/--no-require-core-fe", help="Both frames need at least one core FE.")],
        SelectionOptions.require_core_fe),
    "exclude_related": (Annotated[bool, typer.Option(
        "--exclude-related/--no-exclude-related", help="Exclude pairs directly related by Inheritance, Subframe or "
        "Perspective_on (where the lexicon has relations).")], SelectionOptions.exclude_related),
}



def eligibility(values: dict[str, Any], _others: dict[str, Any]) -> SelectionOptions:
    """The :class:`SelectionOptions` of the "Selection" flags (the other fields at their defaults)."""
    return SelectionOptions(**values)


#: Decorator: the eligibility filters (panel "Selection"); the command takes ``selection: SelectionOptions``.
selection_options = option_group("selection", "Selection", _SELECTION, eligibility)
