"""OpenAI-compatible chat provider (OpenAI, vLLM ``serve``, llama.cpp server, Ollama...), for generation and
evaluation alike: one :class:`OpenAIBackend` over one Chat Completions client.

Generation (:meth:`OpenAIBackend.create`): in ``Mode.JSON_SCHEMA`` (the default) straight over aiohttp
(:mod:`fbagent.providers.chat_http`, validation and re-asks by :mod:`fbagent.providers.structured`, which
follows instructor's protocol), or with ``FBAGENT_OPENAI_TRANSPORT=sdk`` and for the other modes
``openai.AsyncOpenAI`` (SDK retries off) + ``instructor.from_openai``. The request carries
``response_format={"type": "json_schema", "json_schema": {"name", "schema"}}``, which vLLM ``serve``,
llama.cpp ``llama-server``, Ollama and OpenAI turn into constrained decoding. Env
``FBAGENT_OPENAI_MODE`` = ``tools`` | ``json`` | ``md_json`` picks another instructor mode for
servers without JSON-schema support.

Evaluation:

The answer is requested with a strict JSON-schema response format
``{"answer": "1"|"2"|"3"|"4"}`` (:func:`answer_json_schema`), so servers with
structured outputs can only return an option number (FrameBench, Yano and
Sasano 2026, section 4). The reply is validated with
:class:`fbagent.schemas.FourChoiceAnswer`; a malformed reply or an API error
becomes a failure (``choice=None``), never a wrong answer, and is never
re-asked (a second chance would change the protocol). Transient errors
(rate limits, 5xx, timeouts) are retried ``max_retries`` times with
exponential backoff by :func:`fbagent.providers.call_with_retries` (the SDK's
own retries are off); keys, base URL, error texts and redaction come from
:mod:`fbagent.providers`, as for generation.

Reasoning: thinking is done by the server; ``max_think_tokens`` is added to
the completion budget, the server's reasoning text and token count are
recorded when it reports them, and a ``length`` finish means the budget ran out.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.providers.base import (
    BackendInfo,
    ChoiceResult,
    ConcurrentBackend,
    ReasoningConfig,
    TextResult,
    answer_json_schema,
    answered_text,
    package_version,
    parse_json_answer,
    split_thinking,
)
from fbagent.providers.chat_http import Answer, ChatCompletionsHTTP, answer_of, token_count
from fbagent.providers.clients import LoopClients
from fbagent.providers.config import EVAL_RETRIES, EVAL_TIMEOUT_S, GENERATION, ModelConfig
from fbagent.providers.endpoints import EndpointPool
from fbagent.providers.fastpath import direct_chat_create
from fbagent.providers.hooks import CallHooks
from fbagent.providers.openai_batch import OpenAIBatch
from fbagent.providers.structured import (
    create_json_schema,
    instructor_create,
    openai_text,
    openai_usage,
    reask_messages,
    response_format,
)
from fbagent.seeds import DEFAULT_SEED, request_seed

if TYPE_CHECKING:
    from pydantic import BaseModel

ANSWER_TOKENS = 32  # completion budget for the JSON answer itself
DEFAULT_MODEL = "gpt-4o-mini"   # generation without --model and without a server URL
OPENAI_MODES = ("json_schema", "tools", "json", "md_json")  # env FBAGENT_OPENAI_MODE
OPENAI_TRANSPORTS = ("direct", "sdk")  # env FBAGENT_OPENAI_TRANSPORT (direct: json_schema mode only)


class OpenAIBackend(ConcurrentBackend):
    """Chat Completions over aiohttp (:mod:`fbagent.providers.chat_http`); one request per prompt,
    ``concurrency`` in flight. The request body is the one the openai SDK would send.

    ``base_url``: any OpenAI-compatible server (default: env ``OPENAI_BASE_URL``;
    then a missing ``OPENAI_API_KEY`` is fine). ``timeout_s``: per request,
    seconds; ``max_retries``: transport retries on 408/429/5xx/timeouts.
    ``extra_body``: server-specific request fields (e.g.
    ``{"chat_template_kwargs": {"enable_thinking": false}}`` for vLLM). ``base_urls``: two or more servers of
    the same model (``base_url`` the first): requests spread over them (:mod:`fbagent.providers.endpoints`).
    Raises :class:`FbagentError` when no key and no server URL is given.
    """

    name = "openai"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED, timeout_s: float = EVAL_TIMEOUT_S,
                 max_retries: int = EVAL_RETRIES, extra_body: dict | None = None, mode: str = "json_schema",
                 transport: str = "direct", base_urls: Sequence[str] = ()) -> None:
        super().__init__(model, reasoning=reasoning, seed=seed)
        #: generation's structured-output mode and transport (:meth:`create`)
        self.mode = mode
        self.transport = "direct" if transport == "direct" and mode == "json_schema" else "sdk"
        p = providers.PROVIDERS["openai"]
        base_url = providers.base_url(p, base_url)
        key = providers.api_key(p, api_key, server_url=base_url)
        self.api_key = key   # the Batch API client (fbagent.providers.openai_batch) uses it too
        self.base_url = base_url
        self.base_urls = tuple(base_urls)
        self.endpoint = providers.endpoint(p, base_url)
        self.timeout_s = timeout_s
        self.retry = providers.RetryPolicy(retries=max_retries)
        self.extra_body = extra_body or {}

        http = ChatCompletionsHTTP(base_url=base_url, api_key=key, timeout_s=timeout_s)  # aiohttp loaded
        #: several servers (``base_urls``, two or more): one pool that spreads the requests
        self.pool = EndpointPool(http, list(base_urls)) if len(base_urls) > 1 else None
        self._http: ChatCompletionsHTTP | EndpointPool = self.pool or http
        self._clients = self._http.sessions  # closed per loop by ConcurrentBackend.aclose_loop / close
        self._sdk = (LoopClients(_sdk_factory(base_url, key, timeout_s, mode), _sdk_close)
                     if self.transport == "sdk" else None)
        if self.pool is not None and self._sdk is not None:
            raise FbagentError(f"{len(base_urls)} --base-url need the direct transport (json_schema mode)",
                               "unset FBAGENT_OPENAI_TRANSPORT and FBAGENT_OPENAI_MODE, or pass one --base-url")

    @classmethod
    def from_config(cls, config: ModelConfig, *, use: str, api_key: str | None = None) -> OpenAIBackend:
        """The provider for ``use`` from ``config``: key from ``api_key`` or env ``OPENAI_API_KEY``; with a
        base URL (or env ``OPENAI_BASE_URL``) no key is needed. Generation: without a model, the server's
        first listed model (with a URL) or :data:`DEFAULT_MODEL`; the mode and transport from the
        environment (:func:`openai_mode`, :func:`openai_transport`). Raises :class:`FbagentError`."""
        p = providers.PROVIDERS["openai"]
        url = providers.base_url(p, config.base_url)
        key = providers.api_key(p, api_key, server_url=url)
        assert config.timeout_s is not None and config.retries is not None   # resolved for the use
        if use != GENERATION:
            return cls(config.model or "", base_url=url, api_key=key, reasoning=config.reasoning, seed=config.seed,
                       extra_body=config.extra_body, max_retries=config.retries, timeout_s=config.timeout_s,
                       base_urls=config.base_urls)
        mode, transport = openai_mode(), openai_transport()
        model = config.model or (first_model(url, key or "", config.timeout_s) if url else DEFAULT_MODEL)
        return cls(model, base_url=url, api_key=key, timeout_s=config.timeout_s, max_retries=config.retries,
                   mode=mode, transport=transport, base_urls=config.base_urls)

    async def create(self, *, response_model: type[BaseModel], messages: list[dict[str, str]], temperature: float,
                     max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
        """One structured completion (generation): the JSON-schema request over aiohttp, or instructor
        over the SDK for the other modes / ``FBAGENT_OPENAI_TRANSPORT=sdk`` (same request, same rows)."""
        if self._sdk is None:
            request = self._structured_request(messages, temperature, max_tokens, seed)
            return await create_json_schema(self._http.create, request=request, response_model=response_model,
                                            max_reasks=max_reasks, hooks=hooks)
        _raw, client = self._sdk.get()
        return await instructor_create(client, self.model, response_model, messages, temperature,
                                       max_tokens, seed, max_reasks, hooks)

    usage = staticmethod(openai_usage)
    text = staticmethod(openai_text)

    def _structured_request(self, messages: list[dict[str, Any]], temperature: float, max_tokens: int,
                            seed: int | None) -> dict[str, Any]:
        """The direct transport's request of :meth:`create`, before its response format."""
        request: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature,
                                   "max_tokens": max_tokens}
        if seed is not None:
            request["seed"] = request_seed(seed)  # as instructor_create sends it
        return request

    # -- provider batches (generate --batch, eval run --batch) ------------------------------------------------
    def batch_api(self) -> OpenAIBatch | None:
        """The OpenAI Batch API at this backend's server (:mod:`fbagent.providers.openai_batch`); ``None`` where a
        batch line could not be the direct request: the SDK transport or another structured-output mode
        (``FBAGENT_OPENAI_MODE``/``FBAGENT_OPENAI_TRANSPORT``), or several ``--base-url``."""
        if self._sdk is not None or self.pool is not None:
            return None
        return OpenAIBatch(self.base_url, self.api_key, self.timeout_s)

    def batch_body(self, *, response_model: type[BaseModel], messages: list[dict[str, Any]], temperature: float,
                   max_tokens: int, seed: int | None) -> dict[str, Any]:
        """The body of one generation line of a batch: exactly the request :meth:`create` sends first (its
        JSON-schema response format included), so that a batch answers what the direct run asks."""
        return {**self._structured_request(list(messages), temperature, max_tokens, seed),
                "response_format": response_format(response_model)}

    @staticmethod
    def batch_answer(response: dict[str, Any]) -> tuple[str, bool]:
        """``(text, truncated)`` of one batch line's answer (a chat completion as JSON): the content, and
        whether it stopped at its token limit (``finish_reason == "length"``)."""
        answer = answer_of(response)
        return answer.content or "", answer.finish_reason == "length"

    @staticmethod
    def batch_reask(body: dict[str, Any], text: str, error: Exception) -> dict[str, Any]:
        """``body`` with the re-ask messages appended for an answer ``text`` that failed validation with
        ``error`` (:func:`fbagent.providers.structured.reask_messages`, as :meth:`create` re-asks)."""
        return {**body, "messages": [*body["messages"], *reask_messages(text, error)]}

    @staticmethod
    def truncated_error(response: dict[str, Any]) -> Exception:
        """The exception the direct path raises for a truncated answer ``response`` (instructor's
        ``IncompleteOutputException``), so that both paths store the same error line."""
        from instructor.core.exceptions import IncompleteOutputException

        return IncompleteOutputException(last_completion=response)

    async def aclose(self) -> None:
        """Close the running loop's HTTP clients and any left by earlier loops (generation's end)."""
        for closer in (self._http, self._sdk):
            if closer is not None:
                await closer.aclose()
                await asyncio.to_thread(closer.close_all)

    def info(self) -> BackendInfo:
        info = super().info()
        info.options = {"base_url": providers.public_url(self.base_url), "extra_body": self.extra_body}
        if self.pool is not None:
            info.options["base_urls"] = [providers.public_url(u) for u in self.base_urls]
        info.versions = {"aiohttp": package_version("aiohttp")}
        return info

    def _budget(self, n: int) -> int:
        return n + (self.reasoning.max_think_tokens if self.reasoning.enabled else 0)

    def _body(self, prompt: str, **fields: object) -> dict[str, object]:
        """The Chat Completions body: the prompt as one user message, ``fields``, model, seed, temperature
        0 (not in reasoning mode), then ``extra_body`` merged on top (as the SDK's ``extra_body`` is)."""
        body = {"messages": [{"role": "user", "content": prompt}], **fields, "model": self.model, "seed": self.seed}
        if not self.reasoning.enabled:
            body["temperature"] = 0.0
        body.update(self.extra_body)
        return body

    @staticmethod
    def _reasoning_of(answer: Answer) -> tuple[str, int]:
        text = answer.message.get("reasoning_content") or answer.message.get("reasoning") or ""
        n = token_count(answer.usage.get("completion_tokens_details"), "reasoning_tokens") or 0
        return (text if isinstance(text, str) else ""), n

    def _error(self, err: BaseException) -> str:
        """One redacted line for a failed request (:func:`fbagent.providers.describe_error`)."""
        return providers.describe_error(err, provider_name=self.name, endpoint_url=self.endpoint,
                                        timeout_s=self.timeout_s, limit=300)

    async def _create(self, body: dict) -> dict:
        return await providers.call_with_retries(lambda: self._http.create(body), self.retry, describe=self._error)

    def choice_body(self, prompt: str, choices: Sequence[str]) -> dict:
        """The Chat Completions body of one constrained question: a strict JSON-schema response format."""
        return self._body(
            prompt,
            response_format={"type": "json_schema", "json_schema": {
                "name": "four_choice_answer", "strict": True, "schema": answer_json_schema(choices)}},
            max_completion_tokens=self._budget(ANSWER_TOKENS),
        )

    def choice_of(self, resp: dict, choices: Sequence[str]) -> ChoiceResult:
        """The :class:`ChoiceResult` of a chat completion ``resp`` (parsed JSON), as :meth:`choose_one` reads it
        (the Batch API's result lines too: :mod:`fbagent.eval.batch`)."""
        answer = answer_of(resp)
        raw = answer.content
        thinking, n_think = self._reasoning_of(answer)
        if raw and self.reasoning.enabled and self.reasoning.end_think_tag in raw:
            inline, raw, _ = split_thinking(raw, self.reasoning.end_think_tag)
            thinking = thinking or inline
        choice, error = parse_json_answer(raw, choices)
        exhausted = self.reasoning.enabled and answer.finish_reason == "length"
        return ChoiceResult(
            raw=raw, choice=choice, error=error,
            input_tokens=token_count(answer.usage, "prompt_tokens"),
            output_tokens=token_count(answer.usage, "completion_tokens"),
            thinking=thinking, thinking_tokens=n_think, budget_exhausted=exhausted,
        )

    async def choose_one(self, prompt: str, choices: Sequence[str]) -> ChoiceResult:
        """One chat request with a strict JSON-schema response format; errors -> failure."""
        try:
            resp = await self._create(self.choice_body(prompt, choices))
        except Exception as err:  # noqa: BLE001 - API errors after the retries become a recorded failure
            return ChoiceResult(raw=None, choice=None, error=self._error(err))
        return self.choice_of(resp, choices)

    async def generate_one(self, prompt: str, max_new_tokens: int, stop: Sequence[str]) -> TextResult:
        """One free chat completion, cut at ``stop``."""
        try:
            resp = await self._create(self._body(prompt, max_completion_tokens=self._budget(max_new_tokens)))
        except Exception as err:  # noqa: BLE001 - API errors after the retries become a recorded failure
            return TextResult(text=None, error=self._error(err))
        answer = answer_of(resp)
        raw = answer.content or ""
        thinking, n_think = self._reasoning_of(answer)
        if self.reasoning.enabled and self.reasoning.end_think_tag in raw:
            inline, raw, _ = split_thinking(raw, self.reasoning.end_think_tag)
            thinking = thinking or inline
        return answered_text(
            raw, stop, input_tokens=token_count(answer.usage, "prompt_tokens"),
            output_tokens=token_count(answer.usage, "completion_tokens"),
            thinking=thinking, thinking_tokens=n_think,
            budget_exhausted=self.reasoning.enabled and answer.finish_reason == "length",
        )


