"""How the verifier judges a run's sentences, declared once: :class:`VerifierOptions` (the verifier
options of ``fbagent generate`` and ``fbagent verifier calibrate``: signal, margin, verb check, judge).

Imports only the standard library and fbagent's own light modules (margin rules, the verb check's names:
cheap, the CLI reads the defaults).
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.defaults import DEFAULT_VERB_CHECK
from fbagent.errors import FbagentError
from fbagent.verifier.margin import DEFAULT_MARGIN, check_margin

#: verifier signals: the LLM round trip, the exemplar-based encoder check, or both (:mod:`fbagent.verifier.verify`)
SIGNALS = ("roundtrip", "encoder", "both")
#: the verifier signal when none is given (``--signal``)
DEFAULT_SIGNAL = "roundtrip"
#: the precision ``--margin auto`` must reach when none is given
DEFAULT_TARGET_PRECISION = 0.9
#: at most this many reference exemplars per (frame, verb), a seeded sample (cost of the encoder check,
#: :mod:`fbagent.verifier.encoder_check`; ``verifier calibrate --max-references``)
DEFAULT_MAX_REFERENCES = 10


@dataclass(frozen=True)
class VerifierOptions:
    """The verifier's settings of a run.

    ``signal``: ``roundtrip`` | ``encoder`` | ``both`` (:mod:`fbagent.verifier.verify`); ``margin``: a
    sentence passes when sim_own - sim_other > margin (cosine difference, in
    :data:`fbagent.verifier.margin.MARGIN_RANGE`); ``verb_check``: ``auto`` | ``llm`` | ``surface``, which
    check vouches for the verb (:mod:`fbagent.checks.coverage`); ``surface_verb_match``: the older
    spelling of ``verb_check="surface"`` (:attr:`effective_verb_check` folds it in; kept apart because
    runs store it apart).

    ``generate`` only: ``judge``: the verifier also answers the four-choice question; ``margin_auto``
    (``--margin auto``): the margin comes from the lexicon's latest calibration, reaching
    ``target_precision``; ``margin_source``: which calibration gave it (set when the run resolves it;
    stored, not hashed).
    """

    signal: str = DEFAULT_SIGNAL
    margin: float = DEFAULT_MARGIN
    verb_check: str = DEFAULT_VERB_CHECK
    surface_verb_match: bool = False
    judge: bool = False
    margin_auto: bool = False
    target_precision: float = DEFAULT_TARGET_PRECISION
    margin_source: str | None = None

    @property
    def effective_verb_check(self) -> str:
        """``verb_check``, with the older ``surface_verb_match`` flag read as ``surface``."""
        return "surface" if self.verb_check == "auto" and self.surface_verb_match else self.verb_check

    @property
    def uses_llm(self) -> bool:
        """Whether the signal needs the verifier LLM (roundtrip, both)."""
        return self.signal != "encoder"

    def check(self) -> None:
        """Raise :class:`FbagentError` (one line, with the fix) for an unknown signal, a margin outside
        :data:`fbagent.verifier.margin.MARGIN_RANGE` or a target precision outside (0, 1]."""
        check_margin(self.margin)
        if self.signal not in SIGNALS:
            raise FbagentError(f"unknown verifier signal {self.signal!r}", f"pass --signal {' | '.join(SIGNALS)}")
        if not 0.0 < self.target_precision <= 1.0:
            raise FbagentError(f"--target-precision must be in (0, 1], got {self.target_precision}",
                               "pass a value such as 0.9")
