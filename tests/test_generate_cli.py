"""The `fbagent generate` and `fbagent runs` command lines: output, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
    assert "verified 2 2" in out  # the summary table: this session, whole run
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

    again = runner.invoke(app, ["generate", "--pairs", "2", "--generator", "openai", "--base-url", "http://127.0.0.1:9/v1",
                                "--model", "stub-model", "--db", db, "--run", "demo", "--no-screen"])
    assert again.exit_code == 0, again.output  # all finished: nothing to do, no call made
    assert "LLM calls stored before 14" in " ".join(again.output.split())  # the whole run's 14 calls


def test_dry_run_prints_the_plan(tmp_path):
    db = str(tmp_path / "fb.db")
    result = runner.invoke(app, ["generate", "--pairs", "4", "--per-pair", "2", "--generator", "openai",
                                 "--base-url", "http://127.0.0.1:9/v1", "--dry-run", "--db", db])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Plan (--dry-run" in out and "entries (pairs x per-pair) 8" in out
    assert "LLM calls: screening 4" in out


def test_dry_run_on_a_missing_database_creates_no_file(tmp_path):
    """The plan comes from the embedded sample imported into an in-memory database: no file appears."""
    db = tmp_path / "d.db"
    result = runner.invoke(app, ["generate", "--pairs", "5", "--generator", "openai",
                                 "--base-url", "http://127.0.0.1:9/v1", "--dry-run", "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Plan (--dry-run" in out and "entries (pairs x per-pair) 5" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_dry_run_on_an_existing_database_writes_nothing(tmp_path):
    """A database without a lexicon (the plan imports the embedded sample) and the schema-3 fixture (the plan
    needs the current schema): the dry run plans on a copy in memory; the file stays byte for byte, no
    -wal/-shm and no backup appear beside it."""
    import hashlib
    import shutil

    from fbagent.store.db import close_db, open_db

    empty = tmp_path / "empty" / "fb.db"
    empty.parent.mkdir()
    close_db(open_db(empty))
    old = tmp_path / "old" / "v3.db"
    old.parent.mkdir()
    shutil.copy(Path(__file__).parent / "data" / "fbagent_schema_v3.sqlite", old)
    for db in (empty, old):
        before = hashlib.sha256(db.read_bytes()).hexdigest()
        res = cli("generate", "--pairs", "3", "--generator", "openai", "--base-url", "http://127.0.0.1:9/v1",
                  "--dry-run", "--db", str(db))
        assert res.returncode == 0, res.stderr
        assert "Plan (--dry-run" in " ".join(res.stdout.split())
        assert hashlib.sha256(db.read_bytes()).hexdigest() == before
        assert sorted(p.name for p in db.parent.iterdir()) == [db.name]
    listed = cli("lexicon", "list", "--db", str(empty))
    assert listed.stdout.startswith("No lexicon")   # the sample was imported into the copy only


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
    result = cli("generate", "--pairs", "1", "--generator", "local", "--model-path", str(tmp_path / "none.gguf"),
                 "--db", str(tmp_path / "fb.db"))
    assert result.returncode == 2 and "error: GGUF model file" in result.stderr and "Fix:" in result.stderr


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_server_fails_the_session_with_one_line_naming_the_url(tmp_path):
    import sqlite3

    db = str(tmp_path / "fb.db")
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    result = cli("generate", "--pairs", "1", "--generator", "openai", "--base-url", url, "--model", "M",
                 "--llm-retries", "0", "--no-screen", "--run", "down", "--db", db)
    assert result.returncode == 1, result.stdout + result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("error: the one LLM call of this session failed") and f"cannot connect to {url} (connection refused)" in line, line
    assert "check --base-url / the server / the API key; rerun the same command to retry the failed entries" in line
    assert "Traceback" not in result.stderr
    with sqlite3.connect(db) as conn:  # stored data intact: the failed calls and the failed entry
        errors = [r[0] for r in conn.execute("SELECT error FROM llm_calls")]
        statuses = [r[0] for r in conn.execute("SELECT status FROM items")]
    assert errors and all(e == f"cannot connect to {url} (connection refused)" for e in errors)
    assert statuses == ["failed"]


def test_numeric_options_are_checked_for_the_real_run_too(tmp_path):
    db = str(tmp_path / "fb.db")
    for args, message in ((["--timeout", "-1"], "error: --timeout must be a positive number"),
                          (["--timeout", "0"], "error: --timeout must be a positive number"),
                          (["--llm-retries", "-1"], "error: --llm-retries must be 0 or more"),
                          (["--max-per-verb", "0"], "error: --max-per-verb must be at least 1")):
        for extra in ([], ["--dry-run"]):
            bad = cli("generate", "--pairs", "1", "--generator", "openai", "--base-url", "http://127.0.0.1:9/v1",
                      "--model", "M", "--db", db, *args, *extra)
            assert bad.returncode == 2 and message in bad.stderr, (args, extra, bad.stderr)


def test_dry_run_warns_about_a_missing_key(tmp_path):
    db = str(tmp_path / "fb.db")
    gemini = cli("generate", "--pairs", "1", "--generator", "gemini", "--dry-run", "--db", db)
    assert gemini.returncode == 0, gemini.stderr
    assert "warning: the real run needs GEMINI_API_KEY or GOOGLE_API_KEY" in gemini.stdout
    openai = cli("generate", "--pairs", "1", "--generator", "openai", "--dry-run", "--db", db)
    assert openai.returncode == 0 and "warning: the real run needs OPENAI_API_KEY" in openai.stdout
    keyed = cli("generate", "--pairs", "1", "--generator", "gemini", "--dry-run", "--db", db,
                env={"GEMINI_API_KEY": "x" * 20})
    assert keyed.returncode == 0 and "warning:" not in keyed.stdout


def test_a_session_of_truncated_answers_names_the_budget_not_the_url(tmp_path):
    """Every answer cut at max_tokens: the server works, so the fix is about the schema, not --base-url."""
    from openai_stub import OpenAIStub, ok

    with OpenAIStub(lambda request: ok('{"question": "Which', finish_reason="length")) as stub:
        result = cli("generate", "--pairs", "1", "--generator", "openai", "--base-url", stub.base_url, "--model", "M",
                     "--llm-retries", "0", "--no-screen", "--run", "cut", "--db", str(tmp_path / "fb.db"))
    assert result.returncode == 1, result.stdout + result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert "answer truncated at max_tokens" in line and "enforces the JSON schema" in line, line
    assert "check --base-url" not in line and "Traceback" not in result.stderr


def test_dry_run_warns_about_a_missing_backend_package(tmp_path):
    """The README's loop with --generator gemini on an install without the gemini extra: the dry run says
    which package the real run needs and the extra that installs it (the real run failed only then).
    A sitecustomize hides google.genai from this process and the supervised child alike."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[:2] == ['google', 'genai']:\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Block())\n")
    db = str(tmp_path / "fb.db")
    res = cli("generate", "--pairs", "1", "--generator", "gemini", "--dry-run", "--db", db,
              env={"GEMINI_API_KEY": "x" * 20, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])})
    assert res.returncode == 0, res.stderr
    assert ("warning: the real run needs the Python package 'google-genai' (gemini backend), which is not installed: "
            "pip install 'fbagent[gemini]'") in res.stdout
    fine = cli("generate", "--pairs", "1", "--generator", "gemini", "--dry-run", "--db", db,
               env={"GEMINI_API_KEY": "x" * 20})
    assert fine.returncode == 0 and "warning:" not in fine.stdout  # installed here: nothing to say


def test_dry_run_names_every_missing_package_of_a_backend_in_one_line(tmp_path):
    """google-genai and jsonref both missing: one warning naming both, one pip line (not two warnings)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[:2] == ['google', 'genai'] or name.split('.')[0] == 'jsonref':\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Block())\n")
    res = cli("generate", "--pairs", "1", "--generator", "gemini", "--dry-run", "--db", str(tmp_path / "fb.db"),
              env={"GEMINI_API_KEY": "x" * 20, "COLUMNS": "400",
                   "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])})
    assert res.returncode == 0, res.stderr
    warnings = [ln for ln in res.stdout.splitlines() if ln.startswith("warning:")]
    assert warnings == ["warning: the real run needs the Python packages 'google-genai' and 'jsonref' (gemini "
                        "backend), which are not installed: pip install 'fbagent[gemini]'"], res.stdout
