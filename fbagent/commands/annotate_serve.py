"""`fbagent annotate --serve`: its options group, declared once (:data:`serve_options`: the flags of
:class:`fbagent.serve.options.ServeOptions`, whose defaults they read); check the TLS files and the address, say
where it listens, print one line per event, and the lead's status line (who judged how much, disputes, second
round) at start and whenever it changes."""

from __future__ import annotations

import errno
import socket
import ssl
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from fbagent import serve
from fbagent.commands.option_groups import option_group
from fbagent.commands.output import echo, secho
from fbagent.errors import FbagentError
from fbagent.serve.options import AppLaunch, ServeOptions, check_host
from fbagent.store.db import open_db
from fbagent.validation.team import status_line, team_status

_SERVE: dict[str, tuple[object, object]] = {
    "host": (Annotated[str, typer.Option("--host", help="--serve: address to listen on (default: this machine only).")],
             ServeOptions.host),
    "port": (Annotated[int, typer.Option("--port", help="--serve: TCP port.", min=1, max=65535)], ServeOptions.port),
    "public_url": (Annotated[str | None, typer.Option(
        "--public-url", envvar="FBAGENT_PUBLIC_URL", help="--serve: address browsers open (e.g. a TLS reverse proxy's "
        "https://...); default http(s)://HOST:PORT. Env: FBAGENT_PUBLIC_URL.")], ServeOptions.public_url),
    "certfile": (Annotated[Path | None, typer.Option("--certfile", help="--serve: TLS certificate (PEM); with --keyfile.")],
                 ServeOptions.certfile),
    "keyfile": (Annotated[Path | None, typer.Option("--keyfile", help="--serve: TLS private key (PEM); with --certfile.")],
                ServeOptions.keyfile),
    "max_per_annotator": (Annotated[int, typer.Option(
        "--max-tabs", help="--serve: app processes (open tabs) per annotator; a newer tab takes over the oldest.",
        min=1)], ServeOptions.max_per_annotator),
    "max_total": (Annotated[int, typer.Option("--max-apps", help="--serve: app processes in all.", min=1)],
                  ServeOptions.max_total),
    "trusted_proxy": (Annotated[list[str] | None, typer.Option(
        "--trusted-proxy", help="--serve: address of your reverse proxy; its X-Forwarded-For names the client (for the "
        "wrong-link limits). Repeatable.")], None),
}


def serve_options_of(values: dict[str, Any], _others: dict[str, Any]) -> ServeOptions:
    """The :class:`ServeOptions` of the ``--serve`` flags (unchecked: :func:`check_tls` and
    :meth:`ServeOptions.url` check them before the server listens)."""
    proxies = values.pop("trusted_proxy")
    return ServeOptions(**values, trusted_proxies=tuple(proxies or ()))


#: Decorator: the ``annotate --serve`` flags; the command takes ``serve_options: ServeOptions``.
serve_options = option_group("serve_options", "Browser (--serve)", _SERVE, serve_options_of)


def serve_flags_given(options: ServeOptions) -> bool:
    """Whether the address or TLS flags differ from their defaults (they go with ``--serve`` only)."""
    return (options.host, options.port, options.certfile, options.keyfile) != (
        ServeOptions.host, ServeOptions.port, ServeOptions.certfile, ServeOptions.keyfile)


def insecure_warning(options: ServeOptions) -> str | None:
    """The one warning line for a non-local ``--host`` without TLS (None when local or TLS); behind an https
    ``--public-url`` it says that this server itself speaks plain HTTP on that address."""
    if options.is_local() or options.tls:
        return None
    if options.url().startswith("https://"):
        return (f"note: this server speaks plain HTTP on {options.host}:{options.port}; only your TLS proxy"
                f" ({options.url()}) should reach it: listen on --host 127.0.0.1 behind a proxy on this machine,"
                " or firewall the port, and pass --trusted-proxy with the proxy's address")
    return (f"warning: --host {options.host} is reachable from other machines and this server has no TLS, so invite"
            " tokens and session cookies cross the network in clear text; put it behind a TLS reverse proxy"
            " (--public-url https://...) or pass --certfile and --keyfile")


def check_tls(options: ServeOptions) -> None:
    """Raise FbagentError unless --certfile and --keyfile are given together and load."""
    if (options.certfile is None) != (options.keyfile is None):
        raise FbagentError("--certfile and --keyfile go together", "pass both PEM files, or neither")
    if options.certfile is None or options.keyfile is None:
        return
    for path in (options.certfile, options.keyfile):
        if not path.is_file():
            raise FbagentError(f"TLS file {path} does not exist", "pass the path of the PEM certificate and key")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(str(options.certfile), str(options.keyfile))
    except (ssl.SSLError, OSError) as err:
        raise FbagentError(f"--certfile {options.certfile} / --keyfile {options.keyfile} do not load ({err})",
                           "pass a PEM certificate and its matching unencrypted private key") from err


