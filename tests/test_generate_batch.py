"""`generate --batch` against the OpenAI Batch API stub (tests/batch_stub.py over tests/openai_stub.py):
each wave of the entry graph is one job; the items equal a direct run's; job ids are stored; failed and
expired lines are resubmitted; a re-ask goes into the next round; kill -9 between submit and completion
resumes the same job; Ctrl-C cancels the open job and the rerun finishes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch_stub import BatchStub  # noqa: E402
from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub, schema_name  # noqa: E402

from fbagent.generation import generate  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402

#: the fields of an item that the requests and answers decide
FIELDS = ("id", "status", "question", "sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime",
          "verb_form_a", "verb_form_b", "reasons", "attempts", "verifier")


class BagOfWords:
    """Hashed bag of words, 256-d, L2-normalised rows (a real encoder's interface, loaded at once)."""

    name = "bag-of-words"

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 256), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.encode()) % 256] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


@pytest.fixture(autouse=True)
def _fast_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FBAGENT_BATCH_POLL_S", "0.02")


def _options(stub: OpenAIStub, **kw: Any) -> Any:
    return generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                            run="r", **{"screen": False, **kw})


def _no_call_ids(value: Any) -> Any:
    """``value`` without its ``call_id`` keys (row ids of llm_calls follow the order the answers came in)."""
    if isinstance(value, dict):
        return {k: _no_call_ids(v) for k, v in value.items() if k != "call_id"}
    return [_no_call_ids(v) for v in value] if isinstance(value, list) else value


def _items(db_path: Path) -> list[dict[str, Any]]:
    db = open_db(db_path)
    rows = [dict(r) for r in db.query("SELECT * FROM items ORDER BY id")]
    return [{k: _no_call_ids(json.loads(r[k])) if k in ("reasons", "verifier") and r[k] else r[k] for k in FIELDS}
            for r in rows]


def _jobs(db_path: Path) -> list[tuple[str, int, int, str, int, int]]:
    db = open_db(db_path)
    return [(r["job_id"], r["wave"], r["lines"], r["status"], r["answered"], r["failed"])
            for r in db.query("SELECT * FROM batch_jobs ORDER BY id")]


async def _direct(tmp_path: Path, responder: Any, **kw: Any) -> list[dict[str, Any]]:
    with OpenAIStub(responder) as stub:
        await generate(tmp_path / "direct.db", _options(stub, **kw), encoder=BagOfWords(), command="test")
    return _items(tmp_path / "direct.db")


async def test_each_wave_is_one_job_and_the_items_equal_the_direct_run(tmp_path):
    direct = await _direct(tmp_path, FrameResponder(), pairs=3, per_pair=2)
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub).install()
        summary = await generate(tmp_path / "b.db", _options(stub, pairs=3, per_pair=2, batch=True),
                                 encoder=BagOfWords(), command="test")
        chat = stub.request_count
    assert chat == 0   # no request went to /v1/chat/completions
    # 6 entries: 6 base pairs, 12 extensions, 24 definitions (4 per entry), one job per wave
    assert _jobs(tmp_path / "b.db") == [("batch_1", 1, 6, "completed", 6, 0), ("batch_2", 2, 12, "completed", 12, 0),
                                        ("batch_3", 3, 24, "completed", 24, 0)]
    assert batches.created == ["batch_1", "batch_2", "batch_3"] and summary.batch_waves == 3
    assert summary.counts["verified"] == 6 and summary.calls == 42 and summary.failures == 0
    assert _items(tmp_path / "b.db") == direct and len(direct) == 6
    db = open_db(tmp_path / "b.db")
    row = next(db.query("SELECT request, attempts, input_tokens FROM llm_calls WHERE task = 'generate_base' LIMIT 1"))
    assert json.loads(row["request"])["batch"] == {"provider": "openai", "jobs": ["batch_1"]}
    assert row["attempts"] == 1 and row["input_tokens"] > 0
    # the same command again: every entry finished, nothing submitted
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub).install()
        await generate(tmp_path / "b.db", _options(stub, pairs=3, per_pair=2, batch=True), encoder=BagOfWords(),
                       command="test")
        assert batches.created == [] and stub.request_count == 0


