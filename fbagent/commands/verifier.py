"""`fbagent verifier calibrate|list`: measure the verifier on the lexicon's own exemplars (gold data).

A thin layer over :mod:`fbagent.verifier.calibration`: parse options, build one
:class:`~fbagent.verifier.calibration.CalibrateOptions`, call :func:`~fbagent.verifier.calibration.calibrate`,
render its result.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fbagent import validation
from fbagent.commands.generation_options import (
    SIGNALS_HELP,
    VerifierFlags,
    model_options,
    run_groups,
    verifier_options,
)
from fbagent.commands.options import DEFAULT_DB, DbOption, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, new_console, report_console, secho, upgrade_note
from fbagent.commands.progress_view import CountBar, ProgressView
from fbagent.commands.tables import Col, WideOption, print_table
from fbagent.pairs.options import PAIRS_HELP
from fbagent.store.calibrations import list_calibrations
from fbagent.store.db import open_db, removed_if_failed
from fbagent.store.lexicon import lexicon_by_name
from fbagent.verifier import calibration
from fbagent.verifier.calibration.options import HOLDOUT, CalibrateOptions
from fbagent.verifier.settings import VerifierOptions

if TYPE_CHECKING:

    from fbagent.providers.config import ModelConfig

app = typer.Typer(help="The generation verifier measured on gold data: calibrate it on held-out FrameNet exemplars, "
                  "list stored calibrations.", no_args_is_help=True)

#: margins shown in the terminal table (the stored table has every 0.01)
SHOWN_MARGINS = (-0.1, -0.05, 0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


@app.command("calibrate")
@model_options
@verifier_options
def calibrate_cmd(
    lexicon: Annotated[list[str] | None, typer.Option(
        "--lexicon", callback=name_check("lexicon name"), help="Lexicon name (repeat for several; each gets its own calibration). Default: the only/first "
        "one, as generate picks it.")] = None,
    selection: Annotated[int | None, typer.Option(
        "--selection", help="Use the selected pairs of this stored selection (`fbagent pairs list`) instead of a "
        "sample.")] = CalibrateOptions.selection,
    pairs: Annotated[int, typer.Option("--pairs", "-p", help=PAIRS_HELP["verifier calibrate"])] = CalibrateOptions.pairs,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the pair sample and of the held-out split.")] = CalibrateOptions.seed,
    signal: Annotated[str, typer.Option("--signal", help=f"What to measure: {SIGNALS_HELP} "
                                        "(both also reports each part).")] = VerifierOptions.signal,
    min_exemplars: Annotated[int, typer.Option(
        "--min-exemplars", help=f"Each frame needs this many exemplars of the verb with a target span ({HOLDOUT} are "
        "held out, the rest are the encoder check's references).")] = CalibrateOptions.min_exemplars,
    max_references: Annotated[int, typer.Option(
        "--max-references", help="At most this many reference exemplars per frame (seeded sample).")] = CalibrateOptions.max_references,
    margin: Annotated[float, typer.Option(
        "--margin", help="Report precision and recall at this margin (the generation run's; cosine difference).")] = VerifierOptions.margin,
    n_boot: Annotated[int, typer.Option("--n-boot", help="Bootstrap resamples (over pairs) for the 95% intervals.")] = CalibrateOptions.n_boot,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (every number) instead of tables.")] = False,
    from_annotations: Annotated[bool, typer.Option(
        "--from-annotations", help="Measure against the annotators' judgments (the human filter's outcome of the "
        "judged entries) instead of held-out exemplars; no model runs. Stored the same way.")] = False,
    db: DbOption = DEFAULT_DB,
    llm: ModelConfig | None = None,              # built by @model_options
    verifier_llm: VerifierFlags | None = None,   # built by @verifier_options
) -> None:
    """Hold out 2 exemplars of each frame's LU of the verb per frame pair, run them through the generation
    verifier as if generated (same round trip, same encoder check), and report how often its verdict is
    right: accuracy, precision and recall of `pass` with 95% intervals, a table over margins. Stored; the
    latest calibration of a lexicon gives `generate --margin auto`."""
    if from_annotations:
        database = open_db(db_path(db), create=False, on_upgrade=upgrade_note)
        result = validation.calibrate_from_annotations(
            database, signal=signal, margin=margin, command=" ".join(["fbagent", *sys.argv[1:]]),
            lexicons=list(lexicon or []), n_boot=n_boot, seed=seed)
        if as_json:
            echo(json.dumps(_json_ready(result), ensure_ascii=False))
        else:
            render(result)
        return
    models, flags = run_groups(llm, verifier_llm)
    opts = CalibrateOptions(
        models=models, verifier=flags.options(signal=signal, margin=margin),
        lexicons=list(lexicon or []), selection=selection, pairs=pairs, seed=seed,
        min_exemplars=min_exemplars, max_references=max_references, n_boot=n_boot,
    )

    # notes on stderr, a bar per lexicon (gone when it ends); the result is rendered below
    view = ProgressView(new_console(stderr=True), progress=not as_json, bar=CountBar(remaining=False, transient=True))
    try:
        with removed_if_failed(db_path(db)):   # a refused first command leaves no empty database behind
            result = asyncio.run(calibration.calibrate(db_path(db), opts, on_event=view))
    except KeyboardInterrupt:
        secho("interrupted: the calibration is stored as interrupted (its LLM calls are cached); run the "
                    "same command again.", err=True)
        raise typer.Exit(130) from None
    finally:
        view.close()
    if as_json:
        echo(json.dumps(_json_ready(result), ensure_ascii=False))
        return
    render(result)


@app.command("list")
def list_cmd(
    lexicon: Annotated[str | None, typer.Option("--lexicon", callback=name_check("lexicon name"), help="Only calibrations of this lexicon.")] = None,
    db: ExistingDbOption = DEFAULT_DB,
    wide: WideOption = False,
) -> None:
    """Stored calibrations, newest first: lexicon, signal, pairs, accuracy, margins for precision 0.8/0.9/0.95."""
    conn = open_db(db_path(db), create=False, read_only=True)
    lex_id = lexicon_by_name(conn, lexicon)["id"] if lexicon else None
    calibrations = list_calibrations(conn, lex_id)
    console = report_console()
    if not calibrations:
        console.print("No calibration yet. Make one with: fbagent verifier calibrate --signal encoder")
        return

    cols = [Col("id", "right"), Col("name"), Col("signal"), Col("encoder", wrap="path", drop=2),
            Col("verifier model", wrap="path", drop=1), Col("pairs", "right"),
            Col("accuracy [95% CI]", "right", wrap="words", short="acc."),
            Col("margin p>=0.8 / 0.9 / 0.95", "right", wrap="words", short="margins"), Col("created", wrap="words", drop=3)]
    rows = []
    for run in calibrations:
        res = run["options"].get("result") or {}
        margins = res.get("margins") or {}
        rows.append([str(run["id"]), run["name"], str(res.get("signal")), str(run.get("encoder") or ""),
                     str(run.get("verifier_model") or "-"), str(res.get("n_pairs")),
                     f"{_pct(res.get('accuracy'))} {_ci(res.get('ci95'))}",
                     " / ".join(_num(margins.get(k)) for k in ("0.8", "0.9", "0.95")), str(run["created_at"])[:19]])
    print_table(console, cols, rows, title="Verifier calibrations (newest first)", wide=wide,
                caption="margins: the smallest margin reaching precision 0.8 / 0.9 / 0.95")



def render(result: dict[str, Any]) -> None:
    """The calibration result as tables: per lexicon and signal, then the margins table of the requested signal."""
    console = report_console()
    m = result["margin"]
    rows = []
    for lex in result["by_lexicon"]:
        for name, s in lex["signals"].items():
            rows.append([lex["lexicon"], lex["language"], name, str(s["n_pairs"]), str(s["n_sentences"]),
                         f"{_pct(s['accuracy'])} {_ci(s['ci95'])}", f"{_pct(s['precision'])} {_ci(s['precision_ci95'])}",
                         f"{_pct(s['recall'])} {_ci(s['recall_ci95'])}", _pct(s["items_verified"]),
                         f"{lex['seconds']:.1f}"])
    cols = [Col("lexicon", wrap="path", min_width=16), Col("lang"), Col("signal"), Col("pairs", "right"),
            Col("sentences", "right", short="sent."), Col("accuracy", "right", wrap="words", short="acc."),
            Col(f"precision @{m:g}", "right", wrap="words", short=f"P@{m:g}"),
            Col(f"recall @{m:g}", "right", wrap="words", short=f"R@{m:g}"),
            Col("entries verified", "right", short="ver."), Col("seconds", "right", short="s", drop=1)]
    humans = result.get("source") == "annotations"
    on = ("against the annotators' judgments (pairs = judged entries; truth: the human filter's outcome)"
          if humans else "on held-out exemplars")
    print_table(console, cols, rows, title=f"Verifier calibration {on} (pass: d > {m:g}; "
                f"95% CI, bootstrap over {'entries' if humans else 'pairs'})")
    sig = result["signal"]
    by = [r for r in result["by_margin"] if round(r["margin"], 2) in SHOWN_MARGINS]
    cols = [Col("margin", "right"), Col("precision", "right"), Col("recall", "right"),
            Col("false pass", "right"), Col("entries verified", "right"), Col("wrong entries verified", "right")]
    print_table(console, cols, [[f"{r['margin']:g}", _pct(r["precision"]), _pct(r["recall"]),
                                 _pct(r["false_pass_rate"]), _pct(r["items_verified"]),
                                 _pct(r["items_false_verified"])] for r in by],
                title=f"{sig}: precision and recall by margin (all lexicons; every 0.01 is stored)")
    margins = result.get("margins") or {}
    console.print("smallest margin reaching precision " + ", ".join(
        f"{k}: {_num(v)}" for k, v in margins.items()) + f"; seconds: {result['seconds']:.1f}", markup=False)
    for lex in result["by_lexicon"]:
        llm = lex.get("llm") or {}
        console.print(f"stored: calibration {lex['calibration']!r} (id {lex['calibration_id']}) of lexicon "
                      f"{lex['lexicon']}; LLM calls {llm.get('calls', 0)}, cache hits {llm.get('cache_hits', 0)}, "
                      f"failed {llm.get('failures', 0)}", markup=False, highlight=False)


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _ci(ci: list[float] | None) -> str:
    return "" if not ci else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _num(v: float | None) -> str:
    return "none" if v is None else f"{v:g}"


def _json_ready(value: object) -> object:
    """``value`` with tuples as lists and paths as strings (``json.dumps`` of the result)."""
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value
