"""What a stranger can do to `fbagent annotate --serve` from a browser, in Debian's Chromium (playwright).

- a link preview (GET and HEAD of the invite, as chat and mail clients fetch
  it) leaves the invite usable;
- a link clicked on another site (web mail) opens the join page, whose button signs the browser in;
- a page on another site (``http://localhost:P``; the server is
  ``http://127.0.0.1:Q``, another site) that posts a join form for another
  annotator's link, or navigates to it, neither redeems the link nor switches
  the visitor's session (403, nothing stored); her answers stay hers;
- 200 wrong tokens from the address and 12 ``<img src=".../join?token=bad">``
  on the other site's page leave her valid session and another annotator's
  fresh link working (200).
"""

from __future__ import annotations

import contextlib
import http.server
import threading
import urllib.request
from urllib.parse import urlsplit

import pytest
from browser_driver import Browser, ServeProcess, browser_skip_reason, chromium, free_port
from factories import make_db
from test_serve_browser import answers, status_of

from fbagent.store import open_db

pytestmark = [pytest.mark.slow, pytest.mark.skipif(browser_skip_reason() is not None, reason=str(browser_skip_reason()))]


@contextlib.contextmanager
def other_site(html: str):
    """A page at ``http://localhost:PORT/`` (another site than 127.0.0.1) serving ``html``."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()


def link_state(db_path, name):
    db = open_db(db_path)
    try:
        row = next(db.query("SELECT used_at FROM annotator_invites WHERE annotator = ? ORDER BY id DESC LIMIT 1", [name]))
        sessions = db.execute("SELECT count(*) FROM annotator_web_sessions WHERE annotator = ?", [name]).fetchone()[0]
        return row["used_at"], sessions
    finally:
        db.conn.close()


def answer_one(tab, key="1", level="n"):
    tab.press(key)
    tab.press(level)
    tab.wait_text("●")


def test_previews_and_another_sites_join_page_change_nothing(tmp_path):
    db_path = tmp_path / "bench.db"
    make_db(db_path, n=2).conn.close()
    with ServeProcess(db_path) as server, chromium() as pw:
        gina_link, mike_link = server.invite("gina"), server.invite("mike")
        previewer = Browser(pw)
        for _ in range(2):  # a chat client's preview: GET and HEAD of the link
            assert previewer.context.request.head(mike_link).status == 200
            assert previewer.context.request.get(mike_link).status == 200
        previewer.close()
        assert link_state(db_path, "mike") == (None, 0)

        gina = Browser(pw)
        tab = gina.tab().open(gina_link)
        tab.wait_text("task 1/8", since_key=False)
        tab.close_help()
        cookie_before = next(c["value"] for c in gina.context.cookies() if c["name"] == "fbagent_session")
        token = mike_link.split("token=", 1)[1]
        attack = f"""<!DOCTYPE html><html><body>
            <form id="f" method="post" action="{server.url}/join">
              <input name="token" value="{token}"><input name="csrf" value="1.x"><input name="switch" value="1">
            </form><script>document.getElementById("f").submit();</script></body></html>"""
        with other_site(attack) as evil:
            page = gina.context.new_page()
            with page.expect_navigation(url=f"{server.url}/join"):
                page.goto(evil)
            assert "403" in page.inner_text("body")
            page.goto(mike_link.replace(server.url, server.url))  # a plain navigation to mike's link: only a page
            assert "Start annotating as mike" in page.inner_text("body") or "Switch to mike" in page.inner_text("body")
            page.close()
        assert link_state(db_path, "mike") == (None, 0)
        assert next(c["value"] for c in gina.context.cookies() if c["name"] == "fbagent_session") == cookie_before
        answer_one(tab)  # her tab still annotates as gina
        assert answers(db_path, "gina") == [("A", "natural")] and answers(db_path, "mike") == []
        gina.close()

        mike = Browser(pw)  # the preview and the attack left mike's link usable; he clicks it in his web mail
        with other_site(f'<a id="link" href="{mike_link}">your invite</a>') as mail:
            page = mike.context.new_page()
            page.goto(mail)
            page.click("#link")  # a cross-site navigation: the join page still works (its cookie is Strict)
            page.wait_for_url("**/join?**")
            page.click("form button")
            page.wait_for_url(lambda url: urlsplit(url).path == "/", timeout=30_000)  # no eval under the app's CSP
            page.wait_for_selector("body.-first-byte", timeout=60_000)
        assert link_state(db_path, "mike")[1] == 1
        mike.close()


def test_wrong_tokens_and_cross_site_images_lock_nobody_out(tmp_path):
    db_path = tmp_path / "bench.db"
    make_db(db_path, n=2).conn.close()
    with ServeProcess(db_path) as server, chromium() as pw:
        gina = Browser(pw)
        tab = gina.tab().open(server.invite("gina"))
        tab.wait_text("task 1/8", since_key=False)
        fresh = server.invite("mike")
        images = "".join(f'<img src="{server.url}/join?token=bad{i}">' for i in range(12))
        with other_site(f"<!DOCTYPE html><html><body>{images}</body></html>") as evil:
            page = gina.context.new_page()
            page.goto(evil)
            page.wait_for_load_state("load")
            page.close()
        codes = [status_of(f"{server.url}/join?token=guess{i}") for i in range(200)]
        assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}
        assert gina.context.request.get(server.url + "/").status == 200  # her session is never limited
        tab.close_help()
        answer_one(tab, "2", "u")
        assert answers(db_path, "gina") == [("B", "unacceptable")]
        mike = Browser(pw)
        mike_tab = mike.tab().open(fresh)  # the fresh link from the same address still works
        assert mike_tab.page.evaluate("location.pathname") == "/"
        assert mike.context.request.get(server.url + "/").status == 200
        mike.close()
        gina.close()
    log = server.log.read_text()
    assert log.count(" 429 ") + log.count(" 401 ") <= 12 and "more request(s) refused" in log
    with contextlib.suppress(Exception):
        urllib.request.urlopen(server.url, timeout=1)
