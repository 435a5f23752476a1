"""Frame-pair selection (FrameBench step 1; Yano and Sasano 2026, sec. 3.1).

- :mod:`.select`: the pure steps (candidates, eligibility filters, seeded stratified sample,
  Table 1 counts) and :func:`fbagent.pairs.select.select_pairs`, the one public entry that stores
  a selection;
- :mod:`.screening`: the optional LLM screening of a stored selection, with replacement from the
  seeded reserve (a LangGraph graph).

The rows live in ``selections`` / ``frame_pairs`` (:mod:`fbagent.store.pairs`).
"""
