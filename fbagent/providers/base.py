"""The backend interface shared by every evaluation backend.

A backend answers two kinds of requests:

- :meth:`Backend.choose_batch`: constrained decoding to one of a few option
  strings (``"1".."4"`` for FrameBench, ``"1".."3"`` for frame identification).
  FrameBench (Yano and Sasano 2026, section 4 and appendix B) scores models on
  the option number they produce; here decoding is restricted to those
  numbers, so a well-behaved backend never produces anything else. Anything
  that still goes wrong (API error, malformed JSON) becomes a
  :class:`ChoiceResult` with ``choice=None`` and an ``error``: the runner
  counts it as a failure, never as a wrong answer.
- :meth:`Backend.generate_batch`: free generation (SemBench round trips).

Reasoning mode (:class:`ReasoningConfig`): the model first generates freely
until the end-of-thinking tag or until ``max_think_tokens`` tokens (then the
result is flagged ``budget_exhausted`` and the tag is appended), and then the
constrained answer (or the free text) is decoded after the thinking.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from fbagent.errors import FbagentError
from fbagent.providers import LoopClients, missing_package
from fbagent.providers.cancel import CallGate
from fbagent.providers.config import DEFAULT_END_THINK_TAG, ModelConfig, ReasoningConfig
from fbagent.providers.hooks import CallHooks
from fbagent.schemas import FourChoiceAnswer
from fbagent.seeds import DEFAULT_SEED, check_seed, request_seed

R = TypeVar("R", bound="CallStats")   # a result type with timing fields (ChoiceResult, TextResult)
S = TypeVar("S", bound="CallStats")

if TYPE_CHECKING:
    from pydantic import BaseModel

DEFAULT_CHOICES: tuple[str, ...] = ("1", "2", "3", "4")
DEFAULT_MAX_NEW_TOKENS = 96   # tokens of one free generation when none are asked for

# Model-name substring -> end-of-thinking tag. Checked in order; the first match wins.
END_THINK_TAGS: tuple[tuple[str, str], ...] = (
    ("magistral", "[/THINK]"),
    ("seed-oss", "</seed:think>"),
    ("qwen3", "</think>"),
    ("qwq", "</think>"),
    ("deepseek-r1", "</think>"),
    ("r1-distill", "</think>"),
    ("phi-4-reasoning", "</think>"),
    ("nemotron", "</think>"),
    ("exaone-deep", "</thought>"),
)


def end_think_tag_for(model: str | None) -> str:
    """End-of-thinking tag for ``model`` from the profile table :data:`END_THINK_TAGS`.

    Matching is a case-insensitive substring test on the model name or path;
    ``"</think>"`` when nothing matches.
    """
    name = (model or "").lower()
    for key, tag in END_THINK_TAGS:
        if key in name:
            return tag
    return DEFAULT_END_THINK_TAG


@dataclass(kw_only=True)
class CallStats:
    """What one answer of a model call cost, shared by :class:`ChoiceResult` and :class:`TextResult` (keyword-only).

    Token counts are per request (``thinking_tokens``: those of the thinking step, ``budget_exhausted``: it
    reached ``max_think_tokens``); ``latency_ms`` is the wall time of the call divided by the number of
    prompts in the batch it was part of (``batch_size``).
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    thinking: str = ""
    thinking_tokens: int = 0
    budget_exhausted: bool = False
    latency_ms: float | None = None
    batch_size: int = 1


@dataclass
class ChoiceResult(CallStats):
    """One constrained answer.

    ``raw``: the text the backend returned for the answer step (for APIs the JSON
    body); ``choice``: the option string (``"1".."4"``) or ``None`` when the
    answer failed (then ``error`` says why); ``option_probs``: the options'
    probabilities where the backend reads them. Costs: :class:`CallStats`.
    """

    raw: str | None
    choice: str | None
    error: str | None = None
    option_probs: dict[str, float] | None = None


@dataclass
class TextResult(CallStats):
    """One free generation: ``text`` is the answer after any thinking, cut at the stop strings. Costs: :class:`CallStats`."""

    text: str | None
    raw: str | None = None
    error: str | None = None


@dataclass
class BackendInfo:
    """What the run manifest records about a backend."""

    name: str
    model: str
    options: dict = field(default_factory=dict)
    versions: dict = field(default_factory=dict)


def validate_choice(text: str | None, choices: Sequence[str]) -> str | None:
    """Return ``text`` stripped when it is exactly one of ``choices``, else ``None``."""
    if text is None:
        return None
    text = text.strip()
    return text if text in choices else None


