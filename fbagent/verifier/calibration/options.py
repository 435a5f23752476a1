"""Options of ``fbagent verifier calibrate`` (:class:`CalibrateOptions`) and their checks."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from fbagent.errors import FbagentError
from fbagent.verifier.encoder_check import DEFAULT_MAX_REFERENCES

#: held-out exemplars per (frame, verb): the four sentences of one pseudo-entry (2 per frame)
HOLDOUT = 2


@dataclass
class CalibrateOptions:
    """Every option of ``fbagent verifier calibrate`` (``--help`` has units and defaults).

    ``lexicons``: lexicon names (empty: the default lexicon, as ``generate`` picks it); ``selection``:
    a stored frame-pair selection id (its selected pairs), else a seeded sample of ``pairs`` pairs
    (``seed``); ``signal``: roundtrip | encoder | both; ``min_exemplars``: each frame needs at least
    this many exemplars of the verb with a target span (:data:`HOLDOUT` are held out, the rest are
    the encoder check's references, at most ``max_references``; a frame left with none is compared
    by its definition); ``margin``: the margin at which
    precision and recall are reported. The model options are those of ``fbagent generate``
    (:class:`fbagent.generation.GenerateOptions`); ``timeout_s`` and ``backoff_s`` are seconds.
    """

    lexicons: list[str] = field(default_factory=list)
    selection: int | None = None
    pairs: int = 200
    seed: int = 0
    signal: str = "roundtrip"
    min_exemplars: int = HOLDOUT + 1
    max_references: int = DEFAULT_MAX_REFERENCES
    margin: float = 0.0
    n_boot: int = 1000
    generator: str = "local"
    model: str | None = None
    base_url: str | None = None
    model_path: str | None = None
    verifier_generator: str | None = None
    verifier_model: str | None = None
    verifier_base_url: str | None = None
    encoder: str | None = None
    concurrency: int = 4
    llm_retries: int = 3
    timeout_s: float = 60.0
    backoff_s: float = 1.0
    surface_verb_match: bool = False  # a ja lexicon without fugashi: accept the surface verb match (stored)

    @property
    def uses_llm(self) -> bool:
        """Whether the signal needs the verifier LLM (roundtrip, both)."""
        return self.signal != "encoder"

    def signals(self) -> list[str]:
        """The signals whose metrics a calibration reports: the requested one first (``both`` adds its parts)."""
        return ["both", "roundtrip", "encoder"] if self.signal == "both" else [self.signal]

    def generate_options(self) -> Any:
        """The :class:`fbagent.generation.GenerateOptions` that start the same clients and encoder as
        ``fbagent generate`` with these model options (:func:`fbagent.generation.backends.start_backends`)."""
        from fbagent.generation import GenerateOptions

        return GenerateOptions(
            generator=self.generator, model=self.model, base_url=self.base_url, model_path=self.model_path,
            verifier_generator=self.verifier_generator, verifier_model=self.verifier_model,
            verifier_base_url=self.verifier_base_url, encoder=self.encoder, concurrency=self.concurrency,
            llm_retries=self.llm_retries, timeout_s=self.timeout_s, backoff_s=self.backoff_s, margin=self.margin,
        )

    def to_json(self) -> dict[str, Any]:
        """The options as stored with the calibration (no secrets: base URLs are stored without userinfo)."""
        from fbagent.providers.redact import stored_base_url

        out = asdict(self)
        out["base_url"] = stored_base_url(self.base_url)
        out["verifier_base_url"] = stored_base_url(self.verifier_base_url)
        out["holdout"] = HOLDOUT
        return out


def validate_calibrate_options(opts: CalibrateOptions) -> None:
    """Raise :class:`FbagentError` (one line, with the fix) for the first impossible option value."""
    from fbagent.limits import check_count
    from fbagent.providers import check_base_url
    from fbagent.verifier.verify import SIGNALS

    check_base_url(opts.base_url)
    check_base_url(opts.verifier_base_url)

    if opts.signal not in SIGNALS:
        raise FbagentError(f"unknown verifier signal {opts.signal!r}", f"pass --signal {' | '.join(SIGNALS)}")
    if opts.selection is None:
        check_count("--pairs", opts.pairs)
    if opts.min_exemplars < HOLDOUT:
        raise FbagentError(f"--min-exemplars must be at least {HOLDOUT} (the exemplars held out per frame), got "
                           f"{opts.min_exemplars}", f"pass --min-exemplars {HOLDOUT + 1} (or {HOLDOUT}: the encoder "
                           "check then compares with the frame definition where no exemplar is left)")
    check_count("--min-exemplars", opts.min_exemplars)
    check_count("--max-references", opts.max_references)
    if not -2.0 <= opts.margin < 2.0:
        raise FbagentError(f"--margin must be in [-2, 2) (a cosine difference), got {opts.margin}",
                           "pass a value such as 0.0")
    check_count("--concurrency", opts.concurrency)
    check_count("--llm-retries", opts.llm_retries)
    if not opts.timeout_s > 0 or opts.timeout_s == float("inf"):
        raise FbagentError(f"--timeout must be a positive number of seconds, got {opts.timeout_s}",
                           "pass --timeout 60 (seconds per LLM request)")
    check_count("--n-boot", opts.n_boot)
    if len(set(opts.lexicons)) < len(opts.lexicons):
        raise FbagentError("a lexicon is given twice", "pass each --lexicon once")
