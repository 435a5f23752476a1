"""`fbagent db backup DEST` and `fbagent db upgrade`: a consistent copy of a live database, and the one
command (besides the writing commands) that migrates an old one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fbagent.commands.options import DEFAULT_DB, ExistingDbOption, db_path
from fbagent.commands.output import echo
from fbagent.store.backup import backup_database
from fbagent.store.db import close_db, open_db
from fbagent.store.schema import SCHEMA_VERSION

app = typer.Typer(help="The database file: a consistent backup copy, the schema upgrade.", no_args_is_help=True)


@app.command("backup")
def backup_cmd(
    dest: Annotated[Path, typer.Argument(help="New file for the copy (a folder: the same file name in it); "
                                              "never overwritten.")],
    db: ExistingDbOption = DEFAULT_DB,
) -> None:
    """Copy the database into DEST with SQLite's online backup API: one consistent snapshot with every
    committed row (the write-ahead log included), taken while annotators and a run go on writing. Use it
    instead of cp: a copied .db file lacks the rows still in its -wal file."""
    done = backup_database(db_path(db), dest)
    echo(f"backed up {done['source']} to {done['dest']}: {done['bytes']:,} bytes ({done['pages']:,} pages) "
         f"in {done['seconds']:.2f} s")


@app.command("upgrade")
def upgrade_cmd(db: ExistingDbOption = DEFAULT_DB) -> None:
    """Upgrade a database written by an older fbagent to this version's schema, after a backup copy
    beside it (NAME.vN.bak). Read commands never upgrade; writing commands (generate, annotate, lexicon
    add, pairs select) do it as this command does."""
    upgraded: dict = {}
    close_db(open_db(db_path(db), create=False, on_upgrade=upgraded.update))
    if upgraded:
        echo(f"upgraded {db_path(db)} from schema version {upgraded['from']} to {upgraded['to']}; the copy taken "
             f"before is {upgraded['backup']}")
    else:
        echo(f"{db_path(db)} has schema version {SCHEMA_VERSION} already: nothing to do")
