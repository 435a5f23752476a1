"""Frame-pair selection: FrameBench step 1 (Yano and Sasano 2026, sec. 3.1).

A polysemous verb evokes two or more frames; every 2-combination of its
frames is a candidate (verb, frame A, frame B) pair. Two protocols
(:data:`fbagent.pairs.options.PROTOCOLS`, ``SelectionOptions.protocol``) draw P of them:

- ``fbagent`` (the default): verbs grouped by lemma, candidates pass
  eligibility filters, then a seeded sample stratified by verb (one pair per
  verb before any verb gets a second), optionally screened by an LLM;
- ``framebench``: the authors' rules exactly (:mod:`fbagent.pairs.framebench`:
  LUs with an annotated sentence, grouped by LU name, one seeded shuffle of all
  pairs, the first P; no filter, no stratification, no screening).

The fbagent protocol's steps:

The steps are pure functions over plain data, so they can run as separate
LangGraph nodes (:mod:`fbagent.agents`) or be called directly:

1. :func:`candidates` ``(verb_lus) -> list[Candidate]``
2. :func:`filter_candidates` ``(cands, frames, verb_lus, relations, options) -> (eligible, excluded_by_reason)``
3. :func:`sample_pairs` ``(eligible, pairs=, seed=, max_per_verb=) -> Sample``
4. :func:`table1` ``(pairs) -> {"frame_pairs", "unique_lus", "unique_lu_names", "unique_verbs"}``

:func:`draw_selection` runs either protocol over the store's facts without
storing; :func:`select_pairs`, the one public entry that stores a selection,
reuses a stored one with the same lexicon and options (that no run took) or
stores the draw (``selections`` + ``frame_pairs``: the sample as ``selected``,
the rest of the pool in seeded order as ``reserve``).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.pairs import framebench, shared
from fbagent.pairs.options import SelectionOptions
from fbagent.store import pairs as store
from fbagent.store.rows import AnnotatedVerbLU, FrameFacts, LexiconRow, VerbLU

REASONS = ("missing_definition", "missing_core_fe", "too_few_examples", "directly_related")
REASON_TEXT = {
    "missing_definition": "a frame has an empty definition",
    "missing_core_fe": "a frame has no core FE",
    "too_few_examples": "a frame has fewer examples than --min-examples",
    "directly_related": "frames directly related (Inheritance/Subframe/Perspective_on)",
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


def candidates(verb_lus: Iterable[VerbLU]) -> list[Candidate]:
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


#: a frame the lexicon does not hold: no definition, no core FE, no example
_NO_FACTS = FrameFacts(name="", has_definition=False, n_core_fes=0, n_examples=0)


def filter_candidates(
    cands: Iterable[Candidate],
    frames: Mapping[str, FrameFacts],
    verb_lus: Iterable[VerbLU],
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
    options = options.applied()
    exemplars: Counter[tuple[str, str]] = Counter()
    for row in verb_lus:
        exemplars[(row["lemma"], row["frame"])] += int(row.get("n_exemplars") or 0)
    related = {
        frozenset((sup, sub)) for rtype, sup, sub in relations if rtype in options.related_types and sup != sub
    }
    excluded = dict.fromkeys(REASONS, 0)
    eligible = []
    for c in cands:
        fa, fb = frames.get(c.frame_a, _NO_FACTS), frames.get(c.frame_b, _NO_FACTS)
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
    """Counts as in FrameBench Table 1: ``frame_pairs``, ``unique_lus``, ``unique_lu_names`` and ``unique_verbs``.

    Two conventions for "unique LUs": ``unique_lus`` counts distinct (LU name, frame), an LU being
    frame-specific in FrameNet (leave.v in Departing and leave.v in Quitting are two LUs);
    ``unique_lu_names`` counts distinct LU names (leave.v once), the count of the paper's Table 1
    (800 pairs over 430 unique LUs: the authors group LUs by name). ``unique_verbs``: distinct
    ``verb`` values (the grouping lemma, or under ``framebench`` the name before its first dot).
    """
    rows = [p.as_dict() if isinstance(p, Candidate) else p for p in pairs]
    lus = {(r["lu_a"], r["frame_a"]) for r in rows} | {(r["lu_b"], r["frame_b"]) for r in rows}
    names = {r["lu_a"] for r in rows} | {r["lu_b"] for r in rows}
    return {"frame_pairs": len(rows), "unique_lus": len(lus), "unique_lu_names": len(names),
            "unique_verbs": len({r["verb"] for r in rows})}


def check_pool(lexicon: LexiconRow, n_verb_lus: int, n_candidates: int, n_eligible: int,
               excluded: Mapping[str, int]) -> None:
    """Raise :class:`FbagentError` when a lexicon offers no frame pair to select (no verb lexical unit,
    no verb evoking two or more frames, or every candidate pair excluded), before anything is stored."""
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
                           relax_fix(excluded))


#: the option that turns off each eligibility filter (:data:`REASONS`)
RELAX_FLAG = {"missing_definition": "--no-require-definition", "missing_core_fe": "--no-require-core-fe",
              "too_few_examples": "--min-examples 0", "directly_related": "--no-exclude-related"}


def relax_fix(excluded: Mapping[str, int]) -> str:
    """The fix of "every candidate pair is excluded": the options that turn off the filters that excluded pairs
    (``excluded``: reason -> count, :data:`REASONS`), in that order; when frames lack definitions (a layout that
    names Berkeley frames without their text, imported before a Berkeley FrameNet) it first says how to give
    them their text (``lexicon add ... --frames-from``), since a benchmark needs the frames' definitions."""
    flags = ", ".join(RELAX_FLAG[r] for r in REASONS if excluded.get(r))
    text = f"relax the filters that excluded them ({flags or 'see fbagent pairs select --help'})"
    if excluded.get("missing_definition"):
        return ("give the frames their definitions: import a Berkeley FrameNet (fbagent lexicon add framenet_v17 "
                "--lang en) and add this lexicon again with --frames-from NAME; or " + text)
    return text


