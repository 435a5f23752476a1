"""Hugging Face transformers backend: true constrained decoding by masking next-token logits.

The answer step is ``model.generate(max_new_tokens=1)`` with a
:class:`AllowedTokensLogitsProcessor` that sets every logit outside the option
tokens to ``-inf`` (FrameBench, Yano and Sasano 2026, section 4: the model's
choice among the numbered options). Every vocabulary token that decodes to an
option, with or without a leading space (``"1"``, ``" 1"``), is an option
token of that label (:func:`label_token_ids`). The CHOICE is the label with
the largest summed probability over its tokens (not the single most likely
token: a label split over ``"1"`` and ``" 1"`` can outweigh another label's
one token), and ``option_probs`` are those sums renormalised over the labels.

Runs on the CPU (or a GPU with ``device``); torch and transformers are imported
lazily. Models load only from local folders or the local Hugging Face cache
(nothing is downloaded).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from fbagent.errors import FbagentError
from fbagent.providers.base import (
    ChoiceResult,
    ReasoningConfig,
    SyncBackend,
    TextResult,
    cut_at_stop,
    package_version,
    split_thinking,
)


def _logits_processor_class():
    from transformers import LogitsProcessor

    class AllowedTokensLogitsProcessor(LogitsProcessor):
        """Keep only ``allowed_ids`` (list of token ids): every other logit becomes ``-inf``."""

        def __init__(self, allowed_ids: Sequence[int]) -> None:
            self.allowed_ids = list(allowed_ids)

        def __call__(self, input_ids, scores):
            import torch

            mask = torch.full_like(scores, float("-inf"))
            mask[:, self.allowed_ids] = 0.0
            return scores + mask

    return AllowedTokensLogitsProcessor


def allowed_tokens_processor(allowed_ids: Sequence[int]):
    """A ``transformers.LogitsProcessor`` that masks all logits except ``allowed_ids``."""
    return _logits_processor_class()(allowed_ids)


def label_token_ids(tokenizer, choices: Sequence[str]) -> dict[int, str]:
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


def option_token_ids(tokenizer, choices: Sequence[str]) -> dict[int, str]:
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


class TransformersBackend(SyncBackend):
    """Local transformers model; ``batch_size`` prompts per forward pass (left padding).

    Pass ``model`` (a local folder or cached hub name) or ready ``model_obj`` and
    ``tokenizer`` objects (tests). ``chat``: apply the tokenizer's chat template
    to each prompt (``None`` = when the tokenizer has one).
    """

    name = "transformers"
    default_batch_size = 8

    def __init__(self, model: str | None = None, *, reasoning: ReasoningConfig | None = None, seed: int = 0,
                 model_obj=None, tokenizer=None, chat: bool | None = None, device: str = "cpu",
                 dtype: str | None = None) -> None:
        super().__init__(model or getattr(getattr(model_obj, "config", None), "_name_or_path", "") or "in-memory",
                         reasoning=reasoning, seed=seed)
        self.device = device
        self.dtype = dtype
        if model_obj is None or tokenizer is None:
            model_obj, tokenizer = self._load(model, device, dtype)
        self.hf_model = model_obj
        self.tokenizer = tokenizer
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.tokenizer.padding_side = "left"
        self.chat = bool(getattr(tokenizer, "chat_template", None)) if chat is None else chat
        self._label_ids: dict[tuple[str, ...], dict[int, str]] = {}

    @staticmethod
    def _load(model: str | None, device: str, dtype: str | None):
        if not model:
            raise FbagentError("the transformers backend needs --model", "pass --model with a local model folder")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as err:
            raise FbagentError("transformers or torch is not installed", "pip install 'fbagent[dev]'") from err
        try:
            tokenizer = AutoTokenizer.from_pretrained(model, local_files_only=True)
            kwargs = {"local_files_only": True}
            if dtype:
                kwargs["dtype"] = getattr(torch, dtype)
            hf_model = AutoModelForCausalLM.from_pretrained(model, **kwargs).to(device)
        except Exception as err:
            raise FbagentError(
                f"cannot load model {model!r} with transformers ({type(err).__name__})",
                "pass --model with a local folder holding config.json, weights and tokenizer files "
                "(nothing is downloaded at run time)",
            ) from err
        hf_model.eval()
        return hf_model, tokenizer

    def info(self):
        info = super().info()
        info.options = {"device": self.device, "dtype": self.dtype, "chat": self.chat}
        info.versions = {"transformers": package_version("transformers"), "torch": package_version("torch")}
        return info

    # -- prompt handling -------------------------------------------------
    def format_prompt(self, prompt: str) -> str:
        """The text the model sees: the chat template around ``prompt`` when ``chat``, else ``prompt``."""
        if self.chat:
            return self.tokenizer.apply_chat_template(
                [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
            )
        return prompt

    def _encode(self, texts: list[str], add_special: bool):
        enc = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=add_special)
        return {k: v.to(self.device) for k, v in enc.items()}

    def _free_generate(self, texts: list[str], max_new_tokens: int, stop: Sequence[str], add_special: bool):
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

    def _think(self, texts: list[str], add_special: bool):
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
    def choose_sync(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """Constrained answer among ``choices`` for each prompt (one forward pass per batch): the label
        of the largest summed probability over its tokens (:func:`choose_label`); ``raw`` is the most
        likely single token, kept for the record."""
        import torch
        from transformers import LogitsProcessorList

        key = tuple(choices)
        if key not in self._label_ids:
            self._label_ids[key] = label_token_ids(self.tokenizer, choices)
        id_to_choice = self._label_ids[key]
        allowed = sorted(id_to_choice)
        texts = [self.format_prompt(p) for p in prompts]
        add_special = not self.chat
        infos = [("", 0, False)] * len(texts)
        if self.reasoning.enabled:
            texts, infos = self._think(texts, add_special)
        enc = self._encode(texts, add_special)
        with torch.no_grad():
            out = self.hf_model.generate(
                **enc, max_new_tokens=1, do_sample=False,
                logits_processor=LogitsProcessorList([allowed_tokens_processor(allowed)]),
                output_scores=True, return_dict_in_generate=True,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        new_ids = out.sequences[:, enc["input_ids"].shape[1]].tolist()
        probs = torch.softmax(out.scores[0].float(), dim=-1)
        in_lens = enc["attention_mask"].sum(dim=1).tolist()
        results = []
        for i, tid in enumerate(new_ids):
            raw = self.tokenizer.decode([tid])
            summed: dict[str, float] = {}
            for aid, c in id_to_choice.items():
                summed[c] = summed.get(c, 0.0) + float(probs[i, aid])
            choice, option_probs = choose_label(summed, choices)
            thinking, n_think, exhausted = infos[i]
            results.append(ChoiceResult(
                raw=raw, choice=choice, error=None,
                input_tokens=int(in_lens[i]), output_tokens=1 + n_think,
                thinking=thinking, thinking_tokens=n_think, budget_exhausted=exhausted,
                option_probs={c: round(p, 6) for c, p in option_probs.items()},
            ))
        return results

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
            results.append(TextResult(
                text=cut_at_stop(gen, stop).strip(), raw=gen, output_tokens=n_tokens + n_think,
                thinking=thinking, thinking_tokens=n_think, budget_exhausted=exhausted,
            ))
        return results
