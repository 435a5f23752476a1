"""Invites are redeemed on purpose only: previews change nothing, other sites cannot redeem or switch, logs keep no secret.

The real server (aiohttp test server, real SQLite) for the HTTP cases; the
real CLI (`fbagent annotate --serve`) for the log, fed an oversized request
line and header over a raw socket.
"""

from __future__ import annotations

import socket
import time

import pytest
from factories import make_db
from test_serve_http import PUBLIC, form_of, invite, join, started, token_of

from fbagent.serve.join import COOKIE, JOIN_COOKIE, JoinForms
from fbagent.serve.log_filter import scrub
from fbagent.serve.tokens import token_hash
from fbagent.store import open_db


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "bench.db"
    make_db(path, n=2).conn.close()
    return path


def stored(db_path):
    db = open_db(db_path)
    try:
        return (db["annotator_web_sessions"].count,
                [r["used_at"] for r in db.query("SELECT used_at FROM annotator_invites ORDER BY id")])
    finally:
        db.conn.close()


async def test_previews_get_and_head_leave_the_link_usable(db_path):
    server, client, _ = await started(db_path)
    try:
        link = invite(db_path)
        for _ in range(3):  # chat and mail clients fetch a link to show a preview
            assert (await client.head("/join?token=" + token_of(link))).status == 200
            page = await client.get("/join?token=" + token_of(link), headers={"User-Agent": "Slackbot-LinkExpanding"})
            assert page.status == 200 and COOKIE not in page.cookies
            assert "Start annotating as alice" in await page.text()
            assert "form-action 'self'" in page.headers["Content-Security-Policy"]
        assert stored(db_path) == (0, [None])
        assert (await join(client, link))[0] == 200 and stored(db_path)[0] == 1
    finally:
        await client.close()


async def test_another_site_cannot_redeem_a_link(db_path):
    server, client, _ = await started(db_path)
    try:
        link = invite(db_path)
        page = await client.get("/join?token=" + token_of(link))
        fields, binding = form_of(await page.text()), page.cookies[JOIN_COOKIE].value
        cases = [
            ({"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, binding, fields),
            ({"Origin": "null"}, binding, fields),
            ({}, binding, fields),  # no Origin at all
            ({"Origin": PUBLIC, "Sec-Fetch-Site": "same-site"}, binding, fields),
            ({"Origin": PUBLIC}, None, fields),  # the page's cookie missing (a form elsewhere: SameSite=Strict)
            ({"Origin": PUBLIC}, "other", fields),  # another browser's binding
            ({"Origin": PUBLIC}, binding, {**fields, "csrf": "1.abc"}),
            ({"Origin": PUBLIC}, binding, {"token": fields["token"]}),
        ]
        for headers, cookie, data in cases:
            if cookie is not None:
                headers = {**headers, "Cookie": f"{JOIN_COOKIE}={cookie}"}
            response = await client.post("/join", data=data, headers=headers)
            assert response.status == 403 and COOKIE not in response.cookies, headers
        assert stored(db_path) == (0, [None])
        assert server.throttle.address_wait("127.0.0.1") is None  # none of it counted as a wrong link
        forms = JoinForms(max_age_s=900)
        old = forms.issue("b", token_hash("t"), now=1000)
        assert forms.check(old, "b", token_hash("t"), now=1900) and not forms.check(old, "b", token_hash("t"), now=1901)
        assert not forms.check(old, "b", token_hash("u"), now=1000)  # bound to the link
    finally:
        await client.close()


async def test_a_signed_in_browser_is_asked_before_a_switch(db_path):
    server, client, events = await started(db_path)
    try:
        _, gina = await join(client, invite(db_path, "gina"))
        mike_link = invite(db_path, "mike")
        status, cookie = await join(client, mike_link, cookie=gina)  # pressing "Start": the page asks instead
        assert (status, cookie) == (200, None)
        page = await client.get("/join?token=" + token_of(mike_link), headers={"Cookie": f"{COOKIE}={gina}"})
        html = await page.text()
        assert "signed in as <b>gina</b>" in html and "Switch to mike" in html and "Keep annotating as gina" in html
        assert stored(db_path) == (1, [page.status and stored(db_path)[1][0], None])  # mike's link unused
        assert (await client.get("/", headers={"Cookie": f"{COOKIE}={gina}"})).status == 200
        status, mike = await join(client, mike_link, cookie=gina, switch=True)  # confirmed on our page
        assert status == 200 and mike and mike != gina
        assert [f["switched_from"] for k, f in events if k == "joined"] == [None, "gina"]
    finally:
        await client.close()


def test_scrub_drops_queries_cookies_and_tokens():
    token = "Zq3vX9_kLm-2Qw8rTy6uIo0pAs4dFg7hJk1lZx5cVb"
    for text in (f"GET /join?token={token} HTTP/1.1", f"Cookie: fbagent_session={token}",
                 f"b'GET /join?token={token[:20]}", f"bad header {token}", f"fbagent_session={token[:10]}"):
        out = scrub(text)
        assert token[:10] not in out and "<dropped>" in out, out
    assert scrub("Error handling request from data_received_handler") == "Error handling request from data_received_handler"


def test_an_oversized_request_puts_no_token_or_cookie_in_the_log(db_path):
    from browser_driver import ServeProcess

    with ServeProcess(db_path) as server:
        link = server.invite("alice")
        token = token_of(link)
        cookie = "Zq3vX9kLm2Qw8rTy6uIo0pAs4dFg7hJk1lZx5cVbNm"
        requests = [f"GET /join?token={token}&pad={'x' * 9000} HTTP/1.1\r\nHost: x\r\n\r\n",
                    f"GET / HTTP/1.1\r\nHost: x\r\nCookie: fbagent_session={cookie}; pad={'y' * 9000}\r\n\r\n",
                    f"GET /join?token={token} HTTP/1.1\r\nHost: x\r\nX-Big: {'z' * 9000}\r\n\r\n"]
        for raw in requests:
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                s.sendall(raw.encode())
                answer = s.recv(200)
                assert answer.split(b" ")[1] in (b"400", b"431"), answer
        time.sleep(0.5)
    log = server.log.read_text()
    assert "Error handling request" in log or "Bad" in log or "400" in log  # aiohttp did log the bad requests
    for secret in (token, token[:16], cookie, cookie[:16]):
        assert secret not in log
