#!/usr/bin/env python
"""GPU check of the transformers evaluation backend through the real CLI (``python -m fbagent.cli eval run``).

Run from the project root on a machine with a CUDA GPU, torch and transformers (nothing is downloaded: the
models are random Llamas built here, the prompts the hand-made entries of tests/data repeated):

A. correctness on a tiny fp32 model: the same choices and probabilities (within 1e-5) on the CPU and on the
   GPU, and at batch 1 and the default batches;
B. speed on a 0.92B-parameter random Llama (hidden 2048, 22 layers, 32 heads; saved in bf16) and 2,000
   prompts (100 entries x 4 problems x 5 templates, ~220 tokens each): the defaults a user meets
   (``--backend transformers --model DIR`` and nothing else: device auto, dtype auto, batches from free
   memory) and ``--batch-size`` 8, 64 and 0; problems/s in backend time (the predictions' summed
   ``latency_ms``) and wall time;
C. the forward-pass bound, in the same process after the CLI runs: the same prompts in batched forward passes
   (``logits_to_keep=1``, bf16, batches of 128 in file order as issue 33 measured it, and sorted by length),
   best of 2; every B row's ratio to it (target: the defaults >= 0.85 in backend time);
D. fp32: the 0.92B model at ``--dtype float32`` with the default batches against ``--batch-size 1`` on 200
   prompts: the same choices, probabilities within 1e-5;
E. reasoning mode on the tiny model (free generation until the tag, then the choice) runs.

Usage: ``python scripts/gpu_check_transformers.py [--device cuda] [--small]`` (``--small``: tiny models and
few prompts, a dry run on a CPU). Prints one JSON object last and writes it to ``$OUT/gpu_check_transformers.json``
when ``$OUT`` is set. Exit code 0 when every correctness check passed (speed is reported, not asserted).
``benchmarks/bench_eval_gpu.py`` runs B and C alone.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "eval_entries_en.jsonl"
BIG = {"hidden_size": 2048, "layers": 22, "heads": 32}       # 0.92B parameters with the tiny tokenizer
SMALL_BIG = {"hidden_size": 128, "layers": 2, "heads": 4}
TARGET_OF_BOUND = 0.85


def log(*parts) -> None:
    print(*parts, flush=True)


def dataset(n: int, path: Path) -> Path:
    """``n`` entries: the hand-made ones of tests/data repeated with ids ``gpu:<i>``."""
    base = [json.loads(x) for x in DATA.read_text(encoding="utf-8").splitlines() if x.strip()]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({**base[i % len(base)], "id": f"gpu:{i}"}) + "\n")
    return path


def cli(work: Path, name: str, *args: str) -> dict:
    """One ``fbagent eval run`` in a subprocess: exit code, wall seconds, problems/s (wall and backend),
    the predictions' choices and probabilities by key (``_preds``)."""
    out = work / name
    start = time.time()
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--out", str(out), *args],
                          capture_output=True, text=True, cwd=ROOT)
    wall = time.time() - start
    rec: dict = {"rc": proc.returncode, "wall_s": round(wall, 2)}
    if proc.returncode != 0:
        rec.update(stderr=proc.stderr[-1500:], stdout=proc.stdout[-500:])
        log(name, rec)
        return rec
    preds = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines() if x.strip()]
    manifest = json.loads((out / "manifest.json").read_text())
    backend_s = sum(p.get("latency_ms") or 0 for p in preds) / 1000
    rec.update(n=len(preds), failed=sum(1 for p in preds if p.get("error")), options=manifest.get("backend_options"),
               batch_sizes=sorted({p.get("batch_size") for p in preds})[:8], backend_s=round(backend_s, 3),
               problems_per_s_backend=round(len(preds) / backend_s, 1) if backend_s else None,
               problems_per_s_wall=round(len(preds) / wall, 1),
               in_tokens_mean=round(sum(p.get("input_tokens") or 0 for p in preds) / max(1, len(preds)), 1))
    rec["_preds"] = {p["key"]: (p["choice"], p.get("option_probs")) for p in preds}
    log(name, {k: v for k, v in rec.items() if k != "_preds"})
    return rec


