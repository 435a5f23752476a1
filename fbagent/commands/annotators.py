"""`fbagent annotators invite|list|revoke`: who may open `fbagent annotate --serve` in a browser."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fbagent import validation
from fbagent.commands.options import (
    DEFAULT_DB,
    ExistingDbOption,
    db_path,
    name_check,
    parse_statuses,
)
from fbagent.commands.output import echo, fit_line, new_console, upgrade_note
from fbagent.commands.tables import Col, WideOption, print_table
from fbagent.errors import FbagentError
from fbagent.serve.address import running_address
from fbagent.serve.options import public_url as check_url
from fbagent.serve.tokens import create_invite, parse_duration
from fbagent.store.annotations import select_items
from fbagent.store.competence import competence as recorded
from fbagent.store.competence import parse_competence, record_competence
from fbagent.store.db import open_db
from fbagent.store.invites import known_names, overview, revoke
from fbagent.validation.aggregate import score_entries
from fbagent.validation.team import team_status

if TYPE_CHECKING:
    import sqlite_utils

app = typer.Typer(help="Invite annotators to the browser app (annotate --serve): one-time links, list, revoke; "
                  "status: who judged how much, agreement so far, what is left.",
                  no_args_is_help=True)

#: Default address of links (`annotate --serve`'s default listening address).
DEFAULT_URL = "http://127.0.0.1:8000"

PublicUrlOption = Annotated[
    str | None,
    typer.Option("--public-url", envvar="FBAGENT_PUBLIC_URL",
                 help="Address browsers open (as `annotate --serve --public-url`), default http://127.0.0.1:8000."
                      " Env: FBAGENT_PUBLIC_URL."),
]


def _open(db: Path | None) -> sqlite_utils.Database:
    return open_db(db_path(db), create=False)


@app.command("invite")
def invite_cmd(
    name: Annotated[str, typer.Argument(callback=name_check("annotator name"), help="The annotator's name (answers, seed and progress are kept per name).")],
    expires: Annotated[str, typer.Option("--expires", help="Lifetime of the link and of the browser session: 30m, 12h, 14d, 2w.")] = "14d",
    public_url: PublicUrlOption = None,
    port: Annotated[int | None, typer.Option(
        "--port", min=1, max=65535,
        help="The port of `annotate --serve --port` for a link to http://127.0.0.1:PORT. Default: the port of the "
             "server running on this database, else 8000.")] = None,
    competence: Annotated[str | None, typer.Option(
        "--competence", help="NAME's competence in each language they will annotate, as they state it: LANG=LEVEL, "
                             "LEVEL one of native, near-native, fluent, basic (e.g. en=native,ja=fluent); the dataset "
                             "card reports it.")] = None,
    db: ExistingDbOption = DEFAULT_DB,
) -> None:
    """Print a one-time link for NAME; its token is stored hashed. A new invite revokes NAME's unused links."""
    lifetime = parse_duration(expires)
    base = link_base(db, public_url, port)
    levels = None if competence is None else parse_competence(competence)
    database = _open(db)
    made = create_invite(database, name, lifetime, base)
    if levels:
        record_competence(database, made.annotator, levels, "invite")
    elif made.annotator not in recorded(database):
        echo(f"note: {made.annotator}'s language competence is not recorded; the dataset card will say so "
             "(pass --competence LANG=LEVEL, e.g. en=native, asking them)", err=True)
    echo(made.link)
    echo(f"{made.annotator}: one-time link, valid until {made.expires_at[:16].replace('T', ' ')} UTC;"
               " send it privately (it is shown only now)", err=True)


def link_base(db: Path | None, public_url: str | None, port: int | None) -> str:
    """The address an invite links to: ``public_url``, else ``http://127.0.0.1:PORT`` for ``port``, else the
    address of the ``annotate --serve`` running on ``db`` now (:func:`fbagent.serve.address.running_address`),
    else :data:`DEFAULT_URL`. Raises :class:`FbagentError` for a ``public_url`` that is not an http(s) URL."""
    if public_url:
        return check_url("127.0.0.1", port or 8000, public_url, tls=False)
    if port is not None:
        return check_url("127.0.0.1", port, None, tls=False)
    return running_address(db_path(db)) or DEFAULT_URL


