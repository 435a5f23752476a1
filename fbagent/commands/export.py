"""`fbagent export`: entries as JSONL (fbagent format or the FrameBench authors' column names), a
Hugging Face dataset folder (``--format hf``) or an lm-evaluation-harness task folder (``--format lm-eval``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fbagent import publish
from fbagent.commands.audit import encoder_embed
from fbagent.commands.options import (
    DEFAULT_DB,
    DEFAULT_STATUS,
    ExistingDbOption,
    name_check,
    parse_statuses,
)
from fbagent.commands.output import echo, secho, upgrade_note
from fbagent.commands.output import hint as output_hint
from fbagent.errors import FbagentError
from fbagent.files import is_stream
from fbagent.framenet.spdx import export_licence
from fbagent.publish import formats
from fbagent.publish.jsonl import validated_hint
from fbagent.publish.options import HfOptions, LmEvalOptions, Scope
from fbagent.seeds import DEFAULT_SEED
from fbagent.store.db import open_db
from fbagent.store.pairs import run_protocols

if TYPE_CHECKING:
    import sqlite_utils


def register(app: typer.Typer) -> None:
    """Add the `export` command to the root app."""

    @app.command("export")
    def export(
        out: Annotated[Path, typer.Argument(help="Output JSONL file (- for standard output), or the folder "
                                            "of --format hf / lm-eval (written to a temporary file or folder, then "
                                            "renamed).")],
        validated: Annotated[bool, typer.Option("--validated", help="Only entries that pass the human filter.")] = False,
        run: Annotated[str | None, typer.Option("--run", callback=name_check("run name"), help="Only entries of this generation run (name or id).")] = None,
        fmt: Annotated[str, typer.Option("--format", help=formats.help_text() + ".")] = formats.DEFAULT,
        min_correct: Annotated[int, typer.Option("--min-correct", help="Filter: at least this many annotators judged the entry correct.")] = 2,
        min_acceptable: Annotated[int, typer.Option("--min-acceptable", help="Filter: at least this many annotators judged it acceptable.")] = 2,
        status: Annotated[str, typer.Option("--status", help="Item statuses to export, comma list or 'all'.")] = DEFAULT_STATUS,
        annotator_names: Annotated[bool, typer.Option(
            "--annotator-names", help="fbagent and hf: publish annotator names (default: annotator_1..n, one "
            "numbering per database; the card says which).")] = False,
        license: Annotated[str | None, typer.Option("--license", help="hf: the card's licence (a Hugging Face licence id). "
                                                    "Default: the terms of the exported lexicons (CC BY from Berkeley "
                                                    "FrameNet; non-commercial and share-alike terms carried over). A "
                                                    "licence that drops such a term is refused.")] = None,
        force_license: Annotated[bool, typer.Option("--force-license", help="hf: publish under --license even where "
                                                    "it drops a non-commercial or share-alike term of a source (only if "
                                                    "you hold other rights to it; the card says so).")] = False,
        pretty_name: Annotated[str | None, typer.Option("--pretty-name", help="hf: the card's title (default: from the languages).")] = None,
        repo_id: Annotated[str | None, typer.Option("--repo-id", help="hf: the dataset's Hub id OWNER/NAME, written into the card's load_dataset and upload commands.")] = None,
        homepage: Annotated[str | None, typer.Option("--homepage", help="hf: fbagent's source repository URL for the card's install line (default: the package's \\[project.urls]).")] = None,
        curators: Annotated[str | None, typer.Option("--curators", help="hf: who curated the data (names, affiliations), for the card.")] = None,
        seed: Annotated[int, typer.Option("--seed", help="lm-eval: seed of the option orders (as `eval run --seed`).")] = DEFAULT_SEED,
        templates: Annotated[str, typer.Option("--templates", help="lm-eval: all, or a list such as v1,v3 (as `eval run`).")] = LmEvalOptions.templates,
        templates_dir: Annotated[Path | None, typer.Option(
            "--templates-dir", help="lm-eval: templates folder in the FrameBench authors' layout (as `eval run`).")] = None,
        choices_style: Annotated[str | None, typer.Option("--choices-style", help="lm-eval: inline or lines (as `eval run`).")] = None,
        templates_lang: Annotated[str | None, typer.Option("--templates-lang", help="lm-eval: one language's templates for every entry.")] = None,
        orders: Annotated[str, typer.Option("--orders", help="lm-eval: both or canonical sentence orders (as `eval run`).")] = LmEvalOptions.orders,
        labels_file: Annotated[Path | None, typer.Option(
            "--labels", help="lm-eval: file of the four option labels (as `eval run --labels`).")] = None,
        exclude_shortcut: Annotated[bool, typer.Option(
            "--exclude-shortcut", help="Leave out the entries `fbagent audit` flags as shortcut (every baseline "
            "above chance picks the gold sentence; loads the sentence encoder).")] = False,
        db: ExistingDbOption = DEFAULT_DB,
    ) -> None:
        """Export entries; revised text replaces generated text; "cannot be fixed" entries are left out.

        --validated keeps the entries whose current (revised) text passes the filter on judgments of
        that text. --format hf writes a folder that `datasets.load_dataset(OUT)` loads; --format lm-eval
        a folder for `lm_eval --include_path OUT --tasks framebench_<lang>`. Reads the database read-only.
        """
        formats.check_format(fmt)
        if not Path(db).exists():
            raise FbagentError(f"database {db} does not exist", "pass --db PATH of the database with generated entries")
        database = open_db(db, read_only=True, on_upgrade=upgrade_note)
        scope = Scope(run=run, validated=validated, min_correct=min_correct, min_acceptable=min_acceptable,
                      statuses=parse_statuses(status))
        if exclude_shortcut:
            scope = replace(scope, exclude=shortcut_exclusions(database, scope))
        chosen = export_licence(license)  # a near miss (cc-by-4) read as its Hub id, said; a wrong id refused
        if chosen is not None and chosen.note:
            echo(f"note: {chosen.note}", err=True)
        hf = HfOptions(annotator_names=annotator_names, license=chosen.text if chosen else None, force_license=force_license,
                       pretty_name=pretty_name, repo_id=repo_id, homepage=homepage, curators=curators)
        lmeval = LmEvalOptions(seed=seed, templates=templates, templates_dir=templates_dir, choices_style=choices_style,
                               templates_lang=templates_lang, orders=orders, labels_file=labels_file)
        _export(database, out, fmt, scope, hf, lmeval)
        echo(protocol_line(database, run), err=is_stream(out))
        if validated:  # one annotator, or a filter that keeps nothing: say which thresholds fit
            hint = validated_hint(database, run=run, min_correct=min_correct, min_acceptable=min_acceptable,
                                  statuses=parse_statuses(status))
            if hint:
                output_hint(hint)


def shortcut_exclusions(database: sqlite_utils.Database, scope: Scope) -> tuple[str, ...]:
    """Run the shortcut audit (:func:`fbagent.audit.sources.shortcut_ids`, the sentence encoder as `fbagent audit`
    uses it) over what the export of ``scope`` would write; say how many entries it leaves out (stderr)."""
    embed, name = encoder_embed(None)
    ids, result = publish.shortcut_ids(database, scope.export_options(), embed=embed, encoder=name)
    above = [r["name"] for r in result["baselines"] if r.get("beats_chance")]
    secho(f"--exclude-shortcut: left out {len(ids):,} of {result['entries']:,} entries flagged shortcut "
          f"(baselines above chance: {', '.join(above) or 'none'}; {result['convention']})", err=True)
    return tuple(ids)


def protocol_line(database: sqlite_utils.Database, run: str | None) -> str:
    """One line naming the frame-pair selection protocol of the exported runs (``fbagent`` or ``framebench``)."""
    by_run = run_protocols(database, run)
    if not by_run:
        return "frame-pair selection protocol: not recorded (no run with a selection)"
    names = sorted(set(by_run.values()))
    return (f"frame-pair selection protocol: {' and '.join(names)} "
            f"({', '.join(f'{r}: {p}' for r, p in by_run.items())})")


def _export(database: sqlite_utils.Database, out: Path, fmt: str, scope: Scope, hf: HfOptions,
            lmeval: LmEvalOptions) -> None:
    """Write ``scope``'s entries of ``database`` to ``out`` in ``fmt`` and say how many (one line)."""
    res = publish.export_entries(database, out, fmt, scope, hf, lmeval)
    err = is_stream(out)   # the entries go to standard output (`-`, /dev/stdout, a pipe): these lines to stderr
    n = res["entries"]
    what = f"{n} {'validated ' if scope.validated else ''}{'entry' if n == 1 else 'entries'}"
    if fmt == "hf":
        langs = ", ".join(f"{k}: {v}" for k, v in res["languages"].items())
        echo(f"wrote {what} ({langs}) as a Hugging Face dataset folder to {out}; licence {res['license']} "
             f"({res['license_how']})", err=err)
        if res.get("license_dropped"):
            secho("warning: --force-license: the card's licence drops terms of its sources ("
                  + "; ".join(f"{n}: {', '.join(t)}" for n, _, t in res["license_dropped"]) + ")", err=True)
    elif fmt == "lm-eval":
        probs = ", ".join(f"{k}: {v}" for k, v in res["problems"].items())
        echo(f"wrote {len(res['tasks'])} lm-eval tasks in groups {', '.join(res['groups'])} "
             f"({what}, problems {probs}) to {out}", err=err)
    else:
        echo(f"wrote {what} ({fmt} format) to {'standard output' if str(out) == '-' else out}", err=err)