def first_model(base_url: str, api_key: str, timeout_s: float) -> str:
    """The first model id that an OpenAI-compatible server lists at ``GET {base_url}/models``.
    Raises :class:`FbagentError` when it does not answer or lists none."""
    import openai

    try:
        with openai.OpenAI(base_url=base_url, api_key=api_key, timeout=min(timeout_s, 10.0), max_retries=0) as sync:
            models = [m.id for m in sync.models.list()]
    except Exception as exc:  # noqa: BLE001
        raise FbagentError(
            f"no --model given and {providers.public_url(base_url)}/models did not answer ({type(exc).__name__})",
            "pass --model NAME as the server knows it (the verifier's: --verifier-model NAME), "
            "or check that the server runs at that URL",
        ) from exc
    if not models:
        raise FbagentError(f"no --model given and {providers.public_url(base_url)} lists no models", "pass --model NAME")
    return str(models[0])


def openai_mode() -> str:
    """Generation's structured-output mode from env ``FBAGENT_OPENAI_MODE`` (default ``json_schema``).
    Raises :class:`FbagentError` for a value not in :data:`OPENAI_MODES`."""
    mode = (os.environ.get("FBAGENT_OPENAI_MODE") or "json_schema").strip().lower()
    if mode not in OPENAI_MODES:
        raise FbagentError(f"FBAGENT_OPENAI_MODE={mode!r} is not a structured-output mode",
                           f"set it to one of: {', '.join(OPENAI_MODES)} (or unset it for json_schema)")
    return mode


