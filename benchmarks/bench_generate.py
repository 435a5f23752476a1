"""Benchmark: `fbagent generate` throughput and the tool's own overhead per entry.

Usage: python benchmarks/bench_generate.py [--entries 100] [--latency 0.1] [--skip-c1]

The scripted OpenAI-compatible server (tests/openai_stub.py, with the
frame-aware responder of tests/gen_responder.py) runs in a *separate process*
on 127.0.0.1 and adds a fixed latency to every answer. The tool runs the real
stack (openai + instructor + LangGraph + AsyncSqliteSaver + SQLite) on the
embedded sample lexicon, ``--per-pair`` entries per pair to reach ``--entries``
entries, no screening, a fresh database per measurement (no cache hits).
Every entry makes 7 LLM calls (generate_base, 2 x extend, 4 x define).

1. Throughput with ``--latency`` (default 100 ms) per call: entries/s at
   ``--concurrency 1`` and ``--concurrency 16``, and their ratio (target >= 10x).
2. Overhead at zero latency, concurrency 1: wall time per entry of the entry
   phase, split into time with at least one LLM client call in progress (HTTP
   round trips to the stub through openai + instructor: the union of the
   calls' wall-clock intervals) and the tool's own time, when no call is in
   progress (graph, checkpoints, checks, encoder, database writes).
   Measured with the real encoder (all-MiniLM-L6-v2 on the CPU, one thread)
   and with a hashing encoder that costs nothing (target: own overhead
   < 20 ms/entry). The stub answers dictionary-length definitions (12 words).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

STUB_SERVER = """
import sys, threading
sys.path.insert(0, {tests!r})
from openai_stub import OpenAIStub
from gen_responder import FrameResponder
stub = OpenAIStub(FrameResponder(short_definitions=True), latency_s=float(sys.argv[1])).start()
print(stub.base_url, flush=True)
sys.stdin.read()   # serve until the parent closes stdin
stub.stop()
"""


class HashEncoder:
    """A free stand-in for the sentence encoder: hashed bag of words, 384-d, L2-normalised."""

    name = "hash-bow-384"

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, int(hashlib.md5(word.encode()).hexdigest()[:8], 16) % 384] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-9)


def start_stub(latency: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", STUB_SERVER.format(tests=str(ROOT / "tests")), str(latency)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    return proc, url


def _busy_s(intervals: list[tuple[float, float]]) -> float:
    """Length of the union of [start, end) intervals (time with at least one LLM call in progress)."""
    total, cur_start, cur_end = 0.0, None, None
    for start, end in sorted(intervals):
        if cur_end is None or start > cur_end:
            if cur_end is not None:
                total += cur_end - cur_start
            cur_start, cur_end = start, end
        else:
            cur_end = max(cur_end, end)
    if cur_end is not None:
        total += cur_end - cur_start
    return total


INTERVALS: list[tuple[float, float]] = []


def _instrument() -> None:
    """Record the wall-clock interval of every LLMClient.complete call (benchmark only)."""
    from fbagent.llm.client import LLMClient

    real = LLMClient.complete
    if getattr(real, "_bench", False):
        return

    async def complete(self, **kw):
        start = time.perf_counter()
        try:
            return await real(self, **kw)
        finally:
            INTERVALS.append((start, time.perf_counter()))

    complete._bench = True
    LLMClient.complete = complete


def measure(url: str, entries: int, concurrency: int, encoder=None) -> dict:
    from rich.console import Console

    from fbagent.generation import GenerateOptions, generate

    per_pair = 5
    pairs = max(1, entries // per_pair)
    tmp = Path(tempfile.mkdtemp(prefix="fbbench-"))
    opts = GenerateOptions(pairs=pairs, per_pair=per_pair, generator="openai", base_url=url, model="stub-model",
                           concurrency=concurrency, screen=False, backoff_s=0.01)
    _instrument()
    INTERVALS.clear()
    summary = asyncio.run(generate(tmp / "bench.db", opts, console=Console(file=io.StringIO()), encoder=encoder,
                                   progress=False, command="bench"))
    llm_ms = 1000 * _busy_s(list(INTERVALS))
    n = summary.entries_done
    return {
        "entries": n, "calls": summary.calls, "verified": summary.counts["verified"],
        "entries_wall_s": summary.entries_wall_s, "entries_per_s": n / summary.entries_wall_s,
        "ms_per_entry": 1000 * summary.entries_wall_s / n, "llm_ms_per_entry": llm_ms / n,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=100)
    ap.add_argument("--latency", type=float, default=0.1, help="seconds added to every stub answer")
    ap.add_argument("--skip-c1", action="store_true", help="skip the slow concurrency-1 run with latency")
    args = ap.parse_args()

    from fbagent.generation import _load_encoder

    t = time.perf_counter()
    real = _load_encoder(None)
    print(f"encoder load (once per run): {time.perf_counter() - t:.1f} s")

    proc, url = start_stub(args.latency)
    try:
        print(f"\n1. throughput, {args.latency * 1000:.0f} ms per LLM call, {args.entries} entries x 7 calls, real encoder")
        results = {}
        for c in ([16] if args.skip_c1 else [1, 16]):
            r = measure(url, args.entries, c, real)
            results[c] = r
            print(f"   concurrency {c:>2}: {r['entries']} entries ({r['verified']} verified), {r['calls']} calls, "
                  f"{r['entries_wall_s']:.1f} s, {r['entries_per_s']:.2f} entries/s")
        if 1 in results:
            ratio = results[16]["entries_per_s"] / results[1]["entries_per_s"]
            ideal = 16.0
            print(f"   speed-up c16 / c1: {ratio:.1f}x (target >= 10x; the 7 calls of one entry run in 3 phases, "
                  f"ideal bound {ideal:.0f}x)")
    finally:
        proc.stdin.close()
        proc.wait()

    proc, url = start_stub(0.0)
    try:
        print(f"\n2. overhead at zero latency, {args.entries} entries, concurrency 1")
        for label, enc in (("real encoder (MiniLM, CPU)", real), ("hashing encoder (free)", HashEncoder())):
            r = measure(url, args.entries, 1, enc)
            own = r["ms_per_entry"] - r["llm_ms_per_entry"]
            print(f"   {label}: {r['ms_per_entry']:.1f} ms/entry total = {r['llm_ms_per_entry']:.1f} ms in LLM client "
                  f"calls (7 HTTP round trips via openai + instructor) + {own:.1f} ms own overhead "
                  f"(graph, checkpoints, checks, encoder, SQLite) -> target < 20 ms: {'met' if own < 20 else 'NOT met'}")
        r = measure(url, args.entries, 16, HashEncoder())
        print(f"   concurrency 16, hashing encoder: {r['ms_per_entry']:.1f} ms/entry wall ({r['entries_per_s']:.1f} entries/s)")
    finally:
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
