"""Structured output in JSON-schema mode, sent straight over a chat transport.

This is instructor's ``Mode.JSON_SCHEMA`` protocol for OpenAI-compatible
servers (``instructor/v2/providers/openai/handlers.py``:
``OpenAIJSONSchemaHandler`` and ``reask_md_json``), done without building the
SDK objects and the instructor wrappers on every call (about 2.5 ms of CPU per
call, against 0.2 ms for this path; ``benchmarks/bench_generate.py``).
``tests/test_llm_structured.py`` checks that the request and the re-ask
messages are the ones instructor builds:

1. the request carries ``response_format = {"type": "json_schema", "json_schema":
   {"name": Model.__name__, "schema": Model.model_json_schema()}}``;
2. the answer is ``choices[0].message.content`` validated with
   ``Model.model_validate_json``; ``finish_reason == "length"`` raises
   instructor's ``IncompleteOutputException`` at once (a truncated answer is
   final: asking again with the same limit would truncate it again);
3. an answer that is not bare JSON (a Markdown fence, prose around the object) has its JSON object
   extracted first (:func:`unwrap_json`, as instructor's ``json``/``md_json`` modes do);
   an answer that still fails validation is re-asked: the answer as an ``assistant``
   message, then a ``user`` message ``"Correct your JSON ONLY RESPONSE, based on
   the following errors:\\n{error}"``; after ``max_reasks`` re-asks the last
   ``ValidationError`` is raised.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from fbagent.providers.chat_http import answer_of, token_count
from fbagent.providers.fastpath import instructor_model
from fbagent.providers.hooks import CallHooks
from fbagent.seeds import request_seed

REASK_PREFIX = "Correct your JSON ONLY RESPONSE, based on the following errors:\n"


@functools.lru_cache(maxsize=256)
def response_format(response_model: type[BaseModel]) -> dict[str, Any]:
    """The ``response_format`` request field for ``response_model`` (built once per model class; do not mutate)."""
    return {"type": "json_schema",
            "json_schema": {"name": response_model.__name__, "schema": response_model.model_json_schema()}}


def reask_messages(content: str, error: Exception) -> list[dict[str, str]]:
    """The two messages appended after an answer ``content`` that failed with ``error`` (step 3 of the module doc)."""
    return [{"role": "assistant", "content": content or ""}, {"role": "user", "content": f"{REASK_PREFIX}{error}"}]


def _invalid_json(exc: ValidationError) -> bool:
    return any(e.get("type") == "json_invalid" for e in exc.errors())


def unwrap_json(content: str) -> str | None:
    """The JSON object inside ``content`` when ``content`` is not bare JSON (a Markdown ```json fence,
    prose around the object), by instructor's own ``extract_json_from_codeblock`` (what its ``json`` and
    ``md_json`` modes do); ``None`` when nothing different can be extracted.

    Servers that do not enforce the schema (a llama.cpp server without grammar support, some proxies)
    answer like this; re-asking them gives the same fence again.
    """
    from instructor.utils import extract_json_from_codeblock

    try:
        out = extract_json_from_codeblock(content)
    except ValueError:  # over instructor's size/nesting limits
        return None
    return out if out and out != content else None


def validate_content(content: str, response_model: type[BaseModel]) -> BaseModel:
    """``content`` (an answer's text) as a ``response_model`` instance: validated as JSON, else the JSON object
    inside it (:func:`unwrap_json`) when it is not bare JSON (step 3 of the module doc). Raises the
    ``pydantic.ValidationError`` to send back in a re-ask (:func:`reask_messages`)."""
    try:
        return response_model.model_validate_json(content)
    except ValidationError as exc:
        unwrapped = unwrap_json(content) if _invalid_json(exc) else None
        if unwrapped is None:
            raise
        return response_model.model_validate_json(unwrapped)


async def create_json_schema(
    send: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]], *, request: dict[str, Any],
    response_model: type[BaseModel], max_reasks: int, hooks: CallHooks,
) -> BaseModel:
    """One structured call: ``request`` (model, messages, sampling fields) plus the response format, through ``send``.

    ``send(body) -> completion``: posts one Chat Completions body and returns the
    parsed JSON answer (e.g. :meth:`fbagent.providers.chat_http.ChatCompletionsHTTP.create`).
    ``hooks`` hear every attempt, answer and validation failure. Returns a
    ``response_model`` instance. Raises ``IncompleteOutputException`` (carrying
    the completion as ``last_completion``) on a ``length`` finish, the last
    ``pydantic.ValidationError`` after ``max_reasks`` failed re-asks, and
    whatever ``send`` raises (transport errors are not retried here).
    """
    body = {**request, "messages": list(request["messages"]), "response_format": response_format(response_model)}
    for attempt in range(max_reasks + 1):
        hooks.attempt(**body)
        completion = await send(body)
        hooks.response(completion)
        answer = answer_of(completion)
        content = answer.content or ""
        if answer.finish_reason == "length":
            from instructor.core.exceptions import IncompleteOutputException

            raise IncompleteOutputException(last_completion=completion)
        try:
            return validate_content(content, response_model)
        except ValidationError as exc:
            hooks.parse_error(exc)
            if attempt == max_reasks:
                raise
            body = {**body, "messages": [*body["messages"], *reask_messages(content, exc)]}
    raise AssertionError("unreachable")  # pragma: no cover


def openai_usage(response: Any) -> tuple[int, int]:
    """``(prompt_tokens, completion_tokens)`` of an SDK completion or a parsed JSON one (0 when absent)."""
    if isinstance(response, dict):
        usage = answer_of(response).usage
        return token_count(usage, "prompt_tokens") or 0, token_count(usage, "completion_tokens") or 0
    sdk_usage = getattr(response, "usage", None)
    if sdk_usage is None:
        return 0, 0
    return int(getattr(sdk_usage, "prompt_tokens", 0) or 0), int(getattr(sdk_usage, "completion_tokens", 0) or 0)


def openai_text(response: Any) -> str:
    """The answer text of an SDK completion (the content, else the tool-call arguments) or of a parsed JSON
    one (the content: the direct path asks for JSON-schema answers only)."""
    if isinstance(response, dict):
        return answer_of(response).content or ""
    try:
        message = response.choices[0].message
    except (AttributeError, IndexError, TypeError):
        return ""
    if getattr(message, "content", None):
        return str(message.content)
    calls = getattr(message, "tool_calls", None) or []
    return " ".join(str(c.function.arguments) for c in calls if getattr(c, "function", None))


async def instructor_create(client: Any, model: str, response_model: type[BaseModel],
                            messages: list[dict[str, str]], temperature: float, max_tokens: int,
                            seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
    """One instructor call (OpenAI-style keyword arguments) on an instructor ``client``; ``seed`` is sent
    only when given (:func:`fbagent.seeds.request_seed`: servers and llama.cpp take small seeds; the
    cache key keeps the full one). Raises what instructor raises."""
    params: dict[str, Any] = {"model": model, "temperature": temperature, "max_tokens": max_tokens}
    if seed is not None:
        params["seed"] = request_seed(seed)
    result: BaseModel = await client.create(
        response_model=instructor_model(response_model), messages=messages, max_retries=max_reasks,
        hooks=hooks.to_instructor(), **params,
    )
    return result
