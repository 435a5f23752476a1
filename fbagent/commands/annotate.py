"""`fbagent annotate`: the Textual annotation app (validate or revise mode)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.prompt import Prompt

from fbagent import tui, validation
from fbagent.commands.annotate_serve import serve_browsers
from fbagent.commands.options import DEFAULT_DB, ExistingDbOption, name_check, parse_statuses
from fbagent.commands.output import echo, new_console, upgrade_note
from fbagent.errors import FbagentError
from fbagent.languages import language_name
from fbagent.seeds import check_seed
from fbagent.serve.options import AppLaunch, ServeOptions
from fbagent.store.competence import LEVELS, missing_languages, parse_competence, record_competence
from fbagent.store.db import open_db
from fbagent.tui.session import ReviseSession, Selection, ValidateSession, assigned_entries
from fbagent.validation.assignment import parse_split

if TYPE_CHECKING:
    import sqlite_utils


def require_terminal() -> None:
    """Raise FbagentError unless stdin and stdout are both a terminal (the app would hang and print escape codes)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise FbagentError(
            "fbagent annotate needs an interactive terminal (stdin or stdout is not a TTY)",
            "run it in a terminal (e.g. over ssh -t), without redirecting its input or output",
        )


def register(app: typer.Typer) -> None:
    """Add the `annotate` command to the root app."""

    @app.command("annotate")
    def annotate(
        annotator: Annotated[str | None, typer.Option("--annotator", callback=name_check("annotator name"), help="Your name; answers, seed and progress are kept per name (not with --serve: each link names its annotator).")] = None,
        mode: Annotated[str, typer.Option("--mode", help="validate (blind judgments), revise (edit text, see frames and verifier results) or baseline (the independent human baseline: the four-choice question on a seeded sample of final entries you never judged).")] = "validate",
        sample: Annotated[int, typer.Option("--sample", min=1, help="Baseline mode: final entries to sample (two problems each; all when fewer).")] = 100,
        run: Annotated[str | None, typer.Option("--run", callback=name_check("run name"), help="Only entries of this generation run (name or id).")] = None,
        lang: Annotated[str | None, typer.Option("--lang", help="Only entries of this language (e.g. en, ja, fr).")] = None,
        range_: Annotated[str | None, typer.Option("--range", help="Entries START:STOP of the stable order (0-based, STOP excluded), e.g. 0:200.")] = None,
        share: Annotated[str | None, typer.Option("--share", help="Take share N of M (N/M), e.g. 1/3; round-robin over entries.")] = None,
        overlap: Annotated[str | None, typer.Option("--overlap", help="Annotators per entry with --share (K of M), or 'all' (default: every entry for everyone; with --share: 1).")] = None,
        status: Annotated[str, typer.Option("--status", help="Item statuses to annotate, comma list or 'all'.")] = "verified,flagged",
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of your task shuffle (recorded the first time; default: from your name).")] = None,
        order: Annotated[str, typer.Option("--order", help="Revise mode: stable (entry order) or worst-first (lowest correctness, then acceptability, from current judgments).")] = "stable",
        competence: Annotated[str | None, typer.Option("--competence", help="Your competence in the language(s) you annotate: native, near-native, fluent or basic, or LANG=LEVEL (e.g. ja=native); asked on first use when not given; the dataset card reports it as stated.")] = None,
        db: ExistingDbOption = DEFAULT_DB,
        serve: Annotated[bool, typer.Option("--serve", help="Serve the app to invited browsers (fbagent annotators invite NAME) instead of this terminal; needs the serve extra.")] = False,
        host: Annotated[str, typer.Option("--host", help="--serve: address to listen on (default: this machine only).")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", help="--serve: TCP port.", min=1, max=65535)] = 8000,
        public_url: Annotated[str | None, typer.Option("--public-url", envvar="FBAGENT_PUBLIC_URL", help="--serve: address browsers open (e.g. a TLS reverse proxy's https://...); default http(s)://HOST:PORT. Env: FBAGENT_PUBLIC_URL.")] = None,
        certfile: Annotated[Path | None, typer.Option("--certfile", help="--serve: TLS certificate (PEM); with --keyfile.")] = None,
        keyfile: Annotated[Path | None, typer.Option("--keyfile", help="--serve: TLS private key (PEM); with --certfile.")] = None,
        max_per_annotator: Annotated[int, typer.Option("--max-tabs", help="--serve: app processes (open tabs) per annotator; a newer tab takes over the oldest.", min=1)] = 1,
        max_total: Annotated[int, typer.Option("--max-apps", help="--serve: app processes in all.", min=1)] = 12,
        trusted_proxy: Annotated[list[str] | None, typer.Option("--trusted-proxy", help="--serve: address of your reverse proxy; its X-Forwarded-For names the client (for the wrong-link limits). Repeatable.")] = None,
    ) -> None:
        """Annotate entries in a terminal app: 4 pair tasks per entry, every answer saved at once.

        Keys (validate): 1-4 Sentence A / Sentence B / Both / Neither; u/a/n
        acceptability (English: only n = Natural counts; other languages u/n,
        Unnatural / Natural); c comment; s skip; Enter next (once both are
        given); → / ← move; o next open task; ? help; q quit. Reopening says
        where it resumes; tasks revised since you judged them come first.

        With --serve the same app runs in browsers: each invited annotator
        opens their link (fbagent annotators invite NAME) and annotates as
        that name; see docs/annotate.md, "In a browser".
        """
        if mode == "baseline" and range_ is not None:
            raise FbagentError("--range splits validation work; --mode baseline draws its own seeded sample",
                               "drop --range (use --sample N, --run or --lang to choose what it samples)")
        _check_options(mode=mode, order=order, seed=seed, serve=serve, annotator=annotator, share=share,
                       overlap=overlap, competence=competence, certfile=certfile, keyfile=keyfile, host=host, port=port)
        selection = Selection(run=run, language=lang, statuses=parse_statuses(status), split=parse_split(range_, share, overlap))
        if not db.exists():
            raise FbagentError(f"database {db} does not exist", "pass --db PATH of the database that holds the generated entries (or set FBAGENT_DB)")
        database = open_db(db, create=False, on_upgrade=upgrade_note)
        entries = assigned_entries(database, selection)  # bad --run/--lang/--range first (read only)
        if serve:
            database.conn.close()
            launch = AppLaunch(db=db.resolve(), mode=mode, run=run, lang=lang, statuses=tuple(selection.statuses),
                               range=selection.split.range, order=order)
            serve_browsers(launch, ServeOptions(host=host, port=port, public_url=public_url, certfile=certfile,
                                                keyfile=keyfile, max_per_annotator=max_per_annotator,
                                                max_total=max_total, trusted_proxies=tuple(trusted_proxy or ())))
            return
        languages = sorted({e["language"] for e in entries})
        assert annotator is not None   # _check_options: without --serve, --annotator is required
        if mode == "baseline":
            options = validation.BaselineOptions(sample=sample, seed=seed, run=run, language=lang,
                                                 statuses=selection.statuses)
            _baseline_here(database, db, annotator, options, competence=(languages, competence))
            return
        _annotate_here(database, db, annotator, selection, seed, mode=mode, order=order,
                       competence=(languages, competence))


def ask_competence(database: sqlite_utils.Database, annotator: str, languages: list[str], given: str | None) -> None:
    """Record ``annotator``'s language competence: ``given`` (``--competence``) when passed, else ask in
    this terminal for each language of ``languages`` not recorded yet (:mod:`fbagent.store.competence`)."""
    if given is not None:
        record_competence(database, annotator, parse_competence(given, languages), "annotate")
        return
    asked = {}
    for lang in missing_languages(database, annotator, languages):
        # asked again until the answer is one of the levels; the card reports it as stated
        asked[lang] = Prompt.ask(f"{annotator}, your competence in {language_name(lang)} ({lang}), as the dataset "
                                 "card will report it", choices=list(LEVELS), console=new_console())
    if asked:
        record_competence(database, annotator, asked, "annotate")


def _check_options(*, mode: str, order: str, seed: int | None, serve: bool, annotator: str | None,
                   share: str | None, overlap: str | None, competence: str | None, certfile: Path | None, keyfile: Path | None,
                   host: str, port: int) -> None:
    """Raise :class:`fbagent.errors.FbagentError` for the first impossible combination of `annotate` options."""
    if mode not in ("validate", "revise", "baseline"):
        raise FbagentError(f"--mode {mode!r} is not a mode", "pass --mode validate, revise or baseline")
    if mode == "baseline" and serve:
        raise FbagentError("--mode baseline runs in this terminal, not with --serve", "drop --serve")
    if mode == "baseline" and any(v is not None for v in (share, overlap)):
        raise FbagentError("--share/--overlap split validation work; --mode baseline draws its own seeded sample",
                           "drop --share/--overlap (use --sample N, --run or --lang to choose what it samples)")
    if order not in ReviseSession.ORDERS:
        raise FbagentError(f"--order {order!r} is not an order", "pass --order stable or --order worst-first")
    if order != "stable" and mode != "revise":
        raise FbagentError(f"--order {order} sorts entries in revise mode only", "add --mode revise, or drop --order")
    if seed is not None:
        check_seed(seed)
    if serve:
        per_annotator = {"--annotator": annotator, "--share": share, "--overlap": overlap, "--seed": seed,
                         "--competence": competence}
        given = [k for k, v in per_annotator.items() if v is not None]
        if given:
            raise FbagentError(f"{', '.join(given)} name one annotator's work, and --serve serves every invited annotator",
                               f"drop {', '.join(given)} (each link names its annotator; their seed is kept per name)")
    elif annotator is None:
        raise FbagentError("--annotator is missing", "pass --annotator NAME (or --serve to serve invited browsers)")
    elif any(v is not None for v in (certfile, keyfile)) or (host, port) != ("127.0.0.1", 8000):
        raise FbagentError("--host/--port/--certfile/--keyfile go with --serve", "add --serve, or drop them")


def _baseline_here(database: sqlite_utils.Database, db: Path, annotator: str, options: validation.BaselineOptions, *,
                   competence: tuple[list[str], str | None]) -> None:
    """Run baseline mode (:class:`fbagent.tui.baseline_session.BaselineSession`) in this terminal and say what
    was saved; the refusal of an annotator who validated final entries comes before any terminal check, the
    language competence (:func:`ask_competence`) after it."""
    session = tui.BaselineSession.open(database, annotator, options)
    require_terminal()
    ask_competence(database, annotator, *competence)
    try:
        tui.AnnotateApp(session).run()
    finally:
        session.close()
    echo(f"{annotator}: {session.n_done}/{session.total} baseline problems answered; all answers are saved in {db}.")


def _annotate_here(database: sqlite_utils.Database, db: Path, annotator: str, selection: Selection, seed: int | None, *,
                   mode: str, order: str, competence: tuple[list[str], str | None]) -> None:
    """Run the annotation app in this terminal on ``selection`` and say what was saved (``competence``:
    the entries' languages and ``--competence``, see :func:`ask_competence`)."""
    require_terminal()
    ask_competence(database, annotator, *competence)
    if mode == "validate":
        session: ValidateSession | ReviseSession = ValidateSession.open(database, annotator, selection, seed)
    else:
        session = ReviseSession.open(database, annotator, selection, seed, order=order)
    try:
        tui.AnnotateApp(session).run()
    finally:
        session.close()
    if isinstance(session, ValidateSession):
        echo(f"{annotator}: {session.n_done}/{session.total} pair tasks answered; all answers are saved in {db}.")
    else:
        echo(f"{annotator}: revisions are saved in {db}.")
