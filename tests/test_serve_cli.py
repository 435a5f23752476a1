"""`fbagent annotators invite|list|revoke` and `fbagent annotate --serve` options, through the real CLI."""

from __future__ import annotations

import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from browser_driver import FBAGENT, ServeProcess, free_port
from factories import make_db

from fbagent.store import open_db


def fb(*args, **kw):
    return subprocess.run([str(FBAGENT), *args], capture_output=True, text=True, **kw)


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "bench.db"
    make_db(path, n=2).conn.close()
    return path


def test_invite_list_revoke(db_path):
    first = fb("annotators", "invite", "alice", "--db", str(db_path), "--public-url", "https://annotate.example.org/")
    assert first.returncode == 0
    link = first.stdout.strip()
    assert link.startswith("https://annotate.example.org/join?token=") and len(link.split("=", 1)[1]) == 43
    assert "one-time link, valid until" in first.stderr
    second = fb("annotators", "invite", "alice", "--db", str(db_path), "--expires", "2h")
    assert second.stdout.startswith("http://127.0.0.1:8000/join?token=")
    db = open_db(db_path)
    rows = list(db.query("SELECT revoked_at IS NOT NULL AS revoked FROM annotator_invites ORDER BY id"))
    assert [r["revoked"] for r in rows] == [1, 0]  # the new link replaced the unused one
    fb("annotators", "invite", "bob", "--db", str(db_path), check=True)
    listing = fb("annotators", "list", "--db", str(db_path))
    assert listing.returncode == 0
    lines = [ln for ln in listing.stdout.splitlines() if "alice" in ln or "bob" in ln]
    assert len(lines) == 2 and all("open" in ln and "never" in ln for ln in lines)
    revoked = fb("annotators", "revoke", "bob", "--db", str(db_path))
    assert revoked.stdout.strip() == "bob: revoked 1 open link(s) and 0 browser session(s); answers stay stored."
    assert "revoked" in next(ln for ln in fb("annotators", "list", "--db", str(db_path)).stdout.splitlines() if "bob" in ln)


@pytest.mark.parametrize("args, message", [
    (["annotators", "invite", "carol", "--expires", "soon"], "error: --expires 'soon' is not a lifetime"),
    (["annotators", "invite", "carol", "--expires", "500000w"], "error: --expires '500000w' is longer than 10 years"),
    (["annotators", "invite", "carol", "--expires", "99999999999999999999d"], "is longer than 10 years"),
    (["annotators", "invite", "a\x1b[31mb"], "contains the control character \\x1b"),
    (["annotators", "invite", "x" * 201], "(at most 200)"),
    (["annotators", "invite", " "], "the annotator name is empty"),
    (["annotate", "--serve", "--run", "r\u202eun"], "contains the control character \\u202e"),
    (["annotators", "invite", "carol", "--public-url", "javascript:alert(1)"], "is not an http(s) URL"),
    (["annotators", "revoke", "nobody"], "error: 'nobody' was never invited"),
    (["annotate", "--serve", "--annotator", "alice"], "--annotator name one annotator's work"),
    (["annotate", "--serve", "--share", "1/3"], "--share name one annotator's work"),
    (["annotate", "--serve", "--host", "0.0.0.0"], "listens on every address"),
    (["annotate", "--serve", "--certfile", "nope.pem"], "--certfile and --keyfile go together"),
    (["annotate", "--serve", "--certfile", "nope.pem", "--keyfile", "nope.key"], "TLS file nope.pem does not exist"),
    (["annotate", "--port", "9000", "--annotator", "alice"], "go with --serve"),
    (["annotate"], "--annotator is missing"),
])
def test_bad_input_is_one_line_and_exit_2(db_path, args, message):
    before = db_path.read_bytes()
    res = fb(*args, "--db", str(db_path))
    assert res.returncode == 2, res.stderr
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert db_path.read_bytes() == before


def _lines_until_listening(proc, timeout=30):
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("serving fbagent annotate"):
            break
    return lines


def test_a_non_local_host_without_tls_warns_once(db_path):
    port = free_port()
    proc = subprocess.Popen([str(FBAGENT), "annotate", "--serve", "--db", str(db_path), "--host", "0.0.0.0", "--port",
                             str(port), "--public-url", f"http://myhost.example:{port}"],
                            stderr=subprocess.PIPE, text=True)
    try:
        lines = _lines_until_listening(proc)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert len(lines) == 2 and lines[1].startswith(f"serving fbagent annotate on http://myhost.example:{port}")
    assert lines[0].startswith("warning: --host 0.0.0.0 is reachable from other machines and this server has no TLS")
    assert "TLS reverse proxy (--public-url https://...) or pass --certfile and --keyfile" in lines[0]
    assert proc.returncode == 0


def test_a_failed_bind_is_one_line_without_the_no_tls_note(db_path):
    # the note about plain HTTP behind an https public URL is said once the port is bound, never before a failed bind
    res = fb("annotate", "--serve", "--db", str(db_path), "--host", "192.0.2.1", "--port", str(free_port()),
             "--public-url", "https://annotate.example.org", timeout=60)
    assert res.returncode == 2 and "serving fbagent annotate" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "note:" not in res.stderr, res.stderr
    assert "cannot listen on 192.0.2.1" in lines[0] and "is not an address of this machine" in lines[0]
    assert "pick another --port" not in res.stderr and "Traceback" not in res.stderr


