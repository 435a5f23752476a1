"""OpenAI-compatible and Gemini backends against the scripted server on 127.0.0.1 (tests/openai_stub.py).

The server plays an "oracle" that reads each prompt: right answer on base pairs, "Both" on extended
pairs shown in canonical order (S_B' first), "Neither" on swapped extended pairs; one malformed and one
failed reply. The metrics must come out exactly as computed by hand; a failure counts as wrong (the default
since issue 9; it was left out of the denominator before).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from openai_stub import OpenAIStub, error, malformed, request_text
from typer.testing import CliRunner

from fbagent.cli import app
from fbagent.errors import FbagentError
from fbagent.eval.dataset import read_entries
from fbagent.eval.framebench import RunSettings, run_framebench
from fbagent.eval.runner import read_predictions
from fbagent.providers.base import ReasoningConfig
from fbagent.providers.openai import OpenAIBackend

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
ENTRIES = read_entries(DATA, limit=3)
ROLE = {}
for _e in ENTRIES:
    ROLE.update({_e.sentence_a: "A", _e.sentence_b: "B", _e.sentence_a_prime: "A'", _e.sentence_b_prime: "B'"})

SENT_RE = re.compile(r"^(?:Sentence (A|B): |\[Sentence (A|B)\] )(.+)$", re.M)
OPT_RE = re.compile(r"^(?:\[(\d)\]|(\d)[.)]) (.+)$", re.M)


def oracle_answer(prompt: str) -> str:
    shown = {(m.group(1) or m.group(2)): m.group(3) for m in SENT_RE.finditer(prompt)}
    options = {m.group(3): (m.group(1) or m.group(2)) for m in OPT_RE.finditer(prompt)}
    first = ROLE[shown["A"]]
    if first in ("A", "B"):  # base pair: the right answer
        return options["Sentence A" if first == "A" else "Sentence B"]
    return options["Both sentences" if first == "B'" else "Neither sentence"]


def responder(request: dict):
    prompt = request_text(request)
    if "Number only." in prompt and ENTRIES[0].sentence_a in prompt.split("Sentence B")[0] and \
            ENTRIES[0].sentence_b in prompt:
        return malformed('{"answer": ')  # v5, entry 1, base canonical -> failure, not a wrong answer
    return {"answer": oracle_answer(prompt)}


def test_openai_backend_end_to_end(tmp_path):
    with OpenAIStub(responder, latency_s=0.02) as stub:
        backend = OpenAIBackend("stub-model", base_url=stub.base_url, seed=5, max_retries=0)
        summary, manifest = run_framebench(backend, RunSettings(dataset=DATA, limit=3, seed=5, concurrency=4),
                                           tmp_path / "out", reasoning=ReasoningConfig())
        assert stub.request_count == 3 * 4 * 5
        assert stub.max_in_flight >= 2  # requests were concurrent
        req = stub.requests[0]
    fmt = req["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["properties"]["answer"]["enum"] == ["1", "2", "3", "4"]
    assert req["temperature"] == 0 and req["seed"] == 5 and req["model"] == "stub-model"

    preds = read_predictions(tmp_path / "out")
    failed = [p for p in preds if p["outcome"] is None]
    assert len(failed) == 1 and failed[0]["key"] == "v5|handmade:1:0|base|canonical"
    assert failed[0]["correct"] is None and "not JSON" in failed[0]["error"]
    for t in ("v1", "v2", "v3", "v4"):
        m = summary["per_template"][t]
        assert (m["accuracy"], m["base"], m["extended"]) == pytest.approx((0.5, 1.0, 0.0))
        assert (m["both"], m["neither"], m["opposite"]) == pytest.approx((0.25, 0.25, 0.0))
        assert (m["first"], m["second"]) == pytest.approx((0.5, 0.5))
    v5 = summary["per_template"]["v5"]
    assert v5["n_scored"] == 11 and v5["n_failed"] == 1
    # behaviour change (issue 9): the failure is wrong: 5 of 12 (was 5 of 11), base 5 of 6 (was 5 of 5)
    assert v5["accuracy"] == pytest.approx(5 / 12) and v5["base"] == pytest.approx(5 / 6)
    assert summary["n_failed"] == 1 and summary["failure_rate"] == pytest.approx(1 / 60)
    assert summary["base_minus_extended"]["mean"] == pytest.approx((4 * 1.0 + 5 / 6) / 5)
    assert summary["input_tokens"] > 0


def test_openai_errors_are_failures_and_missing_key(monkeypatch):
    with OpenAIStub() as stub:
        stub.script(error(500, "boom"), {"answer": "9"}, "not json at all", {"answer": "2"})
        backend = OpenAIBackend("m", base_url=stub.base_url, max_retries=0)
        results = [asyncio.run(backend.choose_one("q", ("1", "2", "3", "4"))) for _ in range(4)]
    assert [r.choice for r in results] == [None, None, None, "2"]
    assert "500" in results[0].error or "InternalServerError" in results[0].error
    assert "not one of" in results[1].error and "not JSON" in results[2].error
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(FbagentError, match="OPENAI_API_KEY is not set"):
        OpenAIBackend("gpt-x")


def test_openai_reasoning_budget_flag():
    with OpenAIStub() as stub:
        from openai_stub import Reply

        stub.script(Reply(content='{"answer": "3"}', finish_reason="length"))
        backend = OpenAIBackend("m", base_url=stub.base_url, max_retries=0,
                                reasoning=ReasoningConfig(enabled=True, max_think_tokens=64))
        r = asyncio.run(backend.choose_one("q", ("1", "2", "3", "4")))
        assert stub.requests[0]["max_completion_tokens"] == 64 + 32
        assert "temperature" not in stub.requests[0]
    assert r.choice == "3" and r.budget_exhausted is True


def test_gemini_backend_against_stub():
    pytest.importorskip("google.genai")
    from fbagent.providers.gemini import GeminiBackend

    prompts = [t for t in (ENTRIES[1], ENTRIES[2])]
    from fbagent.eval.problems import build_problems
    from fbagent.eval.templates import load_templates

    tmpl = load_templates("en", ["v1"])[0]
    probs = build_problems(prompts, seed=0)
    texts = [tmpl.render(p) for p in probs]
    with OpenAIStub(lambda req: {"answer": oracle_answer(request_text(req))}) as stub:
        backend = GeminiBackend("gemini-test", api_key="test-key", base_url=stub.root_url, retries=1)
        results = asyncio.run(backend.choose_batch(texts))
        req = stub.requests[0]
        assert ":generateContent" in stub.paths[0]
    config = req["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"]["properties"]["answer"]["enum"] == ["1", "2", "3", "4"]
    thinking = config["thinkingConfig"]
    assert thinking.get("thinkingBudget", thinking.get("thinking_budget")) == 0
    outcomes = [p.outcome(r.choice) for p, r in zip(probs, results, strict=True)]
    assert outcomes == ["correct", "correct", "both", "neither"] * 2


def test_gemini_missing_key_cli_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATA),
                           "--backend", "gemini", "--model", "gemini-2.5-flash", "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert lines == ["error: the gemini backend needs an API key and neither GEMINI_API_KEY nor GOOGLE_API_KEY is set. Fix: export GEMINI_API_KEY=<your key> (or GOOGLE_API_KEY)"]
    assert not (tmp_path / "o").exists()


def test_unknown_backend_error():
    from fbagent.providers.config import ModelConfig
    from fbagent.providers.registry import create_backend

    with pytest.raises(FbagentError, match="unknown backend"):
        create_backend(ModelConfig(backend="nope", model="m"))


# -- issue 9: every call failing, free-text answers, full-width digits, retried calls --------------------
def _run_cli(args: list[str]) -> subprocess.CompletedProcess:
    """The real entry point (fbagent.cli:main), so exit codes and stderr lines are what a user sees."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-test-not-a-real-key", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", "from fbagent.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300, env=env)


