"""Hugging Face transformers backend: true constrained decoding over the option tokens.

The answer step is ONE forward pass of the prompt that keeps only the last position's logits
(``logits_to_keep=1``; a model that does not take it gives all positions and the last is read), restricted
to the option tokens (FrameBench, Yano and Sasano 2026, section 4: the model's choice among the numbered
options). Every vocabulary token that decodes to an option, with or without a leading space (``"1"``,
``" 1"``), is an option token of that label (:func:`label_token_ids`). The CHOICE is the label with the
largest summed probability over its tokens (not the single most likely token: a label split over ``"1"``
and ``" 1"`` can outweigh another label's one token), and ``option_probs`` are those sums renormalised
over the labels. This equals ``model.generate(max_new_tokens=1)`` with :class:`AllowedTokensLogitsProcessor`
(the softmax of the masked logits is the softmax over the option tokens; positions from the attention mask
as ``generate`` makes them), the method of earlier versions, kept as
:meth:`TransformersBackend.choose_by_generate` and asserted equal in the tests (choices, and probabilities
within 1e-5 in fp32), without a decoding loop, a KV cache or logits for every position.

Batching: prompts are tokenized once, sorted by length and cut into batches (so a batch pads to prompts of
about its own length; results come back in the order given); the batch size is the runner's
(``--batch-size``) or, by default (the runner hands a whole template), as many prompts as fit a token
budget sized from the device's free memory (:func:`token_budget`).

Device and dtype: ``device="auto"`` is CUDA, then Apple's MPS, then the CPU (:func:`resolve_device`);
``dtype="auto"`` is bfloat16 on a GPU that has it, else the dtype the model was saved in
(:func:`resolve_dtype`). The model loads in a background thread from the moment the backend is built, so
that reading the dataset and preparing the prompts overlap it. torch and transformers are imported lazily.
Models load only from local folders or the local Hugging Face cache (nothing is downloaded).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from fbagent.errors import FbagentError
from fbagent.providers.base import (
    BackendInfo,
    ChoiceResult,
    ReasoningConfig,
    SyncBackend,
    TextResult,
    decoded_text,
    package_version,
    split_thinking,
)
from fbagent.providers.config import DEFAULT_SEED, DTYPES

if TYPE_CHECKING:   # the engines' own types (follow_imports = skip in pyproject: named here, checked as opaque)
    import torch
    from transformers import (
        LogitsProcessor,
        PretrainedConfig,
        PreTrainedModel,
        PreTrainedTokenizerBase,
    )


def _logits_processor_class() -> type[LogitsProcessor]:
    from transformers import LogitsProcessor

    class AllowedTokensLogitsProcessor(LogitsProcessor):
        """Keep only ``allowed_ids`` (list of token ids): every other logit becomes ``-inf``."""

        def __init__(self, allowed_ids: Sequence[int]) -> None:
            self.allowed_ids = list(allowed_ids)

        def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
            import torch

            mask = torch.full_like(scores, float("-inf"))
            mask[:, self.allowed_ids] = 0.0
            return scores + mask

    return AllowedTokensLogitsProcessor


def allowed_tokens_processor(allowed_ids: Sequence[int]) -> LogitsProcessor:
    """A ``transformers.LogitsProcessor`` that masks all logits except ``allowed_ids``."""
    return _logits_processor_class()(allowed_ids)


def label_token_ids(tokenizer: PreTrainedTokenizerBase, choices: Sequence[str]) -> dict[int, str]:
    """Token id -> option for EVERY vocabulary token that decodes to an option, with or without
    one leading space (``"1"``, ``" 1"``); one decode of the whole vocabulary (cache the result).

    Raises :class:`FbagentError` when an option has no such token.
    """
    wanted = {c: c for c in choices} | {" " + c: c for c in choices}
    ids = list(range(len(tokenizer)))
    special = set(tokenizer.all_special_ids)
    texts = tokenizer.batch_decode([[i] for i in ids], skip_special_tokens=False,
                                   clean_up_tokenization_spaces=False)
    mapping = {i: wanted[t] for i, t in zip(ids, texts, strict=True) if t in wanted and i not in special}
    missing = [c for c in choices if c not in mapping.values()]
    if missing:
        raise FbagentError(
            f"the tokenizer has no single token for the option(s) {missing}",
            "use a model whose vocabulary has the digits 1-4 as tokens, or another backend",
        )
    return mapping


def choose_label(label_probs: dict[str, float], choices: Sequence[str]) -> tuple[str, dict[str, float]]:
    """The label with the largest summed probability (ties: the earlier option) and the label
    probabilities renormalised to sum to 1 (``{"1": 0.6, "2": 0.4, ...}``, every option present)."""
    probs = {c: float(label_probs.get(c, 0.0)) for c in choices}
    total = sum(probs.values())
    norm = {c: (v / total if total > 0 else 1.0 / len(probs)) for c, v in probs.items()}
    best = max(choices, key=lambda c: (norm[c], -list(choices).index(c)))
    return best, norm


def option_token_ids(tokenizer: PreTrainedTokenizerBase, choices: Sequence[str]) -> dict[int, str]:
    """Token id -> option string for every single-token spelling of each option.

    Spellings: the option itself (``"1"``) and with a leading space (``" 1"``).
    Raises :class:`FbagentError` when an option has no single-token spelling.
    """
    mapping: dict[int, str] = {}
    unk = tokenizer.unk_token_id
    for choice in choices:
        found = False
        for text in (choice, " " + choice):
            ids = tokenizer.encode(text, add_special_tokens=False)
            if len(ids) == 1 and ids[0] != unk:
                mapping.setdefault(ids[0], choice)
                found = True
        tid = tokenizer.convert_tokens_to_ids(choice)
        if isinstance(tid, int) and tid != unk and tid is not None and tid >= 0:
            mapping.setdefault(tid, choice)
            found = True
        if not found:
            raise FbagentError(
                f"the tokenizer has no single token for the option {choice!r}",
                "use a model whose vocabulary has the digits 1-4 as tokens, or another backend",
            )
    return mapping


#: share of the device's free memory that one batch's activations may take (the rest: the allocator's
#: fragmentation, the attention's workspace, other processes)
MEMORY_FRACTION = 0.5
#: the most prompts in one batch: on a GPU more gains nothing (the bound is reached at a few hundred); on
#: a CPU a forward pass is compute-bound from a few prompts on, and a smaller batch keeps Ctrl-C prompt
MAX_BATCH = {"cuda": 512, "mps": 64, "cpu": 16}


def resolve_device(device: str | None) -> str:
    """The torch device of ``device``: ``"auto"`` (or None) is ``cuda`` when a CUDA GPU is visible, else
    ``mps`` (Apple silicon), else ``cpu``; any other value is returned as given (``cuda:1``)."""
    if device not in (None, "", "auto"):
        return str(device)
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def resolve_dtype(dtype: str | None, device: str) -> torch.dtype | str:
    """The ``dtype`` argument of ``from_pretrained`` for ``dtype`` on ``device``: ``"auto"`` (or None) is
    ``torch.bfloat16`` on a CUDA GPU that supports it, else ``"auto"`` (the dtype the checkpoint was saved
    in); ``float32`` / ``bfloat16`` / ``float16`` (or ``fp32``, ``bf16``, ``fp16``) that torch dtype.

    Raises :class:`FbagentError` for another name.
    """
    import torch

    name = DTYPES.get(str(dtype or "auto").lower())
    if name is None:
        raise FbagentError(f"unknown dtype {dtype!r}", f"pass --dtype {' | '.join(sorted(set(DTYPES.values())))}")
    if name != "auto":
        return getattr(torch, name)
    if device.startswith("cuda") and torch.cuda.is_available() and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return "auto"


def free_memory_bytes(device: str) -> int:
    """Free memory of ``device`` in bytes: CUDA's ``mem_get_info``; MPS: the recommended working set
    less what is allocated; the CPU: ``MemAvailable`` (``/proc/meminfo``), else the free physical pages."""
    import torch

    if device.startswith("cuda"):
        return int(torch.cuda.mem_get_info(torch.device(device))[0])
    if device.startswith("mps"):
        return int(torch.mps.recommended_max_memory() - torch.mps.current_allocated_memory())
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))


def bytes_per_token(config: PretrainedConfig, element_bytes: int, length: int) -> int:
    """Peak activation bytes a prompt token costs in one layer of a forward pass without a KV cache:
    the hidden state and its attention projections (8 x hidden), the MLP's (4 x intermediate) and the
    attention scores of an implementation that materialises them (heads x ``length``), at
    ``element_bytes`` each. An upper estimate: layers run one after another, so one layer's worth counts."""
    hidden = int(getattr(config, "hidden_size", 1024) or 1024)
    inter = int(getattr(config, "intermediate_size", 4 * hidden) or 4 * hidden)
    heads = int(getattr(config, "num_attention_heads", 16) or 16)
    return element_bytes * (8 * hidden + 4 * inter + heads * max(1, length))