@app.command("list")
def list_cmd(db: ExistingDbOption = DEFAULT_DB, wide: WideOption = False) -> None:
    """Invited annotators: state of the newest link, its expiry, live browser sessions, last seen."""
    rows = overview(_open(db))
    console = new_console()
    if not rows:
        console.print("No invites yet. Make one with: fbagent annotators invite NAME")
        return

    def when(ts: str | None) -> str:
        return "never" if ts is None else ts[:16].replace("T", " ")

    cols = [Col("annotator", wrap="path", min_width=12), Col("link"), Col("link expires", wrap="words"),
            Col("sessions", "right", short="sess."), Col("session expires", wrap="words", drop=1),
            Col("last seen", wrap="words")]
    print_table(console, cols, [
        [r["annotator"], r["link"], when(r["link_expires_at"]), str(r["sessions"]),
         "-" if r["session_expires_at"] is None else when(r["session_expires_at"]), when(r["last_seen_at"])]
        for r in rows], title=f"Annotators invited in {db_path(db)}", caption="times in UTC", wide=wide)


@app.command("revoke")
def revoke_cmd(
    name: Annotated[str, typer.Argument(help="The annotator whose links and browser sessions end now.")],
    db: ExistingDbOption = DEFAULT_DB,
) -> None:
    """End NAME's open links and browser sessions; a running `annotate --serve` closes NAME's apps within a second."""
    database = _open(db)
    if name not in known_names(database):
        raise FbagentError(f"{name!r} was never invited", "see the names with: fbagent annotators list")
    done = revoke(database, name)
    echo(f"{name}: revoked {done['links']} open link(s) and {done['sessions']} browser session(s);"
               " answers stay stored.")


@app.command("status")
def status_cmd(
    status: Annotated[str, typer.Option("--status", help="Item statuses in scope, comma list or 'all'.")] = "verified,flagged",
    db: ExistingDbOption = DEFAULT_DB,
    wide: WideOption = False,
) -> None:
    """Who judged how much (pair tasks judged on the current text, left), each annotator's agreement with the
    majority of the others and attention checks so far, the entries judged, disputes and the second round.
    Reads the database only."""
    database = open_db(db_path(db), create=False, read_only=True, on_upgrade=upgrade_note)
    ids = [r["id"] for r in select_items(database, statuses=parse_statuses(status))]
    entries = score_entries(database, ids)
    team = team_status(database, entries=entries)
    console = new_console()
    if not team["annotators"]:
        console.print("Nobody has annotated yet. Start with: fbagent annotate --annotator NAME")
        return
    rel = {a["annotator"]: a for a in validation.reliability_report(entries, resamples=1)["annotators"]}

    def pct(v: float | None) -> str:
        return "n/a" if v is None else f"{100 * v:.1f}%"

    # agreement needs an entry judged whole by two annotators (as validate report's Table 8): before that, pair
    # tasks two annotators happened to share give 0% or 100% over one or two of them, which says nothing yet
    alone = team["panel"] < 2

    cols = [Col("annotator", wrap="path", min_width=10), Col("judged", "right"), Col("left", "right"),
            Col("entries", "right"), Col("majority", "right"), Col("attention", "right"),
            Col("last active", wrap="words", drop=1)]
    rows = [[a["annotator"], f"{a['judged']}/{a['tasks']}", str(a["left"]), str(a["entries"]),
             "n/a" if alone else pct(rel.get(a["annotator"], {}).get("majority_agreement")),
             pct(rel.get(a["annotator"], {}).get("attention_accuracy")),
             "never" if a["last_active"] is None else a["last_active"][:16].replace("T", " ")]
            for a in team["annotators"]]
    print_table(console, cols, rows, title="Annotators: pair tasks judged on the current text, left, agreement so far",
                caption="majority: agreement with the majority of the others"
                + (" (n/a: no entry has two annotators yet)" if alone else "") + "; times in UTC", wide=wide)
    panel = f" ({team['full_panel']} by {team['panel']} annotators)" if team["judged"] else ""
    line = (f"{team['judged']}/{team['entries']} entries judged{panel}; {team['decided']}/{team['disputed']} "
            "disputed entries decided (fbagent annotate --mode adjudicate); "
            f"{team['second_round_pending']} waiting for a second round (fbagent annotate --second-round)")
    # under the table, at its width: wrapped at spaces, never inside the commands it names
    console.print(fit_line(line, console.width), soft_wrap=True, markup=False, highlight=False)
