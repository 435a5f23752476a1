"""The one export room: every ``fbagent export --format`` (JSONL files, and folders where researchers
run benchmarks).

- :mod:`fbagent.publish.formats`: the one list of formats (the command, its help and the writers read it);
- :mod:`fbagent.publish.export`: one entry point that calls the format's writer;
- :mod:`fbagent.publish.jsonl`: the JSONL formats (``fbagent``, the FrameBench authors' ``framebench``);
- :mod:`fbagent.publish.hf`: a Hugging Face dataset folder (Parquet per language config, a ``test``
  split, the dataset card) that ``datasets.load_dataset(DIR)`` loads as it is;
- :mod:`fbagent.publish.lmeval`: an lm-evaluation-harness task folder that asks the problems of
  ``fbagent eval run`` (same seeded option orders, same prompt text) and scores them as fbagent's
  transformers backend does;
- :mod:`fbagent.publish.rows` (features and field docs), :mod:`fbagent.publish.provenance` (what
  the database says about how the entries were built and validated), :mod:`fbagent.publish.card`
  (the dataset card), :mod:`fbagent.publish.folder` (a folder written whole or not at all).

Library code only: it returns summaries; ``fbagent/commands/export.py`` prints. Nothing here uses
the network; uploading is the user's step (docs/export.md).

:func:`export_entries` (:mod:`.export`), :func:`run_entries` and :func:`shortcut_ids` (:mod:`.shortcuts`) load
on first use (PEP 562): ``fbagent export --help`` and ``fbagent audit --help`` import this package (and its
light :mod:`.formats`), and the writers (evaluation's templates, the card, the shortcut audit's word and
lemma tables) are not needed to show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.publish.export import export_entries
    from fbagent.publish.shortcuts import run_entries, shortcut_ids

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.publish.export": ("export_entries",),
    "fbagent.publish.shortcuts": ("run_entries", "shortcut_ids"),
}
__all__ = ["export_entries", "run_entries", "shortcut_ids"]

__getattr__ = lazy_attributes(__name__, _MODULES)
