"""The Gemini engine: the one place that constructs ``google.genai.Client``, for generation and eval.

Generation (:class:`fbagent.llm.backends.GeminiAdapter`, structured output through instructor) and
evaluation (:class:`fbagent.eval.backends.gemini.GeminiBackend`, choice and text answers) both take
their client from :func:`gemini_client`, one per event loop (:class:`fbagent.providers.LoopClients`),
and close it with :func:`close_gemini_client`. The SDK's own retries are off (``attempts=1``): the
retry loop of :func:`fbagent.providers.call_with_retries` is the only one, so ``attempts`` counts every
HTTP request. ``google.genai`` (optional extra ``gemini``) is imported when a client is built.
"""

from __future__ import annotations

from typing import Any


def gemini_client(api_key: str, base_url: str | None, timeout_s: float) -> Any:
    """A ``google.genai.Client`` for ``api_key`` (from :func:`fbagent.providers.api_key`).

    ``base_url``: another endpoint than Google's (``None``: the SDK's default); ``timeout_s``: seconds
    per request (the SDK takes whole milliseconds). Raises ``ImportError`` when google-genai is not
    installed (callers check first with :func:`fbagent.providers.require_packages`).
    """
    from google import genai
    from google.genai import types

    return genai.Client(api_key=api_key, http_options=types.HttpOptions(
        base_url=base_url, timeout=int(timeout_s * 1000),
        retry_options=types.HttpRetryOptions(attempts=1)))   # fbagent.providers retries, not the SDK


async def close_gemini_client(client: Any) -> None:
    """Close both transports of a :func:`gemini_client` (the async one, then the sync one)."""
    await client.aio.aclose()
    client.close()
