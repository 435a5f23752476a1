#!/usr/bin/env python
"""GPU check of the vLLM evaluation backend, end to end, on a tiny model made here (no downloads).

What it does (needs a CUDA GPU and ``pip install 'fbagent[gpu]'``):

1. builds a tiny random Llama (hidden 256, 4 heads -> head dim 64, 2 layers) and a byte-level BPE
   tokenizer with transformers/tokenizers, saved to a temporary folder;
2. writes a dataset of N entries (the hand-made entries of tests/data, repeated with new ids);
3. runs ``fbagent eval run`` logic (:func:`fbagent.eval.framebench.run_framebench`) with the vLLM
   backend: all prompts of a template in ONE ``LLM.generate`` call (``--batch-size 0``), structured
   outputs restricted to "1".."4";
4. runs the same problems one prompt per ``generate`` call (``--batch-size 1``) on a subset;
5. runs reasoning mode (thinking budget 16 tokens) on a few prompts;
6. prints problems/s batched vs one-at-a-time and checks that every answer is an option and nothing
   failed. A JSON line with all numbers is printed last (and written to $OUT/gpu_check_vllm.json when
   $OUT is set).

Usage: ``python scripts/gpu_check_vllm.py [--entries 100] [--single-entries 10] [--gpu-memory 0.3]``.
Exit code 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "eval_entries_en.jsonl"


def write_dataset(path: Path, n: int) -> Path:
    """``n`` entries: the hand-made ones repeated with ids ``gpu:<i>``."""
    base = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            rec = dict(base[i % len(base)])
            rec["id"] = f"gpu:{i}"
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=100, help="entries for the batched run (4 problems x 5 templates each)")
    ap.add_argument("--single-entries", type=int, default=10, help="entries for the one-prompt-at-a-time run")
    ap.add_argument("--gpu-memory", type=float, default=0.3, help="vLLM gpu_memory_utilization")
    ap.add_argument("--max-model-len", type=int, default=2048)
    args = ap.parse_args()

    from fbagent.eval.framebench import RunSettings, run_framebench
    from fbagent.eval.runner import read_predictions
    from fbagent.eval.tiny import save_tiny_model
    from fbagent.providers.base import ReasoningConfig
    from fbagent.providers.vllm import VllmBackend

    report: dict = {"ok": False, "checks": {}}
    tmp = Path(tempfile.mkdtemp(prefix="fbagent-gpu-check-"))
    t0 = time.perf_counter()
    model_dir = save_tiny_model(tmp / "tiny-llama", seed=0, hidden_size=256, heads=4, layers=2)
    report["model_build_s"] = round(time.perf_counter() - t0, 2)
    data_big = write_dataset(tmp / "entries.jsonl", args.entries)
    data_small = write_dataset(tmp / "entries_small.jsonl", args.single_entries)

    import vllm

    report["vllm"] = vllm.__version__
    t0 = time.perf_counter()
    backend = VllmBackend(str(model_dir), seed=0, gpu_memory_utilization=args.gpu_memory,
                          max_model_len=args.max_model_len, chat=False, engine_kwargs={"enforce_eager": True})
    report["engine_start_s"] = round(time.perf_counter() - t0, 2)

    def timed_run(dataset: Path, out: Path, batch_size: int, reasoning: ReasoningConfig, templates: str = "all"):
        calls_before = backend.generate_calls
        start = time.perf_counter()
        summary, _ = run_framebench(backend, RunSettings(dataset=dataset, templates=templates, batch_size=batch_size,
                                                         concurrency=1), out, reasoning=reasoning)
        wall = time.perf_counter() - start
        preds = read_predictions(out)
        return {
            "predictions": len(preds), "wall_s": round(wall, 3), "problems_per_s": round(len(preds) / wall, 2),
            "generate_calls": backend.generate_calls - calls_before,
            "all_answers_are_options": all(p["choice"] in ("1", "2", "3", "4") for p in preds),
            "failed": summary["n_failed"], "accuracy_mean": summary["accuracy"]["mean"],
            "budget_exhausted": sum(1 for p in preds if p.get("budget_exhausted")),
        }

    # warm-up (first call compiles kernels / grammar): not timed
    run_framebench(backend, RunSettings(dataset=data_small, templates="v1", limit=1, batch_size=0), tmp / "warmup",
                   reasoning=ReasoningConfig())

    batched = timed_run(data_big, tmp / "batched", 0, ReasoningConfig())
    single = timed_run(data_small, tmp / "single", 1, ReasoningConfig())
    backend.reasoning = ReasoningConfig(enabled=True, end_think_tag="</think>", max_think_tokens=16)
    reasoning = timed_run(data_small, tmp / "reasoning", 0, backend.reasoning, templates="v1")
    backend.reasoning = ReasoningConfig()

    report.update(batched=batched, one_at_a_time=single, reasoning=reasoning)
    checks = report["checks"]
    checks["batched: one generate call per template"] = batched["generate_calls"] == 5
    checks["batched: every answer is 1-4, no failure"] = batched["all_answers_are_options"] and batched["failed"] == 0
    checks["single: one generate call per prompt"] = single["generate_calls"] == single["predictions"]
    checks["single: every answer is 1-4, no failure"] = single["all_answers_are_options"] and single["failed"] == 0
    checks["reasoning: two calls, answers 1-4"] = reasoning["generate_calls"] == 2 and reasoning["all_answers_are_options"]
    checks["reasoning: random model runs out of budget"] = reasoning["budget_exhausted"] > 0
    report["speedup_batched_vs_single"] = round(batched["problems_per_s"] / single["problems_per_s"], 1)
    report["ok"] = all(checks.values())

    print(f"vLLM {report['vllm']}  engine start {report['engine_start_s']} s")
    print(f"batched (all prompts of a template per generate call): {batched['predictions']} problems, "
          f"{batched['problems_per_s']} problems/s")
    print(f"one prompt per generate call:                         {single['predictions']} problems, "
          f"{single['problems_per_s']} problems/s")
    print(f"speed-up: x{report['speedup_batched_vs_single']}")
    for name, ok in checks.items():
        print(f"[{'ok' if ok else 'FAIL'}] {name}")
    line = json.dumps(report)
    print(line)
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "gpu_check_vllm.json").write_text(line + "\n", encoding="utf-8")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
