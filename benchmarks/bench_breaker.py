"""How soon `generate` and `eval run` give up on a dead model service, and that a flaky one still finishes.

Usage: python benchmarks/bench_breaker.py [--json] [--only generate|eval] [--pairs 800] [--flaky-pairs 20]

Starts the scripted OpenAI-compatible server of ``tests/openai_stub.py`` on 127.0.0.1 in one of three
modes and runs the real command line (``python -m fbagent.cli``, a fresh database or result folder each
time) against it:

- ``500``: every request answered with HTTP 500;
- ``hang``: no request is ever answered (the client's ``--timeout 5`` fires);
- ``flaky``: one request in five answered with HTTP 500, the others by the frame-aware generator of
  ``tests/gen_responder.py`` (or, for ``eval run``, a right answer).

Prints, per command and mode: the exit code, the wall time (seconds, noisy on a shared machine), the
requests the server saw and the last line on stderr. The circuit breaker's limits are the defaults of
:mod:`fbagent.providers.breaker` unless ``FBAGENT_BREAKER_CALLS`` / ``FBAGENT_BREAKER_SECONDS`` are set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub, error, slow  # noqa: E402

DATASET = REPO / "tests" / "data" / "eval_entries_en.jsonl"


def responder(mode: str, answer):
    """The stub's responder for ``mode`` (``500`` | ``hang`` | ``flaky``)."""
    counter, lock = itertools.count(1), threading.Lock()

    def reply(request: dict):
        if mode == "500":
            return error(500, "internal error")
        if mode == "hang":
            return slow(3600.0)
        with lock:
            n = next(counter)
        return error(500, "flaky") if n % 5 == 0 else answer(request)

    return reply


def eval_answer(request: dict) -> str:
    """A four-choice answer (always option 1): the service works, the model is weak."""
    return json.dumps({"answer": "1"})


def run(cmd: list[str], stub: OpenAIStub, limit_s: float) -> dict:
    """Run ``cmd`` and report exit code, seconds, requests seen and the last stderr line."""
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit_s, cwd=REPO)
        rc, err = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc, err = "timeout", (exc.stderr or b"").decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
    lines = [line for line in err.splitlines() if line.strip()]
    return {"rc": rc, "seconds": round(time.perf_counter() - started, 1), "requests": stub.request_count,
            "last_line": lines[-1][:400] if lines else ""}


def generate_cmd(base_url: str, db: Path, pairs: int) -> list[str]:
    return [sys.executable, "-m", "fbagent.cli", "generate", "--pairs", str(pairs), "--generator", "openai",
            "--base-url", base_url, "--model", "stub", "--timeout", "5", "--db", str(db), "--no-screen"]


def eval_cmd(base_url: str, out: Path) -> list[str]:
    return [sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATASET), "--backend", "openai",
            "--base-url", base_url, "--model", "stub", "--timeout", "5", "--out", str(out)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", choices=["generate", "eval"])
    ap.add_argument("--pairs", type=int, default=800)
    ap.add_argument("--flaky-pairs", type=int, default=20)
    ap.add_argument("--limit-s", type=float, default=900.0)
    args = ap.parse_args()
    rows = []
    for command in ("generate", "eval"):
        if args.only and command != args.only:
            continue
        for mode in ("500", "hang", "flaky"):
            answer = FrameResponder() if command == "generate" else eval_answer
            with OpenAIStub(responder(mode, answer)) as stub, tempfile.TemporaryDirectory() as tmp:
                if command == "generate":
                    pairs = args.flaky_pairs if mode == "flaky" else args.pairs
                    cmd = generate_cmd(stub.base_url, Path(tmp) / "b.db", pairs)
                else:
                    cmd = eval_cmd(stub.base_url, Path(tmp) / "out")
                row = {"command": command, "mode": mode, **run(cmd, stub, args.limit_s)}
            rows.append(row)
            if not args.json:
                print(f"{command:8} {mode:5} rc={row['rc']} {row['seconds']:7.1f} s {row['requests']:5} requests  "
                      f"{row['last_line']}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
