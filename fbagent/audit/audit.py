"""Run the shortcut audit over a benchmark's entries: baselines, per-entry flag, near-duplicates, distributions.

The problems are built by evaluation's own builder (:func:`fbagent.eval.problems.build_problems`),
so the audit sees exactly the questions and sentence orders models see.

Per entry, ``shortcut`` is set when at least one baseline beats chance on the whole dataset (its 95%
interval lies above 50%) and every such baseline picks the gold sentence on every problem of the
entry: the entry can be solved by the dataset's known shortcuts alone. Baselines at chance are
left out of the flag (a coin that happens to land right says nothing about the entry).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

import numpy as np

from fbagent.audit import stats
from fbagent.audit.baselines import BASELINES, Context, Embed
from fbagent.audit.text import lemma_note, lemma_set
from fbagent.eval.entry import Entry
from fbagent.eval.problems import ORDERS, Problem, build_problems
from fbagent.seeds import DEFAULT_SEED

CHANCE = 0.5
DEFAULT_NEAR_DUPLICATE = 0.95


@dataclass(frozen=True)
class AuditOptions:
    """``seed``: of the option mapping (as ``eval run --seed``) and of the bootstrap; ``resamples``:
    bootstrap resamples; ``orders``: sentence orders asked (as ``eval run --orders``);
    ``near_duplicate``: similarity above which two entries of one verb are near-duplicates (cosine
    with an encoder, else Jaccard of lemma sets); ``encoder``: the sentence encoder's name (recorded)."""

    seed: int = DEFAULT_SEED
    resamples: int = stats.DEFAULT_RESAMPLES
    orders: tuple[str, ...] = ORDERS
    near_duplicate: float = DEFAULT_NEAR_DUPLICATE
    encoder: str | None = None


class BaselineRow(TypedDict, total=False):
    """One baseline of an audit: its rule, whether it could run, and (when it ran) its accuracy with the 95% interval
    over entries and whether that interval lies above chance (shares in [0, 1])."""

    name: str
    rule: str
    needs: str
    available: bool
    chance: float
    accuracy: float
    low: float
    high: float
    beats_chance: bool


class EntryShortcuts(TypedDict):
    """One entry of an audit: the share of its problems each baseline got right, and the shortcut flag."""

    id: str
    verb: str
    shortcut: bool
    gold_picked: dict[str, float]


class NearDuplicate(TypedDict):
    """Two entries of one verb whose texts are more similar than the threshold."""

    a: str
    b: str
    verb: str
    similarity: float


class NearDuplicates(TypedDict):
    """The near-duplicate pairs, the threshold and the similarity used."""

    threshold: float
    method: str
    pairs: list[NearDuplicate]


class AuditOptionsUsed(TypedDict):
    """The options an audit ran with (``encoder`` only when an encoder embedded the texts)."""

    seed: int
    resamples: int
    orders: list[str]
    near_duplicate: float
    encoder: str | None


class AuditResult(TypedDict):
    """What :func:`run_audit` returns (shares and accuracies in [0, 1])."""

    entries: int
    problems: int
    options: AuditOptionsUsed
    convention: str
    lemmas: list[str]
    baselines: list[BaselineRow]
    per_entry: list[EntryShortcuts]
    flagged: list[str]
    near_duplicates: NearDuplicates
    distributions: dict[str, dict[str, int]]
    source: NotRequired[str]        # what was audited (the command adds it: a dataset folder, a run)


def run_audit(entries: Sequence[Entry], options: AuditOptions, *, definitions: dict[str, str] | None = None,
              relations: Sequence[tuple[str, str, str]] | None = None,
              embed: Embed | None = None) -> AuditResult:
    """Audit ``entries``.

    Args:
        entries: the benchmark entries (:func:`fbagent.eval.dataset.read_entries` or
            :func:`fbagent.audit.sources.run_entries`).
        options: :class:`AuditOptions`.
        definitions: frame name -> definition (``None``/empty: frame names only).
        relations: ``(type, super_frame, sub_frame)`` of the lexicon (``None``: unknown).
        embed: texts -> unit-length float rows (``None``: no encoder baseline; near-duplicates by
            Jaccard).

    Returns:
        ``{"entries", "problems", "options", "convention", "lemmas", "baselines": [{"name", "rule",
        "available", "needs", "accuracy", "low", "high", "chance", "beats_chance"}], "per_entry":
        [{"id", "verb", "shortcut", "gold_picked": {baseline: share of its problems}}], "flagged",
        "near_duplicates", "distributions"}``; shares and accuracies in [0, 1].

    Raises:
        ValueError: no entries.
    """
    if not entries:
        raise ValueError("no entries to audit")
    problems = build_problems(list(entries), options.seed, options.orders)
    ctx = Context(entries={e.id: e for e in entries}, definitions=dict(definitions or {}), embed=embed)
    gold = [p.correct_position for p in problems]
    groups = [p.entry_id for p in problems]
    rows: list[BaselineRow] = []
    picks_by: dict[str, list[int]] = {}
    for b in BASELINES:
        picks = b.pick(problems, ctx)
        row: BaselineRow = {"name": b.name, "rule": b.rule, "needs": b.needs, "available": picks is not None,
                            "chance": CHANCE}
        if picks is not None:
            picks_by[b.name] = picks
            interval = stats.accuracy_with_interval(stats.problem_scores(picks, gold), groups, seed=options.seed,
                                                    resamples=options.resamples)
            row["accuracy"], row["low"], row["high"] = interval["accuracy"], interval["low"], interval["high"]
            row["beats_chance"] = row["low"] > CHANCE
        rows.append(row)
    per_entry = _per_entry(entries, problems, picks_by, {r["name"] for r in rows if r.get("beats_chance")})
    return {
        "entries": len(entries), "problems": len(problems),
        "options": {"seed": options.seed, "resamples": options.resamples, "orders": list(options.orders),
                    "near_duplicate": options.near_duplicate, "encoder": options.encoder if embed else None},
        "convention": stats.CONVENTION.format(resamples=options.resamples, seed=options.seed),
        "lemmas": sorted({lemma_note(e.language) for e in entries}),
        "baselines": rows, "per_entry": per_entry, "flagged": [e["id"] for e in per_entry if e["shortcut"]],
        "near_duplicates": near_duplicates(entries, options.near_duplicate, embed),
        "distributions": distributions(entries, problems, relations),
    }