async def test_failed_and_expired_lines_are_submitted_again(tmp_path):
    direct = await _direct(tmp_path, FrameResponder(), pairs=4)
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub, fail_next=3).install()
        await generate(tmp_path / "failed.db", _options(stub, pairs=4, batch=True), encoder=BagOfWords(), command="t")
        # the first job fails 3 of its 4 base pairs: a second job of wave 1 asks those 3
        assert _jobs(tmp_path / "failed.db")[:2] == [("batch_1", 1, 4, "completed", 1, 3),
                                                     ("batch_2", 1, 3, "completed", 3, 0)]
        batches.expire_next = True
        await generate(tmp_path / "expired.db", _options(stub, pairs=4, batch=True), encoder=BagOfWords(), command="t")
    # an expired job answered its first half (2 of 4): the other 2 go into the next job of the same wave
    jobs = [j for j in _jobs(tmp_path / "expired.db")]
    assert jobs[:2] == [(jobs[0][0], 1, 4, "expired", 2, 0), (jobs[1][0], 1, 2, "completed", 2, 0)]
    assert _items(tmp_path / "failed.db") == direct == _items(tmp_path / "expired.db")
    db = open_db(tmp_path / "failed.db")
    errors = [json.loads(r["request"]).get("transport_errors") for r in db.query(
        "SELECT request FROM llm_calls WHERE task = 'generate_base' ORDER BY id")]
    assert sum(1 for e in errors if e) == 3 and "scripted line failure" in next(e for e in errors if e)[0]


async def test_an_answer_that_fails_validation_is_re_asked_in_the_next_round(tmp_path):
    """The first answer to each base pair lacks a field: the direct run re-asks it at once, the batch run in
    a second job of the same wave, with the same re-ask messages; the items are equal."""
    def responder() -> Any:
        good = FrameResponder()

        def answer(request: dict[str, Any]) -> Any:
            value = good(request)
            if schema_name(request) == "BasePair" and not any(
                    m["role"] == "assistant" for m in request["messages"]):
                value = {k: v for k, v in value.items() if k != "question"}   # invalid: re-asked
            return value
        return answer

    direct = await _direct(tmp_path, responder(), pairs=2)
    with OpenAIStub(responder()) as stub:
        BatchStub(stub).install()
        await generate(tmp_path / "b.db", _options(stub, pairs=2, batch=True), encoder=BagOfWords(), command="t")
    assert _jobs(tmp_path / "b.db")[:2] == [("batch_1", 1, 2, "completed", 2, 0), ("batch_2", 1, 2, "completed", 2, 0)]
    assert _items(tmp_path / "b.db") == direct
    db = open_db(tmp_path / "b.db")
    rows = list(db.query("SELECT request, attempts FROM llm_calls WHERE task = 'generate_base'"))
    assert [r["attempts"] for r in rows] == [2, 2]
    assert all(json.loads(r["request"])["reasks"][0]["attempt"] == 1 for r in rows)


async def test_a_line_that_fails_every_round_fails_its_entry_as_a_failed_call_does(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub, fail_next=1).install()
        original = batches._finish

        def always_fail_first(batch: dict[str, Any]) -> None:   # the first line of every job fails
            batches.fail_next = 1
            original(batch)
        batches._finish = always_fail_first
        summary = await generate(tmp_path / "b.db", _options(stub, pairs=1, batch=True), encoder=BagOfWords(),
                                 command="t")
    assert summary.counts["failed"] == 1
    assert [j[2:] for j in _jobs(tmp_path / "b.db")] == [(1, "completed", 0, 1)] * 4   # ROUNDS submissions
    (item,) = _items(tmp_path / "b.db")
    assert item["reasons"] == ["generate_base: batch line failed: server_error: scripted line failure"]