def _error_lines(proc) -> list[str]:
    return [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]


def test_every_call_failing_exits_1_then_resume_asks_them_again(tmp_path):
    """A server refusing every request: the circuit breaker (fbagent.providers.breaker) stops the run at its
    8th failed request with one line naming the cause, exit 1; the calls that got no answer are asked again
    when the same command runs against a working server."""
    out = tmp_path / "o"
    base = ["eval", "run", "--dataset", str(DATA), "--limit", "2", "--templates", "v1", "--backend", "openai",
            "--model", "stub-model", "--max-retries", "0", "--out", str(out)]
    with OpenAIStub(lambda req: error(401, "invalid api key")) as stub:
        proc = _run_cli([*base, "--base-url", stub.base_url])
        assert stub.request_count == 8
    assert proc.returncode == 1, proc.stderr
    errors = _error_lines(proc)
    assert len(errors) == 1 and errors[0].startswith("error: the model service failed 8 requests in a row and "
                                                     "answered none since the command started (most common error (8x): ")
    assert "401" in errors[0] and "Fix: check the API key" in errors[0] and "run the same command again" in errors[0]
    assert "sk-test" not in proc.stderr + proc.stdout
    failed = len(read_predictions(out))
    assert failed < 8   # the answers of the batch that tripped the breaker are not stored
    # the server works again: the 8 calls that got no answer are asked again, the run finishes
    with OpenAIStub(lambda req: {"answer": oracle_answer(request_text(req))}) as stub:
        proc = _run_cli([*base, "--base-url", stub.base_url])
        assert stub.request_count == 8
        gone = stub.base_url
    assert proc.returncode == 0, proc.stderr
    assert len(read_predictions(out)) == failed + 8  # append-only: the failures, then 8 answers
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_predictions"] == 8 and summary["n_failed"] == 0
    assert summary["accuracy"]["mean"] == pytest.approx(0.5)  # oracle: right on base pairs only
    # an unreachable server (nothing listens on that port any more)
    proc = _run_cli([*base[:-1], str(tmp_path / "o2"), "--base-url", gone, "--timeout", "2"])
    assert proc.returncode == 1 and len(_error_lines(proc)) == 1
    assert "Connection" in _error_lines(proc)[0] or "connect" in _error_lines(proc)[0].lower()


