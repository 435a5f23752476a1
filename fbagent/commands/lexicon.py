"""`fbagent lexicon add|list|show`: import FrameNet-style lexicons and inspect them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from fbagent import checks
from fbagent import lexicon as lexicon_room
from fbagent.commands.options import DEFAULT_DB, DbOption, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, fit_line, new_console
from fbagent.commands.tables import Col, WideOption, print_table, wrap_text
from fbagent.errors import FbagentError
from fbagent.store.db import holds_rows, open_db
from fbagent.store.lexicon import lexicon_stats, list_lexicons

if TYPE_CHECKING:
    import sqlite_utils
    from rich.console import Console

    from fbagent.lexicon.importer import ImportResult

app = typer.Typer(
    help="Lexicons: import a FrameNet of any language (NLTK XML layout or JSONL), list them, show counts.",
    no_args_is_help=True,
)


@app.command("add")
def add_cmd(
    path: Annotated[Path, typer.Argument(help="NLTK-layout FrameNet folder (frameIndex.xml, luIndex.xml, frame/) "
                                              "or a .zip of one, a JSONL frames file, a folder with frames.jsonl, or an NLTK corpus "
                                              "name such as framenet_v17 (looked up under NLTK_DATA).")],
    lang: Annotated[str, typer.Option("--lang", help="Language code of the lexicon (BCP 47 / ISO 639): en, fr, ja, "
                                      "nl-BE, nld (stored as nl); a name such as Dutch is refused with its code.")],
    name: Annotated[str | None, typer.Option("--name", callback=name_check("lexicon name"), help="Lexicon name (default: the folder or file name): letters "
                                                            "and digits of any script and _ . + @ -. "
                                                            "Re-adding a name replaces that lexicon.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="auto | nltk | jsonl (auto: by what PATH holds).")] = "auto",
    exemplars: Annotated[Path | None, typer.Option("--exemplars", help="JSONL only: exemplars file "
                                                   "(default: exemplars.jsonl / NAME.exemplars.jsonl next to it).")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="NLTK layout: treat dangling references (an LU whose frame "
                                         "has no frame file, an lu/*.xml that disagrees with the index, an LU marked "
                                         "hasAnnotation without its lu/*.xml) as errors instead of warnings.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Import a lexicon into the database, in one transaction.

    Re-adding the same resource under the same name reports "unchanged"; a
    changed one replaces the old content. A broken resource (missing index,
    malformed XML, bad JSONL line, a file linked from outside the folder) is
    reported with its file (and line) and nothing is imported; a failed first
    import leaves no database file behind.
    """
    if fmt not in lexicon_room.FORMATS:
        raise FbagentError(f"unknown --format {fmt!r}", "pass --format auto, nltk or jsonl")
    err = new_console(stderr=True)
    out = new_console()
    target = db_path(db)
    created = str(target) != ":memory:" and not Path(target).exists()
    database = open_db(target)
    try:
        result = _import(database, err, path, lang=lang, name=name, fmt=fmt, strict=strict, exemplars=exemplars)
    except BaseException:
        if created:
            _remove_new_database(database, Path(target))
        raise

    # wrapped at spaces, never inside a path or a command (a path wider than the terminal gets a line of its own)
    # (on a terminal only: a pipe or file gets each note on one line, as every other message)
    width = err.width if err.is_terminal else 1 << 30
    for note in [*result.notes, checks.verb_check_line(result.lang)]:
        err.print(fit_line(f"note: {note}", width), style="dim", highlight=False, markup=False, soft_wrap=True)
    for w in result.warnings:
        err.print(fit_line(f"warning: {w}", width), style="yellow", highlight=False, markup=False, soft_wrap=True)
    c = result.counts
    what = {"imported": "Imported", "replaced": "Replaced", "unchanged": "Unchanged (same content hash):"}[result.status]
    out.print(
        f"{what} lexicon [bold]{escape(result.name)}[/] ({result.lang}, {result.format}): {c['n_frames']:,} frames, "
        f"{c['n_frame_elements']:,} FEs, {c['n_lexical_units']:,} LUs, {c['n_exemplars']:,} exemplars, "
        f"{c['n_frame_relations']:,} frame relations in {result.seconds:.1f} s. "
        f"See the counts with: fbagent lexicon show {escape(result.name)}",
        highlight=False,
    )