def check_selectable(db: sqlite_utils.Database, lexicon: LexiconRow, options: SelectionOptions) -> None:
    """Raise :class:`FbagentError` (:func:`check_pool`) when a new selection of ``lexicon`` under
    ``options`` would hold no pair; reads only (``generate`` calls it before it stores a run)."""
    draw_selection(db, lexicon, options)


@dataclass
class Drawn:
    """A selection drawn, not stored: ``selected`` and ``reserve`` pair dicts (``verb``, ``lu_a``, ``lu_b``,
    ``frame_a``, ``frame_b``) in rank order, and the ``counts`` stored with it."""

    selected: list[dict[str, str]]
    reserve: list[dict[str, str]]
    counts: dict[str, Any]


def draw_selection(db: sqlite_utils.Database, lexicon: LexiconRow, options: SelectionOptions) -> Drawn:
    """Draw a selection of ``lexicon`` (a ``lexicons`` row) under ``options`` from the store's facts,
    by ``options.protocol``; stores nothing.

    ``counts`` (both protocols): ``protocol``, ``candidates``, ``eligible``, ``excluded`` (by reason),
    ``requested``, ``selected``, ``reserve``, ``took_all``, ``relations_available`` and the
    :func:`table1` numbers; ``fbagent`` adds ``excluded_by_max_per_verb``; ``framebench`` adds
    ``verb_lus``, ``unannotated_lus``, ``lu_names`` and ``polysemous_lus`` (its steps).

    Raises:
        FbagentError: bad options, or a lexicon that offers no pair (:func:`check_pool`).
    """
    options.check()
    relations = store.frame_relations(db, lexicon["id"])
    common = shared.shared_pairs(db, lexicon, options.shared_with) if options.shared_with else None
    if common is not None and not common.pairs:
        each = ", ".join(f"{n}: {k:,}" for n, k in common.per_lexicon.items())
        raise FbagentError(f"no frame pair of lexicon {lexicon['name']} is a polysemous-verb pair in all of "
                           f"{', '.join(options.shared_with)} (of its {common.n_base:,} pairs, shared with each: {each})",
                           "name fewer lexicons in --shared-with, or check that they name the same (Berkeley) frames")
    keep = None if common is None else common.pairs
    if options.protocol == "framebench":
        drawn = _draw_framebench(store.annotated_verb_lexical_units(db, lexicon["id"]), lexicon, options, keep)
    else:
        drawn = _draw_fbagent(db, lexicon, options, relations, keep)
    drawn.counts.update({"protocol": options.protocol, "requested": options.pairs, "selected": len(drawn.selected),
                         "reserve": len(drawn.reserve), "relations_available": len(relations),
                         **table1(drawn.selected), **_shared_counts(common)})
    return drawn


def _shared_counts(common: shared.Shared | None) -> dict[str, Any]:
    """The counts of ``--shared-with`` (none without it): ``shared_with`` (names), ``lexicon_frame_pairs`` (the
    lexicon's polysemous-verb frame pairs), ``shared_frame_pairs`` (those shared with every named lexicon),
    ``shared_per_lexicon`` and ``shared_by_id`` (whether frame IDs matched the frames, per lexicon)."""
    if common is None:
        return {}
    return {"shared_with": [o.name for o in common.others], "lexicon_frame_pairs": common.n_base,
            "shared_frame_pairs": len(common.pairs), "shared_per_lexicon": common.per_lexicon,
            "shared_by_id": common.by_id}