HOST_FIX = ("Fix: pass --host 127.0.0.1 (this machine only), 0.0.0.0 (every interface, with --public-url), an address"
            " `ip addr` shows, or a host name of this machine")


@pytest.mark.parametrize("host, line", [
    ("bad host", f"error: --host 'bad host' contains a blank: it is not an address or a host name. {HOST_FIX}"),
    ("bad_host!", f"error: --host 'bad_host!' is neither an IP address nor a host name. {HOST_FIX}"),
    ("300.1.1.1", f"error: --host '300.1.1.1' is neither an IP address nor a host name. {HOST_FIX}"),
    ("a.-b.example", f"error: --host 'a.-b.example' is neither an IP address nor a host name. {HOST_FIX}"),
    ("", f"error: --host is empty. {HOST_FIX}"),
    ("[::1]", "error: --host [::1] is an IPv6 address in brackets. Fix: pass it without them: --host ::1"),
])
def test_a_malformed_host_is_refused_before_any_warning(db_path, host, line):
    # before: `--host 'bad host'` printed the no-TLS warning, then the bind error; '' served on every interface
    # with links to http://:8000; '300.1.1.1' waited for a DNS answer
    before = db_path.read_bytes()
    res = fb("annotate", "--serve", "--db", str(db_path), "--host", host, "--port", str(free_port()), timeout=60,
             env={**os.environ, "COLUMNS": "400"})
    assert res.returncode == 2 and res.stderr.strip() == line, res.stderr
    assert db_path.read_bytes() == before


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed (to make a test certificate)")
def test_invite_names_the_port_given_or_the_running_servers(db_path):
    from fbagent.serve.address import address_file

    given = fb("annotators", "invite", "alice", "--db", str(db_path), "--port", "8765", check=True)
    assert given.stdout.startswith("http://127.0.0.1:8765/join?token=")
    with ServeProcess(db_path) as server:
        for _ in range(100):   # the address file is written once the port is bound
            if address_file(db_path).exists():
                break
            time.sleep(0.1)
        link = fb("annotators", "invite", "bob", "--db", str(db_path), check=True).stdout.strip()
        assert link.startswith(f"http://127.0.0.1:{server.port}/join?token=")
        with urllib.request.urlopen(link, timeout=10) as r:   # the link opens the join page of that server
            assert r.status == 200
    assert not address_file(db_path).exists()   # removed when the server stops
    after = fb("annotators", "invite", "carol", "--db", str(db_path), check=True)
    assert after.stdout.startswith("http://127.0.0.1:8000/join?token=")


def test_an_address_file_of_a_dead_server_is_ignored(db_path):
    from fbagent.serve.address import address_file

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    address_file(db_path).write_text(f'{{"url": "http://127.0.0.1:9999", "pid": {dead.stdout.strip()}}}')
    link = fb("annotators", "invite", "alice", "--db", str(db_path), check=True).stdout
    assert link.startswith("http://127.0.0.1:8000/join?token=")


def test_tls_with_certfile_and_keyfile_serves_https_without_the_warning(db_path, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen([str(FBAGENT), "annotate", "--serve", "--db", str(db_path), "--host", "0.0.0.0", "--port",
                             str(port), "--public-url", f"https://127.0.0.1:{port}", "--certfile", str(cert),
                             "--keyfile", str(key)], stderr=subprocess.PIPE, text=True)
    try:
        lines = _lines_until_listening(proc)
        assert len(lines) == 1 and lines[0].startswith(f"serving fbagent annotate on https://127.0.0.1:{port}")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        link = fb("annotators", "invite", "alice", "--db", str(db_path), "--public-url", f"https://127.0.0.1:{port}",
                  check=True).stdout.strip()
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=context, timeout=10)
        assert err.value.code == 401
        with urllib.request.urlopen(link, context=context, timeout=10) as r:
            assert r.status == 200 and "Secure" in r.headers["Set-Cookie"]  # https: the cookie never travels in clear
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


def test_ctrl_c_ends_running_apps_cleanly(db_path):
    """A live app when the server stops: it quits (exit 0) and its session records the position."""
    import asyncio

    import aiohttp

    with ServeProcess(db_path) as server:
        link = server.invite("alice")

        async def open_app():
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(link) as r:  # the join page; its button POSTs the form
                    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', await r.text()))
                async with http.post(server.url + "/join", data=fields, headers={"Origin": server.url}) as r:
                    assert r.status == 200
                async with http.ws_connect(server.url + "/ws?width=80&height=24", headers={"Origin": server.url}) as ws:
                    seen = b""
                    while b"task 1/8" not in seen:
                        seen += (await ws.receive(timeout=30)).data or b""
                    assert len(server.app_pids()) == 1
                    server.proc.send_signal(signal.SIGINT)
                    msg = await ws.receive(timeout=30)
                    while msg.type == aiohttp.WSMsgType.BINARY:
                        msg = await ws.receive(timeout=30)

        asyncio.run(open_app())
        assert server.proc.wait(30) == 0
    log = server.log.read_text()
    assert "alice: app ended (shutdown, exit 0" in log, log
    db = open_db(db_path)
    assert next(db.query("SELECT last_task_id FROM annotation_sessions WHERE annotator = 'alice'"))["last_task_id"]