def test_free_text_answers_with_and_without_parsing(tmp_path):
    """A server that ignores the JSON schema and writes prose: 24/24 failures and exit 1 without
    --parse-free-text; with it every answer is read from the text, and the report counts them."""

    def prose(req):
        n = oracle_answer(request_text(req))
        return {"1": "The answer is 1.", "2": "Answer: ２", "3": "(3)", "4": "I choose option 4."}[n]

    base = ["eval", "run", "--dataset", str(DATA), "--limit", "3", "--templates", "v1,v2", "--backend", "openai",
            "--model", "stub-model", "--max-retries", "0", "--orders", "both"]
    with OpenAIStub(prose) as stub:
        proc = _run_cli([*base, "--base-url", stub.base_url, "--out", str(tmp_path / "strict")])
        assert proc.returncode == 1
        assert _error_lines(proc)[0].startswith("error: all 24 answers of this run failed; most common error")
        assert "not JSON" in _error_lines(proc)[0] and "--parse-free-text into another --out" in _error_lines(proc)[0]
        proc = _run_cli([*base, "--base-url", stub.base_url, "--out", str(tmp_path / "parsed"), "--parse-free-text"])
    assert proc.returncode == 0, proc.stderr
    preds = read_predictions(tmp_path / "parsed")
    assert len(preds) == 24 and all(p["parsed_from_text"] for p in preds) and all(p["error"] is None for p in preds)
    assert all("not JSON" in p["parse_error"] for p in preds)
    summary = json.loads((tmp_path / "parsed" / "summary.json").read_text())
    assert summary["n_parsed_from_text"] == 24 and summary["n_failed"] == 0
    assert summary["accuracy"]["mean"] == pytest.approx(0.5)  # the oracle's answers, read from prose
    rep = CliRunner().invoke(app, ["eval", "report", str(tmp_path / "parsed"), "--wide"], terminal_width=200)
    assert rep.exit_code == 0, rep.output
    assert "Answers parsed from free text: stub-model: 24." in " ".join(rep.output.split())
    # two candidate numbers stay a failure
    from fbagent.providers.base import parse_free_text

    assert parse_free_text("Sentence 1 or 2? I'd say 2.", ("1", "2", "3", "4")) is None


def test_full_width_json_answer_and_some_failures_closing_line(tmp_path):
    def answer(req):
        text = request_text(req)
        if ENTRIES[0].sentence_a in text.split("Sentence B")[0]:
            return error(500, "boom")
        n = oracle_answer(text)
        return {"answer": chr(0xFF10 + int(n))}  # full-width digit: "１" .. "４"

    out = tmp_path / "o"
    with OpenAIStub(answer) as stub:
        proc = _run_cli(["eval", "run", "--dataset", str(DATA), "--limit", "2", "--templates", "v1",
                         "--backend", "openai", "--model", "stub-model", "--max-retries", "0",
                         "--base-url", stub.base_url, "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    # entry 1's base pair in canonical order fails (1 of 8); every full-width answer is accepted
    assert last.startswith(f"results: {out}/predictions.jsonl") and "(1 of 8 answers failed, 12.5%; most common: " in last
    preds = read_predictions(out)
    full_width = {json.dumps({"answer": chr(0xFF10 + i)}, ensure_ascii=False) for i in range(1, 5)}
    assert sum(p["error"] is None for p in preds) == 7
    assert {p["raw_output"] for p in preds if p["raw_output"]} <= full_width


@pytest.mark.parametrize("body", [
    None, [1, 2], "hello", {"choices": "abc"},
    {"choices": [{"message": {"content": {"answer": "1"}}}]},
    {"choices": [{"message": {"content": 3}}]},
    {"choices": [{"message": {"content": '{"answer": "2"}'}}],
     "usage": {"prompt_tokens": "12", "completion_tokens_details": {"reasoning_tokens": "x"}}},
], ids=["null", "list", "string", "choices-str", "content-object", "content-number", "odd-usage"])
def test_a_malformed_200_answer_is_a_recorded_failure_never_a_crash(body):
    """Whatever JSON a server sends with a 200, the prediction is a choice or a failure; odd token counts
    are stored as unknown (None), never as text the metrics cannot add up."""
    from openai_stub import raw

    with OpenAIStub() as stub:
        stub.script(raw(body if body is not None else "null"))
        backend = OpenAIBackend("m", base_url=stub.base_url, max_retries=0)
        [r] = asyncio.run(backend.choose_batch(["Which? 1, 2, 3 or 4."]))
        backend.close()
    if body is not None and isinstance(body, dict) and "usage" in body:
        assert r.choice == "2" and r.error is None and r.input_tokens is None and r.thinking_tokens == 0
    else:
        assert r.choice is None and r.error
