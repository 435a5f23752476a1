"""Benchmark: wall time of `fbagent --help` and of each command's `--help` (start-up path must stay light).

Usage: python benchmarks/bench_startup.py [--runs 10] [--commands]
Prints the median and min over runs, and the same for a bare `python -c pass` baseline; with ``--commands``
also ``fbagent COMMAND --help`` for every command of the root table (a command's --help imports its module
and what that imports at module level: issue 32's import rule puts fbagent modules there).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time


def _time(cmd: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--commands", action="store_true", help="also time each command's --help")
    args = parser.parse_args()
    exe = shutil.which("fbagent")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "fbagent.cli", "--help"]
    help_times = _time(cmd, args.runs)
    base_times = _time([sys.executable, "-c", "pass"], args.runs)
    print(f"fbagent --help: median {statistics.median(help_times)*1000:.0f} ms, min {min(help_times)*1000:.0f} ms ({args.runs} runs)")
    print(f"python -c pass: median {statistics.median(base_times)*1000:.0f} ms, min {min(base_times)*1000:.0f} ms")
    print(f"overhead over bare interpreter: {(statistics.median(help_times)-statistics.median(base_times))*1000:.0f} ms")
    if args.commands:
        from fbagent.cli import COMMANDS

        for name in COMMANDS:
            times = _time([*cmd[:-1], name, "--help"], args.runs)
            print(f"fbagent {name} --help: median {statistics.median(times)*1000:.0f} ms, min {min(times)*1000:.0f} ms")


if __name__ == "__main__":
    main()
