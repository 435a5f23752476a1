"""Time of `validate report`'s reliability block (Krippendorff's alpha x 4, Cohen's kappa per pair, each with
its bootstrap) on synthetic judgments: N entries x 3 annotators, answers agreeing 80% of the time.

    python benchmarks/bench_reliability.py [N ...] [--resamples R]

Prints seconds per N and the ratio to the first N (the bootstrap is linear in N x R).
"""

from __future__ import annotations

import argparse
import random
import time

from fbagent.validation.aggregate import EntryScore, PairJudgment
from fbagent.validation.reliability import reliability_report


def synthetic(n: int, seed: int = 0) -> dict[str, EntryScore]:
    """``n`` entries judged by alice, bob and carol on all four pairs."""
    rng = random.Random(seed)
    out = {}
    for i in range(n):
        e = EntryScore(f"e{i}")
        truth = rng.choice(["A", "B"])
        for name in ("alice", "bob", "carol"):
            for pair in ("base", "extended", "both_correct", "neither_correct"):
                choice = truth if rng.random() < 0.8 else rng.choice(["A", "B", "both", "neither"])
                level = rng.choice(["natural", "natural", "acceptable", "unacceptable"])
                e.pairs.setdefault(name, {})[pair] = PairJudgment(
                    name, pair, choice, choice == truth, level, level == "natural", "sentence_a", "sentence_b",
                    seconds=rng.uniform(5, 40), judged_at=f"2026-01-01T00:{i % 60:02d}:00")
            e.scores[name] = {"correct": e.pairs[name]["base"].correct, "acceptable": e.pairs[name]["base"].acceptable}
        out[e.item_id] = e
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", nargs="*", type=int, default=[100, 400])
    ap.add_argument("--resamples", type=int, default=1000)
    args = ap.parse_args()
    t = time.perf_counter()
    import sklearn.metrics  # noqa: F401 - imported once per report; timed apart from the statistics

    print(f"import sklearn.metrics: {time.perf_counter() - t:.2f} s (once per report)")
    first = None
    for n in args.sizes:
        entries = synthetic(n)
        t = time.perf_counter()
        reliability_report(entries, resamples=args.resamples)
        s = time.perf_counter() - t
        first = first or s
        print(f"N={n} entries, {args.resamples} resamples: {s:.2f} s (x{s / first:.2f} of N={args.sizes[0]})")


if __name__ == "__main__":
    main()
