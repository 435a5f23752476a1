"""Models compared across languages on the frame pairs every language's benchmark shares.

Entries of benchmarks selected with ``pairs select --shared-with`` carry a ``frame_pair`` key common to every
language (:func:`fbagent.framenet.pair_keys.frame_pair_key`), which each prediction of ``eval run`` records. For
FrameBench predictions of several languages, :func:`shared_accuracy` keeps the problems whose frame pair
appears in every language's predictions (the shared pairs: the same frame distinctions in every language) and
gives, per model and language, the accuracy on them with a 95% interval:

- accuracy: correct answers / answers over every template (pooled), failures counted as wrong or excluded as
  the report's :class:`fbagent.eval.metrics.Scoring` says;
- interval: the percentile bootstrap of that pooled accuracy over entries (all problems of an entry resampled
  together, entries sorted by id: :func:`fbagent.eval.metrics.bootstrap_ci`), the report's ``ci95``
  convention, seeded with the run's seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fbagent.eval.metrics import Scoring, _group_counts, bootstrap_ci
from fbagent.limits import DEFAULT_N_BOOT
from fbagent.seeds import DEFAULT_SEED


@dataclass(frozen=True)
class Cell:
    """One model in one language: ``accuracy`` in [0, 1] (None: nothing scored), ``ci95`` ``(low, high)``,
    ``entries`` and ``problems`` (answers in the denominator) on the shared pairs."""

    accuracy: float | None
    ci95: tuple[float, float] | None
    entries: int
    problems: int


@dataclass
class SharedAccuracy:
    """``languages`` (sorted), ``shared`` (frame-pair keys in every language), ``pairs_per_language`` (each
    language's frame pairs), ``without_key`` (predictions that carry no ``frame_pair``) and ``cells``
    (``{model: {language: Cell}}``, models in first-seen order)."""

    languages: list[str]
    shared: set[str]
    pairs_per_language: dict[str, int]
    without_key: int
    cells: dict[str, dict[str, Cell]] = field(default_factory=dict)


def shared_accuracy(runs: Sequence[tuple[str, Sequence[dict]]], scoring: Scoring, n_boot: int = DEFAULT_N_BOOT,
                    seed: int = DEFAULT_SEED) -> SharedAccuracy | None:
    """Accuracy per model and language on the shared frame pairs (module docstring).

    ``runs``: ``(model label, FrameBench predictions)`` per result folder (predictions with ``entry_id``,
    ``language``, ``frame_pair``, ``outcome``; a model's folders of several languages share its label).
    Returns None when the predictions hold fewer than two languages.
    """
    pairs: dict[str, set[str]] = {}
    without = 0
    for _, preds in runs:
        for p in preds:
            key = p.get("frame_pair") or ""
            without += not key
            pairs.setdefault(str(p.get("language") or ""), set()).update([key] if key else [])
    languages = sorted(pairs)
    if len(languages) < 2:
        return None
    shared = set.intersection(*(pairs[lang] for lang in languages))
    out = SharedAccuracy(languages, shared, {lang: len(pairs[lang]) for lang in languages}, without)
    grouped: dict[str, dict[str, list[dict]]] = {}
    for label, preds in runs:
        by_lang = grouped.setdefault(label, {})
        for p in preds:
            if p.get("frame_pair") in shared:
                by_lang.setdefault(str(p.get("language") or ""), []).append(p)
    for label, by_lang in grouped.items():
        out.cells[label] = {lang: _cell(rows, scoring, n_boot, seed) for lang, rows in sorted(by_lang.items())}
    return out


def _cell(preds: list[dict], scoring: Scoring, n_boot: int, seed: int) -> Cell:
    correct, den = _group_counts(preds, "entry_id", scoring.count_failures)
    total = sum(den)
    return Cell(sum(correct) / total if total else None, bootstrap_ci(correct, den, n_boot=n_boot, seed=seed),
                len(correct), total)
