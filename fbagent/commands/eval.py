"""`fbagent eval` commands: run, report, frame-id, sembench.

Every import sits at module level. The evaluation code (numpy, sqlite-utils; torch, vLLM, llama.cpp, openai
or matplotlib inside it where used) is reached through the lazy package :mod:`fbagent.eval`
(``evaluation.run_framebench(...)``), which loads a module when a command first calls into it, so that a
command's ``--help`` stays fast. ``fbagent --help`` does not import this module (:mod:`fbagent.commands.lazy_group`).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

import fbagent.eval as evaluation
from fbagent.commands import eval_models
from fbagent.commands.eval_models import folders_of, run_models
from fbagent.commands.eval_tables import print_report
from fbagent.commands.model_options import backend_options
from fbagent.commands.option_groups import option_group
from fbagent.commands.options import DEFAULT_DB, ExistingDbOption, name_check
from fbagent.commands.output import echo, new_console, report_console, secho
from fbagent.commands.progress_view import CountBar, ProgressView
from fbagent.commands.tables import PROSE_MIN, Col, print_table, wrap_text
from fbagent.errors import FbagentError
from fbagent.eval.choices import ALL_TEMPLATES, DEFAULT_ORDERS
from fbagent.eval.runner import check_result_folder
from fbagent.eval.schedule import parse_gpus
from fbagent.eval.sembench_sets import looks_like_instances
from fbagent.files import check_folder, make_folder
from fbagent.lexicon.foreign import is_lm_eval_results
from fbagent.limits import DEFAULT_N_BOOT, bounds
from fbagent.providers import redact
from fbagent.providers import registry as provider_registry
from fbagent.providers.prices import check_cap, load_prices
from fbagent.seeds import DEFAULT_SEED

if TYPE_CHECKING:

    from fbagent.providers.base import Backend
    from fbagent.providers.config import ModelConfig
    from fbagent.providers.model_list import ModelRun

app = typer.Typer(help="Score language models on FrameBench entries, frame identification and SemBench.",
                  no_args_is_help=True)

# -- options shared by the commands (the model/backend options: fbagent.commands.model_options) ----
NBootOpt = Annotated[int, typer.Option("--n-boot", **bounds("--n-boot"), help="Bootstrap resamples for the 95% CI.")]
LimitOpt = Annotated[int | None, typer.Option("--limit", **bounds("--limit"), rich_help_panel="Run",
                                              help="Use only the first N entries / instances / pairs.")]
ExcludeFailuresOpt = Annotated[bool, typer.Option(
    "--exclude-failures/--count-failures", rich_help_panel="Scoring", help="Leave answers without a valid option "
    "out of every rate, or count them as wrong (the default, as the FrameBench authors do; docs/eval.md).")]
StdOpt = Annotated[str, typer.Option("--std", rich_help_panel="Scoring", help="Standard deviation over templates: "
                                     "population (ddof=0, the FrameBench authors') or sample (ddof=1).")]
LabelOpt = Annotated[str | None, typer.Option("--label", callback=name_check("label"), rich_help_panel="Run",
                                              help="Name of this run in reports and figures (stored in the manifest; "
                                              "default: a short model name).")]


# -- eval run's options for several models and money (issue 46) --------------------------------------
ModelsFileOpt = Annotated[Path | None, typer.Option(
        "--models", rich_help_panel="Model", help="TOML file of [[model]] tables (backend, model, base_url, label, "
        "...; docs/eval.md): score each, as with --model repeated.")]
GpusOpt = Annotated[str | None, typer.Option(
        "--gpus", rich_help_panel="Model", help="GPUs for several models side by side, e.g. 0,1,2,3 (default: "
        "CUDA_VISIBLE_DEVICES; one GPU or none: one model after another).")]
MaxCostOpt = Annotated[float | None, typer.Option(
        "--max-cost", min=0.0, rich_help_panel="Money", help="Stop once this many US dollars are spent on a model "
        "(its recorded tokens at the price table's prices, earlier sessions included); what finished is stored: "
        "rerun with a higher cap to go on.")]
PricesOpt = Annotated[Path | None, typer.Option(
        "--prices", rich_help_panel="Money", help="TOML price file over fbagent's table (fbagent/data/prices.toml; "
        "also env FBAGENT_PRICES).")]
DryRunOpt = Annotated[bool, typer.Option(
        "--dry-run", rich_help_panel="Money", help="Print each model's requests, tokens and dollars still to "
        "spend (with and without retries, at batch prices), then stop: nothing is loaded, asked or stored.")]
#: backends whose provider has a batch API (``--batch``)
BATCH_BACKENDS = ("openai", "gemini")
BatchOpt = Annotated[bool, typer.Option(
        "--batch", rich_help_panel="Money", help="Ask through the provider's batch API (OpenAI Batch, Gemini batch "
        "mode: half the price, answers within 24 h; openai and gemini backends): job ids in OUT/batch_jobs.json, the same command resumes, polls and resubmits "
        "failed or expired lines; Ctrl-C cancels the open jobs.")]


@dataclass(frozen=True)
class EvalRun:
    """The run options every scoring command shares (``@run_options``): seed, calls in flight,
    prompts per call, result folder, bootstrap resamples."""

    seed: int = DEFAULT_SEED
    concurrency: int | None = None
    batch_size: int | None = None
    out: Path | None = None
    n_boot: int = DEFAULT_N_BOOT

    @property
    def settings(self) -> dict:
        """The fields the task settings (``RunSettings``, ``FrameIdSettings``, ``SemBenchSettings``) take."""
        return {"seed": self.seed, "concurrency": self.concurrency, "batch_size": self.batch_size,
                "n_boot": self.n_boot}


#: Decorator (panel "Run"): --seed, --concurrency, --batch-size, --out, --n-boot as one ``run: EvalRun``.
#: Put it below ``@backend_options``, which reads the seed.
run_options = option_group("run", "Run", {
    "seed": (Annotated[int, typer.Option("--seed", help="Seed of every random choice (option order, sampling, "
                                         "bootstrap).")], EvalRun.seed),
    "concurrency": (Annotated[int | None, typer.Option(
        "--concurrency", **bounds("--concurrency"), help="Calls in flight at once (default: 8 for openai, 4 for "
        "gemini, 1 for local backends).")], None),
    "batch_size": (Annotated[int | None, typer.Option(
        "--batch-size", **bounds("--batch-size"), help="Prompts per backend call (0 = all prompts of a template "
        "in one call; default: 0 for vllm, 8 for local, 1 for APIs).")], None),
    "out": (Annotated[Path | None, typer.Option("--out", "-o", help="Result folder (rerun the same command to "
                                                "resume). [default: results/<task>/<backend>-<model>]")], None),
    "n_boot": (NBootOpt, DEFAULT_N_BOOT),
}, lambda values, _others: EvalRun(**values))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", Path(text).name if "/" in text and Path(text).exists() else text).strip("-")[:60]


def _default_out(task: str, backend: str, model: str | None) -> Path:
    return Path("results") / task / f"{backend}-{_slug(model or 'default')}"


def _check_out(out: Path) -> None:
    check_result_folder(out)


def _create(spec: ModelConfig) -> Backend:
    """Instantiate the provider of an evaluation :class:`~fbagent.providers.config.ModelConfig`."""
    return provider_registry.create_backend(spec)   # looked up at call time (tests replace it)


def _score(backend: ModelConfig, out: Path | None, task: str, label: str,
           score: Callable[[Any, Path, Any], tuple[Any, dict]], *, retries: bool = True, show: bool = True) -> Path:
    """The one ending of the eval runs (``run``, ``frame-id``, ``sembench``): check ``out`` before the model
    loads, build the provider of ``backend`` once, call ``score(provider, out, progress)`` under a progress
    bar called ``label`` + ``backend:model`` (``out`` default: ``results/<task>/<backend>-<model>``), close
    the provider, then the closing line(s) (:func:`_close`; ``retries``: name ``--retry-failed``; ``show``: the
    results table, off for one model of several, whose leaderboard follows).
    Ctrl-C: one line saying the predictions so far are stored, exit 130. Returns the result folder."""
    if out is not None:
        _check_out(out)  # before the model loads
    be = _create(backend)
    out = out or _default_out(task, backend.backend, be.model)
    try:
        with _Progress(f"{label}{backend.backend}:{_slug(be.model)}") as prog:
            _, manifest = score(be, out, prog)
    except KeyboardInterrupt:  # after the progress bar is gone, so that the line is the last one shown
        secho(f"interrupted: the predictions so far are stored in {out}; run the same command again to "
              "resume.", err=True)
        raise typer.Exit(130) from None
    finally:
        be.close()
    _close(manifest, out, retries=retries, show=show)
    return out


def _Progress(description: str) -> ProgressView:  # the name the commands and tests know
    """The CLI's renderer (:class:`fbagent.commands.progress_view.ProgressView`) for an eval run: a bar on
    stderr called ``description`` that stays when it ends; a resumed run starts at the number already done
    and says so."""
    return ProgressView(new_console(stderr=True), bar=CountBar(description))



def _dataset_human(results: list[Any]) -> float | None:
    """The paper-style human accuracy the first FrameBench run recorded from its dataset's judgments, with one
    line on stderr naming the filter it used (the entries an fbagent export's filter keeps, as its dataset card
    and `validate report` count them), or saying that no entry passes it."""
    runs = [r.manifest for r in results if r.task == "framebench"]
    human = next((m.get("human_accuracy_dataset") for m in runs if m.get("human_accuracy_dataset") is not None), None)
    filt = next((m.get("human_filter_dataset") for m in runs if m.get("human_filter_dataset")), None)
    on = (f"on the {filt['kept']} of {filt['judged']} judged entries the dataset's filter keeps (>= {filt['min_correct']}"
          f" correct, >= {filt['min_acceptable']} acceptable), as its dataset card and validate report count them"
          if filt else "on the dataset's judged entries (the file records no filter)")
    if human is not None:
        echo(f"human accuracy: {100 * human:.1f}%, the paper-style score {on} "
             "(no independent baseline given: --validation-report)", err=True)
    elif filt:
        echo(f"human accuracy: n/a: no entry passes the dataset's filter (0 of {filt['judged']} judged entries kept"
             f" at >= {filt['min_correct']} correct, >= {filt['min_acceptable']} acceptable)", err=True)
    return human


def _print_results(folders: list[Path], human: float | None = None) -> None:
    """One run: a two-column table (metric, value) of the report row, so it fits any terminal."""

    results = [evaluation.load_result(f) for f in folders]
    console = report_console()
    for tab in evaluation.tables(results, human):
        title, headers, rows = tab.title, tab.headers, tab.rows
        for row in rows:
            print_table(console, [Col("metric", wrap="words", style="bold"), Col("value", "right", wrap="path")],
                        list(zip(headers, row, strict=True)), title=title, show_header=False)
        if tab.caption:  # under a two-column table: at most 80 columns wide, as any table's caption on a pipe
            for line in wrap_text(tab.caption, min(console.width, PROSE_MIN), "words"):
                console.print(line, highlight=False, markup=False)


def _close(manifest: dict, out: Path, *, show: bool = True, retries: bool = True) -> None:
    """End of a run: exit 1 with one line naming the most common error when every answer of this
    session failed; else the results table (``show``) and a closing line with the failure rate.
    ``retries``: the task asks failed calls again on resume (FrameBench, frame-id; not SemBench)."""
    session = (manifest.get("sessions") or [{}])[-1]
    n, failed = int(session.get("predictions") or 0), int(session.get("failed") or 0)
    top = redact(str(session.get("top_error") or ""))[:300]
    if n and failed == n:
        if int(session.get("call_errors", failed)) < failed:  # the model answered, but with no valid option
            fix = ("check the model and its chat template; if it answers in prose, run again with "
                   "--parse-free-text into another --out")
        elif retries:
            fix = ("check the server URL, model name and API key, then rerun the same command: "
                   "calls that got no answer are asked again")
        else:
            fix = f"check the server URL, model name and API key, then delete {out} and run again"
        secho(f"error: all {n} answers of this run failed; most common error "
                    f"({session.get('top_error_count')}x): {top}. Fix: {fix}", err=True)
        raise typer.Exit(1)
    if show:
        _print_results([out])
    tail = ""
    if failed:
        tail = f" ({failed} of {n} answers failed, {100 * failed / n:.1f}%; most common: {top})"
    echo(f"results: {out}/predictions.jsonl, {out}/summary.json, {out}/manifest.json{tail}")


@app.command("run")
@backend_options
@run_options
def run_cmd(
    dataset: Annotated[Path, typer.Option("--dataset", "-d", help="Validated JSONL from `fbagent export` "
                                           "(fbagent format, or the FrameBench authors' final or step-3 columns).")],
    templates: Annotated[str, typer.Option("--templates", rich_help_panel="Prompts", help="all, or a list such as v1,v3 (with --templates-dir: "
                                            "file names without .txt; v1 matches prompt_v1).")] = ALL_TEMPLATES,
    templates_dir: Annotated[Path | None, typer.Option(
        "--templates-dir", rich_help_panel="Prompts", help="Folder of prompt templates in the FrameBench authors' layout "
        "(DIR/<lang>/prompt_v1.txt ...; docs/eval.md); default: fbagent's own.")] = None,
    labels_file: Annotated[Path | None, typer.Option(
        "--labels", rich_help_panel="Prompts", help="File of the four option labels ('sentence_a: ...' lines; docs/eval.md); default: "
        "DIR/<lang>/labels.txt with --templates-dir, else ours.")] = None,
    choices_style: Annotated[str | None, typer.Option(
        "--choices-style", rich_help_panel="Prompts", help="inline (the authors' one line) or lines (one option per line); default: inline "
        "with --templates-dir, else lines.")] = None,
    templates_lang: Annotated[str | None, typer.Option(
        "--templates-lang", rich_help_panel="Prompts", help="Ask every entry with this language's templates (default: each entry with its "
        "own language's, generic for a language without any).")] = None,
    orders: Annotated[str, typer.Option("--orders", rich_help_panel="Prompts", help="both (each pair in both sentence orders) or canonical "
                                         "(one order, as the authors' evaluator by default).")] = DEFAULT_ORDERS,
    parse_free_text: Annotated[bool, typer.Option(
        "--parse-free-text/--no-parse-free-text", rich_help_panel="Prompts", help="Read an option number from a free-text answer "
        "('Answer: 2', '(2)'; two numbers stay a failure; docs/eval.md).")] = False,
    human_filter: Annotated[bool | None, typer.Option(
        "--human-filter/--no-human-filter", help="Ask only pairs that >= 2 annotators answered correctly and "
        ">= 2 rated acceptable (the authors' columns); default: on when present.")] = None,
    exclude_failures: ExcludeFailuresOpt = False,
    std: StdOpt = "population",
    label: LabelOpt = None,
    limit: LimitOpt = None,
    lang: Annotated[str | None, typer.Option("--lang", help="Language of entries that carry none (the authors' "
                                              "columns never do; default en).")] = None,
    models_file: ModelsFileOpt = None,
    gpus: GpusOpt = None,
    max_cost: MaxCostOpt = None,
    prices_file: PricesOpt = None,
    dry_run: DryRunOpt = False,
    batch: BatchOpt = False,
    backend: list[ModelRun] | None = None,  # built by @backend_options from the model options
    run: EvalRun | None = None,  # built by @run_options
) -> None:
    """Score a model on FrameBench entries: 4 problems per entry x templates, constrained to options 1-4.

    Every prediction goes to OUT/predictions.jsonl; OUT/manifest.json records options, seed and
    versions; OUT/summary.json the metrics. Rerun the same command to resume after a crash.
    Exit 1 when every answer failed. Several models (--model repeated, --models FILE): one folder each
    under OUT (default results/framebench), the same problems and seed, then one leaderboard.
    """
    if std not in evaluation.STDS:
        raise FbagentError(f"unknown --std {std!r}", "use --std population or --std sample")
    assert backend is not None and run is not None   # built by @backend_options and @run_options
    several = len(backend) > 1 or models_file is not None
    if several and label is not None:
        raise FbagentError("--label names one model but several are scored",
                           "give each model a label key in --models FILE, or leave --label out")
    gpu_ids = parse_gpus(gpus, os.environ.get("CUDA_VISIBLE_DEVICES")) if several else []
    settings = evaluation.RunSettings(
        dataset=dataset, templates=templates, lang=lang, limit=limit, **run.settings, templates_dir=templates_dir,
        labels_file=labels_file, choices_style=choices_style, templates_lang=templates_lang, orders=orders,
        parse_free_text=parse_free_text, human_filter=human_filter,
        scoring=evaluation.Scoring(failures="exclude" if exclude_failures else "count", std=std), label=label,
        max_cost=max_cost, prices=load_prices(prices_file), batch=batch)
    _check_money(backend, settings)
    # Validate the whole dataset (up to --limit), the templates and the options before loading a model:
    # a bad line or template must not cost a model load (minutes with vLLM).
    plan = evaluation.plan_run(settings)

    def score_one(model: ModelRun, settings: evaluation.RunSettings, out: Path | None) -> Path:
        return _score(model.config, out, "framebench", "", lambda be, out, prog: evaluation.run_framebench(
            be, settings, out, reasoning=model.config.reasoning, command=sys.argv, plan=plan, on_event=prog),
            show=not several)

    _run_or_plan(backend, settings, plan, run.out, several, gpu_ids, score_one, dry_run)


def _check_money(models: list[ModelRun], settings: evaluation.RunSettings) -> None:
    """Before anything loads: ``--batch`` only for models of a provider with a batch API (openai, gemini);
    ``--max-cost`` only for models with a price."""
    no_batch = [m.folder for m in models if m.config.backend not in BATCH_BACKENDS]
    if settings.batch and no_batch:
        raise FbagentError(f"--batch needs the openai or gemini backend ({', '.join(no_batch)} has no batch API)",
                           "leave --batch out for that model")
    assert settings.prices is not None
    for model in models:
        c = model.config
        check_cap(settings.max_cost, settings.prices.lookup(c.backend, c.model), f"{c.backend}:{c.model}")


def _run_or_plan(models: list[ModelRun], settings: evaluation.RunSettings, plan: Any, out: Path | None, several: bool,
                 gpu_ids: list[int], score_one: Callable[[ModelRun, Any, Path | None], Path], dry_run: bool) -> None:
    """``eval run``'s ending: the dry run's table, one model into ``out``, or several into ``out``'s sub-folders."""
    out_root = out or Path("results") / "framebench"
    if dry_run:
        folders = (folders_of(models, out_root) if several else
                   [out or _default_out("framebench", models[0].config.backend, models[0].config.model)])
        assert settings.prices is not None
        eval_models.dry_run(models, settings, plan, folders, settings.prices)
        return
    if not several:
        score_one(models[0], settings, out)
        return
    _check_out(out_root)
    run_models(models, settings, out_root, gpu_ids, score_one)


