"""`annotate --serve` over HTTP without a browser: the real server (aiohttp test server), real SQLite, real app processes.

Every request without a live session gets 401 and starts nothing; a link is
exchanged once for an HttpOnly SameSite=Strict cookie; used, expired and
revoked links and sessions get 401; wrong tokens are rate-limited; the
WebSocket checks Origin and the process bounds; a closed connection and a
revocation end the app process with exit code 0.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import timedelta

import pytest
from aiohttp import DummyCookieJar, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.serve.join import COOKIE, JOIN_COOKIE
from fbagent.serve.options import AppLaunch, ServeOptions, origin_of, public_url
from fbagent.serve.server import AnnotateServer
from fbagent.serve.tokens import create_invite, parse_duration, token_hash
from fbagent.store import invites, open_db

PUBLIC = "http://127.0.0.1:8000"
UPGRADE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
SECRET_TEXT = ("grasped", "alice", "Sentence")  # item text and names: no refusal may show them


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "bench.db"
    make_db(path, n=2).conn.close()
    return path


def token_of(link: str) -> str:
    return link.split("token=", 1)[1]


async def started(db_path, **options) -> tuple[AnnotateServer, TestClient, list]:
    events: list = []
    server = AnnotateServer(AppLaunch(db=db_path), ServeOptions(public_url=PUBLIC, **options),
                            on_event=lambda kind, fields: events.append((kind, fields)))
    client = TestClient(TestServer(await server.make_app()), cookie_jar=DummyCookieJar())  # cookies only when sent
    await client.start_server()
    return server, client, events


def invite(db_path, name="alice", lifetime="14d") -> str:
    db = open_db(db_path)
    try:
        return create_invite(db, name, parse_duration(lifetime), PUBLIC).link
    finally:
        db.conn.close()


def form_of(html: str) -> dict[str, str]:
    """The hidden fields of a join page's form."""
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html))


async def join(client, link, cookie: str | None = None, switch: bool = False) -> tuple[int, str | None]:
    """Open the link (GET: the join page) and press its button (POST from the page's origin);
    returns (status, session cookie value)."""
    headers = {} if cookie is None else {"Cookie": f"{COOKIE}={cookie}"}
    page = await client.get("/join?token=" + token_of(link), headers=headers, allow_redirects=False)
    if page.status != 200 or "<form" not in (html := await page.text()):
        return page.status, None
    fields = form_of(html)
    if not switch:
        fields.pop("switch", None)
    binding = page.cookies[JOIN_COOKIE].value
    cookies = f"{JOIN_COOKIE}={binding}" + ("" if cookie is None else f"; {COOKIE}={cookie}")
    response = await client.post("/join", data=fields, allow_redirects=False,
                                 headers={"Origin": PUBLIC, "Sec-Fetch-Site": "same-origin", "Cookie": cookies})
    morsel = response.cookies.get(COOKIE)
    return response.status, None if morsel is None else morsel.value


async def test_without_a_session_everything_is_401_and_no_process_starts(db_path):
    server, client, _ = await started(db_path)
    try:
        invite(db_path)
        for path, headers in [("/", {}), ("/ws", UPGRADE), ("/ws?width=80&height=24", {**UPGRADE, "Origin": PUBLIC}),
                              ("/static/js/textual.js", {}), ("/static/css/xterm.css", {}), ("/static/", {}),
                              ("/static/../templates/app_index.html", {}), ("/download/abc", {}), ("/nope", {})]:
            response = await client.get(path, headers=headers)
            body = await response.text()
            assert response.status == 401, path
            assert not any(s in body for s in SECRET_TEXT), path
            assert response.headers["Cache-Control"] == "no-store" and response.headers["X-Frame-Options"] == "DENY"
        response = await client.get("/", headers={"Cookie": f"{COOKIE}=not-a-session"})
        assert response.status == 401 and COOKIE in response.headers.get("Set-Cookie", "")  # the bad cookie is cleared
        assert server.counters.apps_started == 0
    finally:
        await client.close()


