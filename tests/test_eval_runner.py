"""Runner: batching per template, concurrency, resume, crash-truncated lines, refusal of another run."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.eval.framebench import RunSettings, run_framebench
from fbagent.eval.runner import ResultWriter, read_predictions
from fbagent.providers.base import (
    ChoiceResult,
    ConcurrentBackend,
    ReasoningConfig,
    SyncBackend,
    TextResult,
)

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


class CountingSync(SyncBackend):
    """Always answers '3'; records the size of every batch."""

    name = "counting"
    default_batch_size = 5

    def __init__(self, fail_after: int | None = None):
        super().__init__("counting")
        self.batches: list[int] = []
        self.fail_after = fail_after

    def choose_sync(self, prompts, choices):
        if self.fail_after is not None and len(self.batches) >= self.fail_after:
            raise RuntimeError("simulated crash")
        self.batches.append(len(prompts))
        return [ChoiceResult(raw="3", choice="3") for _ in prompts]

    def generate_sync(self, prompts, max_new_tokens, stop):
        return [TextResult(text="x") for _ in prompts]


class SlowApi(ConcurrentBackend):
    name = "slow"

    def __init__(self):
        super().__init__("slow")
        self.in_flight = 0
        self.max_in_flight = 0

    async def choose_one(self, prompt, choices):
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        return ChoiceResult(raw='{"answer": "1"}', choice="1")

    async def generate_one(self, prompt, max_new_tokens, stop):
        return TextResult(text="x")


def test_batches_split_per_template(tmp_path):
    b = CountingSync()
    run_framebench(b, RunSettings(dataset=DATA, limit=3, templates="v1,v2"), tmp_path / "o", reasoning=ReasoningConfig())
    assert b.batches == [5, 5, 2, 5, 5, 2]  # 12 problems per template, batches never mix templates
    b0 = CountingSync()
    run_framebench(b0, RunSettings(dataset=DATA, limit=3, templates="v1,v2", batch_size=0), tmp_path / "o0",
                   reasoning=ReasoningConfig())
    assert b0.batches == [12, 12]


def test_concurrency_bound(tmp_path):
    b = SlowApi()
    run_framebench(b, RunSettings(dataset=DATA, limit=5, templates="v1", concurrency=3), tmp_path / "o",
                   reasoning=ReasoningConfig())
    assert b.max_in_flight == 3


def test_crash_then_resume(tmp_path):
    out = tmp_path / "o"
    with pytest.raises(RuntimeError):
        run_framebench(CountingSync(fail_after=2), RunSettings(dataset=DATA, limit=3, templates="v1"), out,
                       reasoning=ReasoningConfig())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["n_predictions"] == 10
    # a half-written last line (kill -9 during a write) is dropped on resume
    with (out / "predictions.jsonl").open("a") as f:
        f.write('{"key": "v1|half')
    b = CountingSync()
    summary, manifest = run_framebench(b, RunSettings(dataset=DATA, limit=3, templates="v1"), out,
                                       reasoning=ReasoningConfig())
    assert b.batches == [2]  # only what was missing
    preds = read_predictions(out)
    assert len(preds) == 12 and len({p["key"] for p in preds}) == 12
    assert manifest["status"] == "finished" and len(manifest["sessions"]) == 2
    assert summary["n_predictions"] == 12


def test_other_run_refused(tmp_path):
    ResultWriter(tmp_path, {"identity": {"model": "a", "seed": 0}}).finish(None)
    with pytest.raises(FbagentError, match=r"another run \(differs in: seed\)"):
        ResultWriter(tmp_path, {"identity": {"model": "a", "seed": 1}})