#: the fix of `eval report` given lm-eval's results: score the model with fbagent (same problems, same prompts)
LM_EVAL_FIX = ("pass a folder written by `fbagent eval run` (its --out); to report a model next to the others, score "
               "it with `fbagent eval run --dataset DATASET --backend transformers --no-chat` (the lm-eval export's "
               "problems and option scoring)")


def _result_folders(paths: list[Path]) -> list[Path]:
    """Expand the arguments of ``eval report`` into result folders (those holding ``manifest.json``).

    A folder without ``manifest.json`` stands for its sub-folders that have one (the default
    ``--out`` layout is ``results/<task>/<backend>-<model>/``), searched recursively. Raises
    :class:`FbagentError` for a path that does not exist or holds no result folder.
    """
    folders: list[Path] = []
    for p in paths:
        if not p.exists():
            raise FbagentError(f"result folder {p} does not exist", "pass a folder written by `fbagent eval run` (its --out)")
        lm_eval = [f for f in ([p] if p.is_file() else sorted(p.rglob("results*.json"))) if is_lm_eval_results(f)]
        if not p.is_dir() or (p / "manifest.json").is_file():
            if lm_eval:
                raise FbagentError(f"{p} is an lm-evaluation-harness results file, which eval report does not read "
                                   "(lm_eval prints its own table)", LM_EVAL_FIX)
            folders.append(p)  # load_result reports a file or a broken folder
            continue
        found = sorted(m.parent for m in p.rglob("manifest.json"))
        if not found and lm_eval:
            raise FbagentError(f"{p} holds lm-evaluation-harness results ({lm_eval[0].name}), not fbagent's, and "
                               "eval report does not read them (lm_eval prints its own table)", LM_EVAL_FIX)
        if not found:
            raise FbagentError(f"{p} has no manifest.json (nor any sub-folder with one)",
                               "pass a folder written by `fbagent eval run` (its --out)")
        folders.extend(found)
    return list(dict.fromkeys(folders))