def token_budget(free_bytes: int, config: PretrainedConfig, element_bytes: int, length: int) -> int:
    """Prompt tokens (padded) one batch may hold: :data:`MEMORY_FRACTION` of ``free_bytes`` over
    :func:`bytes_per_token` (at least ``length``: one prompt always runs)."""
    return max(length, int(MEMORY_FRACTION * free_bytes / bytes_per_token(config, element_bytes, length)))


def length_batches(lengths: Sequence[int], max_prompts: int, budget_tokens: int | None) -> list[list[int]]:
    """Indices of ``lengths`` sorted by length (stable) and cut into batches of at most ``max_prompts``
    whose padded size (prompts x longest) stays within ``budget_tokens`` (None: no token limit)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = max(lengths[i], lengths[current[-1]] if current else 0)
        if current and (len(current) >= max_prompts
                        or (budget_tokens is not None and (len(current) + 1) * longest > budget_tokens)):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches

class TransformersBackend(SyncBackend):
    """Local transformers model: constrained choices by one forward pass, free text by ``generate``.

    Pass ``model`` (a local folder or cached hub name; loaded in a background thread from here on) or
    ready ``model_obj`` and ``tokenizer`` objects (tests). ``device``: ``auto`` | a torch device;
    ``dtype``: ``auto`` | ``float32`` | ``bfloat16`` | ``float16`` (module doc). ``chat``: apply the
    tokenizer's chat template to each prompt (``None`` = when the tokenizer has one).

    Batches (module doc): the runner hands a whole template (``default_batch_size = 0``); with
    ``requested_batch_size`` (``--batch-size``, set by the runner) N > 0 every N prompts are one forward
    pass, else the batches fit :func:`token_budget` with at most :data:`MAX_BATCH` prompts.

    Raises :class:`FbagentError` for a missing ``model``, a folder without ``config.json`` or an unknown
    dtype here; a model that fails to load raises it at the first call.
    """

    name = "transformers"
    default_batch_size = 0
    config_fields = ("chat", "device", "dtype")   # ModelConfig fields the constructor takes (Backend.from_config)

    def __init__(self, model: str | None = None, *, reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED,
                 model_obj: PreTrainedModel | None = None, tokenizer: PreTrainedTokenizerBase | None = None,
                 chat: bool | None = None, device: str | None = "auto",
                 dtype: str | None = "auto") -> None:
        super().__init__(model or getattr(getattr(model_obj, "config", None), "_name_or_path", "") or "in-memory",
                         reasoning=reasoning, seed=seed)
        self.requested = {"device": device or "auto", "dtype": dtype or "auto"}
        if DTYPES.get(str(self.requested["dtype"]).lower()) is None:
            raise FbagentError(f"unknown dtype {dtype!r}", f"pass --dtype {' | '.join(sorted(set(DTYPES.values())))}")
        self._chat_arg = chat
        self._label_ids: dict[tuple[str, ...], dict[int, str]] = {}
        self._loaded = threading.Event()
        self._load_error: BaseException | None = None
        if model_obj is not None and tokenizer is not None:
            self._setup(model_obj, tokenizer)
            return
        _check_model_name(model)
        threading.Thread(target=self._load_in_background, args=(model,), name="fbagent-model-load", daemon=True).start()

    # -- loading -------------------------------------------------------------
    def _load_in_background(self, model: str) -> None:
        try:
            self._setup(*_load_model(model, self.requested["device"], self.requested["dtype"]))
        except BaseException as err:  # noqa: BLE001 - raised at the first call, on the caller's thread
            self._load_error = err
            self._loaded.set()

    def _setup(self, model_obj: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> None:
        if self.requested["device"] == "auto" and getattr(model_obj, "device", None) is not None:
            self.device = str(model_obj.device)
        else:
            self.device = resolve_device(self.requested["device"])
            model_obj = model_obj.to(self.device)
        self.dtype = str(getattr(model_obj, "dtype", "")).removeprefix("torch.") or None
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        tokenizer.padding_side = "left"
        self.chat = bool(getattr(tokenizer, "chat_template", None)) if self._chat_arg is None else self._chat_arg
        self._model, self._tokenizer = model_obj, tokenizer
        self._keeps_logits = _takes(model_obj, "logits_to_keep")
        self._loaded.set()

    def wait_loaded(self) -> None:
        """Block until the model is loaded; raises what loading raised (:class:`FbagentError`)."""
        self._loaded.wait()
        if self._load_error is not None:
            raise self._load_error

    @property
    def hf_model(self) -> PreTrainedModel:
        """The transformers model (waits for the background load)."""
        self.wait_loaded()
        return self._model

    @property
    def tokenizer(self) -> PreTrainedTokenizerBase:
        """The tokenizer (left padding; waits for the background load)."""
        self.wait_loaded()
        return self._tokenizer

    def info(self) -> BackendInfo:
        self.wait_loaded()
        info = super().info()
        info.options = {"device": self.device, "dtype": self.dtype, "chat": self.chat,
                        "requested_device": self.requested["device"], "requested_dtype": self.requested["dtype"],
                        "choice": "forward" + ("" if self._keeps_logits else " (all positions' logits)")}
        info.versions = {"transformers": package_version("transformers"), "torch": package_version("torch")}
        return info

    async def choose_batch(self, prompts: list[str], choices: Sequence[str] = ("1", "2", "3", "4")) -> list[ChoiceResult]:
        """:meth:`choose_sync` in the worker thread, once the model is loaded (the load is not the batch's time)."""
        await asyncio.to_thread(self.wait_loaded)
        return await super().choose_batch(prompts, choices)

    async def generate_batch(self, prompts: list[str], max_new_tokens: int = 96,
                             stop: Sequence[str] = ("\n",)) -> list[TextResult]:
        """:meth:`generate_sync` in the worker thread, once the model is loaded."""
        await asyncio.to_thread(self.wait_loaded)
        return await super().generate_batch(prompts, max_new_tokens, stop)

    # -- prompt handling -------------------------------------------------
    def format_prompt(self, prompt: str) -> str:
        """The text the model sees: the chat template around ``prompt`` when ``chat``, else ``prompt``."""
        if self.chat:
            return self.tokenizer.apply_chat_template(
                [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
            )
        return prompt

    def _encode(self, texts: list[str], add_special: bool) -> dict[str, torch.Tensor]:
        enc = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=add_special)
        return {k: v.to(self.device) for k, v in enc.items()}

    def _pad(self, ids: list[list[int]]) -> dict[str, torch.Tensor]:
        enc = self.tokenizer.pad({"input_ids": ids}, padding=True, return_tensors="pt")
        return {k: v.to(self.device) for k, v in enc.items()}

    def _batches(self, lengths: list[int]) -> list[list[int]]:
        """Prompt indices cut into forward passes (class doc): sorted by length, restored by the caller."""
        size = self.requested_batch_size
        if size is not None and size > 0:
            return length_batches(lengths, size, None)
        if size == 0:                                   # --batch-size 0: all prompts of the call at once
            return length_batches(lengths, max(1, len(lengths)), None)
        kind = self.device.split(":")[0]
        element = max(1, int(getattr(getattr(self._model, "dtype", None), "itemsize", 4) or 4))
        longest = max(lengths, default=1)
        budget = token_budget(free_memory_bytes(self.device), self._model.config, element, longest)
        return length_batches(lengths, MAX_BATCH.get(kind, MAX_BATCH["cpu"]), budget)

    def _free_generate(self, texts: list[str], max_new_tokens: int, stop: Sequence[str],
                       add_special: bool) -> list[tuple[str, int]]:
        """Greedy free generation -> list of (decoded new text, number of new tokens)."""
        import torch

        enc = self._encode(texts, add_special)
        kwargs = {}
        stops = [s for s in stop if s]
        if stops:
            kwargs = {"stop_strings": stops, "tokenizer": self.tokenizer}
        with torch.no_grad():
            out = self.hf_model.generate(
                **enc, max_new_tokens=max_new_tokens, do_sample=False,
                pad_token_id=self.tokenizer.pad_token_id, **kwargs,
            )
        new = out[:, enc["input_ids"].shape[1]:]
        results = []
        special = set(self.tokenizer.all_special_ids)
        for row in new.tolist():
            n = len(row)
            while n and row[n - 1] == self.tokenizer.pad_token_id:
                n -= 1
            ids = [t for t in row[:n]]
            text = self.tokenizer.decode([t for t in ids if t not in special], skip_special_tokens=False)
            results.append((text, len(ids)))
        return results

    def _think(self, texts: list[str], add_special: bool) -> tuple[list[str], list[tuple[str, int, bool]]]:
        """Reasoning stage: free generation until the end tag or the budget -> (new texts, info)."""
        cfg = self.reasoning
        gens = self._free_generate(texts, cfg.max_think_tokens, [cfg.end_think_tag], add_special)
        continued, infos = [], []
        for text, (gen, n_tokens) in zip(texts, gens, strict=True):
            thinking, _, found = split_thinking(gen, cfg.end_think_tag)
            if not found:
                thinking = thinking + "\n" + cfg.end_think_tag
            continued.append(text + thinking)
            infos.append((thinking, n_tokens, not found and n_tokens >= cfg.max_think_tokens))
        return continued, infos

    # -- the two requests --------------------------------------------------
    def _options(self, choices: Sequence[str]) -> dict[int, str]:
        key = tuple(choices)
        if key not in self._label_ids:
            self._label_ids[key] = label_token_ids(self.tokenizer, choices)
        return self._label_ids[key]

    def choose_sync(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """Constrained answer among ``choices`` for each prompt (module doc: one forward pass per batch,
        batches of prompts sorted by length, results in the order of ``prompts``): the label of the largest
        summed probability over its tokens (:func:`choose_label`); ``raw`` is the most likely option token,
        kept for the record; ``latency_ms`` and ``batch_size`` are those of the prompt's forward pass."""
        if not prompts:
            return []
        id_to_choice = self._options(choices)   # once per option set (a decode of the vocabulary): not timed
        started = time.perf_counter()           # the first batch's time includes formatting and tokenizing all
        texts = [self.format_prompt(p) for p in prompts]
        add_special = not self.chat
        ids = self.tokenizer(texts, add_special_tokens=add_special)["input_ids"]
        results: list[ChoiceResult | None] = [None] * len(texts)
        for idx in self._batches([len(x) for x in ids]):
            if self.aborted():
                raise RuntimeError("the batch was cancelled")   # its caller is gone (Ctrl-C): nothing waits for it
            if self.reasoning.enabled:
                thought, infos = self._think([texts[i] for i in idx], add_special)
                enc = self._encode(thought, add_special)
            else:
                enc, infos = self._pad([ids[i] for i in idx]), [("", 0, False)] * len(idx)
            probs = self._option_probs(enc, sorted(id_to_choice))
            in_lens = enc["attention_mask"].sum(dim=1).tolist()
            per_prompt_ms = (time.perf_counter() - started) * 1000.0 / len(idx)
            for row, i in enumerate(idx):
                result = _choice_result(probs[row], sorted(id_to_choice), id_to_choice, choices,
                                        int(in_lens[row]), infos[row], self.tokenizer)
                result.latency_ms, result.batch_size = per_prompt_ms, len(idx)   # this forward pass's
                results[i] = result
            started = time.perf_counter()
        return [r for r in results if r is not None]

    def _option_probs(self, enc: dict[str, torch.Tensor], allowed: list[int]) -> torch.Tensor:
        """Probabilities over the ``allowed`` token ids (in that order) of the token after each prompt of
        ``enc`` (left padded): one forward pass, the last position's logits (fp32 softmax), positions from
        the attention mask as ``generate`` numbers them. Shape (prompts, len(allowed))."""
        import torch

        mask = enc["attention_mask"]
        positions = (mask.long().cumsum(-1) - 1).masked_fill(mask == 0, 0)
        kwargs = {"logits_to_keep": 1} if self._keeps_logits else {}
        with torch.inference_mode():
            out = self.hf_model(input_ids=enc["input_ids"], attention_mask=mask, position_ids=positions,
                                use_cache=False, **kwargs)
            logits = out.logits[:, -1, :]
            index = torch.tensor(allowed, device=logits.device)
            return torch.softmax(logits.index_select(-1, index).float(), dim=-1).cpu()

    def choose_by_generate(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """The constrained choice as earlier versions made it: ``generate(max_new_tokens=1)`` with
        :func:`allowed_tokens_processor`, prompts in the order given, one batch; the reference that
        :meth:`choose_sync` is tested against (no reasoning stage)."""
        import torch
        from transformers import LogitsProcessorList

        id_to_choice = self._options(choices)
        allowed = sorted(id_to_choice)
        enc = self._encode([self.format_prompt(p) for p in prompts], not self.chat)
        with torch.no_grad():
            out = self.hf_model.generate(
                **enc, max_new_tokens=1, do_sample=False,
                logits_processor=LogitsProcessorList([allowed_tokens_processor(allowed)]),
                output_scores=True, return_dict_in_generate=True, pad_token_id=self.tokenizer.pad_token_id,
            )
        probs = torch.softmax(out.scores[0].float(), dim=-1)[:, allowed].cpu()
        in_lens = enc["attention_mask"].sum(dim=1).tolist()
        return [_choice_result(probs[i], allowed, id_to_choice, choices, int(in_lens[i]), ("", 0, False),
                               self.tokenizer) for i in range(len(prompts))]

    def generate_sync(self, prompts: list[str], max_new_tokens: int, stop: Sequence[str]) -> list[TextResult]:
        """Greedy free generation cut at ``stop`` (after thinking in reasoning mode)."""
        texts = [self.format_prompt(p) for p in prompts]
        add_special = not self.chat
        infos = [("", 0, False)] * len(texts)
        if self.reasoning.enabled:
            texts, infos = self._think(texts, add_special)
        gens = self._free_generate(texts, max_new_tokens, stop, add_special)
        results = []
        for (gen, n_tokens), (thinking, n_think, exhausted) in zip(gens, infos, strict=True):
            results.append(decoded_text(gen, stop, output_tokens=n_tokens + n_think, thinking=thinking,
                                        thinking_tokens=n_think, budget_exhausted=exhausted))
        return results


def _choice_result(probs: torch.Tensor, allowed: list[int], id_to_choice: dict[int, str], choices: Sequence[str],
                   input_tokens: int, info: tuple[str, int, bool], tokenizer: PreTrainedTokenizerBase) -> ChoiceResult:
    """One prompt's :class:`ChoiceResult` from its probabilities over the ``allowed`` token ids."""
    values = probs.tolist()
    summed: dict[str, float] = {}
    for tid, p in zip(allowed, values, strict=True):
        summed[id_to_choice[tid]] = summed.get(id_to_choice[tid], 0.0) + float(p)
    choice, option_probs = choose_label(summed, choices)
    best = allowed[max(range(len(values)), key=lambda k: (values[k], -k))]   # ties: the lowest id, as argmax
    thinking, n_think, exhausted = info
    return ChoiceResult(raw=tokenizer.decode([best]), choice=choice, error=None, input_tokens=input_tokens,
                        output_tokens=1 + n_think, thinking=thinking, thinking_tokens=n_think,
                        budget_exhausted=exhausted, option_probs={c: round(p, 6) for c, p in option_probs.items()})


def _takes(model_obj: PreTrainedModel, argument: str) -> bool:
    """Whether ``model_obj``'s ``forward`` takes ``argument`` (``logits_to_keep``: transformers >= 4.45 models)."""
    import inspect

    try:
        params = inspect.signature(model_obj.forward).parameters
    except (TypeError, ValueError):
        return False
    return argument in params


def _check_model_name(model: str | None) -> None:
    """Fail early (before anything is stored) for no model or a folder that holds no model."""
    if not model:
        raise FbagentError("the transformers backend needs --model", "pass --model with a local model folder")
    path = Path(model).expanduser()
    if path.is_dir() and not (path / "config.json").is_file():
        raise FbagentError(f"{model} holds no config.json (not a transformers model folder)",
                           "pass --model with a folder holding config.json, weights and tokenizer files")


def _load_model(model: str, device: str, dtype: str) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Tokenizer and model of ``model`` on ``device`` (:func:`resolve_device`) in ``dtype``
    (:func:`resolve_dtype`), offline. Raises :class:`FbagentError` naming what failed."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import torch  # noqa: F401
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from transformers.utils import logging as hf_logging
    except ImportError as err:
        raise FbagentError("transformers or torch is not installed", "pip install 'fbagent[dev]'") from err
    hf_logging.disable_progress_bar()  # its "Loading weights" bar: fbagent's own line says what loads
    target = resolve_device(device)
    try:
        tokenizer = AutoTokenizer.from_pretrained(model, local_files_only=True)
        hf_model = AutoModelForCausalLM.from_pretrained(model, local_files_only=True,
                                                        dtype=resolve_dtype(dtype, target)).to(target)
    except FbagentError:
        raise
    except Exception as err:
        raise FbagentError(
            f"cannot load model {model!r} with transformers ({type(err).__name__})",
            "pass --model with a local folder holding config.json, weights and tokenizer files "
            "(nothing is downloaded at run time)",
        ) from err
    hf_model.eval()
    return hf_model, tokenizer
