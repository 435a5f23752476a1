"""Money: the price table, --dry-run dollars and --max-cost, with values computed by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from openai_stub import OpenAIStub, Reply

from fbagent.errors import FbagentError
from fbagent.providers.prices import FREE, CostMeter, Price, load_prices, usd

DATASET = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


def test_table_lookup_prefix_and_user_file(tmp_path, monkeypatch):
    monkeypatch.delenv("FBAGENT_PRICES", raising=False)
    table = load_prices()
    assert table.date == "2025-08-15"
    p = table.lookup("openai", "gpt-4o-mini-2024-07-18")          # the longest key followed by "-"
    assert (p.key, p.input, p.output, p.batch_discount) == ("gpt-4o-mini", 0.15, 0.60, 0.5)
    assert table.lookup("openai", "gpt-4o").key == "gpt-4o"
    assert table.lookup("openai", "Qwen/Qwen2.5-7B") is None
    assert table.lookup("vllm", "anything") is FREE and table.lookup("local", None) is FREE
    # 1,000,000 in + 200,000 out at gpt-4o-mini: 0.15 + 0.2 x 0.60 = $0.27; at batch prices half: $0.135
    assert p.cost(1_000_000, 200_000) == pytest.approx(0.27)
    assert p.cost(1_000_000, 200_000, batch=True) == pytest.approx(0.135)
    user = tmp_path / "mine.toml"
    user.write_text('date = "2026-01-01"\n[openai]\nsource = "my contract"\n[openai.models]\n'
                    '"gpt-4o-mini" = { input = 0.1, output = 0.5 }\n"my-model" = { input = 0, output = 0 }\n')
    monkeypatch.setenv("FBAGENT_PRICES", str(user))
    mine = load_prices()
    assert mine.lookup("openai", "gpt-4o-mini").input == 0.1 and mine.lookup("openai", "my-model").cost(10, 10) == 0
    assert mine.lookup("openai", "gpt-4.1").input == 2.0             # the rest of fbagent's table stays
    user.write_text('[openai.models]\n"x" = { input = "cheap" }\n')
    with pytest.raises(FbagentError, match="has no input and output price"):
        load_prices()
    assert usd(12.345) == "$12.35" and usd(0.00123) == "$0.0012" and usd(None) == "unknown" and usd(0) == "$0.00"


def test_meter():
    meter = CostMeter(Price(1.0, 2.0, key="m"), cap=0.01)
    for _ in range(9):
        meter.add(1000, 10)          # (1000 x 1 + 10 x 2) / 1e6 = $0.00102 per request
    assert meter.spent == pytest.approx(0.00918) and not meter.over
    meter.add(1000, 10)
    assert meter.spent == pytest.approx(0.0102) and meter.over
    half = CostMeter(Price(1.0, 2.0, batch_discount=0.5, key="m"))
    half.add(1000, 10, batch=True)                                   # a batch-answered prediction: $0.00051
    half.add(1000, 10)                                               # a direct one: $0.00102
    assert half.spent == pytest.approx(0.00153)


def test_session_cost_prices_batch_answered_calls_at_the_batch_discount():
    from types import SimpleNamespace

    from fbagent.generation.budget import RunBudget, session_cost
    from fbagent.llm.client import UsageStats

    price = Price(1.0, 2.0, batch_discount=0.5, key="m")
    # 3,000 in / 30 out this session, 2,000 / 20 of them through a batch job:
    # direct (1,000 x 1 + 10 x 2) / 1e6 = $0.00102; batch (2,000 x 1 + 20 x 2) / 1e6 x 0.5 = $0.00102
    client = SimpleNamespace(stats=UsageStats(input_tokens=3000, output_tokens=30, batch_input_tokens=2000,
                                              batch_output_tokens=20))
    assert session_cost(client, price) == pytest.approx(0.00204)
    budget = RunBudget(cap=0.003, before=0.001, clients=[(client, price)])
    assert budget.spent() == pytest.approx(0.00304) and budget.over()
    assert not RunBudget(cap=0.004, before=0.001, clients=[(client, price)]).over()   # standard prices: 0.00406


def _env(prices: Path) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_"))}
    return {**base, "COLUMNS": "200", "OPENAI_API_KEY": "sk-test-not-a-real-key", "FBAGENT_PRICES": str(prices)}


def test_max_cost_stops_within_one_wave_and_resumes_with_a_higher_cap(tmp_path):
    prices = tmp_path / "prices.toml"
    prices.write_text('[openai.models]\n"priced" = { input = 1.0, output = 2.0 }\n')
    out = tmp_path / "out"
    # every answer reports 1000 input and 10 output tokens: (1000 x $1 + 10 x $2) / 1e6 = $0.00102 per request
    with OpenAIStub(lambda r: Reply(content=json.dumps({"answer": "1"}), prompt_tokens=1000, completion_tokens=10)) as stub:
        def run(*extra: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET),
                                   "--backend", "openai", "--model", "priced", "--base-url", stub.base_url,
                                   "--limit", "3", "--templates", "v1,v3", "--out", str(out), *extra],
                                  env=_env(prices), capture_output=True, text=True, timeout=300)

        def stored() -> int:
            return (out / "predictions.jsonl").read_text().count("\n")

        # one request in flight: $0.01 is reached by the 10th request (10 x 0.00102 = 0.0102 >= 0.01)
        first = run("--max-cost", "0.01", "--concurrency", "1")
        assert first.returncode == 1, first.stderr
        assert stored() == 10 and stub.request_count == 10
        assert "error: --max-cost $0.01 is spent ($0.01 at priced's prices" in first.stderr
        assert "stopped: 10 new predictions of this session are stored" in first.stderr
        assert "run the same command with a higher --max-cost" in first.stderr
        # the same cap again: already spent, nothing is asked
        again = run("--max-cost", "0.01", "--concurrency", "1")
        assert again.returncode == 1 and stub.request_count == 10
        # four in flight, cap $0.02: 20 requests reach 0.0204; at most the 3 others in flight finish after it
        higher = run("--max-cost", "0.02", "--concurrency", "4")
        assert higher.returncode == 1 and 20 <= stored() <= 23
        last = run("--max-cost", "1")
        assert last.returncode == 0, last.stderr
        assert stored() == 24 and stub.request_count == 24   # every prediction asked exactly once
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "finished"


def test_dry_run_dollars(tmp_path):
    prices = tmp_path / "prices.toml"
    prices.write_text('[openai]\nbatch_discount = 0.5\n[openai.models]\n"priced" = { input = 1.0, output = 2.0 }\n')
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET),
                           "--backend", "openai", "--model", "priced", "--base-url", "http://127.0.0.1:9/v1",
                           "--limit", "3", "--templates", "v1", "--orders", "canonical", "--out", str(tmp_path / "o"),
                           "--dry-run", "--llm-retries", "2"],
                          env=_env(prices), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "o").exists()
    row = next(ln for ln in proc.stdout.splitlines() if ln.startswith("openai:priced"))
    cells = row.split()
    # 3 entries x 2 problems (base, extended; one order) x 1 template = 6 requests, 8 output tokens each
    assert cells[1] == "6" and cells[3] == "48"
    tokens_in = int(cells[2].replace(",", ""))
    cost = (tokens_in * 1.0 + 48 * 2.0) / 1e6
    assert cells[4:7] == [usd(cost), usd(3 * cost), usd(cost / 2)]   # no retries, 1 + 2 tries, batch


def test_dry_run_names_the_default_local_model(tmp_path):
    """Without --model, the local backend's row says "default" (as its result folder local-default does), never
    "local:None"; the dry run loads no model and writes nothing."""
    prices = tmp_path / "prices.toml"
    prices.write_text("")
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET),
                           "--backend", "local", "--limit", "2", "--templates", "v1", "--orders", "canonical",
                           "--out", str(tmp_path / "o"), "--dry-run"],
                          env=_env(prices), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "o").exists()
    assert "local:None" not in proc.stdout
    row = next(ln for ln in proc.stdout.splitlines() if ln.startswith("local:default"))
    assert row.split()[1] == "4"   # 2 entries x 2 problems x 1 template x 1 order


async def test_generate_max_cost_stops_after_the_wave_in_flight_and_resumes(tmp_path, monkeypatch):
    """At $1 per input token the first answered call spends more than the cap of $1: the two entries in
    flight (2 x --concurrency 1) finish and are stored, the third never starts; the same cap again starts
    nothing; a higher cap finishes the run."""
    from factories import generate_options
    from gen_responder import FrameResponder

    from fbagent.generation import generate
    from fbagent.lexicon.importer import import_embedded
    from fbagent.providers.prices import CostCapReached
    from fbagent.store.db import open_db

    prices = tmp_path / "prices.toml"
    prices.write_text('[openai.models]\n"stub-model" = { input = 1000000, output = 0 }\n')
    monkeypatch.setenv("FBAGENT_PRICES", str(prices))
    db_path = tmp_path / "fb.db"
    import_embedded(open_db(db_path))

    def stored() -> int:
        return open_db(db_path).execute("SELECT COUNT(*) FROM items").fetchone()[0]

    with OpenAIStub(FrameResponder()) as stub:
        def opts(cap: float):
            return generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                                    pairs=3, screen=False, concurrency=1, max_cost=cap, run="capped")

        with pytest.raises(CostCapReached, match=r"--max-cost \$1.00 is spent .*; 1 entries were not started"):
            await generate(db_path, opts(1.0))
        assert stored() == 2
        calls = stub.request_count
        with pytest.raises(CostCapReached, match="1 entries were not started"):
            await generate(db_path, opts(1.0))
        assert stored() == 2 and stub.request_count == calls   # already spent: nothing asked
        await generate(db_path, opts(1e12))
        assert stored() == 3