# --------------------------------------------------------------------------- the CLI: kill -9 and Ctrl-C


def _cli(db_path: Path, stub: OpenAIStub) -> list[str]:
    return [sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "2", "--generator", "openai",
            "--base-url", stub.base_url, "--model", "stub-model", "--no-screen", "--batch", "--run", "r",
            "--db", str(db_path)]


def _env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_"))}
    return {**base, "COLUMNS": "200", "OPENAI_API_KEY": "", "FBAGENT_BATCH_POLL_S": "0.05", "PYTHONUNBUFFERED": "1"}


def _stored_jobs(db_path: Path) -> list[tuple[str, str]]:
    try:
        with sqlite3.connect(db_path, timeout=5) as conn:
            return conn.execute("SELECT job_id, status FROM batch_jobs ORDER BY id").fetchall()
    except sqlite3.OperationalError:
        return []


def _start_and_wait_for_submit(stub: OpenAIStub, batches: BatchStub, db_path: Path) -> subprocess.Popen:
    proc = subprocess.Popen(_cli(db_path, stub), env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 240
    while not (batches.created and _stored_jobs(db_path)) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    time.sleep(0.3)   # a few polls of the open job
    return proc


def test_kill_9_between_submit_and_completion_polls_the_same_job(tmp_path):
    db_path = tmp_path / "fb.db"
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub, polls=10**9).install()
        proc = _start_and_wait_for_submit(stub, batches, db_path)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert batches.created == ["batch_1"] and _stored_jobs(db_path) == [("batch_1", "in_progress")]
        shown = _runs_show(db_path)   # the pending job: id, provider, wave, lines, state, age
        assert "Batch jobs (1 pending; the same `fbagent generate` command polls them)" in shown
        (row,) = [ln.split() for ln in shown.splitlines() if ln.lstrip().startswith("batch_1")]
        assert row[:5] == ["batch_1", "openai:stub-model", "1", "2", "in_progress"] and row[-1] == "s", shown
        batches.polls = 0
        again = subprocess.run(_cli(db_path, stub), env=_env(), capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        # wave 1 was polled, not submitted again; waves 2 and 3 followed: nothing paid twice
        assert batches.created == ["batch_1", "batch_2", "batch_3"] and stub.request_count == 0
    assert [s for _, s in _stored_jobs(db_path)] == ["completed"] * 3
    assert open_db(db_path).execute("SELECT COUNT(*) FROM items WHERE status = 'verified'").fetchone()[0] == 2
    assert "waiting for 1 batch job: batch_1 (openai stub-model, wave 1, 2 lines)" in again.stdout + again.stderr
    shown = json.loads(_runs_show(db_path, "--json"))
    assert [(j["job_id"], j["wave"], j["lines"], j["status"], j["open"]) for j in shown["batch_jobs"]] == [
        ("batch_1", 1, 2, "completed", False), ("batch_2", 2, 4, "completed", False),
        ("batch_3", 3, 8, "completed", False)]
    # every call went through a batch: the cost rows are the batch ones (billed at the batch discount)
    assert [(m["model"], m["batch"], m["calls"]) for m in shown["cost"]["models"]] == [("stub-model", True, 14)]


def _runs_show(db_path: Path, *extra: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "runs", "show", "r", "--db", str(db_path), *extra],
                          env=_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_ctrl_c_cancels_the_open_job_and_the_rerun_finishes(tmp_path):
    db_path = tmp_path / "fb.db"
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub, polls=10**9).install()
        proc = _start_and_wait_for_submit(stub, batches, db_path)
        os.kill(proc.pid, signal.SIGINT)   # one SIGINT, as the supervisor passes Ctrl-C on
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert batches.cancelled == ["batch_1"] and _stored_jobs(db_path) == [("batch_1", "cancelling")]
        batches.polls = 0
        again = subprocess.run(_cli(db_path, stub), env=_env(), capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
    # the cancelled job answered nothing: its 2 lines went into batch_2, then the later waves
    assert _stored_jobs(db_path) == [("batch_1", "cancelled"), ("batch_2", "completed"), ("batch_3", "completed"),
                                     ("batch_4", "completed")]
    assert open_db(db_path).execute("SELECT COUNT(*) FROM items WHERE status = 'verified'").fetchone()[0] == 2


def test_batch_with_a_provider_without_a_batch_api_is_refused(tmp_path):
    from fbagent.errors import FbagentError

    opts = generate_options(generator="local", batch=True, screen=False)
    with pytest.raises(FbagentError, match="--batch needs a generator with a batch API, not --generator local"):
        asyncio.run(generate(tmp_path / "fb.db", opts))
    assert not (tmp_path / "fb.db").exists()


async def test_a_dry_run_with_batch_prices_the_entries_and_the_screening_at_half(tmp_path, monkeypatch):
    """$1 in / $2 out per 1M tokens, batch discount 0.5: the entry calls (generator and verifier) and the
    screening (the first wave with --batch) at half; the plan table names the --batch run's cost."""
    import io

    from rich.console import Console

    from fbagent.commands.generate_view import GenerateView
    from fbagent.lexicon.importer import import_embedded
    from fbagent.providers.prices import usd

    prices = tmp_path / "prices.toml"
    prices.write_text('[openai]\nbatch_discount = 0.5\n[openai.models]\n"stub-model" = { input = 1.0, output = 2.0 }\n')
    monkeypatch.setenv("FBAGENT_PRICES", str(prices))
    import_embedded(open_db(tmp_path / "fb.db"))
    out = io.StringIO()
    with OpenAIStub(FrameResponder()) as stub:
        opts = generate_options(generator="openai", base_url=stub.base_url, model="stub-model", pairs=3,
                                screen=True, dry_run=True, batch=True, run="r")
        summary = await generate(tmp_path / "fb.db", opts, on_event=GenerateView(Console(file=out, width=200)))
        assert stub.request_count == 0
    plan = summary.plan
    (gi, go), (vi, vo), (si, so) = (plan["tokens_by_role"][r] for r in ("generator", "verifier", "screening"))
    assert si > 0 and plan["batch"] is True
    expected = ((gi + vi + si) * 1.0 + (go + vo + so) * 2.0) / 1e6 / 2
    assert plan["cost_usd_batch"] == pytest.approx(expected)
    assert plan["cost_usd"] == pytest.approx(((gi + vi + si) * 1.0 + (go + vo + so) * 2.0) / 1e6)
    text = out.getvalue()
    assert "cost of this --batch run, US$ (no retries; screening batched too)" in text
    assert usd(expected) in text
    assert not open_db(tmp_path / "fb.db")["batch_jobs"].count


async def test_the_llm_verb_check_joins_the_waves_and_the_items_equal_the_direct_run(tmp_path):
    """--verb-check llm: the verifier's verb checks (two per base pair, gathered in one node) are a wave of
    their own between the base pairs and the extensions; the extensions' checks follow theirs."""
    import re

    from openai_stub import by_schema, request_text

    def verb_use(request: dict[str, Any]) -> dict[str, Any]:
        verb = re.search(r"Target verb \(dictionary form\): (\S+)", request_text(request)).group(1)
        return {"used_as_verb": True, "form": verb}

    def responder() -> Any:
        return by_schema({"VerbUse": verb_use}, default=FrameResponder())

    direct = await _direct(tmp_path, responder(), pairs=2, verb_check="llm")
    with OpenAIStub(responder()) as stub:
        BatchStub(stub).install()
        summary = await generate(tmp_path / "b.db", _options(stub, pairs=2, verb_check="llm", batch=True),
                                 encoder=BagOfWords(), command="t")
        assert stub.request_count == 0
    assert _items(tmp_path / "b.db") == direct and summary.counts["verified"] == 2
    db = open_db(tmp_path / "b.db")
    waves = [(r["wave"], r["lines"]) for r in db.query("SELECT wave, lines FROM batch_jobs ORDER BY id")]
    tasks = dict(db.execute("SELECT task, COUNT(*) FROM llm_calls GROUP BY task").fetchall())
    # base pairs (2), their verb checks (4), extensions (4), then the extensions' checks one side at a time
    # (the node checks side a before side b), then the definitions (8)
    assert waves[:3] == [(1, 2), (2, 4), (3, 4)] and waves[-1] == (len(waves), 8)
    assert tasks == {"generate_base": 2, "verb_check": 8, "extend": 4, "define": 8}
    direct_tasks = dict(open_db(tmp_path / "direct.db").execute(
        "SELECT task, COUNT(*) FROM llm_calls GROUP BY task").fetchall())
    assert tasks == direct_tasks


async def test_max_cost_counts_the_calls_a_batch_job_answered_at_the_batch_price(tmp_path, monkeypatch):
    """Wave 1 (6 base pairs) costs c1 at the standard price, c1 / 2 at the batch price (batch_discount 0.5).
    With --max-cost 0.75 x c1 the check before wave 2 lets it go (c1 / 2 spent: the batch price, as billed);
    counted at the standard price it would have stopped there. Wave 2 (12 extensions) then reaches the cap:
    no wave 3, and the run stops with the cap's error."""
    from fbagent.providers.prices import CostCapReached

    prices = tmp_path / "prices.toml"
    prices.write_text('[openai]\nbatch_discount = 0.5\n[openai.models]\n"stub-model" = { input = 1.0, output = 1.0 }\n')
    monkeypatch.setenv("FBAGENT_PRICES", str(prices))
    with OpenAIStub(FrameResponder()) as stub:
        BatchStub(stub).install()
        await generate(tmp_path / "a.db", _options(stub, pairs=3, per_pair=2, batch=True), encoder=BagOfWords(),
                       command="test")
    tokens = open_db(tmp_path / "a.db").execute(
        "SELECT SUM(input_tokens) + SUM(output_tokens) FROM llm_calls WHERE task = 'generate_base'").fetchone()[0]
    c1 = tokens / 1e6
    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub).install()
        with pytest.raises(CostCapReached, match=r"--max-cost \$.* is spent"):
            await generate(tmp_path / "b.db", _options(stub, pairs=3, per_pair=2, batch=True, max_cost=0.75 * c1),
                           encoder=BagOfWords(), command="test")
    assert batches.created == ["batch_1", "batch_2"]
    assert _jobs(tmp_path / "b.db") == [("batch_1", 1, 6, "completed", 6, 0), ("batch_2", 2, 12, "completed", 12, 0)]


