"""The life of one ``generate`` invocation: run record, session bookkeeping, selection, entries.

:func:`generate` resolves the lexicon and the run, answers a dry run with a plan,
returns at once when every entry is finished, and otherwise starts the backends
and opens, in one :class:`contextlib.AsyncExitStack`, everything the session
holds: the LLM clients, the session record (:meth:`_Session.recorded`), the
checkpointer and the batch encoder. However the session ends they are released
in reverse order: checkpointer and encoder, then the session's end is recorded
(``run_sessions``, ``runs.status``), then the clients close.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

import sqlite_utils

from fbagent.agents.entry_graph import EntryContext, EntryOptions, compile_entry_graph
from fbagent.checks.coverage import check_verb_check, require_verb_check, verb_check_line
from fbagent.checks.lemmas import require_verb_analyser
from fbagent.crash import crash_note, invocation_pid
from fbagent.errors import FbagentError
from fbagent.generation import checkpoints
from fbagent.generation.batch import collectors, run_in_waves, wave_settler
from fbagent.generation.budget import run_budget
from fbagent.generation.events import (
    GenerationSummary,
    LexiconNote,
    NothingToDo,
    OnEvent,
    PlanMade,
    Resuming,
    RunWarning,
    SessionEnded,
    ignore,
)
from fbagent.generation.options import (
    GenerateOptions,
    check_checkpoint_file,
    check_compatible,
    checkpoint_path,
    default_run_name,
    default_screen,
    style_note,
    validate_options,
)
from fbagent.generation.plan import build_plan, missing_key_warnings, missing_package_warnings
from fbagent.generation.selection import choose_selection, prepare_selection, screening_done
from fbagent.generation.workers import (
    Entry,
    EntryPool,
    FrameInfoCache,
    entry_list,
    lent_slots,
    pending,
)
from fbagent.lexicon.importer import resolve_lexicon
from fbagent.llm.client import most_common_error
from fbagent.pairs.screening import load_run_pairs
from fbagent.pairs.select import check_selectable
from fbagent.prompting.messages import load_prompts
from fbagent.providers.breaker import ServiceDown, guarding
from fbagent.providers.names import EMBEDDED_ENGINE
from fbagent.providers.prices import CostCapReached, load_prices
from fbagent.providers.redact import stored_base_url, stored_command
from fbagent.store import items as items_store
from fbagent.store import runs as runs_store
from fbagent.store.db import open_db, open_db_copy, sqlite_error
from fbagent.store.lexicon import frame_reference_texts
from fbagent.store.rows import LexiconRow, RunRow
from fbagent.store.runs import usage as run_usage
from fbagent.store.transaction import commit_held
from fbagent.verifier.encoder_check import ExemplarBank, TargetEncoder, generation_references
from fbagent.verifier.margin import auto_margin  # not the package: it imports generation
from fbagent.verifier.run_models import prompt_styles
from fbagent.verifier.startup import Backends, encoder_in_child, start_backends, watch_encoder
from fbagent.verifier.verify import BatchEncoder, ReferenceBank

if TYPE_CHECKING:
    import sqlite_utils

    from fbagent.llm.client import LLMClient
    from fbagent.prompting.messages import Prompts

SESSION_FAILED_FIX = "check --base-url / the server / the API key; rerun the same command to retry the failed entries"


async def generate(db_path: str | Path, opts: GenerateOptions, *, encoder: TargetEncoder | None = None, command: str | None = None,
                   on_event: OnEvent | None = None) -> GenerationSummary:
    """Run (or resume, or plan with ``opts.run.dry_run``) one generation run; see :mod:`fbagent.generation`.

    ``encoder``: a ready :class:`fbagent.verifier.verify.TextEncoder` (tests/benchmarks); by
    default the sentence-transformers model of ``opts.models.encoder`` is checked at once and
    loaded in a background thread while screening and the first requests run
    (:mod:`fbagent.verifier.startup`). ``command``: the command line to store (default: this process's,
    redacted either way). ``on_event``: receives every
    :data:`~fbagent.generation.events.GenerationEvent` (progress, notes, the summary).
    Returns a :class:`GenerationSummary`. Raises :class:`FbagentError` for bad options
    (unknown lexicon, run name taken by other options, missing key or package) and
    re-raises ``asyncio.CancelledError`` after recording an interruption.
    """
    emit = on_event or ignore
    opts = validate_options(opts)
    lent_slots()   # a bad FBAGENT_LENT_SLOTS or FBAGENT_ENCODER_PROCESS is refused before anything is stored
    encoder_in_child()
    if not opts.run.dry_run:  # a missing API key, a broken checkpoint file: refused before anything is stored
        opts.models.check_ready()   # (a plan needs no key: it warns, fbagent.generation.plan)
        check_checkpoint_file(checkpoint_path(db_path))
    started = time.perf_counter()
    # a dry run plans in memory: on a copy of the database (an embedded-lexicon import, a pair selection and a
    # migration happen in the copy: the file is never written), or on an empty one when there is no file yet
    db = (open_db(db_path) if not opts.run.dry_run else open_db_copy(db_path) if Path(db_path).exists()
          else open_db(":memory:"))
    lexicon, notes, (gen_style, ver_style), opts = _resolve_lexicon(db, opts, emit)
    run_name = opts.run.name or default_run_name(lexicon["name"], opts)
    summary = GenerationSummary(run_name=run_name, run_id=None, db_path=str(db_path), dry_run=opts.run.dry_run,
                                lexicon_imported=any("embedded" in n for n in notes))
    prompts = load_prompts(lexicon["lang"], gen_style, ver_style)
    run = runs_store.get_run(db, run_name)
    if run is not None:
        check_compatible(run, lexicon, opts)
        summary.run_id = run["id"]
        if not opts.run.dry_run:
            _recover_stale_sessions(db, run, emit)
    if opts.run.dry_run:  # plan only: no LLM call, nothing stored
        return await _dry_run(db, lexicon, prompts, run, opts, summary, started, emit)
    session = _Session(db_path=db_path, db=db, lexicon=lexicon, opts=opts, prompts=prompts, summary=summary,
                       command=stored_command(command), started=started, emit=emit)
    finished_entries = _entries_if_all_finished(db, run, opts) if run is not None else None
    if finished_entries is not None and run is not None:  # no model or encoder to load
        return session.nothing_to_do(run, len(finished_entries))
    try:
        async with contextlib.AsyncExitStack() as stack:
            stack.enter_context(stopped_by_breaker(summary))   # a dead service stops the session (exit 1)
            session.backends = await start_backends(db, opts.models, encoder, lang=lexicon["lang"])
            stack.push_async_callback(_close_backends, session.backends, emit)
            if run is None:  # a new run: a lexicon without a single selectable pair is refused before it is stored
                _check_selectable(db, lexicon, opts)
            session.run = session.open_run(run)
            stack.enter_context(session.recorded())
            await watch_encoder(session.generate_entries(stack), session.backends.encoder)
    finally:
        if summary.status in ("finished", "interrupted") and summary.run_id is not None:
            summary.run_counts = runs_store.item_counts(db, summary.run_id)
            if summary.status == "finished":
                clients = session.backends.clients if session.backends is not None else []
                summary.session_failed = session_failure(summary, clients, session.item_errors)
            emit(SessionEnded(summary))
    return summary


def _resolve_lexicon(db: sqlite_utils.Database, opts: GenerateOptions,
                     emit: OnEvent) -> tuple[LexiconRow, list[str], tuple[str, str], GenerateOptions]:
    """The run's lexicon (the embedded sample imported when the database has none), its notes, and the options
    that follow from it: ``--margin auto`` (the lexicon's latest calibration), the prompt styles and the
    screening default. Returns ``(lexicon, lookup notes, (generator style, verifier style), options)`` (the
    options with those resolved: a new object); every note is
    emitted. Raises :class:`FbagentError` for an unknown lexicon or a language without its verb analyser."""
    notes: list[str] = []
    lexicon = resolve_lexicon(db, opts.run.lexicon, notify=notes.append)
    for note in notes:
        emit(LexiconNote(note))
    verb_check = check_verb_check(opts.verifier.effective_verb_check)
    require_verb_analyser(lexicon["lang"], surface_verb_match=verb_check != "auto")  # ja without fugashi: refuse
    require_verb_check(lexicon["lang"], verb_check)  # no grammar, or zh/ko without their analyser: refuse
    emit(LexiconNote(f"note: {verb_check_line(lexicon['lang'], verb_check)}"))  # one line: which check
    if opts.verifier.margin_auto:  # --margin auto: the margin of the lexicon's latest calibration (fbagent.verifier.calibration)

        models = opts.models
        chosen = auto_margin(db, lexicon, opts.verifier.signal, opts.verifier.target_precision, encoder=models.encoder,
                             verifier_model=models.verifier.model or models.generator.model)
        opts = replace(opts, verifier=replace(opts.verifier, margin=chosen.margin, margin_source=chosen.text))
        emit(LexiconNote(f"note: --margin auto: {chosen.text}"))
    gen_style, ver_style = prompt_styles(opts.models)  # chat | fewshot per model (fbagent.providers.prompt_style)
    if style_line := style_note(opts, gen_style):
        emit(LexiconNote(style_line))
    if opts.run.screen is None:
        opts = replace(opts, run=replace(opts.run, screen=default_screen(gen_style)))
    return lexicon, notes, (gen_style, ver_style), opts


def _recover_stale_sessions(db: sqlite_utils.Database, run: RunRow, emit: OnEvent) -> None:
    """Sessions of ``run`` killed earlier (kill -9, lost terminal) are marked interrupted, counted from the
    stored rows; one warning each, with what the crash record says."""
    for s in runs_store.recover_stale_sessions(db, run["id"]):
        why = crash_note(s.get("host"), s.get("pid")) or ("no crash record: it was killed (kill -9, a lost "
                                                          "terminal, out of memory) or its machine stopped")
        emit(RunWarning(f"session {s['id']} of run {run['name']} (started {s['started_at']}) was killed before it "
                        f"finished; marked interrupted with the {s['entries_done']} entries and {s['calls']} "
                        f"LLM calls it stored; {why}"))


async def _dry_run(db: sqlite_utils.Database, lexicon: LexiconRow, prompts: Prompts, run: RunRow | None,
                   opts: GenerateOptions, summary: GenerationSummary, started: float,
                   emit: OnEvent) -> GenerationSummary:
    """The plan of a dry run (:func:`fbagent.generation.plan.build_plan`) in ``summary.plan``, emitted with
    the warnings of missing packages and keys; no LLM call, nothing stored."""
    summary.plan = await build_plan(db, lexicon, prompts, run, opts)
    summary.wall_s = time.perf_counter() - started
    emit(PlanMade(summary.plan))
    for warning in [*missing_package_warnings(opts), *missing_key_warnings(opts)]:
        emit(RunWarning(warning))
    return summary


def _entries_if_all_finished(db: sqlite_utils.Database, run: RunRow, opts: GenerateOptions) -> list[Entry] | None:
    """The run's entries when it has its selection (screened, if it screens) and every entry is finished;
    ``None`` when there is work left."""
    selection_id = run["selection_id"]
    if selection_id is None or (opts.run.screen and not screening_done(run)):
        return None
    entries = entry_list(load_run_pairs(db, selection_id), opts.selection.per_pair)
    return None if pending(entries, run["name"], items_store.finished_ids(db, run["id"])) else entries


@dataclass
class _Session:
    """What one invocation holds: the database, the resolved lexicon and options, the run, the backends.

    ``command``: the redacted command line to store; ``started``: ``time.perf_counter()`` at the start.
    """

    db_path: str | Path
    db: sqlite_utils.Database
    lexicon: LexiconRow
    opts: GenerateOptions
    prompts: Prompts
    summary: GenerationSummary
    command: str
    started: float
    emit: OnEvent
    run: RunRow = field(default_factory=lambda: cast("RunRow", {}))   # open_run gives the row
    backends: Backends | None = None
    item_errors: Counter[str] = field(default_factory=Counter)

    def open_run(self, run: RunRow | None) -> RunRow:
        """Create the ``runs`` row of a new run, or mark the existing ``run`` ``running``; returns the row."""
        opts, backends = self.opts, self.backends
        assert backends is not None
        if run is None:
            run = runs_store.create_run(
                self.db, name=self.summary.run_name, command=self.command, lexicon_id=self.lexicon["id"],
                generator=opts.models.generator.backend, model=backends.generator.model, verifier_generator=backends.verifier.backend,
                verifier_model=backends.verifier.model,
                encoder=getattr(backends.encoder, "name", None) or opts.models.encoder, seed=opts.selection.seed,
                options={**opts.result_options(), "lexicon": self.lexicon["name"],
                         "concurrency": opts.models.generator.concurrency, "llm_retries": opts.models.generator.retries,
                         "timeout_s": opts.models.generator.timeout_s,
                         "base_url": stored_base_url(opts.models.generator.base_url),
                         "prompt_styles": {"generator": self.prompts.style, "verifier": self.prompts.verifier_style},
                         **({"margin_source": opts.verifier.margin_source} if opts.verifier.margin_source else {}),
                         **({"engine": EMBEDDED_ENGINE} if opts.models.generator.backend == "local" else {})},
                prompt_versions=self.prompts.versions,
            )
        else:
            runs_store.update_run(self.db, run["id"], status="running")
        self.summary.run_id = run["id"]
        return run

    @contextlib.contextmanager
    def recorded(self) -> Iterator[None]:
        """One ``run_sessions`` row for the body: started on entry, its end (status, LLM usage, wall time)
        recorded on exit. Sets ``summary.status``: ``finished`` (the body returned), ``interrupted``
        (cancelled) or ``error`` (anything else, re-raised)."""
        summary = self.summary
        session_id = runs_store.start_session(self.db, self.run["id"], self.command, pid=invocation_pid())
        summary.status = "interrupted"
        try:
            yield
            summary.status = "finished"
        except asyncio.CancelledError:
            summary.interrupted = True
            raise
        except BaseException:
            summary.status = "error"
            raise
        finally:
            summary.wall_s = time.perf_counter() - self.started
            for c in self.backends.clients if self.backends else []:
                summary.calls += c.stats.calls
                summary.cache_hits += c.stats.cache_hits
                summary.failures += c.stats.failures
                summary.input_tokens += c.stats.input_tokens
                summary.output_tokens += c.stats.output_tokens
            problems = record_session_end(self.db, session_id, self.run, summary)
            if summary.status == "finished":
                _raise_unrecorded(problems, self.run)
            for problem in problems:  # an exception is on its way out: say it, do not replace it
                self.emit(RunWarning(problem))

    async def generate_entries(self, stack: contextlib.AsyncExitStack) -> None:
        """The session's work: selection and screening, then every pending entry through the entry graph;
        the checkpointer and the batch encoder join ``stack``. LangGraph is imported after the first
        screening requests are out (by the screening graph, then the checkpointer and the entry graph)."""
        db, opts, run, summary, backends = self.db, self.opts, self.run, self.summary, self.backends
        assert backends is not None
        summary.calls_before = run_usage(db, run["id"])["calls"]
        found = collectors(backends.clients, self.emit) if opts.run.batch else []   # --batch: collect mode
        settle_screening = (wave_settler(found, run_id=run["id"], summary=summary, emit=self.emit)
                            if found else None)
        pairs = await prepare_selection(db, self.lexicon, opts, run, screen_client=backends.generator,
                                        prompts=self.prompts, summary=summary, emit=self.emit,
                                        settle_batch=settle_screening)
        entries = entry_list(pairs, opts.selection.per_pair)
        todo = pending(entries, run["name"], items_store.finished_ids(db, run["id"]))
        summary.entries_total, summary.entries_skipped = len(entries), len(entries) - len(todo)
        if summary.entries_skipped or summary.calls_before:
            self.emit(Resuming(run_name=run["name"], finished=summary.entries_skipped, total=len(entries),
                               calls_before=summary.calls_before))

        saver = stack.enter_context(checkpoints.open_checkpointer(checkpoint_path(self.db_path)))
        saver.before_checkpoint = functools.partial(commit_held, db.conn)   # answers' rows before their checkpoint
        saver.skip_input_checkpoints = True   # run_entry rebuilds an entry's initial state itself
        batch_encoder = BatchEncoder(backends.encoder)
        stack.callback(batch_encoder.close)
        ctx = EntryContext(
            generator=backends.generator, verifier=backends.verifier, prompts=self.prompts, encoder=batch_encoder,
            references=ReferenceBank(batch_encoder, _reference_texts(db, self.lexicon["id"])),
            exemplars=(ExemplarBank(batch_encoder, *generation_references(db, self.lexicon["id"], seed=opts.selection.seed))
                       if opts.verifier.signal != "roundtrip" else None),
            options=EntryOptions(
                similarity_threshold=opts.run.similarity_threshold, near_copy_threshold=opts.run.near_copy_threshold,
                max_retries=opts.run.max_retries, seed=opts.selection.seed,
                variant_temperature=opts.run.variant_temperature, max_tokens=opts.run.max_tokens,
                verifier=opts.verifier,
            ),
            encoder_name=getattr(backends.encoder, "name", None) or opts.models.encoder,
            checks_ready=backends.warmup.ready() if backends.warmup is not None else None,
        )
        if todo and backends.warmup is not None and backends.warmup.started:
            # loading since the first answer: the first self_check needs the tables a round trip from now, and
            # loading them beside the entries would take the entries' share of the GIL for as long
            await backends.warmup.ready()
        pool = EntryPool(db=db, graph=compile_entry_graph(saver), saver=saver, ctx=ctx, run=run, lexicon=self.lexicon,
                         frame_infos=FrameInfoCache(db, self.lexicon["id"]), clients=backends.clients,
                         emit=self.emit, durability=opts.run.durability,
                         budget=run_budget(db, run["id"], backends.clients, opts.run.max_cost, load_prices()))
        entries_started = time.perf_counter()
        workers = 2 * opts.models.generator.concurrency
        with frozen_heap():   # the garbage collector skips the start-up heap (imports, models) from here on
            if opts.run.batch:   # waves of provider batch jobs (fbagent.generation.batch)
                await run_in_waves(
                    pool, lambda: pending(entries, run["name"], items_store.finished_ids(db, run["id"])),
                    found, workers=workers, summary=summary, item_errors=self.item_errors, budget=pool.budget)
            else:
                await pool.run_all(todo, workers=workers, summary=summary, item_errors=self.item_errors)
        summary.entries_wall_s = time.perf_counter() - entries_started

    def nothing_to_do(self, run: RunRow, total: int) -> GenerationSummary:
        """Record an empty, finished session of ``run``, whose ``total`` entries are all finished, and report it."""
        summary = self.summary
        summary.calls_before = run_usage(self.db, run["id"])["calls"]  # the "whole run" column counts them
        session_id = runs_store.start_session(self.db, run["id"], self.command, pid=invocation_pid())
        summary.entries_total = summary.entries_skipped = total
        summary.wall_s = time.perf_counter() - self.started
        summary.status = "finished"
        _raise_unrecorded(record_session_end(self.db, session_id, run, summary), run)
        summary.run_counts = runs_store.item_counts(self.db, run["id"])
        self.emit(NothingToDo(run_name=run["name"], total=total))
        self.emit(SessionEnded(summary))
        return summary


@contextlib.contextmanager
def stopped_by_breaker(summary: GenerationSummary) -> Iterator[None]:
    """The command's circuit breaker (:mod:`fbagent.providers.breaker`) for the body; when it trips, its
    :class:`ServiceDown` is re-raised saying what this session stored (entries, LLM calls). A database
    failure (a full disk) is one line saying the same, not "stored nothing"."""
    try:
        with guarding():
            yield
    except (ServiceDown, CostCapReached) as down:
        raise type(down)(f"{down.problem}; stopped: {_stored(summary)}", down.fix) from down
    except sqlite3.Error as err:
        failed = sqlite_error(err, summary.db_path)
        raise FbagentError(f"{failed.problem}; before it, {_stored(summary)}", failed.fix) from err


def _stored(summary: GenerationSummary) -> str:
    """What a session that stops early stored: ``this session stored N finished entries and M LLM calls (F failed)
    of run 'R', which the same command resumes``."""
    entries, calls = summary.entries_done, summary.calls
    return (f"this session stored {entries} finished {'entry' if entries == 1 else 'entries'} and {calls} LLM "
            f"{'call' if calls == 1 else 'calls'} ({summary.failures} failed) of run {summary.run_name!r}, which the "
            "same command resumes")


def _check_selectable(db: sqlite_utils.Database, lexicon: LexiconRow, opts: GenerateOptions) -> None:
    """Raise :class:`FbagentError` when the new run would make a selection with no pair in it."""
    if choose_selection(db, lexicon, opts.selection).selection_id is None:
        check_selectable(db, lexicon, opts.selection)


def record_session_end(db: sqlite_utils.Database, session_id: int, run: RunRow, summary: GenerationSummary) -> list[str]:
    """Store the session's counters and the run's status (``finished`` after a finished session, else
    ``interrupted``), each on its own, so that one failing does not skip the other. Returns one line per
    write that failed with a database error (e.g. locked past the busy timeout); ``[]`` when both worked."""
    problems = []
    try:
        runs_store.finish_session(
            db, session_id, status=summary.status or "interrupted", entries_done=summary.entries_done,
            calls=summary.calls, cache_hits=summary.cache_hits, failures=summary.failures,
            input_tokens=summary.input_tokens, output_tokens=summary.output_tokens, wall_s=summary.wall_s,
        )
    except sqlite3.Error as err:
        problems.append(f"the end of session {session_id} of run {run['name']!r} was not stored ({err})")
    try:
        runs_store.update_run(db, run["id"], status="finished" if summary.status == "finished" else "interrupted")
    except sqlite3.Error as err:
        problems.append(f"the status of run {run['name']!r} was not stored ({err}); it may still read 'running'")
    return problems


def _raise_unrecorded(problems: list[str], run: RunRow) -> None:
    if problems:
        raise FbagentError("; ".join(problems), f"every finished entry is stored: run the same command again "
                           f"(run {run['name']!r}) to record the end of the run")


async def _close_backends(backends: Backends, emit: OnEvent) -> None:
    for problem in await backends.aclose():
        emit(RunWarning(problem))


def session_failure(summary: GenerationSummary, clients: list[LLMClient], item_errors: Counter[str]) -> str | None:
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
    what = ((f"all {summary.failures:,} LLM calls of this session failed" if summary.failures != 1
             else "the one LLM call of this session failed") if calls_failed
            else f"all {summary.entries_done:,} entries of this session failed" if summary.entries_done != 1
            else "the one entry of this session failed")
    fix = SESSION_FAILED_FIX
    what += most_common_error(errors)
    if errors:
        text = errors.most_common(1)[0][0]
        if text.startswith("answer truncated at max_tokens"):  # the server works: the budget is the problem
            fix = ("check that the server enforces the JSON schema (vLLM serve, llama.cpp llama-server; "
                   "docs/backends.md), so answers end within max_tokens; rerun the same command to retry")
    return f"{what}. Fix: {fix}"


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """``gc.freeze()`` for the body, ``gc.unfreeze()`` after it.

    After start-up the heap holds some 150-300 thousand long-lived objects (openai's
    and pydantic's types, LangGraph, the prompts, the lexicon cache); every full
    collection walked all of them, about 0.35 s each on a busy 2-core machine, stalling
    the event loop and costing 7-13 ms of CPU per entry over 200 entries
    (``benchmarks/bench_generate.py``). Frozen, they are left out of collections;
    objects freed by reference counting are freed as before, only reference cycles
    among the frozen objects wait until the unfreeze.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _reference_texts(db: sqlite_utils.Database, lexicon_id: int) -> Callable[[str, str], list[str]]:
    def texts_for(frame: str, verb: str) -> list[str]:
        return list(frame_reference_texts(db, lexicon_id, frame, verb))

    return texts_for
