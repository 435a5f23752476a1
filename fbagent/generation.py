"""Orchestration of ``fbagent generate``: run record, pair selection, one LangGraph thread per entry.

Flow of :func:`generate` (FrameBench construction, Yano and Sasano 2026, sec. 3):

1. Resolve the lexicon (the embedded sample when the database has none) and
   the run: ``--run NAME``, or a name derived from the lexicon, generator, seed
   and a hash of every option that changes results, so that running the same
   command again continues the same run.
2. Pair selection (:mod:`fbagent.agents.selection_graph`) unless the run
   already has a selection: candidates -> filters -> seeded sample -> LLM
   screening with replacement from the seeded reserve.
3. Entries = selected pairs x ``per_pair``. Entries whose ``items`` row has a
   final status (verified, flagged, rejected) are skipped; ``failed`` ones are
   redone. Each entry runs the entry graph (:mod:`fbagent.agents.entry_graph`)
   as its own LangGraph thread (``thread_id`` = item id) with an
   ``AsyncSqliteSaver`` checkpointer in ``<db stem>.checkpoints.db`` next to the
   database (a separate file, so checkpoint writes never wait on the main
   database's write lock): an entry killed mid-graph resumes from its last
   checkpoint. A finished entry is one ``items`` row written in one short
   transaction; its checkpoints are then deleted.
4. At most ``concurrency`` LLM requests are in flight (the clients' bound) and
   at most ``2 x concurrency`` entries; the encoder and llama.cpp run in worker
   threads. A Rich progress bar shows entries, statuses, calls, tokens and
   cache hits; a summary table follows.
5. Ctrl-C cancels the entries in flight (their checkpoints and every finished
   LLM call stay), records the session as interrupted and re-raises
   ``KeyboardInterrupt``. ``kill -9`` loses at most the LLM requests in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import shlex
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError

FINAL = ("verified", "flagged", "rejected")


@dataclass
class GenerateOptions:
    """Every option of ``fbagent generate`` (see ``fbagent generate --help`` for units and defaults)."""

    pairs: int = 10
    lexicon: str | None = None
    per_pair: int = 1
    seed: int = 0
    generator: str = "local"
    model: str | None = None
    base_url: str | None = None
    model_path: str | None = None
    verifier_generator: str | None = None
    verifier_model: str | None = None
    verifier_base_url: str | None = None
    encoder: str | None = None
    concurrency: int = 4
    max_retries: int = 2
    llm_retries: int = 3
    timeout_s: float = 60.0
    similarity_threshold: float = 0.5
    near_copy_threshold: float = 0.7
    margin: float = 0.0
    max_per_verb: int | None = None
    run: str | None = None
    dry_run: bool = False
    screen: bool | None = None
    judge: bool = False
    variant_temperature: float = 0.8
    max_tokens: int = 512
    durability: str = "sync"
    backoff_s: float = 1.0            # first LLM retry backoff, seconds (tests use less)

    def result_options(self) -> dict[str, Any]:
        """The options that change what is generated (stored with the run, hashed into its default name)."""
        keys = ("pairs", "per_pair", "seed", "generator", "model", "verifier_generator", "verifier_model", "encoder",
                "max_retries", "similarity_threshold", "near_copy_threshold", "margin", "max_per_verb", "screen",
                "judge", "variant_temperature", "max_tokens")
        return {k: getattr(self, k) for k in keys}


@dataclass
class GenerationSummary:
    """What one ``generate`` invocation did (returned to the CLI, tests and the benchmark)."""

    run_name: str
    run_id: int | None
    db_path: str
    entries_total: int = 0
    entries_skipped: int = 0          # already finished before this session
    entries_done: int = 0             # finished in this session
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("verified", "flagged", "rejected", "failed"), 0))
    run_counts: dict[str, int] = field(default_factory=dict)
    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    wall_s: float = 0.0
    entries_wall_s: float = 0.0       # wall time of the entry phase only (no start-up, no selection)
    interrupted: bool = False
    dry_run: bool = False
    plan: dict[str, Any] | None = None
    lexicon_imported: bool = False
    selection: dict[str, Any] | None = None
    # set when every new LLM call of the session failed, or every entry of the session failed: one line
    # naming the most common error and the fix (the CLI prints it and exits 1; stored data stays)
    session_failed: str | None = None


def default_run_name(lexicon: str, opts: GenerateOptions) -> str:
    """``<lexicon>-<generator>-s<seed>-<8 hex of the result options>``: same command, same run."""
    doc = json.dumps({"lexicon": lexicon, **opts.result_options()}, sort_keys=True, default=str)
    digest = hashlib.sha256(doc.encode()).hexdigest()[:8]
    return f"{lexicon}-{opts.generator}-s{opts.seed}-{digest}"


def checkpoint_path(db_path: str | Path) -> Path:
    """Where LangGraph checkpoints live: ``<db folder>/<db stem>.checkpoints.db``."""
    p = Path(db_path)
    return p.with_name(p.stem + ".checkpoints.db")


def _command_line() -> str:
    return " ".join(shlex.quote(a) for a in ["fbagent", *sys.argv[1:]]) if sys.argv else "fbagent generate"


# --------------------------------------------------------------------------- estimates


OUTPUT_TOKEN_ESTIMATE = {"generate_base": 120, "extend": 40, "define": 30, "judge": 4, "screen": 50}


def estimate_tokens(text: str) -> int:
    """Rough token count of a prompt: ``ceil(chars / 4)`` (characters for scripts without spaces)."""
    return max(1, (len(text) + 3) // 4)


# --------------------------------------------------------------------------- the run


async def generate(db_path: str | Path, opts: GenerateOptions, *, console: Any = None, encoder: Any = None,
                   command: str | None = None, progress: bool = True) -> GenerationSummary:
    """Run (or resume, or plan with ``opts.dry_run``) one generation run; see the module doc.

    ``encoder``: a ready :class:`fbagent.verifier.TextEncoder` (tests/benchmarks); by
    default the sentence-transformers model of ``opts.encoder`` is loaded once, in a
    worker thread. Returns a :class:`GenerationSummary`. Raises :class:`FbagentError`
    for bad options (unknown lexicon, run name taken by other options, missing key or
    package) and re-raises ``asyncio.CancelledError`` after recording an interruption.
    """
    from rich.console import Console

    from fbagent.store import items as items_store
    from fbagent.store import runs as runs_store
    from fbagent.store.db import open_db

    console = console or Console(stderr=False)
    _validate(opts)
    started = time.perf_counter()
    db = open_db(db_path)
    lexicon, notes = _resolve_lexicon(db, opts.lexicon)
    lexicon_name = lexicon["name"]
    imported = any("embedded" in n for n in notes)
    for note in notes:
        console.print(note, markup=False, highlight=False)
    screen = opts.screen if opts.screen is not None else True
    opts.screen = screen
    run_name = opts.run or default_run_name(lexicon_name, opts)
    summary = GenerationSummary(run_name=run_name, run_id=None, db_path=str(db_path), dry_run=opts.dry_run,
                                lexicon_imported=imported)

    from fbagent.agents.prompting import load_prompts

    prompts = load_prompts(lexicon["lang"])
    run = runs_store.get_run(db, run_name)
    if run is not None:
        _check_compatible(run, lexicon, opts)
        summary.run_id = run["id"]

    # -- dry run: plan only, no LLM call, nothing stored (besides an embedded-lexicon import)
    if opts.dry_run:
        summary.plan = await _plan(db, lexicon, prompts, run, opts)
        summary.wall_s = time.perf_counter() - started
        _print_plan(console, summary, opts)
        for warning in _missing_key_warnings(opts):
            console.print(f"warning: {warning}", markup=False, highlight=False)
        return summary

    # -- nothing left to do (a finished run run again): no model or encoder to load
    if run is not None and run.get("selection_id") is not None and (
            not screen or (run.get("options") or {}).get("screening_done")):
        from fbagent.agents.selection_graph import load_run_pairs

        entries = [(p, k) for p in load_run_pairs(db, run["selection_id"])
                   for k in range(int(p.get("per_pair") or opts.per_pair))]
        finished = items_store.finished_ids(db, run["id"])
        if all(items_store.item_id(run_name, p["id"], k) in finished for p, k in entries):
            session_id = runs_store.start_session(db, run["id"], command or _command_line())
            summary.entries_total = summary.entries_skipped = len(entries)
            summary.wall_s = time.perf_counter() - started
            runs_store.finish_session(db, session_id, status="finished", entries_done=0, calls=0, cache_hits=0,
                                      failures=0, input_tokens=0, output_tokens=0, wall_s=summary.wall_s)
            runs_store.update_run(db, run["id"], status="finished")
            summary.run_counts = runs_store.item_counts(db, run["id"])
            console.print(f"Run [bold]{run_name}[/]: all {len(entries)} entries already finished; nothing to do.")
            _print_summary(console, summary)
            return summary

    # -- clients and encoder (loaded once per run, in worker threads)
    gen_client, ver_client, text_encoder = await _start_backends(db, opts, encoder)
    clients = [gen_client] if ver_client is gen_client else [gen_client, ver_client]
    if run is None:
        run = runs_store.create_run(
            db, name=run_name, command=command or _command_line(), lexicon_id=lexicon["id"],
            generator=opts.generator, model=gen_client.model, verifier_generator=ver_client.backend,
            verifier_model=ver_client.model, encoder=getattr(text_encoder, "name", None) or opts.encoder,
            seed=opts.seed, options={**opts.result_options(), "lexicon": lexicon_name, "concurrency": opts.concurrency,
                                     "llm_retries": opts.llm_retries, "timeout_s": opts.timeout_s,
                                     "base_url": _public(opts.base_url)},
            prompt_versions=prompts.versions,
        )
    else:
        runs_store.update_run(db, run["id"], status="running")
    summary.run_id = run["id"]
    session_id = runs_store.start_session(db, run["id"], command or _command_line())
    status = "interrupted"
    item_errors: Counter[str] = Counter()
    saver_cm = None
    batch_encoder = None
    try:
        # -- pair selection (once per run)
        from fbagent.agents.selection_graph import load_run_pairs, select_pairs

        if run.get("selection_id") is None:
            selection = await select_pairs(
                db, lexicon, pairs=opts.pairs, per_pair=opts.per_pair, seed=opts.seed, max_per_verb=opts.max_per_verb,
                prompts=prompts, run_id=run["id"], save=True,
            )
            runs_store.update_run(db, run["id"], selection_id=selection["selection_id"])
            run["selection_id"] = selection["selection_id"]
            summary.selection = selection
            _print_selection(console, selection, opts)
        if screen and not (run.get("options") or {}).get("screening_done"):
            screening = await select_pairs(
                db, lexicon, pairs=opts.pairs, per_pair=opts.per_pair, seed=opts.seed, max_per_verb=opts.max_per_verb,
                screen_client=gen_client, prompts=prompts, run_id=run["id"], save=True,
                selection_id=run["selection_id"],
            )
            run["options"] = {**(run.get("options") or {}), "screening_done": True}
            runs_store.update_run(db, run["id"], options=run["options"])
            summary.selection = {**(summary.selection or {}), "screened": screening["screened"],
                                 "screened_out": screening["screened_out"]}
            _print_screening(console, screening)
        pairs = load_run_pairs(db, run["selection_id"])
        entries = [(p, k) for p in pairs for k in range(int(p.get("per_pair") or opts.per_pair))]
        finished = items_store.finished_ids(db, run["id"])
        todo = [(p, k) for p, k in entries if items_store.item_id(run_name, p["id"], k) not in finished]
        summary.entries_total = len(entries)
        summary.entries_skipped = len(entries) - len(todo)
        if summary.entries_skipped:
            console.print(f"Resuming run [bold]{run_name}[/]: {summary.entries_skipped} of {len(entries)} entries "
                          "already finished, skipped.")

        # -- graph, checkpointer, context
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        from fbagent.agents.entry_graph import EntryContext, EntryOptions, compile_entry_graph
        from fbagent.verifier import BatchEncoder, ReferenceBank

        saver_cm = AsyncSqliteSaver.from_conn_string(str(checkpoint_path(db_path)))
        saver = await saver_cm.__aenter__()
        await saver.setup()
        await saver.conn.execute("PRAGMA synchronous = NORMAL")
        graph = compile_entry_graph(saver)
        batch_encoder = BatchEncoder(text_encoder)
        references = ReferenceBank(batch_encoder, _reference_texts(db, lexicon["id"]))
        ctx = EntryContext(
            generator=gen_client, verifier=ver_client, prompts=prompts, encoder=batch_encoder, references=references,
            options=EntryOptions(
                similarity_threshold=opts.similarity_threshold, near_copy_threshold=opts.near_copy_threshold,
                max_retries=opts.max_retries, margin=opts.margin, judge=opts.judge, seed=opts.seed,
                variant_temperature=opts.variant_temperature, max_tokens=opts.max_tokens,
            ),
            encoder_name=getattr(text_encoder, "name", None) or opts.encoder,
        )
        frame_infos = _FrameInfoCache(db, lexicon["id"])
        entries_started = time.perf_counter()
        await _run_entries(
            db=db, graph=graph, saver=saver, ctx=ctx, todo=todo, run=run, lexicon=lexicon, frame_infos=frame_infos,
            opts=opts, clients=clients, summary=summary, console=console, show_progress=progress,
            item_errors=item_errors,
        )
        summary.entries_wall_s = time.perf_counter() - entries_started
        status = "finished"
    except asyncio.CancelledError:
        summary.interrupted = True
        raise
    except BaseException:
        status = "error"
        raise
    finally:
        summary.wall_s = time.perf_counter() - started
        for c in clients:
            summary.calls += c.stats.calls
            summary.cache_hits += c.stats.cache_hits
            summary.failures += c.stats.failures
            summary.input_tokens += c.stats.input_tokens
            summary.output_tokens += c.stats.output_tokens
        with contextlib.suppress(Exception):
            runs_store.finish_session(
                db, session_id, status=status, entries_done=summary.entries_done, calls=summary.calls,
                cache_hits=summary.cache_hits, failures=summary.failures, input_tokens=summary.input_tokens,
                output_tokens=summary.output_tokens, wall_s=summary.wall_s,
            )
            runs_store.update_run(db, run["id"], status="finished" if status == "finished" else "interrupted")
        if saver_cm is not None:
            with contextlib.suppress(Exception):
                await saver_cm.__aexit__(None, None, None)
        if batch_encoder is not None:
            batch_encoder.close()
        for c in clients:
            with contextlib.suppress(Exception):
                await c.aclose()
        summary.run_counts = runs_store.item_counts(db, run["id"])
        if status == "finished":
            summary.session_failed = _session_failure(summary, clients, item_errors)
        if status != "error":
            _print_summary(console, summary)
    return summary


SESSION_FAILED_FIX = "check --base-url / the server / the API key; rerun the same command to retry the failed entries"


def _session_failure(summary: GenerationSummary, clients: list[Any], item_errors: Counter[str]) -> str | None:
    """One line when the session achieved nothing: every new LLM call failed (``calls > 0``) or every
    entry finished in it is ``failed``; names the most common error and the fix. ``None`` otherwise."""
    calls_failed = summary.calls > 0 and summary.failures == summary.calls
    entries_failed = summary.entries_done > 0 and summary.counts.get("failed", 0) == summary.entries_done
    if not (calls_failed or entries_failed):
        return None
    errors: Counter[str] = Counter()
    for c in clients:
        errors.update(getattr(c.stats, "errors", None) or {})
    if not errors:
        errors = item_errors
    what = (f"all {summary.failures} LLM calls of this session failed" if calls_failed
            else f"all {summary.entries_done} entries of this session failed")
    if errors:
        text, n = errors.most_common(1)[0]
        what += f"; most common error ({n}x): {text}"
    return f"{what}. Fix: {SESSION_FAILED_FIX}"


def _validate(opts: GenerateOptions) -> None:
    if opts.pairs < 1:
        raise FbagentError(f"--pairs must be at least 1, got {opts.pairs}", "pass --pairs 1 or more")
    if opts.per_pair < 1:
        raise FbagentError(f"--per-pair must be at least 1, got {opts.per_pair}", "pass --per-pair 1 or more")
    if opts.concurrency < 1:
        raise FbagentError(f"--concurrency must be at least 1, got {opts.concurrency}", "pass --concurrency 1 or more")
    if opts.max_retries < 0:
        raise FbagentError(f"--max-retries must be 0 or more, got {opts.max_retries}", "pass --max-retries 0 or more")
    if not 0.0 <= opts.similarity_threshold <= 1.0:
        raise FbagentError(f"--similarity-threshold must be in [0, 1], got {opts.similarity_threshold}",
                           "pass a value such as 0.5")
    if not 0.0 < opts.near_copy_threshold <= 1.0:
        raise FbagentError(f"--near-copy-threshold must be in (0, 1], got {opts.near_copy_threshold}",
                           "pass a value such as 0.7")
    if not opts.timeout_s > 0 or opts.timeout_s == float("inf"):
        raise FbagentError(f"--timeout must be a positive number of seconds, got {opts.timeout_s}",
                           "pass --timeout 60 (seconds per LLM request)")
    if opts.llm_retries < 0:
        raise FbagentError(f"--llm-retries must be 0 or more, got {opts.llm_retries}", "pass --llm-retries 0 or more")
    if opts.max_per_verb is not None and opts.max_per_verb < 1:
        raise FbagentError(f"--max-per-verb must be at least 1, got {opts.max_per_verb}",
                           "pass --max-per-verb 1 or more, or leave it out")
    if not -2.0 <= opts.margin < 2.0:
        raise FbagentError(f"--margin must be in [-2, 2) (a cosine difference), got {opts.margin}",
                           "pass a value such as 0.0")
    if opts.durability not in ("sync", "async", "exit"):
        raise FbagentError(f"unknown checkpoint durability {opts.durability!r}", "use sync, async or exit")


def _missing_key_warnings(opts: GenerateOptions) -> list[str]:
    """For ``--dry-run``: one line per backend of the run whose API key the real run would miss."""
    import os

    used = [(opts.generator, opts.base_url)]
    verifier = opts.verifier_generator or opts.generator
    used.append((verifier, opts.verifier_base_url or (opts.base_url if verifier == opts.generator else None)))
    warnings: list[str] = []
    for backend, base_url in used:
        backend = (backend or "").strip().lower()
        if backend == "gemini" and not (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")):
            line = "the real run needs GEMINI_API_KEY or GOOGLE_API_KEY (gemini backend); neither is set"
        elif backend == "openai" and not os.environ.get("OPENAI_API_KEY") and not (
                base_url or os.environ.get("OPENAI_BASE_URL")):
            line = "the real run needs OPENAI_API_KEY (openai backend without --base-url); it is not set"
        else:
            continue
        if line not in warnings:
            warnings.append(line)
    return warnings


def _public(url: str | None) -> str | None:
    if not url:
        return None
    from fbagent.llm.cache import public_url

    return public_url(url)


def _check_compatible(run: dict[str, Any], lexicon: dict[str, Any], opts: GenerateOptions) -> None:
    """An existing run continues only with the same lexicon and result options."""
    if run.get("kind") not in (None, "generate"):
        raise FbagentError(f"run {run['name']!r} is a {run['kind']} run, not a generation run",
                           "pass another --run NAME")
    if run.get("lexicon_id") != lexicon["id"]:
        raise FbagentError(f"run {run['name']!r} was made on another lexicon", "pass --run NEW_NAME or the same --lexicon")
    stored = run.get("options") or {}
    wanted = opts.result_options()
    diff = [k for k, v in wanted.items() if k in stored and stored[k] != v]
    if diff:
        shown = ", ".join(f"{k}: {stored[k]!r} -> {wanted[k]!r}" for k in diff)
        raise FbagentError(f"run {run['name']!r} exists with other options ({shown})",
                           "rerun with the run's options to resume it, or pass --run NEW_NAME")


def _resolve_lexicon(db: Any, name: str | None) -> tuple[dict[str, Any], list[str]]:
    """The lexicon row to use and the notes of :func:`fbagent.lexicon.importer.resolve_lexicon`
    (e.g. that the embedded sample was imported)."""
    from fbagent.lexicon.importer import resolve_lexicon

    notes: list[str] = []
    row = resolve_lexicon(db, name, notify=notes.append)
    return dict(row), notes


def _reference_texts(db: Any, lexicon_id: int):
    from fbagent.store.lexicon import frame_reference_texts

    def texts_for(frame: str, verb: str) -> list[str]:
        return list(frame_reference_texts(db, lexicon_id, frame, verb))

    return texts_for


class _FrameInfoCache:
    """``frame_context`` per (frame, verb), read once per run."""

    def __init__(self, db: Any, lexicon_id: int) -> None:
        self.db, self.lexicon_id, self._cache = db, lexicon_id, {}

    def get(self, frame: str, verb: str) -> dict[str, Any]:
        from fbagent.store.lexicon import frame_context

        key = (frame, verb)
        if key not in self._cache:
            self._cache[key] = _jsonable(frame_context(self.db, self.lexicon_id, frame, verb, max_examples=3))
        return self._cache[key]


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=lambda o: asdict(o) if hasattr(o, "__dataclass_fields__") else str(o)))


async def _start_backends(db: Any, opts: GenerateOptions, encoder: Any) -> tuple[Any, Any, Any]:
    """Generator and verifier clients (one object when identical) and the text encoder, loaded in threads."""
    from fbagent.llm.client import make_client

    def gen() -> Any:
        return make_client(opts.generator, db=db, model=opts.model, base_url=opts.base_url,
                           concurrency=opts.concurrency, max_retries=opts.llm_retries, timeout_s=opts.timeout_s,
                           model_path=opts.model_path, backoff_s=opts.backoff_s)

    # One after the other, not concurrently: the local backend silences llama.cpp by swapping the
    # process-wide stdout/stderr while it loads, and the encoder's model package prints on import;
    # two threads swapping sys.stdout at once could leave it pointing at /dev/null for good.
    gen_client = await asyncio.to_thread(gen)
    text_encoder = await asyncio.to_thread(_load_encoder, opts.encoder) if encoder is None else encoder
    same = (opts.verifier_generator in (None, opts.generator) and opts.verifier_model in (None, opts.model)
            and opts.verifier_base_url in (None, opts.base_url))
    if same:
        ver_client = gen_client
    else:
        backend = opts.verifier_generator or opts.generator
        ver_client = await asyncio.to_thread(
            make_client, backend, db=db, model=opts.verifier_model,
            base_url=opts.verifier_base_url or (opts.base_url if backend == opts.generator else None),
            concurrency=opts.concurrency, max_retries=opts.llm_retries, timeout_s=opts.timeout_s,
            model_path=opts.model_path if backend == "local" else None, backoff_s=opts.backoff_s,
        )
    return gen_client, ver_client, text_encoder


def _load_encoder(name: str | None) -> Any:
    import io

    from fbagent.verifier import SentenceEncoder

    try:  # no "Loading weights" bar over the progress display
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except Exception:  # noqa: BLE001 - cosmetic only
        pass
    with contextlib.redirect_stdout(io.StringIO()):  # the offline model package prints on import
        return SentenceEncoder(name)


# --------------------------------------------------------------------------- entries


def _initial_state(item_id: str, run: dict[str, Any], pair: dict[str, Any], k: int, lexicon: dict[str, Any],
                   frame_infos: _FrameInfoCache) -> dict[str, Any]:
    return {
        "item_id": item_id, "run_id": run["id"], "pair_id": pair["id"], "k": k, "lang": lexicon["lang"],
        "lexicon": lexicon["name"], "verb": pair["verb"], "lu_a": pair["lu_a"], "lu_b": pair["lu_b"],
        "frame_a": pair["frame_a"], "frame_b": pair["frame_b"],
        "frame_a_info": frame_infos.get(pair["frame_a"], pair["verb"]),
        "frame_b_info": frame_infos.get(pair["frame_b"], pair["verb"]),
        "attempts": 0, "extend_attempts": 0, "check_history": [], "extended": {}, "error": None,
    }


async def run_entry(graph: Any, saver: Any, ctx: Any, state: dict[str, Any], durability: str = "sync") -> dict[str, Any]:
    """Run (or resume) one entry's graph thread and return its ``items`` row.

    Resumes from the thread's last checkpoint when one exists and the graph had not
    finished; a finished thread's stored result is used as is; otherwise starts anew.
    """
    config = {"configurable": {"thread_id": state["item_id"]}}
    snapshot = await graph.aget_state(config)
    values = snapshot.values or {}
    if values and snapshot.next:
        out = await graph.ainvoke(None, config, context=ctx, durability=durability)
    elif values.get("item") is not None and values["item"].get("status") in FINAL:
        out = values
    else:
        if values:
            await saver.adelete_thread(state["item_id"])
        out = await graph.ainvoke(state, config, context=ctx, durability=durability)
    return out["item"]


async def _run_entries(*, db: Any, graph: Any, saver: Any, ctx: Any, todo: list[tuple[dict[str, Any], int]],
                       run: dict[str, Any], lexicon: dict[str, Any], frame_infos: _FrameInfoCache,
                       opts: GenerateOptions, clients: list[Any], summary: GenerationSummary, console: Any,
                       show_progress: bool, item_errors: Counter[str] | None = None) -> None:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from fbagent.store import items as items_store

    queue: asyncio.Queue[tuple[dict[str, Any], int]] = asyncio.Queue()
    for entry in todo:
        queue.put_nowait(entry)
    progress = Progress(
        BarColumn(bar_width=8), MofNCompleteColumn(),
        TextColumn("[green]ok {task.fields[verified]}[/] [yellow]flag {task.fields[flagged]}[/] "
                   "[red]rej {task.fields[rejected]}[/] [magenta]fail {task.fields[failed]}[/]"),
        TextColumn("calls {task.fields[calls]} tok {task.fields[tokens]} cache {task.fields[cache]}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(compact=True, elapsed_when_finished=False),
        console=console, disable=not show_progress, transient=False,
    )
    task_id = progress.add_task("entries", total=len(todo), verified=0, flagged=0, rejected=0, failed=0, calls=0,
                                tokens=0, cache=0)

    def refresh() -> None:
        stats = [c.stats for c in clients]
        progress.update(
            task_id, completed=summary.entries_done, calls=sum(s.calls for s in stats),
            tokens=_short(sum(s.input_tokens + s.output_tokens for s in stats)),
            cache=sum(s.cache_hits for s in stats), **summary.counts,
        )

    async def worker() -> None:
        while True:
            try:
                pair, k = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            iid = items_store.item_id(run["name"], pair["id"], k)
            state = _initial_state(iid, run, pair, k, lexicon, frame_infos)
            try:
                item = await run_entry(graph, saver, ctx, state, opts.durability)
            except asyncio.CancelledError:
                raise
            except FbagentError:
                raise
            except Exception as err:  # noqa: BLE001 - a bug in one entry must not stop the run; it is recorded
                from fbagent.agents.entry_graph import build_item

                state["error"] = f"internal error: {type(err).__name__}: {err}"
                item = build_item(state, generator_model=getattr(ctx.generator, "model", None))
                console.print(f"[red]entry {iid}: {state['error']}[/]")
            items_store.save_item(db, item)
            # count before the next await: a cancellation there must not lose a stored entry from the tally
            summary.entries_done += 1
            summary.counts[item["status"]] = summary.counts.get(item["status"], 0) + 1
            if item["status"] == "failed" and item_errors is not None and item.get("reasons"):
                item_errors[str(item["reasons"][0])] += 1
            refresh()
            with contextlib.suppress(Exception):
                await saver.adelete_thread(iid)

    n_workers = max(1, min(len(todo), 2 * opts.concurrency))
    with progress:
        workers = [asyncio.create_task(worker(), name=f"entry-worker-{i}") for i in range(n_workers)]
        ticker = asyncio.create_task(_tick(refresh))
        try:
            await asyncio.gather(*workers)
        except BaseException:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            raise
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            refresh()


def _short(n: int) -> str:
    """1234 -> '1.2k', 2_500_000 -> '2.5M'."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


