"""Benchmark: `fbagent annotate --serve` in Chromium: answers stored vs given, key-to-next-task time, and what curl gets.

    python benchmarks/bench_serve.py                    # 3 browsers x 20 tasks with a generate running, plus 1 browser alone
    python benchmarks/bench_serve.py --tasks 10 --browsers 2
    python benchmarks/bench_serve.py --screenshots docs # also write docs/annotate-browser-{desktop,phone}.png

Set-up (real components, no network): ``fbagent generate`` against the scripted
OpenAI-compatible stub (``tests/openai_stub.py`` + ``tests/gen_responder.py``)
writes a run ``seed`` of entries; ``fbagent annotate --serve --run seed`` serves
it; each annotator gets a link from ``fbagent annotators invite`` and opens it
in their own headless Chromium (Debian's, ``/usr/bin/chromium``, driven by
playwright; ``tests/browser_driver.py``); for the loaded case a second
``fbagent generate`` (run ``live``, stub latency 20 ms) writes to the same
database the whole time and is stopped with Ctrl+C afterwards.

Three cases: one browser alone ("alone"); ``--browsers`` browsers at once
("tabs"); as many with the generate running ("loaded").

Per browser: close the first-time help, then for each task press an answer
key (1-4), an acceptability key (u/a/n), wait until the answer is drawn, press
Enter and wait for the next task's header. Printed:

- answers given vs stored: per annotator, the (choice, acceptability) pairs
  given, the ``annotation_tasks`` rows stored with both, and whether the two
  lists are equal in answer order; ``annotation_judgments`` rows;
- key-to-next-task (ms): from the Enter keydown in the page to the first
  WebSocket frame that holds the next task's header, both in the page's clock
  (``performance.now``), median and p95, alone and loaded;
- generate during the window: entries the live run wrote while the browsers
  annotated (it must be writing, or the loaded case proves nothing);
- revised entries in a new tab (issue 31): sentence A of every entry revised, then a new annotator's
  first screen, key-to-next-task over the tasks (the first one included), the app process's RSS at the
  first task and after the last, whether lemminflect is mapped in it; and the first re-found verb span in
  a fresh process with lemminflect vs with the server's shared table (``fbagent/serve/warm.py``);
- curl without a session and with a revoked or expired token: each case, its
  status, and whether the body shows app data.

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_driver import FBAGENT, Browser, ServeProcess, browser_skip_reason, chromium  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402

from fbagent.store import open_db  # noqa: E402

LEVELS = {"u": "unacceptable", "a": "acceptable", "n": "natural"}
CHOICES = {"1": "A", "2": "B", "3": "both", "4": "neither"}


def env_without_keys() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FBAGENT_DB")}


def generate_cmd(db: Path, stub_url: str, run: str, pairs: int, per_pair: int) -> list[str]:
    return [str(FBAGENT), "generate", "--pairs", str(pairs), "--per-pair", str(per_pair), "--generator", "openai",
            "--base-url", stub_url, "--model", "stub-model", "--no-screen", "--run", run, "--db", str(db)]


def annotate(tab, n_tasks: int, total: int, seed: int) -> tuple[list[tuple[str, str]], list[float]]:
    """Judge ``n_tasks`` tasks in an open tab; returns the answers given and the Enter-to-next-task times (ms)."""
    rng = random.Random(seed)
    tab.wait_text(f"task 1/{total}", since_key=False)
    tab.close_help()
    given, times = [], []
    for i in range(n_tasks):
        key, level = rng.choice("1234"), rng.choice("uan")
        tab.press(key)
        tab.press(level)
        tab.wait_text("●")
        tab.press("Enter")
        times.append(tab.wait_text(f"task {i + 2}/{total}"))
        given.append((CHOICES[key], LEVELS[level]))
    return given, times


def stored(db_path: Path, annotator: str) -> tuple[list[tuple[str, str]], int]:
    db = open_db(db_path)
    try:
        rows = [(r["choice"], r["acceptability"]) for r in db.query(
            "SELECT choice, acceptability FROM annotation_tasks WHERE annotator = ? AND choice IS NOT NULL"
            " AND acceptability IS NOT NULL ORDER BY answered_at, id", [annotator])]
        judgments = db.execute("SELECT count(*) FROM annotation_judgments WHERE annotator = ?", [annotator]).fetchone()[0]
        return rows, judgments
    finally:
        db.conn.close()


def count_items(db_path: Path, run: str) -> int:
    db = open_db(db_path)
    try:
        return db.execute("SELECT count(*) FROM items i JOIN runs r ON r.id = i.run_id WHERE r.name = ?", [run]).fetchone()[0]
    finally:
        db.conn.close()


def session_round(server: ServeProcess, db_path: Path, names: list[str], n_tasks: int, total: int) -> dict:
    """Each name in its own Chromium (own thread, own playwright), all at once."""
    links = {name: server.invite(name) for name in names}
    results: dict[str, dict] = {}
    errors: list[BaseException] = []

    def one(name: str, seed: int) -> None:
        try:
            with chromium() as pw:
                browser = Browser(pw)
                tab = browser.tab().open(links[name])
                given, times = annotate(tab, n_tasks, total, seed)
                tab.page.close()  # a closed tab: the app process ends and records the position
                browser.close()
            results[name] = {"given": given, "times": times}
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=one, args=(name, i)) for i, name in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    deadline = time.monotonic() + 30
    while server.app_pids() and time.monotonic() < deadline:
        time.sleep(0.1)
    for name in names:
        rows, judgments = stored(db_path, name)
        results[name].update(stored=rows, judgments=judgments, equal=rows == results[name]["given"])
    return results


def revise_every_entry(db_path: Path, run: str) -> int:
    """Revise sentence_a of every entry of ``run`` (a word added, the verb kept): every task then shows a revised
    text whose verb span must be re-found (the lemminflect path of :func:`fbagent.store.revisions.find_verb_span`)."""
    from fbagent.store.revisions import save_revision

    db = open_db(db_path)
    try:
        rows = list(db.query("SELECT i.id, i.sentence_a FROM items i JOIN runs r ON r.id = i.run_id WHERE r.name = ?",
                             [run]))
        for row in rows:
            save_revision(db, row["id"], "sentence_a", "Indeed, " + row["sentence_a"], "lead")
        return len(rows)
    finally:
        db.conn.close()


def rss_mb(pid: int) -> float:
    """Resident set size of a process (VmRSS), MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def revised_round(server: ServeProcess, n_tasks: int, total: int) -> dict:
    """A new annotator in a new tab on revised entries: first screen, key-to-next-task, app RSS after the tasks."""
    with chromium() as pw:
        browser = Browser(pw)
        t0 = time.monotonic()
        tab = browser.tab().open(server.invite("fresh"))
        tab.wait_text(f"task 1/{total}", since_key=False)
        first_screen = time.monotonic() - t0
        pid = server.app_pids()[0]
        start_rss = rss_mb(pid)
        given, times = annotate(tab, n_tasks, total, 7)
        end_rss = rss_mb(pid)
        lemminflect = b"lemminflect" in Path(f"/proc/{pid}/maps").read_bytes()
        tab.page.close()
        browser.close()
    return {"first_screen_s": first_screen, "times": times, "rss_start": start_rss, "rss_end": end_rss,
            "lemminflect_in_app": lemminflect, "given": given}


