"""Ranges of every integer option and id, declared once.

A count outside its range is refused before anything is stored or loaded (one line, exit 2): a
negative or zero count makes no sense, and an absurd one (``--per-pair 100000000``) would plan for
hours or exhaust memory before doing anything useful. The library checks (:func:`check_count`) and
the CLI options (``min=``/``max=`` of Typer, from :func:`bounds`) read the same table, and every
command checks every integer it parsed against it (:func:`check_int_option`, called by the CLI for
each command): an option without an entry gets SQLite's signed 64-bit range (:data:`SQLITE_INT_MIN`
.. :data:`SQLITE_INT_MAX`), so no id or count reaches SQLite as an ``OverflowError``, and the same
option has the same cap in every command.
"""

from __future__ import annotations

from typing import Any

from fbagent.errors import FbagentError

#: bootstrap resamples for the 95% intervals when none are asked for (eval summaries and reports, calibration)
DEFAULT_N_BOOT = 1000

#: SQLite stores signed 64-bit integers: an id or count outside this range cannot be looked up
SQLITE_INT_MIN, SQLITE_INT_MAX = -(2**63), 2**63 - 1

#: option name (as the user spells it; an argument by its upper-case name) -> (lowest, highest) allowed
#: value, both inclusive
COUNTS: dict[str, tuple[int, int]] = {
    "--seed": (0, 2**64 - 1),             # fbagent.seeds: 64-bit unsigned, stored losslessly
    "--selection": (1, SQLITE_INT_MAX),   # a selection id
    "SELECTION": (1, SQLITE_INT_MAX),
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


def bounds(option: str) -> dict[str, Any]:
    """``{"min": lo, "max": hi}`` of ``option`` for a ``typer.Option(..., **bounds(option))``."""
    lo, hi = COUNTS[option]
    return {"min": lo, "max": hi}


def int_bounds(option: str) -> tuple[int, int]:
    """``(lowest, highest)`` of ``option``: its :data:`COUNTS` entry, else SQLite's 64-bit range."""
    return COUNTS.get(option, (SQLITE_INT_MIN, SQLITE_INT_MAX))


def check_int_option(option: str, value: int | None, declared_min: int | None = None) -> None:
    """Raise :class:`FbagentError` when the parsed integer ``value`` of ``option`` is above its cap
    (:func:`int_bounds`) or below its lowest value; ``declared_min``: the lowest value the command itself
    declares for the option (``pairs show --limit 0`` means all rows), which then replaces the table's."""
    if value is None or isinstance(value, bool):
        return
    lo, hi = int_bounds(option)
    check_count(option, value, bounds=(lo if declared_min is None else declared_min, hi))


def check_count(option: str, value: int | None, bounds: tuple[int, int] | None = None) -> None:
    """Raise :class:`FbagentError` when ``value`` (``None``: not given, always fine) is outside the range
    of ``option`` in :data:`COUNTS` (or ``bounds``), naming the range."""
    if value is None:
        return
    lo, hi = bounds or COUNTS[option]
    if not lo <= value <= hi:
        if value < lo:
            least = "0 or more" if lo == 0 else f"at least {lo:,}"
            problem = f"{option} must be {least}, got {value:,}"
        else:
            problem = f"{option} must be at most {hi:,}, got {value:,}"
        raise FbagentError(problem, f"pass {option} between {lo:,} and {hi:,}")
