"""The three backends behind :class:`fbagent.llm.client.LLMClient`, all through instructor.

Each adapter turns one request into one instructor ``create`` call (which
re-asks on validation errors) and knows its backend's error classes (which are
transient), its token usage fields and how to close. Transport retries,
caching, concurrency and logging live in the client, identical for all three.

- ``openai``: in ``Mode.JSON_SCHEMA`` (the default) straight over aiohttp
  (:mod:`fbagent.providers.chat_http`, validation and re-asks by
  :mod:`fbagent.llm.structured`, which follows instructor's protocol), or with
  ``FBAGENT_OPENAI_TRANSPORT=sdk`` and for the other modes ``openai.AsyncOpenAI``
  (SDK retries off) + ``instructor.from_openai``. The request carries
  ``response_format={"type": "json_schema", "json_schema": {"name", "schema"}}``,
  which vLLM ``serve``, llama.cpp ``llama-server``, Ollama and OpenAI turn into
  constrained decoding; the answer is JSON in ``message.content``. Env
  ``FBAGENT_OPENAI_MODE`` = ``tools`` | ``json`` | ``md_json`` picks another
  instructor mode for servers without JSON-schema support.
- ``gemini``: ``google.genai.Client`` (its own retries off) +
  ``instructor.from_genai(..., Mode.JSON)``: ``response_mime_type=application/json``
  with the pydantic model as ``response_schema``.
- ``local``: ``llama_cpp.Llama`` in process, wrapped as an async OpenAI-style
  create function (``instructor.patch`` in ``Mode.JSON_SCHEMA``); the JSON schema
  becomes a llama.cpp grammar, so even a small base model emits parseable JSON.
  Generation runs in a worker thread under a lock (llama.cpp is not thread-safe).
  Its prompt style (:mod:`fbagent.llm.prompt_style`): ``chat`` goes through the
  GGUF's chat template (``create_chat_completion``); ``fewshot`` (the default for a
  GGUF without a chat template, i.e. a base model) completes the one few-shot
  prompt as plain text (``create_completion``) under the same grammar.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from fbagent.llm.hooks import CallHooks
from fbagent.llm.structured import create_json_schema
from fbagent.providers import LoopClients
from fbagent.providers.chat_http import answer_of, token_count
from fbagent.providers.config import DEFAULT_N_CTX
from fbagent.seeds import request_seed


def _openai_usage(response: Any) -> tuple[int, int]:
    """``(prompt_tokens, completion_tokens)`` of an SDK completion or a parsed JSON one (0 when absent)."""
    if isinstance(response, dict):
        usage = answer_of(response).usage
        return token_count(usage, "prompt_tokens") or 0, token_count(usage, "completion_tokens") or 0
    usage = getattr(response, "usage", None)
    if usage is None:
        return 0, 0
    return int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0)


def _openai_text(response: Any) -> str:
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


async def _instructor_create(client: Any, model: str, response_model: type[BaseModel],
                             messages: list[dict[str, Any]], temperature: float, max_tokens: int,
                             seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
    """One instructor call (OpenAI-style keyword arguments); ``seed`` is sent only when given."""
    params: dict[str, Any] = {"model": model, "temperature": temperature, "max_tokens": max_tokens}
    if seed is not None:
        params["seed"] = request_seed(seed)  # servers and llama.cpp take small seeds; the cache key keeps the full one
    from fbagent.llm.fastpath import instructor_model  # the wrapper class, built once

    return await client.create(
        response_model=instructor_model(response_model), messages=messages, max_retries=max_reasks,
        hooks=hooks.to_instructor(),
        **params,
    )


def _unwrapping_json(create: Any) -> Any:
    """Wrap ``chat.completions.create`` so that an answer that is not bare JSON (a ```json fence, prose
    around the object) has its last JSON object extracted before instructor's ``Mode.JSON`` parses it."""
    import json

    from instructor.utils import extract_json_from_codeblock

    async def unwrapped(*args: Any, **kwargs: Any) -> Any:
        response = await create(*args, **kwargs)
        for choice in getattr(response, "choices", None) or []:
            message = getattr(choice, "message", None)
            content = getattr(message, "content", None)
            if not isinstance(content, str):
                continue
            try:
                json.loads(content)
            except json.JSONDecodeError:
                try:
                    message.content = extract_json_from_codeblock(content)
                except ValueError:  # over instructor's size/nesting limits: leave it to validation
                    pass
        return response

    return unwrapped


def _final_on_max_tokens(generate_content: Any) -> Any:
    """Wrap google-genai's ``generate_content`` so that a ``MAX_TOKENS`` finish raises
    ``IncompleteOutputException`` (carrying the response): instructor then stops at once, as it does
    for OpenAI's ``finish_reason=length``, instead of re-asking with the same limit."""
    from instructor.core.exceptions import IncompleteOutputException

    async def checked(*args: Any, **kwargs: Any) -> Any:
        response = await generate_content(*args, **kwargs)
        candidates = getattr(response, "candidates", None) or []
        reason = getattr(getattr(candidates[0], "finish_reason", None), "name", None) if candidates else None
        if reason == "MAX_TOKENS":
            raise IncompleteOutputException(last_completion=response)
        return response

    return checked


class OpenAIAdapter:
    """OpenAI or any OpenAI-compatible server (vLLM, llama.cpp server, Ollama) via ``--base-url``.

    ``transport``: ``direct`` (default; ``json_schema`` mode only) posts the
    JSON-schema request over aiohttp (:mod:`fbagent.providers.chat_http`) and
    validates the answer itself (:mod:`fbagent.llm.structured`, instructor's
    protocol); ``sdk`` goes through ``openai.AsyncOpenAI`` + instructor, as every
    other ``mode`` does. Both send the same request and store the same rows.
    """

    name = "openai"

    def __init__(
        self, *, model: str, base_url: str | None, api_key: str, timeout_s: float, mode: str = "json_schema",
        transport: str = "direct",
    ) -> None:
        self.model = model
        self.base_url = base_url
        self.mode = mode
        self.transport = "direct" if transport == "direct" and mode == "json_schema" else "sdk"
        self._http = None
        if self.transport == "direct":
            from fbagent.providers.chat_http import ChatCompletionsHTTP

            self._http = ChatCompletionsHTTP(base_url=base_url, api_key=api_key, timeout_s=timeout_s)
            return
        self._clients = LoopClients(self._sdk_factory(base_url, api_key, timeout_s, mode), self._sdk_close)

    @staticmethod
    def _sdk_factory(base_url: str | None, api_key: str, timeout_s: float, mode: str) -> Any:
        import instructor
        import openai

        from fbagent.llm.fastpath import direct_chat_create

        instructor_mode = {
            "json_schema": instructor.Mode.JSON_SCHEMA, "tools": instructor.Mode.TOOLS,
            "json": instructor.Mode.JSON, "md_json": instructor.Mode.MD_JSON,
        }[mode]

        def make() -> tuple[Any, Any]:  # max_retries=0: the client's retry loop (fbagent.providers) retries
            raw = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)
            raw.chat.completions.create = direct_chat_create(raw)  # same request, no per-call SDK transform
            if mode in ("json", "json_schema"):  # before instructor parses: unwrap fenced or prose-wrapped JSON
                raw.chat.completions.create = _unwrapping_json(raw.chat.completions.create)
            return raw, instructor.from_openai(raw, mode=instructor_mode)

        return make

    @staticmethod
    async def _sdk_close(pair: tuple[Any, Any]) -> None:
        await pair[0].close()

    async def create(
        self, *, response_model: type[BaseModel], messages: list[dict[str, Any]], temperature: float,
        max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks,
    ) -> BaseModel:
        if self._http is not None:
            request: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature,
                                       "max_tokens": max_tokens}
            if seed is not None:
                request["seed"] = request_seed(seed)  # as _instructor_create sends it
            return await create_json_schema(self._http.create, request=request, response_model=response_model,
                                            max_reasks=max_reasks, hooks=hooks)
        _raw, client = self._clients.get()
        return await _instructor_create(client, self.model, response_model, messages, temperature,
                                        max_tokens, seed, max_reasks, hooks)

    usage = staticmethod(_openai_usage)
    text = staticmethod(_openai_text)

    async def aclose(self) -> None:
        """Close the running loop's HTTP client and any left by earlier loops."""
        closer = self._http if self._http is not None else self._clients
        await closer.aclose()
        await asyncio.to_thread(closer.close_all)


class GeminiAdapter:
    """Google Gemini through google-genai (``GEMINI_API_KEY`` / ``GOOGLE_API_KEY``)."""

    name = "gemini"
    mode = "genai_json"

    def __init__(self, *, model: str, base_url: str | None, api_key: str, timeout_s: float) -> None:
        import instructor

        from fbagent.providers.gemini import close_gemini_client, gemini_client

        self.model = model
        self.base_url = base_url

        def make() -> tuple[Any, Any]:
            raw = gemini_client(api_key, base_url, timeout_s)
            # a MAX_TOKENS answer is final: raised before instructor would re-ask it with the same limit
            raw.aio.models.generate_content = _final_on_max_tokens(raw.aio.models.generate_content)
            return raw, instructor.from_genai(raw, mode=instructor.Mode.JSON, use_async=True)

        async def close(pair: tuple[Any, Any]) -> None:
            await close_gemini_client(pair[0])

        self._clients = LoopClients(make, close)

    async def create(
        self, *, response_model: type[BaseModel], messages: list[dict[str, Any]], temperature: float,
        max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks,
    ) -> BaseModel:
        _raw, client = self._clients.get()
        return await _instructor_create(client, self.model, response_model, messages, temperature,
                                        max_tokens, seed, max_reasks, hooks)

    @staticmethod
    def usage(response: Any) -> tuple[int, int]:
        meta = getattr(response, "usage_metadata", None)
        if meta is None:
            return 0, 0
        out = int(getattr(meta, "candidates_token_count", 0) or 0) + int(getattr(meta, "thoughts_token_count", 0) or 0)
        return int(getattr(meta, "prompt_token_count", 0) or 0), out

    @staticmethod
    def text(response: Any) -> str:
        try:
            return str(response.text or "")
        except Exception:  # noqa: BLE001 - a response without text parts
            return ""

    async def aclose(self) -> None:
        """Close the running loop's client and any left by earlier loops."""
        await self._clients.aclose()
        await asyncio.to_thread(self._clients.close_all)


class LocalAdapter:
    """llama-cpp-python in process on a GGUF file; one model load per adapter.

    ``n_ctx`` (tokens) bounds prompt + answer; ``n_threads`` defaults to env
    ``FBAGENT_LLAMA_THREADS``, else the number of CPU cores (on a machine shared with
    other busy processes 1 thread can be several times faster). Calls are serialised and run in a worker
    thread (:class:`fbagent.providers.cancel.CallGate`), so the event loop never blocks on llama.cpp, and a
    cancelled call (Ctrl-C) stops inside llama.cpp within milliseconds; queued calls never start.

    ``prompt_style``: ``auto`` (``fewshot`` when the GGUF metadata has no chat
    template, else ``chat``), ``chat`` or ``fewshot``; the resolved style is the
    attribute ``prompt_style``. In the ``fewshot`` style the request's first user
    message is the whole completion prompt (``prompts/**/fewshot_*.toml``); an
    instructor re-ask (the answer failed validation) completes the same prompt again,
    sampled at temperature >= :data:`REASK_TEMPERATURE` with the seed plus the re-ask
    number, since a base model cannot read the validation error.
    """

    name = "local"
    REASK_TEMPERATURE = 0.7

    def __init__(self, *, model_path: str, n_ctx: int = DEFAULT_N_CTX, n_threads: int | None = None,
                 prompt_style: str = "auto") -> None:
        import instructor

        from fbagent.llm.prompt_style import check_prompt_style, style_from_metadata
        from fbagent.providers.cancel import CallGate
        from fbagent.providers.llamacpp import build_llama, settings_for

        check_prompt_style(prompt_style)
        self.model_path = model_path
        self.model = Path(model_path).name
        self.base_url = None
        self._gate = CallGate()
        self._grammars: dict[str, Any] = {}
        threads = n_threads or int(os.environ.get("FBAGENT_LLAMA_THREADS") or 0) or os.cpu_count() or 1
        self._llm = build_llama(settings_for(model_path, n_ctx=n_ctx, n_threads=threads), abort=self._gate.aborted)
        self.prompt_style = style_from_metadata(self._llm.metadata) if prompt_style == "auto" else prompt_style
        # recorded with every request in llm_calls
        self.mode = "completion_json_grammar" if self.prompt_style == "fewshot" else "json_schema_grammar"
        self._client = instructor.AsyncInstructor(
            client=None,
            create=instructor.patch(create=self._acreate, mode=instructor.Mode.JSON_SCHEMA),
            mode=instructor.Mode.JSON_SCHEMA,
        )

    def _generate(self, kwargs: dict[str, Any]) -> Any:
        from openai.types.chat import ChatCompletion

        response_format = kwargs.get("response_format") or {}
        schema = (response_format.get("json_schema") or {}).get("schema")
        if self.prompt_style == "fewshot":
            out = self._complete_text(kwargs, schema)
        else:
            params: dict[str, Any] = {
                "messages": kwargs["messages"],
                "temperature": kwargs.get("temperature", 0.0),
                "max_tokens": kwargs.get("max_tokens", 512),
                # llama-cpp-python builds a grammar from the schema (json_object + schema).
                "response_format": {"type": "json_object", "schema": schema} if schema else {"type": "json_object"},
            }
            if kwargs.get("seed") is not None:
                params["seed"] = kwargs["seed"]
            out = self._llm.create_chat_completion(**params)
        for choice in out.get("choices", []):
            message = choice.get("message") or {}
            if isinstance(message.get("content"), str):
                message["content"] = _json_safe(message["content"])
        out.setdefault("object", "chat.completion")
        return ChatCompletion.model_validate(out)

    def _grammar(self, schema: dict[str, Any] | None) -> Any:
        """The llama.cpp grammar of a JSON schema (any JSON object without one), built once per schema.

        Few-shot completions only: every JSON string is one sentence (:func:`one_sentence_strings`).
        A base model that "ends its answer" inside a string otherwise writes a newline and the next
        worked example's cue into it, or runs on with more sentences to ``max_tokens`` (a truncated,
        failed call); so bounded, it has to close the string.
        """
        import json

        from llama_cpp.llama_grammar import JSON_GBNF, LlamaGrammar, json_schema_to_gbnf

        key = json.dumps(schema, sort_keys=True) if schema else ""
        if key not in self._grammars:
            if not schema:
                self._grammars[key] = LlamaGrammar.from_string(JSON_GBNF, verbose=False)
            else:
                gbnf = one_sentence_strings(json_schema_to_gbnf(key), MAX_STRING_CHARS)
                self._grammars[key] = LlamaGrammar.from_string(gbnf, verbose=False)
        return self._grammars[key]

    def _complete_text(self, kwargs: dict[str, Any], schema: dict[str, Any] | None) -> dict[str, Any]:
        """Few-shot style: complete the prompt (the user messages before any re-ask) as plain text under
        the schema's grammar; returns an OpenAI-style chat completion dict."""
        messages = kwargs["messages"]
        first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), len(messages))
        prompt = "\n\n".join(str(m.get("content") or "") for m in messages[:first])
        reasks = sum(1 for m in messages[first:] if m.get("role") == "assistant")
        temperature = float(kwargs.get("temperature", 0.0))
        seed = kwargs.get("seed")
        if reasks:
            temperature, seed = max(temperature, self.REASK_TEMPERATURE), (seed or 0) + reasks
        params: dict[str, Any] = {"prompt": prompt, "temperature": temperature,
                                  "max_tokens": kwargs.get("max_tokens", 512), "grammar": self._grammar(schema)}
        if seed is not None:
            params["seed"] = seed
        out = self._llm.create_completion(**params)
        choice = (out.get("choices") or [{}])[0]
        return {
            "id": out.get("id", "completion"), "object": "chat.completion", "created": out.get("created", 0),
            "model": out.get("model", self.model), "usage": out.get("usage"),
            "choices": [{"index": 0, "finish_reason": choice.get("finish_reason") or "stop",
                         "message": {"role": "assistant", "content": choice.get("text", "")}}],
        }

    async def _acreate(self, **kwargs: Any) -> Any:
        return await self._gate.call(self._generate, kwargs)

    async def create(
        self, *, response_model: type[BaseModel], messages: list[dict[str, Any]], temperature: float,
        max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks,
    ) -> BaseModel:
        return await _instructor_create(self._client, self.model, response_model, messages, temperature,
                                        max_tokens, seed, max_reasks, hooks)

    usage = staticmethod(_openai_usage)
    text = staticmethod(_openai_text)

    async def aclose(self) -> None:
        close = getattr(self._llm, "close", None)
        if close is not None:
            with self._gate.lock:
                close()


MAX_STRING_CHARS = 200   # longest JSON string a few-shot completion may write (a sentence, a question)
_GBNF_CHAR = 'char ::= [^"\\\\] |'
_GBNF_STRING = 'string ::= "\\"" char* "\\"" space'


def one_sentence_strings(gbnf: str, max_chars: int) -> str:
    """``gbnf`` (llama.cpp's grammar of a JSON schema) with every JSON string one sentence: at most
    ``max_chars`` characters, no control characters, and ``.``/``!``/``?`` only at the end or before a
    letter, digit or ``.`` ("U.S.", "3.5", "..."), never before a space, so no second sentence.
    ``gbnf`` is returned unchanged when its rules are not the expected ones."""
    if _GBNF_CHAR not in gbnf or _GBNF_STRING not in gbnf:
        return gbnf
    return (gbnf.replace(_GBNF_CHAR, 'char ::= [^"\\\\.!?\\x7F\\x00-\\x1F] | [.!?] [A-Za-z0-9.] |')
            .replace(_GBNF_STRING, f'string ::= "\\"" char{{0,{max_chars}}} [.!?]? "\\"" space'))


_CONTROL_CHARS = re.compile(r"[\x00-\x1f]")


def _json_safe(text: str) -> str:
    """Replace raw control characters (U+0000-U+001F) by spaces.

    llama.cpp's JSON grammar lets a small model put raw newlines or tabs inside
    JSON strings, which strict JSON parsing rejects; as whitespace between JSON
    tokens a space means the same, so the answer parses instead of being re-asked.
    """
    return _CONTROL_CHARS.sub(" ", text)
