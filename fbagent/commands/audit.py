"""`fbagent audit`: shortcut baselines, near-duplicates and distributions of a benchmark (:mod:`fbagent.audit`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fbagent import audit as audit_room
from fbagent import publish, verifier
from fbagent.audit import render, sources
from fbagent.audit.plots import write_plots
from fbagent.commands.options import DEFAULT_DB, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, new_console
from fbagent.commands.tables import Col, WideOption, print_table
from fbagent.errors import FbagentError
from fbagent.eval.choices import DEFAULT_ORDERS, ORDER_CHOICES
from fbagent.files import make_folder
from fbagent.seeds import DEFAULT_SEED
from fbagent.store.db import open_db

if TYPE_CHECKING:
    from numpy import ndarray

    from fbagent.audit.audit import AuditResult
    from fbagent.audit.baselines import Embed
    from fbagent.audit.sources import AuditInput

FORMATS = ("table", "md", "json", "csv")


def register(app: typer.Typer) -> None:
    """Add the `audit` command to the root app."""

    @app.command("audit")
    def audit(
        run: Annotated[str | None, typer.Option("--run", callback=name_check("run name"),
                                                help="Audit the entries of this generation run (as export writes them).")] = None,
        dataset: Annotated[Path | None, typer.Option("--dataset", "-d", help="Audit a JSONL file (fbagent export or the "
                                                     "FrameBench authors' columns) or a folder from export --format hf, "
                                                     "read as `eval run` reads it.")] = None,
        lexicon: Annotated[str | None, typer.Option("--lexicon", callback=name_check("lexicon name"), help="With --dataset: "
                                                    "take frame definitions and relations from this stored lexicon.")] = None,
        lang: Annotated[str, typer.Option("--lang", help="With --dataset: language of lines without one.")] = "en",
        fmt: Annotated[str, typer.Option("--format", help="table (terminal), md, json or csv (baselines).")] = "table",
        plots: Annotated[Path | None, typer.Option("--plots", help="Write baselines.png and distributions.png into "
                                                   "this folder.")] = None,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the option mapping (as eval run) and of the "
                                          "bootstrap.")] = DEFAULT_SEED,
        resamples: Annotated[int, typer.Option("--resamples", min=100, help="Bootstrap resamples of the 95% "
                                               "interval.")] = 1000,
        orders: Annotated[str, typer.Option("--orders", help="both or canonical sentence orders (as eval run).")] = DEFAULT_ORDERS,
        encoder: Annotated[str | None, typer.Option("--encoder", help="Sentence encoder of the similarity baseline "
                                                    "(default: the verifier's, offline).")] = None,
        no_encoder: Annotated[bool, typer.Option("--no-encoder", help="Skip the encoder baseline (near-duplicates "
                                                 "then by Jaccard of lemmas).")] = False,
        near_duplicate: Annotated[float, typer.Option("--near-duplicate", min=0.0, max=1.0, help="Similarity above "
                                                      "which two entries of one verb are near-duplicates.")] = 0.95,
        show: Annotated[int, typer.Option("--show", min=0, help="List the first N flagged entries.")] = 10,
        db: ExistingDbOption = DEFAULT_DB,
        wide: WideOption = False,
    ) -> None:
        """Can the items be solved without understanding them? Shortcut baselines over the evaluation
        problems (word overlap, length, verb form, encoder similarity, question-frame overlap), each with
        accuracy, a 95% bootstrap interval and chance; near-duplicates; distributions; a per-entry
        `shortcut` flag. Reads the database read-only."""
        if fmt not in FORMATS:
            raise FbagentError(f"unknown --format {fmt!r}", f"pass --format {', '.join(FORMATS)}")
        if orders not in ORDER_CHOICES:
            raise FbagentError(f"unknown --orders {orders!r}", f"pass --orders {' or '.join(ORDER_CHOICES)}")
        if plots is not None:   # before the audit's minutes: a file or an unwritable place is refused now
            make_folder(plots, "--plots folder", "pass --plots with a new or existing folder")
        source = load_source(run, dataset, lexicon=lexicon, lang=lang, db=db)
        embed, name = (None, None) if no_encoder else encoder_embed(encoder)
        options = audit_room.AuditOptions(seed=seed, resamples=resamples, near_duplicate=near_duplicate, encoder=name,
                               orders=ORDER_CHOICES[orders])
        result = audit_room.run_audit(source.entries, options, definitions=source.definitions, relations=source.relations,
                           embed=embed)
        result["source"] = source.source
        written = [str(p) for p in _plots(result, plots)]
        _render(result, fmt, show=show, wide=wide, plots=written)


def load_source(run: str | None, dataset: Path | None, *, lexicon: str | None, lang: str, db: Path | None) -> AuditInput:
    """The :class:`fbagent.audit.sources.AuditInput` of ``--run`` (the database, read-only) or ``--dataset``."""
    if (run is None) == (dataset is None):
        raise FbagentError("pass exactly one of --run and --dataset",
                           "e.g. fbagent audit --run NAME, or fbagent audit --dataset validated.jsonl")
    path = db_path(db)
    if run is not None:
        if not path.exists():
            raise FbagentError(f"database {path} does not exist", "pass --db PATH of the database with the run")
        return publish.run_entries(open_db(path, read_only=True), run)
    database = open_db(path, read_only=True) if lexicon and path.exists() else None
    if lexicon and database is None:
        raise FbagentError(f"--lexicon {lexicon}: database {path} does not exist", "pass --db PATH or drop --lexicon")
    assert dataset is not None   # --dataset or --run is required (checked above)
    return sources.dataset_entries(dataset, lang=lang, db=database, lexicon=lexicon)


def encoder_embed(name: str | None) -> tuple[Embed, str]:
    """``(texts -> unit rows, encoder name)`` of the sentence encoder (loaded offline; :class:`FbagentError` if absent)."""
    verifier.load_encoder(name)   # fail now, with the fix, rather than mid-audit

    def run(texts: list[str]) -> ndarray:
        return verifier.embed(texts, name)

    return run, name or verifier.DEFAULT_ENCODER


def _plots(result: AuditResult, folder: Path | None) -> list[Path]:
    if folder is None:
        return []

    return write_plots(result, folder)


def _render(result: AuditResult, fmt: str, *, show: int, wide: bool, plots: list[str]) -> None:
    """Print ``result`` in ``fmt``; the table form fits the terminal (:func:`fbagent.commands.tables.print_table`)."""
    if fmt != "table":
        echo({"md": render.markdown, "json": render.json_text, "csv": render.csv_text}[fmt](result).rstrip("\n"))
        return

    console = new_console()
    print_table(console, [Col("baseline", wrap="path"), Col("accuracy %", "right", short="acc."),
                          Col("95% interval", "right", short="95% CI"), Col("chance %", "right", short="chance"),
                          Col("verdict", wrap="words")],
                [render.baseline_cells(r) for r in result["baselines"]], wide=wide,
                title=f"Shortcut audit of {result['source']}: {render.count(result['entries'], 'entry', 'entries')}, "
                      f"{render.count(result['problems'], 'problem')}")
    for line in render.summary_lines(result):
        console.print(line, highlight=False)
    flagged = result["flagged"][:show]
    if flagged:
        console.print(f"Flagged (first {len(flagged)}): {', '.join(flagged)}", highlight=False)
    for path in plots:
        console.print(f"wrote {path}", highlight=False)
