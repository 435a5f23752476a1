"""`fbagent annotators invite|list|revoke`: who may open `fbagent annotate --serve` in a browser."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fbagent.commands.options import DEFAULT_DB, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, new_console
from fbagent.commands.tables import Col, WideOption, print_table
from fbagent.errors import FbagentError
from fbagent.serve.options import public_url as check_url
from fbagent.serve.tokens import create_invite, parse_duration
from fbagent.store.competence import competence as recorded
from fbagent.store.competence import parse_competence, record_competence
from fbagent.store.db import open_db
from fbagent.store.invites import known_names, overview, revoke

if TYPE_CHECKING:
    import sqlite_utils

app = typer.Typer(help="Invite annotators to the browser app (annotate --serve): one-time links, list, revoke.",
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
    competence: Annotated[str | None, typer.Option(
        "--competence", help="NAME's competence in each language they will annotate, as they state it: LANG=LEVEL, "
                             "LEVEL one of native, near-native, fluent, basic (e.g. en=native,ja=fluent); the dataset "
                             "card reports it.")] = None,
    db: ExistingDbOption = DEFAULT_DB,
) -> None:
    """Print a one-time link for NAME; its token is stored hashed. A new invite revokes NAME's unused links."""
    lifetime = parse_duration(expires)
    base = check_url("127.0.0.1", 8000, public_url or DEFAULT_URL, tls=False)
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
