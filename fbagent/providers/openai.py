"""OpenAI-compatible chat backend (OpenAI, vLLM ``serve``, llama.cpp server, Ollama...).

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

from collections.abc import Sequence

from fbagent import providers
from fbagent.providers.base import (
    ChoiceResult,
    ConcurrentBackend,
    ReasoningConfig,
    TextResult,
    answer_json_schema,
    cut_at_stop,
    package_version,
    parse_json_answer,
    split_thinking,
)
from fbagent.providers.chat_http import Answer, ChatCompletionsHTTP, answer_of, token_count
from fbagent.providers.config import EVAL_RETRIES, EVAL_TIMEOUT_S

ANSWER_TOKENS = 32  # completion budget for the JSON answer itself


class OpenAIBackend(ConcurrentBackend):
    """Chat Completions over aiohttp (:mod:`fbagent.providers.chat_http`); one request per prompt,
    ``concurrency`` in flight. The request body is the one the openai SDK would send.

    ``base_url``: any OpenAI-compatible server (default: env ``OPENAI_BASE_URL``;
    then a missing ``OPENAI_API_KEY`` is fine). ``timeout_s``: per request,
    seconds; ``max_retries``: transport retries on 408/429/5xx/timeouts.
    ``extra_body``: server-specific request fields (e.g.
    ``{"chat_template_kwargs": {"enable_thinking": false}}`` for vLLM).
    Raises :class:`FbagentError` when no key and no server URL is given.
    """

    name = "openai"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 reasoning: ReasoningConfig | None = None, seed: int = 0, timeout_s: float = EVAL_TIMEOUT_S,
                 max_retries: int = EVAL_RETRIES, extra_body: dict | None = None) -> None:
        super().__init__(model, reasoning=reasoning, seed=seed)
        p = providers.PROVIDERS["openai"]
        base_url = providers.base_url(p, base_url)
        key = providers.api_key(p, api_key, server_url=base_url)
        self.base_url = base_url
        self.endpoint = providers.endpoint(p, base_url)
        self.timeout_s = timeout_s
        self.retry = providers.RetryPolicy(retries=max_retries)
        self.extra_body = extra_body or {}

        self._http = ChatCompletionsHTTP(base_url=base_url, api_key=key, timeout_s=timeout_s)
        import aiohttp  # noqa: F401 - imported now, not while the first requests are in flight

        import fbagent.schemas  # noqa: F401 - parse_json_answer's validator, likewise
        self._clients = self._http.sessions  # closed per loop by ConcurrentBackend.aclose_loop / close

    def info(self):
        info = super().info()
        info.options = {"base_url": providers.public_url(self.base_url), "extra_body": self.extra_body}
        info.versions = {"aiohttp": package_version("aiohttp")}
        return info

    def _budget(self, n: int) -> int:
        return n + (self.reasoning.max_think_tokens if self.reasoning.enabled else 0)

    def _body(self, prompt: str, **fields) -> dict:
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

    async def choose_one(self, prompt: str, choices: Sequence[str]) -> ChoiceResult:
        """One chat request with a strict JSON-schema response format; errors -> failure."""
        try:
            resp = await self._create(self._body(
                prompt,
                response_format={"type": "json_schema", "json_schema": {
                    "name": "four_choice_answer", "strict": True, "schema": answer_json_schema(choices)}},
                max_completion_tokens=self._budget(ANSWER_TOKENS),
            ))
        except Exception as err:  # noqa: BLE001 - API errors after the retries become a recorded failure
            return ChoiceResult(raw=None, choice=None, error=self._error(err))
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
        text = cut_at_stop(raw.strip(), stop).strip()
        return TextResult(
            text=text or None, raw=raw, error=None if text else "empty answer",
            input_tokens=token_count(answer.usage, "prompt_tokens"),
            output_tokens=token_count(answer.usage, "completion_tokens"),
            thinking=thinking, thinking_tokens=n_think,
            budget_exhausted=self.reasoning.enabled and answer.finish_reason == "length",
        )