SPAN_PROBE = """
import json, resource, sys, time
from fbagent.serve.warm import load_inflections
from fbagent.store import revisions
r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
load_inflections(sys.argv[1] or None)
span = revisions.find_verb_span("She grasped it.", None, "grasp")
print(json.dumps([time.perf_counter() - t, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r0) / 1024,
                  "lemminflect" in sys.modules, span]))
"""


def span_cost_in_a_fresh_process(table: bool) -> tuple[float, float, bool]:
    """Seconds, MB of peak-RSS growth, and whether lemminflect got imported, for the first re-found verb span in
    a new Python process: without (the app loads lemminflect) or with the server's shared table (made by another
    process, as the server does)."""
    path = ""
    if table:
        from fbagent.serve.warm import InflectionFile

        path = InflectionFile().update(["grasp"])
    out = subprocess.run([sys.executable, "-c", SPAN_PROBE, path], capture_output=True, text=True, check=True)
    seconds, mb, loaded, span = json.loads(out.stdout)
    assert span == [4, 11], span
    return seconds, mb, loaded


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def curl_cases(server: ServeProcess, db_path: Path) -> list[tuple[str, str]]:
    """Each curl case and its answer (status line; whether the body shows app data)."""
    from fbagent.serve.tokens import token_hash
    from fbagent.store import invites

    curl = shutil.which("curl")
    if curl is None:
        return [("curl", "not installed")]

    def run(label: str, *args: str) -> tuple[str, str]:
        out = subprocess.run([curl, "-s", "-o", "-", "-w", "\n%{http_code}", *args], capture_output=True, text=True)
        body, _, code = out.stdout.rpartition("\n")
        leaks = any(s in body for s in ("grasped", "Sentence A", "annotator", "task 1/"))
        return label, f"{code}{' (body shows app data!)' if leaks else ''}"

    url = server.url
    ws = ["-H", "Connection: Upgrade", "-H", "Upgrade: websocket", "-H", "Sec-WebSocket-Version: 13",
          "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "-H", f"Origin: {url}"]
    revoked_link = server.invite("revoked-one")
    subprocess.run([str(FBAGENT), "annotators", "revoke", "revoked-one", "--db", str(db_path)], check=True,
                   capture_output=True)
    db = open_db(db_path)
    invites.add_invite(db, "expired-one", token_hash("expired-token-of-the-bench"), "2020-01-01T00:00:00.000+00:00")
    used = server.invite("used-one")
    jar = Path(tempfile.mkdtemp()) / "jar"
    page = subprocess.run([curl, "-s", "-c", str(jar), used], check=True, capture_output=True, text=True).stdout
    form = [f"{k}={v}" for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', page)]
    subprocess.run([curl, "-s", "-o", "/dev/null", "-b", str(jar), "-c", str(jar), "-H", f"Origin: {url}",
                    *[a for f in form for a in ("--data-urlencode", f)], url + "/join"], check=True)  # "Start annotating"
    subprocess.run([str(FBAGENT), "annotators", "revoke", "used-one", "--db", str(db_path)], check=True,
                   capture_output=True)
    db.conn.close()
    return [
        run("GET / (no cookie)", url + "/"),
        run("GET /ws WebSocket upgrade (no cookie)", *ws, url + "/ws?width=80&height=24"),
        run("GET /static/js/textual.js (no cookie)", url + "/static/js/textual.js"),
        run("GET /static/ (no cookie; no index either way)", url + "/static/"),
        run("GET /download/x (no cookie)", url + "/download/x"),
        run("GET / with a made-up cookie", "-H", "Cookie: fbagent_session=made-up", url + "/"),
        run("GET /join with a revoked link", revoked_link),
        run("GET /join with an expired link", url + "/join?token=expired-token-of-the-bench"),
        run("GET /join with a used link (another client)", used),
        run("HEAD /join with an open link (a link preview)", "-I", server.invite("preview-one")),
        run("POST /join from another origin", "-H", "Origin: http://evil.example", "--data", "token=x&csrf=1.x",
            url + "/join"),
        run("GET / with the cookie of a revoked session", "-b", str(jar), url + "/"),
        run("GET /ws upgrade with the cookie of a revoked session", "-b", str(jar), *ws, url + "/ws"),
    ]


def screenshots(folder: Path, work: Path) -> list[Path]:
    """The two views of docs/annotate.md, on the hand-written entries of ``tests/factories.py``."""
    from factories import make_db

    make_db(work / "shots.db", n=10).conn.close()
    out = []
    with ServeProcess(work / "shots.db") as server, chromium() as pw:
        for name, who, size, extra in (("desktop", "alice", (1280, 800), {}),
                                       ("phone", "bob", (390, 844), {"is_mobile": True, "has_touch": True})):
            browser = Browser(pw, viewport=size, **extra)
            tab = browser.tab().open(server.invite(who))
            tab.wait_text("task 1/", since_key=False)
            tab.close_help()
            tab.press("1")
            tab.wait_text("●")
            time.sleep(0.5)  # let xterm paint the last frame
            path = folder / f"annotate-browser-{name}.png"
            tab.page.screenshot(path=str(path))
            out.append(path)
            browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--browsers", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--screenshots", type=Path, default=None, help="folder for the two PNGs (e.g. docs)")
    args = parser.parse_args()
    reason = browser_skip_reason()
    if reason:
        raise SystemExit(f"cannot run: {reason}")
    work = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    db_path = work / "bench.db"
    env = env_without_keys()
    with OpenAIStub(FrameResponder()) as stub:
        t = time.time()
        subprocess.run(generate_cmd(db_path, stub.base_url, "seed", 4, 3), check=True, env=env, capture_output=True)
        entries = count_items(db_path, "seed")
        total = 4 * entries
        print(f"set-up: generate wrote {entries} entries ({total} pair tasks per annotator) in {time.time() - t:.1f} s")
    if total < args.tasks + 1:
        raise SystemExit(f"only {total} tasks; ask for fewer --tasks")

    if args.screenshots:
        for p in screenshots(args.screenshots, work):
            print(f"wrote {p} ({p.stat().st_size // 1024} KiB)")
    rows = {}
    with ServeProcess(db_path, "--run", "seed", "--max-apps", str(max(12, args.browsers + 2))) as server:
        rows["alone"] = session_round(server, db_path, ["solo"], args.tasks, total)
        rows["tabs"] = session_round(server, db_path, [f"tab{i + 1}" for i in range(args.browsers)], args.tasks, total)
        with OpenAIStub(FrameResponder(), latency_s=0.02) as stub:
            gen = subprocess.Popen(generate_cmd(db_path, stub.base_url, "live", 10, 40), env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while count_items(db_path, "live") == 0 and gen.poll() is None:
                time.sleep(0.2)
            before = count_items(db_path, "live")
            t0 = time.time()
            names = [f"annotator{i + 1}" for i in range(args.browsers)]
            rows["loaded"] = session_round(server, db_path, names, args.tasks, total)
            window = time.time() - t0
            after = count_items(db_path, "live")
            still_running = gen.poll() is None
            gen.send_signal(signal.SIGINT)
            gen_exit = gen.wait(120)
        cases = curl_cases(server, db_path)
        revised = revise_every_entry(db_path, "seed")
        rows_revised = revised_round(server, args.tasks, total)
    cost_app = span_cost_in_a_fresh_process(table=False)
    cost_table = span_cost_in_a_fresh_process(table=True)

    print(f"\ngenerate (run live) during the {window:.1f} s the browsers annotated: {after - before} entries written"
          f" ({before} -> {after}); still running at the end: {still_running}; exit after Ctrl+C: {gen_exit}")
    print("\nanswers given vs stored (annotation_tasks rows with choice and acceptability; judgments rows):")
    for case, results in rows.items():
        for name, r in results.items():
            print(f"  {case:6} {name:11} given {len(r['given']):3}  stored {len(r['stored']):3}  judgments"
                  f" {r['judgments']:3}  same answers in the same order: {r['equal']}")
    print("\nkey-to-next-task in the browser (Enter keydown -> first WebSocket frame with the next task's header), ms:")
    for case, results in rows.items():
        times = [t for r in results.values() for t in r["times"]]
        print(f"  {case:6} n={len(times):3}  median {statistics.median(times):6.1f}  p95 {pct(times, 0.95):6.1f}"
              f"  max {max(times):6.1f}")
    r = rows_revised
    print(f"\nrevised entries ({revised} entries of run seed revised), a new annotator in a new tab:"
          f" first task drawn {r['first_screen_s']:.2f} s after opening the link;"
          f" key-to-next-task n={len(r['times'])} median {statistics.median(r['times']):.1f} ms"
          f" p95 {pct(r['times'], 0.95):.1f} ms max {max(r['times']):.1f} ms (first task {r['times'][0]:.1f} ms)")
    print(f"  app process RSS: {r['rss_start']:.0f} MB at the first task, {r['rss_end']:.0f} MB after {len(r['times'])}"
          f" tasks; lemminflect mapped in the app: {r['lemminflect_in_app']}")
    print(f"  first re-found verb span in a fresh process: lemminflect in the process {cost_app[0] * 1000:.0f} ms,"
          f" +{cost_app[1]:.0f} MB; the server's shared table {cost_table[0] * 1000:.1f} ms, +{cost_table[1]:.0f} MB"
          f" (ratio {cost_app[0] / max(cost_table[0], 1e-9):.0f}x); lemminflect imported: {cost_app[2]} / {cost_table[2]}")
    print("\ncurl without a session / with revoked or expired tokens:")
    for label, answer in cases:
        print(f"  {label:55} {answer}")
    print(json.dumps({case: {n: {k: v for k, v in r.items() if k in ("equal", "judgments")} for n, r in res.items()}
                      for case, res in rows.items()}))


if __name__ == "__main__":
    main()
