"""`fbagent pairs select|list|show`: FrameBench step 1, polysemous verbs and their frame pairs."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fbagent import lexicon as lexicon_room
from fbagent import pairs as pair_room
from fbagent.commands.options import DEFAULT_DB, DbOption, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, fit_line, new_console
from fbagent.commands.selection_options import selection_options
from fbagent.commands.tables import Col, WideOption, print_table
from fbagent.errors import FbagentError
from fbagent.framenet.pair_keys import frame_pair_key
from fbagent.limits import bounds
from fbagent.pairs.options import PAIRS_HELP, SELECT_PAIRS, SelectionOptions
from fbagent.pairs.shared import parse_names, shared_pairs
from fbagent.store.db import open_db, removed_if_failed
from fbagent.store.lexicon import lexicon_by_name, lexicon_row
from fbagent.store.pairs import get_selection, list_selections, selection_pairs

if TYPE_CHECKING:
    from pathlib import Path

    import sqlite_utils

app = typer.Typer(
    help="Frame pairs: select (verb, frame A, frame B) pairs from a lexicon (fbagent's stratified protocol or the "
    "FrameBench authors'), list selections, show one.",
    no_args_is_help=True,
)


@app.command("select")
@selection_options
def select_cmd(
    pairs: Annotated[int, typer.Option("--pairs", help=PAIRS_HELP["pairs select"])] = SELECT_PAIRS,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed (recorded with the selection); default 0, "
                                             "or 42 under --protocol framebench (the authors' default).")] = None,
    lexicon: Annotated[str | None, typer.Option("--lexicon", callback=name_check("lexicon name"), help="Lexicon name (default: the only or most recent "
                                                "one; the embedded sample when the database has none).")] = None,
    per_pair: Annotated[int, typer.Option("--per-pair", help="Benchmark entries K to generate per pair (the "
                                          "authors' num_pairs: 2 in the paper's Japanese set).")] = SelectionOptions.per_pair,
    show: Annotated[int, typer.Option("--show", **bounds("--show"), help="Print the first N selected pairs.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (selection, counts, pairs).")] = False,
    db: DbOption = DEFAULT_DB,
    selection: SelectionOptions | None = None,  # built by @selection_options (its eligibility fields)
) -> None:
    """Select frame pairs and store them (selections + frame_pairs); print Table-1 counts and filter counts.

    Candidates are every 2-combination of the frames of each verb (LUs with POS
    V grouped by lemma; under --protocol framebench, annotated LUs grouped by LU
    name). The sample is reproducible: the same lexicon, protocol, options and
    --seed give the same pairs, and selecting again reuses the stored selection
    (unless a run took it); the remaining pairs are kept as a seeded reserve for
    pairs screened out later.
    """
    started = time.perf_counter()
    chosen = selection or SelectionOptions()
    if seed is None:
        seed = pair_room.FRAMEBENCH_SEED if chosen.protocol == "framebench" else SelectionOptions.seed
    options = replace(chosen, pairs=pairs, seed=seed, per_pair=per_pair)
    options.check()  # refused options leave no database behind: checked before it is opened
    with removed_if_failed(db_path(db)):   # a refused first command leaves no empty database behind
        database = open_db(db_path(db))
        lex = lexicon_room.resolve_lexicon(database, lexicon, notify=lambda note: echo(note, err=True))
        result = pair_room.select_pairs(database, lex, options)
    seconds = time.perf_counter() - started
    if as_json:
        echo(json.dumps({**result, "seconds": round(seconds, 3)}, ensure_ascii=False, indent=2))
        return
    _print_selection(result, lex["name"], options, show=show, where=db_path(db), seconds=seconds)


def _print_selection(result: dict[str, Any], lexicon: str, options: SelectionOptions, *, show: int, where: Path,
                     seconds: float) -> None:
    """The tables of `pairs select`: Table 1, the selection steps, the first ``show`` pairs
    (fitted to the terminal: :func:`fbagent.commands.tables.print_table`)."""
    c = result["counts"]
    console = new_console()
    print_table(console, *table1_table(c, options.per_pair),
                title=f"Table 1: selection {result['selection_id']} of lexicon {lexicon}, protocol "
                      f"{options.protocol}, seed {options.seed}",
                caption="# frame pairs: (verb, pair of frames) entries, a pair of frames counted once per verb "
                        "that evokes both; unique LUs: distinct LU names, as the paper's Table 1 counts them "
                        f"(leave.v once); LU-frame pairs: {c['unique_lus']:,}; unique verbs: distinct verb lemmas")
    rows = _framebench_rows(c) if options.protocol == "framebench" else _eligibility_rows(c, options)
    print_table(console, [Col("step", wrap="words"), Col("pairs", "right")], rows,
                title="Steps (" + ("the FrameBench authors' rules" if options.protocol == "framebench"
                                   else "fbagent: eligibility, verb-stratified sample") + ")")
    if c.get("shared_with"):
        console.print(fit_line(shared_line(lexicon, c), console.width), highlight=False, markup=False, soft_wrap=True)
    if c["took_all"]:
        console.print(f"[yellow]Asked for {options.pairs:,} pairs but only {c['selected']:,} are eligible"
                      f"{' under --max-per-verb' if options.max_per_verb else ''}: took all of them.[/]")
    if show > 0 and result["pairs"]:
        print_table(console, [Col("rank", "right"), Col("verb", wrap="words"), Col("frame A", wrap="path"),
                              Col("frame B", wrap="path")],
                    [[str(p["rank"]), p["verb"], p["frame_a"], p["frame_b"]] for p in result["pairs"][:show]],
                    title=f"First {min(show, len(result['pairs']))} selected pairs")
    if result.get("reused"):
        console.print(fit_line(f"Reused selection {result['selection_id']} in {where}: it has the same lexicon, "
                               f"protocol, seed and options, and no run uses it (nothing new stored). See it with: "
                               f"fbagent pairs show {result['selection_id']}", console.width),
                      highlight=False, markup=False, soft_wrap=True)
        return
    console.print(fit_line(f"Stored as selection {result['selection_id']} in {where} ({seconds:.2f} s). "
                           f"See it with: fbagent pairs show {result['selection_id']}", console.width),
                  highlight=False, markup=False, soft_wrap=True)  # the suggested command stays whole


def shared_line(lexicon: str, c: dict[str, Any]) -> str:
    """The line of ``--shared-with``: how many of the lexicon's polysemous-verb frame pairs every named lexicon
    shares, with each alone, and how its frames were matched (by ID or by name)."""
    each = ", ".join(f"{n}: {k:,} ({'by frame ID' if c['shared_by_id'].get(n) else 'by name'})"
                     for n, k in c["shared_per_lexicon"].items())
    return (f"Shared frame pairs: {c['shared_frame_pairs']:,} of the {c['lexicon_frame_pairs']:,} distinct "
            f"polysemous-verb frame pairs of {lexicon} (each pair of frames once, whatever its verbs) are "
            f"polysemous-verb pairs in every one of {', '.join(c['shared_with'])} (with each alone: {each}); the "
            "candidates above are drawn from them (Table 1's # frame pairs counts (verb, frame pair) entries).")


def table1_table(counts: dict[str, Any], per_pair: int) -> tuple[list[Col], list[list[str]]]:
    """The columns and the one row of Table 1 (Yano and Sasano 2026, Table 1): # frame pairs, # unique LUs
    (LU names, the paper's convention), # unique verbs, entries per pair, entries."""
    names = counts.get("unique_lu_names", counts["unique_lus"])
    cols = [Col("# frame pairs", "right", wrap="words"), Col("# unique LUs", "right", wrap="words"),
            Col("# unique verbs", "right", wrap="words"), Col("entries per pair", "right", wrap="words"),
            Col("entries", "right", wrap="words")]
    return cols, [[f"{counts['frame_pairs']:,}", f"{names:,}", f"{counts['unique_verbs']:,}", f"{per_pair:,}",
                   f"{counts['frame_pairs'] * per_pair:,}"]]


def _framebench_rows(c: dict[str, Any]) -> list[list[str]]:
    """The step rows of the authors' protocol (:mod:`fbagent.pairs.framebench`); LU rows count LUs, the rest pairs."""
    cut = c["selected"] < c["candidates"]
    return [["verb LUs read (POS V; LUs, not pairs)", f"{c['verb_lus']:,}"],
            ["excluded: no annotated sentence (LUs)", f"-{c['unannotated_lus']:,}"],
            ["polysemous verbs: LU names in 2+ frames (LUs)", f"{c['polysemous_lus']:,}"],
            ["frame pairs (every 2-combination of their frames)", f"{c['candidates']:,}"],
            ["selected: " + ("first P after one seeded shuffle (numpy RandomState, as pandas' sample)" if cut
                             else "all, in pool order (the authors shuffle only to cut)"), f"{c['selected']:,}"],
            ["rest of the shuffled pool (reserve)", f"{c['reserve']:,}"]]


def _eligibility_rows(c: dict[str, Any], options: SelectionOptions) -> list[list[str]]:
    """The rows of the eligibility table: candidates, each filter's exclusions, eligible, selected, reserve."""
    rows = [["candidate pairs (2-combinations of a verb's frames)", f"{c['candidates']:,}"]]
    active = {"missing_definition": options.require_definition, "missing_core_fe": options.require_core_fe,
              "too_few_examples": options.min_examples > 0, "directly_related": options.exclude_related}
    for reason, n in c["excluded"].items():
        label = f"excluded: {pair_room.REASON_TEXT[reason]}"
        if not active[reason]:
            label += " (filter off)"
        elif reason == "directly_related" and not c["relations_available"]:
            label += " (lexicon has no relations)"
        rows.append([label, f"-{n:,}"])
    rows.append(["eligible", f"{c['eligible']:,}"])
    if options.max_per_verb is not None:
        rows.append([f"beyond --max-per-verb {options.max_per_verb} (kept in reserve)",
                     f"{c['excluded_by_max_per_verb']:,}"])
    rows += [["selected", f"{c['selected']:,}"], ["reserve (seeded order, for replacements)", f"{c['reserve']:,}"]]
    return rows


@app.command("list")
def list_cmd(db: ExistingDbOption = DEFAULT_DB, wide: WideOption = False) -> None:
    """List the frame-pair selections: lexicon, seed, counts, options."""
    rows = list_selections(open_db(db_path(db), read_only=True))
    console = new_console()
    if not rows:
        console.print("No selection yet. Make one with: fbagent pairs select --pairs 800 --seed 0")
        return
    cols = [Col("id", "right"), Col("lexicon", wrap="path", min_width=16), Col("seed", "right"), Col("selected", "right", short="sel."),
            Col("reserve", "right", short="res."), Col("screened out", "right", short="out"),
            Col("unique verbs", "right", short="verbs"), Col("protocol", wrap="path", short="proto."),
            Col("options", wrap="words", drop=1),
            Col("created", wrap="words", drop=2)]
    cells = []
    for r in rows:
        o = r["options"]
        opts = (f"P={o.get('pairs')} M={o.get('max_per_verb') or '-'} K={o.get('per_pair')} "
                f"N={o.get('min_examples')}" + ("" if o.get("exclude_related", True) else " related-kept")
                + ("" if o.get("require_definition", True) else " no-def-ok")
                + ("" if o.get("require_core_fe", True) else " no-core-ok"))
        if (r.get("protocol") or "fbagent") == "framebench":   # no caps, no filters: the authors' rules
            opts = f"P={o.get('pairs')} K={o.get('per_pair')}"
        if o.get("shared_with"):
            opts += " S=" + ",".join(o["shared_with"])
        cells.append([str(r["id"]), r["lexicon"], str(r["seed"]), str(r["n_selected"]), str(r["n_reserve"]),
                      str(r["n_screened_out"]), str(r["counts"].get("unique_verbs", "")), r.get("protocol") or "fbagent",
                      opts, (r["created_at"] or "")[:19].replace("T", " ")])
    print_table(console, cols, cells, title=f"Frame-pair selections in {db_path(db)}", wide=wide,
                caption="options: P pairs asked, M most per verb, K entries per pair, N least exemplars per frame"
                        + ("; S shared with (--shared-with)" if any(r["options"].get("shared_with") for r in rows)
                           else ""), caption_of=8)


def _other_verbs(database: sqlite_utils.Database, sel: dict[str, Any], names: tuple[str, ...],
                 shown: list[dict[str, Any]]) -> dict[str, str]:
    """Add to each shown pair its ``frame_pair`` key and ``verbs``: ``{lexicon: the verbs evoking both frames
    there}`` (:mod:`fbagent.pairs.shared`); returns ``{lexicon name: language}`` of the named lexicons."""
    base = lexicon_row(database, sel["lexicon_id"])
    if base is None:
        raise FbagentError(f"selection {sel['id']} names a lexicon that is no longer in the database",
                           "select pairs again with fbagent pairs select")
    common = shared_pairs(database, base, names)
    for p in shown:
        p["frame_pair"] = frame_pair_key(p["frame_a"], p["frame_b"], common.base.canonical)
        p["verbs"] = {base["name"]: [p["verb"]], **{o.name: common.verbs_in(o.name, p["frame_a"], p["frame_b"])
                                                    for o in common.others}}
    return {o.name: lexicon_by_name(database, o.name)["lang"] for o in common.others}


@app.command("show")
def show_cmd(
    selection: Annotated[int, typer.Argument(help="Selection id, as printed by `fbagent pairs list`.")],
    status: Annotated[str, typer.Option("--status", help="selected | reserve | screened_out | all")] = "selected",
    limit: Annotated[int, typer.Option("--limit", min=0, help="Print at most N pairs (0: all).")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    shared_with: Annotated[str | None, typer.Option("--shared-with", help="LEX[,LEX...]: each named lexicon's verbs "
                                                    "for every pair (default: the lexicons the selection was made "
                                                    "--shared-with).")] = None,
    db: ExistingDbOption = DEFAULT_DB,
    wide: WideOption = False,
) -> None:
    """Show the pairs of one selection, in rank order; with other languages' lexicons, each one's verbs for a pair."""
    if status not in ("selected", "reserve", "screened_out", "all"):
        raise FbagentError(f"unknown --status {status!r}", "pass --status selected, reserve, screened_out or all")
    database = open_db(db_path(db), read_only=True)
    sel = get_selection(database, selection)
    rows = selection_pairs(database, selection, None if status == "all" else status)
    shown = rows if limit <= 0 else rows[:limit]
    names = parse_names(shared_with) or tuple(sel["options"].get("shared_with") or ())
    others = _other_verbs(database, sel, names, shown) if names else {}
    if as_json:
        echo(json.dumps({"selection": sel, "pairs": shown}, ensure_ascii=False, indent=2))
        return
    cols, cells = pair_table(shown, status, others)
    print_table(new_console(), cols, cells, wide=wide,
                title=f"Selection {selection} ({status}: {len(rows):,} pairs; protocol "
                      f"{sel.get('protocol') or 'fbagent'}, seed {sel['seed']}"
                      + (f"; shared with {', '.join(sel['options']['shared_with'])}"
                         if sel["options"].get("shared_with") else "") + ")")


def pair_table(shown: Sequence[Mapping[str, object]], status: str,
               others: Mapping[str, str]) -> tuple[list[Col], list[list[str]]]:
    """The columns and cells of ``pairs show``: rank, status (given up first on a narrow terminal when one status is
    shown: the title names it), verb, frames, K, the reason (other statuses), and each other lexicon's verbs
    (``others``: ``{name: language}``; a row's ``verbs``: ``{name: [verb, ...]}``), wrapped between words (a Korean
    or Latvian verb is never broken)."""
    reason = status != "selected"
    cols = [Col("rank", "right"), Col("status", wrap="path", drop=1 if status != "all" else 0),
            Col("verb", wrap="path", min_width=10), Col("frame A", wrap="path"),
            Col("frame B", wrap="path"), Col("K", "right")] + ([Col("reason", wrap="words")] if reason else [])
    cols += [Col(f"verbs in {name} ({lang})", wrap="words") for name, lang in others.items()]
    cells = []
    for p in shown:
        verbs = p.get("verbs")
        lists = verbs if isinstance(verbs, Mapping) else {}
        cells.append([str(p["rank"]), str(p["status"]), str(p["verb"]), str(p["frame_a"]), str(p["frame_b"]),
                      str(p["per_pair"]), *([str(p.get("reason") or "")] if reason else []),
                      *(", ".join(lists.get(n) or []) or "-" for n in others)])
    return cols, cells
