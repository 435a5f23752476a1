"""The model/backend options of the `fbagent eval` commands, declared once.

:func:`backend_options` adds them to a Typer command and hands the command one
``backend: BackendOptions`` (built by
:func:`fbagent.eval.backends.factory.backend_options`), as sqlite-utils'
``insert_upsert_options`` decorator does for click. Only typer is imported at
module level so that ``fbagent --help`` stays fast.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

BACKEND_NAMES = "vllm | transformers | local | openai | gemini"

# name -> (annotation, default); the order is the order in --help
_OPTIONS: dict[str, tuple[Any, Any]] = {
    "backend": (Annotated[str, typer.Option(
        "--backend", "-b", help=f"{BACKEND_NAMES} (local = llama.cpp in process; alias llamacpp).")], ...),
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
        "are flagged budget_exhausted.")], 1024),
    "base_url": (Annotated[str | None, typer.Option(
        "--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1 "
        "(default: env OPENAI_BASE_URL for openai).")], None),
    "llm_retries": (Annotated[int, typer.Option(
        "--llm-retries", min=0, help="openai, gemini: retries per request on 408/429/5xx, timeouts and "
        "connection errors (exponential backoff from 1 s; Retry-After honoured).")], 4),
    # The spelling before --llm-retries (the name `generate` and `verifier calibrate` give the same
    # meaning; `generate --max-retries` counts self-check regenerations): kept, hidden, so that old
    # command lines still run.
    "max_retries_alias": (Annotated[int | None, typer.Option(
        "--max-retries", min=0, hidden=True, help="Old spelling of --llm-retries.")], None),
    "timeout": (Annotated[float, typer.Option(
        "--timeout", min=0.1, help="openai, gemini: seconds per request.")], 120.0),
    "model_path": (Annotated[Path | None, typer.Option("--model-path", help="GGUF file for --backend local.")], None),
    "tensor_parallel_size": (Annotated[int, typer.Option(
        "--tensor-parallel-size", min=1, help="vLLM: GPUs for tensor parallelism.")], 1),
    "gpu_memory_utilization": (Annotated[float, typer.Option(
        "--gpu-memory-utilization", min=0.05, max=1.0, help="vLLM: fraction of GPU memory to use.")], 0.9),
    "max_model_len": (Annotated[int | None, typer.Option(
        "--max-model-len", min=16, help="vLLM: maximum model length in tokens.")], None),
    "n_ctx": (Annotated[int, typer.Option("--n-ctx", min=256, help="llama.cpp: context window in tokens.")], 4096),
    "device": (Annotated[str, typer.Option("--device", help="transformers: torch device (cpu, cuda, cuda:1).")], "cpu"),
    "chat": (Annotated[bool | None, typer.Option(
        "--chat/--no-chat", help="Wrap prompts in the model's chat template (default: transformers/vllm when "
        "the tokenizer has one; local no).")], None),
    "extra_body": (Annotated[str | None, typer.Option(
        "--extra-body", help="openai: JSON object of extra request fields.")], None),
}


def backend_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: add every option of :data:`_OPTIONS` to ``command``'s CLI signature.

    ``--llm-retries`` (old spelling ``--max-retries``, hidden) becomes ``BackendOptions.max_retries``.
    ``command`` declares a parameter ``backend`` (default ``None``; it receives
    the built ``BackendOptions``) and a ``seed`` option (shared with the backend). Raises
    :class:`fbagent.errors.FbagentError` at call time for bad values
    (unknown backend, ``--extra-body`` that is not a JSON object).
    """
    signature = inspect.signature(command)
    own = [p.replace(annotation=_evaluated(p.annotation, command)) for p in signature.parameters.values()
           if p.name != "backend"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=ann,
                               default=inspect.Parameter.empty if default is ... else default)
             for name, (ann, default) in _OPTIONS.items()]
    required = [p for p in added if p.default is inspect.Parameter.empty]
    optional = [p for p in added if p.default is not inspect.Parameter.empty]
    params = ([p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own if p.default is inspect.Parameter.empty]
              + required + [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own
                            if p.default is not inspect.Parameter.empty] + optional)

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        from fbagent.eval.backends.factory import backend_options as build

        values = {name: kwargs.pop(name) for name in _OPTIONS}
        alias = values.pop("max_retries_alias")
        llm_retries = values.pop("llm_retries")
        values["max_retries"] = llm_retries if alias is None else alias
        if values["model_path"] is not None:
            values["model_path"] = str(values["model_path"])
        return command(**kwargs, backend=build(**values, seed=kwargs["seed"]))

    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper


def _evaluated(annotation: Any, command: Callable[..., Any]) -> Any:
    """A string annotation (``from __future__ import annotations``) evaluated in the command's module."""
    return eval(annotation, command.__globals__) if isinstance(annotation, str) else annotation  # noqa: S307
