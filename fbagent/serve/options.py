"""Options of ``fbagent annotate --serve``: the server (:class:`ServeOptions`) and each app process (:class:`AppLaunch`)."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fbagent.errors import FbagentError
from fbagent.store.items import ANNOTATED_STATUSES

#: Hosts that only this machine can reach (no warning without TLS).
LOCAL_HOSTS = ("localhost",)

#: One label of a host name (RFC 1123 section 2.1: letters, digits and inner hyphens, 1 to 63 characters; an
#: underscore too, which resolvers accept and container names use: ``my_service``).
_LABEL = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)")

#: The fix of every malformed ``--host``.
HOST_FIX = ("pass --host 127.0.0.1 (this machine only), 0.0.0.0 (every interface, with --public-url), an address"
            " `ip addr` shows, or a host name of this machine")


@dataclass(frozen=True)
class ServeOptions:
    """Where and how the server listens, and its bounds.

    ``host``/``port``: the listening address (default 127.0.0.1:8000, this
    machine only). ``public_url``: the address browsers use (a reverse proxy's
    ``https://...``); default ``http(s)://host:port``; links, the WebSocket URL and
    the ``Origin`` check derive from it. ``certfile``/``keyfile``: PEM files for
    TLS in the server itself. ``max_per_annotator`` / ``max_total``: app
    processes (open tabs) per annotator (a newer tab takes over the oldest) and
    in all. ``wrong_tokens``: how many refused links or unknown session cookies
    one client address may present before it is told to back off (a ``limits``
    rate string); ``wrong_per_link``: the same per token prefix
    (:mod:`fbagent.serve.throttle`). ``trusted_proxies``: addresses of reverse
    proxies whose ``X-Forwarded-For`` names the client. ``log_burst``: refusals
    logged one by one per minute (the rest as a count). ``check_interval_s``: how often running apps are
    checked against revocation and expiry; ``stop_timeout_s``: how long an app
    gets to quit before it is killed.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    certfile: Path | None = None
    keyfile: Path | None = None
    max_per_annotator: int = 1
    max_total: int = 12
    wrong_tokens: str = "10/minute"
    wrong_per_link: str = "20/hour"
    trusted_proxies: tuple[str, ...] = ()
    log_burst: int = 10
    check_interval_s: float = 1.0
    stop_timeout_s: float = 10.0

    @property
    def tls(self) -> bool:
        """True when the server itself speaks TLS."""
        return self.certfile is not None

    def url(self) -> str:
        """The public base URL without a trailing slash (see :func:`public_url`)."""
        return public_url(self.host, self.port, self.public_url, self.tls)

    def is_local(self) -> bool:
        """True when ``host`` is a loopback address or ``localhost``."""
        return is_local_host(self.host)


@dataclass(frozen=True)
class AppLaunch:
    """What every app process annotates (the annotator comes from each browser's session, never from here).

    ``db``: the database file. ``mode``: validate | revise | adjudicate (serve that only to leads: every
    invited browser gets the mode). ``run``, ``lang``,
    ``statuses``, ``range``: the selection (as ``fbagent annotate`` takes it;
    ``range`` is (start, stop) or None). ``order``: revise-mode order.
    """

    db: Path
    mode: str = "validate"
    run: str | None = None
    lang: str | None = None
    statuses: tuple[str, ...] = ANNOTATED_STATUSES
    range: tuple[int | None, int | None] | None = None
    order: str = "stable"

    def as_json(self, annotator: str) -> dict[str, Any]:
        """The JSON the child process reads: these fields plus ``annotator``."""
        d = asdict(self)
        d["db"] = str(self.db)
        d["statuses"] = list(self.statuses)
        d["range"] = None if self.range is None else list(self.range)
        d["annotator"] = annotator
        return d


def is_local_host(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.lower() in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_host(host: str) -> None:
    """Raise FbagentError unless ``host`` is an IP address (IPv6 without brackets) or a well-formed host
    name (RFC 1123 section 2.1: dot-separated labels of letters, digits, underscores and inner hyphens, at most 253
    characters, the last label not all digits), so that a malformed ``--host`` is refused before anything is
    said about the address or the server tries to bind it (a name that does not resolve is left to the bind)."""
    if not host.strip():
        raise FbagentError("--host is empty", HOST_FIX)
    if _is_ip(host):
        return
    if host.startswith("[") and host.endswith("]") and _is_ip(host[1:-1]):   # a URL's spelling: the bare one binds
        raise FbagentError(f"--host {host} is an IPv6 address in brackets", f"pass it without them: --host {host[1:-1]}")
    bad = next((c for c in host if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        what = "a blank" if bad == " " else f"the character {bad!r}"
        raise FbagentError(f"--host {host!r} contains {what}: it is not an address or a host name", HOST_FIX)
    labels = host.removesuffix(".").split(".")
    if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit():
        raise FbagentError(f"--host {host!r} is neither an IP address nor a host name", HOST_FIX)


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def public_url(host: str, port: int, given: str | None, tls: bool) -> str:
    """The base URL browsers use: ``given`` (checked, trailing slash dropped), else ``http(s)://host:port``.

    Raises FbagentError for a ``given`` that is not an http(s) URL with a
    host, holds a blank or control character (a CR/LF would be printed into
    every invite link), or names a port outside 1..65535; or for a wildcard
    ``host`` (0.0.0.0, ::) without ``given`` (no browser can open a link to it).
    """
    if given:
        fix = "pass the address browsers open, e.g. https://annotate.example.org"
        bad = next((c for c in given if c.isspace() or ord(c) < 32 or ord(c) == 127), None)
        if bad is not None:
            raise FbagentError(f"--public-url {given!r} contains {'a blank' if bad == ' ' else f'the character {bad!r}'}",
                               fix)
        parts = urlsplit(given)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise FbagentError(f"--public-url {given!r} is not an http(s) URL of a host", fix)
        try:
            named: int | None = parts.port
        except ValueError:   # urlsplit checks the port only when asked: 99999, or not a number
            named = 0
        if named == 0:
            raise FbagentError(f"--public-url {given!r} names a port outside 1..65535", fix)
        return given.rstrip("/")
    try:
        wildcard = ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        wildcard = False
    if wildcard:
        raise FbagentError(f"--host {host} listens on every address, so links cannot name it",
                           "add --public-url with the address browsers open, e.g. http://myserver.example.org:8000")
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    scheme = "https" if tls else "http"
    default = 443 if tls else 80
    return f"{scheme}://{shown}" + ("" if port == default else f":{port}")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL as a browser sends it in ``Origin`` (default ports dropped, host lower case)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(parts.scheme)
    port = parts.port
    return f"{parts.scheme}://{shown}" + ("" if port in (None, default) else f":{port}")
