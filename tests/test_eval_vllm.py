"""vLLM backend without vLLM: prompt building, sampling parameters (current and older API), and
batching (one generate call per template) with a fake LLM object. The GPU run is scripts/gpu_check_vllm.py."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from fbagent.errors import FbagentError
from fbagent.eval.framebench import RunSettings, run_framebench
from fbagent.eval.runner import read_predictions
from fbagent.providers.base import ReasoningConfig
from fbagent.providers.vllm import (
    VllmApi,
    VllmBackend,
    choice_sampling_params,
    load_vllm_api,
    think_sampling_params,
)

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


class FakeSamplingParams:
    def __init__(self, **kw):
        self.kw = kw

    def __getattr__(self, name):
        try:
            return self.__dict__["kw"][name]
        except KeyError as err:
            raise AttributeError(name) from err


@dataclass
class FakeStructured:
    choice: list[str] | None = None


@dataclass
class FakeGuided:
    choice: list[str] | None = None


class FakeTokenizer:
    chat_template = "{{ messages }}"

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        assert tokenize is False and add_generation_prompt is True
        return f"<user>{messages[0]['content']}</user><assistant>"


@dataclass
class FakeLLM:
    """Answers choice requests with the 2nd option; thinking requests with a tag unless 'BUDGET' is in the prompt."""

    tokenizer: object = None
    calls: list = field(default_factory=list)

    def get_tokenizer(self):
        return self.tokenizer

    def generate(self, prompts, params, use_tqdm=True):
        self.calls.append((list(prompts), params))
        outs = []
        for p in prompts:
            so = params.kw.get("structured_outputs") or params.kw.get("guided_decoding")
            if so is not None:
                text, finish, ids = so.choice[1], "stop", [7]
            elif "stop" in params.kw and "BUDGET" in p:
                text, finish, ids = "hmm " * 4, "length", [1, 2, 3, 4]
            elif "stop" in params.kw and params.kw.get("include_stop_str_in_output"):
                text, finish, ids = "short thought </think>", "stop", [1, 2, 3]
            else:
                text, finish, ids = "a definition\nmore", "stop", [1, 2, 3]
            outs.append(SimpleNamespace(prompt_token_ids=list(range(len(p.split()))),
                                        outputs=[SimpleNamespace(text=text, token_ids=ids, finish_reason=finish)]))
        return outs


API = VllmApi(LLM=None, SamplingParams=FakeSamplingParams, StructuredOutputsParams=FakeStructured)


def test_module_imports_without_vllm():
    code = "import sys, fbagent.providers.vllm; print('vllm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vllm is installed here")
def test_missing_vllm_is_one_line_with_fix():
    with pytest.raises(FbagentError) as err:
        load_vllm_api()
    assert str(err.value) == "the Python package 'vllm' is not installed. Fix: pip install 'fbagent[gpu]'"


def test_sampling_params_current_and_older_api():
    sp = choice_sampling_params(API, ("1", "2", "3", "4"), seed=3)
    assert sp.kw["structured_outputs"] == FakeStructured(choice=["1", "2", "3", "4"])
    assert sp.kw["temperature"] == 0.0 and sp.kw["max_tokens"] == 2 and sp.kw["seed"] == 3
    old = VllmApi(LLM=None, SamplingParams=FakeSamplingParams, GuidedDecodingParams=FakeGuided)
    sp = choice_sampling_params(old, ("1", "2", "3"))
    assert sp.kw["guided_decoding"] == FakeGuided(choice=["1", "2", "3"]) and "structured_outputs" not in sp.kw
    with pytest.raises(FbagentError):
        choice_sampling_params(VllmApi(LLM=None, SamplingParams=FakeSamplingParams), ("1",))
    think = think_sampling_params(API, ReasoningConfig(True, "</think>", 256))
    assert think.kw["stop"] == ["</think>"] and think.kw["max_tokens"] == 256
    assert think.kw["include_stop_str_in_output"] is True


def test_engine_options_passed_to_llm():
    seen = {}

    def fake_llm_ctor(**kw):
        seen.update(kw)
        return FakeLLM()

    api = VllmApi(LLM=fake_llm_ctor, SamplingParams=FakeSamplingParams, StructuredOutputsParams=FakeStructured)
    VllmBackend("some/model", api=api, tensor_parallel_size=2, gpu_memory_utilization=0.5, max_model_len=2048, seed=4)
    assert seen == {"model": "some/model", "seed": 4, "tensor_parallel_size": 2, "gpu_memory_utilization": 0.5,
                    "max_model_len": 2048, "dtype": "auto"}


def test_one_generate_call_per_template(tmp_path):
    llm = FakeLLM(tokenizer=None)
    backend = VllmBackend("fake", llm=llm, api=API)
    summary, _ = run_framebench(backend, RunSettings(dataset=DATA, limit=3, seed=0), tmp_path / "o",
                                reasoning=ReasoningConfig())
    assert len(llm.calls) == 5  # all prompts of a template in ONE call
    assert [len(prompts) for prompts, _ in llm.calls] == [12] * 5
    preds = read_predictions(tmp_path / "o")
    assert {p["choice"] for p in preds} == {"2"}
    assert all(p["batch_size"] == 12 for p in preds)
    assert summary["n_failed"] == 0 and summary["n_predictions"] == 60


def test_chat_template_and_reasoning(tmp_path):
    llm = FakeLLM(tokenizer=FakeTokenizer())
    backend = VllmBackend("fake-qwen3", llm=llm, api=API,
                          reasoning=ReasoningConfig(enabled=True, end_think_tag="</think>", max_think_tokens=4))
    results = backend.choose_sync(["Pick one.", "Pick one. BUDGET"], ("1", "2", "3", "4"))
    assert len(llm.calls) == 2  # thinking call + answer call, each batched
    think_prompts, think_params = llm.calls[0]
    assert think_prompts[0] == "<user>Pick one.</user><assistant>"
    assert think_params.kw["stop"] == ["</think>"]
    answer_prompts, _ = llm.calls[1]
    assert answer_prompts[0].endswith("short thought </think>")
    assert answer_prompts[1].endswith("hmm hmm hmm hmm \n</think>")  # budget ran out: tag appended
    assert [r.budget_exhausted for r in results] == [False, True]
    assert [r.thinking_tokens for r in results] == [3, 4]
    assert [r.choice for r in results] == ["2", "2"]
    texts = VllmBackend("fake", llm=FakeLLM(), api=API).generate_sync(["Define x:"], 16, ["\n"])
    assert texts[0].text == "a definition"


def test_output_parsing_tokens_and_a_non_option():
    """What the backend reads from vLLM's RequestOutput: the text, its token count, the prompt's token count;
    a text that is not an option becomes a failed answer (choice None, an error), never a wrong answer."""

    class Odd(FakeLLM):
        def generate(self, prompts, params, use_tqdm=True):
            outs = super().generate(prompts, params, use_tqdm)
            if len(outs) > 1:
                outs[1].outputs[0].text = "5"                 # outside the options (a broken grammar backend)
            return outs

    llm = Odd()
    backend = VllmBackend("fake", llm=llm, api=API, seed=9)
    results = backend.choose_sync(["one two three", "four five"], ("1", "2", "3", "4"))
    assert [(r.choice, r.error) for r in results] == [("2", None), (None, "output '5' is not an option")]
    assert [(r.input_tokens, r.output_tokens) for r in results] == [(3, 1), (2, 1)]
    (prompts, params), = llm.calls
    assert prompts == ["one two three", "four five"] and params.kw["seed"] == 9
    texts = backend.generate_sync(["Define x:"], 16, ["\n", ""])
    _, text_params = llm.calls[-1]
    assert text_params.kw == {"temperature": 0.0, "max_tokens": 16, "stop": ["\n"], "seed": 9}
    assert (texts[0].text, texts[0].raw, texts[0].output_tokens) == ("a definition", "a definition\nmore", 3)
