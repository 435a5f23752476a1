"""Ranges of every count option, declared once.

A count outside its range is refused before anything is stored or loaded (one line, exit 2): a
negative or zero count makes no sense, and an absurd one (``--per-pair 100000000``) would plan for
hours or exhaust memory before doing anything useful. The library checks (:func:`check_count`) and
the CLI options (``min=``/``max=`` of Typer, from :func:`bounds`) read the same table.
"""

from __future__ import annotations

from fbagent.errors import FbagentError

#: option name (as the user spells it) -> (lowest, highest) allowed value, both inclusive
COUNTS: dict[str, tuple[int, int]] = {
    "--pairs": (1, 1_000_000),            # frame pairs P (FrameBench: 800)
    "--per-pair": (1, 1_000),             # entries K per frame pair (FrameBench: 1)
    "--max-per-verb": (1, 1_000_000),
    "--min-examples": (0, 1_000_000),
    "--min-exemplars": (0, 1_000_000),
    "--max-references": (1, 10_000),
    "--concurrency": (1, 1_024),          # requests in flight
    "--max-retries": (0, 100),            # self-check regenerations
    "--llm-retries": (0, 100),            # re-asks and transport retries per LLM call
    "--n-boot": (100, 1_000_000),         # bootstrap resamples
    "--limit": (1, 100_000_000),
    "--instances": (1, 100_000_000),
    "--shots": (0, 64),
    "--batch-size": (0, 1_000_000),
    "--show": (0, 1_000_000),
    "--min-correct": (0, 1_000),
    "--min-acceptable": (0, 1_000),
}


def bounds(option: str) -> dict[str, int]:
    """``{"min": lo, "max": hi}`` of ``option`` for a ``typer.Option(..., **bounds(option))``."""
    lo, hi = COUNTS[option]
    return {"min": lo, "max": hi}


def check_count(option: str, value: int | None) -> None:
    """Raise :class:`FbagentError` when ``value`` (``None``: not given, always fine) is outside the range
    of ``option`` in :data:`COUNTS`, naming the range."""
    if value is None:
        return
    lo, hi = COUNTS[option]
    if not lo <= value <= hi:
        if value < lo:
            least = "0 or more" if lo == 0 else f"at least {lo:,}"
            problem = f"{option} must be {least}, got {value:,}"
        else:
            problem = f"{option} must be at most {hi:,}, got {value:,}"
        raise FbagentError(problem, f"pass {option} between {lo:,} and {hi:,}")
