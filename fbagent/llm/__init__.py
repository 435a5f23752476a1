"""LLM backends (gemini, openai, local) through instructor, with the llm_calls cache.

Public API: :func:`make_client` (a :class:`~fbagent.providers.config.ModelConfig`) -> :class:`LLMClient` whose ``complete()``
returns a :class:`CallResult`; live counters in :class:`UsageStats`.
See ``docs/backends.md``.
"""

from fbagent.llm.client import CallResult, LLMClient, UsageStats
from fbagent.llm.factory import BACKENDS, ClientSettings, make_client
from fbagent.providers.config import ModelConfig

__all__ = ["BACKENDS", "CallResult", "ClientSettings", "LLMClient", "ModelConfig", "UsageStats", "make_client"]