#: the fix of a bad `eval report --out`
OUT_FIX = "pass --out with a new or existing folder (report.md, report.csv and the figure are written into it)"


@app.command("report")
def report_cmd(
    result_dirs: Annotated[list[Path], typer.Argument(help="Result folders of `fbagent eval run|frame-id|sembench` "
                                                        "(a folder without manifest.json: its sub-folders that have one).")],
    human_accuracy: Annotated[float | None, typer.Option(
        "--human-accuracy", min=0.0, max=100.0, help="Human accuracy for the reference row and line: a fraction "
        "(0.958, as `validate report --format json` writes) or a percentage (95.8).")] = None,
    validation_report: Annotated[Path | None, typer.Option("--validation-report", help="JSON of `fbagent validate "
                                                            "report --format json` (uses human_accuracy.mean).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Folder for report.md, report.csv and the figure. "
                                             "[default: none: the tables are printed, no file is written]")] = None,
    wide: Annotated[bool, typer.Option("--wide", help="Every column in the terminal (default: a compact table "
                                       "that fits 80 columns; report.md and report.csv always have all).")] = False,
    figure_format: Annotated[list[str], typer.Option("--figure-format", help="png, pdf or svg (repeat for several).")]
    = ["png"],  # noqa: B006 - typer needs a list default
    std: Annotated[str | None, typer.Option("--std", help="population or sample std over templates "
                                            "(default: what the runs recorded).")] = None,
    exclude_failures: Annotated[bool | None, typer.Option(
        "--exclude-failures/--count-failures", help="Failure convention for every run (default: what the runs "
        "recorded; failures counted as wrong when they differ).")] = None,
    n_boot: NBootOpt = DEFAULT_N_BOOT,
) -> None:
    """Cross-model table (as the paper's Tables 3-4: Rich, Markdown, CSV) and a bar plot (PNG, PDF, SVG)."""
    if human_accuracy is not None and validation_report is not None:
        raise FbagentError("both --human-accuracy and --validation-report given", "pass only one of them")
    if std is not None and std not in evaluation.STDS:
        raise FbagentError(f"unknown --std {std!r}", "use --std population or --std sample")
    bad = [f for f in figure_format if f not in evaluation.FIGURE_FORMATS]
    if bad:
        raise FbagentError(f"unknown --figure-format {', '.join(bad)}", f"use {', '.join(evaluation.FIGURE_FORMATS)}")
    if out is not None:   # before the bootstrap: a file there is refused now (the folder is made when written)
        check_folder(out, "--out folder", OUT_FIX)
    failures = None if exclude_failures is None else ("exclude" if exclude_failures else "count")
    human = None
    if human_accuracy is not None:
        human, how = evaluation.parse_human_accuracy(human_accuracy)
        echo(f"human accuracy: {human_accuracy:g} read as a {how} ({100 * human:.1f}%)", err=True)
    if validation_report is not None:   # before the bootstrap: a file that is not a report is refused at once
        human, which = evaluation.human_score_from_report(validation_report)
        echo(f"human accuracy: {100 * human:.1f}%, the {which}", err=True)
    results, scoring, warnings = evaluation.load_results(_result_folders(result_dirs), n_boot=n_boot, std=std,
                                                         failures=failures)
    if human is None:
        human = _dataset_human(results)
    ds = evaluation.dataset_warning(results)
    warnings = warnings + ([ds] if ds else [])
    console = report_console()

    err_console = new_console(stderr=True, width=console.width)
    for w in warnings:  # wrapped at words to the terminal's width
        err_console.print(Text("warning: ", style="yellow") + Text(w), highlight=False)
    print_report(console, evaluation.tables(results, human, wide=wide, scoring=scoring), wide=wide)
    if out is not None:
        make_folder(out, "--out folder", OUT_FIX)
        paths = evaluation.write_report(results, out, human, formats=figure_format, warnings=warnings, scoring=scoring)
        echo("wrote " + ", ".join(str(p) for p in paths.values()))


