"""Adding a provider: one module (tests/fake_provider.py) plus one registry line, and both `fbagent generate`
and `fbagent eval run` run through it, from the command line to the engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from typer.testing import CliRunner  # noqa: E402

from fbagent.cli import app  # noqa: E402
from fbagent.eval.runner import read_predictions  # noqa: E402
from fbagent.providers import PROVIDERS, Provider  # noqa: E402
from fbagent.store import open_db  # noqa: E402

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


@pytest.fixture
def fake(monkeypatch):
    """The one registry line of the new provider (removed again after the test)."""
    monkeypatch.setitem(PROVIDERS, "fake", Provider("fake", "a test's in-process fake", "fake_provider:FakeProvider"))


def test_generate_runs_through_a_provider_added_as_one_module_and_one_line(fake, tmp_path):
    db = str(tmp_path / "fb.db")
    result = CliRunner().invoke(app, ["generate", "--pairs", "2", "--generator", "fake", "--model", "fake-model",
                                      "--db", db, "--run", "demo", "--no-screen"])
    assert result.exit_code == 0, result.output
    assert "verified 2 2" in " ".join(result.output.split())   # the summary table: this session, whole run
    shown = CliRunner().invoke(app, ["runs", "show", "demo", "--db", db, "--json"])
    data = json.loads(shown.output)
    assert data["items"] == {"verified": 2, "flagged": 0, "rejected": 0, "failed": 0}
    assert data["usage"]["calls"] == 14   # as through the OpenAI-compatible stub (test_generate_cli.py)
    calls = list(open_db(db)["llm_calls"].rows)
    assert {(c["backend"], c["model"]) for c in calls} == {("fake", "fake-model")}
    assert {json.loads(c["request"])["mode"] for c in calls} == {"fake_json"}


def test_eval_run_goes_through_a_provider_added_as_one_module_and_one_line(fake, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["eval", "run", "--dataset", str(DATA), "--limit", "3", "--templates", "v1",
                                      "--backend", "fake", "--model", "fake-model", "--out", str(out)])
    assert result.exit_code == 0, result.output
    preds = read_predictions(out)
    assert len(preds) == 12 and all(p["error"] is None for p in preds)   # 3 entries x 2 problems x 2 orders
    summary = json.loads((out / "summary.json").read_text())
    m = summary["per_template"]["v1"]
    # the oracle: every base problem right; every extended one "Both" or "Neither" (gold: B only)
    assert (m["accuracy"], m["base"], m["extended"]) == pytest.approx((0.5, 1.0, 0.0))
    assert (m["both"], m["neither"], m["opposite"]) == pytest.approx((0.25, 0.25, 0.0))
    manifest = json.loads((out / "manifest.json").read_text())
    assert "fake" in json.dumps(manifest)
