"""`fbagent annotate --serve`: check the TLS files and the address, say where it listens, print one line per event."""

from __future__ import annotations

import ssl
from datetime import UTC, datetime

from fbagent.commands.output import echo, secho
from fbagent.errors import FbagentError


def insecure_warning(options) -> str | None:
    """The one warning line for a non-local ``--host`` without TLS (None when local, TLS, or an https public URL)."""
    if options.is_local() or options.tls or options.url().startswith("https://"):
        return None
    return (f"warning: --host {options.host} is reachable from other machines and this server has no TLS, so invite"
            " tokens and session cookies cross the network in clear text; put it behind a TLS reverse proxy"
            " (--public-url https://...) or pass --certfile and --keyfile")


def check_tls(options) -> None:
    """Raise FbagentError unless --certfile and --keyfile are given together and load."""
    if (options.certfile is None) != (options.keyfile is None):
        raise FbagentError("--certfile and --keyfile go together", "pass both PEM files, or neither")
    if options.certfile is None:
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
    elif kind == "app_started":
        line = f"{stamp} {fields['annotator']}: app started (pid {fields['pid']}; {fields['running']} running)"
    elif kind == "app_stopped":
        line = (f"{stamp} {fields['annotator']}: app ended ({fields['why']}, exit {fields['exit_code']};"
                f" {fields['running']} running)")
    elif kind == "joined":
        line = f"{stamp} {fields['annotator']}: link used from {fields['remote']}, browser signed in"
    elif kind == "ended":
        line = f"{stamp} {fields['annotator']}: session revoked or expired, closing the app"
    elif kind == "watch_error":
        line = f"{stamp} could not check sessions ({fields['error']}); trying again in a second"
    else:
        line = f"{stamp} {kind}: {fields}"
    echo(line.replace("\n", "\\n"), err=True)


def serve_browsers(launch, options) -> None:
    """Run the server until Ctrl+C (see :class:`fbagent.serve.server.AnnotateServer`). Raises FbagentError on bad options."""
    check_tls(options)
    options.url()  # a bad --public-url or a wildcard host without one: one line before listening
    try:
        from fbagent.serve.server import AnnotateServer
    except ImportError as err:
        raise FbagentError(f"annotate --serve needs textual-serve and limits ({err.name} is not installed)",
                           "pip install 'fbagent[serve]'") from err
    warning = insecure_warning(options)
    if warning:
        secho(warning, fg="yellow", err=True)
    server = AnnotateServer(launch, options, on_event=render)
    try:
        server.serve()
    except OSError as err:
        raise FbagentError(f"cannot listen on {options.host}:{options.port} ({err.strerror or err})",
                           "pick another --port, or stop what listens there") from err