@app.command("frame-id")
@backend_options
@run_options
def frame_id_cmd(
    db: ExistingDbOption = DEFAULT_DB,
    lexicon: Annotated[str | None, typer.Option("--lexicon", callback=name_check("lexicon name"), help="Lexicon name (default: the only one in the store).")] = None,
    selection: Annotated[int | None, typer.Option("--selection", help="Frame-pair selection id (default: the latest "
                                                   "of the lexicon; without any, pairs come from the lexical units).")] = None,
    shots: Annotated[int, typer.Option("--shots", "-k", **bounds("--shots"), help="Solved examples in the prompt (k-shot).")] = 3,
    limit: LimitOpt = None,
    lang: Annotated[str | None, typer.Option("--lang", help="Prompt language (default: the lexicon's).")] = None,
    definition_chars: Annotated[int, typer.Option("--definition-chars", min=40, help="Cut frame definitions "
                                                   "after this many characters (at a sentence end when possible).")] = 300,
    exclude_failures: ExcludeFailuresOpt = False,
    label: LabelOpt = None,
    backend: ModelConfig | None = None,  # built by @backend_options from the model options
    run: EvalRun | None = None,  # built by @run_options
) -> None:
    """Frame identification (FrameBench appendix B.5): which of two frames does the verb evoke?

    For each verb-frame pair, one exemplar sentence per frame; options: the two frame names with
    definitions and "Neither frame is evoked", shuffled (seeded); constrained to 1-3.
    """
    assert backend is not None and run is not None   # built by @backend_options and @run_options
    settings = evaluation.FrameIdSettings(
        db=db, lexicon=lexicon, selection=selection, shots=shots, limit=limit, lang=lang, **run.settings,
        definition_chars=definition_chars, label=label,
        scoring=evaluation.Scoring(failures="exclude" if exclude_failures else "count"))
    pairs, lex = evaluation.load_pairs(settings)  # fail fast before loading a model
    _score(backend, run.out, "frame-id", "frame-id ", lambda be, out, prog: evaluation.run_frame_id(
        be, settings, out, reasoning=backend.reasoning, pairs=pairs, lexicon=lex, command=sys.argv, on_event=prog))


