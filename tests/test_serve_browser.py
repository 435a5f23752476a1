"""The annotate app in a real browser: Debian's Chromium driven by playwright against `fbagent annotate --serve`.

Opens an invite link, judges tasks with key presses, checks the answers in
SQLite; closes the tab (the app process ends, exit 0) and reopens ``/`` in
the same browser (it resumes on the next task); a second browser without the
cookie gets 401 on the page and on the WebSocket and starts no app process;
revoking the annotator ends the running app. Skips with a reason only when
playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from browser_driver import (
    FBAGENT,
    AppTab,
    Browser,
    ServeProcess,
    TapTab,
    browser_skip_reason,
    chromium,
)
from factories import make_db

from fbagent.store import open_db

pytestmark = [pytest.mark.slow, pytest.mark.skipif(browser_skip_reason() is not None, reason=str(browser_skip_reason()))]

N_ENTRIES = 3  # 12 pair tasks


def answers(db_path, annotator):
    db = open_db(db_path)
    try:
        return [(r["choice"], r["acceptability"]) for r in db.query(
            "SELECT choice, acceptability FROM annotation_tasks WHERE annotator = ? AND choice IS NOT NULL"
            " ORDER BY answered_at, id", [annotator])]
    finally:
        db.conn.close()


def wait_until(predicate, timeout_s=30.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def status_of(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as err:
        return err.code


def test_invite_link_keys_answers_resume_and_a_browser_without_cookie(tmp_path):
    db_path = tmp_path / "bench.db"
    make_db(db_path, n=N_ENTRIES).conn.close()
    with ServeProcess(db_path, "--max-tabs", "1") as server, chromium() as pw:
        link = server.invite("alice")
        alice = Browser(pw)
        tab = alice.tab().open(link)
        assert tab.page.evaluate("location.href") == server.url + "/"  # the token left the address bar
        assert tab.page.evaluate("document.cookie") == ""  # HttpOnly: no script sees the session
        cookie = next(c for c in alice.context.cookies() if c["name"] == "fbagent_session")
        assert (cookie["httpOnly"], cookie["sameSite"], cookie["path"]) == (True, "Strict", "/")
        assert len(server.app_pids()) == 1
        tab.wait_text("task 1/12", since_key=False)
        tab.close_help()  # the first-time help closes on any key
        given = []
        for i, (key, choice, level) in enumerate([("1", "A", "n"), ("2", "B", "u"), ("4", "neither", "a")]):
            tab.press(key)
            tab.press(level)
            tab.wait_text("●")  # the answer is drawn: it is stored
            tab.press("Enter")
            tab.wait_text(f"task {i + 2}/12")
            given.append((choice, {"n": "natural", "u": "unacceptable", "a": "acceptable"}[level]))
        assert answers(db_path, "alice") == given

        # a second browser without the cookie: 401 on the page, no app process
        other = Browser(pw)
        page = other.tab().page
        response = page.goto(server.url + "/")
        assert response.status == 401 and "not signed in" in page.inner_text("body")
        ws_status = page.evaluate(
            """(url) => new Promise((done) => { const ws = new WebSocket(url);
                 ws.onopen = () => done("open"); ws.onerror = () => done("refused"); })""",
            server.url.replace("http", "ws") + "/ws?width=80&height=24",
        )
        assert ws_status == "refused"
        # the same link again in the second browser: used, 401
        assert other.tab().page.goto(link).status == 401
        assert len(server.app_pids()) == 1
        other.close()

        # a second tab of alice (--max-tabs 1) takes over the first: its page says so; one app process runs
        second = alice.tab().open(server.url + "/")
        second.wait_text("task 4/12", since_key=False)
        assert wait_until(tab.closed)
        assert "Opened in another tab" in tab.page.inner_text(".closed-dialog")
        assert wait_until(lambda: len(server.app_pids()) == 1)
        tab.page.close()
        tab = second

        # closing the tab ends the app process cleanly; reopening resumes on the next open task
        pid = server.app_pids()[0]
        tab.page.close()
        assert wait_until(lambda: not server.app_pids() and "alice: app ended (closed" in server.log.read_text())
        log = server.log.read_text()
        assert "alice: app ended (closed, exit 0" in log and f"pid {pid}" in log
        assert "alice: app ended (opened in another tab, exit 0" in log
        tab = alice.tab().open(server.url + "/")
        tab.wait_text("task 4/12", since_key=False)
        tab.press("3")
        tab.press("n")
        tab.wait_text("●")
        assert answers(db_path, "alice")[-1] == ("both", "natural")

        # revoking alice ends her running app within a second or two; the page shows the session ended
        out = subprocess.run([str(FBAGENT), "annotators", "revoke", "alice", "--db", str(db_path)],
                             capture_output=True, text=True, check=True)
        assert "revoked 0 open link(s) and 1 browser session(s)" in out.stdout
        assert wait_until(lambda: not server.app_pids() and tab.closed(), 30)
        assert tab.page.goto(server.url + "/").status == 401
        alice.close()
        db = open_db(db_path)
        session = next(db.query("SELECT * FROM annotation_sessions WHERE annotator = 'alice' ORDER BY id DESC LIMIT 1"))
        assert json.loads(session["options"])["statuses"] == ["verified", "flagged"]
        assert session["last_task_id"] is not None  # close() ran in the app process: the position is recorded
    assert server.proc.returncode == 0  # Ctrl+C stops the server cleanly


def test_screenshots_at_desktop_and_phone_size(tmp_path):
    """The views docs/annotate.md shows (written to tmp_path; `benchmarks/bench_serve.py --screenshots docs/` commits them)."""
    db_path = tmp_path / "bench.db"
    make_db(db_path, n=N_ENTRIES).conn.close()
    with ServeProcess(db_path) as server, chromium() as pw:
        for name, size in (("desktop", (1280, 800)), ("phone", (390, 844))):
            browser = Browser(pw, viewport=size, **({"is_mobile": True, "has_touch": True, "device_scale_factor": 1}
                                                     if name == "phone" else {}))
            tab = browser.tab().open(server.invite(name))
            tab.wait_text("task 1/12", since_key=False)
            tab.close_help()
            tab.press("1")
            tab.wait_text("●")
            shot = tmp_path / f"{name}.png"
            tab.page.screenshot(path=str(shot))
            assert shot.stat().st_size > 5_000
            browser.close()


def test_a_phone_answers_12_tasks_by_taps_only(tmp_path):
    """Phone viewport (390x844, touch): the help, 12 answers, 12 ratings and 12 "next" are taps; all are stored.
    12 tasks give every answer (4) with every rating (3) once: each button is tapped, each pair of them stored."""
    db_path = tmp_path / "bench.db"
    make_db(db_path, n=3).conn.close()  # 12 pair tasks
    with ServeProcess(db_path) as server, chromium() as pw:
        phone = Browser(pw, viewport=(390, 844), is_mobile=True, has_touch=True, device_scale_factor=2)
        page = phone.tab().page
        page.goto(server.invite("pia"))
        page.tap("#start")  # "Start annotating as pia"
        tab = TapTab(AppTab(page))
        page.wait_for_selector("body.-first-byte", timeout=60_000)
        tab.wait_for("How to annotate", 60)
        tab.tap("How to annotate")  # a tap closes the first-time help
        plan = [("Sentence A", "A"), ("Sentence B", "B"), ("Both", "both"), ("Neither", "neither")]
        levels = [("Unacceptable", "unacceptable"), ("Acceptable", "acceptable"), ("Natural", "natural")]
        given = []
        for i in range(12):
            tab.wait_for(f"task {i + 1}/12")
            label, choice = plan[i % 4]
            level, name = levels[i % 3]
            tab.tap(f"○ {label}")
            tab.wait_for(f"● {label}")
            tab.tap(f"○ {level}")
            tab.wait_for(f"● {level}")
            tab.tap("Enter next")
            given.append((choice, name))
        tab.wait_for("All 12 tasks are answered")
        assert page.evaluate("[window.__keydowns, window.__taps]") == [0, 37]  # taps only: 1 + 12 x 3
        phone.close()
    assert answers(db_path, "pia") == given


def test_the_lead_adjudicates_in_the_browser(tmp_path):
    """`annotate --serve --mode adjudicate` (issue 45): the invited lead gets the adjudicate screen in Chromium, the
    disputed entries only with the annotators anonymised, and decides with keys; every decision is in SQLite."""
    from test_validation import E, scripted_answers

    from fbagent.store import adjudications

    db_path = tmp_path / "bench.db"
    db = make_db(db_path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)   # test_validation's SCRIPT: E2, E3, E5 disputed
    db.conn.close()
    with ServeProcess(db_path, "--mode", "adjudicate") as server, chromium() as pw:
        lead = Browser(pw)
        tab = lead.tab().open(server.invite("lead"))
        tab.wait_text("entry 1/3 · decided 0/3", since_key=False)
        assert "annotator 1" in tab.screen_text() and "alice" not in tab.screen_text()
        for decision, reason, after in (("d", "weak", "entry 2/3"), ("k", "fine", "entry 3/3"),
                                        ("r", "split", "decided 3/3")):
            tab.press(decision)
            for ch in reason:
                tab.press(ch)
            tab.press("Enter")
            tab.wait_text(after)

        def decided() -> dict:
            db = open_db(db_path)
            try:
                return {e: (d["decision"], d["reason"], d["adjudicator"]) for e, d in adjudications.latest(db).items()}
            finally:
                db.conn.close()

        assert wait_until(lambda: len(decided()) == 3)
        assert decided() == {E[1]: ("drop", "weak", "lead"), E[2]: ("keep", "fine", "lead"),
                             E[4]: ("second_round", "split", "lead")}
        tab.page.close()
        assert wait_until(lambda: not server.app_pids() and "lead: app ended (closed, exit 0" in server.log.read_text())
        lead.close()
    assert server.proc.returncode == 0


def test_keys_reach_the_app_without_a_click(tmp_path):
    """After "Start annotating" the annotator types at once: the page focuses the terminal itself (new user,
    session 13: textual.js left the focus on the page body, and keys did nothing until a click)."""
    db_path = tmp_path / "bench.db"
    make_db(db_path, n=1).conn.close()
    with ServeProcess(db_path) as server, chromium() as pw:
        tab = Browser(pw).tab().open(server.invite("alice"), focus=False)
        tab.page.wait_for_function("document.activeElement && document.activeElement.classList.contains("
                                   "'xterm-helper-textarea')", timeout=10_000)
        tab.wait_text("task 1/4", since_key=False)
        tab.close_help()
        tab.press("1")
        tab.press("n")
        tab.wait_text("●")
        tab.press("Enter")
        tab.wait_text("task 2/4")
        assert answers(db_path, "alice") == [("A", "natural")]
