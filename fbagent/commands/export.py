"""`fbagent export`: entries as JSONL (fbagent format or the FrameBench authors' column names)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fbagent.commands.output import echo
from fbagent.options import DEFAULT_DB, DbOption, name_check


def register(app: typer.Typer) -> None:
    """Add the `export` command to the root app."""

    @app.command("export")
    def export(
        out: Annotated[Path, typer.Argument(help="Output JSONL file (written to a temp file, then renamed).")],
        validated: Annotated[bool, typer.Option("--validated", help="Only entries that pass the human filter.")] = False,
        run: Annotated[str | None, typer.Option("--run", callback=name_check("run name"), help="Only entries of this generation run (name or id).")] = None,
        fmt: Annotated[str, typer.Option("--format", help="fbagent (all fields + human block) or framebench (the authors' column names).")] = "fbagent",
        min_correct: Annotated[int, typer.Option("--min-correct", help="Filter: at least this many annotators judged the entry correct.")] = 2,
        min_acceptable: Annotated[int, typer.Option("--min-acceptable", help="Filter: at least this many annotators judged it acceptable.")] = 2,
        status: Annotated[str, typer.Option("--status", help="Item statuses to export, comma list or 'all'.")] = "verified,flagged",
        db: DbOption = DEFAULT_DB,
    ) -> None:
        """Write one JSON object per entry; revised text replaces generated text; "cannot be fixed" entries are left out.

        --validated keeps the entries whose current (revised) text passes the
        filter on judgments of that text. Reads the database read-only.
        """
        from fbagent.commands.annotate import parse_statuses, upgrade_note
        from fbagent.errors import FbagentError
        from fbagent.export import export as run_export
        from fbagent.store import open_db

        if not Path(db).exists():
            raise FbagentError(f"database {db} does not exist", "pass --db PATH of the database with generated entries")
        n = run_export(
            open_db(db, read_only=True, on_upgrade=upgrade_note), out, run=run, fmt=fmt, validated=validated,
            min_correct=min_correct, min_acceptable=min_acceptable, statuses=parse_statuses(status),
        )
        what = "validated entries" if validated else "entries"
        echo(f"wrote {n} {what} ({fmt} format) to {out}")
