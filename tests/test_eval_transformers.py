"""transformers backend on a tiny random model built here (no downloads): constrained decoding,
mapping/order/metrics on the hand-made dataset, reasoning budget, and the CLI end to end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from typer.testing import CliRunner  # noqa: E402

from fbagent.cli import app  # noqa: E402
from fbagent.eval.dataset import read_entries  # noqa: E402
from fbagent.eval.framebench import RunSettings, run_framebench  # noqa: E402
from fbagent.eval.problems import build_problems  # noqa: E402
from fbagent.eval.runner import read_predictions  # noqa: E402
from fbagent.eval.templates import load_templates  # noqa: E402
from fbagent.eval.tiny import build_model, build_tokenizer, save_tiny_model  # noqa: E402
from fbagent.providers.base import ReasoningConfig  # noqa: E402
from fbagent.providers.transformers import (  # noqa: E402
    TransformersBackend,
    allowed_tokens_processor,
    option_token_ids,
)

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
OPTIONS = ("1", "2", "3", "4")


@pytest.fixture(scope="module")
def tokenizer():
    return build_tokenizer()


@pytest.fixture(scope="module")
def random_backend(tokenizer):
    return TransformersBackend(model_obj=build_model(tokenizer, seed=1), tokenizer=tokenizer, chat=False)


@pytest.fixture(scope="module")
def prompts():
    entries = read_entries(DATA, limit=3)
    problems = build_problems(entries, seed=0)
    return [t.render(p) for t in load_templates("en", ["v1", "v4", "v5"]) for p in problems]


def test_logits_processor_masks_everything_else():
    scores = torch.tensor([[5.0, 1.0, 9.0, 2.0, 0.5]])
    out = allowed_tokens_processor([1, 3])(torch.zeros((1, 2), dtype=torch.long), scores.clone())
    assert torch.isinf(out[0, [0, 2, 4]]).all()
    assert out[0, 1].item() == 1.0 and out[0, 3].item() == 2.0


def test_option_tokens(tokenizer):
    ids = option_token_ids(tokenizer, OPTIONS)
    assert set(ids.values()) == set(OPTIONS)
    for tid, choice in ids.items():
        assert tokenizer.decode([tid]).strip() == choice


def test_outputs_are_only_option_tokens(random_backend, tokenizer, prompts):
    """36 prompts on a random model: the constrained answer is always an option token, although the
    unconstrained next token (same model, same prompts) is mostly something else."""
    results = random_backend.choose_sync(prompts, OPTIONS)
    assert len(results) == len(prompts) == 36
    for r in results:
        assert r.error is None
        assert r.choice in OPTIONS
        # behaviour change (issue 9): the choice is the label with the largest probability summed over its
        # tokens ("1" and " 1"), so it may differ from the single most likely token kept in raw
        assert r.raw.strip() in OPTIONS
        assert r.choice == max(OPTIONS, key=lambda c: r.option_probs[c])
        assert sum(r.option_probs.values()) == pytest.approx(1.0, abs=1e-4)
    option_ids = set(option_token_ids(tokenizer, OPTIONS))
    enc = tokenizer(prompts, return_tensors="pt", padding=True)
    with torch.no_grad():
        free = random_backend.hf_model(**enc).logits[:, -1, :].argmax(dim=-1).tolist()
    assert sum(1 for t in free if t not in option_ids) >= len(prompts) // 2


def _shown(prompt: str) -> tuple[str, str, str]:
    """From the prompt text alone: (Sentence A text, Sentence B text, label of option 1)."""
    a = re.search(r"^Sentence A: (.+)$", prompt, re.M).group(1)
    b = re.search(r"^Sentence B: (.+)$", prompt, re.M).group(1)
    opt1 = re.search(r"^1\. (.+)$", prompt, re.M).group(1)
    return a, b, opt1


def test_known_answers_mapping_order_and_metrics(tokenizer, tmp_path):
    """A model whose logits are all equal always picks the first option token ("1"). The expected
    outcome of every prediction is derived from the PROMPT TEXT (which sentence is shown as A, which
    label is option 1) and the hand-made entries (which sentence evokes frame A), independently of the
    mapping code; the stored records and the metrics must agree."""
    model = build_model(tokenizer, seed=2)
    with torch.no_grad():
        model.lm_head.weight.zero_()
    backend = TransformersBackend(model_obj=model, tokenizer=tokenizer, chat=False)
    out = tmp_path / "run"
    summary, manifest = run_framebench(backend, RunSettings(dataset=DATA, templates="v1,v2", limit=4, seed=11),
                                       out, reasoning=ReasoningConfig())
    preds = read_predictions(out)
    assert len(preds) == 4 * 4 * 2 and manifest["n_predictions"] == 32
    entries = {e.id: e for e in read_entries(DATA, limit=4)}
    expected_correct = {"v1": 0, "v2": 0}
    for p in preds:
        assert p["choice"] == "1"
        e = entries[p["entry_id"]]
        a_text, b_text, opt1 = _shown(p["prompt"])
        frame_a_sentences = {e.sentence_a, e.sentence_a_prime}
        # the pair shown: base = {S_A, S_B}, extended = {S_A', S_B'}
        if p["kind"] == "base":
            assert {a_text, b_text} == {e.sentence_a, e.sentence_b}
        else:
            assert {a_text, b_text} == {e.sentence_a_prime, e.sentence_b_prime}
        # canonical extended order shows S_B' first
        if (p["kind"], p["order"]) == ("extended", "canonical"):
            assert a_text == e.sentence_b_prime
        correct_label = "Sentence A" if a_text in frame_a_sentences else "Sentence B"
        wrong_label = "Sentence B" if correct_label == "Sentence A" else "Sentence A"
        expected = {correct_label: "correct", wrong_label: "opposite",
                    "Both sentences": "both", "Neither sentence": "neither"}[opt1]
        assert p["outcome"] == expected, p["key"]
        assert p["correct_position"] == (1 if a_text in frame_a_sentences else 2)
        expected_correct[p["template"]] += expected == "correct"
    for t in ("v1", "v2"):
        assert summary["per_template"][t]["accuracy"] == pytest.approx(expected_correct[t] / 16)
    assert summary["n_failed"] == 0
    # same seed -> same mapping for the same problem in both templates
    by_problem = {}
    for p in preds:
        by_problem.setdefault(p["problem_id"], []).append(json.dumps(p["mapping"], sort_keys=True))
    assert all(len(set(v)) == 1 for v in by_problem.values())


def test_reasoning_budget_is_flagged(tokenizer):
    backend = TransformersBackend(model_obj=build_model(tokenizer, seed=3), tokenizer=tokenizer, chat=False,
                                  reasoning=ReasoningConfig(enabled=True, end_think_tag="</think>", max_think_tokens=5))
    results = backend.choose_sync(["Question: which one? Answer:", "Pick 1 to 4. Answer:"], OPTIONS)
    for r in results:
        assert r.choice in OPTIONS
        assert r.thinking_tokens == 5
        assert r.budget_exhausted is True
        assert r.thinking.endswith("</think>")
    texts = backend.generate_sync(["Define the word bank:"], max_new_tokens=4, stop=["\n"])
    assert texts[0].error is None and isinstance(texts[0].text, str)


def test_cli_run_resume_and_report(tmp_path):
    model_dir = save_tiny_model(tmp_path / "tiny", seed=4)
    out = tmp_path / "res"
    runner = CliRunner()
    args = ["eval", "run", "--dataset", str(DATA), "--backend", "transformers", "--model", str(model_dir),
            "--templates", "v1,v3", "--limit", "2", "--out", str(out), "--batch-size", "4"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert len(read_predictions(out)) == 2 * 4 * 2
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "finished" and manifest["templates"] == {"v1": "eval/en/v1@1", "v3": "eval/en/v3@1"}
    assert manifest["versions"]["transformers"] and manifest["seed"] == 0
    # rerun: nothing new to do, a second session is recorded
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert len(read_predictions(out)) == 16
    assert [s["predictions"] for s in json.loads((out / "manifest.json").read_text())["sessions"]] == [16, 0]
    # another seed into the same folder is refused
    res = runner.invoke(app, args + ["--seed", "5"])
    assert res.exit_code != 0 and "another run" in str(res.exception)
    rep = tmp_path / "rep"
    res = runner.invoke(app, ["eval", "report", str(out), "--out", str(rep), "--human-accuracy", "90"])
    assert res.exit_code == 0, res.output
    assert (rep / "accuracy.png").stat().st_size > 1000
    md = (rep / "report.md").read_text()
    assert "| Human | 90.0 |" in md and "tiny" in md


def test_label_split_over_two_tokens_chooses_the_label(tokenizer):
    """Hand-built: the output layer ignores the input (zero weights) and its bias gives p("1") = 0.3,
    p(" 1") = 0.3, p("2") = 0.4 and ~0 for everything else. The single most likely token is "2", but
    label 1 has 0.6 over its two tokens: the choice is 1, option_probs {"1": 0.6, "2": 0.4, ...}."""
    import math

    from fbagent.providers.transformers import choose_label, label_token_ids

    ids = {tokenizer.decode([i]): i for i in label_token_ids(tokenizer, OPTIONS)}
    assert set(ids) == {"1", " 1", "2", " 2", "3", " 3", "4", " 4"}  # the tiny vocabulary splits every label
    model = build_model(tokenizer, seed=5)
    head = torch.nn.Linear(model.config.hidden_size, model.config.vocab_size, bias=True)
    with torch.no_grad():
        head.weight.zero_()
        head.bias.fill_(-30.0)
        head.bias[ids["1"]] = math.log(0.3)
        head.bias[ids[" 1"]] = math.log(0.3)
        head.bias[ids["2"]] = math.log(0.4)
    model.lm_head = head
    backend = TransformersBackend(model_obj=model, tokenizer=tokenizer, chat=False)
    results = backend.choose_sync(["Which option? Answer:", "Sentence A or B? Answer:"], OPTIONS)
    for r in results:
        assert r.raw == "2"  # the most likely single token
        assert r.choice == "1"  # the most likely label
        assert r.option_probs["1"] == pytest.approx(0.6, abs=1e-5)
        assert r.option_probs["2"] == pytest.approx(0.4, abs=1e-5)
        assert sum(r.option_probs.values()) == pytest.approx(1.0, abs=1e-6)
    assert choose_label({"1": 0.2, "2": 0.2}, OPTIONS) == ("1", {"1": 0.5, "2": 0.5, "3": 0.0, "4": 0.0})


# --------------------------------------------------------------------------- the forward-pass choice (issue 33)


def _all_prompts():
    """Every problem of the test data (10 entries x 2 problems x 2 orders) under the 5 templates."""
    problems = build_problems(read_entries(DATA), seed=0)
    return [t.render(p) for t in load_templates("en", ["v1", "v2", "v3", "v4", "v5"]) for p in problems]


def test_forward_choice_equals_the_generate_choice_on_every_problem(tokenizer):
    """One forward pass with logits_to_keep=1, prompts sorted by length into batches, gives the same choice,
    the same most likely option token and the same label probabilities (fp32, within 1e-5) as the earlier
    generate(max_new_tokens=1) with the masking logits processor, batches of 8 in file order."""
    backend = TransformersBackend(model_obj=build_model(tokenizer, seed=6, hidden_size=64, layers=2),
                                  tokenizer=tokenizer, chat=False)
    prompts = _all_prompts()
    assert len(prompts) == 200 and len({len(p) for p in prompts}) > 20     # lengths differ: the sort matters
    assert backend._keeps_logits and backend.device == "cpu" and backend.dtype == "float32"
    forward = backend.choose_sync(prompts, OPTIONS)
    reference = [r for i in range(0, len(prompts), 8) for r in backend.choose_by_generate(prompts[i:i + 8], OPTIONS)]
    assert [r.choice for r in forward] == [r.choice for r in reference]
    assert [r.raw for r in forward] == [r.raw for r in reference]
    assert [r.input_tokens for r in forward] == [r.input_tokens for r in reference]
    worst = max(abs(f.option_probs[c] - g.option_probs[c]) for f, g in zip(forward, reference, strict=True)
                for c in OPTIONS)
    assert worst <= 1e-5
    assert len({r.choice for r in forward}) > 1                             # the model does not answer one label


def test_batch_one_equals_the_sorted_batches(tokenizer):
    backend = TransformersBackend(model_obj=build_model(tokenizer, seed=7), tokenizer=tokenizer, chat=False)
    prompts = _all_prompts()[::10]
    together = backend.choose_sync(prompts, OPTIONS)
    backend.requested_batch_size = 1
    alone = backend.choose_sync(prompts, OPTIONS)
    assert [r.choice for r in together] == [r.choice for r in alone]
    assert max(abs(a.option_probs[c] - b.option_probs[c]) for a, b in zip(together, alone, strict=True)
               for c in OPTIONS) <= 1e-5


def test_a_model_without_logits_to_keep_reads_the_last_position(tokenizer):
    """A forward that does not take logits_to_keep (older models) returns every position; the last is read."""
    model = build_model(tokenizer, seed=8)
    backend = TransformersBackend(model_obj=model, tokenizer=tokenizer, chat=False)
    prompts = _all_prompts()[:12]
    expected = backend.choose_sync(prompts, OPTIONS)
    real_forward = model.forward

    def forward(input_ids=None, attention_mask=None, position_ids=None, use_cache=None):
        return real_forward(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                            use_cache=use_cache)

    model.forward = forward
    older = TransformersBackend(model_obj=model, tokenizer=tokenizer, chat=False)
    assert older._keeps_logits is False
    got = older.choose_sync(prompts, OPTIONS)
    assert [r.choice for r in got] == [r.choice for r in expected]
    assert [r.option_probs for r in got] == [r.option_probs for r in expected]


def test_length_batches_and_the_memory_budget():
    from fbagent.providers.transformers import bytes_per_token, length_batches, token_budget

    lengths = [5, 3, 9, 3, 7]
    assert length_batches(lengths, 2, None) == [[1, 3], [0, 4], [2]]          # sorted by length, stable
    assert length_batches(lengths, 10, 16) == [[1, 3, 0], [4], [2]]           # 3 x 5 = 15 <= 16; 4 x 7, 2 x 9 > 16
    assert length_batches([], 4, None) == []

    class Config:
        hidden_size, intermediate_size, num_attention_heads = 2048, 4096, 32

    # 2 bytes x (8 x 2048 + 4 x 4096 + 32 x 200) = 2 x 39,168 = 78,336 bytes a token
    assert bytes_per_token(Config, 2, 200) == 78_336
    assert token_budget(100 * 78_336, Config, 2, 200) == 200                  # never less than one prompt
    assert token_budget(10_000 * 78_336, Config, 2, 200) == 5_000             # half the free memory


def test_device_and_dtype_auto_on_a_cpu_machine():
    from fbagent.errors import FbagentError
    from fbagent.providers.transformers import resolve_device, resolve_dtype

    if not torch.cuda.is_available() and not torch.backends.mps.is_available():
        assert resolve_device("auto") == "cpu"
    assert resolve_device("cuda:1") == "cuda:1"
    assert resolve_dtype("auto", "cpu") == "auto"                              # the checkpoint's own dtype
    assert resolve_dtype("bf16", "cpu") is torch.bfloat16 and resolve_dtype("float32", "cpu") is torch.float32
    with pytest.raises(FbagentError):
        resolve_dtype("int3", "cpu")


def test_cli_defaults_device_auto_and_bad_dtype_or_folder(tmp_path):
    model_dir = save_tiny_model(tmp_path / "tiny", seed=4)
    out = tmp_path / "res"
    runner = CliRunner()
    base = ["eval", "run", "--dataset", str(DATA), "--backend", "transformers", "--templates", "v1", "--limit", "2"]
    res = runner.invoke(app, [*base, "--model", str(model_dir), "--out", str(out)])
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    options = manifest["backend_options"]
    assert (options["requested_device"], options["requested_dtype"], options["choice"]) == ("auto", "auto", "forward")
    if not torch.cuda.is_available() and not torch.backends.mps.is_available():
        assert (options["device"], options["dtype"]) == ("cpu", "float32")     # the tiny model is saved in fp32
    preds = read_predictions(out)
    assert len(preds) == 2 * 4 and {p["batch_size"] for p in preds} == {8}      # one template's 8 prompts, one call
    res = runner.invoke(app, [*base, "--model", str(model_dir), "--out", str(tmp_path / "r2"), "--dtype", "int3"])
    assert res.exit_code != 0 and "--dtype 'int3' is not a dtype" in str(res.exception)   # cli.main: one line, exit 2
    (tmp_path / "empty").mkdir()
    res = runner.invoke(app, [*base, "--model", str(tmp_path / "empty"), "--out", str(tmp_path / "r3")])
    assert res.exit_code != 0 and "holds no config.json" in str(res.exception)
    assert not (tmp_path / "r2").exists() and not (tmp_path / "r3" / "predictions.jsonl").exists()
