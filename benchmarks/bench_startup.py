"""Benchmark: wall time of `fbagent --help` and of each command's `--help` (start-up path must stay light).

Usage: python benchmarks/bench_startup.py [--runs 10] [--commands] [--against TREE]
Prints the median and min over runs, and the same for a bare `python -c pass` baseline; with ``--commands``
also ``fbagent COMMAND --help`` for every command of the root table (a command's --help imports its module
and what that imports at module level: issue 32's import rule puts fbagent modules there).

With ``--against TREE`` (a checkout of another commit, e.g. ``git archive BASE | tar -x -C /tmp/before``) it
times three start-ups, ``python -c "import fbagent.cli"``, ``python -m fbagent.cli --help`` and ``python -m
fbagent.cli nosuch`` (a usage error: what most of tests/test_bad_input.py's subprocesses pay before their
command's own work), with ``PYTHONPATH=TREE`` and with this checkout, alternating the two run by run so that
both see the same load, and prints each median and the ratio (the rooms mapped by the editable install, such
as ``store/`` and ``eval/``, come from this checkout in both).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def _time(cmd: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        out.append(time.perf_counter() - t0)
    return out


STARTUPS = {
    "import fbagent.cli": ["-c", "import fbagent.cli"],
    "fbagent --help": ["-m", "fbagent.cli", "--help"],
    "fbagent nosuch (usage error)": ["-m", "fbagent.cli", "nosuch"],
}


EMPTY = tempfile.mkdtemp(prefix="bench_startup_")


def _once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s: user + system of the child, which a loaded machine inflates far less than wall time)."""
    t0 = time.perf_counter()
    # cwd: an empty folder, since `-c` and `-m` put the working folder first on sys.path (a checkout there wins)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=EMPTY)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0   # reaped by wait4
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def compare(tree: str, runs: int) -> None:
    """Median wall and CPU time (ms) of each of :data:`STARTUPS` with ``PYTHONPATH=tree`` and with this
    checkout, the two alternating run by run, and the ratios this / tree."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    envs = {name: {**os.environ, "PYTHONPATH": path} for name, path in (("tree", tree), ("this", here))}
    for label, argv in STARTUPS.items():
        wall: dict[str, list[float]] = {"tree": [], "this": []}
        cpu: dict[str, list[float]] = {"tree": [], "this": []}
        for _ in range(runs):
            for name, env in envs.items():
                w, c = _once([sys.executable, *argv], env)
                wall[name].append(w)
                cpu[name].append(c)
        (wb, wa), (cb, ca) = ([statistics.median(t[n]) * 1000 for n in ("tree", "this")] for t in (wall, cpu))
        print(f"{label} ({runs} runs each, alternating): wall median {wb:.0f} -> {wa:.0f} ms (ratio {wa / wb:.2f}); "
              f"CPU median {cb:.0f} -> {ca:.0f} ms (ratio {ca / cb:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--commands", action="store_true", help="also time each command's --help")
    parser.add_argument("--against", metavar="TREE", help="compare start-ups with this checkout of another commit")
    args = parser.parse_args()
    if args.against:
        compare(args.against, args.runs)
        return
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
