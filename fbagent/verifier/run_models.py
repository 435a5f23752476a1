"""The models a generation or calibration run starts, declared once as one group: :class:`RunModels`
(the generator's :class:`~fbagent.providers.config.ModelConfig`, the verifier's model as asked
(:class:`VerifierModel`) and the sentence encoder). :class:`fbagent.generation.GenerateOptions`
(``fbagent generate``) and :class:`fbagent.verifier.calibration.CalibrateOptions` (``fbagent verifier
calibrate``) each hold one, and :func:`fbagent.verifier.startup.start_backends` starts the same clients
and encoder from it.

:meth:`RunModels.config` is the one place that gives the :class:`ModelConfig` of the generator or of
the verifier, and :func:`prompt_styles` the one place that decides the prompt style each of the two
models gets.

They live in the verifier's room because both run kinds verify: generation's entries end in the
verifier's ``verify`` node, and a calibration is that node on held-out exemplars.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from fbagent import providers
from fbagent.providers.config import (
    DEFAULT_PROMPT_STYLE,
    GENERATION,
    GENERATION_RETRIES,
    GENERATION_TIMEOUT_S,
    ModelConfig,
    check_request_limits,
)
from fbagent.providers.llamacpp import check_gguf_file
from fbagent.providers.prompt_style import (
    check_prompt_style,  # lazily: fbagent.llm loads its clients
    resolve_prompt_style,
)

ROLES = ("generator", "verifier")


def generator_config(**fields: Any) -> ModelConfig:
    """The generator's :class:`ModelConfig` of a run: ``fields`` over a run's defaults (prompt style
    :data:`~fbagent.providers.config.DEFAULT_PROMPT_STYLE` (``auto``, resolved per model), generation's
    retries and timeout). Raises ``TypeError`` for an unknown field."""
    return ModelConfig(**{"prompt_style": DEFAULT_PROMPT_STYLE, "retries": GENERATION_RETRIES,
                          "timeout_s": GENERATION_TIMEOUT_S, **fields})


@dataclass(frozen=True)
class VerifierModel:
    """The verifier's model as asked (``--verifier-generator``, ``--verifier-model``, ``--verifier-base-url``);
    each ``None``: not asked. Nothing asked: the verifier is the generator's client.

    Kept as asked, not as a resolved :class:`ModelConfig`: its defaults are the generator's (backend; URL
    for the same backend) and the run's options store and hash these three as given, so a run named
    before this group existed keeps its name (:meth:`RunModels.config` resolves them).
    """

    backend: str | None = None
    model: str | None = None
    base_url: str | None = None


@dataclass(frozen=True)
class RunModels:
    """The models of a run (the "Model" and "Verifier" option panels of ``generate`` and ``verifier calibrate``).

    ``generator``: the generator's :class:`ModelConfig` (backend, model, URL, GGUF, request limits:
    ``concurrency``, ``retries``, ``timeout_s``, ``backoff_s``; ``prompt_style``: ``auto`` | ``chat`` |
    ``fewshot``, both models', resolved per model by :func:`prompt_style_of`); the verifier shares its
    request limits and prompt style. ``verifier``: the verifier's backend, model and URL as asked
    (:class:`VerifierModel`). ``encoder``: sentence-transformers name or folder (``None``: the offline MiniLM).
    """

    generator: ModelConfig = field(default_factory=generator_config)
    verifier: VerifierModel = field(default_factory=VerifierModel)
    encoder: str | None = None

    @property
    def same_verifier(self) -> bool:
        """Whether the verifier is the generator's client (no other backend, model or URL asked for)."""
        gen, ver = self.generator, self.verifier
        return (ver.backend in (None, gen.backend) and ver.model in (None, gen.model)
                and ver.base_url in (None, gen.base_url))

    def config(self, role: str = "generator", prompt_style: str | None = None) -> ModelConfig:
        """The :class:`ModelConfig` of ``role`` (``generator`` | ``verifier``), for :func:`fbagent.llm.make_client`,
        with ``prompt_style`` (``None``: the run's, :attr:`generator`'s).

        The verifier: the generator's when :attr:`same_verifier`; else the generator's request limits with
        the verifier's backend (default: the generator's), model, URL (default: the generator's when the
        backend is the generator's) and the GGUF when it is ``local``. Raises ``ValueError`` for another role.
        """
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        config = self.generator if prompt_style is None else replace(self.generator, prompt_style=prompt_style)
        if role == "generator" or self.same_verifier:
            return config
        gen, ver = self.generator, self.verifier
        backend = ver.backend or gen.backend
        return replace(config, backend=backend, model=ver.model,
                       base_url=ver.base_url or (gen.base_url if backend == gen.backend else None),
                       base_urls=gen.base_urls if ver.base_url is None and backend == gen.backend else (),
                       model_path=gen.model_path if backend in ("local", "llamacpp") else None)

    def check_model_files(self, roles: tuple[str, ...] = ROLES) -> None:
        """Raise :class:`FbagentError` for a ``--model-path`` that is not a file when a role of ``roles`` runs on
        the local backend (the line its start-up would give, before any lexicon is read or stored)."""
        for role in roles:
            config = self.config(role)
            if config.backend in ("local", "llamacpp") and config.model_path:
                check_gguf_file(config.model_path)

    def check_ready(self, roles: tuple[str, ...] = ROLES) -> None:
        """Raise :class:`FbagentError` (the line the engine's start-up would give) when a role of ``roles`` runs on
        a backend whose Python package is not installed (the extra to install; found, not imported) or whose API
        key is not set (the variable to set; an ``openai`` backend with a server URL needs none): checked before
        any lexicon is read, any note printed or any database made. Call on :meth:`checked` models."""
        for role in roles:
            config = self.config(role)
            p = providers.provider(config.backend)
            providers.check_packages(p)
            providers.api_key(p, server_url=providers.base_url(p, config.base_url))

    def checked(self) -> RunModels:
        """These models with canonical backend names (aliases become the names of :mod:`fbagent.providers`:
        ``llamacpp`` -> ``local``, so that a stored run never depends on the spelling), as a new object;
        raises :class:`FbagentError` (one line, with the fix) for an unknown backend, an impossible base
        URL, request limit (:func:`fbagent.providers.config.check_request_limits`) or prompt style."""
        gen, ver = self.generator, self.verifier
        backend = _backend_name(gen.backend)
        ver_backend = None if ver.backend is None else _backend_name(ver.backend)
        # the flag, else the provider's environment variable (OPENAI_BASE_URL): checked before anything is stored
        providers.base_url(providers.provider(backend), gen.base_url)
        providers.base_url(providers.provider(ver_backend or backend), ver.base_url or gen.base_url)
        check_request_limits(gen.concurrency, gen.retries, gen.timeout_s)
        check_prompt_style(gen.prompt_style)
        return replace(self, generator=replace(gen, backend=backend), verifier=replace(ver, backend=ver_backend))

    def flat(self) -> dict[str, Any]:
        """The models as the flat keys runs and calibrations have always stored: ``generator``, ``model``,
        ``base_url``, ``model_path``, ``verifier_generator``, ``verifier_model``, ``verifier_base_url``,
        ``encoder``, ``concurrency``, ``llm_retries``, ``timeout_s``, ``backoff_s``, ``prompt_style``
        (base URLs as given: redact them before storing)."""
        gen, ver = self.generator, self.verifier
        return {"generator": gen.backend, "model": gen.model, "base_url": gen.base_url, "model_path": gen.model_path,
                "verifier_generator": ver.backend, "verifier_model": ver.model, "verifier_base_url": ver.base_url,
                "encoder": self.encoder, "concurrency": gen.concurrency, "llm_retries": gen.retries,
                "timeout_s": gen.timeout_s, "backoff_s": gen.backoff_s, "prompt_style": gen.prompt_style}


def _backend_name(name: str) -> str:
    """The canonical name of generation backend ``name``; raises :class:`FbagentError` for an unknown one."""
    return providers.provider(name, among=providers.names_for(GENERATION), kind="LLM backend").name


def prompt_style_of(models: RunModels, role: str) -> str:
    """The prompt style (``chat`` | ``fewshot``) the model of ``role`` (``generator`` | ``verifier``) gets:
    the run's prompt style resolved for that model's backend and GGUF
    (:func:`fbagent.providers.prompt_style.resolve_prompt_style`).

    Reads only a local GGUF's header. Raises :class:`FbagentError` for an unreadable GGUF and
    ``ValueError`` for another role.
    """
    config = models.config(role)
    return resolve_prompt_style(models.generator.prompt_style, config.backend, config.model_path)


def prompt_styles(models: RunModels) -> tuple[str, str]:
    """``(generator style, verifier style)``: :func:`prompt_style_of` each model. The verifier has the
    generator's style when it is the same client (no other backend, model or URL asked for).

    Reads only a local GGUF's header. Raises :class:`FbagentError` for an unreadable GGUF.
    """
    generator = prompt_style_of(models, "generator")
    return (generator, generator) if models.same_verifier else (generator, prompt_style_of(models, "verifier"))
