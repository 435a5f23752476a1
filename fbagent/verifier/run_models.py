"""The models a generation or calibration run starts and how it reaches them, declared once:
:class:`ModelOptions`, the base of :class:`fbagent.generation.GenerateOptions` (``fbagent generate``)
and :class:`fbagent.verifier.calibration.CalibrateOptions` (``fbagent verifier calibrate``), which
start the same clients and encoder (:func:`fbagent.verifier.startup.start_backends`).

:meth:`ModelOptions.model_config` is the one place that turns these flat fields into the
:class:`~fbagent.providers.config.ModelConfig` of the generator or of the verifier, and
:func:`prompt_styles` the one place that decides the prompt style each of the two models gets.

They live in the verifier's room because both run kinds verify: generation's entries end in the
verifier's ``verify`` node, and a calibration is that node on held-out exemplars.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from fbagent import providers
from fbagent.providers.config import (
    DEFAULT_BACKEND,
    DEFAULT_BACKOFF_S,
    DEFAULT_CONCURRENCY,
    DEFAULT_PROMPT_STYLE,
    GENERATION,
    GENERATION_RETRIES,
    GENERATION_TIMEOUT_S,
    ModelConfig,
    check_request_limits,
)
from fbagent.verifier.margin import DEFAULT_MARGIN, check_margin

ROLES = ("generator", "verifier")


@dataclass(frozen=True)
class ModelOptions:
    """The generator LLM, the verifier LLM (by default the generator's client), the sentence encoder and
    the request limits of a run; and the two settings both run kinds read with them: the verifier's
    ``margin`` and the verb check's ``surface_verb_match``.

    ``generator`` / ``verifier_generator``: backend names (``openai`` | ``gemini`` | ``local``; alias
    ``llamacpp``); ``model`` / ``verifier_model``: model names (the backend's default when ``None``);
    ``base_url`` / ``verifier_base_url``: OpenAI-compatible server URLs (the verifier's defaults to
    ``base_url`` for the same backend); ``model_path``: GGUF file (``local``, both roles);
    ``encoder``: sentence-transformers name or folder (``None``: the offline MiniLM);
    ``concurrency``: LLM requests in flight at most; ``llm_retries``: per LLM call, re-asks on
    invalid output and retries on 429/5xx/timeouts; ``timeout_s``: seconds per request;
    ``backoff_s``: first retry backoff, seconds; ``prompt_style``: ``auto`` | ``chat`` | ``fewshot``
    (:mod:`fbagent.llm.prompt_style`); ``margin``: a sentence passes when sim_own - sim_other > margin
    (cosine difference, in :data:`fbagent.verifier.margin.MARGIN_RANGE`); ``surface_verb_match``: a Japanese lexicon without
    fugashi runs on the surface verb match instead of being refused
    (:func:`fbagent.checks.lemmas.require_verb_analyser`; the older spelling of ``verb_check="surface"``);
    ``verb_check``: ``auto`` | ``llm`` | ``surface``, which check vouches for the verb
    (:mod:`fbagent.checks.coverage`; :attr:`effective_verb_check` folds ``surface_verb_match`` in).
    """

    generator: str = DEFAULT_BACKEND
    model: str | None = None
    base_url: str | None = None
    model_path: str | None = None
    verifier_generator: str | None = None
    verifier_model: str | None = None
    verifier_base_url: str | None = None
    encoder: str | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    llm_retries: int = GENERATION_RETRIES
    timeout_s: float = GENERATION_TIMEOUT_S
    backoff_s: float = DEFAULT_BACKOFF_S      # tests use less
    prompt_style: str = DEFAULT_PROMPT_STYLE
    margin: float = DEFAULT_MARGIN
    surface_verb_match: bool = False
    verb_check: str = "auto"

    @property
    def effective_verb_check(self) -> str:
        """``verb_check``, with the older ``surface_verb_match`` flag read as ``surface``."""
        return "surface" if self.verb_check == "auto" and self.surface_verb_match else self.verb_check

    @property
    def same_verifier(self) -> bool:
        """Whether the verifier is the generator's client (no other backend, model or URL asked for)."""
        return (self.verifier_generator in (None, self.generator) and self.verifier_model in (None, self.model)
                and self.verifier_base_url in (None, self.base_url))

    def model_config(self, role: str = "generator", prompt_style: str | None = None) -> ModelConfig:
        """The :class:`~fbagent.providers.config.ModelConfig` of ``role`` (``generator`` | ``verifier``), for
        :func:`fbagent.llm.make_client`, with ``prompt_style`` (``None``: :attr:`prompt_style`).

        The verifier: the generator's backend, model and URL when :attr:`same_verifier`; else
        ``verifier_generator`` (default: the generator's), ``verifier_model``, ``verifier_base_url`` (default:
        ``base_url`` when the backend is the generator's) and ``model_path`` when it is ``local``. Raises
        ``ValueError`` for another role.
        """
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        config = ModelConfig(backend=self.generator, model=self.model, base_url=self.base_url,
                             model_path=self.model_path, concurrency=self.concurrency, retries=self.llm_retries,
                             timeout_s=self.timeout_s, backoff_s=self.backoff_s,
                             prompt_style=prompt_style or self.prompt_style)
        if role == "generator" or self.same_verifier:
            return config
        backend = self.verifier_generator or self.generator
        return replace(config, backend=backend, model=self.verifier_model,
                       base_url=self.verifier_base_url or (self.base_url if backend == self.generator else None),
                       model_path=self.model_path if backend == "local" else None)

    def check_model_files(self, roles: tuple[str, ...] = ROLES) -> None:
        """Raise :class:`FbagentError` for a ``--model-path`` that is not a file when a role of ``roles`` runs on
        the local backend (the line its start-up would give, before any lexicon is read or stored)."""
        from fbagent.providers.llamacpp import check_gguf_file

        for role in roles:
            config = self.model_config(role)
            if config.backend == "local" and config.model_path:
                check_gguf_file(config.model_path)

    def checked(self: _Options) -> _Options:
        """These options with canonical backend names (aliases become the names of :mod:`fbagent.providers`:
        ``llamacpp`` -> ``local``, so that a stored run never depends on the spelling), as a new object
        (options are never changed after parsing); raises :class:`FbagentError` (one line, with the fix)
        for an unknown backend, an impossible base URL, request limit
        (:func:`fbagent.providers.config.check_request_limits`), prompt style or margin."""
        generator = providers.provider(self.generator, among=providers.names_for(GENERATION), kind="LLM backend").name
        verifier_generator = self.verifier_generator
        if verifier_generator is not None:
            verifier_generator = providers.provider(verifier_generator, among=providers.names_for(GENERATION),
                                                    kind="LLM backend").name
        # the flag, else the provider's environment variable (OPENAI_BASE_URL): checked before anything is stored
        providers.base_url(providers.provider(generator), self.base_url)
        providers.base_url(providers.provider(verifier_generator or generator), self.verifier_base_url or self.base_url)
        self._check_values()
        return replace(self, generator=generator, verifier_generator=verifier_generator)

    def _check_values(self) -> None:
        from fbagent.llm.prompt_style import (
            check_prompt_style,  # lazily: fbagent.llm loads its clients
        )

        check_request_limits(self.concurrency, self.llm_retries, self.timeout_s)
        check_prompt_style(self.prompt_style)
        check_margin(self.margin)


_Options = TypeVar("_Options", bound=ModelOptions)


def prompt_style_of(opts: ModelOptions, role: str) -> str:
    """The prompt style (``chat`` | ``fewshot``) the model of ``role`` (``generator`` | ``verifier``) gets:
    ``opts.prompt_style`` resolved for that model's backend and GGUF
    (:func:`fbagent.llm.prompt_style.resolve_prompt_style`).

    Reads only a local GGUF's header. Raises :class:`FbagentError` for an unreadable GGUF and
    ``ValueError`` for another role.
    """
    from fbagent.llm.prompt_style import resolve_prompt_style

    config = opts.model_config(role)
    return resolve_prompt_style(opts.prompt_style, config.backend, config.model_path)


def prompt_styles(opts: ModelOptions) -> tuple[str, str]:
    """``(generator style, verifier style)``: :func:`prompt_style_of` each model. The verifier has the
    generator's style when it is the same client (no other backend, model or URL asked for).

    Reads only a local GGUF's header. Raises :class:`FbagentError` for an unreadable GGUF.
    """
    generator = prompt_style_of(opts, "generator")
    return (generator, generator) if opts.same_verifier else (generator, prompt_style_of(opts, "verifier"))
