"""`fbagent annotate`: the Textual annotation app (validate or revise mode)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.prompt import Prompt

from fbagent import tui, validation
from fbagent.commands.annotate_lock import annotator_lock
from fbagent.commands.annotate_serve import serve_browsers, serve_flags_given, serve_options
from fbagent.commands.options import (
    DEFAULT_DB,
    DEFAULT_STATUS,
    ExistingDbOption,
    name_check,
    parse_statuses,
)
from fbagent.commands.output import echo, new_console, upgrade_note
from fbagent.errors import FbagentError
from fbagent.languages import language_name
from fbagent.seeds import check_seed
from fbagent.serve.options import AppLaunch, ServeOptions
from fbagent.store import adjudications
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
    @serve_options
    def annotate(
        annotator: Annotated[str | None, typer.Option("--annotator", callback=name_check("annotator name"), help="Your name; answers, seed and progress are kept per name (not with --serve: each link names its annotator).")] = None,
        mode: Annotated[str, typer.Option("--mode", help="validate (blind judgments), revise (edit text, see frames and verifier results), baseline (the independent human baseline: the four-choice question on a seeded sample of final entries you never judged) or adjudicate (the lead: disputed entries only, keep / drop / second round with a reason).")] = AppLaunch.mode,
        second_round: Annotated[bool, typer.Option("--second-round", help="Validate mode: only the entries the lead sent to a second round that you have not seen.")] = False,
        sample: Annotated[int, typer.Option("--sample", min=1, help="Baseline mode: final entries to sample (two problems each; all when fewer).")] = 100,
        run: Annotated[str | None, typer.Option("--run", callback=name_check("run name"), help="Only entries of this generation run (name or id).")] = None,
        lang: Annotated[str | None, typer.Option("--lang", help="Only entries of this language (e.g. en, ja, fr).")] = None,
        range_: Annotated[str | None, typer.Option("--range", help="Entries START:STOP of the stable order (0-based, STOP excluded), e.g. 0:200.")] = None,
        share: Annotated[str | None, typer.Option("--share", help="Take share N of M (N/M), e.g. 1/3; round-robin over entries.")] = None,
        overlap: Annotated[str | None, typer.Option("--overlap", help="Annotators per entry with --share (K of M), or 'all' (default: every entry for everyone; with --share: 1).")] = None,
        status: Annotated[str, typer.Option("--status", help="Item statuses to annotate, comma list or 'all'.")] = DEFAULT_STATUS,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of your task shuffle (recorded the first time; default: from your name).")] = None,
        order: Annotated[str, typer.Option("--order", help="Revise mode: stable (entry order) or worst-first (lowest correctness, then acceptability, from current judgments).")] = AppLaunch.order,
        competence: Annotated[str | None, typer.Option("--competence", help="Your competence in the language(s) you annotate: native, near-native, fluent or basic, or LANG=LEVEL (e.g. ja=native); asked on first use when not given; the dataset card reports it as stated.")] = None,
        db: ExistingDbOption = DEFAULT_DB,
        serve: Annotated[bool, typer.Option("--serve", help="Serve the app to invited browsers (fbagent annotators invite NAME) instead of this terminal; needs the serve extra.")] = False,
        serve_options: ServeOptions | None = None,  # built by @serve_options from the --serve flags
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
        assert serve_options is not None   # built by @serve_options
        _check_options(mode=mode, order=order, seed=seed, serve=serve, annotator=annotator, share=share,
                       overlap=overlap, competence=competence, serve_flags=serve_flags_given(serve_options))
        if second_round and (mode != "validate" or serve):
            raise FbagentError("--second-round gives one annotator the entries sent to a second round, in validate mode",
                               "drop --second-round, or use it with --mode validate --annotator NAME (without --serve)")
        selection = Selection(run=run, language=lang, statuses=parse_statuses(status), split=parse_split(range_, share, overlap))
        if not db.exists():
            raise FbagentError(f"database {db} does not exist", "pass --db PATH of the database that holds the generated entries (or set FBAGENT_DB)")
        database = open_db(db, create=False, on_upgrade=upgrade_note)
        if second_round:
            selection = replace(selection, only=tuple(adjudications.second_round_for(database, annotator or "")))
        entries = assigned_entries(database, selection)  # bad --run/--lang/--range first (read only)
        if serve and mode == "adjudicate":   # nothing disputed: refused here, as in the terminal
            tui.AdjudicateSession.open(database, "", selection)
        if serve:
            database.conn.close()
            launch = AppLaunch(db=db.resolve(), mode=mode, run=run, lang=lang, statuses=tuple(selection.statuses),
                               range=selection.split.range, order=order)
            serve_browsers(launch, serve_options)
            return
        languages = sorted({e["language"] for e in entries})
        assert annotator is not None   # _check_options: without --serve, --annotator is required
        if mode == "adjudicate":
            _adjudicate_here(database, db, annotator, selection)
            return
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
    console = new_console()
    for lang in missing_languages(database, annotator, languages):
        # asked again until the answer is one of the levels; the card reports it as stated
        try:
            asked[lang] = Prompt.ask(f"{annotator}, your competence in {language_name(lang)} ({lang}), as the "
                                     "dataset card will report it", choices=list(LEVELS), console=console)
        except EOFError:   # Ctrl-D (the terminal echoes nothing: the error starts a line of its own); nothing recorded
            console.line()
            raise FbagentError(f"no answer to the question of {annotator}'s competence in {lang} (the input ended)",
                               f"pass --competence {lang}=LEVEL ({', '.join(LEVELS)})") from None
    if asked:
        record_competence(database, annotator, asked, "annotate")


def _check_options(*, mode: str, order: str, seed: int | None, serve: bool, annotator: str | None,
                   share: str | None, overlap: str | None, competence: str | None, serve_flags: bool) -> None:
    """Raise :class:`fbagent.errors.FbagentError` for the first impossible combination of `annotate` options."""
    if mode not in ("validate", "revise", "baseline", "adjudicate"):
        raise FbagentError(f"--mode {mode!r} is not a mode", "pass --mode validate, revise, baseline or adjudicate")
    if mode == "baseline" and serve:
        raise FbagentError("--mode baseline runs in this terminal, not with --serve", "drop --serve")
    if mode == "baseline" and any(v is not None for v in (share, overlap)):
        raise FbagentError("--share/--overlap split validation work; --mode baseline draws its own seeded sample",
                           "drop --share/--overlap (use --sample N, --run or --lang to choose what it samples)")
    if order not in ReviseSession.ORDERS:
        raise FbagentError(f"--order {order!r} is not an order", "pass --order stable or --order worst-first")
    if order != AppLaunch.order and mode != "revise":
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
    elif serve_flags:
        raise FbagentError("--host/--port/--certfile/--keyfile go with --serve", "add --serve, or drop them")


def _baseline_here(database: sqlite_utils.Database, db: Path, annotator: str, options: validation.BaselineOptions, *,
                   competence: tuple[list[str], str | None]) -> None:
    """Run baseline mode (:class:`fbagent.tui.baseline_session.BaselineSession`) in this terminal and say what
    was saved; the refusal of an annotator who validated final entries comes before any terminal check, the
    language competence (:func:`ask_competence`) after it."""
    session = tui.BaselineSession.open(database, annotator, options)
    try:
        with annotator_lock(db, annotator):
            require_terminal()
            ask_competence(database, annotator, *competence)
            tui.AnnotateApp(session).run()
    finally:
        session.close()
    echo(f"{annotator}: {session.n_done}/{session.total} baseline problems answered; all answers are saved in {db}.")


def _adjudicate_here(database: sqlite_utils.Database, db: Path, annotator: str, selection: Selection) -> None:
    """Run adjudicate mode in this terminal (:class:`fbagent.tui.adjudicate_session.AdjudicateSession`: the
    disputed entries only; refused first when none is disputed) and say what was decided."""
    session = tui.AdjudicateSession.open(database, annotator, selection)
    require_terminal()
    try:
        tui.AnnotateApp(session).run()
    finally:
        session.close()
    echo(f"{annotator}: {session.n_decided}/{session.total} disputed entries decided; every decision is saved in {db}.")


def _annotate_here(database: sqlite_utils.Database, db: Path, annotator: str, selection: Selection, seed: int | None, *,
                   mode: str, order: str, competence: tuple[list[str], str | None]) -> None:
    """Run the annotation app in this terminal on ``selection`` and say what was saved (``competence``:
    the entries' languages and ``--competence``, see :func:`ask_competence`)."""
    with annotator_lock(db, annotator):
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
