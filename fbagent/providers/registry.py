"""Build a provider from one :class:`~fbagent.providers.config.ModelConfig`, for generation and
evaluation alike (:func:`create_provider`); :func:`backend_options` builds evaluation's config from the
CLI's values.

The registry itself is :data:`fbagent.providers.names.PROVIDERS` (names, aliases, the class of each
provider as ``"module:Class"``, the uses it serves): a provider module is imported only when its model
is built, so each backend's library loads lazily.
"""

from __future__ import annotations

import json

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
    GENERATION,
    ModelConfig,
    ReasoningConfig,
)
from fbagent.seeds import check_seed


def backend_options(*, backend: str, model: str | None = None, model_path: str | None = None,
                    base_url: str | list[str] | None = None, reasoning: bool = False, end_think_tag: str | None = None,
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

    ``base_url``: one URL, or several (an ``openai`` backend spreads its requests over them; ``ModelConfig``'s
    ``base_url`` is the first, ``base_urls`` all). ``backend`` may be an alias (``llamacpp``); ``extra_body`` a JSON object as
    text; the end-of-thinking tag defaults from the model profile table
    (:func:`fbagent.providers.base.end_think_tag_for`). Raises
    :class:`FbagentError` for an unknown backend or an ``extra_body`` that is
    not a JSON object. Nothing is loaded.
    """
    name = providers.provider(backend, among=providers.names_for(EVALUATION), kind="backend").name
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
    urls = [base_url] if isinstance(base_url, str) else list(base_url or [])
    if len(urls) > 1 and name != "openai":
        raise FbagentError(f"--base-url given {len(urls)} times for the {name} backend",
                           "only the openai backend spreads requests over several servers; pass one --base-url")
    if len(set(urls)) != len(urls):
        raise FbagentError("the same --base-url is given twice", "pass each server once")
    rcfg = ReasoningConfig(enabled=reasoning, end_think_tag=end_think_tag or end_think_tag_for(model or model_path or ""),
                           max_think_tokens=max_think_tokens)
    return ModelConfig(backend=name, model=model, model_path=model_path, base_url=urls[0] if urls else None,
                       base_urls=tuple(urls) if len(urls) > 1 else (),
                       tensor_parallel_size=tensor_parallel_size, gpu_memory_utilization=gpu_memory_utilization,
                       max_model_len=max_model_len, n_ctx=n_ctx, device=device, dtype=dtype, chat=chat, seed=seed,
                       extra_body=extra, retries=max_retries, timeout_s=timeout, reasoning=rcfg)


def create_provider(config: ModelConfig, use: str, *, api_key: str | None = None) -> Backend:
    """The provider ``config.backend`` (a canonical name or an alias of the registry
    :data:`fbagent.providers.names.PROVIDERS` that serves ``use``), built once with its engine by its
    class's ``from_config``; ``retries`` and ``timeout_s`` left ``None`` take ``use``'s defaults
    (:meth:`~fbagent.providers.config.ModelConfig.resolved`). ``use``: ``generation`` | ``evaluation``;
    ``api_key``: a key given in code (else the provider's environment variables).

    Raises :class:`FbagentError` for an unknown name, a missing model (evaluation, for a provider whose
    class does not set ``model_optional``), a missing optional dependency or API key.
    """
    config = config.resolved(use)
    kind = "LLM backend" if use == GENERATION else "backend"
    p = providers.provider(config.backend, among=providers.names_for(use), kind=kind)
    cls: type[Backend] = p.load()
    if use == EVALUATION and not config.model and not getattr(cls, "model_optional", False):
        raise FbagentError(f"the {p.name} backend needs a model", "pass --model NAME_OR_PATH")
    provider: Backend = cls.from_config(config, use=use, api_key=api_key)
    return provider


def create_backend(opts: ModelConfig) -> Backend:
    """The evaluation provider of ``opts`` (:func:`create_provider` for ``evaluation``).

    Raises :class:`FbagentError` for an unknown name, a missing model, a
    missing optional dependency or a missing API key.
    """
    return create_provider(opts, EVALUATION)