def agree(a: dict, b: dict) -> dict:
    """How two runs' predictions agree: compared keys, same choices, the largest probability difference."""
    pa, pb = a.get("_preds") or {}, b.get("_preds") or {}
    keys = sorted(set(pa) & set(pb))
    diff = max((abs(pa[k][1][c] - pb[k][1][c]) for k in keys if pa[k][1] and pb[k][1] for c in pa[k][1]), default=0.0)
    same = sum(pa[k][0] == pb[k][0] for k in keys)
    return {"compared": len(keys), "same_choice": same, "max_prob_diff": round(diff, 7),
            "equal": bool(keys) and same == len(keys) and diff <= 1e-5}


def strip(rec: dict) -> dict:
    return {k: v for k, v in rec.items() if k != "_preds"}


def build(folder: Path, seed: int, dims: dict, dtype) -> int:
    """A random Llama of ``dims`` with the tiny tokenizer saved to ``folder`` in ``dtype``; its parameters."""
    import torch

    from fbagent.eval.tiny import build_model, build_tokenizer

    tok = build_tokenizer()
    model = build_model(tok, seed=seed, **dims).to(dtype)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    n = sum(p.numel() for p in model.parameters())
    del model
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    return n


def forward_bound(model_dir: Path, prompts: list[str], device: str, batch: int = 128) -> dict:
    """Problems/s of the bare forward passes (bf16 on a GPU, ``logits_to_keep=1``, left padding) over
    ``prompts``: batches of ``batch`` in file order and sorted by length, the best of 2 runs each."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    dtype = torch.bfloat16 if device.startswith("cuda") else torch.float32
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=dtype).to(device).eval()
    tok = AutoTokenizer.from_pretrained(model_dir)
    tok.padding_side = "left"
    nparams = sum(p.numel() for p in model.parameters())
    out: dict = {"prompts": len(prompts), "batch": batch}
    for name, order in (("file_order", prompts), ("sorted", sorted(prompts, key=lambda p: len(tok(p)["input_ids"])))):
        best, tokens = float("inf"), 0
        for _ in range(2):
            start, tokens = time.time(), 0
            with torch.inference_mode():
                for i in range(0, len(order), batch):
                    enc = tok(order[i:i + batch], return_tensors="pt", padding=True).to(device)
                    tokens += int(enc["attention_mask"].sum())
                    model(**enc, logits_to_keep=1)
            if device.startswith("cuda"):
                torch.cuda.synchronize()
            best = min(best, time.time() - start)
        out[name] = {"forward_s": round(best, 3), "problems_per_s": round(len(prompts) / best, 1),
                     "tflops": round(2 * nparams * tokens / best / 1e12, 1)}
    del model
    return out


def part_a(work: Path, device: str, small: bool) -> dict:
    """Correctness on the tiny fp32 model: CPU vs the device, batch 1 vs the default batches."""
    import torch

    tiny = work / "tiny"
    build(tiny, 3, {"hidden_size": 256, "heads": 4, "layers": 2}, torch.float32)
    data = dataset(10 if small else 25, work / "a.jsonl")
    common = ["--dataset", str(data), "--backend", "transformers", "--model", str(tiny)]
    cpu = cli(work, "a_cpu", *common, "--device", "cpu")
    dev = cli(work, "a_dev", *common, "--device", device)
    dev1 = cli(work, "a_dev_b1", *common, "--device", device, "--batch-size", "1")
    reasoning = cli(work, "e_reasoning", *common, "--device", device, "--reasoning", "--end-think-tag", "</think>",
                    "--max-think-tokens", "16", "--limit", "3")
    return {"cpu": strip(cpu), "device": strip(dev), "device_b1": strip(dev1),
            "cpu_vs_device": agree(cpu, dev), "default_vs_b1": agree(dev, dev1), "reasoning": strip(reasoning)}


def part_b(work: Path, device: str, small: bool) -> dict:
    """Speed of the CLI on the 0.92B model (defaults and fixed batch sizes), the bound, and fp32 equality."""
    import torch

    big = work / "big"
    start = time.time()
    params = build(big, 0, SMALL_BIG if small else BIG, torch.bfloat16)
    res: dict = {"model": {"params": params, "build_save_s": round(time.time() - start, 1)}}
    log(res["model"])
    data = dataset(10 if small else 100, work / "b.jsonl")
    common = ["--dataset", str(data), "--backend", "transformers", "--model", str(big)]
    runs = {"defaults": cli(work, "b_defaults", *common)}
    for size in ("8", "64", "0"):
        runs[f"batch_{size}"] = cli(work, f"b_batch_{size}", *common, "--batch-size", size)
    fp32 = cli(work, "d_fp32", *common, "--dtype", "float32", "--limit", "2" if small else "10")
    fp32_b1 = cli(work, "d_fp32_b1", *common, "--dtype", "float32", "--limit", "2" if small else "10", "--batch-size", "1")
    prompts = [json.loads(x)["prompt"] for x in (work / "b_defaults" / "predictions.jsonl").read_text().splitlines()
               if x.strip()] if runs["defaults"]["rc"] == 0 else []
    bound = forward_bound(big, prompts, device) if prompts else {"error": "the defaults run failed"}
    for rec in runs.values():
        for name in ("file_order", "sorted"):
            if rec.get("problems_per_s_backend") and name in bound:
                rec[f"of_bound_{name}_backend"] = round(rec["problems_per_s_backend"] / bound[name]["problems_per_s"], 3)
                rec[f"of_bound_{name}_wall"] = round(rec["problems_per_s_wall"] / bound[name]["problems_per_s"], 3)
    res.update(runs={k: strip(v) for k, v in runs.items()}, bound=bound, defaults_vs_batch_64=agree(runs["defaults"], runs["batch_64"]),
               fp32_default_vs_b1=agree(fp32, fp32_b1), fp32=strip(fp32), fp32_b1=strip(fp32_b1))
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description="GPU check of the transformers evaluation backend (module doc).")
    ap.add_argument("--device", default="cuda", help="the device of parts A-E (default cuda)")
    ap.add_argument("--small", action="store_true", help="tiny models and few prompts: a dry run on a CPU")
    ap.add_argument("--only-speed", action="store_true", help="parts B and C only (benchmarks/bench_eval_gpu.py)")
    args = ap.parse_args()
    import torch
    import transformers

    res: dict = {"device": args.device, "torch": torch.__version__, "transformers": transformers.__version__,
                 "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}
    log(res)
    work = Path(tempfile.mkdtemp(prefix="fb-gpu-check-"))
    if not args.only_speed:
        res["A"] = part_a(work, args.device, args.small)
    res["B"] = part_b(work, args.device, args.small)
    defaults = res["B"]["runs"]["defaults"]
    ratio = defaults.get("of_bound_file_order_backend")
    res["verdict"] = {
        "defaults_problems_per_s_backend": defaults.get("problems_per_s_backend"),
        "defaults_of_bound_backend": ratio,
        "defaults_of_bound_target": TARGET_OF_BOUND,
        "speed_met": ratio is not None and ratio >= TARGET_OF_BOUND,
        "correct": all(x.get("equal") for x in ([res["A"]["cpu_vs_device"], res["A"]["default_vs_b1"]]
                                                 if "A" in res else []) + [res["B"]["fp32_default_vs_b1"]]),
    }
    line = json.dumps(res)
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "gpu_check_transformers.json").write_text(line + "\n")
    print(line)
    return 0 if res["verdict"]["correct"] else 1


if __name__ == "__main__":
    sys.exit(main())
