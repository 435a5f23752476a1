"""Benchmark: `fbagent eval run --backend transformers` on a GPU against the model's own forward-pass bound.

Usage (a machine with a CUDA GPU; nothing is downloaded)::

    python benchmarks/bench_eval_gpu.py            # the 0.92B random Llama, 2,000 prompts (a few minutes)
    python benchmarks/bench_eval_gpu.py --small --device cpu   # tiny model, 40 prompts: a dry run

Runs parts B and C of ``scripts/gpu_check_transformers.py`` (see its doc): the CLI with the defaults a
user meets (``--backend transformers --model DIR``: device auto, dtype auto, batches from free memory) and
with ``--batch-size`` 8, 64 and 0, then the bare forward passes of the same prompts (bf16,
``logits_to_keep=1``, batches of 128 in file order: the bound issue 33 measured, 622 problems/s on one
H200; and sorted by length). Prints problems/s (backend time: the predictions' summed ``latency_ms``;
wall time: the whole command, start-up and loading included) and the ratio of each to the bound.
Target: the defaults >= 0.85 of the bound in backend time. Speed is printed, never asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.85


def main() -> int:
    args = sys.argv[1:]
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gpu_check_transformers.py"), "--only-speed", *args],
                          capture_output=True, text=True, cwd=ROOT)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode not in (0, 1) or not lines:
        sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
        return 1
    res = json.loads(lines[-1])
    b = res["B"]
    bound = b["bound"]
    print(f"model: {b['model']['params'] / 1e9:.2f}B parameters; {res.get('gpu') or res['device']}; "
          f"torch {res['torch']}, transformers {res['transformers']}; load {os.getloadavg()[0]:.1f}")
    for name in ("file_order", "sorted"):
        if name in bound:
            print(f"bound ({name.replace('_', ' ')}, batches of {bound['batch']}): "
                  f"{bound[name]['problems_per_s']:.1f} problems/s ({bound[name]['tflops']} TFLOP/s)")
    print("run | problems/s backend | of bound | problems/s wall | of bound | batch sizes | failed")
    for name, r in b["runs"].items():
        if r.get("rc") != 0:
            print(f"{name} | failed: {r.get('stderr', '')[-200:]}")
            continue
        print(f"{name} | {r['problems_per_s_backend']} | {r.get('of_bound_file_order_backend')} | "
              f"{r['problems_per_s_wall']} | {r.get('of_bound_file_order_wall')} | {r['batch_sizes']} | {r['failed']}")
    ratio = res["verdict"]["defaults_of_bound_backend"]
    print(f"defaults: {ratio} of the bound in backend time (target >= {TARGET}: "
          f"{'met' if ratio is not None and ratio >= TARGET else 'NOT met'}); fp32 defaults vs batch 1: "
          f"{b['fp32_default_vs_b1']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
