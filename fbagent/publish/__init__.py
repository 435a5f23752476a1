"""Publishing a benchmark where researchers run benchmarks (``fbagent export --format hf|lm-eval``).

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
"""
