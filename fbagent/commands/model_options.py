"""The model/backend options of the `fbagent eval` commands, declared once.

:data:`backend_options` adds them to a Typer command (help panel "Model") and hands the
command one ``backend: ModelConfig`` (built by :func:`_build_backend`, the one place that
turns them into an object), as sqlite-utils' ``insert_upsert_options`` decorator does for
click (:func:`fbagent.commands.option_groups.option_group`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from fbagent.commands.option_groups import REQUIRED, option_group
from fbagent.providers.config import (
    DEFAULT_DEVICE,
    DEFAULT_DTYPE,
    DEFAULT_GPU_MEMORY_UTILIZATION,
    DEFAULT_MAX_THINK_TOKENS,
    DEFAULT_N_CTX,
    DEFAULT_TENSOR_PARALLEL_SIZE,
    EVAL_RETRIES,
    EVAL_TIMEOUT_S,
    ModelConfig,
)
from fbagent.providers.names import EVALUATION, help_names, names_for
from fbagent.providers.registry import backend_options as build

BACKEND_NAMES = help_names(names_for(EVALUATION))   # "vllm | transformers | local | openai | gemini"

# name -> (annotation, default); the order is the order in --help
_OPTIONS: dict[str, tuple[Any, Any]] = {
    "backend": (Annotated[str, typer.Option(
        "--backend", "-b", help=f"{BACKEND_NAMES} (local = llama.cpp in process; alias llamacpp).")], REQUIRED),
    "model": (Annotated[str | None, typer.Option(
        "--model", "-m", help="Model name (API), local folder (transformers, vllm) or .gguf file "
        "(local; default: the offline Gemma 3 270M GGUF).")], None),
    "reasoning": (Annotated[bool, typer.Option(
        "--reasoning/--no-reasoning",
        help="Think freely first (until the end-of-thinking tag or the budget), then answer.")], False),
    "end_think_tag": (Annotated[str | None, typer.Option(
        "--end-think-tag", help="End-of-thinking tag; default from the model profile table "
        "(</think>, \\[/THINK], ...).")], None),
    "max_think_tokens": (Annotated[int, typer.Option(
        "--max-think-tokens", min=1, help="Thinking budget in tokens (reasoning mode); answers that hit it "
        "are flagged budget_exhausted.")], DEFAULT_MAX_THINK_TOKENS),
    "base_url": (Annotated[str | None, typer.Option(
        "--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1 "
        "(default: env OPENAI_BASE_URL for openai).")], None),
    "llm_retries": (Annotated[int, typer.Option(
        "--llm-retries", min=0, help="openai, gemini: retries per request on 408/429/5xx, timeouts and "
        "connection errors (exponential backoff from 1 s; Retry-After honoured).")], EVAL_RETRIES),
    # The spelling before --llm-retries (the name `generate` and `verifier calibrate` give the same
    # meaning; `generate --max-retries` counts self-check regenerations): kept, hidden, so that old
    # command lines still run.
    "max_retries_alias": (Annotated[int | None, typer.Option(
        "--max-retries", min=0, hidden=True, help="Old spelling of --llm-retries.")], None),
    "timeout": (Annotated[float, typer.Option(
        "--timeout", min=0.1, help="openai, gemini: seconds per request.")], EVAL_TIMEOUT_S),
    "model_path": (Annotated[Path | None, typer.Option("--model-path", help="GGUF file for --backend local.")], None),
    "tensor_parallel_size": (Annotated[int, typer.Option(
        "--tensor-parallel-size", min=1, help="vLLM: GPUs for tensor parallelism.")], DEFAULT_TENSOR_PARALLEL_SIZE),
    "gpu_memory_utilization": (Annotated[float, typer.Option(
        "--gpu-memory-utilization", min=0.05, max=1.0, help="vLLM: fraction of GPU memory to use.")], DEFAULT_GPU_MEMORY_UTILIZATION),
    "max_model_len": (Annotated[int | None, typer.Option(
        "--max-model-len", min=16, help="vLLM: maximum model length in tokens.")], None),
    "n_ctx": (Annotated[int, typer.Option("--n-ctx", min=256, help="llama.cpp: context window in tokens.")], DEFAULT_N_CTX),
    "device": (Annotated[str, typer.Option(
        "--device", help="transformers: torch device (auto = cuda, then mps, then cpu; or cpu, cuda, cuda:1).")],
        DEFAULT_DEVICE),
    "dtype": (Annotated[str, typer.Option(
        "--dtype", help="transformers: weights' dtype (auto = bfloat16 on a GPU that has it, else the "
        "model's own; float32, bfloat16, float16).")], DEFAULT_DTYPE),
    "chat": (Annotated[bool | None, typer.Option(
        "--chat/--no-chat", help="Wrap prompts in the model's chat template (default: transformers/vllm when "
        "the tokenizer has one; local no).")], None),
    "extra_body": (Annotated[str | None, typer.Option(
        "--extra-body", help="openai: JSON object of extra request fields.")], None),
}


def _build_backend(values: dict[str, Any], others: dict[str, Any]) -> ModelConfig:
    """The :class:`~fbagent.providers.config.ModelConfig` of the parsed model options
    (:func:`fbagent.providers.registry.backend_options`).

    ``--llm-retries`` (old spelling ``--max-retries``, hidden) is the factory's ``max_retries``;
    the seed is the command's ``--seed``. Raises :class:`fbagent.errors.FbagentError` for bad values
    (unknown backend, ``--extra-body`` that is not a JSON object).
    """
    values = dict(values)
    alias = values.pop("max_retries_alias")
    llm_retries = values.pop("llm_retries")
    values["max_retries"] = llm_retries if alias is None else alias
    if values["model_path"] is not None:
        values["model_path"] = str(values["model_path"])
    return build(**values, seed=others["seed"])


#: Decorator: add every option of :data:`_OPTIONS` (panel "Model") to an eval command. The command
#: declares a parameter ``backend`` (default ``None``; it receives the built ``ModelConfig``) and
#: a ``seed`` option (shared with the backend).
backend_options = option_group("backend", "Model", _OPTIONS, _build_backend)