async def _tick(refresh: Any, every_s: float = 0.5) -> None:
    while True:
        await asyncio.sleep(every_s)
        refresh()


# --------------------------------------------------------------------------- plan and printing


async def _plan(db: Any, lexicon: dict[str, Any], prompts: Any, run: dict[str, Any] | None,
                opts: GenerateOptions) -> dict[str, Any]:
    """Entries, expected LLM calls and tokens of a run, without calling anything or storing anything."""
    from fbagent.agents.selection_graph import load_run_pairs, select_pairs
    from fbagent.store import items as items_store

    if run is not None and run.get("selection_id") is not None:
        pairs = load_run_pairs(db, run["selection_id"])
        screen_calls = 0
        finished = items_store.finished_ids(db, run["id"])
        run_name = run["name"]
    else:
        selection = await select_pairs(db, lexicon, pairs=opts.pairs, per_pair=opts.per_pair, seed=opts.seed,
                                       max_per_verb=opts.max_per_verb, screen_client=None, prompts=prompts,
                                       run_id=None, save=False)
        pairs = selection["pairs"]
        screen_calls = len(pairs) if opts.screen else 0
        finished = set()
        run_name = None
    frame_infos = _FrameInfoCache(db, lexicon["id"])
    entries = [(p, k) for p in pairs for k in range(int(p.get("per_pair") or opts.per_pair))]
    todo = [(p, k) for p, k in entries
            if run_name is None or items_store.item_id(run_name, p["id"], k) not in finished]
    per_entry_min = 1 + 2 + 4 + (4 if opts.judge else 0)
    per_entry_max = (opts.max_retries + 1) * 3 + 4 + (4 if opts.judge else 0)
    tokens_in = tokens_out = 0
    for pair, _k in todo:
        fa, fb = frame_infos.get(pair["frame_a"], pair["verb"]), frame_infos.get(pair["frame_b"], pair["verb"])
        base = prompts.base_messages(pair["verb"], fa, fb)[0]["content"]
        ext = prompts.extend_messages(pair["verb"], fa, "x" * 60, "x" * 60, "x" * 40, True)[0]["content"]
        define = prompts.define_messages(pair["verb"], "x" * 60)[0]["content"]
        tokens_in += estimate_tokens(base) + 2 * estimate_tokens(ext) + 4 * estimate_tokens(define)
        tokens_out += OUTPUT_TOKEN_ESTIMATE["generate_base"] + 2 * OUTPUT_TOKEN_ESTIMATE["extend"] \
            + 4 * OUTPUT_TOKEN_ESTIMATE["define"]
        if opts.judge:
            judge = prompts.judge_messages("x" * 60, "x" * 60, "x" * 60)[0]["content"]
            tokens_in += 4 * estimate_tokens(judge)
            tokens_out += 4 * OUTPUT_TOKEN_ESTIMATE["judge"]
    for pair in pairs[:screen_calls]:
        tokens_in += 250
        tokens_out += OUTPUT_TOKEN_ESTIMATE["screen"]
        del pair
    return {
        "run": run_name or default_run_name(lexicon["name"], opts), "run_exists": run is not None,
        "lexicon": lexicon["name"], "language": lexicon["lang"], "pairs": len(pairs), "entries": len(entries),
        "entries_todo": len(todo), "entries_finished": len(entries) - len(todo),
        "screen_calls": screen_calls, "calls_min": per_entry_min * len(todo) + screen_calls,
        "calls_max": per_entry_max * len(todo) + screen_calls, "input_tokens": tokens_in,
        "output_tokens": tokens_out, "generator": opts.generator, "model": opts.model,
        "verifier": opts.verifier_generator or opts.generator,
    }


