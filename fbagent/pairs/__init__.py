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
"""
