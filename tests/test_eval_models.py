"""Several models in one `eval run`: the GPU scheduler (pure, with a fake engine and a fake GPU list), the
--models file, and the CLI over three models (two API models on the stub, the tiny in-process model)
killed mid-way with kill -9 and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openai_stub import OpenAIStub

from fbagent.errors import FbagentError
from fbagent.eval.schedule import (
    GpuJob,
    gpus_needed,
    next_starts,
    parse_gpus,
    run_schedule,
    weights_bytes,
)
from fbagent.providers.model_list import model_runs, read_model_file
from fbagent.providers.registry import backend_options

DATASET = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
GB = 10**9


class FakeEngine:
    """Runs no model: a job "runs" for ``durations[key]`` seconds of a fake clock that ``sleep`` advances."""

    def __init__(self, durations: dict[str, float]) -> None:
        self.durations = durations
        self.now = 0.0
        self.started: list[tuple[str, tuple[int, ...], float]] = []
        self.in_use: set[int] = set()

    def sleep(self, s: float) -> None:
        self.now += s

    def start(self, job: GpuJob, group: tuple[int, ...]):
        assert not (set(group) & self.in_use), f"{job.key} got a GPU in use: {group}"
        self.in_use |= set(group)
        self.started.append((job.key, group, self.now))
        end = self.now + self.durations[job.key]
        engine = self

        class Handle:
            def poll(self) -> int | None:
                if engine.now < end:
                    return None
                engine.in_use -= set(group)
                return 0

        return Handle()


def test_largest_first_one_engine_per_gpu_group_api_models_at_once():
    jobs = [GpuJob("small", 1, 1 * GB), GpuJob("api", 0), GpuJob("big", 2, 30 * GB), GpuJob("mid", 1, 8 * GB)]
    engine = FakeEngine({"small": 1.0, "api": 5.0, "big": 2.0, "mid": 1.0})
    codes = run_schedule(jobs, [0, 1], engine.start, poll_s=0.5, sleep=engine.sleep)
    assert codes == {"small": 0, "api": 0, "big": 0, "mid": 0}
    # t=0: the API model (no GPU) and the big model on both GPUs; the others wait for it (2 s),
    # then mid (8 GB) and small (1 GB) side by side on GPU 0 and 1
    assert engine.started == [("api", (), 0.0), ("big", (0, 1), 0.0), ("mid", (0,), 2.0), ("small", (1,), 2.0)]


def test_a_small_model_fills_a_gpu_the_big_one_cannot_use():
    # 3 GPUs: big needs 2, the two small ones need 1 each -> big on 0,1 and small on 2 at once
    assert next_starts([GpuJob("a", 1, 1), GpuJob("big", 2, 9), GpuJob("b", 1, 2)], [2, 0, 1]) == [
        (GpuJob("big", 2, 9), (0, 1)), (GpuJob("b", 1, 2), (2,))]


def test_gpus_needed_and_parse_gpus():
    assert gpus_needed(0, 1, None) == 1
    assert gpus_needed(30 * GB, 1, 24 * GB) == 2        # 36 GB / 24 GB = 1.5 -> 2
    assert gpus_needed(60 * GB, 1, 24 * GB) == 4        # 72 / 24 = 3 -> the next power of two, 4
    assert gpus_needed(10 * GB, 2, 80 * GB) == 2        # tensor parallelism asked for stays
    assert parse_gpus("0,1,3", None) == [0, 1, 3]
    assert parse_gpus(None, "2,3") == [2, 3]
    assert parse_gpus(None, None) == [] and parse_gpus(None, "") == []
    with pytest.raises(FbagentError, match="--gpus='0,0'"):
        parse_gpus("0,0", None)
    with pytest.raises(FbagentError, match="CUDA_VISIBLE_DEVICES='GPU-1'"):
        parse_gpus(None, "GPU-1")
    with pytest.raises(FbagentError, match="needs 4 GPUs at once but only 2"):
        run_schedule([GpuJob("huge", 4, 1)], [0, 1], lambda j, g: None)  # type: ignore[arg-type,return-value]


def test_gpu_memory_from_nvidia_smi_text():
    from fbagent.eval.schedule import gpu_memory_bytes

    text = "0, 81559\n1, 81559\n2, 24576\n"
    assert gpu_memory_bytes([0, 1], lambda: text) == 81559 * 1024 * 1024
    assert gpu_memory_bytes([1, 2], lambda: text) == 24576 * 1024 * 1024   # the smallest of those asked
    assert gpu_memory_bytes([7], lambda: text) is None and gpu_memory_bytes([0], lambda: "garbage") is None


def test_weights_bytes(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "model.safetensors").write_bytes(b"x" * 1000)
    (tmp_path / "m" / "tokenizer.json").write_bytes(b"x" * 50)
    assert weights_bytes(str(tmp_path / "m")) == 1000
    assert weights_bytes("gpt-4o-mini") == 0


def test_models_file(tmp_path):
    path = tmp_path / "models.toml"
    path.write_text('[[model]]\nbackend = "openai"\nmodel = "a"\nbase_url = "http://h:1/v1"\nlabel = "A"\n'
                    '[[model]]\nbackend = "openai"\nmodel = "b"\n', encoding="utf-8")
    runs = model_runs({"backend": None, "seed": 3}, [], read_model_file(path), backend_options)
    assert [(r.config.model, r.label, r.folder, r.config.seed) for r in runs] == [
        ("a", "A", "openai-A", 3), ("b", None, "openai-b", 3)]
    assert runs[0].config.base_url == "http://h:1/v1"
    with pytest.raises(FbagentError, match="has no backend"):   # --model c without --backend
        model_runs({"backend": None, "seed": 3}, ["c"], [], backend_options)
    path.write_text('[[model]]\nbackend = "openai"\nmodle = "a"\n', encoding="utf-8")
    with pytest.raises(FbagentError, match="unknown key\\(s\\) modle"):
        read_model_file(path)
    path.write_text('[[model]]\nbackend = "openai"\nmodel = "a"\n[[model]]\nbackend = "openai"\nmodel = "a"\n')
    with pytest.raises(FbagentError, match="share the result folder openai-a"):
        model_runs({"seed": 0}, [], read_model_file(path), backend_options)


def _env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FBAGENT_", "CUDA_"))}
    return {**base, "COLUMNS": "200", "OPENAI_API_KEY": "sk-test-not-a-real-key"}


def _sessions(folder: Path) -> list[int]:
    return [s["predictions"] for s in json.loads((folder / "manifest.json").read_text())["sessions"]]


def _lines(folder: Path) -> int:
    path = folder / "predictions.jsonl"
    return path.read_text().count("\n") if path.exists() else 0


def test_three_models_killed_mid_way_resume_each_where_it_stopped(tmp_path):
    from fbagent.eval.tiny import save_tiny_model

    tiny = save_tiny_model(tmp_path / "tiny", seed=4)
    out = tmp_path / "out"
    with OpenAIStub(lambda r: json.dumps({"answer": "1"})) as a, \
            OpenAIStub(lambda r: json.dumps({"answer": "2"}), latency_s=0.15) as b:
        models = tmp_path / "models.toml"
        models.write_text(f'[[model]]\nbackend = "openai"\nmodel = "api-a"\nbase_url = "{a.base_url}"\n'
                          f'[[model]]\nbackend = "openai"\nmodel = "api-b"\nbase_url = "{b.base_url}"\n'
                          f'[[model]]\nbackend = "transformers"\nmodel = "{tiny}"\nlabel = "tiny"\n')
        args = [sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET), "--models", str(models),
                "--limit", "3", "--templates", "v1,v3", "--out", str(out), "--concurrency", "1"]
        proc = subprocess.Popen(args, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        deadline = time.monotonic() + 120
        while _lines(out / "openai-api-b") < 5 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)   # the CLI and its supervised child
        proc.wait()
        stopped_at = _lines(out / "openai-api-b")
        assert 5 <= stopped_at < 24, stopped_at
        rows = [json.loads(ln) for ln in (out / "openai-api-b" / "predictions.jsonl").read_text().splitlines()]
        answered = {r["key"] for r in rows if not r.get("error")}   # a failed call is asked again on resume
        assert _lines(out / "openai-api-a") == 24 and not (out / "transformers-tiny").exists()
        a.reset_counts()
        b.reset_counts()
        again = subprocess.run(args, env=_env(), capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        # each model asks only what it lacks
        assert a.request_count == 0 and b.request_count == 24 - len(answered), [r for r in rows if r.get("error")]
    # 3 entries x 4 problems x 2 templates = 24 predictions per model; the first session of A finished
    assert _sessions(out / "openai-api-a") == [24, 0]
    assert _sessions(out / "openai-api-b")[-1] == 24 - len(answered)
    assert _sessions(out / "transformers-tiny") == [24]
    manifests = [json.loads((out / f / "manifest.json").read_text()) for f in
                 ("openai-api-a", "openai-api-b", "transformers-tiny")]
    assert {m["identity"]["seed"] for m in manifests} == {0}
    assert len({m["identity"]["dataset_sha256"] for m in manifests}) == 1
    # api-a always answers option 1, api-b option 2: their accuracy is the share of problems whose gold
    # option is 1 (resp. 2), counted here from the stored problems (the same for every template)
    preds = [json.loads(ln) for ln in (out / "openai-api-a" / "predictions.jsonl").read_text().splitlines()]
    summary = {f: json.loads((out / f / "summary.json").read_text())["accuracy"]["mean"]
               for f in ("openai-api-a", "openai-api-b", "transformers-tiny")}
    for folder, option in (("openai-api-a", "1"), ("openai-api-b", "2")):
        share = sum(str(p["gold_choice"]) == option for p in preds) / len(preds)
        assert summary[folder] == pytest.approx(share)
    # one leaderboard, best first
    board = again.stdout[again.stdout.index("leaderboard: 3 models"):]
    rows = [ln.split()[0] for ln in board.splitlines() if ln.split() and ln.split()[0] in ("api-a", "api-b", "tiny")]
    assert sorted(rows) == ["api-a", "api-b", "tiny"]
    order = sorted(summary, key=lambda f: -summary[f])
    assert [{"openai-api-a": "api-a", "openai-api-b": "api-b", "transformers-tiny": "tiny"}[f] for f in order] == rows
    assert "95% CI: bootstrap over entries" in board and "population std" in board
    report = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "report", str(out)], env=_env(),
                            capture_output=True, text=True, timeout=120)
    assert report.returncode == 0 and all(name in report.stdout for name in ("api-a", "api-b", "tiny"))


def test_gpus_side_by_side_each_model_in_its_own_process_on_its_gpu(tmp_path):
    """Two in-process engines with --gpus 0,1: each runs in a child process under CUDA_VISIBLE_DEVICES = its
    GPU (this machine may have none: the tiny model then runs on the CPU), then one leaderboard."""
    from fbagent.eval.tiny import save_tiny_model

    tiny = save_tiny_model(tmp_path / "tiny", seed=4)
    models = tmp_path / "models.toml"
    models.write_text(f'[[model]]\nbackend = "transformers"\nmodel = "{tiny}"\nlabel = "tiny-a"\ndevice = "cpu"\n'
                      f'[[model]]\nbackend = "transformers"\nmodel = "{tiny}"\nlabel = "tiny-b"\ndevice = "cpu"\n')
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET), "--models",
                           str(models), "--limit", "2", "--templates", "v1", "--gpus", "0,1", "--out", str(out)],
                          env=_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    logs = {name: (out / f"transformers-{name}.log").read_text() for name in ("tiny-a", "tiny-b")}
    # the larger-first rule with equal sizes keeps the given order: tiny-a on GPU 0, tiny-b on GPU 1
    assert logs["tiny-a"].startswith("CUDA_VISIBLE_DEVICES=0\n") and logs["tiny-b"].startswith("CUDA_VISIBLE_DEVICES=1\n")
    assert all("finished: 8 predictions, 0 failed" in log for log in logs.values())
    assert "leaderboard: 2 models" in proc.stdout and _sessions(out / "transformers-tiny-a") == [8]
