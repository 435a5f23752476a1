"""`fbagent lexicon add|list|show`: import FrameNet-style lexicons and inspect them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from fbagent import checks
from fbagent import lexicon as lexicon_room
from fbagent import pairs as pair_room
from fbagent.commands.options import DEFAULT_DB, DbOption, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, fit_line, new_console
from fbagent.commands.tables import Col, WideOption, print_table, wrap_text
from fbagent.errors import FbagentError
from fbagent.pairs.options import SelectionOptions
from fbagent.store.db import holds_rows, open_db
from fbagent.store.lexicon import lexicon_by_name, lexicon_provenance, lexicon_stats, list_lexicons
from fbagent.store.rows import LexiconRow

#: the --format values (the readers' names; fbagent.lexicon.FORMATS is the same list, loaded with the readers)
#: the widest licence `lexicon list` shows whole (CC-BY-NC-SA-4.0); longer words are cut with an ellipsis
LICENCE_WIDTH = 16
FORMAT_HELP = "auto | nltk | jsonl | kfn | conll2009 | starlang | swefn | odfn | lu-list"
#: below this many frame pairs an import warns (FrameBench draws 800)
FEW_PAIRS = 100

if TYPE_CHECKING:
    import sqlite_utils
    from rich.console import Console

    from fbagent.framenet.model import Provenance
    from fbagent.lexicon.importer import ImportOptions, ImportResult
    from fbagent.lexicon.provenance import Overrides

LICENSE_HELP = ("The lexicon's licence, stored with it and carried into every export's card: an SPDX id "
                "(CC-BY-SA-4.0, CC-BY-NC-SA-4.0, GPL-3.0-only) or the source's own words. Default: what the file "
                "declares, or a known release's (Berkeley FrameNet 1.5/1.7: CC-BY-4.0).")

app = typer.Typer(
    help="Lexicons: import a FrameNet of any language (NLTK XML, JSONL or a published layout), list them, show counts.",
    no_args_is_help=True,
)


@app.command("add")
def add_cmd(
    path: Annotated[Path, typer.Argument(help="NLTK-layout FrameNet folder (frameIndex.xml, luIndex.xml, frame/) "
                                              "or a .zip of one, a JSONL frames file, a folder with frames.jsonl, a Korean "
                                              "FrameNet checkout, a Turkish FrameNet framenet.xml, a folder of *.conll2009 "
                                              "files (Latvian FrameNet), a CSV/TSV/JSON LU list, or an NLTK corpus "
                                              "name such as framenet_v17 (looked up under NLTK_DATA).")],
    lang: Annotated[str, typer.Option("--lang", help="Language code of the lexicon (BCP 47 / ISO 639): en, fr, ja, "
                                      "nl-BE, nld (stored as nl); a name such as Dutch is refused with its code.")],
    name: Annotated[str | None, typer.Option("--name", callback=name_check("lexicon name"), help="Lexicon name (default: the folder or file name): letters "
                                                            "and digits of any script and _ . + @ -. "
                                                            "Re-adding a name replaces that lexicon.")] = None,
    fmt: Annotated[str, typer.Option("--format", help=f"{FORMAT_HELP} (auto: by what PATH holds; "
                                     "docs/lexicon.md describes each).")] = "auto",
    frames_from: Annotated[str | None, typer.Option("--frames-from", metavar="LEXICON", help="Take frame "
                           "definitions, frame elements and relations from this imported Berkeley FrameNet (by frame "
                           "id, else name; 1.5/1.7 renames handled). Default for layouts without frame text: the one "
                           "Berkeley FrameNet in the database.")] = None,
    columns: Annotated[str | None, typer.Option("--columns", metavar="FIELD=COL,...", help="LU lists: the column of "
                       "each field, e.g. lemma=Word,pos=Tag,frame=Frame (fields: lu, lemma, pos, frame, frame_id, "
                       "lu_id, definition, exemplar, n_annotated; default: columns named so).")] = None,
    exemplars: Annotated[Path | None, typer.Option("--exemplars", help="JSONL only: exemplars file "
                                                   "(default: exemplars.jsonl / NAME.exemplars.jsonl next to it).")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="NLTK layout: treat dangling references (an LU whose frame "
                                         "has no frame file, an lu/*.xml that disagrees with the index, an LU marked "
                                         "hasAnnotation without its lu/*.xml) as errors instead of warnings; CoNLL-2009: "
                                         "refuse a file that ends inside a row.")] = False,
    license: Annotated[str | None, typer.Option("--license", help=LICENSE_HELP)] = None,
    citation: Annotated[Path | None, typer.Option("--citation", help="BibTeX file citing the lexicon (stored; the "
                                                  "card cites it).")] = None,
    source_url: Annotated[str | None, typer.Option("--source-url", help="The lexicon's home page or repository.")] = None,
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
        raise FbagentError(f"unknown --format {fmt!r}", f"pass --format {FORMAT_HELP}")
    given = lexicon_room.import_overrides(license, citation, source_url)  # checked before the database is opened
    err = new_console(stderr=True)
    out = new_console()
    target = db_path(db)
    created = str(target) != ":memory:" and not Path(target).exists()
    database = open_db(target)
    try:
        result = _import(database, err, path, lang=lang, name=name, fmt=fmt, strict=strict, exemplars=exemplars,
                         options=lexicon_room.ImportOptions(columns=columns, frames_from=frames_from),
                         given=given)
    except BaseException:
        if created:
            _remove_new_database(database, Path(target))
        raise

    # wrapped at spaces, never inside a path or a command (a path wider than the terminal gets a line of its own)
    # (on a terminal only: a pipe or file gets each note on one line, as every other message)
    width = err.width if err.is_terminal else 1 << 30
    label = lexicon_room.FORMAT_LABELS.get(result.format, result.format)
    verb = "read by" if result.status != "unchanged" else "same content as last read by"
    reader = f"{verb} the reader for {label} (--format {result.format}; --format NAME forces another)"
    summary, few = _what_to_know(database, result.name)
    for note in [reader, *result.notes, summary, checks.verb_check_line(result.lang),
                 *([given.license_note] if given.license_note else []), lexicon_room.licence_note(result.provenance)]:
        err.print(fit_line(f"note: {note}", width), style="dim", highlight=False, markup=False, soft_wrap=True)
    for w in [*result.warnings, *few]:
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


def _pairs_possible(database: sqlite_utils.Database, lexicon: LexiconRow, protocol: str) -> int:
    """How many frame pairs a selection of ``lexicon`` could draw under ``protocol`` with the default options (the
    fbagent protocol: candidates passing its filters; framebench: the authors' pool); 0 when it offers none."""
    try:
        drawn = pair_room.draw_selection(database, lexicon, SelectionOptions(pairs=1, protocol=protocol))
    except FbagentError:
        return 0
    return int(drawn.counts["eligible"])


def _what_to_know(database: sqlite_utils.Database, name: str) -> tuple[str, list[str]]:
    """The import's closing summary line (frames, LUs, verb LUs, exemplars, polysemous verbs, the frame pairs each
    protocol could draw) and its warnings (fewer than :data:`FEW_PAIRS` pairs, no exemplar)."""
    row = lexicon_by_name(database, name)
    stats = lexicon_stats(database, row["id"])
    mine, theirs = _pairs_possible(database, row, "fbagent"), _pairs_possible(database, row, "framebench")
    line = (f"{name}: {stats['frames']:,} frames, {stats['lexical_units']:,} LUs ({stats['lus_by_pos'].get('V', 0):,} "
            f"verb LUs), {stats['exemplars']:,} exemplars, {stats['polysemous_verbs']:,} polysemous verbs; frame pairs "
            f"possible: {mine:,} under --protocol fbagent (of {stats['candidate_pairs']:,} candidates, default "
            f"filters), {theirs:,} under --protocol framebench (LUs with annotated sentences)")
    warnings = []
    low = [f"{n:,} under --protocol {p}" for p, n in (("fbagent", mine), ("framebench", theirs)) if n < FEW_PAIRS]
    if low:
        warnings.append(f"fewer than {FEW_PAIRS} frame pairs possible ({', '.join(low)}): a benchmark of FrameBench's "
                        "size (800 pairs) cannot be drawn from this lexicon under that protocol")
    if stats["exemplars"] == 0:
        warnings.append("no exemplar sentence: generation prompts get no example of the verbs in use, and "
                        "--min-examples above 0 excludes every pair")
    return line, warnings


def _import(database: sqlite_utils.Database, err: Console, path: Path, *, lang: str, name: str | None, fmt: str,
            strict: bool, exemplars: Path | None, options: ImportOptions | None = None,
            given: Overrides | None = None) -> ImportResult:
    """Run the import with a progress bar on a terminal; the other JSONL problems go to stderr on one line."""
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if not err.is_terminal:
                return
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        try:
            return lexicon_room.import_lexicon(database, path, lang=lang, name=name, fmt=fmt, strict=strict,
                                               exemplars=exemplars, progress=progress, options=options,
                                               given=given)
        except lexicon_room.LexiconFormatError as e:  # the error line names the first problem; one more line the others
            bar.stop()
            if len(e.problems) > 1:
                others = "  other problems: " + " | ".join(e.problems[1:])  # one line, wrapped at spaces on a terminal
                err.print(fit_line(others, err.width) if err.is_terminal else others, highlight=False, markup=False,
                          soft_wrap=True)
            raise


@app.command("list")
def list_cmd(db: ExistingDbOption = DEFAULT_DB, wide: WideOption = False) -> None:
    """List the lexicons in the database: name, language, format, counts, licence, import time, source."""
    rows = list_lexicons(open_db(db_path(db), read_only=True))
    console = new_console()
    if not rows:
        console.print("No lexicon yet. Add one with: fbagent lexicon add PATH --lang LANG "
                      "(commands use the embedded sample 'sample-en' until then).")
        return
    cols = [Col("name", wrap="path", min_width=16), Col("lang"), Col("format", short="fmt"), Col("frames", "right"),
            Col("LUs", "right"), Col("exemplars", "right", short="ex."), Col("relations", "right", short="rel."),
            Col("licence", drop=1), Col("imported", wrap="words", drop=3), Col("source", wrap="path", drop=2)]
    print_table(console, cols, [
        [r["name"], r["lang"], r["format"], f"{r['n_frames'] or 0:,}", f"{r['n_lexical_units'] or 0:,}",
         f"{r['n_exemplars'] or 0:,}", f"{r['n_frame_relations'] or 0:,}", short_licence(r.get("license")),
         (r["imported_at"] or "")[:19].replace("T", " "), r["source_path"] or ""] for r in rows],
        title=f"Lexicons in {db_path(db)}", caption=_licence_caption(rows), wide=wide, caption_of=7)


def short_licence(text: str | None, width: int = LICENCE_WIDTH) -> str:
    """A licence as `lexicon list` shows it: an SPDX id (at most 16 characters: ``CC-BY-NC-SA-4.0``) as it is; a
    source's own words longer than ``width`` cut at a word where one ends in time, with an ellipsis (``LGPL-LR
    (Sequoia…``); none stored: ``unknown``."""
    text = " ".join((text or "unknown").split())
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space >= width // 2 else cut).rstrip(" ,;(") + "\u2026"


def _licence_caption(rows: list[LexiconRow]) -> str | None:
    """A line pointing to `lexicon show` when a licence was cut."""
    cut = [r["name"] for r in rows if short_licence(r.get("license")) != " ".join((r.get("license") or "unknown").split())]
    return f"licence cut (\u2026): the full terms with fbagent lexicon show {cut[0]}" if cut else None


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
    # a missing database is made only to import the embedded sample into (no name, or its name); for another
    # name it is refused, as by every command that reads, and no file is left behind
    sample = name is None or name == lexicon_room.EMBEDDED_NAME
    database = open_db(path, read_only=True) if path.exists() or not sample else open_db(path)
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
    _print_provenance(console, lexicon_provenance(row))


def _print_provenance(console: Console, p: Provenance) -> None:
    """The licence (and where it came from), the release, its URL and its citation (BibTeX, as stored)."""
    unknown = p.license == "unknown"
    lines = [f"licence: {p.license}" + (" (nobody stated it: set it with `fbagent lexicon add PATH --license "
                                        "SPDX-ID`)" if unknown else f" ({p.license_source})")]
    lines += [f"{k}: {v}" for k, v in (("release", p.name), ("url", p.url), ("reader", p.reader)) if v]
    for text in lines:
        for line in wrap_text(text, console.width, "words"):
            console.print(line, highlight=False, markup=False)
    console.print("citation:" + ("" if p.citation else " none stored (the card names the lexicon without a "
                                 "reference; add one with `fbagent lexicon add PATH --citation FILE.bib`)"),
                  highlight=False, markup=False)
    for bib_line in p.citation.splitlines():  # BibTeX allows a break at any space inside a field
        for line in wrap_text(bib_line, console.width, "words") or [""]:
            console.print(line, highlight=False, markup=False)