@app.command("sembench")
@backend_options
@run_options
def sembench_cmd(
    mode: Annotated[str, typer.Option("--mode", help="def (definition -> example -> definition) or "
                                       "ex (example -> definition).")] = "ex",
    dictionary: Annotated[str, typer.Option("--dictionary", help="'wordnet' (WordNet 3.0 via NLTK) or a JSONL file "
                                             "of {word, pos, senses: \\[{definition, examples}]}.")] = "wordnet",
    wordnet_dir: Annotated[Path | None, typer.Option("--wordnet-dir", help="WordNet 3.0 database folder "
                                                      "(default: /usr/share/wordnet, then nltk_data).")] = None,
    instances_file: Annotated[list[Path] | None, typer.Option(
        "--instances-file", help="SemBench's own test set (e.g. test_hard.json; repeat for several; "
        "docs/eval.md): scores exactly its instances, grouped by file.")] = None,
    pos: Annotated[str, typer.Option("--pos", help="Part of speech of the sampled words: n, v, a, r.")] = "v",
    instances: Annotated[int, typer.Option("--instances", "--limit", "-n", **bounds("--instances"),
                                                   help="Number of (word, sense) instances.")] = 100,
    min_senses: Annotated[int, typer.Option("--min-senses", min=4, help="Sample words with at least this many senses "
                                             "(target + 3 distinct distractors).")] = 4,
    shots: Annotated[int, typer.Option("--shots", "-k", **bounds("--shots"), help="Solved examples in the prompt (0 = zero-shot).")] = 0,
    lang: Annotated[str, typer.Option("--lang", help="Language of the dictionary (prompts: en, else generic).")] = "en",
    max_new_tokens: Annotated[int, typer.Option("--max-new-tokens", min=8, help="Tokens per generated definition or example.")] = 48,
    encoder: Annotated[str | None, typer.Option("--encoder", help="Sentence encoder (default: offline all-MiniLM-L6-v2).")] = None,
    backend: ModelConfig | None = None,  # built by @backend_options from the model options
    run: EvalRun | None = None,  # built by @run_options
) -> None:
    """SemBench round trip: is the model's definition closer to the target sense than to a distractor sense?

    Distractors by encoder similarity of glosses: easy (least similar other sense), mid (median),
    hard (most similar), rand (seeded random). Free generation through the same backends.
    """
    assert backend is not None and run is not None   # built by @backend_options and @run_options
    instance_file = list(instances_file or [])
    if not instance_file and looks_like_instances(dictionary):
        instance_file = [Path(dictionary)]   # the authors' format given as --dictionary: score it as is
        echo(f"note: {dictionary} is a SemBench instances file (label, definitions, example); "
                   "scoring its instances as they are (--instances-file)", err=True)
    settings = evaluation.SemBenchSettings(
        mode=mode, dictionary=dictionary, wordnet_dir=wordnet_dir, pos=pos, instances=instances, min_senses=min_senses,
        shots=shots, lang=lang, max_new_tokens=max_new_tokens, encoder=encoder, **run.settings,
        instances_files=instance_file or None)
    data = evaluation.load_instances(settings)  # fail fast (dictionary, encoder) before loading a model
    out = _score(backend, run.out, f"sembench-{mode}-{shots}shot" + ("-sets" if instance_file else ""),
                 f"sembench {mode} ", lambda be, out, prog: evaluation.run_sembench(
                     be, settings, out, reasoning=backend.reasoning, data=data, command=sys.argv, on_event=prog),
                 retries=False)
    if instance_file:
        _print_by_file(out)


def _print_by_file(out: Path) -> None:
    """The per-file table of a SemBench instances-file run (the authors' rule; ``summary.json`` ``by_file``)."""


    path = out / "summary.json"
    by_file = (json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}).get("by_file") or {}
    rows = []
    for group, r in by_file.items():
        pct = evaluation.pct
        ci = [f"[{pct(c[0])}, {pct(c[1])}]" if c else "" for c in (r["ci95"], r["ci95_all"])]
        rows.append([Path(r["file"]).name, group, str(r["n"]), str(r["n_failed"]), f"{pct(r['accuracy'])} {ci[0]}",
                     f"{pct(r['accuracy_all'])} {ci[1]}"])
    cols = [Col("file", wrap="path"), Col("group", wrap="path"), Col("instances", "right", short="n"),
            Col("failed", "right"), Col("accuracy % [95% CI]", "right", wrap="words", short="acc."),
            Col("failures wrong % [95% CI]", "right", wrap="words", short="wrong")]
    print_table(report_console(), cols, rows,
                title="SemBench instances files (authors' rule: label 0 when sim(D, def0) > sim(D, def1))")
