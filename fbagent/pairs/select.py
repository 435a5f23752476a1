"""Frame-pair selection: FrameBench step 1 (Yano and Sasano 2026, sec. 3.1).

A polysemous verb evokes two or more frames; every 2-combination of its
frames is a candidate (verb, frame A, frame B) pair. Candidates pass
eligibility filters, then a seeded, stratified sample of P pairs is drawn.

The steps are pure functions over plain data, so they can run as separate
LangGraph nodes (:mod:`fbagent.agents`) or be called directly:

1. :func:`candidates` ``(verb_lus) -> list[Candidate]``
2. :func:`filter_candidates` ``(cands, frames, verb_lus, relations, options) -> (eligible, excluded_by_reason)``
3. :func:`sample_pairs` ``(eligible, pairs=, seed=, max_per_verb=) -> Sample``
4. :func:`table1` ``(pairs) -> {"frame_pairs", "unique_lus", "unique_verbs"}``

:func:`select_pairs` reads the facts from the store, runs 1-4 and stores the
result (``selections`` + ``frame_pairs``: the sample as ``selected``, the rest
of the eligible pool in seeded order as ``reserve``).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

RELATED_TYPES = ("Inheritance", "Subframe", "Perspective_on")
REASONS = ("missing_definition", "missing_core_fe", "too_few_examples", "directly_related")
REASON_TEXT = {
    "missing_definition": "a frame has an empty definition",
    "missing_core_fe": "a frame has no core FE",
    "too_few_examples": "a frame has fewer examples than --min-examples",
    "directly_related": "frames directly related (Inheritance/Subframe/Perspective_on)",
}

# ``--pairs`` (the sample size P) per command, declared once. The three commands differ on purpose:
#: ``fbagent pairs select``: FrameBench's own P (Yano and Sasano 2026 sample 800 frame pairs); a
#: selection costs no LLM call, so the default is the paper's benchmark size.
SELECT_PAIRS = 800
#: ``fbagent verifier calibrate``: a quarter of the benchmark's P. 200 pairs hold out 800 sentences,
#: which put the accuracy's 95% interval within about +-3.5 points (FrameNet 1.5: 73.6% [70.3, 77.0],
#: docs/verifier.md), at a quarter of the LLM calls of 800 pairs.
CALIBRATE_PAIRS = 200
#: ``--help`` text of ``--pairs`` per command (``fbagent generate`` has no default: a run pays for
#: every pair's LLM calls, so its size is always chosen, e.g. 800 as the paper does).
PAIRS_HELP = {
    "pairs select": "Number of frame pairs P to sample. The default is FrameBench's P (selecting costs no LLM call).",
    "generate": "Number of frame pairs to select (P); required: a run pays for every pair's LLM calls "
                "(FrameBench: 800).",
    "verifier calibrate": "Frame pairs to sample (P), verb-stratified. The default holds out 800 sentences: a 95% "
                          "interval of about +-3.5 points, at a quarter of the LLM calls of FrameBench's 800 pairs.",
}


@dataclass(frozen=True, order=True)
class Candidate:
    """One (verb, frame A, frame B) pair; ``frame_a < frame_b`` by name. ``lu_a``/``lu_b``
    are the verb's LU names in each frame (e.g. ``leave.v``)."""

    verb: str
    frame_a: str
    frame_b: str
    lu_a: str
    lu_b: str

    def as_dict(self) -> dict[str, str]:
        """``{"verb", "lu_a", "lu_b", "frame_a", "frame_b"}`` (the ``frame_pairs`` columns)."""
        return asdict(self)


