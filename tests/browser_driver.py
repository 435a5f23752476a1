"""Drive ``fbagent annotate --serve`` in Debian's Chromium with playwright (no browser download).

Shared by ``tests/test_serve_browser.py`` and ``benchmarks/bench_serve.py``::

    from browser_driver import CHROMIUM, ServeProcess, browser_skip_reason, chromium

    with ServeProcess(db) as server, chromium() as pw:
        tab = AppTab.open(pw, server.invite("alice"))
        tab.press("1"); tab.press("n"); tab.press("Enter")
        tab.wait_text("task 2/")

Chromium runs headless as root with the flags of :data:`CHROMIUM_ARGS` and a
fresh ``--user-data-dir`` per browser (a new profile has no cookie).
textual-serve draws on a canvas, so the screen is not in the DOM: an init
script (playwright injects it before the page's own scripts; CSP does not
apply) records every WebSocket frame the page receives (time and text) and
the time of every key press, in the page's own clock. :meth:`AppTab.wait_text`
waits for a frame received after the last key press that contains a text,
and returns the milliseconds from that key press to the frame: the bytes of
the next task have reached the browser (xterm then paints them in the next
animation frame).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
FBAGENT = Path(sys.executable).with_name("fbagent")

RECORDER = """
(() => {
  window.__frames = [];
  window.__keys = [];
  window.__sent = [];
  const decoder = new TextDecoder();
  const Native = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    ws.addEventListener("message", (e) => {
      const text = typeof e.data === "string" ? e.data : decoder.decode(new Uint8Array(e.data), {stream: true});
      window.__frames.push([performance.now(), text]);
    });
    window.__socket = ws;
    window.__url = url;
    const send = ws.send.bind(ws);
    ws.send = (data) => { window.__sent.push(data); return send(data); };
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.__keydowns = 0;
  window.__taps = 0;
  document.addEventListener("keydown", () => { window.__keys.push(performance.now()); window.__keydowns++; }, true);
  document.addEventListener("pointerdown", () => { window.__keys.push(performance.now()); window.__taps++; }, true);
})();
"""


def browser_skip_reason() -> str | None:
    """Why the browser tests cannot run here (no playwright, no Chromium), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; the driver ships with it, no browser download)"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServeProcess:
    """``fbagent annotate --serve --db DB --port P`` as a subprocess (the real CLI); stderr to ``log``."""

    def __init__(self, db: Path, *extra: str, port: int | None = None, env: dict | None = None) -> None:
        self.db = Path(db)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.db.with_name(f"serve-{self.port}.log")
        self.args = [str(FBAGENT), "annotate", "--serve", "--db", str(self.db), "--port", str(self.port), *extra]
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> ServeProcess:
        self._out = open(self.log, "w")  # noqa: SIM115
        self.proc = subprocess.Popen(self.args, stdout=self._out, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"annotate --serve exited {self.proc.returncode}: {self.log.read_text()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return self
            time.sleep(0.1)
        raise RuntimeError(f"annotate --serve did not listen: {self.log.read_text()}")

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self, timeout: float = 30) -> int | None:
        """SIGINT (Ctrl+C), wait; returns the exit code."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self._out.close()

    def invite(self, name: str, *extra: str) -> str:
        """``fbagent annotators invite NAME`` for this server; returns the link."""
        out = subprocess.run([str(FBAGENT), "annotators", "invite", name, "--db", str(self.db), "--public-url", self.url,
                              *extra], capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def app_pids(self) -> list[int]:
        """Running app processes (``fbagent.serve.child``) whose parent is this server."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == self.proc.pid and b"fbagent.serve.child" in cmd and stat.rsplit(")", 1)[1].split()[0] != "Z":
                pids.append(int(entry.name))
        return pids


