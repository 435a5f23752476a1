"""Gemini provider (google-genai), for generation and evaluation alike: :class:`GeminiBackend`.

Generation (:meth:`GeminiBackend.create`): ``instructor.from_genai(..., Mode.JSON)``:
``response_mime_type=application/json`` with the pydantic model as ``response_schema``; a
``MAX_TOKENS`` answer is final (not re-asked with the same limit).

Evaluation: a JSON response schema restricts the answer to the options.

The request sets ``response_mime_type="application/json"`` and
``response_json_schema`` = ``{answer: "1"|"2"|"3"|"4"}`` (FrameBench, Yano and
Sasano 2026, section 4); the reply is validated with
:class:`fbagent.schemas.FourChoiceAnswer`, and a failure is recorded as such.
Reasoning: ``ThinkingConfig(thinking_budget=max_think_tokens, include_thoughts=True)``;
without reasoning the budget is 0 (models that cannot switch thinking off
answer with an error, which is counted as a failure). Transient errors are
retried by :func:`fbagent.providers.call_with_retries` (the SDK's own retries
are off).

Optional extra ``gemini``; ``google.genai`` is imported lazily. The key comes
from ``GEMINI_API_KEY`` or ``GOOGLE_API_KEY`` (:func:`fbagent.providers.api_key`)
and is never stored; error texts pass through :func:`fbagent.providers.redact`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fbagent import providers
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
)
from fbagent.providers.config import EVAL_RETRIES, EVAL_TIMEOUT_S, GENERATION, ModelConfig
from fbagent.providers.fastpath import instructor_model
from fbagent.providers.gemini_batch import GeminiBatch
from fbagent.providers.hooks import CallHooks
from fbagent.providers.structured import instructor_create
from fbagent.seeds import DEFAULT_SEED, request_seed

if TYPE_CHECKING:
    from google.genai import types
    from pydantic import BaseModel

ANSWER_TOKENS = 32
DEFAULT_MODEL = "gemini-2.5-flash"   # generation without --model


class GeminiBackend(ConcurrentBackend):
    """google-genai async client, one request per prompt, ``concurrency`` in flight.

    ``base_url``: another endpoint root (a proxy, or the test server);
    ``retries``: tries per request in all (transport retries = ``retries - 1``).
    Raises :class:`FbagentError` for a missing key or package.
    """

    name = "gemini"
    mode = "genai_json"   # generation's structured-output mode, recorded with every call
    default_concurrency = 4

    def __init__(self, model: str, *, reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED,
                 api_key: str | None = None, retries: int = EVAL_RETRIES + 1, base_url: str | None = None,
                 timeout_s: float = EVAL_TIMEOUT_S) -> None:
        p = providers.PROVIDERS["gemini"]
        key = providers.api_key(p, api_key)
        assert key is not None   # gemini has key variables: api_key raises without one
        super().__init__(model, reasoning=reasoning, seed=seed)
        providers.require_packages(p)
        from google.genai import types

        self.types = types
        self.api_key = key   # the batch client (fbagent.providers.gemini_batch) uses it too
        self.base_url = base_url
        self.endpoint = providers.endpoint(p, base_url)
        self.timeout_s = timeout_s
        self.retry = providers.RetryPolicy(retries=max(0, retries - 1))

        self._clients = providers.LoopClients(lambda: gemini_client(key, base_url, timeout_s), close_gemini_client)
        # generation's instructor clients: their own google-genai clients, whose MAX_TOKENS answers raise
        self._schema_client: Any = None   # batch_body's schema conversion (a sync client, made on first use)
        self._structured = providers.LoopClients(lambda: _structured_client(key, base_url, timeout_s),
                                                 _close_structured)

    @classmethod
    def from_config(cls, config: ModelConfig, *, use: str, api_key: str | None = None) -> GeminiBackend:
        """The provider for ``use`` from ``config`` (key: ``api_key``, else env ``GEMINI_API_KEY`` /
        ``GOOGLE_API_KEY``); generation's model defaults to :data:`DEFAULT_MODEL`. Evaluation's
        ``retries`` are transport retries (tries = retries + 1). Raises :class:`FbagentError` for a
        missing key or package."""
        assert config.timeout_s is not None and config.retries is not None   # resolved for the use
        if use == GENERATION:
            providers.require_packages(providers.PROVIDERS["gemini"])   # before the key, as generation did
            return cls(config.model or DEFAULT_MODEL, api_key=api_key, base_url=config.base_url,
                       timeout_s=config.timeout_s)
        return cls(config.model or "", reasoning=config.reasoning, seed=config.seed, api_key=api_key,
                   base_url=config.base_url, retries=config.retries + 1, timeout_s=config.timeout_s)

    async def create(self, *, response_model: type[BaseModel], messages: list[dict[str, str]], temperature: float,
                     max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
        """One structured completion (generation) through instructor's ``from_genai`` in ``Mode.JSON``."""
        _raw, client = self._structured.get()
        return await instructor_create(client, self.model, response_model, messages, temperature,
                                       max_tokens, seed, max_reasks, hooks)

    @staticmethod
    def usage(response: Any) -> tuple[int, int]:
        """``(prompt tokens, candidates + thoughts tokens)`` of a google-genai response, or of its JSON (a batch
        answer) (0 when absent)."""
        if isinstance(response, dict):
            meta_json = response.get("usage_metadata") or {}
            return (int(meta_json.get("prompt_token_count") or 0),
                    int(meta_json.get("candidates_token_count") or 0) + int(meta_json.get("thoughts_token_count") or 0))
        meta = getattr(response, "usage_metadata", None)
        if meta is None:
            return 0, 0
        out = int(getattr(meta, "candidates_token_count", 0) or 0) + int(getattr(meta, "thoughts_token_count", 0) or 0)
        return int(getattr(meta, "prompt_token_count", 0) or 0), out

    @staticmethod
    def text(response: Any) -> str:
        """The text of a google-genai response ("" without text parts)."""
        try:
            return str(response.text or "")
        except Exception:  # noqa: BLE001 - a response without text parts
            return ""

    # -- provider batches (generate --batch, eval run --batch): fbagent.providers.gemini_batch ----------------
    def batch_api(self) -> GeminiBatch:
        """Gemini batch mode for this model, at this backend's endpoint."""
        return GeminiBatch(self.model, gemini_client(self.api_key, self.base_url, self.timeout_s))

    def batch_body(self, *, response_model: type[BaseModel], messages: list[dict[str, str]], temperature: float,
                   max_tokens: int, seed: int | None) -> dict[str, Any]:
        """One generation line: the request :meth:`create` sends first, as instructor's ``from_genai``
        ``Mode.JSON`` handler prepares it (system instruction, contents, JSON mime type, the model's schema as
        google-genai converts it), as JSON: ``{"contents", "config"}``."""
        from google.genai import _transformers
        from instructor import Mode
        from instructor.v2.providers.genai.handlers import GenAIStructuredOutputsHandler

        params: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature,
                                  "max_tokens": max_tokens}
        if seed is not None:
            params["seed"] = request_seed(seed)
        prepared, kwargs = GenAIStructuredOutputsHandler(Mode.JSON).prepare_request(
            instructor_model(response_model), params)
        config = kwargs["config"]
        schema = _transformers.t_schema(self.batch_client_api(), prepared)
        config = config.model_copy(update={"response_schema": schema})
        return {"contents": [c.model_dump(mode="json", exclude_none=True) for c in kwargs["contents"]],
                "config": config.model_dump(mode="json", exclude_none=True)}

    def batch_client_api(self) -> Any:
        """The google-genai API client (Gemini Developer API, not Vertex) the schema conversion reads."""
        if self._schema_client is None:
            self._schema_client = gemini_client(self.api_key, self.base_url, self.timeout_s)
        return self._schema_client._api_client

    def batch_answer(self, response: dict[str, Any]) -> tuple[str, bool]:
        """``(text, truncated)`` of one batch answer (a ``GenerateContentResponse`` as JSON)."""
        text, _thought, finish = self._split(self._response(response))
        return text, finish == "MAX_TOKENS"

    def truncated_error(self, response: dict[str, Any]) -> Exception:
        """The exception the direct path raises for a ``MAX_TOKENS`` answer (:func:`_final_on_max_tokens`)."""
        from instructor.core.exceptions import IncompleteOutputException

        return IncompleteOutputException(last_completion=self._response(response))

    @staticmethod
    def batch_reask(body: dict[str, Any], text: str, error: Exception) -> dict[str, Any]:
        """``body`` with instructor's ``Mode.JSON`` re-ask for an answer ``text`` that failed with ``error``
        appended (a model turn naming the validation error), as the direct path re-asks."""
        turn = {"role": "model", "parts": [{"text": f"Validation Error found:\n{error}\nRecall the function "
                                                    f"correctly, fix the errors in the following attempt:\n{text}"}]}
        return {**body, "contents": [*body["contents"], turn]}

    def _response(self, response: Any) -> types.GenerateContentResponse:
        """A google-genai response from its JSON (a batch answer) or as it is."""
        if isinstance(response, dict):
            return self.types.GenerateContentResponse.model_validate(response)
        return response

    def choice_body(self, prompt: str, choices: Sequence[str]) -> dict[str, Any]:
        """The request of one constrained question (:meth:`choose_one`'s) as a batch line's JSON."""
        config = self._config(ANSWER_TOKENS, response_mime_type="application/json",
                              response_json_schema=answer_json_schema(choices))
        return {"contents": [{"role": "user", "parts": [{"text": prompt}]}],
                "config": config.model_dump(mode="json", exclude_none=True)}

    def choice_of(self, response: Any, choices: Sequence[str]) -> ChoiceResult:
        """The :class:`ChoiceResult` of an answer (a response, or a batch answer's JSON), as :meth:`choose_one`
        reads it."""
        resp = self._response(response)
        raw, thought, finish = self._split(resp)
        choice, error = parse_json_answer(raw, choices)
        n_in, n_out, n_think = self._usage(resp)
        return ChoiceResult(raw=raw, choice=choice, error=error, input_tokens=n_in, output_tokens=n_out,
                            thinking=thought, thinking_tokens=n_think,
                            budget_exhausted=self.reasoning.enabled and finish == "MAX_TOKENS")

    async def aclose(self) -> None:
        """Close the running loop's clients and any left by earlier loops (generation's end)."""
        await self.aclose_loop()
        await self._structured.aclose()
        await asyncio.to_thread(self.close)
        await asyncio.to_thread(self._structured.close_all)

    def info(self) -> BackendInfo:
        info = super().info()
        info.options = {"base_url": providers.public_url(self.base_url)}
        info.versions = {"google-genai": package_version("google-genai")}
        return info

    def _config(self, max_tokens: int, **extra: object) -> types.GenerateContentConfig:
        t = self.types
        if self.reasoning.enabled:
            thinking = t.ThinkingConfig(thinking_budget=self.reasoning.max_think_tokens, include_thoughts=True)
            max_tokens += self.reasoning.max_think_tokens
        else:
            thinking = t.ThinkingConfig(thinking_budget=0)
        return t.GenerateContentConfig(temperature=0.0, seed=self.seed, max_output_tokens=max_tokens,
                                       thinking_config=thinking, **extra)

    @staticmethod
    def _split(resp: types.GenerateContentResponse) -> tuple[str, str, str | None]:
        """-> (answer text, thought text, finish reason name)."""
        answer: list[str] = []
        thought: list[str] = []
        finish = None
        for cand in (resp.candidates or [])[:1]:
            finish = getattr(cand.finish_reason, "name", None) if cand.finish_reason is not None else None
            for part in (cand.content.parts if cand.content and cand.content.parts else []):
                if part.text:
                    (thought if part.thought else answer).append(part.text)
        return "".join(answer), "".join(thought), finish

    @staticmethod
    def _usage(resp: types.GenerateContentResponse) -> tuple[int | None, int | None, int]:
        u = resp.usage_metadata
        if u is None:
            return None, None, 0
        out = (u.candidates_token_count or 0) + (u.thoughts_token_count or 0)
        return u.prompt_token_count, out, u.thoughts_token_count or 0

    def _error(self, err: BaseException) -> str:
        """One redacted line for a failed request (:func:`fbagent.providers.describe_error`)."""
        return providers.describe_error(err, provider_name=self.name, endpoint_url=self.endpoint,
                                        timeout_s=self.timeout_s, limit=300)

    async def _generate(self, **kwargs: object) -> types.GenerateContentResponse:
        client = self.client
        return await providers.call_with_retries(lambda: client.aio.models.generate_content(**kwargs), self.retry)

    async def choose_one(self, prompt: str, choices: Sequence[str]) -> ChoiceResult:
        """One request with the JSON response schema; errors -> failure."""
        try:
            resp = await self._generate(
                model=self.model, contents=prompt,
                config=self._config(ANSWER_TOKENS, response_mime_type="application/json",
                                    response_json_schema=answer_json_schema(choices)),
            )
        except Exception as err:  # noqa: BLE001 - API errors after the retries become a recorded failure
            return ChoiceResult(raw=None, choice=None, error=self._error(err))
        return self.choice_of(resp, choices)

    async def generate_one(self, prompt: str, max_new_tokens: int, stop: Sequence[str]) -> TextResult:
        """One free generation, cut at ``stop``."""
        try:
            resp = await self._generate(model=self.model, contents=prompt, config=self._config(max_new_tokens))
        except Exception as err:  # noqa: BLE001 - API errors after the retries become a recorded failure
            return TextResult(text=None, error=self._error(err))
        raw, thought, finish = self._split(resp)
        n_in, n_out, n_think = self._usage(resp)
        return answered_text(raw, stop, input_tokens=n_in, output_tokens=n_out, thinking=thought,
                             thinking_tokens=n_think, budget_exhausted=self.reasoning.enabled and finish == "MAX_TOKENS")


# --------------------------------------------------------------------------- the engine
# The one place that constructs ``google.genai.Client``, for generation and evaluation alike: one per
# event loop (:class:`fbagent.providers.LoopClients`), the SDK's own retries off (``attempts=1``), so the
# retry loop of :func:`fbagent.providers.call_with_retries` is the only one.


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


def _structured_client(api_key: str, base_url: str | None, timeout_s: float) -> tuple[Any, Any]:
    """``(google.genai.Client, instructor client)`` for generation: a ``MAX_TOKENS`` answer is final,
    raised before instructor would re-ask it with the same limit (:func:`_final_on_max_tokens`)."""
    import instructor

    raw = gemini_client(api_key, base_url, timeout_s)
    raw.aio.models.generate_content = _final_on_max_tokens(raw.aio.models.generate_content)
    return raw, instructor.from_genai(raw, mode=instructor.Mode.JSON, use_async=True)


async def _close_structured(pair: tuple[Any, Any]) -> None:
    await close_gemini_client(pair[0])


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
