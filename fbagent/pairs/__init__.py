"""Frame-pair selection (FrameBench step 1; Yano and Sasano 2026, sec. 3.1).

- :mod:`.select`: :func:`fbagent.pairs.select.select_pairs`, the one public entry that selects and
  stores (``protocol`` ``fbagent`` or ``framebench``), and the pure steps of fbagent's protocol
  (candidates, eligibility filters, seeded stratified sample, Table 1 counts);
- :mod:`.options`: :class:`~fbagent.pairs.options.SelectionOptions` and the constants the commands'
  ``--help`` reads (light: no numpy, no store);
- :mod:`.framebench`: the FrameBench authors' rules (protocol ``framebench``);
- :mod:`.screening`: the optional LLM screening of a stored selection, with replacement from the
  seeded reserve (a LangGraph graph, :func:`fbagent.pairs.screening.screen_pairs`).

The rows live in ``selections`` / ``frame_pairs`` (:mod:`fbagent.store.pairs`).

:func:`select_pairs`, :func:`draw_selection` (a draw that stores nothing), :data:`REASON_TEXT` and :data:`FRAMEBENCH_SEED` load on first use
(:func:`fbagent.lean_imports.lazy_attributes`): ``fbagent pairs --help`` imports this package and :mod:`.options`,
not the selection's numpy and store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.pairs.framebench import FRAMEBENCH_SEED
    from fbagent.pairs.select import REASON_TEXT, draw_selection, select_pairs

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.pairs.framebench": ("FRAMEBENCH_SEED",),
    "fbagent.pairs.select": ("REASON_TEXT", "draw_selection", "select_pairs"),
}
__all__ = ["FRAMEBENCH_SEED", "REASON_TEXT", "draw_selection", "select_pairs"]

__getattr__ = lazy_attributes(__name__, _MODULES)
