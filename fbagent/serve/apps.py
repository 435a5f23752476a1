"""The app processes of :class:`fbagent.serve.server.AnnotateServer`: one per open tab, bounded, taken over by a newer tab.

A mixin of the server (what it uses of it is declared by
:class:`fbagent.serve.host.ServerHost`, and ``live`` here). Its WebSocket
handler, :meth:`AppRoutes.handle_app_websocket`, replaces textual-serve's
``handle_websocket`` in the server's route table (a different name: it answers
a refusal page before the upgrade, where textual-serve's always upgrades). It checks ``Origin`` and the bounds,
starts the app of the session's annotator (:mod:`fbagent.serve.app_process`)
and relays the browser's messages after checking each one
(:func:`fbagent.serve.messages.parse_envelope`; a malformed one is dropped and
reported once per connection, :data:`MAX_BAD_MESSAGES` of them close it).

One app per annotator by default (``max_per_annotator``): a newer tab takes
over the oldest one. That tab's app quits first (its session records the
time and position; answers are stored as given), its page then shows
"Opened in another tab" (close code :data:`TAKEN_OVER`), and only then does the
new tab's app open the queue, so two apps of one annotator never answer the
same tasks at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSMsgType, web

from fbagent.serve.app_process import AnnotatorAppService, child_argv
from fbagent.serve.host import ServerHost
from fbagent.serve.messages import HEIGHT_RANGE, WIDTH_RANGE, parse_envelope
from fbagent.store import invites

#: WebSocket close code (private range) and reason of a tab taken over by a newer tab of the same annotator.
TAKEN_OVER = (4001, b"Opened in another tab: go on there. Every answer you gave here is saved.")
#: WebSocket close code and reason of a tab whose app crashed; the page offers to reopen it.
CRASHED = (4002, b"The app stopped after an error (the server's log has it). Every answer you gave is saved: "
                 b"reopen to go on.")
#: Malformed WebSocket messages one connection may send before it is closed.
MAX_BAD_MESSAGES = 100
#: The live session of a request, set by the server's guard.
WEB_SESSION = web.RequestKey("web_session", invites.WebSession)


@dataclass
class LiveApp:
    """One running app: its session, annotator, WebSocket and process."""

    session_id: int
    annotator: str
    websocket: web.WebSocketResponse
    service: AnnotatorAppService | None = None
    ended: str | None = None  # why the server closed it (revoked, expired, shutdown, taken over)


def _int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(text or default), low), high)
    except ValueError:
        return default


class AppRoutes(ServerHost):
    """``GET /ws`` and the bookkeeping of running apps (see the module doc)."""

    live: list[LiveApp]             # set by AnnotateServer: the running apps, oldest first
    _closing: set[asyncio.Future]  # close frames on their way (kept referenced until sent)

    def _count(self, annotator: str | None = None) -> int:
        return sum(1 for live in self.live if annotator is None or live.annotator == annotator)

    def _to_take_over(self, annotator: str) -> list[LiveApp]:
        """The annotator's oldest running apps that a new tab replaces (none while she is under her bound)."""
        mine = [live for live in self.live if live.annotator == annotator and live.ended is None]
        return mine[:max(0, len(mine) - self.options.max_per_annotator + 1)]

    def _over_limit(self, annotator: str) -> tuple[int, str] | None:
        """503 when the server already runs ``max_total`` apps (not counting the tabs a new one takes over)."""
        if self._count() - len(self._to_take_over(annotator)) >= self.options.max_total:
            return 503, f"the server runs its limit of {self.options.max_total} annotation apps; try again in a minute"
        return None

    async def _take_over(self, old: list[LiveApp]) -> None:
        """Close these tabs (their pages say why) and wait until their apps have quit."""
        for live in old:  # the close frame goes out now; its reply is not waited for (the old page may be asleep)
            live.ended = "opened in another tab"
            self.on_event("taken_over", {"annotator": live.annotator})
            self._closing.add(task := asyncio.ensure_future(live.websocket.close(code=TAKEN_OVER[0], message=TAKEN_OVER[1])))
            task.add_done_callback(self._closing.discard)
        await asyncio.gather(*(live.service.stopping() for live in old if live.service is not None),
                             return_exceptions=True)

    async def handle_app_websocket(self, request: web.Request) -> web.StreamResponse:
        """Check ``Origin`` and the bounds, take over an older tab, upgrade, run the session's annotator's app."""
        session: invites.WebSession = request[WEB_SESSION]
        if request.headers.get("Origin") != self.origin:
            return self._refuse(request, 403, f"the WebSocket must come from a page of {self.origin}")
        over = self._over_limit(session.annotator)
        if over is not None:
            return self._refuse(request, over[0], over[1])
        old = self._to_take_over(session.annotator)
        websocket = web.WebSocketResponse(heartbeat=15)
        live = LiveApp(session.id, session.annotator, websocket)
        self.live.append(live)  # counted before the first await: two upgrades cannot both pass the bound
        try:
            await self._take_over(old)
            shared = {"inflections": await self.shared_inflections()}
            width = _int(request.query.get("width"), 80, *WIDTH_RANGE)
            height = _int(request.query.get("height"), 24, *HEIGHT_RANGE)
            await websocket.prepare(request)
            log = str(self.temp_folder / f"app-{secrets.token_hex(6)}.log")  # the app's stderr
            live.service = AnnotatorAppService(
                child_argv(self.launch.as_json(session.annotator) | shared | {"log": log}),
                timeout_s=self.options.stop_timeout_s, on_crash=lambda code: self._crashed(live, code, log),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str, close=websocket.close, download_manager=self.download_manager,
            )
            await live.service.start(width, height)
            self.counters.apps_started += 1
            self.on_event("app_started", {"annotator": session.annotator, "pid": live.service.pid,
                                          "running": self._count()})
            await self._relay_messages(websocket, live.service)
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

    async def _relay_messages(self, websocket: web.WebSocketResponse, app_service: AnnotatorAppService) -> None:
        """Relay the browser's checked messages to the app; drop malformed ones (see the module doc)."""
        bad = 0
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            envelope = parse_envelope(message.data)
            if envelope is None:
                bad += 1
                if bad == 1:
                    self.on_event("bad_message", {"pid": app_service.pid, "size": len(message.data)})
                if bad >= MAX_BAD_MESSAGES:
                    await websocket.close(code=1008, message=b"malformed messages")
                    return
                continue
            kind, data = envelope
            if kind == "stdin":
                await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize":
                await app_service.set_terminal_size(*data)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            else:
                await app_service.focus()

    async def _crashed(self, live: LiveApp, exit_code: int, log: str) -> None:
        """The app of ``live`` ended by itself with ``exit_code`` != 0: report it with its traceback (the app's
        log, then removed) and close its tab with :data:`CRASHED` (the page offers to reopen)."""
        live.ended = "crashed"
        path = Path(log)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")[-20_000:]
        except OSError:
            text = ""
        path.unlink(missing_ok=True)
        self.on_event("app_crashed", {"annotator": live.annotator, "pid": live.service.pid if live.service else None,
                                      "exit_code": exit_code, "traceback": text.strip()})
        self._closing.add(task := asyncio.ensure_future(live.websocket.close(code=CRASHED[0], message=CRASHED[1])))
        task.add_done_callback(self._closing.discard)

    def _forget(self, live: LiveApp) -> None:
        """Bookkeeping once an app process has ended."""
        if live in self.live:
            self.live.remove(live)
        self.counters.apps_stopped += 1
        self.on_event("app_stopped", {"annotator": live.annotator, "pid": live.service.pid if live.service else None,
                                      "exit_code": live.service.exit_code if live.service else None,
                                      "why": live.ended or "closed", "running": self._count()})
