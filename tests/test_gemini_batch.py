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