def _remove_new_database(database: sqlite_utils.Database, path: Path) -> None:
    """Delete the database file a failed first import created (and its -wal/-shm), if it holds no row at all."""
    if holds_rows(database):
        return  # someone else wrote to it meanwhile: keep it
    database.close()
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _import(database: sqlite_utils.Database, err: Console, path: Path, *, lang: str, name: str | None, fmt: str,
            strict: bool, exemplars: Path | None) -> ImportResult:
    """Run the import with a progress bar on a terminal; the other JSONL problems go to stderr on one line."""
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if not err.is_terminal:
                return
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        try:
            return lexicon_room.import_lexicon(database, path, lang=lang, name=name, fmt=fmt, strict=strict,
                                  exemplars=exemplars, progress=progress)
        except lexicon_room.LexiconFormatError as e:  # the error line names the first problem; one more line the others
            bar.stop()
            if len(e.problems) > 1:
                others = "  other problems: " + " | ".join(e.problems[1:])  # one line, wrapped at spaces on a terminal
                err.print(fit_line(others, err.width) if err.is_terminal else others, highlight=False, markup=False,
                          soft_wrap=True)
            raise


@app.command("list")
def list_cmd(db: ExistingDbOption = DEFAULT_DB, wide: WideOption = False) -> None:
    """List the lexicons in the database: name, language, format, counts, import time, source."""
    rows = list_lexicons(open_db(db_path(db), read_only=True))
    console = new_console()
    if not rows:
        console.print("No lexicon yet. Add one with: fbagent lexicon add PATH --lang LANG "
                      "(commands use the embedded sample 'sample-en' until then).")
        return
    cols = [Col("name", wrap="path", min_width=16), Col("lang"), Col("format", short="fmt"), Col("frames", "right"),
            Col("LUs", "right"), Col("exemplars", "right", short="ex."), Col("relations", "right", short="rel."),
            Col("imported", wrap="words", drop=2), Col("source", wrap="path", drop=1)]
    print_table(console, cols, [
        [r["name"], r["lang"], r["format"], f"{r['n_frames'] or 0:,}", f"{r['n_lexical_units'] or 0:,}",
         f"{r['n_exemplars'] or 0:,}", f"{r['n_frame_relations'] or 0:,}",
         (r["imported_at"] or "")[:19].replace("T", " "), r["source_path"] or ""] for r in rows],
        title=f"Lexicons in {db_path(db)}", wide=wide)


def _show_note(message: str) -> None:
    """Print a lexicon-choice note on stderr, naming the way `show` takes a lexicon (a positional NAME)."""
    echo(message.replace("choose one with --lexicon NAME", "choose one with `fbagent lexicon show NAME`"), err=True)


@app.command("show")
def show_cmd(
    name: Annotated[str | None, typer.Argument(callback=name_check("lexicon name"), help="Lexicon name (default: the only or most recent one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Counts of one lexicon: frames, FEs, LUs by POS, verbs with 2+ frames, candidate frame pairs, exemplars."""
    path = db_path(db)
    database = open_db(path, read_only=True) if path.exists() else open_db(path)
    if lexicon_room.needs_embedded(database, name):
        database = open_db(path)  # resolve_lexicon imports the embedded sample (a write)
    row = lexicon_room.resolve_lexicon(database, name, notify=_show_note)
    stats = lexicon_stats(database, row["id"])
    if as_json:
        echo(json.dumps({"lexicon": row, "counts": stats}, ensure_ascii=False, indent=2))
        return

    rows = [["frames", f"{stats['frames']:,}"],
            ["frame elements (core)", f"{stats['frame_elements']:,} ({stats['core_frame_elements']:,})"],
            ["lexical units", f"{stats['lexical_units']:,}"],
            *([f"  LUs with POS {pos}", f"{n:,}"] for pos, n in stats["lus_by_pos"].items()),
            ["verbs (lemmas with a V LU)", f"{stats['verbs']:,}"],
            ["verbs with 2+ frames", f"{stats['polysemous_verbs']:,}"],
            ["candidate frame pairs", f"{stats['candidate_pairs']:,}"],
            ["exemplars", f"{stats['exemplars']:,}"],
            ["frame <ex> examples", f"{stats['frame_examples']:,}"],
            ["frame relations", f"{stats['frame_relations']:,}"]]
    console = new_console()
    print_table(console, [Col("what", wrap="words", style="bold"), Col("count", "right")], rows, show_header=False,
                title=f"Lexicon {row['name']} ({row['lang']}, {row['format']})")
    source = f"source: {row['source_path']}  imported: {(row['imported_at'] or '')[:19].replace('T', ' ')}"
    for line in wrap_text(source, console.width, "path"):
        console.print(line, highlight=False, markup=False)
