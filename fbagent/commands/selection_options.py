"""Frame-pair eligibility options shared by `fbagent pairs select` and `fbagent generate`.

Declared once as Typer ``Annotated`` aliases, so both commands offer the same
flags with the same help and defaults (those of
:class:`fbagent.pairs.select.SelectionOptions`). Only ``typer`` is imported here, so
that ``fbagent --help`` stays fast.
"""

from __future__ import annotations

from typing import Annotated

import typer

MaxPerVerbOption = Annotated[int | None, typer.Option(
    "--max-per-verb", help="At most M pairs per verb in the sample (default: no cap; one per verb comes first "
    "anyway).")]
MinExamplesOption = Annotated[int, typer.Option(
    "--min-examples", help="Each frame needs at least N examples (frame <ex> + the verb's exemplars in it).")]
RequireDefinitionOption = Annotated[bool, typer.Option(
    "--require-definition/--no-require-definition", help="Both frames need a non-empty definition.")]
RequireCoreFeOption = Annotated[bool, typer.Option(
    "--require-core-fe/--no-require-core-fe", help="Both frames need at least one core FE.")]
ExcludeRelatedOption = Annotated[bool, typer.Option(
    "--exclude-related/--no-exclude-related", help="Exclude pairs directly related by Inheritance, Subframe or "
    "Perspective_on (where the lexicon has relations).")]
