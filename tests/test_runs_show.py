"""`fbagent runs show` lists rejected and failed entries with their reasons (issue 12, item 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import make_db  # noqa: E402

from fbagent.cli import app  # noqa: E402

runner = CliRunner()


def _db(tmp_path):
    path = tmp_path / "runs.db"
    db = make_db(path, 6, statuses=("verified", "rejected", "failed"))
    db.execute("UPDATE items SET reasons = ? WHERE status = 'rejected' AND pair_id = (SELECT MIN(pair_id) FROM items "
               "WHERE status = 'rejected')",
               [json.dumps(["sentence_b does not contain the verb 'leave' (any inflected form)",
                            "the question does not end with a question mark"])])
    db.execute("UPDATE items SET reasons = ? WHERE status = 'failed'", [json.dumps(["generate_base: HTTP 500"])])
    db.conn.commit()
    return path


def test_show_lists_rejected_and_failed_with_their_first_reason(tmp_path):
    db = str(_db(tmp_path))
    res = runner.invoke(app, ["runs", "show", "run1", "--db", db], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "Rejected and failed entries (4; first reason, all of them with --json)" in text
    assert "sentence_b does not contain the verb 'leave' (any inflected form) (+1 more)" in text
    assert "generate_base: HTTP 500" in text
    assert "the question does not end with a question mark" not in text  # only the first reason in the table
    assert text.count("run1:") == 4


def test_json_has_all_reasons_and_status_filters(tmp_path):
    db = str(_db(tmp_path))
    data = json.loads(runner.invoke(app, ["runs", "show", "run1", "--db", db, "--json"]).output)
    assert [e["status"] for e in data["entries"]].count("rejected") == 2
    first = next(e for e in data["entries"] if len(e["reasons"]) == 2)
    assert first["reasons"][1] == "the question does not end with a question mark"
    assert set(first) >= {"id", "status", "verb", "lu_a", "lu_b", "frame_a", "frame_b", "attempts", "reasons"}
    failed = json.loads(runner.invoke(app, ["runs", "show", "run1", "--db", db, "--json", "--status", "failed"]).output)
    assert [e["status"] for e in failed["entries"]] == ["failed", "failed"]
    assert all(e["reasons"] == ["generate_base: HTTP 500"] for e in failed["entries"])
    table = runner.invoke(app, ["runs", "show", "run1", "--db", db, "--status", "rejected", "--limit", "1"],
                          env={"COLUMNS": "200"})
    text = " ".join(table.output.split())
    assert "Rejected entries (2;" in text and "1 more not shown: fbagent runs show run1 --limit 0 (or --json)" in text
    assert "generate_base: HTTP 500" not in text


def test_bad_status_is_one_line_and_an_all_verified_run_says_so(tmp_path):
    db = str(_db(tmp_path))
    bad = subprocess.run([sys.executable, "-m", "fbagent.cli", "runs", "show", "run1", "--db", db, "--status", "verified"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown --status 'verified'. Fix: pass --status")
    clean = tmp_path / "clean.db"
    make_db(clean, 2, statuses=("verified",))
    res = runner.invoke(app, ["runs", "show", "run1", "--db", str(clean)])
    assert res.exit_code == 0 and "No rejected and failed entries." in res.output


def test_cost_from_the_recorded_usage(tmp_path, monkeypatch):
    """Issue 46: gpt-4o-mini ($0.15 / $0.60 per 1M) 2 calls, 100,000 in + 20,000 out: 0.015 + 0.012 = $0.027;
    gemini-2.5-flash ($0.30 / $2.50) 1 call, 10,000 in + 1,000 out: 0.003 + 0.0025 = $0.0055; total $0.0325."""
    from fbagent.store.db import open_db
    from fbagent.store.llm_calls import insert_call

    monkeypatch.delenv("FBAGENT_PRICES", raising=False)
    path = _db(tmp_path)
    db = open_db(path)
    run_id = db.execute("SELECT id FROM runs WHERE name = 'run1'").fetchone()[0]
    db.execute("DELETE FROM llm_calls WHERE run_id = ?", [run_id])
    db.conn.commit()
    for backend, model, n_in, n_out in (("openai", "gpt-4o-mini", 60_000, 5_000), ("openai", "gpt-4o-mini", 40_000, 15_000),
                                        ("gemini", "gemini-2.5-flash", 10_000, 1_000)):
        insert_call(db, run_id=run_id, item_id=None, task="define", backend=backend, model=model, cache_key=f"k{n_in}",
                    prompt_version=None, request={}, response={}, input_tokens=n_in, output_tokens=n_out,
                    latency_ms=1.0, attempts=1, error=None)
    db.conn.close()
    data = json.loads(runner.invoke(app, ["runs", "show", "run1", "--db", str(path), "--json"]).output)
    assert data["cost"]["usd"] == 0.0325 and data["cost"]["date"] == "2025-08-15"
    assert [(m["model"], m["calls"], round(m["usd"], 6)) for m in data["cost"]["models"]] == [
        ("gemini-2.5-flash", 1, 0.0055), ("gpt-4o-mini", 2, 0.027)]
    text = " ".join(runner.invoke(app, ["runs", "show", "run1", "--db", str(path)], env={"COLUMNS": "200"}).output.split())
    assert "Cost from the recorded usage (prices of 2025-08-15" in text and "total $0.03" in text
    # --prices FILE overrides the table: 120,000 tokens of gpt-4o-mini at $1 per 1M in and out
    prices = tmp_path / "p.toml"
    prices.write_text('[openai.models]\n"gpt-4o-mini" = { input = 1.0, output = 1.0 }\n')
    mine = json.loads(runner.invoke(app, ["runs", "show", "run1", "--db", str(path), "--json", "--prices", str(prices)]).output)
    assert mine["cost"]["models"][1]["usd"] == 0.12   # 120,000 tokens at $1 per 1M
