"""The process behind one browser tab: ``python -m fbagent.serve.child JSON`` runs the annotate app.

Started by :class:`fbagent.serve.app_process.AnnotatorAppService` with
textual-serve's environment (``TEXTUAL_DRIVER`` = the web driver, the
browser's size). ``JSON`` is :meth:`fbagent.serve.options.AppLaunch.as_json`:
the database, mode, selection and the annotator of the browser's session (the
server puts it there; nothing the browser sends reaches this argument).

The session is the terminal app's (:class:`~fbagent.tui.session.ValidateSession`
/ :class:`~fbagent.tui.session.ReviseSession`): every answer is written when
given; however the app ends (``q``, a closed tab: the server sends quit; a
revoked session; SIGTERM) :meth:`close` records the time on the current
task and the position, so reopening the link resumes there.
"""

from __future__ import annotations

import json
import sys

from fbagent import tui
from fbagent.errors import FbagentError
from fbagent.serve.warm import load_inflections
from fbagent.store import open_db
from fbagent.tui.session import ReviseSession, Selection, ValidateSession
from fbagent.validation.assignment import Split


def main(argv: list[str] | None = None) -> int:
    """Run the app described by ``argv[0]`` (JSON); returns the exit code (2 with one line on stderr for bad input)."""
    # (pandas stays out of every app process: sqlite-utils is imported without it, fbagent.lean_imports)
    args = json.loads((argv if argv is not None else sys.argv[1:])[0])
    try:
        session = open_session(args)
    except FbagentError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        tui.AnnotateApp(session).run()   # Textual loads here, after the session opened (bad input: exit 2 first)
    finally:
        session.close()
    return 0


def open_session(args: dict) -> ReviseSession | ValidateSession:
    """The validate or revise session of ``args`` (see :meth:`AppLaunch.as_json`). Raises FbagentError on bad input."""
    rng = args.get("range")
    selection = Selection(run=args.get("run"), language=args.get("lang"), statuses=tuple(args["statuses"]),
                          split=Split(range=None if rng is None else (rng[0], rng[1])))
    load_inflections(args.get("inflections"))  # the server's table: no lemminflect in this process
    db = open_db(args["db"], create=False)
    if args.get("mode", "validate") == "revise":
        return ReviseSession.open(db, args["annotator"], selection, None, order=args.get("order", "stable"))
    return ValidateSession.open(db, args["annotator"], selection, None)


if __name__ == "__main__":
    sys.exit(main())
