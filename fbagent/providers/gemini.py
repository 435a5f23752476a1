"""Gemini backend (google-genai): a JSON response schema restricts the answer to the options.

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

from collections.abc import Sequence
from typing import Any

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
)
from fbagent.providers.config import EVAL_RETRIES, EVAL_TIMEOUT_S

ANSWER_TOKENS = 32


class GeminiBackend(ConcurrentBackend):
    """google-genai async client, one request per prompt, ``concurrency`` in flight.

    ``base_url``: another endpoint root (a proxy, or the test server);
    ``retries``: tries per request in all (transport retries = ``retries - 1``).
    Raises :class:`FbagentError` for a missing key or package.
    """

    name = "gemini"
    default_concurrency = 4

    def __init__(self, model: str, *, reasoning: ReasoningConfig | None = None, seed: int = 0,
                 api_key: str | None = None, retries: int = EVAL_RETRIES + 1, base_url: str | None = None,
                 timeout_s: float = EVAL_TIMEOUT_S) -> None:
        p = providers.PROVIDERS["gemini"]
        key = providers.api_key(p, api_key)
        super().__init__(model, reasoning=reasoning, seed=seed)
        providers.require_packages(p)
        from google.genai import types

        self.types = types
        self.base_url = base_url
        self.endpoint = providers.endpoint(p, base_url)
        self.timeout_s = timeout_s
        self.retry = providers.RetryPolicy(retries=max(0, retries - 1))

        self._clients = providers.LoopClients(lambda: gemini_client(key, base_url, timeout_s), close_gemini_client)

    def info(self):
        info = super().info()
        info.options = {"base_url": providers.public_url(self.base_url)}
        info.versions = {"google-genai": package_version("google-genai")}
        return info

    def _config(self, max_tokens: int, **extra):
        t = self.types
        if self.reasoning.enabled:
            thinking = t.ThinkingConfig(thinking_budget=self.reasoning.max_think_tokens, include_thoughts=True)
            max_tokens += self.reasoning.max_think_tokens
        else:
            thinking = t.ThinkingConfig(thinking_budget=0)
        return t.GenerateContentConfig(temperature=0.0, seed=self.seed, max_output_tokens=max_tokens,
                                       thinking_config=thinking, **extra)

    @staticmethod
    def _split(resp) -> tuple[str, str, str | None]:
        """-> (answer text, thought text, finish reason name)."""
        answer, thought, finish = [], [], None
        for cand in (resp.candidates or [])[:1]:
            finish = getattr(cand.finish_reason, "name", None) if cand.finish_reason is not None else None
            for part in (cand.content.parts if cand.content and cand.content.parts else []):
                if part.text:
                    (thought if part.thought else answer).append(part.text)
        return "".join(answer), "".join(thought), finish

    @staticmethod
    def _usage(resp):
        u = resp.usage_metadata
        if u is None:
            return None, None, 0
        out = (u.candidates_token_count or 0) + (u.thoughts_token_count or 0)
        return u.prompt_token_count, out, u.thoughts_token_count or 0

    def _error(self, err: BaseException) -> str:
        """One redacted line for a failed request (:func:`fbagent.providers.describe_error`)."""
        return providers.describe_error(err, provider_name=self.name, endpoint_url=self.endpoint,
                                        timeout_s=self.timeout_s, limit=300)

    async def _generate(self, **kwargs):
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
        raw, thought, finish = self._split(resp)
        choice, error = parse_json_answer(raw, choices)
        n_in, n_out, n_think = self._usage(resp)
        return ChoiceResult(raw=raw, choice=choice, error=error, input_tokens=n_in, output_tokens=n_out,
                            thinking=thought, thinking_tokens=n_think,
                            budget_exhausted=self.reasoning.enabled and finish == "MAX_TOKENS")

    async def generate_one(self, prompt: str, max_new_tokens: int, stop: Sequence[str]) -> TextResult:
        """One free generation, cut at ``stop``."""
        try:
            resp = await self._generate(model=self.model, contents=prompt, config=self._config(max_new_tokens))
        except Exception as err:  # noqa: BLE001 - API errors after the retries become a recorded failure
            return TextResult(text=None, error=self._error(err))
        raw, thought, finish = self._split(resp)
        text = cut_at_stop(raw.strip(), stop).strip()
        n_in, n_out, n_think = self._usage(resp)
        return TextResult(text=text or None, raw=raw, error=None if text else "empty answer",
                          input_tokens=n_in, output_tokens=n_out, thinking=thought, thinking_tokens=n_think,
                          budget_exhausted=self.reasoning.enabled and finish == "MAX_TOKENS")


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
