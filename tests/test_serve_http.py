"""`annotate --serve` over HTTP without a browser: the real server (aiohttp test server), real SQLite, real app processes.

Every request without a live session gets 401 and starts nothing; a link is
exchanged once for an HttpOnly SameSite=Strict cookie; used, expired and
revoked links and sessions get 401; wrong tokens are rate-limited; the
WebSocket checks Origin and the process bounds; a closed connection and a
revocation end the app process with exit code 0.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from aiohttp import DummyCookieJar, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.serve.options import AppLaunch, ServeOptions, origin_of, public_url
from fbagent.serve.server import COOKIE, AnnotateServer
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


async def join(client, link) -> tuple[int, str | None]:
    """GET the link without a cookie jar entry; returns (status, session cookie value)."""
    response = await client.get("/join?token=" + token_of(link), allow_redirects=False)
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
        response = await client.get("/join?token=" + token_of(link), allow_redirects=False)
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


async def test_wrong_tokens_are_rate_limited_per_address(db_path):
    server, client, _ = await started(db_path, wrong_tokens="5/minute")
    try:
        good = invite(db_path)
        statuses = [(await client.get(f"/join?token=guess{i}")).status for i in range(5)]
        assert statuses == [401] * 5
        limited = await client.get("/join?token=" + token_of(good))  # even a good link waits out the window
        assert limited.status == 429 and 1 <= int(limited.headers["Retry-After"]) <= 60
        cookie_guess = await client.get("/", headers={"Cookie": f"{COOKIE}=guess"})
        assert cookie_guess.status == 429
        assert server.counters.refused == {401: 5, 429: 2}
    finally:
        await client.close()


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
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:  # alice's second tab: over her bound
            await _ws(client, alice)
        assert err.value.status == 429
        ws_bob = await _ws(client, bob)
        await _screen(ws_bob, b"bob \xc2\xb7 task")
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:  # the server's bound
            await _ws(client, carol)
        assert err.value.status == 503
        assert server.counters.apps_started == 2

        await ws.close()  # a closed tab: the app quits, its session records the position
        assert await _until(lambda: server.counters.apps_stopped == 1)
        stopped = [f for k, f in events if k == "app_stopped"]
        assert stopped[0]["annotator"] == "alice" and stopped[0]["exit_code"] == 0

        db = open_db(db_path)
        invites.revoke(db, "bob")  # the watcher closes bob's app within its interval
        msg = await ws_bob.receive(timeout=10)
        while msg.type == WSMsgType.BINARY:
            msg = await ws_bob.receive(timeout=10)
        assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
        assert await _until(lambda: server.counters.apps_stopped == 2)
        stopped = [f for k, f in events if k == "app_stopped"]
        assert stopped[1]["annotator"] == "bob" and stopped[1]["why"] == "revoked or expired"
        assert stopped[1]["exit_code"] == 0
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
