"""What the route mixins of the browser server use of the server they are mixed into, declared once.

:class:`fbagent.serve.server.AnnotateServer` is assembled from textual-serve's
``Server`` and two route mixins, :class:`fbagent.serve.join.JoinRoutes` and
:class:`fbagent.serve.apps.AppRoutes`. Both mixins derive from :class:`ServerHost`,
which names the attributes they read (set by textual-serve's ``Server.__init__``
and by ``AnnotateServer.__init__``) and the server methods they call (abstract
here, defined by ``AnnotateServer``), so that the type checker sees every
attribute a mixin uses and checks the server against the same list.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from textual_serve.download_manager import DownloadManager

from fbagent.serve.options import AppLaunch, ServeOptions
from fbagent.serve.throttle import WrongTokens

#: Events: listening, joined, refused (any 401/403/429/503, at most a burst a minute), refused_summary (the rest,
#: counted), app_started, app_stopped, app_crashed (exit code, traceback), ended (revoked/expired), taken_over,
#: bad_message, watch_error.
Event = Callable[[str, dict[str, object]], None]


@dataclass
class Counters:
    """What the server did, for tests and benchmarks: app processes started and stopped, refusals by status."""

    apps_started: int = 0
    apps_stopped: int = 0
    refused: dict[int, int] = field(default_factory=dict)


class ServerHost(ABC):
    """The server's attributes and methods that the route mixins use (see the module doc)."""

    # set by textual-serve's Server
    public_url: str
    download_manager: DownloadManager
    # set by AnnotateServer
    launch: AppLaunch
    options: ServeOptions
    origin: str          # scheme://host[:port] of public_url; a request's Origin must equal it
    secure: bool         # public_url is https: cookies get Secure
    on_event: Event
    counters: Counters
    throttle: WrongTokens
    temp_folder: Path    # the server's private temporary folder (the apps' crash logs go there)

    @abstractmethod
    async def _in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(db, *args)`` run on the server's database thread."""

    @abstractmethod
    def _refuse(self, request: web.Request, status: int, reason: str, retry_after: float | None = None) -> web.Response:
        """The refusal page with ``status`` (counted and logged); ``Retry-After`` when ``retry_after`` is given."""

    @abstractmethod
    def address(self, request: web.Request) -> str:
        """The client address of ``request``."""

    @abstractmethod
    async def shared_inflections(self) -> str | None:
        """The path of the shared inflection table, or None when it cannot be made."""
