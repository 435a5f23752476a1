"""`eval run --batch` against a stub of the OpenAI Batch API (tests/batch_stub.py): the same predictions as
a direct run, job ids stored, partial failure and expiry resubmitted, kill -9 between submit and completion
resumed without a second submission, Ctrl-C cancels the open job."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from batch_stub import BatchStub
from openai_stub import OpenAIStub, Reply, request_text

DATASET = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


def _answer(request: dict) -> str:   # a fixed answer per prompt, the same through both paths
    return json.dumps({"answer": str(1 + hashlib.sha256(request_text(request).encode()).digest()[0] % 4)})


def _env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_"))}
    return {**base, "COLUMNS": "200", "OPENAI_API_KEY": "sk-test-not-a-real-key", "FBAGENT_BATCH_POLL_S": "0.05"}


def _args(stub: OpenAIStub, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET), "--backend", "openai",
            "--model", "m", "--base-url", stub.base_url, "--limit", "3", "--templates", "v1,v3", "--out", str(out),
            *extra]


def _run(stub: OpenAIStub, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(_args(stub, out, *extra), env=_env(), capture_output=True, text=True, timeout=300)


def _choices(out: Path) -> dict[str, str | None]:
    rows = [json.loads(ln) for ln in (out / "predictions.jsonl").read_text().splitlines()]
    return {r["key"]: r["choice"] for r in rows if not r.get("error")}


def _jobs(out: Path) -> list[dict]:
    return json.loads((out / "batch_jobs.json").read_text())["jobs"]


def test_batch_equals_direct_and_resubmits_failed_and_expired_lines(tmp_path):
    with OpenAIStub(_answer) as stub:
        direct = _run(stub, tmp_path / "direct")
        assert direct.returncode == 0, direct.stderr
        batches = BatchStub(stub, polls=2, fail_next=5).install()
        batch = _run(stub, tmp_path / "batch", "--batch")
        assert batch.returncode == 0, batch.stderr
        # 24 questions: the first job answers 19 and fails 5, which the second job answers
        assert [(j["id"], len(j["keys"]), j["status"], j["answered"], j["failed"]) for j in _jobs(tmp_path / "batch")] == [
            ("batch_1", 24, "completed", 19, 5), ("batch_2", 5, "completed", 5, 0)]
        # the progress view names the pending job as generate --batch does, then what each finished job answered
        waiting = [ln for ln in batch.stderr.splitlines() if ln.startswith("waiting for")]
        assert re.fullmatch(r"waiting for 1 batch job: batch_1 \(openai m, wave 1, 24 lines\): submitted, \d+ s",
                            waiting[0]), batch.stderr
        assert any(re.fullmatch(r"waiting for 1 batch job: batch_1 \(openai m, wave 1, 24 lines\): in_progress, "
                                r"\d+ s", ln) for ln in waiting), batch.stderr
        assert any(ln.startswith("waiting for 1 batch job: batch_2 (openai m, wave 2, 5 lines): ") for ln in waiting)
        assert "batch job batch_1: completed, 19 of 24 lines answered" in batch.stderr
        assert "batch job batch_2: completed, 5 of 5 lines answered" in batch.stderr
        assert "waiting for" not in direct.stderr
        batches.expire_next = True
        expired = _run(stub, tmp_path / "expired", "--batch")
        assert expired.returncode == 0, expired.stderr
        # an expired job answered its first half (12); the other 12 go into the next job
        assert [(len(j["keys"]), j["status"], j["answered"]) for j in _jobs(tmp_path / "expired")] == [
            (24, "expired", 12), (12, "completed", 12)]
    assert len(_choices(tmp_path / "direct")) == 24
    assert _choices(tmp_path / "batch") == _choices(tmp_path / "direct") == _choices(tmp_path / "expired")
    summaries = [json.loads((tmp_path / f / "summary.json").read_text())["accuracy"] for f in ("direct", "batch")]
    assert summaries[0] == summaries[1]


def test_max_cost_counts_batch_answers_at_the_batch_price(tmp_path):
    """Every answer reports 1,000 input and 10 output tokens at $1 / $2 per 1M: $0.00102 at the standard price,
    $0.00051 at the batch price (batch_discount 0.5). The first job answers 19 of 24 lines (5 fail): $0.00969 at
    the batch price, $0.01938 at the standard one. With --max-cost 0.015 the 5 failed lines are resubmitted
    (batch price: under the cap) and the run finishes; counted at the standard price it would stop there."""
    prices = tmp_path / "prices.toml"
    prices.write_text('[openai]\nbatch_discount = 0.5\n[openai.models]\n"m" = { input = 1.0, output = 2.0 }\n')
    out = tmp_path / "out"
    with OpenAIStub(lambda r: Reply(content=_answer(r), prompt_tokens=1000, completion_tokens=10)) as stub:
        batches = BatchStub(stub, polls=0, fail_next=5).install()
        proc = subprocess.run(_args(stub, out, "--batch", "--max-cost", "0.015"),
                              env={**_env(), "FBAGENT_PRICES": str(prices)}, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert batches.created == ["batch_1", "batch_2"]
        rows = [json.loads(ln) for ln in (out / "predictions.jsonl").read_text().splitlines()]
        assert len(rows) == 24 and all(r["batch"] is True for r in rows)
        # a cap under the first job's $0.00969: the 5 failed lines are not submitted again, exit 1
        batches.fail_next = 5
        capped = subprocess.run(_args(stub, tmp_path / "capped", "--batch", "--max-cost", "0.009"),
                                env={**_env(), "FBAGENT_PRICES": str(prices)}, capture_output=True, text=True,
                                timeout=300)
        assert batches.created == ["batch_1", "batch_2", "batch_3"]
    assert capped.returncode == 1, capped.stderr
    assert "error: --max-cost $0.0090 is spent ($0.0097 at m's prices" in capped.stderr, capped.stderr
    assert "5 questions not submitted" in capped.stderr


def _start_and_wait_for_submit(stub: OpenAIStub, batches: BatchStub, out: Path) -> subprocess.Popen:
    proc = subprocess.Popen(_args(stub, out, "--batch"), env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while not (batches.created and (out / "batch_jobs.json").is_file()) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    time.sleep(0.3)   # a few polls of the open job
    return proc


def test_kill_9_between_submit_and_completion_resumes_the_same_job(tmp_path):
    out = tmp_path / "out"
    with OpenAIStub(_answer) as stub:
        batches = BatchStub(stub, polls=10**9).install()
        proc = _start_and_wait_for_submit(stub, batches, out)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert batches.created == ["batch_1"] and _jobs(out)[0]["id"] == "batch_1"
        batches.polls = 0
        again = _run(stub, out, "--batch")
        assert again.returncode == 0, again.stderr
        assert batches.created == ["batch_1"]   # polled, not submitted again: nothing paid twice
    assert len(_choices(out)) == 24 and _jobs(out)[0]["status"] == "completed"


def test_ctrl_c_cancels_the_open_job_and_the_rerun_submits_what_it_did_not_answer(tmp_path):
    out = tmp_path / "out"
    with OpenAIStub(_answer) as stub:
        batches = BatchStub(stub, polls=10**9).install()
        proc = _start_and_wait_for_submit(stub, batches, out)
        # Ctrl-C as the supervisor passes it on: one SIGINT reaches the command (os.killpg from here would be a
        # kill(2) to both processes, which the supervisor forwards again: a second interrupt no terminal sends)
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert batches.cancelled == ["batch_1"] and _jobs(out)[0]["status"] == "cancelling"
        batches.polls = 0
        again = _run(stub, out, "--batch")
        assert again.returncode == 0, again.stderr
    assert [(j["id"], j["status"]) for j in _jobs(out)] == [("batch_1", "cancelled"), ("batch_2", "completed")]
    assert len(_choices(out)) == 24