def _print_plan(console: Any, summary: GenerationSummary, opts: GenerateOptions) -> None:
    from rich.table import Table

    plan = summary.plan or {}
    table = Table(title="Plan (--dry-run: no LLM call made, nothing stored)", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value", justify="right")
    rows = [
        ("run", f"{plan['run']}{' (exists: resume)' if plan['run_exists'] else ' (new)'}"),
        ("lexicon", f"{plan['lexicon']} ({plan['language']})"),
        ("frame pairs", str(plan["pairs"])),
        ("entries (pairs x per-pair)", str(plan["entries"])),
        ("entries to generate", str(plan["entries_todo"])),
        ("entries already finished", str(plan["entries_finished"])),
        ("LLM calls: screening", str(plan["screen_calls"])),
        ("LLM calls expected (no retries .. all retries)", f"{plan['calls_min']:,} .. {plan['calls_max']:,}"),
        ("input tokens expected (no retries, ~4 chars/token)", f"{plan['input_tokens']:,}"),
        ("output tokens expected (no retries)", f"{plan['output_tokens']:,}"),
        ("generator / verifier", f"{plan['generator']} / {plan['verifier']}"),
    ]
    for row in rows:
        table.add_row(*row)
    console.print(table)
    console.print("Requests already in the llm_calls cache will cost nothing. Run without --dry-run to start.")
    del opts


def _print_selection(console: Any, selection: dict[str, Any], opts: GenerateOptions) -> None:
    counts = selection.get("counts") or {}
    n = len(selection.get("pairs") or [])
    msg = f"Selected {n} frame pairs"
    if counts:
        msg += f" from {counts.get('candidates', '?')} candidates"
    if n < opts.pairs:
        msg += f" (asked for {opts.pairs}: fewer eligible pairs are available)"
    console.print(msg + ".")


def _print_screening(console: Any, screening: dict[str, Any]) -> None:
    screened = screening.get("screened") or {}
    out = screening.get("screened_out") or []
    failed = sum(1 for v in screened.values() if v.get("error"))
    msg = f"Screening: {len(screened)} pair(s) checked by the LLM, {len(out)} screened out"
    if out:
        msg += " and replaced from the seeded reserve"
    if failed:
        msg += f", {failed} kept because the screening call failed"
    console.print(msg + f"; {len(screening.get('pairs') or [])} pairs selected.")
    for p in out:
        console.print(f"  screened out: {p['verb']} {p['frame_a']} / {p['frame_b']}: {p['reason']}", markup=False)


def _print_summary(console: Any, s: GenerationSummary) -> None:
    from rich.table import Table

    table = Table(title=f"fbagent generate: run {s.run_name}" + (" (interrupted)" if s.interrupted else ""))
    table.add_column("", style="bold")
    table.add_column("this session", justify="right")
    table.add_column("whole run", justify="right")
    rc = s.run_counts or {}
    table.add_row("entries", f"{s.entries_done} done", f"{sum(rc.values())} of {s.entries_total}")
    for status in ("verified", "flagged", "rejected", "failed"):
        table.add_row(status, str(s.counts.get(status, 0)), str(rc.get(status, 0)))
    table.add_row("skipped (finished before)", str(s.entries_skipped), "")
    table.add_row("LLM calls (new)", str(s.calls), "")
    table.add_row("cache hits", str(s.cache_hits), "")
    table.add_row("failed LLM calls", str(s.failures), "")
    table.add_row("tokens in / out", f"{s.input_tokens:,} / {s.output_tokens:,}", "")
    table.add_row("wall time", f"{s.wall_s:.1f} s", "")
    console.print(table)
    console.print(f"Results: table [bold]items[/] of {s.db_path} (run [bold]{s.run_name}[/]).", soft_wrap=True)
    console.print(f"Details: fbagent runs show {s.run_name}", soft_wrap=True, highlight=False)
    # an interruption is reported once, by the CLI (stderr), after this table
