"""textual-serve's aiohttp server for invited annotators only.

:class:`AnnotateServer` subclasses :class:`textual_serve.server.Server` and
keeps its page, static files and WebSocket protocol; what it adds:

- ``GET /join?token=T``: an invite link. A token that is open (not used,
  expired or revoked) becomes a browser session: a random session id in an
  ``HttpOnly; SameSite=Strict`` cookie (``Secure`` under https), stored only as
  its SHA-256, living until the invite expires. The answer is a small page
  that moves the browser to ``/`` (a clean URL, no token; see
  :data:`JOINED_TEMPLATE` for why it is a page and not a 303). Reopening a used
  link in the browser that holds its session goes straight to ``/``.
- every other request (the page, the static files, the WebSocket upgrade, any
  unknown path) needs a live session, or it gets 401 and nothing runs: the
  app process starts only inside the WebSocket handler, after the check.
- the WebSocket upgrade must come with ``Origin`` equal to the public URL's
  origin (403 otherwise: another site's page cannot drive an annotator's app).
- refused links and unknown session cookies count against the client address
  (``ServeOptions.wrong_tokens``, a moving window); past it every link and
  cookie from that address gets 429 with ``Retry-After`` until the window moves.
- app processes are bounded per annotator and in all (429 / 503 before the
  upgrade); the annotator of a process is the session's, never a request field.
- a watcher checks the running apps' sessions every ``check_interval_s`` and
  closes the connection of a revoked or expired one: the app quits cleanly
  (answers are already stored). It also records ``last_seen_at`` of live sessions.
- a closed tab or a dropped connection (heartbeat) stops that app the same way.

Library code: it reports through ``on_event(kind, fields)`` and prints nothing;
``fbagent annotate --serve`` renders the events.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import ssl
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from limits import parse, storage, strategies
from textual_serve.server import Server

from fbagent.serve.app_process import AnnotatorAppService, child_argv
from fbagent.serve.options import AppLaunch, ServeOptions, origin_of
from fbagent.serve.tokens import new_token, token_hash
from fbagent.store import invites

COOKIE = "fbagent_session"
#: The live session of a request, set by the guard.
WEB_SESSION = web.RequestKey("web_session", invites.WebSession)
HERE = Path(__file__).parent
#: The page that answers a good link: sets the cookie and moves to ``/`` with a same-origin
#: navigation. A 303 would not do: a SameSite=Strict cookie is not sent on a redirect that
#: follows a navigation started on another site (a link clicked in a web mail), so ``/`` would get 401.
JOINED_TEMPLATE = "joined.html"
INDEX_TEMPLATE = "app_index.html"
REFUSED_TEMPLATE = "refused.html"
#: Seconds between ``last_seen_at`` writes for a live session.
TOUCH_EVERY_S = 30.0
#: Events: listening, joined, refused (any 401/403/429/503), app_started, app_stopped, ended (revoked/expired), watch_error.
Event = Callable[[str, dict[str, Any]], None]

REASONS = {
    invites.UNKNOWN: "This link is not valid.",
    invites.USED: "This link was already used in another browser.",
    invites.EXPIRED: "This link has expired.",
    invites.REVOKED: "This link was revoked.",
    "no-session": "You are not signed in.",
}


@dataclass
class LiveApp:
    """One running app: its session, annotator, WebSocket and process."""

    session_id: int
    annotator: str
    websocket: web.WebSocketResponse
    service: AnnotatorAppService | None = None
    ended: str | None = None  # why the server closed it (revoked, expired, shutdown)


@dataclass
class Counters:
    """What the server did, for tests and benchmarks: app processes started and stopped, refusals by status."""

    apps_started: int = 0
    apps_stopped: int = 0
    refused: dict[int, int] = field(default_factory=dict)


class AnnotateServer(Server):
    """The annotate app for invited annotators (see the module doc). ``serve()`` blocks until SIGINT/SIGTERM."""

    def __init__(self, launch: AppLaunch, options: ServeOptions, on_event: Event | None = None) -> None:
        super().__init__("fbagent annotate", host=options.host, port=options.port, title="fbagent annotate",
                         public_url=options.url(), templates_path=HERE / "templates")
        self.launch = launch
        self.options = options
        self.origin = origin_of(self.public_url)
        self.secure = self.public_url.startswith("https")
        self.on_event = on_event or (lambda kind, fields: None)
        self.live: list[LiveApp] = []
        self.counters = Counters()
        self._limit = parse(options.wrong_tokens)
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fbagent-serve-db")
        self._db = None
        self._touched: dict[int, float] = {}
        self._watcher: asyncio.Task | None = None

    # ------------------------------------------------------------------ database (one thread, off the event loop)

    async def _in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(db, *args)`` on the database thread (a writer waiting on a lock never blocks the loop)."""

        def call() -> Any:
            if self._db is None:
                from fbagent.store import open_db

                self._db = open_db(self.launch.db, create=False)
            return fn(self._db, *args)

        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    # ------------------------------------------------------------------ the aiohttp application

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/join", self.handle_join, name="join"),
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        app.on_cleanup.append(self._on_cleanup)
        return app

    async def make_app(self) -> web.Application:
        """The aiohttp application, for tests that run it with :mod:`aiohttp.test_utils`."""
        return await self._make_app()

    async def on_startup(self, app: web.Application) -> None:
        """Open the database and start the session watcher."""
        await self._in_db(lambda db: None)
        self._watcher = asyncio.create_task(self._watch())
        self.on_event("listening", {"url": self.public_url, "host": self.options.host, "port": self.options.port})

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every connection; each app quits and records its position."""
        for live in list(self.live):
            live.ended = "shutdown"
            with contextlib.suppress(Exception):
                await live.websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
        services = [live.service for live in list(self.live) if live.service is not None]
        await asyncio.gather(*(s.stopping() for s in services), return_exceptions=True)

    async def _on_cleanup(self, app: web.Application) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self._db is not None:
            await self._in_db(lambda db: db.conn.close())
        self._executor.shutdown(wait=True)

    def serve(self, debug: bool = False) -> None:
        """Listen until SIGINT/SIGTERM (no access log: it would write tokens; events go to ``on_event``)."""
        ssl_context = None
        if self.options.certfile is not None:
            ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ssl_context.load_cert_chain(str(self.options.certfile), None if self.options.keyfile is None else str(self.options.keyfile))
        web.run_app(self._make_app(), host=self.options.host, port=self.options.port, ssl_context=ssl_context,
                    access_log=None, print=None, handle_signals=True, shutdown_timeout=self.options.stop_timeout_s + 5)

    # ------------------------------------------------------------------ the guard in front of every route

    def _limited(self, request: web.Request) -> float | None:
        """Seconds until this client address may present a link or cookie again, or None when it may now."""
        key = request.remote or "?"
        if self._limiter.test(self._limit, key):
            return None
        reset = self._limiter.get_window_stats(self._limit, key).reset_time
        return max(1.0, reset - time.time())

    def _wrong(self, request: web.Request) -> None:
        self._limiter.hit(self._limit, request.remote or "?")

    def _refuse(self, request: web.Request, status: int, reason: str, retry_after: float | None = None) -> web.Response:
        self.counters.refused[status] = self.counters.refused.get(status, 0) + 1
        self.on_event("refused", {"status": status, "path": request.path, "reason": reason, "remote": request.remote})
        text = REASONS.get(reason, reason)
        response = aiohttp_jinja2.render_template(REFUSED_TEMPLATE, request, {"status": status, "text": text},
                                                  status=status)
        if retry_after is not None:
            response.headers["Retry-After"] = str(int(retry_after + 0.999))
        return response

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        """Security headers on every answer; a live session for everything but ``/join`` (401 otherwise)."""
        try:
            if request.path != "/join":
                cookie = request.cookies.get(COOKIE)
                if not cookie:
                    response = self._refuse(request, 401, "no-session")
                else:
                    wait = self._limited(request)
                    state = None if wait is not None else await self._in_db(invites.session_state, token_hash(cookie))
                    if wait is not None:
                        response = self._refuse(request, 429, "too many wrong links or cookies from this address",
                                                retry_after=wait)
                    elif isinstance(state, str):
                        if state == invites.UNKNOWN:
                            self._wrong(request)
                        response = self._refuse(request, 401, state)
                        response.del_cookie(COOKIE, path="/")
                    else:
                        request[WEB_SESSION] = state
                        await self._seen(state.id)
                        response = await handler(request)
            else:
                response = await handler(request)
        except web.HTTPException as err:
            response = err
        if not getattr(response, "prepared", False):
            self._secure_headers(response)
        return response

    def _secure_headers(self, response: web.StreamResponse) -> None:
        h = response.headers
        h.setdefault("Cache-Control", "no-store")
        h["Referrer-Policy"] = "no-referrer"
        h["X-Content-Type-Options"] = "nosniff"
        h["X-Frame-Options"] = "DENY"
        h.setdefault("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")

    async def _seen(self, session_id: int) -> None:
        now = time.monotonic()
        if now - self._touched.get(session_id, -TOUCH_EVERY_S) >= TOUCH_EVERY_S:
            self._touched[session_id] = now
            await self._in_db(invites.touch, [session_id])

    # ------------------------------------------------------------------ routes

    async def handle_join(self, request: web.Request) -> web.StreamResponse:
        """Exchange an invite token for a session cookie, once; then a page that opens ``/``."""
        wait = self._limited(request)
        if wait is not None:
            return self._refuse(request, 429, "too many wrong links or cookies from this address", retry_after=wait)
        token = request.query.get("token", "")
        current = request.cookies.get(COOKIE)
        if current:  # reopening the link in the browser that holds a live session of the same annotator
            state = await self._in_db(invites.session_state, token_hash(current))
            if isinstance(state, invites.WebSession) and 0 < len(token) <= 200:
                owner = await self._in_db(invites.invite_of_session, state.id)
                if owner == token_hash(token):
                    return self._joined(request, state.annotator, None, None)
        if not 0 < len(token) <= 200:
            self._wrong(request)
            return self._refuse(request, 401, invites.UNKNOWN)
        session_token = new_token()
        result = await self._in_db(invites.redeem, token_hash(token), token_hash(session_token))
        if result.refused is not None:
            self._wrong(request)
            return self._refuse(request, 401, result.refused)
        self.on_event("joined", {"annotator": result.annotator, "remote": request.remote})
        return self._joined(request, result.annotator, session_token, result.expires_at)

    def _joined(self, request: web.Request, annotator: str, session_token: str | None, expires_at: str | None) -> web.Response:
        response = aiohttp_jinja2.render_template(JOINED_TEMPLATE, request, {"annotator": annotator, "next": self.public_url + "/"})
        if session_token is not None and expires_at is not None:
            max_age = int((datetime.fromisoformat(expires_at) - datetime.now(datetime.fromisoformat(expires_at).tzinfo)).total_seconds())
            response.set_cookie(COOKIE, session_token, max_age=max(max_age, 1), path="/", httponly=True,
                                samesite="Strict", secure=self.secure)
        return response

    def _count(self, annotator: str | None = None) -> int:
        return sum(1 for live in self.live if annotator is None or live.annotator == annotator)

    def _over_limit(self, annotator: str) -> tuple[int, str] | None:
        if self._count(annotator) >= self.options.max_per_annotator:
            return 429, (f"{annotator} already has {self.options.max_per_annotator} tabs open here;"
                         " close one (your answers are saved) and reload")
        if self._count() >= self.options.max_total:
            return 503, f"the server runs its limit of {self.options.max_total} annotation apps; try again in a minute"
        return None

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page of textual-serve (our template), for a session under its process bounds."""
        session: invites.WebSession = request[WEB_SESSION]
        over = self._over_limit(session.annotator)
        if over is not None:
            return self._refuse(request, over[0], over[1])
        nonce = secrets.token_urlsafe(16)
        context = {
            "font_size": 16,
            "app_websocket_url": ("wss:" if self.secure else "ws:") + self.public_url.split(":", 1)[1] + "/ws",
            "static_url": self.public_url + "/static/",
            "annotator": session.annotator,
            "nonce": nonce,
        }
        response = aiohttp_jinja2.render_template(INDEX_TEMPLATE, request, context)
        response.headers["Content-Security-Policy"] = (
            f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline';"
            " img-src 'self' data:; font-src 'self'; connect-src 'self';"
            " frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        )
        return response

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """Check ``Origin`` and the bounds, upgrade, run the session's annotator's app until either side closes."""
        session: invites.WebSession = request[WEB_SESSION]
        if request.headers.get("Origin") != self.origin:
            return self._refuse(request, 403, f"the WebSocket must come from a page of {self.origin}")
        over = self._over_limit(session.annotator)
        if over is not None:
            return self._refuse(request, over[0], over[1])
        websocket = web.WebSocketResponse(heartbeat=15)
        live = LiveApp(session.id, session.annotator, websocket)
        self.live.append(live)  # counted before the first await: two upgrades cannot both pass the bound
        try:
            width = _int(request.query.get("width"), 80, 20, 400)
            height = _int(request.query.get("height"), 24, 10, 200)
            await websocket.prepare(request)
            live.service = AnnotatorAppService(
                child_argv(self.launch.as_json(session.annotator)), timeout_s=self.options.stop_timeout_s,
                write_bytes=websocket.send_bytes, write_str=websocket.send_str, close=websocket.close,
                download_manager=self.download_manager,
            )
            await live.service.start(width, height)
            self.counters.apps_started += 1
            self.on_event("app_started", {"annotator": session.annotator, "pid": live.service.pid,
                                          "running": self._count()})
            await self._process_messages(websocket, live.service)
        except (ConnectionError, RuntimeError):
            pass  # the browser went away mid-message: stop the app below
        finally:
            if live.service is None:
                self.live.remove(live)
            else:  # the stop runs to its end even when aiohttp cancels this handler (a dropped connection)
                stopping = live.service.stopping()
                stopping.add_done_callback(lambda _task: self._forget(live))
                with contextlib.suppress(Exception):
                    await websocket.close()
                await asyncio.shield(stopping)
        return websocket

    def _forget(self, live: LiveApp) -> None:
        """Bookkeeping once an app process has ended."""
        if live in self.live:
            self.live.remove(live)
        self.counters.apps_stopped += 1
        self.on_event("app_stopped", {"annotator": live.annotator, "pid": live.service.pid if live.service else None,
                                      "exit_code": live.service.exit_code if live.service else None,
                                      "why": live.ended or "closed", "running": self._count()})

    # ------------------------------------------------------------------ revocation, expiry, last seen

    async def _watch(self) -> None:
        """Every ``check_interval_s``: close the apps of revoked or expired sessions; record last seen."""
        while True:
            await asyncio.sleep(self.options.check_interval_s)
            try:
                await self.check_sessions()
            except Exception as err:  # a locked or busy database: try again next round
                self.on_event("watch_error", {"error": str(err)})

    async def check_sessions(self) -> int:
        """One round of the watcher; returns the number of apps closed."""
        ids = {live.session_id for live in self.live}
        if not ids:
            return 0
        ended = await self._in_db(invites.ended_sessions, ids)
        closed = 0
        for live in list(self.live):
            if live.session_id in ended and live.ended is None:
                live.ended = "revoked or expired"
                self.on_event("ended", {"annotator": live.annotator})
                await live.websocket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"session ended")
                closed += 1
        for sid in ids - ended:
            await self._seen(sid)
        return closed


def _int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(text or default), low), high)
    except ValueError:
        return default
