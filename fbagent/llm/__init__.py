"""Structured LLM calls for generation (gemini, openai, local providers) with the llm_calls cache.

Public API: :func:`make_client` (a :class:`~fbagent.providers.config.ModelConfig`) -> :class:`LLMClient` whose ``complete()``
returns a :class:`CallResult`; live counters in :class:`UsageStats`.
See ``docs/backends.md``.

The names are loaded on first use (PEP 562): :func:`make_client` imports the providers' registry, and the
client its structured-output helpers (:mod:`fbagent.providers.hooks`, :mod:`fbagent.providers.structured`),
so importing the package itself loads neither.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"CallResult": "fbagent.llm.client", "LLMClient": "fbagent.llm.client", "UsageStats": "fbagent.llm.client",
            "make_client": "fbagent.llm.factory", "ModelConfig": "fbagent.providers.config"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
