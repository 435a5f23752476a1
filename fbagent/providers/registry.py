"""Create an evaluation backend from one :class:`~fbagent.providers.config.ModelConfig` (``--backend``
and its options; :func:`backend_options` builds it from the CLI's values).

Backend names and aliases come from :mod:`fbagent.providers` (``local`` =
``llamacpp``: llama.cpp in process); each backend's library is imported lazily.
"""

from __future__ import annotations

import json
from typing import Any

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.providers.base import Backend, end_think_tag_for
from fbagent.providers.config import (
    DEFAULT_DEVICE,
    DEFAULT_DTYPE,
    DEFAULT_GPU_MEMORY_UTILIZATION,
    DEFAULT_MAX_THINK_TOKENS,
    DEFAULT_N_CTX,
    DEFAULT_SEED,
    DEFAULT_TENSOR_PARALLEL_SIZE,
    DTYPES,
    EVAL_RETRIES,
    EVAL_TIMEOUT_S,
    EVALUATION,
    ModelConfig,
    ReasoningConfig,
    model_config,
)

BACKENDS = providers.EVAL_PROVIDERS


def BackendOptions(**fields: Any) -> ModelConfig:  # the old class name, kept for callers
    """Compatibility constructor: the :class:`~fbagent.providers.config.ModelConfig` that the
    ``BackendOptions`` settings type of earlier versions described, from the same keywords
    (``max_retries``: transport retries per request, ``timeout``: seconds per request; the new
    spellings ``retries`` / ``timeout_s`` work too), with evaluation's defaults for both
    (:data:`~fbagent.providers.config.EVAL_RETRIES`, :data:`~fbagent.providers.config.EVAL_TIMEOUT_S`).
    Nothing is checked; :func:`backend_options` builds one from the CLI's values with checks."""
    return model_config(EVALUATION, **fields)


def backend_options(*, backend: str, model: str | None = None, model_path: str | None = None,
                    base_url: str | None = None, reasoning: bool = False, end_think_tag: str | None = None,
                    max_think_tokens: int = DEFAULT_MAX_THINK_TOKENS, seed: int = DEFAULT_SEED,
                    tensor_parallel_size: int = DEFAULT_TENSOR_PARALLEL_SIZE,
                    gpu_memory_utilization: float = DEFAULT_GPU_MEMORY_UTILIZATION, max_model_len: int | None = None,
                    n_ctx: int = DEFAULT_N_CTX, device: str = DEFAULT_DEVICE, dtype: str = DEFAULT_DTYPE,
                    chat: bool | None = None,
                    max_retries: int = EVAL_RETRIES, timeout: float = EVAL_TIMEOUT_S,
                    extra_body: str | dict | None = None) -> ModelConfig:
    """Build the evaluation :class:`~fbagent.providers.config.ModelConfig` from the CLI's values
    (keyword-only; ``max_retries``: ``--llm-retries``, transport retries per request; ``timeout``:
    ``--timeout``, seconds per request), checking what can be checked early.

    ``backend`` may be an alias (``llamacpp``); ``extra_body`` a JSON object as
    text; the end-of-thinking tag defaults from the model profile table
    (:func:`fbagent.providers.base.end_think_tag_for`). Raises
    :class:`FbagentError` for an unknown backend or an ``extra_body`` that is
    not a JSON object. Nothing is loaded.
    """
    from fbagent.seeds import check_seed

    name = providers.provider(backend, among=BACKENDS, kind="backend").name
    check_seed(seed)
    if str(dtype).lower() not in DTYPES:
        raise FbagentError(f"--dtype {dtype!r} is not a dtype", f"pass --dtype {' | '.join(sorted(set(DTYPES.values())))}")
    extra = extra_body or {}
    if isinstance(extra, str):
        try:
            extra = json.loads(extra)
        except json.JSONDecodeError as err:
            raise FbagentError("--extra-body is not valid JSON", "pass a JSON object, e.g. '{\"top_k\": 1}'") from err
    if not isinstance(extra, dict):
        raise FbagentError("--extra-body must be a JSON object", "pass e.g. '{\"top_k\": 1}'")
    rcfg = ReasoningConfig(enabled=reasoning, end_think_tag=end_think_tag or end_think_tag_for(model or model_path or ""),
                           max_think_tokens=max_think_tokens)
    return ModelConfig(backend=name, model=model, model_path=model_path, base_url=base_url,
                       tensor_parallel_size=tensor_parallel_size, gpu_memory_utilization=gpu_memory_utilization,
                       max_model_len=max_model_len, n_ctx=n_ctx, device=device, dtype=dtype, chat=chat, seed=seed,
                       extra_body=extra, retries=max_retries, timeout_s=timeout, reasoning=rcfg)


def create_backend(opts: ModelConfig) -> Backend:
    """Instantiate the backend ``opts.backend`` (a name of :data:`BACKENDS` or an alias) from one
    :class:`~fbagent.providers.config.ModelConfig`; ``retries`` and ``timeout_s`` left ``None`` take
    evaluation's defaults (:meth:`~fbagent.providers.config.ModelConfig.resolved`).

    Raises :class:`FbagentError` for an unknown name, a missing model, a
    missing optional dependency or a missing API key.
    """
    opts = opts.resolved(EVALUATION)
    name = providers.provider(opts.backend, among=BACKENDS, kind="backend").name
    if name != "local" and not opts.model:
        raise FbagentError(f"the {name} backend needs a model", "pass --model NAME_OR_PATH")
    reasoning = opts.reasoning
    if name == "vllm":
        from fbagent.providers.vllm import VllmBackend

        return VllmBackend(opts.model, reasoning=reasoning, seed=opts.seed,
                           tensor_parallel_size=opts.tensor_parallel_size,
                           gpu_memory_utilization=opts.gpu_memory_utilization,
                           max_model_len=opts.max_model_len, chat=opts.chat)
    if name == "transformers":
        from fbagent.providers.transformers import TransformersBackend

        return TransformersBackend(opts.model, reasoning=reasoning, seed=opts.seed, chat=opts.chat,
                                   device=opts.device, dtype=opts.dtype)
    if name == "local":
        from fbagent.providers.local import LlamaCppBackend

        return LlamaCppBackend(opts.model, model_path=opts.model_path, reasoning=reasoning, seed=opts.seed,
                               n_ctx=opts.n_ctx, chat=bool(opts.chat))
    if name == "openai":
        from fbagent.providers.openai import OpenAIBackend

        return OpenAIBackend(opts.model, base_url=opts.base_url, reasoning=reasoning, seed=opts.seed,
                             extra_body=opts.extra_body, max_retries=opts.retries, timeout_s=opts.timeout_s)
    from fbagent.providers.gemini import GeminiBackend

    return GeminiBackend(opts.model, reasoning=reasoning, seed=opts.seed, base_url=opts.base_url,
                         retries=opts.retries + 1, timeout_s=opts.timeout_s)
