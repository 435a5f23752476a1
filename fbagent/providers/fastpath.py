"""Per-call work the SDKs repeat for every request, done once instead (the LLM layer's CPU per call).

Measured against a constant-time stub on 127.0.0.1 (``benchmarks/bench_generate.py``),
the openai SDK + instructor cost about 3.8 ms of CPU per structured call on a
busy 2-core machine, against 0.8 ms for the HTTP exchange and the validation
themselves. Two parts of that are pure repetition, and are done once here:

- :func:`instructor_model`: instructor wraps the response model in a new
  ``ResponseSchema`` subclass (``pydantic.create_model``) on *every* call
  unless it is given one already; this returns that wrapper, built once per
  model class. The request and the validation are the same (instructor would
  build the same class); callers get instances of a subclass of their model.
- :func:`direct_chat_create`: ``AsyncOpenAI.chat.completions.create`` walks the
  whole request (messages, the JSON schema) through its TypedDict transform on
  every call (about 1 ms), which for the plain JSON that fbagent sends changes
  nothing. The returned function posts the same body to the same endpoint
  with the same request options (auth, timeout, extra headers/body) through
  the client's own ``post`` and returns the same ``ChatCompletion``; errors
  are the SDK's own exception classes. Keyword arguments it does not know
  (streaming, files...) go to the SDK's ``create`` unchanged.

These serve the SDK paths (``FBAGENT_OPENAI_TRANSPORT=sdk`` and the
``tools`` / ``json`` / ``md_json`` modes). The default JSON-schema path sends
no SDK request at all (:mod:`fbagent.providers.chat_http`,
:mod:`fbagent.providers.structured`). The SDK's own aiohttp transport
(``openai.DefaultAioHttpClient``) is not used: it reports a refused connection
as a timeout, which would change fbagent's error lines and retry decisions.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

#: chat-completion body fields that are plain JSON (no transform needed); anything else -> the SDK's create
_PLAIN_BODY = frozenset({
    "messages", "model", "response_format", "temperature", "max_tokens", "max_completion_tokens", "seed", "tools",
    "tool_choice", "top_p", "stop", "n", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs", "user",
    "parallel_tool_calls",
})
_OPTIONS = frozenset({"extra_headers", "extra_query", "extra_body", "timeout"})


@functools.lru_cache(maxsize=128)
def instructor_model(response_model: type) -> type:
    """instructor's ``ResponseSchema`` wrapper of ``response_model`` (a pydantic model class), built once.

    Passing the wrapper to instructor's ``create`` skips the per-call ``create_model``;
    the request it sends and the validation it does are the same. Returns
    ``response_model`` itself when instructor has no such wrapper (another version).
    """
    try:
        from instructor.v2.core.function_calls import ResponseSchema, response_schema
    except ImportError:  # an instructor without the v2 layout: let it wrap per call
        return response_model
    if inspect.isclass(response_model) and issubclass(response_model, ResponseSchema):
        return response_model
    return response_schema(response_model)


def direct_chat_create(client: Any) -> Any:
    """An async drop-in for ``client.chat.completions.create`` (``client``: ``openai.AsyncOpenAI``) that
    posts the body without the SDK's per-call transform (module doc).

    Falls back to the SDK's ``create`` for keyword arguments outside plain JSON
    fields and request options, and entirely (returns the SDK's ``create``) when
    this openai version's request options cannot be built the way ``create``
    builds them. Raises whatever the SDK raises (``openai.APIStatusError``,
    ``openai.APITimeoutError``, ``openai.APIConnectionError``...).
    """
    sdk_create = client.chat.completions.create
    try:
        from openai._base_client import make_request_options
        from openai.types.chat import ChatCompletion

        if "security" not in inspect.signature(make_request_options).parameters:
            return sdk_create
    except (ImportError, TypeError, ValueError):
        return sdk_create

    async def create(**kwargs: Any) -> Any:
        if kwargs.get("stream") or not set(kwargs) <= _PLAIN_BODY | _OPTIONS | {"stream"}:
            return await sdk_create(**kwargs)
        body = {k: v for k, v in kwargs.items() if k in _PLAIN_BODY or k == "stream"}
        options = make_request_options(
            extra_headers=kwargs.get("extra_headers"), extra_query=kwargs.get("extra_query"),
            extra_body=kwargs.get("extra_body"), security={"bearer_auth": True},
            **({"timeout": kwargs["timeout"]} if "timeout" in kwargs else {}),
        )
        return await client.post("/chat/completions", body=body, options=options, cast_to=ChatCompletion)

    return create

