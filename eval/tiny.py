"""A tiny randomly initialised causal language model built locally (no downloads).

Used by the CPU tests of the transformers backend and by
``scripts/gpu_check_vllm.py``: a byte-level BPE tokenizer trained on a few
strings (every byte is in the vocabulary, so the option tokens ``"1".."4"``
exist) and a Llama model with tiny dimensions and random weights. The model
says nothing sensible; it only exercises the decoding machinery.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from fbagent.seeds import DEFAULT_SEED

if TYPE_CHECKING:   # follow_imports = skip in pyproject: named here, checked as opaque
    from transformers import LlamaForCausalLM, PreTrainedTokenizerFast

try:
    import tokenizers
except ImportError:   # comes with transformers (the "dev" extra): build_tokenizer() needs both
    tokenizers = None  # type: ignore[assignment]

TRAINING_TEXTS = (
    "Which sentence implies that the speaker physically moved away?",
    "Sentence A: She left the office at noon. Sentence B: She left her keys on the desk.",
    "Options: 1. Sentence A 2. Sentence B 3. Both sentences 4. Neither sentence",
    "Answer with the number of the option. Answer: 1 2 3 4",
    "Define the word as used in the example sentence. Example: the bank of the river.",
)


def build_tokenizer(texts: Sequence[str] = TRAINING_TEXTS, vocab_size: int = 400) -> PreTrainedTokenizerFast:
    """Train a byte-level BPE tokenizer on ``texts`` -> ``PreTrainedTokenizerFast``.

    Special tokens: ``<pad>`` (id 0), ``<s>`` (BOS), ``</s>`` (EOS). Every single
    byte is a token, so any text can be encoded.
    """
    from transformers import PreTrainedTokenizerFast

    if tokenizers is None:   # transformers needs tokenizers: its import above fails first
        raise ImportError("tokenizers is not installed (it comes with transformers: pip install transformers)")
    byte_level = tokenizers.pre_tokenizers.ByteLevel
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = byte_level(add_prefix_space=False)
    tok.decoder = tokenizers.decoders.ByteLevel()
    tok.post_processor = tokenizers.processors.ByteLevel(trim_offsets=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<pad>", "<s>", "</s>"],
        initial_alphabet=byte_level.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(texts), trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", pad_token="<pad>", padding_side="left"
    )


def build_model(tokenizer: PreTrainedTokenizerFast, seed: int = DEFAULT_SEED, hidden_size: int = 64, layers: int = 2, heads: int = 4,
                max_positions: int = 4096) -> LlamaForCausalLM:
    """A ``LlamaForCausalLM`` with random weights sized for ``tokenizer`` (float32, CPU).

    ``hidden_size / heads`` is the head dimension (16 by default; use 64 for vLLM's
    attention kernels). Seeds torch with ``seed`` so the weights are reproducible.
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        max_position_embeddings=max_positions,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config)
    model.eval()
    return model


def save_tiny_model(folder: Path, seed: int = DEFAULT_SEED, **model_kwargs: int) -> Path:
    """Build the tokenizer and model and save both to ``folder`` (safetensors); returns ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    model = build_model(tokenizer, seed=seed, **model_kwargs)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
