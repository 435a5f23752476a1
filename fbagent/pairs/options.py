"""The options of a frame-pair selection (:class:`SelectionOptions`) and the constants the commands'
``--help`` texts read (protocols, ``--pairs`` per command).

Light on purpose (no numpy, no store): ``fbagent generate --help`` and ``fbagent verifier --help`` read it;
:mod:`fbagent.pairs.select` selects and stores under these options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from fbagent.errors import FbagentError
from fbagent.limits import check_count
from fbagent.seeds import DEFAULT_SEED, check_seed

RELATED_TYPES = ("Inheritance", "Subframe", "Perspective_on")
#: Selection protocols: fbagent's own (stratified by verb, filtered) and the FrameBench authors' (their code).
PROTOCOLS = ("fbagent", "framebench")
PROTOCOL_TEXT = {
    "fbagent": "fbagent: verbs by lemma, eligibility filters, seeded sample stratified by verb",
    "framebench": "framebench: the authors' rules (annotated LUs by name, all frame 2-combinations, "
                  "one seeded shuffle, first P)",
}
#: the largest seed of ``--protocol framebench``: its shuffle is numpy's ``RandomState`` (as pandas' ``sample``
#: in the authors' code), which takes 0 .. 2**32 - 1
FRAMEBENCH_MAX_SEED = 2**32 - 1

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


@dataclass(frozen=True)
class SelectionOptions:
    """Options of one selection; every one is recorded with it (``selections.options``).

    ``pairs``: sample size P; ``seed``: RNG seed; ``max_per_verb``: at most M
    pairs per verb in the sample (``None``: no cap); ``per_pair``: entries to
    generate per pair (K); ``min_examples``: each frame needs at least N
    examples (frame ``<ex>`` + the verb's exemplars in that frame);
    ``require_definition`` / ``require_core_fe`` / ``exclude_related``:
    eligibility filters; ``related_types``: relation types that count as direct;
    ``protocol``: ``fbagent`` or ``framebench`` (:data:`PROTOCOLS`); ``shared_with``: names of other
    lexicons (languages) in which a pair must also be a polysemous-verb pair (:mod:`fbagent.pairs.shared`;
    ``()``: no such condition). Under ``framebench`` no
    eligibility filter applies: :meth:`applied` (what is selected and stored) has the filter switches
    off, whatever was asked; the fields keep what was asked (a generation run's name hashes it).
    """

    pairs: int = SELECT_PAIRS
    seed: int = DEFAULT_SEED
    max_per_verb: int | None = None
    per_pair: int = 1
    min_examples: int = 0
    require_definition: bool = True
    require_core_fe: bool = True
    exclude_related: bool = True
    related_types: tuple[str, ...] = RELATED_TYPES
    protocol: str = "fbagent"
    shared_with: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.shared_with, tuple):   # "ko,lv" or None from the command line, a list from JSON
            given: Any = self.shared_with or ""
            items = given.split(",") if isinstance(given, str) else list(given)
            if isinstance(self.shared_with, str) and not any(p.strip() for p in items):
                raise FbagentError(f"--shared-with {self.shared_with!r} names no lexicon",
                                   "pass lexicon names or ids separated by commas (fbagent lexicon list shows them), "
                                   "or leave the option out")
            object.__setattr__(self, "shared_with", distinct_names(items))

    def applied(self) -> SelectionOptions:
        """The options the protocol applies: under ``framebench`` the filter switches off (the authors apply
        no filter, module doc), else these options."""
        if self.protocol != "framebench":
            return self
        return replace(self, require_definition=False, require_core_fe=False, exclude_related=False)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of :meth:`applied` (``related_types`` as a list): what a selection stores."""
        d = asdict(self.applied())
        d["related_types"] = list(self.related_types)
        if self.shared_with:
            d["shared_with"] = list(self.shared_with)
        else:
            del d["shared_with"]   # selections without it store what they always stored
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
        check_seed(self.seed)
        if self.protocol not in PROTOCOLS:
            raise FbagentError(f"unknown pair-selection protocol {self.protocol!r}",
                               f"pass --protocol {' or '.join(PROTOCOLS)}")
        if self.protocol == "framebench":
            _check_framebench(self)
        check_count("--pairs", self.pairs)
        check_count("--max-per-verb", self.max_per_verb)
        check_count("--per-pair", self.per_pair)
        check_count("--min-examples", self.min_examples)


def _check_framebench(options: SelectionOptions) -> None:
    """Refuse what the authors' protocol cannot honour: a seed numpy's ``RandomState`` does not take, a
    cap per verb or a minimum of examples (the authors apply neither)."""
    if options.seed > FRAMEBENCH_MAX_SEED:
        raise FbagentError(f"--seed {options.seed} is too large for --protocol framebench (its shuffle is "
                           f"numpy's RandomState, as pandas' sample)", f"pass a seed from 0 to {FRAMEBENCH_MAX_SEED}")
    for flag, value in (("--max-per-verb", options.max_per_verb), ("--min-examples", options.min_examples or None)):
        if value is not None:
            raise FbagentError(f"{flag} is not part of --protocol framebench (the authors apply no filter and no cap)",
                               f"drop {flag}, or use --protocol fbagent")


def distinct_names(items: list[str]) -> tuple[str, ...]:
    """The lexicon names of ``--shared-with`` (``["ko", " lv"]`` -> ``("ko", "lv")``, blanks dropped, order kept).
    Raises :class:`FbagentError` when a name comes twice (``lv,lv``), the fix naming each once (issue 40)."""
    names = [p.strip() for p in items if p.strip()]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise FbagentError(f"--shared-with {','.join(names)!r} names {', '.join(twice)} more than once",
                           f"name each lexicon once: --shared-with {','.join(dict.fromkeys(names))}")
    return tuple(names)
