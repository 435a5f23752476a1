"""Options of ``fbagent verifier calibrate`` (:class:`CalibrateOptions`) and their checks."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from fbagent.errors import FbagentError
from fbagent.limits import DEFAULT_N_BOOT, check_count
from fbagent.pairs.options import CALIBRATE_PAIRS
from fbagent.providers.redact import stored_base_url
from fbagent.seeds import DEFAULT_SEED
from fbagent.verifier.run_models import RunModels
from fbagent.verifier.settings import DEFAULT_MAX_REFERENCES, VerifierOptions

#: held-out exemplars per (frame, verb): the four sentences of one pseudo-entry (2 per frame)
HOLDOUT = 2


@dataclass(frozen=True)
class CalibrateOptions:
    """Every option of ``fbagent verifier calibrate`` (``--help`` has units and defaults).

    ``models`` and ``verifier``: the groups of ``fbagent generate``
    (:class:`fbagent.verifier.run_models.RunModels`, :class:`fbagent.verifier.settings.VerifierOptions`), so
    that :func:`fbagent.verifier.startup.start_backends` starts the verifier client and the encoder from them
    as ``generate`` does (only the verifier: a calibration never calls the generator), with the prompts of
    the verifier's prompt style; of the verifier group a calibration reads ``signal`` (roundtrip | encoder |
    both), ``margin`` (the margin at which precision and recall are reported) and the verb check.
    ``lexicons``: lexicon names (empty: the default lexicon, as ``generate`` picks it); ``selection``:
    a stored frame-pair selection id (its selected pairs), else a seeded sample of ``pairs`` pairs
    (``seed``); ``min_exemplars``: each frame needs at least
    this many exemplars of the verb with a target span (:data:`HOLDOUT` are held out, the rest are
    the encoder check's references, at most ``max_references``; a frame left with none is compared
    by its definition); ``n_boot``: bootstrap resamples of the 95% intervals.
    """

    models: RunModels = field(default_factory=RunModels)
    verifier: VerifierOptions = field(default_factory=VerifierOptions)
    lexicons: list[str] = field(default_factory=list)
    selection: int | None = None
    pairs: int = CALIBRATE_PAIRS
    seed: int = DEFAULT_SEED
    min_exemplars: int = HOLDOUT + 1
    max_references: int = DEFAULT_MAX_REFERENCES
    n_boot: int = DEFAULT_N_BOOT

    @property
    def uses_llm(self) -> bool:
        """Whether the signal needs the verifier LLM (roundtrip, both)."""
        return self.verifier.uses_llm

    def signals(self) -> list[str]:
        """The signals whose metrics a calibration reports: the requested one first (``both`` adds its parts)."""
        return ["both", "roundtrip", "encoder"] if self.verifier.signal == "both" else [self.verifier.signal]

    def to_json(self) -> dict[str, Any]:
        """The options as stored with the calibration, under the flat keys calibrations have always stored
        (no secrets: base URLs are stored without userinfo)."""
        ver = self.verifier
        out = {**self.models.flat(), "margin": ver.margin, "surface_verb_match": ver.surface_verb_match,
               "verb_check": ver.verb_check, "lexicons": list(self.lexicons), "selection": self.selection,
               "pairs": self.pairs, "seed": self.seed, "signal": ver.signal, "min_exemplars": self.min_exemplars,
               "max_references": self.max_references, "n_boot": self.n_boot}
        out["base_url"] = stored_base_url(out["base_url"])
        out["verifier_base_url"] = stored_base_url(out["verifier_base_url"])
        out["holdout"] = HOLDOUT
        return out


def validate_calibrate_options(opts: CalibrateOptions) -> CalibrateOptions:
    """``opts`` checked, with canonical backend names (a new object): raise :class:`FbagentError` (one
    line, with the fix) for the first impossible option value."""
    opts = replace(opts, models=opts.models.checked())   # backend names, base URLs, request limits, prompt style
    opts.verifier.check()   # margin, signal
    if opts.uses_llm:
        opts.models.check_model_files(("verifier",))   # a calibration starts only the verifier
        opts.models.check_ready(("verifier",))
    if opts.selection is None:
        check_count("--pairs", opts.pairs)
    if opts.min_exemplars < HOLDOUT:
        raise FbagentError(f"--min-exemplars must be at least {HOLDOUT} (the exemplars held out per frame), got "
                           f"{opts.min_exemplars}", f"pass --min-exemplars {HOLDOUT + 1} (or {HOLDOUT}: the encoder "
                           "check then compares with the frame definition where no exemplar is left)")
    check_count("--min-exemplars", opts.min_exemplars)
    check_count("--max-references", opts.max_references)
    check_count("--n-boot", opts.n_boot)
    if len(set(opts.lexicons)) < len(opts.lexicons):
        raise FbagentError("a lexicon is given twice", "pass each --lexicon once")
    return opts
