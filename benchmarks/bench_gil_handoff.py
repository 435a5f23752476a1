"""Benchmark: how long the event loop thread waits for the GIL after a SQLite statement while the checks run.

Usage: python benchmarks/bench_gil_handoff.py [--statements 2000] [--intervals 0.005,0.001,0.0005] [--json]

``fbagent generate`` runs the verb check in one worker thread (:func:`fbagent.agents.entry_graph.off_loop`) beside
the event loop thread. Python's ``sqlite3`` releases the GIL inside every statement; a busy worker takes it, and the
loop thread gets it back only when the worker's time slice ends (``sys.setswitchinterval``, 5 ms by default) or its
check returns. This script measures that: a worker thread runs the real checks
(:func:`fbagent.checks.self_check.self_check` and ``extension_check`` on the sentences of ``benchmarks/const_stub.py``,
new sentences each time, so HanTa tags each one) back to back, while the main thread inserts ``--statements`` rows
into a WAL SQLite file (``synchronous=NORMAL``, as ``fbagent generate`` writes), one statement at a time, and records
each statement's wall time. Per switch interval: the median, mean, 99th percentile and largest statement time (ms),
and the worker's entries checked per second meanwhile (what the shorter slices cost it); and the statement alone. The process's interval is restored at the end.
``generate`` keeps Python's 5 ms: a shorter interval cut these waits but cost CPU per entry at latency 0
(docs/backends.md, issue 46 session 15).

Wall times: on a loaded machine compare the intervals of one run (the load is printed). Prints numbers, asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from const_stub import NOUNS, _word  # noqa: E402 - the stub's sentences, next to this script

from fbagent.checks import self_check as checks  # noqa: E402

VERBS = {"address": ("Addressing", "Speak_on_topic"), "bear": ("Bearing_arms", "Giving_birth"),
         "break": ("Cause_to_fragment", "Render_nonfunctional"), "charge": ("Attack", "Commerce_collect"),
         "cover": ("Filling", "Hiding_objects"), "draw": ("Cause_motion", "Create_representation")}


def entry_checks(n: int) -> None:
    """The checks of entry ``n``: a self-check of a base pair and the checks of its two extended sentences (new
    sentences for every ``n``: the pier number makes them so)."""
    verb = list(VERBS)[n % len(VERBS)]
    fa, fb = (_word(f) for f in VERBS[verb])
    noun = NOUNS[(n // len(VERBS)) % len(NOUNS)]
    a = f"They {verb} the {fa} {noun} near the {fb} today at pier {n}."
    b = f"They {verb} the {fb} {noun} near the {fa} tonight at pier {n}."
    base = {"sentence_a": a, "sentence_b": b, "verb_form_a": verb, "verb_form_b": verb,
            "question": f"Which sentence implies that something was done to a {noun}?"}
    checks.self_check(base, lemma=verb, lang="en", frame_names=[fa, fb], fe_names=["Agent"])
    for s, frame in ((a, fa), (b, fb)):
        ext = f"Last winter several {frame} workers wanted to {verb} a {noun} near pier {zlib.crc32(s.encode()) % 1000 + n}."
        checks.extension_check(ext, s, key="sentence_a_prime", lemma=verb, lang="en", verb_form=verb, others=[a, b])


def statement_times(conn: sqlite3.Connection, statements: int, busy: bool) -> tuple[list[float], float]:
    """Wall ms of ``statements`` single-row inserts (each committed), with the checks running in a worker thread
    when ``busy``; and the worker's entries checked per second of the statements' run (0 when not ``busy``)."""
    stop = threading.Event()
    done = [0]

    def worker() -> None:
        n = int(time.time() * 1000) % 100_000   # new sentences in every run
        while not stop.is_set():
            entry_checks(n)
            n += 1
            done[0] += 1

    thread = threading.Thread(target=worker, name="checks", daemon=True)
    if busy:
        thread.start()
        time.sleep(0.2)
    out = []
    start, checked = time.perf_counter(), done[0]
    try:
        for i in range(statements):
            t0 = time.perf_counter()
            conn.execute("INSERT INTO rows (payload) VALUES (?)", (f"row {i}",))
            conn.commit()
            out.append(1000 * (time.perf_counter() - t0))
            time.sleep(0.0005)   # the event loop's other work between two statements
        rate = (done[0] - checked) / (time.perf_counter() - start)
    finally:
        stop.set()
        if busy:
            thread.join()
    return out, rate


def summary(measured: tuple[list[float], float]) -> dict[str, float]:
    """Median, mean, 99th percentile and largest of the statement times (ms), and the worker's entries per second,
    rounded."""
    times, rate = measured
    ordered = sorted(times)
    return {"checked_entries_per_s": round(rate, 1), "median_ms": round(statistics.median(ordered), 3), "mean_ms": round(statistics.fmean(ordered), 3),
            "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 3), "max_ms": round(ordered[-1], 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--statements", type=int, default=2000)
    ap.add_argument("--intervals", default="0.005,0.001,0.0005", help="switch intervals to compare, seconds")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    entry_checks(0)   # load the tagger and the lemma tables
    before = sys.getswitchinterval()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        conn = sqlite3.connect(os.path.join(tmp, "bench.db"))
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT)")
        try:
            rows.append({"switch_interval_s": None, "checks": False,
                         **summary(statement_times(conn, args.statements, busy=False))})
            for interval in (float(x) for x in args.intervals.split(",")):
                sys.setswitchinterval(interval)
                rows.append({"switch_interval_s": interval, "checks": True,
                             **summary(statement_times(conn, args.statements, busy=True))})
        finally:
            sys.setswitchinterval(before)
            conn.close()
    print(f"SQLite insert + commit on the main thread, {args.statements} each (load {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")
    print(f"{'switch interval':>16} {'checks':>7} {'median ms':>10} {'mean ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'checked entries/s':>18}")
    for r in rows:
        label = "-" if r["switch_interval_s"] is None else f"{1000 * r['switch_interval_s']:g} ms"
        print(f"{label:>16} {'yes' if r['checks'] else 'no':>7} {r['median_ms']:>10} {r['mean_ms']:>8} "
              f"{r['p99_ms']:>8} {r['max_ms']:>8} {r['checked_entries_per_s']:>18}")
    if args.json:
        for r in rows:
            print(json.dumps({**r, "load": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