async def test_screening_is_the_first_wave_and_the_items_equal_the_direct_run(tmp_path):
    """With screening on, --batch sends the screening requests as the run's first job (3 pairs: 3 lines), then
    the entry waves; nothing goes to /v1/chat/completions and the items equal the direct run's."""
    direct = await _direct(tmp_path, FrameResponder(), pairs=3, per_pair=1, screen=True)
    with OpenAIStub(FrameResponder()) as stub:
        BatchStub(stub).install()
        summary = await generate(tmp_path / "b.db", _options(stub, pairs=3, per_pair=1, batch=True, screen=True),
                                 encoder=BagOfWords(), command="test")
        assert stub.request_count == 0
    jobs = _jobs(tmp_path / "b.db")
    assert jobs[0] == ("batch_1", 1, 3, "completed", 3, 0)            # the screening wave
    assert [j[1] for j in jobs] == list(range(1, len(jobs) + 1)) and summary.batch_waves == len(jobs)
    db = open_db(tmp_path / "b.db")
    screens = [json.loads(r["request"]) for r in db.query("SELECT request FROM llm_calls WHERE task = 'screen'")]
    assert len(screens) == 3 and all(r["batch"] == {"provider": "openai", "jobs": ["batch_1"]} for r in screens)
    assert _items(tmp_path / "b.db") == direct and len(direct) == 3
