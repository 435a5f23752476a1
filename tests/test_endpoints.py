"""--base-url given twice: requests spread over two stub servers; a server that dies is dropped by its breaker
while the other finishes the run (library and CLI)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from openai_stub import OpenAIStub

from fbagent.providers.breaker import BreakerLimits
from fbagent.providers.config import ModelConfig
from fbagent.providers.registry import create_backend

DATASET = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
OPTIONS = ["1", "2", "3", "4"]


def _ask(be, prompts: list[str]) -> list:
    async def main() -> list:
        try:
            return await be.choose_batch(prompts, OPTIONS)
        finally:
            await be.aclose_loop()

    return asyncio.run(main())


def _answer(_request: dict) -> str:
    return json.dumps({"answer": "3"})


def test_requests_are_split_and_a_dead_server_is_dropped(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("FBAGENT_BREAKER_SECONDS", "0")   # drop a server after 8 failures in a row at once
    with OpenAIStub(_answer, latency_s=0.01) as a, OpenAIStub(_answer, latency_s=0.01) as b:
        config = ModelConfig(backend="openai", model="m", base_url=a.base_url, base_urls=(a.base_url, b.base_url),
                             retries=2, timeout_s=5.0)
        be = create_backend(config)
        assert be.pool is not None and be.pool.endpoints[0].breaker.limits == BreakerLimits(8, 0.0)
        first = _ask(be, [f"question {i}" for i in range(40)])
        assert [r.choice for r in first] == ["3"] * 40
        # least-loaded with round-robin ties: both servers get a share (exactly half when all answer alike)
        assert a.request_count + b.request_count == 40 and min(a.request_count, b.request_count) >= 10
        b.stop()
        second = _ask(be, [f"again {i}" for i in range(40)])
        failed_b = be.pool.stats()[1]["failed"]
        third = _ask(be, [f"third {i}" for i in range(10)])
        be.close()
    assert [r.error for r in second] == [None] * 40 and [r.choice for r in second] == ["3"] * 40
    stats = be.pool.stats()
    assert stats[1]["dropped"] is True and stats[0]["dropped"] is False
    # B failed at least 8 times in a row before it was dropped (the requests already sent to it when it died:
    # at most its half of the 40 sent at once), and is asked nothing after: each request that failed on B
    # went on to A at once, so A answered all of the second and third batch
    assert 8 <= failed_b <= 20 and stats[1]["failed"] == failed_b
    assert [r.choice for r in third] == ["3"] * 10
    assert stats[0]["answered"] == a.request_count and stats[0]["failed"] == 0


def test_a_request_error_is_not_sent_to_the_other_server(monkeypatch):
    from openai_stub import error

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    with OpenAIStub(lambda r: error(400, "bad request")) as a, OpenAIStub(lambda r: error(400, "bad request")) as b:
        be = create_backend(ModelConfig(backend="openai", model="m", base_url=a.base_url,
                                        base_urls=(a.base_url, b.base_url), retries=1, timeout_s=5.0))
        [r] = _ask(be, ["q"])
        be.close()
    assert r.choice is None and "400" in (r.error or "")
    assert a.request_count + b.request_count == 1     # a 400 is the request's fault: the same on every server


def test_cli_two_base_urls_one_killed_the_run_finishes(tmp_path):
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_"))}
    env.update({"OPENAI_API_KEY": "sk-test-not-a-real-key", "FBAGENT_BREAKER_SECONDS": "0", "COLUMNS": "200"})
    with OpenAIStub(_answer) as a:
        live_url = a.base_url
        b = OpenAIStub(_answer).start()
        dead_url = b.base_url
        b.stop()   # killed before the run: every request to it is refused
        args = [sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET), "--backend", "openai",
                "--model", "m", "--base-url", dead_url, "--base-url", a.base_url, "--limit", "3",
                "--templates", "v1,v3", "--out", str(out)]
        proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "finished" and manifest["sessions"][-1]["failed"] == 0
    assert manifest["n_predictions"] == 24 and a.request_count == 24
    assert manifest["backend_options"]["base_urls"] == [dead_url, live_url]


def test_generation_create_spreads_over_the_servers(monkeypatch):
    """generate's structured calls (OpenAIBackend.create) go through the same pool."""
    from pydantic import BaseModel

    from fbagent.providers.config import GENERATION
    from fbagent.providers.hooks import CallHooks
    from fbagent.providers.registry import create_provider

    class Definition(BaseModel):
        definition: str

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    with OpenAIStub(lambda r: json.dumps({"definition": "to go"}), latency_s=0.01) as a, \
            OpenAIStub(lambda r: json.dumps({"definition": "to go"}), latency_s=0.01) as b:
        be = create_provider(ModelConfig(backend="openai", model="m", base_url=a.base_url,
                                         base_urls=(a.base_url, b.base_url)), GENERATION)

        async def main() -> list:
            try:
                return await asyncio.gather(*(be.create(
                    response_model=Definition, messages=[{"role": "user", "content": f"define {i}"}], temperature=0.0,
                    max_tokens=20, seed=0, max_reasks=0, hooks=CallHooks()) for i in range(10)))
            finally:
                await be.aclose()

        answers = asyncio.run(main())
    assert [x.definition for x in answers] == ["to go"] * 10
    assert a.request_count == b.request_count == 5   # ten at once: least-loaded with round-robin ties, 5 and 5
