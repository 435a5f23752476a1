"""The generate benchmark runs end to end as users run it (under the crash supervisor), so that it
cannot silently break again (issue 30: it refused every configuration for a whole round once
``generate`` moved into a supervised child and its probes stayed in the parent).

One configuration of the quick set (``--quick --only 100:16``: 5 pairs x 8 entries, latency 100 ms,
concurrency 16, the stand-in encoder) plus the ``eval run`` measurement, in subprocesses as the script
runs them. Its speed is not asserted here (speed targets live in the benchmark's own output); what is:
a row, not a refusal; every entry done with its 7 calls; the bound computed from the configuration;
the command ran in the supervised child.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_generate_quick_runs_supervised():
    env = {k: v for k, v in os.environ.items() if k != "FBAGENT_SUPERVISE"}   # as users run it
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_generate.py"), "--quick", "--only", "100:16",
                           "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    objects = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    rows = [o for o in objects if "eval_run" not in o]
    assert len(rows) == 1 and "refused" not in rows[0], proc.stdout[-3000:]
    row = rows[0]
    assert (row["latency_ms"], row["concurrency"], row["encoder"]) == (100, 16, "stand-in")
    assert row["supervised"] is True
    assert row["entries"] == 40 and row["verified"] == 40            # 5 pairs x 8, every one verified by the stub
    assert row["calls_per_entry"] == 7.0                              # generate_base, 2 x extend, 4 x define
    assert row["bound_entries_per_s"] == 22.86                        # min(16 / (7 x 0.1 s), 2 x 16 / (3 x 0.1 s))
    assert row["entries_per_s"] > 0 and row["cpu_ms_per_entry"] > 0
    ev = next(o["eval_run"] for o in objects if "eval_run" in o)
    assert ev["requests"] == 400 and ev["bound_requests_per_s"] == 100.0   # 20 entries x 4 problems x 5 templates