async def test_a_link_becomes_an_httponly_strict_cookie_once_and_only_hashes_are_stored(db_path):
    server, client, events = await started(db_path)
    try:
        link = invite(db_path)
        page = await client.get("/join?token=" + token_of(link), allow_redirects=False)
        assert page.status == 200 and "Start annotating as alice" in await page.text() and COOKIE not in page.cookies
        fields = form_of(await page.text())
        response = await client.post("/join", data=fields, allow_redirects=False, headers={
            "Origin": PUBLIC, "Cookie": f"{JOIN_COOKIE}={page.cookies[JOIN_COOKIE].value}"})
        assert response.status == 200
        body = await response.text()
        assert f'content="0; url={PUBLIC}/"' in body and "token" not in body  # moves to the clean URL
        assert response.headers["Referrer-Policy"] == "no-referrer" and response.headers["Cache-Control"] == "no-store"
        set_cookie = response.headers["Set-Cookie"]
        for attribute in ("HttpOnly", "SameSite=Strict", "Path=/"):
            assert attribute in set_cookie
        assert "Secure" not in set_cookie  # plain http: a Secure cookie would never come back
        cookie = response.cookies[COOKIE].value
        assert 14 * 86400 - 60 <= int(response.cookies[COOKIE]["max-age"]) <= 14 * 86400

        page = await client.get("/", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert page.status == 200
        html = await page.text()
        assert "ws://127.0.0.1:8000/ws" in html and "alice" in html
        assert "nonce-" in page.headers["Content-Security-Policy"]
        assert (await client.get("/static/js/textual.js", headers={"Cookie": f"{COOKIE}={cookie}"})).status == 200

        # the same link again: the browser holding its session goes on; any other gets 401 (used)
        again = await client.get("/join?token=" + token_of(link), headers={"Cookie": f"{COOKIE}={cookie}"})
        assert again.status == 200 and COOKIE not in again.cookies
        assert await join(client, link) == (401, None)
        db = open_db(db_path)
        assert db["annotator_web_sessions"].count == 1
        # the database holds hashes only: neither the token nor the cookie appears in the file
        raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
        assert token_of(link).encode() not in raw and cookie.encode() not in raw
        assert next(db.query("SELECT token_hash FROM annotator_invites"))["token_hash"] == token_hash(token_of(link))
        assert [k for k, _ in events].count("joined") == 1
    finally:
        await client.close()


async def test_expired_and_revoked_links_and_sessions_get_401(db_path):
    server, client, _ = await started(db_path)
    try:
        db = open_db(db_path)
        invites.add_invite(db, "old", token_hash("expired-token"), "2020-01-01T00:00:00.000+00:00")
        response = await client.get("/join?token=expired-token")
        assert response.status == 401 and "expired" in await response.text()

        link = invite(db_path, "bob")
        status, cookie = await join(client, link)
        assert status == 200
        db.execute("UPDATE annotator_web_sessions SET expires_at = '2020-01-01T00:00:00.000+00:00'")
        db.conn.commit()
        response = await client.get("/", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert response.status == 401 and "expired" in await response.text()

        revoked_link = invite(db_path, "carol")
        invites.revoke(db, "carol")
        assert (await client.get("/join?token=" + token_of(revoked_link))).status == 401
        link = invite(db_path, "carol")
        status, cookie = await join(client, link)
        assert status == 200 and (await client.get("/", headers={"Cookie": f"{COOKIE}={cookie}"})).status == 200
        assert invites.revoke(db, "carol") == {"links": 0, "sessions": 1}
        response = await client.get("/", headers={"Cookie": f"{COOKIE}={cookie}"})
        assert response.status == 401 and "revoked" in await response.text()
        assert server.counters.apps_started == 0
    finally:
        await client.close()


async def test_wrong_tokens_back_off_but_never_lock_out_a_session_or_a_good_link(db_path):
    """200 wrong links from one address: its wrong tries get 429 with a growing Retry-After, while a live
    session and another annotator's fresh link from the same address still work (200)."""
    server, client, events = await started(db_path, wrong_tokens="5/minute", log_burst=3)
    try:
        _, alice = await join(client, invite(db_path, "alice"))
        fresh = invite(db_path, "bob")
        responses = [await client.get(f"/join?token=guess{i}") for i in range(200)]
        assert [r.status for r in responses[:5]] == [401] * 5 and {r.status for r in responses[5:]} == {429}
        waits = [int(r.headers["Retry-After"]) for r in responses[5:]]
        assert waits[-1] == 900 and all(a <= b for a, b in zip(waits, waits[1:], strict=False))  # it grows to 15 min
        assert waits[4] < waits[8] < waits[12]
        assert (await client.get("/", headers={"Cookie": f"{COOKIE}={alice}"})).status == 200  # never limited
        assert (await client.get("/", headers={"Cookie": f"{COOKIE}=guess"})).status == 429  # a wrong cookie is
        status, bob = await join(client, fresh)
        assert status == 200 and bob and (await client.get("/", headers={"Cookie": f"{COOKIE}={bob}"})).status == 200
        # refusals are logged 3 a minute one by one; the rest become one count (at the end of the minute / shutdown)
        assert [k for k, _ in events].count("refused") == 3
        server.refusals.flush(force=True)
        summary = next(f for k, f in events if k == "refused_summary")
        assert summary["count"] == 198 and summary["statuses"] == {401: 2, 429: 196}  # 201 refusals, 3 shown
    finally:
        await client.close()


async def test_cross_site_images_count_against_nobody_and_wrong_links_count_whatever_the_headers(db_path):
    """Issue 43 item 4: `<img src=".../join?token=bad">` elsewhere is refused before any lookup and counts against
    nobody; a wrong link counts whatever `Sec-Fetch-Site`/`Origin` say (40 of 40 cross-site tries were never
    counted); a cross-site try from an address in backoff, and a cross-site request with a cookie, are refused
    before the database lookup."""
    server, client, _ = await started(db_path, wrong_tokens="5/minute")
    lookups = []
    real_in_db = server._in_db

    async def counting(fn, *args):
        lookups.append(getattr(fn, "__name__", "?"))
        return await real_in_db(fn, *args)

    server._in_db = counting
    try:
        image = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors"}
        for i in range(12):  # <img src=".../join?token=bad"> on another site's page
            assert (await client.get(f"/join?token=bad{i}", headers=image)).status == 403
        assert lookups == [] and server.throttle.address_wait("127.0.0.1") is None
        page = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "document"}
        statuses = [(await client.get(f"/join?token=bad{i}", headers=page)).status for i in range(8)]
        assert statuses == [401] * 5 + [429] * 3          # counted: 5 a minute, then backoff
        assert lookups.count("invite_state") == 5           # the three in backoff were never looked up
        foreign = {"Origin": "http://evil.example"}
        assert (await client.get("/join?token=bad-x", headers=foreign)).status == 429
        assert lookups.count("invite_state") == 5
        assert (await client.get("/", headers=foreign, cookies={COOKIE: "guess"})).status == 403
        assert "session_state" not in lookups
    finally:
        await client.close()


async def test_wrong_tries_per_link_prefix_and_the_trusted_proxy(db_path):
    server, client, _ = await started(db_path, wrong_tokens="1000/minute", wrong_per_link="3/hour",
                                      trusted_proxies=("127.0.0.1",))
    try:
        link = invite(db_path)
        prefix = token_of(link)[:8]
        for i in range(3):
            assert (await client.get(f"/join?token={prefix}wrong{i}")).status == 401
        assert (await client.get(f"/join?token={prefix}wrong9")).status == 429
        assert (await client.get("/join?token=" + token_of(link))).status == 429  # that prefix waits, unlooked-up
        assert (await join(client, invite(db_path, "bob")))[0] == 200  # other links are not affected
        # behind the trusted proxy each client address has its own allowance; X-Forwarded-For from others is ignored
        server.throttle = type(server.throttle)("2/minute", "100/hour")
        for _ in range(2):
            await client.get("/join?token=x", headers={"X-Forwarded-For": "203.0.113.7"})
        assert (await client.get("/join?token=x", headers={"X-Forwarded-For": "203.0.113.7"})).status == 429
        assert (await client.get("/join?token=x", headers={"X-Forwarded-For": "203.0.113.8"})).status == 401
        assert server.address(_FakeRequest("198.51.100.1", "203.0.113.9")) == "198.51.100.1"  # not a trusted proxy
    finally:
        await client.close()


class _FakeRequest:
    def __init__(self, remote, forwarded):
        self.remote = remote
        self.headers = {"X-Forwarded-For": forwarded}


async def _ws(client, cookie, origin=PUBLIC):
    headers = {"Cookie": f"{COOKIE}={cookie}"}
    if origin is not None:
        headers["Origin"] = origin
    return await client.ws_connect("/ws?width=80&height=24", headers=headers)


async def _screen(ws, needle: bytes, timeout=30.0) -> bytes:
    """The bytes the app sent until ``needle`` appeared in them."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = await ws.receive(timeout=deadline - time.monotonic())
        if msg.type == WSMsgType.BINARY:
            seen += msg.data
            if needle in seen:
                return seen
        elif msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR):
            raise AssertionError(f"closed before the app drew {needle!r}: {msg}")
    raise AssertionError(f"no {needle!r} within the timeout")


async def _until(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not predicate():
        await asyncio.sleep(0.05)
    return predicate()


async def test_websocket_checks_origin_and_bounds_and_a_closed_socket_ends_the_app(db_path):
    import aiohttp

    server, client, events = await started(db_path, max_per_annotator=1, max_total=2, check_interval_s=0.2)
    try:
        _, alice = await join(client, invite(db_path, "alice"))
        _, bob = await join(client, invite(db_path, "bob"))
        _, carol = await join(client, invite(db_path, "carol"))
        for origin in ("http://evil.example", None, "http://127.0.0.1:8001"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await _ws(client, alice, origin)
            assert err.value.status == 403
        assert server.counters.apps_started == 0

        ws = await _ws(client, alice)
        assert b"task 1/8" in await _screen(ws, b"alice \xc2\xb7 task")
        assert server.counters.apps_started == 1 and len(server.live) == 1
        # alice's second tab takes over the first: the first is closed with the note, its app quits first
        second = await asyncio.wait_for(_ws(client, alice), 40)
        msg = await ws.receive(timeout=15)
        while msg.type == WSMsgType.BINARY:
            msg = await ws.receive(timeout=15)
        assert msg.type == WSMsgType.CLOSE and msg.data == 4001 and msg.extra.startswith("Opened in another tab")
        assert b"task 1/8" in await _screen(second, b"alice \xc2\xb7 task")
        assert server.counters.apps_started == 2 and server.counters.apps_stopped == 1 and len(server.live) == 1
        assert [f["why"] for k, f in events if k == "app_stopped"] == ["opened in another tab"]
        await second.send_str("not json")  # malformed messages from a signed-in client: dropped, one event
        await second.send_str('["resize", {"width": "x"}]')
        await second.send_str('["stdin", 5]')
        await second.send_str("[" * 5000)
        await second.send_str('["ping", "p1"]')
        while (msg := await second.receive(timeout=15)).type == WSMsgType.BINARY:
            pass
        assert msg.type == WSMsgType.TEXT and msg.data == '["pong", "p1"]'
        assert [k for k, _ in events].count("bad_message") == 1
        ws = second
        ws_bob = await _ws(client, bob)
        await _screen(ws_bob, b"bob \xc2\xb7 task")
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:  # the server's bound
            await _ws(client, carol)
        assert err.value.status == 503
        assert server.counters.apps_started == 3

        await ws.close()  # a closed tab: the app quits, its session records the position
        assert await _until(lambda: server.counters.apps_stopped == 2)
        stopped = [f for k, f in events if k == "app_stopped"]
        assert stopped[1]["annotator"] == "alice" and stopped[1]["exit_code"] == 0 and stopped[1]["why"] == "closed"

        db = open_db(db_path)
        invites.revoke(db, "bob")  # the watcher closes bob's app within its interval
        msg = await ws_bob.receive(timeout=10)
        while msg.type == WSMsgType.BINARY:
            msg = await ws_bob.receive(timeout=10)
        assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
        assert await _until(lambda: server.counters.apps_stopped == 3)
        stopped = [f for k, f in events if k == "app_stopped"]
        assert stopped[2]["annotator"] == "bob" and stopped[2]["why"] == "revoked or expired"
        assert stopped[2]["exit_code"] == 0
        assert {r["annotator"] for r in db.query("SELECT annotator FROM annotation_sessions")} == {"alice", "bob"}
    finally:
        await client.close()


def test_addresses_and_origins():
    assert public_url("127.0.0.1", 8000, None, tls=False) == "http://127.0.0.1:8000"
    assert public_url("::1", 8443, None, tls=True) == "https://[::1]:8443"
    assert public_url("example.org", 443, None, tls=True) == "https://example.org"
    assert public_url("0.0.0.0", 8000, "https://annotate.example.org/", tls=False) == "https://annotate.example.org"
    with pytest.raises(FbagentError, match="listens on every address"):
        public_url("0.0.0.0", 8000, None, tls=False)
    with pytest.raises(FbagentError, match="is not an http"):
        public_url("127.0.0.1", 8000, "ftp://x", tls=False)
    assert origin_of("https://Annotate.example.org:443/x") == "https://annotate.example.org"
    assert origin_of("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert parse_duration("14d") == timedelta(days=14) and parse_duration("30m") == timedelta(minutes=30)
    for bad in ("14", "0d", "1y", "-1d", ""):
        with pytest.raises(FbagentError, match="is not a lifetime"):
            parse_duration(bad)


async def test_revise_mode_serves_the_revise_screen_for_the_sessions_annotator(db_path):
    events: list = []
    server = AnnotateServer(AppLaunch(db=db_path, mode="revise"), ServeOptions(public_url=PUBLIC),
                            on_event=lambda kind, fields: events.append((kind, fields)))
    client = TestClient(TestServer(await server.make_app()), cookie_jar=DummyCookieJar())
    await client.start_server()
    try:
        _, lead = await join(client, invite(db_path, "lead"))
        ws = await _ws(client, lead)
        assert b"entry 1/2" in await _screen(ws, b"lead \xc2\xb7 revise")
        await ws.close()
        assert await _until(lambda: server.counters.apps_stopped == 1)
        db = open_db(db_path)
        assert [r["mode"] for r in db.query("SELECT mode FROM annotation_sessions WHERE annotator = 'lead'")] == ["revise"]
        row = invites.overview(db)[0]
        assert (row["annotator"], row["link"], row["sessions"]) == ("lead", "used", 1) and row["last_seen_at"]
    finally:
        await client.close()