@contextlib.contextmanager
def chromium() -> Iterator:
    """A started playwright (sync API) for :class:`Browser`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


class Browser:
    """One Chromium with a fresh profile (its own cookies), at ``viewport``."""

    def __init__(self, pw, viewport: tuple[int, int] = (1280, 800), **context: object) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="fbagent-chromium-")
        self.context = pw.chromium.launch_persistent_context(
            self.profile.name, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": viewport[0], "height": viewport[1]}, **context,
        )
        self.context.add_init_script(RECORDER)

    def tab(self) -> AppTab:
        return AppTab(self.context.new_page())

    def close(self) -> None:
        self.context.close()
        self.profile.cleanup()


class AppTab:
    """One page: open a URL, wait for the app, press keys, wait for screen text."""

    def __init__(self, page) -> None:
        self.page = page

    def open(self, url: str, timeout_s: float = 60, focus: bool = True) -> AppTab:
        """Go to ``url`` (an invite link or ``/``), press "Start annotating" on a join page, and wait until the app
        has drawn its first screen; ``focus`` puts the focus on xterm's input as a click would (the page does it
        too: False checks that)."""
        self.page.goto(url)
        if self.page.evaluate("location.pathname") == "/join" and self.page.locator("form button").count():
            self.page.click("form button")
        # checked on playwright's side: the app page's CSP refuses the eval a string predicate would need
        self.page.wait_for_url(lambda url: urlsplit(url).path == "/", timeout=timeout_s * 1000)
        self.page.wait_for_selector("body.-first-byte", timeout=timeout_s * 1000)
        if focus:
            self.page.focus(".xterm-helper-textarea")
        return self

    def screen_text(self) -> str:
        """Every WebSocket frame received so far, joined (escape codes included)."""
        return "".join(t for _, t in self.page.evaluate("window.__frames"))

    def wait_text(self, text: str, timeout_s: float = 30, since_key: bool = True) -> float:
        """Wait for a frame containing ``text`` (after the last key press when ``since_key``); ms from that key to it."""
        self.page.wait_for_function(
            """([text, sinceKey]) => {
                 const t0 = sinceKey && window.__keys.length ? window.__keys[window.__keys.length - 1] : -1;
                 return window.__frames.some(([t, s]) => t >= t0 && s.includes(text));
               }""",
            arg=[text, since_key], timeout=timeout_s * 1000, polling=5,
        )
        return self.page.evaluate(
            """([text]) => {
                 const t0 = window.__keys.length ? window.__keys[window.__keys.length - 1] : 0;
                 const hit = window.__frames.find(([t, s]) => t >= t0 && s.includes(text));
                 return hit[0] - t0;
               }""",
            [text],
        )

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def close_help(self) -> None:
        """Close the first-time help (any key) and wait until the task is live again (header without "(paused)")."""
        self.press("x")
        self.wait_text("on this task\x1b")

    def closed(self) -> bool:
        """True once the app's WebSocket is closed (the page shows "Session ended")."""
        return bool(self.page.evaluate("document.body.classList.contains('-closed')"))


_CSI = re.compile(r"\x1b\[([?0-9;]*)([@-~])")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def screen_rows(stream: str, cols: int, rows: int) -> list[str]:
    """The terminal's text after ``stream`` (the app's output): a small model of what xterm.js draws.

    Knows what Textual sends: cursor moves (``CSI row;col H``), clears
    (``CSI 2 J``), styles and modes (ignored), OSC strings (ignored), CR/LF.
    One cell per character (tests use English text).
    """
    grid = [[" "] * cols for _ in range(rows)]
    r = c = i = 0
    while i < len(stream):
        ch = stream[i]
        if ch == "\x1b":
            m = _CSI.match(stream, i) or _OSC.match(stream, i)
            if m is None:
                i += 2
                continue
            if m.re is _CSI and m.group(2) == "H":
                parts = (m.group(1).split(";") + ["1"])[:2]
                r, c = int(parts[0] or 1) - 1, int(parts[1] or 1) - 1
            elif m.re is _CSI and m.group(2) == "J" and m.group(1) == "2":
                grid = [[" "] * cols for _ in range(rows)]
            i = m.end()
            continue
        if ch == "\r":
            c = 0
        elif ch == "\n":
            r += 1
        elif ch >= " " and 0 <= r < rows and 0 <= c < cols:
            grid[r][c] = ch
            c += 1
        i += 1
    return ["".join(row) for row in grid]


class TapTab:
    """A phone tab that only taps: finds a text on the app's screen (:func:`screen_rows`) and taps its cells."""

    def __init__(self, tab: AppTab) -> None:
        self.tab = tab
        self.page = tab.page

    def size(self) -> tuple[int, int]:
        """(columns, rows) of the app: the last resize the page sent, else the WebSocket URL's."""
        for sent in reversed(self.page.evaluate("window.__sent")):
            with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
                kind, data = json.loads(sent)
                if kind == "resize":
                    return data["width"], data["height"]
        url = self.page.evaluate("window.__url")
        query = dict(p.split("=", 1) for p in url.split("?", 1)[1].split("&"))
        return int(query["width"]), int(query["height"])

    def rows(self) -> list[str]:
        cols, rows = self.size()
        return screen_rows(self.tab.screen_text(), cols, rows)

    def find(self, text: str) -> tuple[int, int] | None:
        for r, line in enumerate(self.rows()):
            c = line.find(text)
            if c >= 0:
                return r, c
        return None

    def wait_for(self, text: str, timeout_s: float = 30) -> tuple[int, int]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            found = self.find(text)
            if found is not None:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{text!r} not on screen:\n" + "\n".join(self.rows()))

    def tap(self, text: str, timeout_s: float = 30) -> None:
        """Tap the middle of ``text`` on screen (waits until it is drawn)."""
        r, c = self.wait_for(text, timeout_s)
        cols, rows = self.size()
        box = self.page.locator(".xterm-screen").bounding_box()
        x = box["x"] + (c + len(text) / 2) * box["width"] / cols
        y = box["y"] + (r + 0.5) * box["height"] / rows
        self.page.touchscreen.tap(x, y)