def decoded_choice(raw: str, choices: Sequence[str], **stats: Any) -> ChoiceResult:
    """A local engine's constrained output ``raw`` as a :class:`ChoiceResult`: ``choice`` is ``raw`` stripped when it
    is one of ``choices``, else ``None`` with the error "output '...' is not an option". ``stats``: :class:`CallStats`
    fields (a wrong name raises ``TypeError``)."""
    choice = validate_choice(raw, choices)
    return ChoiceResult(raw=raw, choice=choice, error=None if choice else f"output {raw!r} is not an option", **stats)


def decoded_text(raw: str, stop: Sequence[str], **stats: Any) -> TextResult:
    """A local engine's free output ``raw`` as a :class:`TextResult`: ``text`` is ``raw`` cut at the first of
    ``stop`` and stripped (``""`` when nothing is left; never an error). ``stats``: :class:`CallStats` fields."""
    return TextResult(text=cut_at_stop(raw, stop).strip(), raw=raw, **stats)


def answered_text(raw: str, stop: Sequence[str], **stats: Any) -> TextResult:
    """A remote API's free answer ``raw`` as a :class:`TextResult`: stripped, cut at the first of ``stop``, stripped
    again; nothing left is a failure (``text=None``, error "empty answer"). ``stats``: :class:`CallStats` fields."""
    text = cut_at_stop(raw.strip(), stop).strip()
    return TextResult(text=text or None, raw=raw, error=None if text else "empty answer", **stats)


def parse_json_answer(text: str | None, choices: Sequence[str]) -> tuple[str | None, str | None]:
    """Parse an API answer ``{"answer": "3"}`` -> ``(choice, error)``.

    For the four FrameBench options the object is validated with
    :class:`fbagent.schemas.FourChoiceAnswer`; for other option sets the
    value must be one of ``choices``. Never raises.
    """
    if text is None or not text.strip():
        return None, "empty answer"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        return None, f"answer is not JSON ({err.msg})"
    if not isinstance(obj, dict) or "answer" not in obj:
        return None, "answer JSON has no 'answer' field"
    value = unicodedata.normalize("NFKC", str(obj["answer"])).strip()
    if tuple(choices) == DEFAULT_CHOICES:
        try:
            value = FourChoiceAnswer(answer=value).answer
        except ValidationError:
            return None, f"answer {value!r} is not one of {list(choices)}"
    if value not in choices:
        return None, f"answer {value!r} is not one of {list(choices)}"
    return value, None


_NUMBER = re.compile(r"\d+")
_BARE = re.compile(r"^[(\[]?\s*(\d+)\s*[)\]]?\s*[.。]?$")
_AT_END = re.compile(r"(?<![\w.])(\d+)\s*[)\]]?\s*[.。!]?$")


def parse_free_text(text: str | None, choices: Sequence[str]) -> str | None:
    """An option number read from a free-text answer, or ``None`` (``--parse-free-text``).

    The text is NFKC-normalised (full-width digits become ASCII); a JSON
    object's ``answer`` string is read instead when the text is one. Accepted:
    a bare option number (``"2"``, ``"(2)"``, ``"[2]"``, ``"2."``) or one
    anchored at the end (``"Answer: 2"``, ``"The answer is 2."``, ``"... (2)"``).
    Text holding two or more numbers (``"1 or 2"``, ``"Sentence 1 ... 2"``) or
    a number that is not an option stays a failure: ``None``. Never raises.
    """
    if not text:
        return None
    norm = unicodedata.normalize("NFKC", text).strip()
    try:
        obj = json.loads(norm)
    except json.JSONDecodeError:
        obj = None
    if isinstance(obj, dict) and isinstance(obj.get("answer"), str | int):
        norm = str(obj["answer"]).strip()
    if len(_NUMBER.findall(norm)) != 1:
        return None
    m = _BARE.match(norm) or _AT_END.search(norm)
    if m is None:
        return None
    value = str(int(m.group(1)))
    return value if value in choices else None


def answer_json_schema(choices: Sequence[str]) -> dict:
    """JSON schema ``{answer: "1"|"2"|...}`` used by the API backends (strict, no extra keys)."""
    return {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": list(choices)}},
        "required": ["answer"],
        "additionalProperties": False,
    }


def split_thinking(text: str, tag: str) -> tuple[str, str, bool]:
    """Split generated text at the end-of-thinking ``tag``.

    Returns ``(thinking including the tag, text after the tag, tag_found)``;
    when the tag is absent the whole text is thinking and ``tag_found`` is False.
    """
    idx = text.find(tag)
    if idx < 0:
        return text, "", False
    end = idx + len(tag)
    return text[:end], text[end:], True


def cut_at_stop(text: str, stop: Sequence[str]) -> str:
    """Cut ``text`` at the first occurrence of any stop string (stop strings excluded)."""
    cut = len(text)
    for s in stop:
        if s:
            i = text.find(s)
            if 0 <= i < cut:
                cut = i
    return text[:cut]


