"""`fbagent generate`: write FrameBench entries with LangGraph agents (the main job).

The options come in groups declared once (:mod:`fbagent.commands.generation_options`: Model,
Verifier; :mod:`fbagent.commands.selection_options`: Selection); the command builds one
:class:`~fbagent.generation.GenerateOptions` (:func:`build_options`) and runs it (:func:`run_generation`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fbagent import generation  # a lazy package: the run's machinery loads when the command runs
from fbagent.commands.generate_view import GenerateView
from fbagent.commands.generation_options import (
    VerifierFlags,
    model_options,
    run_groups,
    verifier_options,
)
from fbagent.commands.options import DEFAULT_DB, DbOption, db_path, name_check
from fbagent.commands.output import secho
from fbagent.commands.selection_options import selection_options
from fbagent.generation.options import GenerateOptions, RunOptions
from fbagent.llm import event_loop
from fbagent.pairs.options import PAIRS_HELP, SelectionOptions
from fbagent.verifier.margin import parse_margin
from fbagent.verifier.settings import VerifierOptions

if TYPE_CHECKING:
    from pathlib import Path

    from fbagent.providers.config import ModelConfig

VERIFIER = "Verifier"


def register(app: typer.Typer) -> None:
    """Add the `generate` command to the root app."""
    app.command("generate")(generate_cmd)


@model_options
@verifier_options
@selection_options
def generate_cmd(
    pairs: Annotated[int, typer.Option("--pairs", "-p", help=PAIRS_HELP["generate"])],
    lexicon: Annotated[str | None, typer.Option(
        "--lexicon", callback=name_check("lexicon name"), help="Lexicon name (see `fbagent lexicon list`). "
        "Default: the only/first one; with none in the database the embedded sample is imported.")] = RunOptions.lexicon,
    per_pair: Annotated[int, typer.Option("--per-pair", "-k", help="Entries per frame pair (K).")] = SelectionOptions.per_pair,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the pair sample and of sampling for k >= 1.")] = SelectionOptions.seed,
    max_retries: Annotated[int, typer.Option(
        "--max-retries", help="R: new generate_base / extend attempts after a failed self-check.")] = RunOptions.max_retries,
    similarity_threshold: Annotated[float, typer.Option(
        "--similarity-threshold", help="Minimum lexical similarity of S_A and S_B, verb masked (0..1).")] = RunOptions.similarity_threshold,
    near_copy_threshold: Annotated[float, typer.Option(
        "--near-copy-threshold", help="S_x' must have similarity to S_x below this (0..1).")] = RunOptions.near_copy_threshold,
    screen: Annotated[bool | None, typer.Option(
        "--screen/--no-screen", help="LLM screening of the selected pairs (rejected ones replaced from the "
        "reserve). Default: on for a chat model, off for a base model (prompt style fewshot).",
        show_default=False)] = RunOptions.screen,
    margin: Annotated[str, typer.Option(
        "--margin", rich_help_panel=VERIFIER, help="A sentence passes when sim_own - sim_other > margin (cosine "
        "difference), or 'auto': the smallest margin reaching --target-precision on the lexicon's latest "
        "`fbagent verifier calibrate`.")] = str(VerifierOptions.margin),
    target_precision: Annotated[float, typer.Option(
        "--target-precision", rich_help_panel=VERIFIER, help="With --margin auto: the sentence-level precision the "
        "margin must reach on the latest calibration of the lexicon (0..1).")] = VerifierOptions.target_precision,
    signal: Annotated[str, typer.Option(
        "--signal", rich_help_panel=VERIFIER, help="Verifier signal: roundtrip (the LLM's definition vs the "
        "frames' texts), encoder (the verb vs each frame's exemplars; no LLM call) or both (a sentence passes "
        "only when both do). As `verifier calibrate --signal`.")] = VerifierOptions.signal,
    # the spelling before --signal (the name `verifier calibrate` gives the same meaning): kept, hidden
    verifier_alias: Annotated[str | None, typer.Option(
        "--verifier", hidden=True, help="Old spelling of --signal.")] = None,
    judge: Annotated[bool, typer.Option(
        "--judge", rich_help_panel=VERIFIER, help="The verifier also answers the four-choice question, both "
        "pairs, both orders.")] = VerifierOptions.judge,
    run: Annotated[str | None, typer.Option(
        "--run", callback=name_check("run name"), rich_help_panel="Run", help="Run name. Default: derived from "
        "lexicon, generator, seed and options, so the same command resumes the same run.")] = RunOptions.name,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", rich_help_panel="Run", help="Print the plan (entries, calls, tokens); call nothing.")] = RunOptions.dry_run,
    max_cost: Annotated[float | None, typer.Option(
        "--max-cost", min=0.0, rich_help_panel="Run", help="Stop starting entries once the run has spent this many "
        "US dollars (its recorded tokens at the price table's prices: fbagent/data/prices.toml, env FBAGENT_PRICES); "
        "entries in flight finish and are stored; rerun with a higher cap to go on.")] = RunOptions.max_cost,
    batch: Annotated[bool, typer.Option(
        "--batch", rich_help_panel="Run", help="Send each wave of requests (base pairs, verb checks, extensions, "
        "definitions) as one provider batch job (OpenAI Batch: half the price, answered within 24 hours); the "
        "job ids are stored, so the same command resumes and polls them. Requests the stored calls hold cost "
        "nothing.")] = RunOptions.batch,
    db: DbOption = DEFAULT_DB,
    llm: ModelConfig | None = None,              # built by @model_options
    verifier_llm: VerifierFlags | None = None,   # built by @verifier_options
    selection: SelectionOptions | None = None,   # built by @selection_options (its eligibility fields)
) -> None:
    """Generate FrameBench entries: select frame pairs, then per entry generate_base -> self_check
    (retry with feedback) -> extend -> verify (SemBench round trip). Resumable: run it again.

    A new run reuses the newest stored selection of the lexicon with the same selection options that no
    run uses (e.g. one made by `fbagent pairs select`), else makes one; the line it prints says which."""
    margin_value, margin_auto = parse_margin(margin)
    opts = build_options(
        llm, verifier_llm, selection or SelectionOptions(),
        verifier={"signal": signal if verifier_alias is None else verifier_alias, "margin": margin_value,
                  "margin_auto": margin_auto, "target_precision": target_precision, "judge": judge},
        selection_own={"pairs": pairs, "per_pair": per_pair, "seed": seed},
        run={"lexicon": lexicon, "name": run, "dry_run": dry_run, "max_retries": max_retries,
             "similarity_threshold": similarity_threshold, "near_copy_threshold": near_copy_threshold,
             "screen": screen, "max_cost": max_cost, "batch": batch})
    run_generation(db_path(db), opts)


def build_options(llm: ModelConfig | None, verifier_llm: VerifierFlags | None, selection: SelectionOptions, *,
                  verifier: dict[str, Any], selection_own: dict[str, Any], run: dict[str, Any]) -> GenerateOptions:
    """One :class:`~fbagent.generation.GenerateOptions` from the option groups' objects (``llm``,
    ``verifier_llm``, ``selection``) and the command's own fields, by group (``verifier``, ``selection_own``, ``run``)."""
    models, flags = run_groups(llm, verifier_llm)
    return GenerateOptions(models=models, verifier=flags.options(**verifier),
                           selection=replace(selection, **selection_own), run=RunOptions(**run))


def run_generation(db: Path, opts: GenerateOptions) -> None:
    """Run :func:`fbagent.generation.generate` with the progress view; Ctrl-C -> exit 130 (stored work kept),
    a session that achieved nothing -> its reason and exit 1."""
    view = GenerateView()
    try:
        summary = event_loop.run(generation.generate(db, opts, on_event=view))
    except KeyboardInterrupt:  # Typer would turn it into a silent exit 130
        secho("interrupted: everything finished so far is stored; run the same command again to resume.",
                    err=True)
        raise typer.Exit(130) from None
    finally:
        view.close()
    if summary.session_failed:  # nothing achieved: say why and fail, the stored rows stay
        secho(f"error: {summary.session_failed}", err=True)
        raise typer.Exit(1)
