"""vLLM backend (GPU): all prompts of a template in ONE ``LLM.generate`` call, structured outputs.

The answer step uses vLLM structured outputs restricted to the option strings
(``choice=["1","2","3","4"]``), so the model can only emit an option number
(FrameBench, Yano and Sasano 2026, section 4). vLLM moved this API: current
releases (>= 0.12) take ``SamplingParams(structured_outputs=StructuredOutputsParams(choice=...))``;
older ones ``SamplingParams(guided_decoding=GuidedDecodingParams(choice=...))``.
:func:`choice_sampling_params` supports both.

Reasoning mode runs two batched calls: free generation with
``stop=[end_think_tag]`` and ``max_tokens=max_think_tokens`` (a ``length``
finish means the budget ran out: flagged, and the tag is appended), then the
constrained answer on prompt + thinking.

Optional extra ``gpu``; ``vllm`` is imported lazily, so this module imports
without it. ``llm`` and ``api`` can be injected (tests use fakes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fbagent.errors import FbagentError
from fbagent.providers.base import (
    DEFAULT_MAX_NEW_TOKENS,
    BackendInfo,
    ChoiceResult,
    ReasoningConfig,
    SyncBackend,
    TextResult,
    decoded_choice,
    decoded_text,
    missing_extra,
    package_version,
)
from fbagent.providers.config import (
    DEFAULT_GPU_MEMORY_UTILIZATION,
    DEFAULT_SEED,
    DEFAULT_TENSOR_PARALLEL_SIZE,
)

if TYPE_CHECKING:   # the engine's own types (follow_imports = skip in pyproject: named here, checked as opaque)
    from transformers import PreTrainedTokenizerBase
    from vllm import LLM, RequestOutput, SamplingParams


@dataclass
class VllmApi:
    """The vLLM classes this backend needs (``None`` where the installed vLLM lacks one)."""

    LLM: Any
    SamplingParams: Any
    StructuredOutputsParams: Any = None
    GuidedDecodingParams: Any = None


def load_vllm_api() -> VllmApi:
    """Import vLLM lazily. Raises :class:`FbagentError` (install hint) when it is missing."""
    try:
        import vllm
        from vllm import SamplingParams
    except ImportError as err:
        raise missing_extra("vllm", "gpu") from err
    try:
        import vllm.sampling_params as sampling
    except ImportError:
        sampling = None
    # current vLLM: StructuredOutputsParams; older releases: GuidedDecodingParams
    structured = getattr(sampling, "StructuredOutputsParams", None)
    guided = None if structured is not None else getattr(sampling, "GuidedDecodingParams", None)
    return VllmApi(LLM=vllm.LLM, SamplingParams=SamplingParams,
                   StructuredOutputsParams=structured, GuidedDecodingParams=guided)


def choice_sampling_params(api: VllmApi, choices: Sequence[str], seed: int | None = DEFAULT_SEED) -> SamplingParams:
    """Greedy ``SamplingParams`` whose output is exactly one of ``choices``.

    Uses ``structured_outputs=StructuredOutputsParams(choice=...)`` (current
    vLLM), else ``guided_decoding=GuidedDecodingParams(choice=...)`` (older).
    ``max_tokens`` covers the longest option plus one token.
    """
    common = {"temperature": 0.0, "max_tokens": max(len(c) for c in choices) + 1, "seed": seed}
    if api.StructuredOutputsParams is not None:
        return api.SamplingParams(structured_outputs=api.StructuredOutputsParams(choice=list(choices)), **common)
    if api.GuidedDecodingParams is not None:
        return api.SamplingParams(guided_decoding=api.GuidedDecodingParams(choice=list(choices)), **common)
    raise FbagentError("this vLLM has neither StructuredOutputsParams nor GuidedDecodingParams",
                       "pip install -U 'fbagent[gpu]'")


def think_sampling_params(api: VllmApi, reasoning: ReasoningConfig, seed: int | None = DEFAULT_SEED) -> SamplingParams:
    """Greedy free generation up to the end-of-thinking tag (kept in the output) or the budget."""
    return api.SamplingParams(temperature=0.0, max_tokens=reasoning.max_think_tokens,
                              stop=[reasoning.end_think_tag], include_stop_str_in_output=True, seed=seed)


def text_sampling_params(api: VllmApi, max_new_tokens: int, stop: Sequence[str],
                         seed: int | None = DEFAULT_SEED) -> SamplingParams:
    """Greedy free generation cut at ``stop``."""
    return api.SamplingParams(temperature=0.0, max_tokens=max_new_tokens, stop=[s for s in stop if s], seed=seed)


def _first(output: RequestOutput) -> tuple[str, int, str | None, int]:
    """``RequestOutput`` -> (text, n generated tokens, finish_reason, n prompt tokens)."""
    comp = output.outputs[0]
    n_out = len(getattr(comp, "token_ids", None) or [])
    n_in = len(getattr(output, "prompt_token_ids", None) or [])
    return comp.text, n_out, getattr(comp, "finish_reason", None), n_in


class VllmBackend(SyncBackend):
    """vLLM offline engine. ``default_batch_size = 0``: the runner passes a whole template at once.

    ``chat``: wrap prompts with the tokenizer's chat template (``None`` = when it has one).
    """

    name = "vllm"
    default_batch_size = 0
    #: ModelConfig fields the constructor takes (Backend.from_config)
    config_fields = ("tensor_parallel_size", "gpu_memory_utilization", "max_model_len", "chat")

    def __init__(self, model: str, *, reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED,
                 tensor_parallel_size: int = DEFAULT_TENSOR_PARALLEL_SIZE,
                 gpu_memory_utilization: float = DEFAULT_GPU_MEMORY_UTILIZATION,
                 max_model_len: int | None = None, chat: bool | None = None, dtype: str = "auto",
                 llm: LLM | None = None, api: VllmApi | None = None, engine_kwargs: dict | None = None) -> None:
        super().__init__(model, reasoning=reasoning, seed=seed)
        self.api = api or load_vllm_api()
        self.engine_options = {
            "tensor_parallel_size": tensor_parallel_size,
            "gpu_memory_utilization": gpu_memory_utilization,
            "max_model_len": max_model_len,
            "dtype": dtype,
            **(engine_kwargs or {}),
        }
        if llm is None:
            kwargs = {k: v for k, v in self.engine_options.items() if v is not None}
            llm = self.api.LLM(model=model, seed=seed, **kwargs)
        self.llm = llm
        self._tokenizer = None
        self.chat = chat
        self.generate_calls = 0  # number of LLM.generate calls (tests check batching)

    def info(self) -> BackendInfo:
        info = super().info()
        info.options = {**self.engine_options, "chat": self.chat}
        info.versions = {"vllm": package_version("vllm")}
        return info

    async def choose_batch(self, prompts: list[str], choices: Sequence[str] = ("1", "2", "3", "4")) -> list[ChoiceResult]:
        """Run ``LLM.generate`` on the calling (event-loop) thread: vLLM's engine is not moved to a worker thread."""
        return self._locked(self.choose_sync, list(prompts), tuple(choices))

    async def generate_batch(self, prompts: list[str], max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
                             stop: Sequence[str] = ("\n",)) -> list[TextResult]:
        """Free generation on the calling thread (see :meth:`choose_batch`)."""
        return self._locked(self.generate_sync, list(prompts), max_new_tokens, tuple(stop))

    def _tok(self) -> PreTrainedTokenizerBase | None:
        if self._tokenizer is None and hasattr(self.llm, "get_tokenizer"):
            self._tokenizer = self.llm.get_tokenizer()
        return self._tokenizer

    def format_prompt(self, prompt: str) -> str:
        """Apply the chat template when ``chat`` (or, with ``chat=None``, when the tokenizer has one)."""
        tok = self._tok()
        use_chat = self.chat if self.chat is not None else bool(getattr(tok, "chat_template", None))
        if use_chat and tok is not None:
            return tok.apply_chat_template([{"role": "user", "content": prompt}], tokenize=False,
                                           add_generation_prompt=True)
        return prompt

    def _generate(self, prompts: list[str], params: SamplingParams) -> list[RequestOutput]:
        self.generate_calls += 1
        return self.llm.generate(prompts, params, use_tqdm=False)

    def _think(self, texts: list[str]) -> tuple[list[str], list[tuple[str, int, bool]]]:
        outs = self._generate(texts, think_sampling_params(self.api, self.reasoning, self.seed))
        continued, infos = [], []
        for text, out in zip(texts, outs, strict=True):
            gen, n_out, finish, _ = _first(out)
            found = self.reasoning.end_think_tag in gen
            exhausted = finish == "length" and not found
            thinking = gen if found else gen + "\n" + self.reasoning.end_think_tag
            continued.append(text + thinking)
            infos.append((thinking, n_out, exhausted))
        return continued, infos

    def _answers(self, prompts: list[str], params: SamplingParams) -> list[tuple[str, dict[str, Any]]]:
        """``(raw answer, CallStats fields)`` per prompt: the formatted prompts (continued by their thinking in
        reasoning mode, one more call) generated with ``params`` in one ``generate`` call."""
        texts = [self.format_prompt(p) for p in prompts]
        infos = [("", 0, False)] * len(texts)
        if self.reasoning.enabled:
            texts, infos = self._think(texts)
        answers = []
        for out, (thinking, n_think, exhausted) in zip(self._generate(texts, params), infos, strict=True):
            raw, n_out, _, n_in = _first(out)
            answers.append((raw, {"input_tokens": n_in, "output_tokens": n_out + n_think, "thinking": thinking,
                                  "thinking_tokens": n_think, "budget_exhausted": exhausted}))
        return answers

    def choose_sync(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """All prompts in one ``generate`` call (two with reasoning), constrained to ``choices``."""
        params = choice_sampling_params(self.api, choices, self.seed)
        return [decoded_choice(raw, choices, **stats) for raw, stats in self._answers(prompts, params)]

    def generate_sync(self, prompts: list[str], max_new_tokens: int, stop: Sequence[str]) -> list[TextResult]:
        """Free generation for all prompts in one call (two with reasoning)."""
        params = text_sampling_params(self.api, max_new_tokens, stop, self.seed)
        return [decoded_text(raw, stop, **stats) for raw, stats in self._answers(prompts, params)]
