"""Gemini batch mode (google-genai ``client.batches``) against a stub of its endpoints (tests/gemini_batch_stub.py):
`eval run --batch` and `generate --batch` give the direct run's results; job names are stored; failed and
expired lines are submitted again; Ctrl-C cancels the open job."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gemini_batch_stub import GeminiBatchStub  # noqa: E402
from openai_stub import OpenAIStub, request_text  # noqa: E402

pytest.importorskip("google.genai")

DATASET = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


def _answer(request: dict) -> str:   # a fixed answer per prompt, the same through both paths
    return json.dumps({"answer": str(1 + hashlib.sha256(request_text(request).encode()).digest()[0] % 4)})


def _env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_", "GEMINI_", "GOOGLE_"))}
    return {**base, "COLUMNS": "200", "GEMINI_API_KEY": "test-key", "FBAGENT_BATCH_POLL_S": "0.05"}


def _eval(stub: OpenAIStub, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET), "--backend", "gemini",
         "--model", "gemini-test", "--base-url", stub.root_url, "--limit", "3", "--templates", "v1,v3", "--out",
         str(out), *extra], env=_env(), capture_output=True, text=True, timeout=300)


def _choices(out: Path) -> dict[str, Any]:
    rows = [json.loads(ln) for ln in (out / "predictions.jsonl").read_text().splitlines()]
    return {r["key"]: r["choice"] for r in rows if not r.get("error")}


def _jobs(out: Path) -> list[dict]:
    return json.loads((out / "batch_jobs.json").read_text())["jobs"]


def test_eval_batch_equals_direct_and_resubmits_failed_and_expired_lines(tmp_path):
    with OpenAIStub(_answer) as stub:
        direct = _eval(stub, tmp_path / "direct")
        assert direct.returncode == 0, direct.stderr
        asked = {request_text(r): r for r in stub.requests}
        batches = GeminiBatchStub(stub, polls=2, fail_next=5).install()
        batch = _eval(stub, tmp_path / "batch", "--batch")
        assert batch.returncode == 0, batch.stderr
        # 24 questions: the first job answers 19 and fails 5, which the second job answers
        assert [(j["id"], len(j["keys"]), j["status"], j["answered"], j["failed"]) for j in _jobs(tmp_path / "batch")] == [
            ("batches/job1", 24, "completed", 19, 5), ("batches/job2", 5, "completed", 5, 0)]
        batches.expire_next = True
        expired = _eval(stub, tmp_path / "expired", "--batch")
        assert expired.returncode == 0, expired.stderr
        assert [(len(j["keys"]), j["status"], j["answered"]) for j in _jobs(tmp_path / "expired")] == [
            (24, "expired", 12), (12, "completed", 12)]
        # each batch line is the direct request: the same contents and generation config
        for line in batches.lines["batches/job1"]:
            request = line["request"]
            same = asked[request_text(request)]
            assert request["contents"] == same["contents"] and request["generationConfig"] == same["generationConfig"]
        assert request["generationConfig"]["responseJsonSchema"]["properties"]["answer"]["enum"] == ["1", "2", "3", "4"]
    assert len(_choices(tmp_path / "direct")) == 24
    assert _choices(tmp_path / "batch") == _choices(tmp_path / "direct") == _choices(tmp_path / "expired")


# --------------------------------------------------------------------------- generate --batch


def _gen_options(stub: OpenAIStub, **kw: Any) -> Any:
    from factories import generate_options

    return generate_options(generator="gemini", base_url=stub.root_url, model="gemini-test", backoff_s=0.01,
                            screen=False, run="r", **kw)


async def test_generate_batch_with_gemini_equals_the_direct_run(tmp_path, monkeypatch):
    from gen_responder import FrameResponder
    from test_generate_batch import BagOfWords, _items

    from fbagent.generation import generate
    from fbagent.store.db import open_db

    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    monkeypatch.setenv("FBAGENT_BATCH_POLL_S", "0.02")
    with OpenAIStub(FrameResponder()) as stub:
        await generate(tmp_path / "direct.db", _gen_options(stub, pairs=2, per_pair=2), encoder=BagOfWords(), command="t")
        asked = {_canonical(r) for r in stub.requests}
        stub.reset_counts()
        batches = GeminiBatchStub(stub, fail_next=1).install()
        summary = await generate(tmp_path / "b.db", _gen_options(stub, pairs=2, per_pair=2, batch=True),
                                 encoder=BagOfWords(), command="t")
        assert stub.request_count == 0   # nothing went to :generateContent
    direct = _items(tmp_path / "direct.db")
    assert len(direct) == 4 and summary.counts["verified"] == 4
    assert _items(tmp_path / "b.db") == direct
    db = open_db(tmp_path / "b.db")
    jobs = [(r["job_id"], r["wave"], r["lines"], r["status"], r["answered"], r["failed"])
            for r in db.query("SELECT * FROM batch_jobs ORDER BY id")]
    # wave 1: 4 base pairs, one failed line asked again; wave 2: 8 extensions; wave 3: the definitions, as many
    # as the direct run asked (identical sentences share one request)
    n_define = open_db(tmp_path / "direct.db").execute("SELECT COUNT(*) FROM llm_calls WHERE task = 'define'").fetchone()[0]
    assert jobs == [("batches/job1", 1, 4, "completed", 3, 1), ("batches/job2", 1, 1, "completed", 1, 0),
                    ("batches/job3", 2, 8, "completed", 8, 0), ("batches/job4", 3, n_define, "completed", n_define, 0)]
    # every batch line is the request the direct run sent (system instruction, contents, generation config)
    lines = [line["request"] for job in batches.lines.values() for line in job]
    assert len(lines) == 4 + 1 + 8 + n_define and all(_canonical(r) in asked for r in lines)


def _canonical(request: dict[str, Any]) -> str:
    """A generateContent request as canonical JSON, without ``model`` (in the URL of a direct call)."""
    return json.dumps({k: v for k, v in request.items() if k != "model"}, sort_keys=True)


async def test_cancelling_generate_cancels_the_open_gemini_job_and_the_rerun_finishes(tmp_path, monkeypatch):
    """Ctrl-C (the task cancelled) while a job runs: the job is cancelled at the provider and recorded as
    cancelling; the same command polls it (cancelled, nothing answered) and asks its lines again."""
    import asyncio

    from gen_responder import FrameResponder
    from test_generate_batch import BagOfWords

    from fbagent.generation import generate
    from fbagent.store.db import open_db

    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    monkeypatch.setenv("FBAGENT_BATCH_POLL_S", "0.02")
    db_path = tmp_path / "b.db"

    def jobs() -> list[tuple[str, int, str]]:
        return [(r["job_id"], r["wave"], r["status"]) for r in open_db(db_path).query("SELECT * FROM batch_jobs")]

    with OpenAIStub(FrameResponder()) as stub:
        batches = GeminiBatchStub(stub, polls=10**9).install()
        task = asyncio.create_task(generate(db_path, _gen_options(stub, pairs=1, batch=True), encoder=BagOfWords(),
                                            command="t"))
        for _ in range(600):
            if batches.created and any(n > 2 for n in batches.reads.values()):
                break
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert batches.cancelled == ["batches/job1"] and jobs() == [("batches/job1", 1, "cancelling")]
        batches.polls = 0
        summary = await generate(db_path, _gen_options(stub, pairs=1, batch=True), encoder=BagOfWords(), command="t")
    assert summary.counts["verified"] == 1
    assert jobs() == [("batches/job1", 1, "cancelled"), ("batches/job2", 1, "completed"),
                      ("batches/job3", 2, "completed"), ("batches/job4", 3, "completed")]


def test_a_wave_over_the_20_mb_of_inlined_requests_is_refused_before_anything_is_sent():
    """21 requests of 1 MiB of text each: about 21 MB of request JSON, over the API's 20 MB of inlined
    requests a job takes: one FbagentError with the fix, and no job is created."""
    from types import SimpleNamespace

    from fbagent.errors import FbagentError
    from fbagent.providers.gemini_batch import INLINE_LIMIT, GeminiBatch

    created: list[object] = []
    client = SimpleNamespace(batches=SimpleNamespace(create=lambda **kw: created.append(kw)))
    text = "x" * 2**20
    requests = {f"k{i}": {"contents": [{"role": "user", "parts": [{"text": text}]}]} for i in range(21)}
    with pytest.raises(FbagentError) as err:
        GeminiBatch("gemini-2.5-flash", client).submit(requests)
    assert INLINE_LIMIT == 20 * 2**20
    assert "one wave of 21 Gemini batch requests is 21 MB, over the 20 MB of inlined requests a job takes" in str(err.value)
    assert "generate fewer entries per run (--pairs)" in err.value.fix and created == []
