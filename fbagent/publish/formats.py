"""The one list of export formats: ``fbagent export --format``, its help text and the writers
(:mod:`fbagent.publish.export`) all read :data:`FORMATS`.

A format writes either one JSONL file (``fbagent``, ``framebench``: :mod:`fbagent.publish.jsonl`) or
a folder (``hf``: :mod:`fbagent.publish.hf`; ``lm-eval``: :mod:`fbagent.publish.lmeval`). Adding a
format is one line here plus its writer in :data:`fbagent.publish.export.WRITERS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.errors import FbagentError


@dataclass(frozen=True)
class ExportFormat:
    """One export format: its ``name`` (the ``--format`` value), whether it writes a ``folder`` (else
    one JSONL file) and ``description`` (a few words for the help text)."""

    name: str
    folder: bool
    description: str


FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("fbagent", False, "all fields + human block"),
    ExportFormat("framebench", False, "the FrameBench authors' column names"),
    ExportFormat("hf", True, "Hugging Face dataset folder with its card"),
    ExportFormat("lm-eval", True, "lm-evaluation-harness task folder"),
)
NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)
JSONL_NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS if not f.folder)
DEFAULT = "fbagent"


def check_format(name: str, names: tuple[str, ...] = NAMES) -> ExportFormat:
    """The format called ``name``; raises :class:`FbagentError` naming the formats of ``names`` when it
    is not one of them."""
    for f in FORMATS:
        if f.name == name and name in names:
            return f
    raise FbagentError(f"unknown export format {name!r}", f"pass --format {' or --format '.join(names)}")


def help_text() -> str:
    """``fbagent (all fields + human block), framebench (...), hf (...) or lm-eval (...)``."""
    parts = [f"{f.name} ({f.description})" for f in FORMATS]
    return ", ".join(parts[:-1]) + " or " + parts[-1]