def _per_entry(entries: Sequence[Entry], problems: Sequence[Problem], picks_by: dict[str, list[int]],
               above: set[str]) -> list[EntryShortcuts]:
    """Per entry: the share of its problems each baseline got right (ties count 0), and the flag."""
    right: dict[str, Counter[str]] = defaultdict(Counter)
    asked: Counter[str] = Counter(p.entry_id for p in problems)
    for name, picks in picks_by.items():
        for p, pick in zip(problems, picks, strict=True):
            right[p.entry_id][name] += int(pick == p.correct_position)
    out: list[EntryShortcuts] = []
    for e in entries:
        shares = {name: right[e.id][name] / asked[e.id] for name in picks_by} if asked[e.id] else {}
        flag = bool(above) and all(shares.get(name) == 1.0 for name in above)
        out.append({"id": e.id, "verb": e.verb, "shortcut": flag, "gold_picked": shares})
    return out


def near_duplicates(entries: Sequence[Entry], threshold: float,
                    embed: Embed | None) -> NearDuplicates:
    """Pairs of entries of the same verb whose texts (question and four sentences, joined) are more
    similar than ``threshold``: ``{"threshold", "method", "pairs": [{"a", "b", "verb", "similarity"}]}``."""
    by_verb: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        by_verb[e.verb].append(e)
    text = {e.id: " ".join((e.question, e.sentence_a, e.sentence_b, e.sentence_a_prime, e.sentence_b_prime))
            for e in entries}
    many = [group for group in by_verb.values() if len(group) > 1]
    rows = {}
    if embed is not None and many:
        ids = [e.id for group in many for e in group]
        vectors = embed([text[i] for i in ids])
        rows = {i: vectors[k] for k, i in enumerate(ids)}
    pairs: list[NearDuplicate] = []
    for group in many:
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if embed is not None:
                    sim = float(np.dot(rows[a.id], rows[b.id]))
                else:
                    la, lb = lemma_set(text[a.id], a.language), lemma_set(text[b.id], b.language)
                    sim = len(la & lb) / len(la | lb) if la | lb else 1.0
                if sim > threshold:
                    pairs.append({"a": a.id, "b": b.id, "verb": a.verb, "similarity": round(sim, 4)})
    method = "encoder cosine" if embed is not None else "Jaccard of lemma sets (no encoder)"
    return {"threshold": threshold, "method": method, "pairs": pairs}


def distributions(entries: Sequence[Entry], problems: Sequence[Problem],
                  relations: Sequence[tuple[str, str, str]] | None) -> dict[str, dict[str, int]]:
    """Counts: entries per verb, entries per frame (frame A and frame B each count), entries per frame
    relation of the pair (relation types between A and B in either direction, ``none``; ``unknown``
    without the lexicon's relations or frame names), problems per gold position (1 = shown first)."""
    between: dict[frozenset[str], set[str]] = defaultdict(set)
    for rtype, sup, sub in relations or ():
        between[frozenset((sup, sub))].add(rtype)
    per_relation: Counter[str] = Counter()
    per_frame: Counter[str] = Counter()
    for e in entries:
        per_frame.update(f for f in (e.frame_a, e.frame_b) if f)
        if relations is None or not (e.frame_a and e.frame_b):
            per_relation["unknown"] += 1
        else:
            per_relation["+".join(sorted(between.get(frozenset((e.frame_a, e.frame_b)), ()))) or "none"] += 1
    return {
        "per_verb": dict(Counter(e.verb for e in entries).most_common()),
        "per_frame": dict(per_frame.most_common()),
        "per_relation": dict(per_relation.most_common()),
        "gold_position": {str(k): v for k, v in sorted(Counter(p.correct_position for p in problems).items())},
    }
