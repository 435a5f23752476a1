"""The `fbagent generate` and `fbagent runs` command lines: output, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from fbagent.cli import app  # noqa: E402

runner = CliRunner()


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY",
                                                               "GOOGLE_API_KEY", "FBAGENT_DB")}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True,
                          env={**base, "COLUMNS": "200", **(env or {})}, timeout=300)


def test_generate_then_runs_list_and_show(tmp_path):
    db = str(tmp_path / "fb.db")
    with OpenAIStub(FrameResponder()) as stub:
        result = runner.invoke(app, ["generate", "--pairs", "2", "--generator", "openai", "--base-url", stub.base_url,
                                     "--model", "stub-model", "--db", db, "--run", "demo", "--no-screen"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "fbagent generate: run demo" in out
    assert "verified │ 2 │ 2" in out
    assert "Details: fbagent runs show demo" in out

    listed = runner.invoke(app, ["runs", "list", "--db", db])
    assert listed.exit_code == 0 and "demo" in listed.output and "finished" in listed.output

    shown = runner.invoke(app, ["runs", "show", "demo", "--db", db])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "Items by status" in text and "define" in text and "generate_base" in text and "cache hits: 0" in text

    as_json = runner.invoke(app, ["runs", "show", "demo", "--db", db, "--json"])
    data = json.loads(as_json.output)
    assert data["items"] == {"verified": 2, "flagged": 0, "rejected": 0, "failed": 0}
    assert data["usage"]["calls"] == 14 and data["usage"]["by_task"]["extend"]["calls"] == 4
    assert data["run"]["options"]["pairs"] == 2 and data["run"]["prompt_versions"]["define"].startswith("roundtrip/")
    assert data["sessions"][0]["status"] == "finished" and data["sessions"][0]["calls"] == 14


def test_dry_run_prints_the_plan(tmp_path):
    db = str(tmp_path / "fb.db")
    result = runner.invoke(app, ["generate", "--pairs", "4", "--per-pair", "2", "--generator", "openai",
                                 "--base-url", "http://127.0.0.1:9/v1", "--dry-run", "--db", db])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Plan (--dry-run" in out and "entries (pairs x per-pair) │ 8" in out
    assert "LLM calls: screening │ 4" in out


def test_missing_api_key_is_one_line_with_the_fix(tmp_path):
    result = cli("generate", "--pairs", "1", "--generator", "openai", "--db", str(tmp_path / "fb.db"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("error: the openai backend needs an API key and OPENAI_API_KEY is not set. Fix: ")
    assert "Traceback" not in result.stderr
    gemini = cli("generate", "--pairs", "1", "--generator", "gemini", "--db", str(tmp_path / "fb.db"))
    assert gemini.returncode == 2 and "error: the gemini backend" in gemini.stderr and "Fix:" in gemini.stderr


def test_bad_options_and_run_name_conflict(tmp_path):
    db = str(tmp_path / "fb.db")
    bad = cli("generate", "--pairs", "0", "--db", db)
    assert bad.returncode == 2 and "error: --pairs must be at least 1" in bad.stderr
    unknown = cli("generate", "--pairs", "1", "--generator", "nope", "--db", db)
    assert unknown.returncode == 2 and "error: unknown LLM backend 'nope'" in unknown.stderr
    with OpenAIStub(FrameResponder()) as stub:
        args = ["generate", "--generator", "openai", "--base-url", stub.base_url, "--model", "stub-model",
                "--no-screen", "--run", "r1", "--db", db]
        assert cli(*args, "--pairs", "1").returncode == 0
        clash = cli(*args, "--pairs", "2")
    assert clash.returncode == 2
    assert "error: run 'r1' exists with other options (pairs: 1 -> 2)" in clash.stderr


def test_local_backend_missing_model_file_is_one_line(tmp_path):
    pytest.importorskip("llama_cpp", reason="the local extra (llama-cpp-python) is not installed")
    result = cli("generate", "--pairs", "1", "--generator", "local", "--model-path", str(tmp_path / "none.gguf"),
                 "--db", str(tmp_path / "fb.db"))
    assert result.returncode == 2 and "error: GGUF model file" in result.stderr and "Fix:" in result.stderr
