"""The process behind one browser tab: ``python -m fbagent.serve.child JSON`` runs the annotate app.

Started by :class:`fbagent.serve.app_process.AnnotatorAppService` with
textual-serve's environment (``TEXTUAL_DRIVER`` = the web driver, the
browser's size). ``JSON`` is :meth:`fbagent.serve.options.AppLaunch.as_json`:
the database, mode, selection and the annotator of the browser's session (the
server puts it there; nothing the browser sends reaches this argument).

The session is the terminal app's (:class:`~fbagent.tui.session.ValidateSession`
/ :class:`~fbagent.tui.session.ReviseSession` / the lead's
:class:`~fbagent.tui.adjudicate_session.AdjudicateSession`): every answer is written when
given; however the app ends (``q``, a closed tab: the server sends quit; a
revoked session; SIGTERM) :meth:`close` records the time on the current
task and the position, so reopening the link resumes there.

The process ends with the server (:func:`fbagent.crash.die_with_parent`: SIGTERM, then SIGKILL half a
second later). Its standard error goes to the file ``log`` of the JSON (in the server's private folder): an app
that crashes exits 1 (Textual's ``return_code``) and the server reports its traceback from that file.
"""

from __future__ import annotations

import json
import os
import sys

from fbagent import crash, tui
from fbagent.errors import FbagentError
from fbagent.serve.warm import load_inflections
from fbagent.store import open_db
from fbagent.tui.adjudicate_session import AdjudicateSession
from fbagent.tui.session import ReviseSession, Selection, ValidateSession
from fbagent.validation.assignment import Split


def main(argv: list[str] | None = None) -> int:
    """Run the app described by ``argv[0]`` (JSON); returns the exit code (2 with one line on stderr for bad input)."""
    # (pandas stays out of every app process: sqlite-utils is imported without it, fbagent.lean_imports)
    crash.die_with_parent()   # taken already when started through crash.lifeline_argv
    args = json.loads((argv if argv is not None else sys.argv[1:])[0])
    _stderr_to(args.get("log"))
    try:
        session = open_session(args)
    except FbagentError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    app = tui.AnnotateApp(session)
    try:
        app.run()   # Textual loads here, after the session opened (bad input: exit 2 first)
    finally:
        session.close()
    return app.return_code or 0   # 1 after a crash (Textual printed the traceback to stderr)


def _stderr_to(log: str | None) -> None:
    """Send this process's standard error (Python's and Textual's tracebacks) to the file ``log``."""
    if not log:
        return
    try:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    except OSError:
        return
    sys.stderr.flush()
    os.dup2(fd, 2)
    os.close(fd)


def open_session(args: dict) -> ReviseSession | ValidateSession | AdjudicateSession:
    """The validate, revise or adjudicate session of ``args`` (see :meth:`AppLaunch.as_json`). Raises
    FbagentError on bad input (in adjudicate mode also when no entry is disputed)."""
    rng = args.get("range")
    selection = Selection(run=args.get("run"), language=args.get("lang"), statuses=tuple(args["statuses"]),
                          split=Split(range=None if rng is None else (rng[0], rng[1])))
    load_inflections(args.get("inflections"))  # the server's table: no lemminflect in this process
    db = open_db(args["db"], create=False)
    if args.get("mode") == "adjudicate":   # the lead's pass: whoever the server invited to it
        return AdjudicateSession.open(db, args["annotator"], selection)
    if args.get("mode", "validate") == "revise":
        return ReviseSession.open(db, args["annotator"], selection, None, order=args.get("order", "stable"))
    return ValidateSession.open(db, args["annotator"], selection, None)


if __name__ == "__main__":
    sys.exit(main())