def _draw_fbagent(db: sqlite_utils.Database, lexicon: LexiconRow, options: SelectionOptions,
                  relations: list[tuple[str, str, str]], keep: set[frozenset[str]] | None = None) -> Drawn:
    """The ``fbagent`` protocol: candidates by lemma (only frame pairs in ``keep``, when given: ``--shared-with``),
    eligibility filters, verb-stratified sample."""
    verb_lus = store.verb_lexical_units(db, lexicon["id"])
    cands = candidates(verb_lus)
    if keep is not None:
        cands = [c for c in cands if frozenset((c.frame_a, c.frame_b)) in keep]
    eligible, excluded = filter_candidates(cands, store.frame_facts(db, lexicon["id"]), verb_lus, relations, options)
    check_pool(lexicon, len(verb_lus), len(cands), len(eligible), excluded)
    sample = sample_pairs(eligible, pairs=options.pairs, seed=options.seed, max_per_verb=options.max_per_verb)
    counts = {"candidates": len(cands), "excluded": excluded, "eligible": len(eligible),
              "excluded_by_max_per_verb": sample.excluded_by_cap, "took_all": sample.took_all}
    return Drawn([c.as_dict() for c in sample.selected], [c.as_dict() for c in sample.reserve], counts)


def _draw_framebench(verb_lus: list[AnnotatedVerbLU], lexicon: LexiconRow, options: SelectionOptions,
                     keep: set[frozenset[str]] | None = None) -> Drawn:
    """The ``framebench`` protocol (:mod:`fbagent.pairs.framebench`); only frame pairs in ``keep`` when given."""
    pool = framebench.pool(verb_lus)
    if keep is not None:
        pool = replace(pool, pairs=[p for p in pool.pairs if frozenset((p["frame_a"], p["frame_b"])) in keep])
    if pool.verb_lus and pool.unannotated == pool.verb_lus:
        raise FbagentError(f"lexicon {lexicon.get('name', '?')}: none of its {pool.verb_lus:,} verb lexical units has an "
                           "annotated sentence, and --protocol framebench keeps only those (the authors' rule)",
                           "use --protocol fbagent, or a lexicon with annotation counts (sentenceCount annotated)")
    check_pool(lexicon, pool.verb_lus, len(pool.pairs), len(pool.pairs), {})
    selected, rest, took_all = framebench.take(pool.pairs, options.pairs, options.seed)
    counts = {"candidates": len(pool.pairs), "excluded": {}, "eligible": len(pool.pairs), "took_all": took_all,
              "verb_lus": pool.verb_lus, "unannotated_lus": pool.unannotated, "lu_names": pool.lu_names,
              "polysemous_lus": pool.polysemous}
    return Drawn(selected, rest, counts)


def reusable_selection(db: sqlite_utils.Database, lexicon: LexiconRow, options: SelectionOptions) -> int | None:
    """The newest stored selection of ``lexicon`` made under the same options (protocol, seed, every
    option recorded) that no run uses (a run's screening changes its selection), or ``None``."""
    wanted = options.to_json()
    used = store.selection_runs(db, lexicon["id"])
    same = [s["id"] for s in store.list_selections(db, lexicon["id"])
            if s["id"] not in used and SelectionOptions.from_json(s["options"]).to_json() == wanted]
    return same[-1] if same else None


def select_pairs(db: sqlite_utils.Database, lexicon: LexiconRow, options: SelectionOptions, *,
                 reuse: bool = True) -> dict[str, Any]:
    """Select frame pairs for one lexicon by ``options.protocol`` and store them: the one public entry.

    Args:
        db: open database.
        lexicon: a ``lexicons`` row (e.g. from :func:`fbagent.lexicon.importer.resolve_lexicon`).
        options: see :class:`SelectionOptions`.
        reuse: when a stored selection has the same lexicon and options and no run uses it
            (:func:`reusable_selection`), return it instead of storing the same draw again.

    Returns:
        ``{"selection_id", "lexicon", "protocol", "options", "counts", "pairs": [selected pair dicts
        with id and rank], "reserve": n, "reused": bool}`` (``counts``: :func:`draw_selection`).

    Raises:
        FbagentError: bad options (P < 1, M < 1, K < 1, N < 0, unknown protocol) or no pair to select.
    """
    options.check()
    found = reusable_selection(db, lexicon, options) if reuse else None
    reused = found is not None
    if found is not None:
        stored = store.get_selection(db, found)
        counts = stored["counts"]
        reserve = len(store.selection_pairs(db, found, "reserve"))
    else:
        drawn = draw_selection(db, lexicon, options)
        counts, reserve = drawn.counts, len(drawn.reserve)
        found = store.save_selection(db, lexicon_id=lexicon["id"], seed=options.seed, options=options.to_json(),
                                     counts=counts, selected=drawn.selected, reserve=drawn.reserve,
                                     per_pair=options.per_pair, protocol=options.protocol)
    return {"selection_id": found, "lexicon": lexicon["name"], "protocol": options.protocol,
            "options": options.to_json(), "counts": counts, "pairs": store.selection_pairs(db, found),
            "reserve": reserve, "reused": reused}
