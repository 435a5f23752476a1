"""How to reach one model, for generation and evaluation alike: :class:`ModelConfig`, and every
default it has, each declared once as a named constant below.

``fbagent generate`` / ``fbagent verifier calibrate`` build their clients with
:func:`fbagent.llm.make_client` and ``fbagent eval`` its backend with
:func:`fbagent.providers.registry.create_backend`; both take a :class:`ModelConfig`. Two request
limits differ by use (:data:`GENERATION`, :data:`EVALUATION`), for the reason given at each
constant: a :class:`ModelConfig` leaves them ``None`` unless they are given, and each factory
fills them in with :meth:`ModelConfig.resolved`. :func:`model_config` builds one for one use from
keywords, old spellings too (:data:`OLD_SPELLINGS`).

Imports only the standard library and fbagent's own checks (cheap: the CLI reads the constants
for its defaults).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from fbagent.errors import FbagentError
from fbagent.limits import check_count
from fbagent.providers.names import EVALUATION, GENERATION, USES, check_base_url  # noqa: F401 - USES re-exported
from fbagent.seeds import DEFAULT_SEED  # noqa: F401 - re-exported for the CLI

DEFAULT_BACKEND = "local"              # transformers + llguidance on the offline GGUF: no network, no key, no compiler
DEFAULT_CONCURRENCY = 4                # requests in flight per client
DEFAULT_BACKOFF_S = 1.0                # first retry backoff, seconds, doubled per retry
MAX_BACKOFF_S = 60.0                   # the longest wait between two tries, seconds (Retry-After included)
DEFAULT_N_CTX = 4096                   # llama.cpp context window (prompt + answer), tokens
#: a client's prompt style when none is given (fbagent.providers.prompt_style): messages through the chat
#: template. `fbagent generate` asks for ``auto`` and resolves it per model before building a client.
CLIENT_PROMPT_STYLE = "chat"
#: a run's prompt style when none is given (``generate``, ``verifier calibrate``): ``auto``, resolved per
#: model by fbagent.providers.prompt_style.resolve_prompt_style (``fewshot`` for a GGUF without a chat template,
#: else ``chat``)
DEFAULT_PROMPT_STYLE = "auto"
DEFAULT_TENSOR_PARALLEL_SIZE = 1       # vLLM: GPUs
DEFAULT_GPU_MEMORY_UTILIZATION = 0.9   # vLLM: fraction of GPU memory
DEFAULT_DEVICE = "auto"                # transformers: torch device (auto: cuda, then mps, then cpu)
DEFAULT_DTYPE = "auto"                 # transformers: weights' dtype (auto: bf16 on a GPU that has it, else the model's)
#: transformers ``--dtype`` spellings -> torch dtype names ("auto": see DEFAULT_DTYPE)
DTYPES = {"auto": "auto", "float32": "float32", "fp32": "float32", "bfloat16": "bfloat16", "bf16": "bfloat16",
          "float16": "float16", "fp16": "float16", "half": "float16"}
DEFAULT_END_THINK_TAG = "</think>"
DEFAULT_MAX_THINK_TOKENS = 1024        # reasoning mode: thinking budget, tokens

#: generation: retries per LLM call, counted twice over: re-asks after an invalid structured answer
#: and, separately, transport retries (429/5xx/timeouts). Its answers are short JSON objects.
GENERATION_RETRIES = 3
#: evaluation: transport retries per request (408/429/5xx/timeouts). An evaluation run sends tens of
#: thousands of requests and one lost answer counts as wrong, so it tries once more than generation.
EVAL_RETRIES = 4
#: generation: seconds per request; a structured answer of at most a few hundred tokens.
GENERATION_TIMEOUT_S = 60.0
#: generation: tokens per structured answer at most (``generate``'s ``max_tokens``)
GENERATION_MAX_TOKENS = 512
#: generation: sampling temperature of entries k >= 1 of a pair (k = 0 is greedy)
GENERATION_VARIANT_TEMPERATURE = 0.8
#: evaluation: seconds per request; in reasoning mode a model thinks first (up to the thinking budget,
#: :data:`DEFAULT_MAX_THINK_TOKENS` by default), which takes longer than a generation answer.
EVAL_TIMEOUT_S = 120.0

#: use -> (retries, timeout_s) that :meth:`ModelConfig.resolved` fills in
USE_DEFAULTS: dict[str, tuple[int, float]] = {
    GENERATION: (GENERATION_RETRIES, GENERATION_TIMEOUT_S),
    EVALUATION: (EVAL_RETRIES, EVAL_TIMEOUT_S),
}

#: old keyword spellings (of the settings types before ModelConfig) -> the ModelConfig field
OLD_SPELLINGS = {"max_retries": "retries", "timeout": "timeout_s"}


@dataclass(frozen=True)
class ReasoningConfig:
    """Reasoning mode (evaluation): ``enabled``, the ``end_think_tag`` and the thinking budget in tokens."""

    enabled: bool = False
    end_think_tag: str = DEFAULT_END_THINK_TAG
    max_think_tokens: int = DEFAULT_MAX_THINK_TOKENS


@dataclass(frozen=True)
class ModelConfig:
    """How to reach one model, for generation and evaluation alike; each backend reads the fields it knows.

    - ``backend``: provider name (:mod:`fbagent.providers.names`; generation: ``openai`` | ``gemini`` |
      ``local``; evaluation also ``vllm`` | ``transformers``; alias ``llamacpp`` = ``local``);
    - ``model``: model name (API), model folder (vllm, transformers) or GGUF (local); ``None``: the
      backend's default where it has one;
    - ``base_url``: server URL (``openai``: else env ``OPENAI_BASE_URL``; ``gemini``: another endpoint);
      ``base_urls``: every URL of an ``openai`` backend over several servers (``base_url`` is the first);
    - ``model_path``: GGUF file (``local``; default: the offline Gemma 3 270M GGUF);
    - ``concurrency``: requests in flight at most (generation's client);
    - ``retries``: retries per request (see :data:`GENERATION_RETRIES`, :data:`EVAL_RETRIES`);
      ``timeout_s``: seconds per HTTP request; both ``None``: the use's default
      (:meth:`resolved`, :data:`USE_DEFAULTS`);
    - ``backoff_s``: first retry backoff, seconds, doubled per retry (generation's client);
    - ``n_ctx``: llama.cpp context, tokens;
    - ``prompt_style`` (generation, ``local``): ``chat`` | ``fewshot`` | ``auto``
      (:mod:`fbagent.providers.prompt_style`);
    - vLLM: ``tensor_parallel_size`` (GPUs), ``gpu_memory_utilization`` (fraction), ``max_model_len``
      (tokens); transformers: ``device`` (torch device or ``auto``), ``dtype`` (:data:`DTYPES`);
    - ``chat`` (evaluation): wrap prompts in the chat template (``None``: the backend's default);
    - ``seed``; ``extra_body``: extra request fields (evaluation, ``openai``);
    - ``reasoning`` (evaluation): thinking settings (:class:`ReasoningConfig`).

    Build one directly, or with :func:`model_config` (old keyword spellings too). Nothing is checked
    or loaded here: :meth:`check` checks the request limits and the URL; the factories check the rest.
    """

    backend: str = DEFAULT_BACKEND
    model: str | None = None
    base_url: str | None = None
    model_path: str | None = None
    #: every server URL when there are several (``base_url`` is the first): requests are spread over them
    #: (:class:`fbagent.providers.chat_http.EndpointPool`); ``()`` with one server
    base_urls: tuple[str, ...] = ()
    concurrency: int = DEFAULT_CONCURRENCY
    retries: int | None = None
    timeout_s: float | None = None
    backoff_s: float = DEFAULT_BACKOFF_S
    n_ctx: int = DEFAULT_N_CTX
    prompt_style: str = CLIENT_PROMPT_STYLE
    tensor_parallel_size: int = DEFAULT_TENSOR_PARALLEL_SIZE
    gpu_memory_utilization: float = DEFAULT_GPU_MEMORY_UTILIZATION
    max_model_len: int | None = None
    device: str = DEFAULT_DEVICE
    dtype: str = DEFAULT_DTYPE
    chat: bool | None = None
    seed: int = DEFAULT_SEED
    extra_body: dict = field(default_factory=dict)
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)

    def resolved(self, use: str) -> ModelConfig:
        """This config with ``retries`` and ``timeout_s`` that were left ``None`` set to ``use``'s defaults
        (:data:`USE_DEFAULTS`; ``use``: :data:`GENERATION` | :data:`EVALUATION`). Raises ``KeyError``
        for another use."""
        retries, timeout_s = USE_DEFAULTS[use]
        return replace(self, retries=retries if self.retries is None else self.retries,
                       timeout_s=timeout_s if self.timeout_s is None else self.timeout_s)

    def check(self) -> None:
        """Raise :class:`FbagentError` for an impossible base URL (:func:`fbagent.providers.check_base_url`)
        or request limit (:func:`check_request_limits`); the values left ``None`` are fine."""
        for url in (self.base_url, *self.base_urls):
            check_base_url(url)
        check_request_limits(self.concurrency, self.retries, self.timeout_s)


def model_config(use: str = GENERATION, /, **fields: Any) -> ModelConfig:
    """A :class:`ModelConfig` from keyword fields, new or old spelling (:data:`OLD_SPELLINGS`:
    ``max_retries`` = ``retries``, ``timeout`` = ``timeout_s``), resolved for ``use``
    (:meth:`ModelConfig.resolved`). Raises ``TypeError`` for an unknown field or one given twice."""
    for old, new in OLD_SPELLINGS.items():
        if old in fields:
            if new in fields:
                raise TypeError(f"{old}= and {new}= name the same field; pass {new}= only")
            fields[new] = fields.pop(old)
    return ModelConfig(**fields).resolved(use)


def check_request_limits(concurrency: int | None, retries: int | None, timeout_s: float | None) -> None:
    """Raise :class:`FbagentError` for requests in flight or retries outside their ranges
    (:data:`fbagent.limits.COUNTS`: ``--concurrency``, ``--llm-retries``) or a timeout that is not a
    positive finite number of seconds; ``None`` (not given) is fine."""
    check_count("--concurrency", concurrency)
    check_count("--llm-retries", retries)
    if timeout_s is not None and not (timeout_s > 0 and math.isfinite(timeout_s)):
        raise FbagentError(f"--timeout must be a positive number of seconds, got {timeout_s}",
                           f"pass --timeout {GENERATION_TIMEOUT_S:g} (seconds per LLM request)")
