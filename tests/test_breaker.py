"""The circuit breaker (fbagent.providers.breaker, issue 30 item 1): a dead model service stops
`generate` and `eval run` with one line and exit 1, everything finished stays stored and the same
command resumes; a service that fails now and then never trips it. The rule is checked with a fake
clock; the commands run the real entry point against tests/openai_stub.py on 127.0.0.1."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gen_responder import FrameResponder
from openai_stub import OpenAIStub, error

from fbagent.errors import FbagentError
from fbagent.providers import RetryPolicy, call_with_retries
from fbagent.providers.breaker import (
    FAILED_CALLS,
    QUIET_S,
    BreakerLimits,
    CircuitBreaker,
    ServiceDown,
    fix_for,
    guarding,
)

DATASET = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_service_that_never_answered_trips_after_n_failed_requests():
    breaker = CircuitBreaker(BreakerLimits(3, 30.0), clock=Clock())
    breaker.failed("HTTP 500 from the server: boom")
    breaker.failed("request to the server timed out")
    assert breaker.tripped is None
    breaker.failed("HTTP 500 from the server: boom")
    assert isinstance(breaker.tripped, ServiceDown) and breaker.tripped.exit_code == 1
    line = breaker.tripped.line()
    assert line.startswith("the model service failed 3 requests in a row and answered none since the command "
                           "started (most common error (2x): HTTP 500 from the server: boom)")
    assert "check its log" in line and "FBAGENT_BREAKER_CALLS" in line
    with pytest.raises(ServiceDown):
        breaker.check()


def test_after_an_answer_it_waits_m_seconds_of_failures():
    clock = Clock()
    breaker = CircuitBreaker(BreakerLimits(3, 30.0), clock=clock)
    breaker.answered()
    for _ in range(10):                      # 10 failures in a row, but an answer 0 s ago
        breaker.failed("request to the server timed out")
    assert breaker.tripped is None
    clock.now += 29.9
    breaker.failed("request to the server timed out")
    assert breaker.tripped is None
    clock.now += 0.1                          # 30 s without an answer, 12 failures in a row
    breaker.failed("request to the server timed out")
    assert breaker.tripped is not None and "answered none in the last 30 s" in breaker.tripped.problem


@pytest.mark.parametrize("every", [2, 5, 10])
def test_a_service_failing_now_and_then_never_trips(every):
    """One request in ``every`` fails (a 500 in ten, 429s between answers), over an hour of requests."""
    clock = Clock()
    breaker = CircuitBreaker(clock=clock)
    for n in range(1, 20_001):
        clock.now += 0.2
        if n % every == 0:
            breaker.failed("HTTP 429 from the server: slow down")
        else:
            breaker.answered()
    assert breaker.tripped is None and breaker.failures == 20_000 // every


def test_limits_from_the_environment_and_bad_values():
    assert BreakerLimits.from_env({}) == BreakerLimits(FAILED_CALLS, QUIET_S) == BreakerLimits(8, 30.0)
    assert BreakerLimits.from_env({"FBAGENT_BREAKER_CALLS": "3", "FBAGENT_BREAKER_SECONDS": "1.5"}) == BreakerLimits(3, 1.5)
    off = CircuitBreaker(BreakerLimits.from_env({"FBAGENT_BREAKER_CALLS": "0"}))
    for _ in range(100):
        off.failed("x")
    assert off.tripped is None
    for bad in ({"FBAGENT_BREAKER_CALLS": "many"}, {"FBAGENT_BREAKER_CALLS": "-1"},
                {"FBAGENT_BREAKER_SECONDS": "1e9"}):
        with pytest.raises(FbagentError, match="FBAGENT_BREAKER_CALLS"):
            BreakerLimits.from_env(bad)


def test_fix_names_what_to_check():
    assert "API key" in fix_for("HTTP 401 from openai: bad key")
    assert "--model" in fix_for("HTTP 404 from openai: no such model")
    assert "--timeout" in fix_for("request to http://x/v1 timed out after 5 s")
    assert "--base-url" in fix_for("cannot connect to http://x/v1 (connection refused)")


def test_call_with_retries_reports_to_the_installed_breaker_only():
    """Outside a command nothing is counted; inside, wrong answers count as answers and the tripped
    breaker refuses the next try before it is sent."""
    sent = itertools.count()

    async def fails():
        next(sent)
        raise TimeoutError("hung")

    async def wrong_answer():
        next(sent)
        raise json.JSONDecodeError("bad", "{", 0)

    policy = RetryPolicy(retries=5, backoff_s=0.0, max_backoff_s=0.0)
    with pytest.raises(TimeoutError):
        asyncio.run(call_with_retries(fails, policy))
    assert next(sent) == 6   # 6 tries, no breaker
    with guarding(CircuitBreaker(BreakerLimits(4, 0.0))) as breaker:
        with pytest.raises(json.JSONDecodeError):
            asyncio.run(call_with_retries(wrong_answer, policy))
        assert breaker.failed_in_row == 0 and breaker.requests == 1
        sent = itertools.count()
        with pytest.raises(ServiceDown) as down:
            asyncio.run(call_with_retries(fails, policy))
        assert next(sent) == 4 and breaker.failures == 4     # tripped on the 4th try: no 5th
        assert isinstance(down.value.__cause__, TimeoutError)
        with pytest.raises(ServiceDown):
            asyncio.run(call_with_retries(fails, policy))
        assert next(sent) == 5                                # refused before sending


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_", "GEMINI_", "GOOGLE_"))}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True,
                          env={**base, "COLUMNS": "200", **(env or {})}, timeout=300)


def _errors(proc: subprocess.CompletedProcess) -> list[str]:
    return [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]


class Switch:
    """A responder that answers HTTP 500 to everything until ``up`` is set, then like ``answer``."""

    def __init__(self, answer) -> None:
        self.answer, self.up, self.lock = answer, False, threading.Lock()

    def __call__(self, request):
        return self.answer(request) if self.up else error(500, "model not loaded")


def test_generate_against_a_dead_service_stops_and_the_same_command_resumes(tmp_path):
    db = tmp_path / "fb.db"
    responder = Switch(FrameResponder())
    with OpenAIStub(responder) as stub:
        args = ("generate", "--pairs", "2", "--generator", "openai", "--base-url", stub.base_url, "--model", "m",
                "--no-screen", "--run", "r", "--db", str(db))
        dead = _cli(*args)
        assert dead.returncode == 1, dead.stderr
        assert stub.request_count == FAILED_CALLS
        errors = _errors(dead)
        assert len(errors) == 1 and "Traceback" not in dead.stderr
        assert errors[0].startswith(f"error: the model service failed {FAILED_CALLS} requests in a row and answered "
                                    f"none since the command started (most common error ({FAILED_CALLS}x): HTTP 500")
        assert re.search(r"; stopped: this session stored \d finished entr(y|ies) and \d LLM calls? \(\d failed\) "
                         r"of run 'r', which the same command resumes\. Fix: the server fails every request", errors[0]), errors[0]
        assert not Path(f"{db}-wal").exists()   # a failed command closes its database too (issue 30 item 2)
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT status FROM runs WHERE name = 'r'").fetchone() == ("interrupted",)
            assert conn.execute("SELECT count(*) FROM items WHERE status != 'failed'").fetchone() == (0,)
        responder.up = True   # the service is back: the same command finishes the run
        again = _cli(*args)
    assert again.returncode == 0, again.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status FROM runs WHERE name = 'r'").fetchone() == ("finished",)
        assert conn.execute("SELECT count(*) FROM items WHERE status != 'failed'").fetchone() == (2,)


def test_eval_run_against_a_dead_service_stops_and_a_flaky_one_finishes(tmp_path):
    out = tmp_path / "out"
    counter = itertools.count(1)

    def flaky(request):   # one request in five fails
        return error(500, "flaky") if next(counter) % 5 == 0 else json.dumps({"answer": "1"})

    responder = Switch(flaky)
    with OpenAIStub(responder) as stub:
        args = ("eval", "run", "--dataset", str(DATASET), "--backend", "openai", "--base-url", stub.base_url,
                "--model", "m", "--limit", "3", "--out", str(out))
        env = {"OPENAI_API_KEY": "sk-test-not-a-real-key"}
        dead = _cli(*args, env=env)
        assert dead.returncode == 1, dead.stderr
        assert stub.request_count == FAILED_CALLS
        errors = _errors(dead)
        assert len(errors) == 1 and "Traceback" not in dead.stderr
        assert errors[0].startswith(f"error: the model service failed {FAILED_CALLS} requests in a row")
        assert f"stopped: 0 new predictions of this session are stored (0 of 60 in {out})" in errors[0]
        responder.up = True
        again = _cli(*args, env=env)
    assert again.returncode == 0, again.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert json.loads((out / "manifest.json").read_text())["status"] == "finished"
    assert summary