CLIENT = r"""
import asyncio, re, sys, aiohttp
async def main(link, url):
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(link) as r:
            fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', await r.text()))
        async with http.post(url + "/join", data=fields, headers={"Origin": url}) as r:
            assert r.status == 200
        async with http.ws_connect(url + "/ws?width=80&height=24", headers={"Origin": url}) as ws:
            seen = b""
            while b"task 1/8" not in seen:
                seen += (await ws.receive(timeout=30)).data or b""
            print("drawn", flush=True)
            await asyncio.sleep(600)
asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def test_a_killed_browser_ends_its_app_cleanly_and_the_link_resumes(db_path):
    """The client process dies (SIGKILL, no WebSocket close): the app still quits with exit 0 and records its place."""
    with ServeProcess(db_path) as server:
        link = server.invite("alice")
        client = subprocess.Popen([sys.executable, "-c", CLIENT, link, server.url], stdout=subprocess.PIPE, text=True)
        assert client.stdout.readline().strip() == "drawn"
        assert len(server.app_pids()) == 1
        client.kill()
        client.wait()
        deadline = time.monotonic() + 30
        while (server.app_pids() or "alice: app ended" not in server.log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert server.app_pids() == []
        assert "alice: app ended (closed, exit 0" in server.log.read_text()
    db = open_db(db_path)
    assert next(db.query("SELECT last_task_id FROM annotation_sessions WHERE annotator = 'alice'"))["last_task_id"]


def _gone(pid: int) -> bool:
    """The process has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_kill_9_of_the_server_ends_its_apps_and_the_next_start_removes_its_folder(db_path, tmp_path):
    """Issue 43 item 2: after `kill -9` of `annotate --serve` its app processes lived on (57 s later, with the
    database open) and its temporary folder stayed. Now every app ends within 2 s (its lifeline) and the next
    server's start removes the folder."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {"TMPDIR": str(temp)}
    server = ServeProcess(db_path, env=env)
    with server:
        link = server.invite("alice")
        client = subprocess.Popen([sys.executable, "-c", CLIENT, link, server.url], stdout=subprocess.PIPE, text=True)
        try:
            assert client.stdout.readline().strip() == "drawn"
            apps = server.app_pids()
            assert len(apps) == 1
            folders = [p for p in temp.iterdir() if p.name.startswith("fbagent-serve-")]
            assert len(folders) == 1
            server.proc.kill()
            server.proc.wait()
            killed = time.monotonic()
            while not all(_gone(pid) for pid in apps) and time.monotonic() - killed < 2.0:
                time.sleep(0.05)
            assert all(_gone(pid) for pid in apps), f"app {apps} outlived the killed server by 2 s"
        finally:
            client.kill()
            client.wait()
    assert folders[0].exists()   # kill -9: nobody removed it
    with ServeProcess(db_path, env=env):
        assert not folders[0].exists()
        assert len([p for p in temp.iterdir() if p.name.startswith("fbagent-serve-")]) == 1   # the new server's


CRASHING_APP = r"""
import sys
if "fbagent.serve.child" in sys.orig_argv:
    from fbagent.tui import validate_screen

    def boom(self):
        raise RuntimeError("boom from the test")

    validate_screen.ValidateScreen.action_help = boom   # the first-time help: the app crashes as it starts
"""


def test_an_app_that_crashes_is_reported_with_its_traceback_and_its_tab_offers_to_reopen(db_path, tmp_path):
    """Issue 43 item 1: a crashed app was logged as `app ended (closed, exit 0)`. Now the log says `app crashed` with
    the traceback, and the tab is closed with code 4002 and a reason that offers to reopen it."""
    import asyncio

    import aiohttp

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(CRASHING_APP)
    with ServeProcess(db_path, env={"PYTHONPATH": str(hook)}) as server:
        link = server.invite("alice")

        async def open_app() -> tuple[int | None, str]:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(link) as r:
                    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', await r.text()))
                async with http.post(server.url + "/join", data=fields, headers={"Origin": server.url}) as r:
                    assert r.status == 200
                async with http.ws_connect(server.url + "/ws?width=80&height=24", headers={"Origin": server.url}) as ws:
                    msg = await ws.receive(timeout=60)
                    while msg.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                        msg = await ws.receive(timeout=60)
                    return ws.close_code, str(msg.extra or "")

        code, reason = asyncio.run(open_app())
        assert code == 4002 and "reopen" in reason, (code, reason)
        deadline = time.monotonic() + 30
        while "app ended" not in server.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    log = server.log.read_text()
    assert "alice: app crashed" in log and "exit 1" in log, log
    assert "RuntimeError: boom from the test" in log, log
    assert "alice: app ended (crashed" in log, log