def openai_transport() -> str:
    """``direct`` (aiohttp, the default) or ``sdk`` (openai SDK + instructor), from env ``FBAGENT_OPENAI_TRANSPORT``.

    Raises :class:`FbagentError` for any other value.
    """
    transport = (os.environ.get("FBAGENT_OPENAI_TRANSPORT") or "direct").strip().lower()
    if transport not in OPENAI_TRANSPORTS:
        raise FbagentError(f"FBAGENT_OPENAI_TRANSPORT={transport!r} is not a transport",
                           f"set it to one of: {', '.join(OPENAI_TRANSPORTS)} (or unset it for direct)")
    return transport


def _sdk_factory(base_url: str | None, api_key: str | None, timeout_s: float, mode: str) -> Any:
    """``make()`` of the SDK path's per-loop ``(openai.AsyncOpenAI, instructor client)`` pair."""
    import instructor
    import openai

    instructor_mode = {
        "json_schema": instructor.Mode.JSON_SCHEMA, "tools": instructor.Mode.TOOLS,
        "json": instructor.Mode.JSON, "md_json": instructor.Mode.MD_JSON,
    }[mode]

    def make() -> tuple[Any, Any]:  # max_retries=0: the client's retry loop (fbagent.providers) retries
        raw = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)
        raw.chat.completions.create = direct_chat_create(raw)  # type: ignore[method-assign] # same request, no per-call SDK transform
        if mode in ("json", "json_schema"):  # before instructor parses: unwrap fenced or prose-wrapped JSON
            raw.chat.completions.create = _unwrapping_json(raw.chat.completions.create)  # type: ignore[method-assign]
        return raw, instructor.from_openai(raw, mode=instructor_mode)

    return make


async def _sdk_close(pair: tuple[Any, Any]) -> None:
    await pair[0].close()


def _unwrapping_json(create: Any) -> Any:
    """Wrap ``chat.completions.create`` so that an answer that is not bare JSON (a ```json fence, prose
    around the object) has its last JSON object extracted before instructor's ``Mode.JSON`` parses it."""
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
                    message.content = extract_json_from_codeblock(content)  # type: ignore[union-attr]
                except ValueError:  # over instructor's size/nesting limits: leave it to validation
                    pass
        return response

    return unwrapped