class Backend(ABC):
    """The one provider protocol: a model behind one engine, for every call fbagent makes of a model.

    A provider is one class in one module of :mod:`fbagent.providers` (``openai.py``, ``gemini.py``,
    ``local.py``, ``vllm.py``, ``transformers.py``) plus one line in the registry
    (:data:`fbagent.providers.names.PROVIDERS`); :meth:`from_config` builds it, and its engine, once
    from a :class:`~fbagent.providers.config.ModelConfig` (:func:`fbagent.providers.registry.create_provider`).

    - evaluation: :meth:`choose_batch` (constrained to a few option strings) and :meth:`generate_batch`
      (free text), plus :meth:`info` for the manifest;
    - generation (providers whose registry line names the ``generation`` use): :meth:`create`, one
      structured completion validated against a pydantic model (instructor's protocol), with
      :meth:`usage` / :meth:`text` reading the raw response, ``mode`` (recorded with every call) and
      ``base_url``; :class:`fbagent.llm.client.LLMClient` adds caching, retries and logging;
    - :meth:`aclose_loop` / :meth:`close` (evaluation) and :meth:`aclose` (generation) release it.

    ``default_batch_size``: how many prompts the runner hands over per call
    (``0`` = all prompts of a template in one call, as vLLM wants);
    ``default_concurrency``: how many calls the runner keeps in flight;
    ``requested_batch_size``: the batch size the user asked for (``--batch-size``; ``None``: none), set by
    the runner, for an engine that cuts the prompts of a call into batches itself (transformers).
    """

    name = "backend"
    mode = "none"            # the structured-output mode recorded with each generation call
    base_url: str | None = None
    default_batch_size = 1
    requested_batch_size: int | None = None
    default_concurrency = 1
    groups_in_turn = True  # the runner finishes one template before the next (batch engines: a template per batch)

    def __init__(self, model: str, reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED) -> None:
        self.model = model
        self.reasoning = reasoning or ReasoningConfig()
        self.seed = request_seed(check_seed(seed))  # what the engine or server is sent (see fbagent.seeds)

    #: the :class:`~fbagent.providers.config.ModelConfig` fields the constructor takes as keywords of
    #: the same name (besides ``model``, ``reasoning`` and ``seed``), for the default :meth:`from_config`
    config_fields: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, config: ModelConfig, *, use: str, api_key: str | None = None) -> Backend:
        """Build this provider (and its engine, once) for ``use`` (``generation`` | ``evaluation``) from
        ``config`` (request limits already resolved for the use). This default calls
        ``cls(config.model, reasoning=..., seed=..., **{field: config.field for field in config_fields})``;
        providers with keys, URLs or defaults of their own override it. Raises :class:`FbagentError`
        for what is missing (a key, a package, a model file)."""
        fields = {name: getattr(config, name) for name in cls.config_fields}
        return cls(config.model or "", reasoning=config.reasoning, seed=config.seed, **fields)

    @abstractmethod
    async def choose_batch(self, prompts: list[str], choices: Sequence[str] = DEFAULT_CHOICES) -> list[ChoiceResult]:
        """Constrained answers, one per prompt, in order. Never raises for a per-prompt failure."""

    @abstractmethod
    async def generate_batch(self, prompts: list[str], max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
                             stop: Sequence[str] = ("\n",)) -> list[TextResult]:
        """Free generations, one per prompt, in order, cut at ``stop``."""

    async def create(self, *, response_model: type[BaseModel], messages: list[dict[str, str]], temperature: float,
                     max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
        """One structured completion of ``messages`` validated as ``response_model`` (re-asked at most
        ``max_reasks`` times with the validation error); ``hooks`` see every raw response. Raises the
        transport's errors (the client retries the transient ones) and :class:`FbagentError` for a
        provider that serves evaluation only."""
        raise FbagentError(f"the {self.name} backend serves evaluation only, not generation",
                           "pick a generation backend (--generator openai | gemini | local)")

    @staticmethod
    def usage(response: Any) -> tuple[int, int]:
        """``(prompt tokens, completion tokens)`` of a raw response of :meth:`create` (0 when absent)."""
        return 0, 0

    @staticmethod
    def text(response: Any) -> str:
        """The answer text of a raw response of :meth:`create` (for the call log)."""
        return ""

    def info(self) -> BackendInfo:
        """Backend name, model, options and library versions for the manifest."""
        return BackendInfo(name=self.name, model=self.model)

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (models, clients)."""

    async def aclose_loop(self) -> None:  # noqa: B027 - optional hook
        """Release what belongs to the running event loop (API clients); called before the loop ends."""

    async def aclose(self) -> None:
        """Release everything at the end of a generation run: the running loop's clients, then the rest."""
        await self.aclose_loop()
        await asyncio.to_thread(self.close)


class SyncBackend(Backend):
    """A backend whose work is synchronous (a local model in this process).

    Calls run in a worker thread, one at a time (:class:`fbagent.providers.cancel.CallGate`: llama.cpp
    and transformers models are not safe to call from two threads). A cancelled batch (Ctrl-C) sets
    its flag, which the engine can ask between steps (:meth:`aborted`; llama.cpp does it inside every
    decode), and a batch still queued never starts.
    """

    def __init__(self, model: str, reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED) -> None:
        super().__init__(model, reasoning=reasoning, seed=seed)
        self._gate = CallGate()

    def aborted(self) -> bool:
        """Whether the batch running now has been cancelled (for the engine's abort checks)."""
        return self._gate.aborted()

    @abstractmethod
    def choose_sync(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """Synchronous constrained answers."""

    @abstractmethod
    def generate_sync(self, prompts: list[str], max_new_tokens: int, stop: Sequence[str]) -> list[TextResult]:
        """Synchronous free generations."""

    def _timed(self, fn: Callable[..., list[R]], *args: object) -> list[R]:
        start = time.perf_counter()
        results = fn(*args)
        elapsed = (time.perf_counter() - start) * 1000.0
        for r in results:
            if r.latency_ms is None:
                r.latency_ms = elapsed / max(1, len(results))
                r.batch_size = len(results)
        return results

    def _locked(self, fn: Callable[..., list[R]], *args: object) -> list[R]:
        with self._gate.lock:
            return self._timed(fn, *args)

    async def choose_batch(self, prompts: list[str], choices: Sequence[str] = DEFAULT_CHOICES) -> list[ChoiceResult]:
        return await self._gate.call(self._timed, self.choose_sync, list(prompts), tuple(choices))

    async def generate_batch(self, prompts: list[str], max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
                             stop: Sequence[str] = ("\n",)) -> list[TextResult]:
        return await self._gate.call(self._timed, self.generate_sync, list(prompts), max_new_tokens, tuple(stop))


class ConcurrentBackend(Backend):
    """A backend that sends one request per prompt (APIs); a batch runs its requests concurrently.

    Subclasses set ``self._clients`` to a :class:`fbagent.providers.LoopClients`
    (one API client per event loop, closed by :meth:`aclose_loop` / :meth:`close`).
    """

    default_concurrency = 8
    groups_in_turn = False  # one request per prompt: every template's requests share the slots, no barrier
    _clients: LoopClients | None = None  # set by API subclasses; scripted test backends have none

    @property
    def client(self) -> Any:
        """The API client of the running event loop (an async HTTP session cannot move between loops)."""
        if self._clients is None:
            raise RuntimeError(f"{type(self).__name__} has no API client")
        return self._clients.get()

    async def aclose_loop(self) -> None:
        """Close the running loop's API client."""
        if self._clients is not None:
            await self._clients.aclose()

    def close(self) -> None:
        """Close API clients whose loop ended without :meth:`aclose_loop`."""
        if self._clients is not None:
            self._clients.close_all()

    @abstractmethod
    async def choose_one(self, prompt: str, choices: Sequence[str]) -> ChoiceResult:
        """One constrained answer; must catch its own errors into ``ChoiceResult.error``."""

    @abstractmethod
    async def generate_one(self, prompt: str, max_new_tokens: int, stop: Sequence[str]) -> TextResult:
        """One free generation; must catch its own errors into ``TextResult.error``."""

    async def choose_batch(self, prompts: list[str], choices: Sequence[str] = DEFAULT_CHOICES) -> list[ChoiceResult]:
        return list(await asyncio.gather(*(self._timed(self.choose_one(p, tuple(choices))) for p in prompts)))

    async def generate_batch(self, prompts: list[str], max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
                             stop: Sequence[str] = ("\n",)) -> list[TextResult]:
        return list(await asyncio.gather(*(self._timed(self.generate_one(p, max_new_tokens, tuple(stop))) for p in prompts)))

    @staticmethod
    async def _timed(coro: Awaitable[S]) -> S:
        start = time.perf_counter()
        result = await coro
        if result.latency_ms is None:
            result.latency_ms = (time.perf_counter() - start) * 1000.0
        return result


def package_version(dist: str) -> str | None:
    """Installed version of a distribution, or None."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def missing_extra(package: str, extra: str) -> FbagentError:
    """The one-line error for a backend whose optional dependency is not installed
    (:func:`fbagent.providers.missing_package`)."""
    return missing_package(package, extra)
