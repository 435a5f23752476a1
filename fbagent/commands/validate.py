"""`fbagent validate` commands: the agreement and filter report of human validation."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fbagent import validation
from fbagent.commands.options import (
    DEFAULT_DB,
    DEFAULT_STATUS,
    ExistingDbOption,
    name_check,
    parse_statuses,
)
from fbagent.commands.output import echo, hint, new_console, upgrade_note
from fbagent.commands.tables import Col, WideOption, print_table
from fbagent.errors import FbagentError
from fbagent.files import write_atomic
from fbagent.seeds import DEFAULT_SEED
from fbagent.store.annotations import select_items
from fbagent.store.db import open_db
from fbagent.validation.aggregate import (
    render_csv,
    render_json,
    render_markdown,
    report_with_entries,
    tables,
)

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(help="Human validation: agreement, filter and human accuracy.", no_args_is_help=True)

FORMATS = ("table", "md", "csv", "json")


@app.command("report")
def report(
    run: Annotated[str | None, typer.Option("--run", callback=name_check("run name"), help="Only entries of this generation run (name or id).")] = None,
    min_correct: Annotated[int, typer.Option("--min-correct", help="Keep entries judged correct by at least this many annotators.")] = 2,
    min_acceptable: Annotated[int, typer.Option("--min-acceptable", help="Keep entries judged acceptable by at least this many annotators.")] = 2,
    status: Annotated[str, typer.Option("--status", help="Item statuses in scope, comma list or 'all'.")] = DEFAULT_STATUS,
    fmt: Annotated[str, typer.Option("--format", help="table (terminal), md, csv or json.")] = "table",
    out: Annotated[Path | None, typer.Option("--out", help="Write the report to this file instead of the terminal. \\[default: none: printed]")] = None,
    resamples: Annotated[int, typer.Option("--resamples", min=1, help="Bootstrap resamples (entries drawn with replacement) of the agreement intervals.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap draws.")] = DEFAULT_SEED,
    db: ExistingDbOption = DEFAULT_DB,
    wide: WideOption = False,
) -> None:
    """Judgments per entry (current / stale / pending), Table 2 counts, positive rate per annotator,
    3/3 agreement and Fleiss' kappa, Krippendorff's alpha and pairwise Cohen's kappa with bootstrap
    intervals, per-annotator checks and drift, human accuracy; only judgments of the current (revised)
    text count.

    Reads the database read-only (works on a file without write permission).
    """
    if fmt not in FORMATS:
        raise FbagentError(f"--format {fmt!r} is not a report format", f"pass --format {', '.join(FORMATS)}")
    if min_correct < 0 or min_acceptable < 0:
        raise FbagentError("--min-correct/--min-acceptable must be >= 0", "pass e.g. --min-correct 2 --min-acceptable 2")
    if not Path(db).exists():
        raise FbagentError(f"database {db} does not exist", "pass --db PATH of the database the annotators used")

    database = open_db(db, read_only=True, on_upgrade=upgrade_note)
    rep, entries = report_with_entries(database, run=run, statuses=parse_statuses(status), min_correct=min_correct,
                                       min_acceptable=min_acceptable)
    rep["reliability"] = validation.reliability_report(entries, seed=seed, resamples=resamples)
    rep["human_scores"] = validation.human_scores(database, rep, [i["id"] for i in select_items(
        database, run=run, statuses=parse_statuses(status))])
    if fmt == "table":
        if out is None:
            print_report(new_console(), rep, wide)
            _hint(rep)
            return
        buf = io.StringIO()
        print_report(new_console(file=buf, width=120, color_system=None), rep, wide)
        text = buf.getvalue()
    else:
        text = {"md": render_markdown, "csv": render_csv, "json": render_json}[fmt](rep)
    if out is None:
        echo(text, nl=False)
    else:
        write_atomic(out, [text], example=f"report.{'txt' if fmt == 'table' else fmt}")
        echo(f"wrote {out}")
    _hint(rep)


# columns given up on a narrow terminal, the highest level first, before a long first cell (a model file name
# such as gemma-3-270m-q4_k_m.gguf) would be broken; --wide shows them
DROP = {"judgments saved": 2, "agreement": 1}

# headers shown abbreviated when a table does not fit the terminal (a legend line says what they mean)
SHORT = {"verified+kept": "V+K", "verified+dropped": "V+D", "flagged+kept": "F+K", "flagged+dropped": "F+D",
         "precision": "prec.", "recall": "rec.", "agreement": "agr.", "Cohen's kappa": "kappa",
         "judgments saved": "saved", "correct": "corr.", "acceptable": "accept.", "extended": "ext.",
         "both (check)": "both", "neither (check)": "neither", "median s/task": "s/task", "positive": "pos.",
         "full agreement": "full", "Fleiss' kappa": "kappa", "subjects": "subj."}


def print_report(console: Console, rep: dict, wide: bool = False) -> None:
    """The report's tables (:func:`fbagent.validation.aggregate.tables`) on ``console``, each fitted to its
    width (:func:`fbagent.commands.tables.print_table`): the first column at the left, the numbers right."""
    for title, header, rows in tables(rep):
        cols = [Col(h, "left" if i == 0 else "right", short=SHORT.get(h, "") if i else "", drop=DROP.get(h, 0) if i else 0,
                    wrap="words" if i == 0 or any(" " in r[i] for r in rows) else "none")  # numbers never break
                for i, h in enumerate(header)]
        print_table(console, cols, rows, title=title, wide=wide)


def _hint(rep: dict) -> None:
    """The filter hint (one annotator, or a filter that keeps nothing: which thresholds fit), on stderr."""
    if rep.get("filter_hint"):
        hint(rep["filter_hint"])
