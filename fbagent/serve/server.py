"""textual-serve's aiohttp server for invited annotators only.

:class:`AnnotateServer` subclasses :class:`textual_serve.server.Server` and
keeps its page, static files and WebSocket protocol; what it adds:

- ``/join``: an invite link. ``GET``/``HEAD`` change nothing; only the POST of
  our own "Start annotating as NAME" page redeems it (same origin, CSRF token
  bound to the page; a browser signed in as someone else is asked first; see
  :mod:`fbagent.serve.join`). A redeemed link becomes a browser session: a
  random session id in an ``HttpOnly; SameSite=Strict`` cookie (``Secure``
  under https), stored only as its SHA-256, living until the invite expires.
  The answer is a small page that moves the browser to ``/`` (a clean URL,
  no token). Reopening a used link in the browser that holds its session goes
  straight to ``/``.
- every other request (the page, the static files, the WebSocket upgrade, any
  unknown path) needs a live session, or it gets 401 and nothing runs: the
  app process starts only inside the WebSocket handler, after the check.
- the WebSocket upgrade must come with ``Origin`` equal to the public URL's
  origin (403 otherwise: another site's page cannot drive an annotator's app).
- wrong links and unknown session cookies count per client address and token
  prefix (:mod:`fbagent.serve.throttle`), whatever the request's headers say; never a
  request with a live session. A cross-site request that carries a session cookie
  is refused (403) before the database lookup (a browser never sends the ``SameSite=Strict``
  cookie cross-site). Refusals are logged at most ``burst`` a minute plus a count.
- app processes are bounded in all (503 before the upgrade) and per annotator:
  a tab beyond ``max_per_annotator`` (default 1) takes over the annotator's
  oldest tab, whose page then says it was opened in another tab; the annotator
  of a process is the session's, never a request field.
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
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.server import Server

from fbagent.serve import log_filter
from fbagent.serve.address import forget_address, record_address
from fbagent.serve.apps import WEB_SESSION, AppRoutes, LiveApp
from fbagent.serve.host import Counters, Event
from fbagent.serve.join import COOKIE, JoinForms, JoinRoutes
from fbagent.serve.options import AppLaunch, ServeOptions, origin_of
from fbagent.serve.throttle import RefusalLog, WrongTokens, client_address, cross_site
from fbagent.serve.tokens import token_hash
from fbagent.serve.warm import InflectionFile, item_verbs
from fbagent.store import invites, open_db

if TYPE_CHECKING:
    from sqlite_utils import Database

HERE = Path(__file__).parent
INDEX_TEMPLATE = "app_index.html"
REFUSED_TEMPLATE = "refused.html"
#: Seconds between ``last_seen_at`` writes for a live session.
TOUCH_EVERY_S = 30.0
REASONS = {
    invites.UNKNOWN: "This link is not valid.",
    invites.USED: "This link was already used in another browser.",
    invites.EXPIRED: "This link has expired.",
    invites.REVOKED: "This link was revoked.",
    "no-session": "You are not signed in.",
}


class AnnotateServer(JoinRoutes, AppRoutes, Server):
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
        self._closing: set[asyncio.Future] = set()
        self.counters = Counters()
        self.throttle = WrongTokens(options.wrong_tokens, options.wrong_per_link)
        self.refusals = RefusalLog(self.on_event, burst=options.log_burst)
        self.forms = JoinForms()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fbagent-serve-db")
        self._warm_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fbagent-serve-warm")
        self.inflections = InflectionFile()
        self.temp_folder = self.inflections.folder
        self._warming: asyncio.Future | None = None
        self._db: Database | None = None
        self._touched: dict[int, float] = {}
        self._watcher: asyncio.Task | None = None

    # ------------------------------------------------------------------ database (one thread, off the event loop)

    async def _in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(db, *args)`` on the database thread (a writer waiting on a lock never blocks the loop)."""

        def call() -> Any:
            if self._db is None:
                self._db = open_db(self.launch.db, create=False)
            return fn(self._db, *args)

        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def shared_inflections(self) -> str | None:
        """The path of the shared inflection table (:mod:`fbagent.serve.warm`), updated with the database's verbs now;
        None when it cannot be made (the app then loads lemminflect itself)."""
        try:
            lemmas = await self._in_db(item_verbs)
            return await asyncio.get_running_loop().run_in_executor(self._warm_executor, self.inflections.update, lemmas)
        except Exception as err:  # a busy database or a full disk: the app still works, only slower
            self.on_event("watch_error", {"error": f"inflection table: {err}"})
            return None

    # ------------------------------------------------------------------ the aiohttp application

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_app_websocket, name="websocket"),
            web.get("/join", self.handle_join_page, name="join"),
            web.post("/join", self.handle_join_post, name="join-post"),
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
        self._warming = asyncio.ensure_future(self.shared_inflections())  # lemminflect loads here, once

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every connection; each app quits and records its position."""
        for live in list(self.live):
            live.ended = "shutdown"
            with contextlib.suppress(Exception):
                await live.websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
        services = [live.service for live in list(self.live) if live.service is not None]
        await asyncio.gather(*(s.stopping() for s in services), return_exceptions=True)
        self.refusals.flush(force=True)

    async def _on_cleanup(self, app: web.Application) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self._warming is not None:
            with contextlib.suppress(Exception):
                await self._warming
        if self._db is not None:
            await self._in_db(lambda db: db.conn.close())
        self._executor.shutdown(wait=True)
        self._warm_executor.shutdown(wait=True)
        self.inflections.close()

    def serve(self, debug: bool = False) -> None:
        """Listen until SIGINT/SIGTERM; ``listening`` is reported once the port is bound.

        No access log (it would write tokens); aiohttp's own error records go
        through :func:`fbagent.serve.log_filter.install`'s filter (no query
        string, cookie or token reaches a log). Raises OSError when the address cannot be bound.
        """
        log_filter.install()
        ssl_context = None
        if self.options.certfile is not None:
            ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ssl_context.load_cert_chain(str(self.options.certfile), None if self.options.keyfile is None else str(self.options.keyfile))
        try:
            web.run_app(self._make_app(), host=self.options.host, port=self.options.port, ssl_context=ssl_context,
                        access_log=None, print=lambda *_: self._listening(), handle_signals=True,
                        shutdown_timeout=self.options.stop_timeout_s + 5)
        finally:
            forget_address(self.launch.db)

    def _listening(self) -> None:
        record_address(self.launch.db, self.public_url)   # annotators invite names this address
        self.on_event("listening", {"url": self.public_url, "host": self.options.host, "port": self.options.port})

    def address(self, request: web.Request) -> str:
        """The client address of ``request`` (``X-Forwarded-For`` only from a ``--trusted-proxy``)."""
        return client_address(request.remote, request.headers.get("X-Forwarded-For"), self.options.trusted_proxies)

    # ------------------------------------------------------------------ the guard in front of every route

    def _refuse(self, request: web.Request, status: int, reason: str, retry_after: float | None = None) -> web.Response:
        self.counters.refused[status] = self.counters.refused.get(status, 0) + 1
        self.refusals.refused({"status": status, "path": request.path, "reason": reason, "remote": self.address(request)})
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
            response = await (handler(request) if request.path == "/join" else self._with_session(request, handler))
        except web.HTTPException as err:
            response = err
        if not getattr(response, "prepared", False):
            self._secure_headers(response)
        return response

    async def _with_session(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        """Run ``handler`` for a live session; 401 without one; an unknown cookie counts as a wrong attempt
        (429 once its address is over the limit); a cross-site request with a cookie is refused (403) before
        any lookup."""
        cookie = request.cookies.get(COOKIE)
        if not cookie:
            return self._refuse(request, 401, "no-session")
        if cross_site(request.headers, self.origin):   # no lookup: a browser never sends this cookie cross-site
            return self._refuse(request, 403, f"a request from another site; open {self.origin} directly"
                                if request.path != "/ws" else f"the WebSocket must come from a page of {self.origin}")
        state = await self._in_db(invites.session_state, token_hash(cookie)) if len(cookie) <= 200 else invites.UNKNOWN
        if isinstance(state, invites.WebSession):
            request[WEB_SESSION] = state
            await self._seen(state.id)
            return await handler(request)
        wait = None
        if state == invites.UNKNOWN:
            wait = self.throttle.wrong(self.address(request))
        if wait is not None:
            response = self._refuse(request, 429, "too many wrong links or cookies from this address", retry_after=wait)
        else:
            response = self._refuse(request, 401, state)
        response.del_cookie(COOKIE, path="/")
        return response

    def _secure_headers(self, response: web.StreamResponse) -> None:
        h = response.headers
        h.setdefault("Cache-Control", "no-store")
        h.setdefault("Referrer-Policy", "no-referrer")
        h["X-Content-Type-Options"] = "nosniff"
        h["X-Frame-Options"] = "DENY"
        h.setdefault("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")

    async def _seen(self, session_id: int) -> None:
        now = time.monotonic()
        if now - self._touched.get(session_id, -TOUCH_EVERY_S) >= TOUCH_EVERY_S:
            self._touched[session_id] = now
            await self._in_db(invites.touch, [session_id])

    # ------------------------------------------------------------------ routes

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page of textual-serve (our template), for a session under its process bounds."""
        session: invites.WebSession = request[WEB_SESSION]
        over = self._over_limit(session.annotator)  # a tab of hers over max_per_annotator takes one over
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

    # ------------------------------------------------------------------ revocation, expiry, last seen

    async def _watch(self) -> None:
        """Every ``check_interval_s``: close the apps of revoked or expired sessions; record last seen."""
        while True:
            await asyncio.sleep(self.options.check_interval_s)
            self.refusals.flush()
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