@dataclass
class SelectionOptions:
    """Options of one selection; every one is recorded with it (``selections.options``).

    ``pairs``: sample size P; ``seed``: RNG seed; ``max_per_verb``: at most M
    pairs per verb in the sample (``None``: no cap); ``per_pair``: entries to
    generate per pair (K); ``min_examples``: each frame needs at least N
    examples (frame ``<ex>`` + the verb's exemplars in that frame);
    ``require_definition`` / ``require_core_fe`` / ``exclude_related``:
    eligibility filters; ``related_types``: relation types that count as direct.
    """

    pairs: int = SELECT_PAIRS
    seed: int = 0
    max_per_verb: int | None = None
    per_pair: int = 1
    min_examples: int = 0
    require_definition: bool = True
    require_core_fe: bool = True
    exclude_related: bool = True
    related_types: tuple[str, ...] = RELATED_TYPES

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (``related_types`` as a list)."""
        d = asdict(self)
        d["related_types"] = list(self.related_types)
        return d

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> SelectionOptions:
        """The options of a stored selection (``selections.options``); keys it lacks take their
        defaults (selections made before an option existed), unknown keys are ignored."""
        known = {k: v for k, v in stored.items() if k in cls.__dataclass_fields__}
        if "related_types" in known:
            known["related_types"] = tuple(known["related_types"])
        return cls(**known)

    def check(self) -> None:
        """Raise :class:`fbagent.errors.FbagentError` for an impossible value
        (a count outside its range in :data:`fbagent.limits.COUNTS`, a seed outside 0..2**64-1); return ``None`` otherwise."""
        from fbagent.limits import check_count
        from fbagent.seeds import check_seed

        check_seed(self.seed)
        check_count("--pairs", self.pairs)
        check_count("--max-per-verb", self.max_per_verb)
        check_count("--per-pair", self.per_pair)
        check_count("--min-examples", self.min_examples)


@dataclass
class Sample:
    """Result of :func:`sample_pairs`: ``selected`` (the sample, in seeded order),
    ``reserve`` (the rest of the eligible pool, in seeded order; pairs beyond
    ``max_per_verb`` come last) and ``took_all`` (fewer than P were available)."""

    selected: list[Candidate]
    reserve: list[Candidate]
    took_all: bool
    available: int = 0
    excluded_by_cap: int = 0
    order: list[Candidate] = field(default_factory=list, repr=False)


def candidates(verb_lus: Iterable[Mapping[str, Any]]) -> list[Candidate]:
    """Every 2-combination of the frames of each verb.

    Args:
        verb_lus: rows ``{"lemma", "lu", "frame"}`` of verb LUs (POS V), e.g.
            from :func:`fbagent.store.pairs.verb_lexical_units`.

    Returns:
        Candidates sorted by (verb, frame A, frame B); a verb with k distinct
        frames gives k(k-1)/2 of them. When a verb has two LUs in one frame,
        the first LU name (sorted) is used.
    """
    frames_of: dict[str, dict[str, str]] = defaultdict(dict)
    for row in sorted(verb_lus, key=lambda r: (r["lemma"], r["frame"], r["lu"])):
        frames_of[row["lemma"]].setdefault(row["frame"], row["lu"])
    out = []
    for verb, frames in frames_of.items():
        for a, b in combinations(sorted(frames), 2):
            out.append(Candidate(verb, a, b, frames[a], frames[b]))
    return sorted(out)


def filter_candidates(
    cands: Iterable[Candidate],
    frames: Mapping[str, Mapping[str, Any]],
    verb_lus: Iterable[Mapping[str, Any]],
    relations: Iterable[tuple[str, str, str]],
    options: SelectionOptions,
) -> tuple[list[Candidate], dict[str, int]]:
    """Keep the eligible candidates; count the others by their first failing reason.

    Args:
        cands: output of :func:`candidates`.
        frames: ``{frame name: {"has_definition", "n_core_fes", "n_examples"}}``
            (:func:`fbagent.store.pairs.frame_facts`).
        verb_lus: rows ``{"lemma", "frame", "n_exemplars"}`` (exemplars of the
            verb's LU in that frame count as examples of the frame for that verb).
        relations: ``(type, super_frame, sub_frame)`` triples; pairs related
            directly by a type in ``options.related_types`` are excluded when
            ``options.exclude_related``.
        options: which filters apply (see :class:`SelectionOptions`).

    Returns:
        ``(eligible, excluded)``: eligible candidates in input order, and
        ``{reason: count}`` for every reason in :data:`REASONS` (0 when none),
        each excluded candidate counted once, under the first failing reason.
    """
    exemplars: Counter[tuple[str, str]] = Counter()
    for row in verb_lus:
        exemplars[(row["lemma"], row["frame"])] += int(row.get("n_exemplars") or 0)
    related = {
        frozenset((sup, sub)) for rtype, sup, sub in relations if rtype in options.related_types and sup != sub
    }
    excluded = dict.fromkeys(REASONS, 0)
    eligible = []
    for c in cands:
        fa, fb = frames.get(c.frame_a, {}), frames.get(c.frame_b, {})
        reason = None
        if options.require_definition and not (fa.get("has_definition") and fb.get("has_definition")):
            reason = "missing_definition"
        elif options.require_core_fe and not (fa.get("n_core_fes", 0) >= 1 and fb.get("n_core_fes", 0) >= 1):
            reason = "missing_core_fe"
        elif options.min_examples > 0 and min(
            fa.get("n_examples", 0) + exemplars[(c.verb, c.frame_a)],
            fb.get("n_examples", 0) + exemplars[(c.verb, c.frame_b)],
        ) < options.min_examples:
            reason = "too_few_examples"
        elif options.exclude_related and frozenset((c.frame_a, c.frame_b)) in related:
            reason = "directly_related"
        if reason:
            excluded[reason] += 1
        else:
            eligible.append(c)
    return eligible, excluded


def sample_pairs(
    eligible: Iterable[Candidate], *, pairs: int, seed: int, max_per_verb: int | None = None
) -> Sample:
    """Seeded sample of ``pairs`` candidates, stratified by verb.

    Procedure (reproducible for a given seed and pool, whatever the input
    order): sort the pool, shuffle it with ``random.Random(seed)``, then order
    it in rounds: round r holds each verb's (r+1)-th pair in shuffled order,
    so every verb gets one pair before any verb gets a second (equal
    allocation across verbs, the strata; verbs and pairs chosen at random).
    Pairs in rounds >= ``max_per_verb`` are not sampled. The first ``pairs`` of
    this order are ``selected``; the rest stay as ``reserve`` in the same order
    (capped pairs last). With fewer eligible pairs than ``pairs``, all are
    taken (``took_all``).

    Raises ``ValueError`` when ``pairs`` < 1 or ``max_per_verb`` < 1.
    """
    if pairs < 1:
        raise ValueError("pairs must be at least 1")
    if max_per_verb is not None and max_per_verb < 1:
        raise ValueError("max_per_verb must be at least 1")
    pool = sorted(set(eligible))
    rng = random.Random(seed)
    rng.shuffle(pool)
    seen: Counter[str] = Counter()
    ranked = []
    for pos, c in enumerate(pool):
        ranked.append((seen[c.verb], pos, c))
        seen[c.verb] += 1
    ranked.sort(key=lambda t: (t[0], t[1]))
    order = [c for _, _, c in ranked]
    within = [c for r, _, c in ranked if max_per_verb is None or r < max_per_verb]
    capped = [c for r, _, c in ranked if max_per_verb is not None and r >= max_per_verb]
    selected = within[:pairs]
    reserve = within[pairs:] + capped
    return Sample(selected, reserve, took_all=len(within) < pairs, available=len(within),
                  excluded_by_cap=len(capped), order=order)


def table1(pairs: Iterable[Candidate | Mapping[str, Any]]) -> dict[str, int]:
    """Counts as in FrameBench Table 1: ``frame_pairs``, ``unique_lus`` and ``unique_verbs``.

    An LU is frame-specific (leave.v in Departing and leave.v in Quitting are
    two LUs), so ``unique_lus`` counts distinct (LU name, frame).
    """
    rows = [p.as_dict() if isinstance(p, Candidate) else p for p in pairs]
    lus = {(r["lu_a"], r["frame_a"]) for r in rows} | {(r["lu_b"], r["frame_b"]) for r in rows}
    return {"frame_pairs": len(rows), "unique_lus": len(lus), "unique_verbs": len({r["verb"] for r in rows})}


def check_pool(lexicon: Mapping[str, Any], n_verb_lus: int, n_candidates: int, n_eligible: int,
               excluded: Mapping[str, int]) -> None:
    """Raise :class:`FbagentError` when a lexicon offers no frame pair to select (no verb lexical unit,
    no verb evoking two or more frames, or every candidate pair excluded), before anything is stored."""
    from fbagent.errors import FbagentError

    name = lexicon.get("name", "?")
    if n_verb_lus == 0:
        raise FbagentError(f"lexicon {name} has no verb lexical units (POS V), so no frame pair can be selected",
                           "add a lexicon whose lexical units include verbs (e.g. leave.v)")
    if n_candidates == 0:
        raise FbagentError(f"lexicon {name} has {n_verb_lus:,} verb lexical units but no verb evokes two or more "
                           "frames, so no frame pair can be selected",
                           "add a lexicon with polysemous verbs (one lemma with lexical units in 2+ frames)")
    if n_eligible == 0:
        why = ", ".join(f"{REASON_TEXT[r]}: {n:,}" for r, n in excluded.items() if n)
        raise FbagentError(f"all {n_candidates:,} candidate frame pairs of lexicon {name} are excluded ({why})",
                           "relax the eligibility filters (e.g. --no-require-core-fe, --no-exclude-related, "
                           "--min-examples 0)")


def check_selectable(db: Any, lexicon: Mapping[str, Any], options: SelectionOptions) -> None:
    """Raise :class:`FbagentError` (:func:`check_pool`) when a new selection of ``lexicon`` under
    ``options`` would hold no pair; reads only (``generate`` calls it before it stores a run)."""
    from fbagent.store import pairs as store

    verb_lus = store.verb_lexical_units(db, lexicon["id"])
    cands = candidates(verb_lus)
    eligible, excluded = filter_candidates(cands, store.frame_facts(db, lexicon["id"]), verb_lus,
                                           store.frame_relations(db, lexicon["id"]), options)
    check_pool(lexicon, len(verb_lus), len(cands), len(eligible), excluded)


def select_pairs(db: Any, lexicon: Mapping[str, Any], options: SelectionOptions) -> dict[str, Any]:
    """Run the whole selection for one lexicon and store it.

    Args:
        db: open database.
        lexicon: a ``lexicons`` row (e.g. from
            :func:`fbagent.lexicon.importer.resolve_lexicon`).
        options: see :class:`SelectionOptions`.

    Returns:
        ``{"selection_id", "lexicon", "options", "counts", "pairs": [selected
        pair dicts with id and rank], "reserve": n}``; ``counts`` holds
        ``candidates``, ``excluded`` (by reason), ``eligible``,
        ``excluded_by_max_per_verb``, ``requested``, ``selected``, ``reserve``,
        ``took_all``, ``relations_available`` and the :func:`table1` numbers.

    Raises:
        FbagentError: bad options (P < 1, M < 1, K < 1, N < 0).
    """
    from fbagent.store import pairs as store

    options.check()
    lexicon_id = lexicon["id"]
    verb_lus = store.verb_lexical_units(db, lexicon_id)
    relations = store.frame_relations(db, lexicon_id)
    cands = candidates(verb_lus)
    eligible, excluded = filter_candidates(cands, store.frame_facts(db, lexicon_id), verb_lus, relations, options)
    check_pool(lexicon, len(verb_lus), len(cands), len(eligible), excluded)
    sample = sample_pairs(eligible, pairs=options.pairs, seed=options.seed, max_per_verb=options.max_per_verb)
    counts = {
        "candidates": len(cands),
        "excluded": excluded,
        "eligible": len(eligible),
        "excluded_by_max_per_verb": sample.excluded_by_cap,
        "requested": options.pairs,
        "selected": len(sample.selected),
        "reserve": len(sample.reserve),
        "took_all": sample.took_all,
        "relations_available": len(relations),
        **table1(sample.selected),
    }
    selection_id = store.save_selection(
        db,
        lexicon_id=lexicon_id,
        seed=options.seed,
        options=options.to_json(),
        counts=counts,
        selected=[c.as_dict() for c in sample.selected],
        reserve=[c.as_dict() for c in sample.reserve],
        per_pair=options.per_pair,
    )
    return {
        "selection_id": selection_id,
        "lexicon": lexicon["name"],
        "options": options.to_json(),
        "counts": counts,
        "pairs": store.selection_pairs(db, selection_id),
        "reserve": len(sample.reserve),
    }
