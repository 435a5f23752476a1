"""Shortcut audit of a FrameBench-style benchmark: can an item be solved without understanding it?

Benchmarks built by generation carry annotation artifacts (Gururangan et al. 2018, "Annotation
Artifacts in Natural Language Inference Data"; Poliak et al. 2018, "Hypothesis Only Baselines in
Natural Language Inference"). In FrameBench the question is written together with S_A, so the
correct sentence may share more words with the question, be longer, carry a telling verb form, or
the question may name part of frame A. Rooms:

- :mod:`.text`: words and lemmas of a text, per language;
- :mod:`.baselines`: the shortcut baselines, each a pure scorer over the evaluation problems
  (:func:`fbagent.eval.problems.build_problems`, exactly what models see);
- :mod:`.stats`: accuracy with a seeded bootstrap interval over entries;
- :mod:`.audit`: :func:`fbagent.audit.audit.run_audit` (baselines, per-entry ``shortcut`` flag,
  near-duplicates, distributions) and :class:`fbagent.audit.audit.AuditOptions`;
- :mod:`.sources`: the entries of a run (as ``export`` writes them) or of a dataset file or folder
  (as ``eval run`` reads it), with frame definitions and relations from the store;
- :mod:`.render`: Markdown, CSV and JSON of a result, and the dataset card's "Known shortcuts";
- :mod:`.plots`: PNG plots (matplotlib).

:func:`run_audit` and :class:`AuditOptions` load on first use (PEP 562): ``fbagent audit --help`` and
``fbagent export --help`` import this package, and the baselines' word and lemma tables (the verb check's
analysers) are not needed to show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.audit.audit import AuditOptions, run_audit

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.audit.audit": ("AuditOptions", "run_audit"),
}
__all__ = ["AuditOptions", "run_audit"]

__getattr__ = lazy_attributes(__name__, _MODULES)
