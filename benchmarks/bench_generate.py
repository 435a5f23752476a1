"""Benchmark: `fbagent generate` against the physical limit of its configuration (not against its stub).

Usage::

    python benchmarks/bench_generate.py            # 200 entries per configuration, a few minutes
    python benchmarks/bench_generate.py --quick    # 40 entries, about a minute
    python benchmarks/bench_generate.py --json     # the table, then one JSON object per configuration
    python benchmarks/bench_generate.py --only 100:16,0:16 --real-encoder   # a subset; + MiniLM rows

What runs where:

- the stub (``benchmarks/const_stub.py``) in its own process: a constant-time
  async OpenAI-compatible server answering from precomputed bytes, with a fixed
  ``latency_ms`` per answer;
- each configuration in a fresh process (``benchmarks/generate_child.py``): the
  real ``fbagent generate`` CLI (Typer, Rich view, the aiohttp transport,
  LangGraph and its SQLite checkpointer, SQLite) on a copy of a database that already
  holds the embedded sample lexicon (25 frame pairs x 8 entries = 200 entries, and
  at c64 25 x 31 = 775, so that a run holds 6 x its 128 entries in flight:
  :func:`per_pair_for`; ``--per-pair N`` for all; ``--quick``: 5 pairs x 8),
  screening on, a warm model cache; the
  sentence encoder is a stand-in (hashed bag of words, no torch) unless the row
  says ``MiniLM`` (fbagent's default all-MiniLM-L6-v2, loaded in the background,
  in a process of its own: :mod:`fbagent.verifier.encoder_process`; its encoding CPU
  is added in ``cpu_with_encoder_ms_per_entry``, its one-time load is
  ``encoder_process.load_cpu_s``).

First the stub alone (``const_stub.py load``, its own process, the request mix
of one entry, at latency 0) at each concurrency: its capacity in requests/s.
A configuration is refused (no row, a line saying why, exit code 1) when the
stub cannot sustain 5x its request rate: ``concurrency / latency`` calls/s with
latency, fbagent's measured calls/s at latency 0.

Per configuration (latency 0 and 100 ms x concurrency 1, 16, 64):

- ``entries_per_s``, ``calls_per_s``: the entry phase (``EntriesStarted`` to
  ``EntriesStopped``; screening and start-up are not in it); 7 calls per entry
  (generate_base, 2 x extend, 4 x define);
- ``bound_entries_per_s``: with latency L, ``min(c / (7 L), 2c / (3 L))``: the
  request slots (``c`` in flight, 7 calls per entry) and the dependency chain of
  one entry (3 sequential LLM steps, ``2c`` entries in flight); at latency 0 the
  stub's measured capacity at ``c`` / 7 (the limit the stub sets, so the ratio
  says how much of the machine fbagent itself takes);
- ``ratio`` = entries_per_s / bound; ``first_request_s``: from process spawn to
  the stub's first request (interpreter start, imports, database, selection,
  client); ``cpu_ms_per_entry``: process CPU (all threads) in the entry phase
  per entry; ``cpu_steady_ms_per_entry``: the same between the moments a
  quarter and three quarters of the entries are done (without the first
  entries' one-time work: first imports of the nodes' modules, warming caches;
  a steady state only where the ``2c`` entries in flight are few next to the
  run's entries, i.e. not at c64 with 200 entries);
  ``cpu_total_ms_per_entry``: the whole process's CPU per entry;
  ``cpu_ms_per_entry_by_thread``: the entry phase's CPU per entry by thread name
  (``MainThread`` is the event loop; Linux ``/proc/self/task``, clock ticks of
  10 ms, so a thread's share is exact to 10 ms over the run; ``ended``: threads
  that ended inside the phase);
  ``peak_rss_mb``.

Then ``fbagent eval run --backend openai`` against the same stub: 400 requests
(20 entries x 4 problems x 5 templates), concurrency 10, latency 100 ms: its
requests/s and the ratio to ``10 / 0.1 s``.

The machine's load average (``os.getloadavg``) is printed with every number:
on a shared machine the ratios measured in one run are what to compare.
Targets (on 2 cores; issue 33): ratio >= 0.9 at 100 ms / c16 and c64 (stand-in encoder) and at
100 ms / c16 with MiniLM; CPU <= 8 ms per entry at latency 0 / c16 with the stand-in encoder and
<= 25 ms per entry at 100 ms / c16 with MiniLM; first request <= 1.5 s; eval >= 0.95 of its bound. This script prints them next to the
numbers and asserts nothing (speed targets are never unit tests).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
CALLS_PER_ENTRY = 7          # generate_base, 2 x extend, 4 x define (no retries, no judge)
CHAIN_STEPS = 3              # generate_base -> extend (2 in parallel) -> verify (4 in parallel)
STUB_HEADROOM = 5.0          # the stub must sustain 5x the configuration's request rate
SAMPLE_PAIRS = 25            # frame pairs of the embedded sample lexicon
TARGETS = {(100, 16, "stand-in"): 0.9, (100, 64, "stand-in"): 0.9, (100, 16, "MiniLM"): 0.9}   # ratio
FIRST_REQUEST_TARGET_S = 1.5
CPU_TARGETS_MS = {(0, 16, "stand-in"): 8.0, (100, 16, "MiniLM"): 25.0}   # CPU ms per entry (entry phase)
EVAL_TARGET = 0.95
JSON_KEYS = ("concurrency", "latency_ms", "entries_per_s", "bound_entries_per_s", "ratio", "first_request_s",
             "cpu_ms_per_entry", "peak_rss_mb")


def machine(folder: Path) -> dict[str, Any]:
    """What tells two machines' rows apart: CPU model, cores, Python version and build, and the file system
    (type, device, mount options) that holds the benchmark's databases (``folder``), from /proc/mounts."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    fs: dict[str, Any] = {}
    try:
        target = str(Path(folder).resolve())
        best = ""
        for line in Path("/proc/mounts").read_text().splitlines():
            dev, mount, kind, opts, *_ = line.split()
            if (target == mount or target.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(best):
                best, fs = mount, {"type": kind, "mount": mount, "device": dev, "options": opts}
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "python_build": " ".join(platform.python_build()), "db_filesystem": fs}


