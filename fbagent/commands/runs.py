"""`fbagent runs list|show RUN`: generation runs, their options, item counts and LLM usage."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from fbagent.options import DbOption, db_path

app = typer.Typer(help="Generation runs: list them, show one (options, counts by status, tokens, calls).",
                  no_args_is_help=True)


@app.command("list")
def list_cmd(db: DbOption = None) -> None:
    """List every run, newest first: status, items by status, LLM calls, cache hits, tokens."""
    from rich.console import Console
    from rich.table import Table

    from fbagent.store.db import open_db
    from fbagent.store.runs import list_runs

    runs = list_runs(open_db(db_path(db), create=False))
    console = Console()
    if not runs:
        console.print("No runs yet. Start one with: fbagent generate --pairs 3 --generator local")
        return
    table = Table(title=f"Runs in {db_path(db)}", caption="items: verified/flagged/rejected/failed")
    table.add_column("run", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("generator", overflow="ellipsis", max_width=24)
    table.add_column("items", justify="right", no_wrap=True)
    table.add_column("calls", justify="right")
    table.add_column("cache hits", justify="right")
    table.add_column("tokens", justify="right", no_wrap=True)
    for run in runs:
        items, usage = run["items"], run["usage"]
        table.add_row(
            run["name"], run["status"], f"{run['generator'] or ''}:{run['model'] or ''}",
            "/".join(str(items[s]) for s in ("verified", "flagged", "rejected", "failed")),
            str(usage["calls"]), str(usage["cache_hits"]), f"{usage['input_tokens'] + usage['output_tokens']:,}",
        )
    console.print(table)


@app.command("show")
def show_cmd(
    run: Annotated[str, typer.Argument(help="Run name (or numeric id), as printed by `fbagent runs list`.")],
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Show one run: command, backends, options, prompt versions, items by status, LLM usage by task, sessions."""
    from rich.console import Console
    from rich.table import Table

    from fbagent.errors import FbagentError
    from fbagent.store.db import open_db
    from fbagent.store.runs import get_run, item_counts, sessions, usage

    database = open_db(db_path(db), create=False)
    row = get_run(database, run)
    if row is None:
        raise FbagentError(f"no run named {run!r} in {db_path(db)}", "see the names with: fbagent runs list")
    counts = item_counts(database, row["id"])
    use = usage(database, row["id"])
    sess = sessions(database, row["id"])
    if as_json:
        typer.echo(json.dumps({"run": row, "items": counts, "usage": use, "sessions": sess}, ensure_ascii=False,
                              indent=2, default=str))
        return
    console = Console()
    head = Table(title=f"Run {row['name']} (id {row['id']})", show_header=False)
    head.add_column("field", style="bold")
    head.add_column("value", overflow="fold")
    for key in ("status", "command", "generator", "model", "verifier_generator", "verifier_model", "encoder", "seed",
                "selection_id", "created_at", "updated_at"):
        head.add_row(key, "" if row.get(key) is None else str(row[key]))
    head.add_row("options", json.dumps(row["options"], ensure_ascii=False, sort_keys=True))
    head.add_row("prompt versions", json.dumps(row["prompt_versions"], ensure_ascii=False, sort_keys=True))
    console.print(head)
    status = Table(title="Items by status")
    for col in ("verified", "flagged", "rejected", "failed", "total"):
        status.add_column(col, justify="right")
    status.add_row(*(str(counts[s]) for s in ("verified", "flagged", "rejected", "failed")), str(sum(counts.values())))
    console.print(status)
    calls = Table(title="LLM usage (new requests; cache hits cost nothing)")
    for col in ("task", "calls", "failures", "tokens in", "tokens out"):
        calls.add_column(col, justify="right" if col != "task" else "left")
    for task, u in use["by_task"].items():
        calls.add_row(task, str(u["calls"]), str(u["failures"]), f"{u['input_tokens']:,}", f"{u['output_tokens']:,}")
    calls.add_row("total", str(use["calls"]), str(use["failures"]), f"{use['input_tokens']:,}",
                  f"{use['output_tokens']:,}", style="bold")
    console.print(calls)
    console.print(f"cache hits: {use['cache_hits']}   wall time over {len(sess)} session(s): {use['wall_s']:.1f} s")
    if sess:
        st = Table(title="Sessions (one per `fbagent generate` invocation)")
        for col in ("#", "started", "status", "entries", "calls", "cache hits", "wall s"):
            st.add_column(col, justify="right" if col not in ("started", "status") else "left")
        for i, s in enumerate(sess, 1):
            st.add_row(str(i), (s["started_at"] or "")[:19].replace("T", " "), s["status"], str(s["entries_done"]),
                       str(s["calls"]), str(s["cache_hits"]), f"{s['wall_s'] or 0:.1f}")
        console.print(st)
