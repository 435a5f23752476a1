"""`fbagent runs list|show RUN`: generation runs, their options, item counts, LLM usage, and why entries failed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from fbagent.commands.options import DEFAULT_DB, ExistingDbOption, db_path, name_check
from fbagent.commands.output import echo, new_console
from fbagent.commands.tables import Col, WideOption, print_table, wrap_text
from fbagent.errors import FbagentError
from fbagent.providers.prices import PriceTable, load_prices, usd
from fbagent.store.batch_jobs import BatchJob, age_text, run_jobs
from fbagent.store.db import open_db
from fbagent.store.items import STATUSES, run_items
from fbagent.store.pairs import run_protocols
from fbagent.store.rows import ModelUsage
from fbagent.store.runs import get_run, item_counts, list_runs, sessions, usage, usage_by_model
from fbagent.text import shown

if TYPE_CHECKING:
    import sqlite_utils
    from rich.console import Console

app = typer.Typer(help="Generation runs: list them, show one (options, counts by status, tokens, calls).",
                  no_args_is_help=True)


@app.command("list")
def list_cmd(db: ExistingDbOption = DEFAULT_DB, wide: WideOption = False) -> None:
    """List every run, newest first: status, items by status, LLM calls, cache hits, tokens."""
    database = open_db(db_path(db), read_only=True)
    runs = list_runs(database)
    console = new_console()
    if not runs:
        console.print("No runs yet. Start one with: fbagent generate --pairs 3 --generator local")
        return
    cols = [Col("run"), Col("status"), Col("generator", wrap="path", drop=1), Col("items", "right"),
            Col("calls", "right"), Col("cache hits", "right", short="hits"), Col("tokens", "right")]
    rows = []
    for run in runs:
        items, usage = run["items"], run["usage"]
        rows.append([run["name"], shown_status(database, run["id"], run["status"]),
                     f"{run['generator'] or ''}:{run['model'] or ''}",
                     "/".join(str(items[s]) for s in STATUSES),
                     str(usage["calls"]), str(usage["cache_hits"]), f"{usage['input_tokens'] + usage['output_tokens']:,}"])
    print_table(console, cols, rows, title=f"Runs in {db_path(db)}", caption="items: verified/flagged/rejected/failed",
                wide=wide)


ENTRY_STATUSES = ("rejected", "failed")


def shown_status(database: sqlite_utils.Database, run_id: int, status: str) -> str:
    """A run's status as a reader should see it: ``running`` only while a session's process still runs; a run
    whose every running session is gone (killed, stopped by a signal, crashed) reads ``interrupted (killed)``,
    as ``runs show`` gives its sessions and the next ``generate`` records it. Writes nothing."""
    if status != "running":
        return status
    live = [s for s in sessions(database, run_id, as_recovered=True) if s["status"] == "running"]
    return status if live else "interrupted (killed)"


def problem_entries(database: sqlite_utils.Database, run_id: int, statuses: tuple[str, ...] = ENTRY_STATUSES) -> list[dict]:
    """Entries of a run with one of ``statuses``, by pair and k: ``[{"id", "pair_id", "k", "status", "verb", "lu_a",
    "lu_b", "frame_a", "frame_b", "attempts", "reasons": [str]}]`` (``reasons`` as stored, in order)."""
    keys = ("id", "pair_id", "k", "status", "verb", "lu_a", "lu_b", "frame_a", "frame_b", "attempts")
    out = []
    for status in statuses:
        for item in run_items(database, run_id, status):
            reasons = item.get("reasons") or []
            out.append({**{k: item.get(k) for k in keys},
                        "reasons": [str(r) for r in reasons] if isinstance(reasons, list) else [str(reasons)]})
    return sorted(out, key=lambda e: (e["pair_id"], e["k"]))


@app.command("show")
def show_cmd(
    run: Annotated[str, typer.Argument(callback=name_check("run name"), help="Run name (or numeric id), as printed by `fbagent runs list`.")],
    db: ExistingDbOption = DEFAULT_DB,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables "
                                          "(entries with all their reasons).")] = False,
    entry_status: Annotated[str | None, typer.Option("--status", help="List only the entries with this status: "
                                                     "rejected or failed (default: both).")] = None,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Table: at most N entries (0 = all; --json has all).")] = 50,
    wide: WideOption = False,
    prices_file: Annotated[Path | None, typer.Option("--prices", help="TOML price file over fbagent's table "
                                                     "(fbagent/data/prices.toml; also env FBAGENT_PRICES).")] = None,
) -> None:
    """Show one run: command, backends, options, prompt versions, items by status, LLM usage by task, its cost
    from the recorded usage, sessions, and the rejected and failed entries with their first reason."""
    if entry_status is not None and entry_status not in ENTRY_STATUSES:
        raise FbagentError(f"unknown --status {entry_status!r}", "pass --status rejected or --status failed")
    database = open_db(db_path(db), read_only=True)
    row = get_run(database, run)
    if row is None:
        raise FbagentError(f"no run named {run!r} in {db_path(db)}", "see the names with: fbagent runs list")
    counts = item_counts(database, row["id"])
    use = usage(database, row["id"])
    sess = sessions(database, row["id"], as_recovered=True)  # killed sessions shown as interrupted
    entries = problem_entries(database, row["id"], (entry_status,) if entry_status else ENTRY_STATUSES)
    cost = run_cost(usage_by_model(database, row["id"]), load_prices(prices_file))
    jobs = run_jobs(database, row["id"])
    if as_json:
        echo(json.dumps({"run": row, "items": counts, "usage": use, "cost": cost, "sessions": sess, "entries": entries,
                         "batch_jobs": [_job_json(j) for j in jobs]}, ensure_ascii=False, indent=2, default=str))
        return

    console = new_console()
    head = [[key, "" if row.get(key) is None else str(row[key])] for key in (
        "status", "command", "generator", "model", "verifier_generator", "verifier_model", "encoder", "seed",
        "selection_id", "created_at", "updated_at")]
    head += [["selection protocol", run_protocols(database, row["name"]).get(row["name"], "none (no selection)")]]
    head += [["options", json.dumps(row["options"], ensure_ascii=False, sort_keys=True)],
             ["prompt versions", json.dumps(row["prompt_versions"], ensure_ascii=False, sort_keys=True)]]
    print_table(console, [Col("field", style="bold", wrap="words"), Col("value", wrap="words")], head,
                title=f"Run {row['name']} (id {row['id']})", show_header=False)
    print_table(console, [Col(c, "right") for c in (*STATUSES, "total")],
                [[*(str(counts[s]) for s in STATUSES), str(sum(counts.values()))]],
                title="Items by status")
    calls = [[task, str(u["calls"]), str(u["failures"]), f"{u['input_tokens']:,}", f"{u['output_tokens']:,}"]
             for task, u in use["by_task"].items()]
    calls.append(["total", str(use["calls"]), str(use["failures"]), f"{use['input_tokens']:,}", f"{use['output_tokens']:,}"])
    print_table(console, [Col("task", wrap="path"), *(Col(c, "right") for c in ("calls", "failures", "tokens in", "tokens out"))],
                calls, title="LLM usage (new requests; cache hits cost nothing)",
                row_styles=[None] * (len(calls) - 1) + ["bold"])
    console.print(f"cache hits: {use['cache_hits']}   wall time over {len(sess)} session(s): {use['wall_s']:.1f} s")
    _print_cost(console, cost)
    _print_jobs(console, jobs)
    if sess:
        st = []
        for i, s in enumerate(sess, 1):
            shown = "interrupted (killed)" if s.get("killed") else s["status"]
            st.append([str(i), (s["started_at"] or "")[:19].replace("T", " "), shown, str(s["entries_done"]),
                       str(s["calls"]), str(s["cache_hits"]), f"{s['wall_s'] or 0:.1f}"])
        print_table(console, [Col("#", "right"), Col("started", wrap="words"), Col("status", wrap="words"),
                              *(Col(c, "right") for c in ("entries", "calls", "cache hits", "wall s"))],
                    st, title="Sessions (one per `fbagent generate` invocation)")
    _print_entries(console, entries, entry_status, limit, row["name"], wide)


def run_cost(by_model: Sequence[ModelUsage], prices: PriceTable) -> dict:
    """The cost of a run's recorded usage (:func:`fbagent.store.runs.usage_by_model`) at ``prices``:
    ``{"usd": total or None when a model has no price, "date": the table's date, "models": [row + "price",
    "usd"]}``; a model without a price has ``usd`` ``None``."""
    models, total = [], 0.0
    for m in by_model:
        price = prices.lookup(m["backend"], m["model"])
        dollars = None if price is None else price.cost(m["input_tokens"], m["output_tokens"], batch=m["batch"])
        models.append({**m, "price": None if price is None else price.key, "usd": dollars})
        total += dollars or 0.0
    unknown = any(m["usd"] is None for m in models)
    return {"usd": None if unknown else round(total, 6), "usd_known": round(total, 6), "date": prices.date,
            "models": models}


def _print_cost(console: Console, cost: dict) -> None:
    """The cost table of :func:`run_cost` (nothing without recorded usage)."""
    rows = [[f"{m['backend']}:{m['model']}{' (batch)' if m.get('batch') else ''}", f"{m['calls']:,}", f"{m['input_tokens']:,}", f"{m['output_tokens']:,}",
             m["price"] or "no price: --prices FILE", usd(m["usd"])] for m in cost["models"]]
    if not rows:
        return
    rows.append(["total", "", "", "", "", usd(cost["usd"]) if cost["usd"] is not None
                 else f"{usd(cost['usd_known'])} + unknown"])
    print_table(console, [Col("model", wrap="path"), *(Col(c, "right") for c in ("calls", "tokens in", "tokens out")),
                          Col("price of", wrap="words"), Col("US$", "right")], rows,
                title=f"Cost from the recorded usage (prices of {cost['date']}; cache hits cost nothing)",
                row_styles=[None] * (len(rows) - 1) + ["bold"])


def _job_json(job: BatchJob) -> dict:
    """One batch job as ``runs show --json`` gives it (its lines' cache keys left out: ``lines`` counts them)."""
    return {"job_id": job.job_id, "provider": job.provider, "model": job.model, "wave": job.wave, "lines": job.lines,
            "status": job.status, "open": job.open, "answered": job.answered, "failed": job.failed,
            "submitted_at": job.submitted_at, "updated_at": job.updated_at, "age_s": round(job.age_s(), 1)}


def _print_jobs(console: Console, jobs: list[BatchJob]) -> None:
    """The run's provider batch jobs (``generate --batch``), pending ones first; nothing without any."""
    if not jobs:
        return
    ordered = [j for j in jobs if j.open] + [j for j in jobs if not j.open]
    rows = [[j.job_id, f"{j.provider}:{j.model}", str(j.wave), str(j.lines), j.status,
             "" if j.open else f"{j.answered}/{j.failed}", age_text(j.age_s())] for j in ordered]
    pending = sum(1 for j in jobs if j.open)
    print_table(console, [Col("job", wrap="path"), Col("model", wrap="path"), Col("wave", "right"),
                          Col("lines", "right"), Col("state", wrap="words"), Col("answered/failed", "right"),
                          Col("age", "right")], rows,
                title=f"Batch jobs ({pending} pending; the same `fbagent generate` command polls them)")


def _print_entries(console: Console, entries: list[dict], status: str | None, limit: int, run_name: str,
                   wide: bool = False) -> None:
    """The table of rejected/failed entries with their first reason (all reasons: --json)."""
    what = status or "rejected and failed"
    if not entries:
        console.print(f"No {what} entries.")
        return
    shown = entries if limit == 0 else entries[:limit]
    title = f"{what.capitalize()} entries ({len(entries)}; first reason, all of them with --json)"
    firsts = [(e["reasons"][0] if e["reasons"] else "(no reason stored)")
              + (f" (+{len(e['reasons']) - 1} more)" if len(e["reasons"]) > 1 else "") for e in shown]
    if wide:
        rows = [[e["id"], e["status"], e["verb"] or "", f"{e['frame_a']} / {e['frame_b']}", str(e["attempts"] or ""),
                 first] for e, first in zip(shown, firsts, strict=True)]
        print_table(console, [Col("entry"), Col("status"), Col("verb", wrap="path", min_width=10),
                              Col("frames", wrap="path"), Col("attempts", "right", short="tries"),
                              Col("first reason", wrap="words")], rows, wide=True, title=title)
    else:
        _print_entry_blocks(console, shown, firsts, title)
    if len(shown) < len(entries):
        console.print(f"{len(entries) - len(shown)} more not shown: fbagent runs show {run_name} --limit 0 "
                      "(or --json)", highlight=False)


def _print_entry_blocks(console: Console, entries: list[dict], firsts: list[str], title: str) -> None:
    """One block per entry at the terminal's width: ``id  status  verb  frame A / frame B  (attempts: n)``,
    then the first reason indented under it; lines break at spaces only (``--wide``: one table row each)."""
    width = console.width
    for line in wrap_text(shown(title), width, "words"):
        console.print(Text(line, style="italic"), highlight=False)
    console.print(Text("entry  status  verb  frames  (attempts)\n    first reason", style="dim"), highlight=False)
    for e, first in zip(entries, firsts, strict=True):
        n = e["attempts"]
        tries = "" if n is None else f"  (attempts: {n})"
        head = shown(f"{e['id']}  {e['status']}  {e['verb'] or ''}  {e['frame_a']} / {e['frame_b']}{tries}")
        for line in wrap_text(head, width, "words"):
            console.print(Text(line, style="bold"), highlight=False)
        for line in wrap_text(shown(first), width - 4, "words"):
            console.print(Text("    " + line), highlight=False)