def load() -> str:
    """The 1-minute load average and the CPU count, e.g. ``load 3.1 on 2 cores``."""
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


# --------------------------------------------------------------------------- set-up


def prepare(folder: Path) -> tuple[Path, Path]:
    """A database with the embedded sample lexicon imported (copied for every configuration) and the
    stub's lexicon table ``{verb: {frame: definition}}`` (verbs with two frames or more)."""
    code = f"""
import json, sys
from fbagent.lexicon.importer import resolve_lexicon
from fbagent.store.db import open_db
from fbagent.store.lexicon import frame_reference_texts, verb_frames
db = open_db({str(folder / 'template.db')!r})
lex = dict(resolve_lexicon(db, None, notify=lambda note: None))
table = {{v: {{f: frame_reference_texts(db, lex["id"], f, v)[0] for f in fs}}
          for v, fs in verb_frames(db, lex["id"]).items() if len(fs) >= 2}}
json.dump(table, open({str(folder / 'lexicon.json')!r}, "w"))
db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
"""
    subprocess.run([sys.executable, "-c", code], check=True, cwd=folder)
    return folder / "template.db", folder / "lexicon.json"


class Stub:
    """The constant-time stub process (``const_stub.py serve``) and its control endpoints."""

    def __init__(self, lexicon: Path, unique_definitions: bool = False) -> None:
        self.lexicon = lexicon
        extra = ["--unique-definitions"] if unique_definitions else []
        self.proc = subprocess.Popen([sys.executable, str(HERE / "const_stub.py"), "serve", "--lexicon", str(lexicon), *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            raise SystemExit("the stub did not start")
        self.root = self.url.removesuffix("/v1")

    def post(self, path: str) -> None:
        urllib.request.urlopen(urllib.request.Request(self.root + path, data=b"", method="POST"), timeout=10).read()

    def stats(self) -> dict[str, Any]:
        return json.loads(urllib.request.urlopen(self.root + "/stats", timeout=10).read())

    def set_latency(self, ms: float) -> None:
        self.post(f"/latency/{ms:g}")

    def alone(self, concurrency: int, seconds: float) -> float:
        """Requests/s of the stub alone at ``concurrency`` (its own client process), at the current latency."""
        out = subprocess.run([sys.executable, str(HERE / "const_stub.py"), "load", "--url", self.url,
                              "--lexicon", str(self.lexicon), "--concurrency", str(concurrency),
                              "--seconds", str(seconds)], capture_output=True, text=True, check=True)
        self.post("/reset")
        return float(json.loads(out.stdout.strip().splitlines()[-1])["requests_per_s"])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


# --------------------------------------------------------------------------- one configuration


@dataclass
class Config:
    latency_ms: int
    concurrency: int
    encoder: str = "stand-in"      # or "MiniLM"


def run_config(cfg: Config, stub: Stub, template: Path, folder: Path, pairs: int, per_pair: int,
               capacity: dict[int, float], count_checkpoints: bool = False) -> dict[str, Any]:
    """Run one configuration in a fresh process; returns its row (or ``{"refused": why}``)."""
    bound_rate = cfg.concurrency / (cfg.latency_ms / 1000) if cfg.latency_ms else None   # calls/s
    stub_capacity = capacity[cfg.concurrency]
    if bound_rate is not None and stub_capacity < STUB_HEADROOM * bound_rate:
        return {"refused": f"the stub sustains {stub_capacity:.0f} requests/s, less than {STUB_HEADROOM:g} x "
                           f"{bound_rate:.0f} (the configuration's rate)"}
    work = folder / f"l{cfg.latency_ms}-c{cfg.concurrency}-{cfg.encoder}"
    work.mkdir()
    db = work / "bench.db"
    shutil.copy(template, db)
    stub.set_latency(cfg.latency_ms)
    stub.post("/reset")
    args = ["--pairs", str(pairs), "--per-pair", str(per_pair), "--generator", "openai", "--base-url", stub.url,
            "--model", "stub-model", "--concurrency", str(cfg.concurrency), "--screen", "--db", str(db)]
    env = {**os.environ, "OPENAI_API_KEY": "", "FBAGENT_OPENAI_MODE": "json_schema",
           "FBBENCH_COUNT_CHECKPOINTS": "1" if count_checkpoints else ""}
    result_path = work / "result.json"
    with open(work / "output.txt", "w") as log:
        spawned = time.time()
        proc = subprocess.run([sys.executable, str(HERE / "generate_child.py"), str(result_path),
                               "stand-in" if cfg.encoder == "stand-in" else "real", "--", *args],
                              stdout=log, stderr=subprocess.STDOUT, env=env, cwd=work)
    stats = stub.stats()
    child = json.loads(result_path.read_text()) if result_path.exists() else {}
    entries = int(child.get("entries_done") or 0)
    problem = None
    if proc.returncode != 0 or child.get("exit_code"):
        problem = f"fbagent generate exited with {proc.returncode} (see {work / 'output.txt'})"
    elif stats["misses"]:
        problem = f"the stub could not answer {stats['misses']} requests: {stats['miss_examples'][:1]}"
    elif child.get("failures") or entries != pairs * per_pair:
        problem = f"{child.get('failures')} failed calls, {entries} of {pairs * per_pair} entries"
    if problem:
        return {"refused": problem}
    wall = child["entries_stopped_t"] - child["entries_started_t"]
    screening = stats["by_schema"].get("PairScreening", 0)
    calls = stats["requests"] - screening
    entries_per_s = entries / wall
    calls_per_s = calls / wall
    if bound_rate is None:
        if stub_capacity < STUB_HEADROOM * calls_per_s:
            return {"refused": f"the stub sustains {stub_capacity:.0f} requests/s, less than {STUB_HEADROOM:g} x "
                               f"{calls_per_s:.0f} (fbagent's rate)"}
        bound = stub_capacity / CALLS_PER_ENTRY
    else:
        latency_s = cfg.latency_ms / 1000
        bound = min(cfg.concurrency / (CALLS_PER_ENTRY * latency_s), 2 * cfg.concurrency / (CHAIN_STEPS * latency_s))
    row = {
        "concurrency": cfg.concurrency, "latency_ms": cfg.latency_ms, "encoder": cfg.encoder, "entries": entries,
        "verified": (child.get("counts") or {}).get("verified"),
        "entries_per_s": round(entries_per_s, 2), "calls_per_s": round(calls_per_s, 1),
        "calls_per_entry": round(calls / entries, 2), "bound_entries_per_s": round(bound, 2),
        "ratio": round(entries_per_s / bound, 3),
        "first_request_s": round(stats["first_t"] - spawned, 3),
        "imports_s": round(child["imports_done_t"] - spawned, 3),
        "cpu_ms_per_entry": round(1000 * (child["cpu_stopped_s"] - child["cpu_started_s"]) / entries, 2),
        "cpu_total_ms_per_entry": round(1000 * child["cpu_total_s"] / entries, 2),
        "cpu_steady_ms_per_entry": round(1000 * (child["steady_end_cpu_s"] - child["steady_cpu_s"])
                                         / (child["steady_end_done"] - child["steady_done"]), 2)
        if child.get("steady_end_done", 0) > child.get("steady_done", 0) else None,
        "peak_rss_mb": round(child["peak_rss_mb"], 1), "stub_capacity_per_s": stub_capacity,
        "max_in_flight": stats["max_in_flight"], "load": round(os.getloadavg()[0], 2),
        "supervised": bool(child.get("supervised")), "encoder_worker": child.get("encoder_worker"),
    }
    steady = child.get("steady_end_done", 0) - child.get("steady_done", 0)
    if steady > 0 and child.get("steady_end_t", 0) > child.get("steady_t", 0):
        row["ratio_steady"] = round(steady / (child["steady_end_t"] - child["steady_t"]) / bound, 3)
    if "encoder_process" in child:   # the encoder's own process: its encoding CPU counts per entry, its load once
        row["encoder_process"] = child["encoder_process"]
        row["cpu_with_encoder_ms_per_entry"] = round(
            row["cpu_ms_per_entry"] + 1000 * child["encoder_process"]["encode_cpu_s"] / entries, 2)
    if child.get("threads_stopped"):   # the entry phase's CPU by thread (threads that ended in it: "ended")
        before, after = child.get("threads_started") or {}, child["threads_stopped"]
        per = {name: 1000 * (cpu - before.get(name, 0.0)) / entries for name, cpu in after.items()}
        per["ended"] = row["cpu_ms_per_entry"] - sum(per.values())
        row["cpu_ms_per_entry_by_thread"] = {k: round(v, 2) for k, v in sorted(per.items(), key=lambda kv: -kv[1])
                                             if abs(v) >= 0.01}
    if "checkpointer" in child:
        row["checkpointer"] = {k: {"per_entry": round(v["calls"] / entries, 2),
                                   "awaited_ms_per_call": round(1000 * v["awaited_s"] / max(1, v["calls"]), 3)}
                               for k, v in child["checkpointer"].items()}
    return row


# --------------------------------------------------------------------------- eval run


def eval_dataset(path: Path, entries: int) -> None:
    """``entries`` exported entries: the hand-made ones of tests/data, repeated with new ids."""
    rows = [json.loads(line) for line in (ROOT / "tests" / "data" / "eval_entries_en.jsonl").read_text().splitlines()
            if line.strip()]
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(entries):
            row = dict(rows[i % len(rows)])
            row["id"] = f"bench:{i}:0"
            fh.write(json.dumps(row) + "\n")


def run_eval(stub: Stub, folder: Path, requests: int = 400, concurrency: int = 10, latency_ms: int = 100) -> dict:
    """``fbagent eval run --backend openai`` against the stub; requests/s from the stub's first to last request."""
    work = folder / "eval"
    work.mkdir()
    per_entry = 4 * 5                                   # 2 problems x 2 orders x 5 templates
    eval_dataset(work / "entries.jsonl", requests // per_entry)
    stub.set_latency(latency_ms)
    stub.post("/reset")
    cmd = [sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(work / "entries.jsonl"),
           "--backend", "openai", "--base-url", stub.url, "--model", "stub-model", "--concurrency",
           str(concurrency), "--out", str(work / "out"), "--n-boot", "100"]
    spawned = time.time()
    with open(work / "output.txt", "w") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "OPENAI_API_KEY": ""},
                              cwd=work)
    ended = time.time()
    stats = stub.stats()
    if proc.returncode != 0 or stats["misses"] or not stats["requests"]:
        return {"refused": f"eval run exited with {proc.returncode}, {stats['requests']} requests, "
                           f"{stats['misses']} misses (see {work / 'output.txt'})"}
    span = stats["last_t"] - stats["first_t"] + latency_ms / 1000   # the last answer comes latency after its request
    rate = stats["requests"] / span
    bound = concurrency / (latency_ms / 1000)
    return {"requests": stats["requests"], "concurrency": concurrency, "latency_ms": latency_ms,
            "requests_per_s": round(rate, 1), "bound_requests_per_s": bound, "ratio": round(rate / bound, 3),
            "first_request_s": round(stats["first_t"] - spawned, 3), "wall_s": round(ended - spawned, 2),
            "load": round(os.getloadavg()[0], 2)}


# --------------------------------------------------------------------------- report


DEFAULT_PER_PAIR = 8     # 25 pairs x 8 = 200 entries
STEADY_FACTOR = 6        # a run holds at least this many times the 2c entries in flight


def per_pair_for(concurrency: int, pairs: int, quick: bool) -> int:
    """Entries per pair for a configuration: :data:`DEFAULT_PER_PAIR`, raised so that the run holds at least
    :data:`STEADY_FACTOR` x the ``2c`` entries in flight (c64: 128 in flight, 775 entries). With fewer, the run is
    mostly its ramp-up (no entry ends before its 3 sequential LLM steps) and its drain, which the bound (a steady
    rate) does not include: c64 with 200 entries measured 0.60-0.86 of the bound where 600 measured 0.94.
    ``--quick`` keeps its 40 entries (a smoke run)."""
    if quick:
        return DEFAULT_PER_PAIR
    return max(DEFAULT_PER_PAIR, -(-STEADY_FACTOR * 2 * concurrency // pairs))


def table(rows: list[dict[str, Any]]) -> str:
    head = ("latency", "conc", "encoder", "entries/s", "bound", "ratio", "target", "calls/s", "first req s",
            "CPU ms/entry", "(steady)", "(total)", "RSS MB", "load")
    lines = [" | ".join(head), " | ".join("---" for _ in head)]
    for r in rows:
        if "refused" in r:
            lines.append(f"{r['latency_ms']} ms | {r['concurrency']} | {r['encoder']} | refused: {r['refused']}")
            continue
        target = TARGETS.get((r["latency_ms"], r["concurrency"], r["encoder"]))
        lines.append(" | ".join(str(x) for x in (
            f"{r['latency_ms']} ms", r["concurrency"], r["encoder"], f"{r['entries_per_s']:.1f}",
            f"{r['bound_entries_per_s']:.1f}", f"{r['ratio']:.2f}", f">= {target}" if target else "-",
            f"{r['calls_per_s']:.0f}", f"{r['first_request_s']:.2f}", f"{r['cpu_ms_per_entry']:.1f}",
            "-" if r.get("cpu_steady_ms_per_entry") is None else f"{r['cpu_steady_ms_per_entry']:.1f}",
            f"{r['cpu_total_ms_per_entry']:.0f}", f"{r['peak_rss_mb']:.0f}", r["load"])))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description="fbagent generate against the physical limit (see the module doc).")
    ap.add_argument("--quick", action="store_true", help="40 entries per configuration, 1 s stub-alone runs")
    ap.add_argument("--json", action="store_true", help="also print one JSON object per configuration")
    ap.add_argument("--per-pair", type=int, default=None,
                    help="entries per pair (25 pairs; default 8 = 200 entries, more at high concurrency: see "
                         "entries_for)")
    ap.add_argument("--only", help="configurations LATENCY_MS:CONCURRENCY[:MiniLM],... (default: 0 and 100 x 1, 16, 64, stand-in encoder)")
    ap.add_argument("--real-encoder", action="store_true",
                    help="add MiniLM rows (latency 0 and 100 ms, concurrency 16): CPU and first request with torch")
    ap.add_argument("--no-eval", action="store_true", help="skip the `eval run` measurement")
    ap.add_argument("--unique-definitions", action="store_true",
                    help="the stub answers a definition of its own for every sentence (default: one per frame, "
                         "which the encoder worker's rows kept by text then answer)")
    ap.add_argument("--count-checkpoints", action="store_true", help="count checkpointer calls per entry")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (databases, outputs)")
    args = ap.parse_args()

    pairs = 5 if args.quick else SAMPLE_PAIRS
    configs = [Config(int(lat), int(c), *enc) for lat, c, *enc in (x.split(":") for x in args.only.split(","))] \
        if args.only else [Config(lat, c) for lat in (0, 100) for c in (1, 16, 64)]
    if args.real_encoder:
        configs += [Config(0, 16, "MiniLM"), Config(100, 16, "MiniLM")]
    folder = Path(tempfile.mkdtemp(prefix="fbbench-"))
    print(f"{pairs} pairs x {args.per_pair or DEFAULT_PER_PAIR} = {pairs * (args.per_pair or DEFAULT_PER_PAIR)} entries "
          f"per configuration{'' if args.per_pair or args.quick else ' (at least 6 x the 2c entries in flight)'}, screening on, "
          f"{'a definition per sentence' if args.unique_definitions else 'a definition per frame'}; "
          f"work folder {folder}; {load()}", flush=True)
    template, lexicon = prepare(folder)
    stub = Stub(lexicon, args.unique_definitions)
    rows: list[dict[str, Any]] = []
    try:
        seconds = 1.0 if args.quick else 2.0
        capacity = {c: stub.alone(c, seconds) for c in sorted({cfg.concurrency for cfg in configs})}
        print("stub alone, latency 0: " + ", ".join(f"c{c}: {v:.0f} requests/s" for c, v in capacity.items())
              + f" ({load()})", flush=True)
        for cfg in configs:
            if cfg.latency_ms:
                stub.set_latency(cfg.latency_ms)
                alone = stub.alone(cfg.concurrency, seconds)
                stub.set_latency(0)
                print(f"stub alone, latency {cfg.latency_ms} ms, c{cfg.concurrency}: {alone:.1f} requests/s "
                      f"(bound {cfg.concurrency * 1000 / cfg.latency_ms:.0f})", flush=True)
            per_pair = args.per_pair or per_pair_for(cfg.concurrency, pairs, args.quick)
            row = run_config(cfg, stub, template, folder, pairs, per_pair, capacity, args.count_checkpoints)
            row = {"latency_ms": cfg.latency_ms, "concurrency": cfg.concurrency, "encoder": cfg.encoder, **row}
            rows.append(row)
            print(("  " + json.dumps(row)) if "refused" not in row else f"  refused: {row['refused']}", flush=True)
        ev = None if args.no_eval else run_eval(stub, folder)
    finally:
        stub.close()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)

    print()
    print(table(rows))
    ok = [r for r in rows if "refused" not in r]
    for r in ok:
        key = (r["latency_ms"], r["concurrency"], r["encoder"])
        if key in TARGETS:
            print(f"latency {r['latency_ms']} ms, c{r['concurrency']}, {r['encoder']}: ratio {r['ratio']:.2f} "
                  f"(target >= {TARGETS[key]}: {'met' if r['ratio'] >= TARGETS[key] else 'NOT met'})")
        if key in CPU_TARGETS_MS:
            print(f"CPU at latency {r['latency_ms']} ms, c{r['concurrency']}, {r['encoder']}: "
                  f"{r['cpu_ms_per_entry']:.1f} ms/entry, steady {r.get('cpu_steady_ms_per_entry')} ms/entry "
                  f"(target <= {CPU_TARGETS_MS[key]:g}: {'met' if r['cpu_ms_per_entry'] <= CPU_TARGETS_MS[key] else 'NOT met'})")
    first = [r["first_request_s"] for r in ok]
    if first:
        print(f"first request after spawn: {min(first):.2f} .. {max(first):.2f} s "
              f"(target <= {FIRST_REQUEST_TARGET_S}: {'met' if max(first) <= FIRST_REQUEST_TARGET_S else 'NOT met'})")
    if ev is not None:
        if "refused" in ev:
            print(f"eval run: refused: {ev['refused']}")
        else:
            print(f"eval run --backend openai: {ev['requests']} requests, c{ev['concurrency']}, {ev['latency_ms']} ms: "
                  f"{ev['requests_per_s']:.1f} requests/s of {ev['bound_requests_per_s']:.0f} = ratio {ev['ratio']:.2f} "
                  f"(target >= {EVAL_TARGET}: {'met' if ev['ratio'] >= EVAL_TARGET else 'NOT met'}); load {ev['load']}")
    print(load())
    if args.json:
        where = machine(folder)
        for r in rows:
            print(json.dumps(r if "refused" in r else {**{k: r[k] for k in JSON_KEYS}, **r, "machine": where}))
        if ev is not None:
            print(json.dumps({"eval_run": ev}))
    if any("refused" in r for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