def render(kind: str, fields: dict) -> None:
    """One line on stderr per server event (no tokens, no cookies; request paths and names shown safely)."""
    stamp = datetime.now(UTC).strftime("%H:%M:%S")
    if kind == "listening":
        line = (f"serving fbagent annotate on {fields['url']} (listening on {fields['host']}:{fields['port']});"
                " invite annotators with: fbagent annotators invite NAME; Ctrl+C stops")
    elif kind == "refused":
        line = f"{stamp} {fields['status']} {fields['path']} from {fields['remote']}: {fields['reason']}"
    elif kind == "refused_summary":
        counts = ", ".join(f"{n} x {status}" for status, n in fields["statuses"].items())
        line = f"{stamp} {fields['count']} more request(s) refused in the last {fields['seconds']} s ({counts}); not logged one by one"
    elif kind == "taken_over":
        line = f"{stamp} {fields['annotator']}: opened in another tab; closing the older tab"
    elif kind == "bad_message":
        line = f"{stamp} malformed WebSocket message(s) from the browser of app pid {fields['pid']}; dropped"
    elif kind == "app_started":
        line = f"{stamp} {fields['annotator']}: app started (pid {fields['pid']}; {fields['running']} running)"
    elif kind == "app_stopped":
        line = (f"{stamp} {fields['annotator']}: app ended ({fields['why']}, exit {fields['exit_code']};"
                f" {fields['running']} running)")
    elif kind == "app_crashed":   # the traceback follows, indented, so that the log keeps it whole
        trace = "".join(f"\n    {ln}" for ln in str(fields["traceback"]).splitlines()[-60:])
        echo(f"{stamp} {fields['annotator']}: app crashed (pid {fields['pid']}, exit {fields['exit_code']}); her tab"
             f" offers to reopen it, every answer is stored{'; traceback:' if trace else ''}{trace}", err=True)
        return
    elif kind == "joined":
        line = f"{stamp} {fields['annotator']}: link used from {fields['remote']}, browser signed in"
        if fields.get("switched_from"):
            line += f" (was signed in as {fields['switched_from']}; switch confirmed on the join page)"
    elif kind == "ended":
        line = f"{stamp} {fields['annotator']}: session revoked or expired, closing the app"
    elif kind == "watch_error":
        line = f"{stamp} could not check sessions ({fields['error']}); trying again in a second"
    else:
        line = f"{stamp} {kind}: {fields}"
    echo(line.replace("\n", "\\n"), err=True)


def serve_browsers(launch: AppLaunch, options: ServeOptions) -> None:
    """Run the server until Ctrl+C (see :class:`fbagent.serve.server.AnnotateServer`). Raises FbagentError on bad options.

    A malformed ``--host`` is refused before anything else is said; the no-TLS warning
    (:func:`insecure_warning`) comes once the port is bound, just before the serving line, so that a failed bind
    is one line."""
    check_host(options.host)
    check_tls(options)
    options.url()  # a bad --public-url or a wildcard host without one: one line before listening
    try:
        server_class = serve.AnnotateServer   # loads the server (the `serve` extra) on first use
    except ImportError as err:
        raise FbagentError(f"annotate --serve needs textual-serve and limits ({err.name} is not installed)",
                           "pip install 'fbagent[serve]'") from err
    warning = insecure_warning(options)
    stop = threading.Event()

    def on_event(kind: str, fields: dict) -> None:
        if kind == "listening" and warning:   # said once the port is bound: a failed bind is one line
            secho(warning, fg="yellow", err=True)
        render(kind, fields)
        if kind == "listening":   # the lead's status line follows the serving line, never a failed bind
            threading.Thread(target=watch_team, args=(launch.db, stop), name="team-status", daemon=True).start()

    server = server_class(launch, options, on_event=on_event)
    try:
        server.serve()
    except OSError as err:
        raise FbagentError(f"cannot listen on {options.host}:{options.port} ({err.strerror or err})", bind_hint(err, options)) from err


#: seconds between two looks at the team's progress for the lead's log line
STATUS_EVERY_S = 30.0


def watch_team(db: Path, stop: threading.Event, every: float = STATUS_EVERY_S) -> None:
    """The lead's line in the log: :func:`fbagent.validation.team.status_line` of ``db`` at start and
    whenever it changes (looked at every ``every`` seconds, read-only); a failed look is skipped."""
    shown: str | None = None
    while not stop.is_set():
        line: str | None
        try:
            conn = open_db(db, create=False, read_only=True)
            try:
                line = status_line(team_status(conn))
            finally:
                conn.conn.close()
        except Exception:  # noqa: BLE001 - the log line must never stop the server
            line = shown
        if line != shown and line is not None:
            stamp = datetime.now(UTC).strftime("%H:%M:%S")
            echo(f"{stamp} {line}", err=True)
            shown = line
        stop.wait(every)


def bind_hint(err: OSError, options: ServeOptions) -> str:
    """The fix for a failed bind: another port (in use), an address of this machine, or a port above 1023."""
    if err.errno == errno.EADDRNOTAVAIL or isinstance(err, socket.gaierror):
        return (f"{options.host} is not an address of this machine: pass --host 127.0.0.1 (this machine only),"
                " 0.0.0.0 (every interface, with --public-url) or one of the addresses `ip addr` shows")
    if err.errno == errno.EACCES:
        return f"ports below 1024 need privileges: pass --port 8000 (or put a reverse proxy on port {options.port})"
    return "pick another --port, or stop what listens there"
