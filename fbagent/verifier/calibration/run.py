"""Orchestration of ``fbagent verifier calibrate``: pairs, held-out split, the verify code, metrics, storage.

Per lexicon (:func:`calibrate`):

1. pairs and the held-out split (:mod:`.split`);
2. a ``runs`` row of kind ``calibrate`` (:mod:`fbagent.store.calibrations`), so that every LLM
   call is an ``llm_calls`` row of it (audit log and cache: the same calibration again costs no call);
3. per pair, the pair's four held-out exemplars go through :func:`fbagent.verifier.verify.verify_item`
   as one item (S_A, S_A' from frame A; S_B, S_B' from frame B): the same round trip (verifier
   LLM, ``define_from_example`` prompt, reference texts, encoder) and the same encoder check
   (:class:`fbagent.verifier.encoder_check.ExemplarBank`, whose references are the non-held-out
   exemplars) as generation, with the clients and encoder started as generation starts them
   (:func:`fbagent.verifier.startup.start_backends`);
4. the metrics of each signal (:mod:`.metrics`), stored with the per-sentence scores.

The library prints nothing: progress and notes are events of :mod:`fbagent.progress.events` passed to
``on_event`` (per lexicon a ``Started`` with its line, ``Progress`` per pair; notes; ``Finished`` with the
pooled result last).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlite_utils

from fbagent.checks.lemmas import analyser_note, require_verb_analyser
from fbagent.errors import FbagentError
from fbagent.lexicon.importer import resolve_lexicon
from fbagent.llm.client import most_common_error
from fbagent.progress.events import Finished, Message, OnEvent, Progress, Started, ignore
from fbagent.prompting.messages import load_prompts
from fbagent.providers.breaker import ServiceDown, guarding
from fbagent.providers.redact import stored_command
from fbagent.store import calibrations as store
from fbagent.store.calibrations import calibration_name_taken
from fbagent.store.db import open_db
from fbagent.store.exemplars import frame_definition
from fbagent.store.lexicon import frame_reference_texts
from fbagent.store.rows import ExemplarRow, LexiconRow
from fbagent.verifier.calibration.metrics import signal_summary
from fbagent.verifier.calibration.options import CalibrateOptions, validate_calibrate_options
from fbagent.verifier.calibration.split import CalibrationPairs, choose_pairs, make_splits
from fbagent.verifier.encoder_check import ExemplarBank, Span, TargetEncoder
from fbagent.verifier.run_models import prompt_style_of
from fbagent.verifier.startup import check_encoder, load_encoder, start_backends
from fbagent.verifier.verify import BatchEncoder, ReferenceBank, verify_item

if TYPE_CHECKING:
    from fbagent.llm.client import LLMClient
    from fbagent.prompting.messages import Prompts

# The events are those of the one progress protocol (fbagent.progress.events); the old names stay.
CalibrationStarted = Started      # one lexicon's calibration starts: total = pairs, label = lexicon, text = its line
CalibrationProgress = Progress    # done of total pairs of the current lexicon are verified
CalibrationNote = Message         # a one-line note (the lexicon chosen, a warning)
CalibrationEvent = Started | Progress | Message | Finished
OnCalibrationEvent = OnEvent


async def calibrate(db_path: str | Path, opts: CalibrateOptions, *, encoder: TargetEncoder | None = None, command: str | None = None,
                    on_event: OnCalibrationEvent | None = None) -> dict[str, Any]:
    """Calibrate the verifier on held-out exemplars of each lexicon of ``opts``; store and return the result.

    ``encoder``: a ready :class:`fbagent.verifier.verify.TextEncoder` (tests); by default the encoder of
    ``opts.models.encoder`` is loaded once. Returns the pooled result over every lexicon::

        {"accuracy", "ci95", "precision", "precision_ci95", "recall", "recall_ci95", "margin",
         "by_margin", "margins", "items_verified", "items_false_verified", "n_pairs", "n_sentences",
         "signal", "signals": {signal: metrics}, "seconds",
         "by_lexicon": [{"lexicon", "language", "calibration_id", "calibration", "source",
                         "pair_counts", "llm", "seconds", ...the same metrics...}]}

    (metrics: :func:`fbagent.verifier.calibration.metrics.signal_summary`; rates in [0, 1], seconds of wall
    time). Raises :class:`fbagent.errors.FbagentError` for bad options, an unknown lexicon or
    selection, a lexicon without usable exemplars, a missing key, package or model file; nothing is
    stored for a lexicon that fails before its calibration starts. Raises :class:`CalibrationFailed` (exit 1)
    when every LLM call of a lexicon's calibration failed; it is then stored as ``failed``.
    """
    emit = on_event or ignore
    opts = validate_calibrate_options(opts)
    started = time.perf_counter()
    db = open_db(db_path)
    notes: list[str] = []
    if opts.lexicons:
        lexicons = [resolve_lexicon(db, name, notify=notes.append) for name in opts.lexicons]
    else:
        lexicons = [resolve_lexicon(db, None, notify=notes.append)]
    for note in notes:
        emit(Message(note))
    for lexicon in lexicons:  # ja without fugashi: refused before anything is stored
        accepted = opts.verifier.effective_verb_check != "auto"  # --verb-check llm|surface (or --surface-verb-match)
        require_verb_analyser(lexicon["lang"], surface_verb_match=accepted)
        emit(Message(f"note: {analyser_note(lexicon['lang'], surface_verb_match=accepted)}"))
    # the verifier's prompts in the style generation gives it (a base model: few-shot definitions)
    verifier_style = prompt_style_of(opts.models, "verifier") if opts.uses_llm else "chat"
    plans = []
    for lexicon in lexicons:   # every pair and split before any model loads: bad input costs nothing
        chosen = choose_pairs(db, lexicon, opts)
        if opts.selection is None and len(chosen.pairs) < opts.pairs:
            emit(Message(f"note: lexicon '{lexicon['name']}' has {len(chosen.pairs)} eligible frame pairs, fewer "
                         f"than the {opts.pairs} of --pairs: all {len(chosen.pairs)} are used"))
        make_splits(db, lexicon, chosen, opts)
        plans.append((lexicon, chosen, load_prompts(lexicon["lang"], verifier_style=verifier_style)))

    backends = None
    async with contextlib.AsyncExitStack() as stack:
        if opts.uses_llm:
            backends = await start_backends(db, opts.models, encoder, verifier_only=True)
            stack.push_async_callback(backends.aclose)
            text_encoder = backends.encoder
        else:
            if encoder is None:
                check_encoder(opts.models.encoder)   # one line for a missing model; swallows the package's import print
            text_encoder = encoder if encoder is not None else await asyncio.to_thread(load_encoder, opts.models.encoder)
        results: list[Any] = []
        all_rows: list[Any] = []
        for lexicon, chosen, prompts in plans:
            result, rows = await _calibrate_lexicon(db, lexicon, chosen, prompts, opts, text_encoder,
                                                    backends.verifier if backends else None, command, emit)
            results.append(result)
            offset = len({r["pair"] for r in all_rows})
            all_rows.extend({**r, "pair": r["pair"] + offset} for r in rows)
    pooled = _metrics(all_rows, opts)
    pooled.update(seconds=round(time.perf_counter() - started, 3), by_lexicon=results,
                  n_pairs=sum(r["n_pairs"] for r in results))
    emit(Finished(pooled))
    return pooled


def _metrics(rows: list[dict[str, Any]], opts: CalibrateOptions) -> dict[str, Any]:
    """The requested signal's metrics at the top level, every reported signal under ``signals``."""
    signals = {s: signal_summary(rows, s, margin=opts.verifier.margin, n_boot=opts.n_boot, seed=opts.seed) for s in opts.signals()}
    main = signals[opts.verifier.signal]
    return {**main, "signal": opts.verifier.signal, "signals": signals, "n_sentences_held_out": len(rows),
            "n_failed": sum(1 for r in rows if r.get("error"))}


async def _calibrate_lexicon(db: sqlite_utils.Database, lexicon: LexiconRow, chosen: CalibrationPairs, prompts: Prompts,
                             opts: CalibrateOptions, text_encoder: TargetEncoder, client: LLMClient | None, command: str | None,
                             emit: OnCalibrationEvent) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    started = time.perf_counter()
    encoder_name = getattr(text_encoder, "name", None) or opts.models.encoder
    run = store.create_calibration(
        db, name=_run_name(db, lexicon["name"], opts), command=stored_command(command), lexicon_id=lexicon["id"],
        verifier=(opts.models.verifier.backend or opts.models.generator.backend) if opts.uses_llm else None,
        verifier_model=getattr(client, "model", None), encoder=encoder_name, seed=opts.seed,
        options={**opts.to_json(), "lexicon": lexicon["name"], "pairs_source": chosen.source,
                 "pair_counts": chosen.counts},
        prompt_versions=prompts.versions if opts.uses_llm else {},
    )
    n_sentences = 4 * len(chosen.pairs)
    emit(Started(total=len(chosen.pairs), label=lexicon["name"], text=f"{run['name']}: {len(chosen.pairs)} pairs "
                 f"({chosen.source}), {n_sentences} held-out sentences"))
    stats0 = _stats(client)
    batch_encoder = BatchEncoder(text_encoder)
    splits = chosen.splits
    references = ReferenceBank(batch_encoder, lambda frame, verb: list(
        frame_reference_texts(db, lexicon["id"], frame, verb)))
    exemplars = ExemplarBank(batch_encoder, lambda frame, verb: splits[(frame, verb)].references,
                             definition_for=lambda frame, verb: frame_definition(db, lexicon["id"], frame))
    bound = asyncio.Semaphore(2 * opts.models.generator.concurrency if opts.uses_llm else 64)
    done = 0
    rows: list[dict[str, Any]] = []

    async def one(index: int, pair: dict[str, Any]) -> None:
        nonlocal done
        a, b = splits[(pair["frame_a"], pair["verb"])].held_out, splits[(pair["frame_b"], pair["verb"])].held_out
        slots = {"sentence_a": a[0], "sentence_a_prime": a[1], "sentence_b": b[0], "sentence_b_prime": b[1]}
        async with bound:
            result = await verify_item(
                client=client, prompts=prompts, encoder=batch_encoder, references=references,
                sentences={k: r["text"] for k, r in slots.items()}, verb=pair["verb"], frame_a=pair["frame_a"],
                frame_b=pair["frame_b"], question_four_choice=None, margin=opts.verifier.margin, run_id=run["id"],
                item_id=f"{run['name']}:{index}", seed=opts.seed, encoder_name=encoder_name, signal=opts.verifier.signal,
                exemplars=exemplars if opts.verifier.signal != "roundtrip" else None,
                spans={k: _span(r) for k, r in slots.items()},
            )
        for key, ex in slots.items():
            s = (result.get("sentences") or {}).get(key) or {}
            frame = pair["frame_a"] if key in ("sentence_a", "sentence_a_prime") else pair["frame_b"]
            rows.append({
                "pair": index, "slot": key, "verb": pair["verb"], "frame": frame,
                "other": pair["frame_b"] if frame == pair["frame_a"] else pair["frame_a"],
                "exemplar_id": ex["id"], "text": ex["text"], "target": [ex["target_start"], ex["target_end"]],
                "roundtrip": ({"definition": s.get("definition"), "sim_own": s.get("sim_own"),
                               "sim_other": s.get("sim_other")} if s.get("sim_own") is not None else None),
                "encoder": s.get("encoder_check"), "error": result.get("error"),
            })
        done += 1
        emit(Progress(done=done, total=len(chosen.pairs)))

    status, failure = "interrupted", None
    try:
        failure = await _verify_pairs([one(i, p) for i, p in enumerate(chosen.pairs)], client, stats0)
        status = "failed" if failure else "finished"
    finally:
        batch_encoder.close()
        rows.sort(key=lambda r: (r["pair"], r["slot"]))
        stats = {k: v - stats0[k] for k, v in _stats(client).items()}
        result = {**_metrics(rows, opts), "lexicon": lexicon["name"], "language": lexicon["lang"],
                  "calibration_id": run["id"], "calibration": run["name"], "source": chosen.source,
                  "pair_counts": chosen.counts, "n_pairs": len(chosen.pairs), "llm": stats,
                  "encoder": encoder_name, "verifier_model": getattr(client, "model", None),
                  "seconds": round(time.perf_counter() - started, 3)}
        store.finish_calibration(db, run, result=result if status == "finished" else {}, sentences=rows,
                                 status=status)
    if failure:
        raise CalibrationFailed(f"calibration '{run['name']}' stopped: {failure}", CALLS_FAILED_FIX)
    return result, rows


def _span(row: ExemplarRow) -> Span:
    """The target span of a held-out exemplar (every one has one: :func:`split_exemplars` holds out no other)."""
    start, end = row["target_start"], row["target_end"]
    return (start, end) if start is not None and end is not None else None


async def _verify_pairs(work: list[Any], client: LLMClient | None, stats0: dict[str, int]) -> str | None:
    """Run the pairs' coroutines ``work`` concurrently under the command's circuit breaker
    (:mod:`fbagent.providers.breaker`): when it trips (the verifier's service is down), the rest are
    cancelled and its line is returned. Also returns why the calibration failed when every LLM call of a
    smaller calibration failed (:func:`_nothing_works`), else ``None``; a cancellation cancels every pair
    and is re-raised."""
    with guarding():
        tasks = [asyncio.ensure_future(w) for w in work]   # the tasks copy the context: they report to the breaker
        try:
            await asyncio.gather(*tasks)
        except ServiceDown as down:
            return down.problem
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    return _nothing_works(client, stats0, at_least=1)


CALLS_FAILED_FIX = ("check the verifier's server, model and API key (--verifier-base-url, --verifier-model; "
                    "--base-url, --model when the verifier is the generator), then run the same command again "
                    "(answered calls are cached)")


class CalibrationFailed(FbagentError):
    """Every LLM call of a calibration failed: it is stored as ``failed`` (no result, so ``--margin auto``
    never reads it) and the command exits 1, as a generation session that achieved nothing does."""

    exit_code = 1


def _nothing_works(client: LLMClient | None, stats0: dict[str, int], *, at_least: int) -> str | None:
    """Why the calibration should stop: at least ``at_least`` LLM calls since ``stats0``, every one
    failed and none was answered from the cache (``None``: go on). Names the most common error
    (``client.stats.errors``)."""
    if client is None:
        return None
    now = _stats(client)
    calls, failures = now["calls"] - stats0["calls"], now["failures"] - stats0["failures"]
    if failures < max(at_least, 1) or failures < calls or now["cache_hits"] > stats0["cache_hits"]:
        return None

    return f"all {failures} LLM calls failed" + most_common_error(getattr(client.stats, "errors", None) or {})


def _stats(client: LLMClient | None) -> dict[str, int]:
    stats = getattr(client, "stats", None)
    return {k: int(getattr(stats, k, 0) or 0) for k in ("calls", "cache_hits", "failures")}


def _run_name(db: sqlite_utils.Database, lexicon: str, opts: CalibrateOptions) -> str:
    """``calibrate-<lexicon>-<signal>-s<seed>-<n>``: n counts this lexicon's calibrations (unique)."""
    base = f"calibrate-{lexicon}-{opts.verifier.signal}-s{opts.seed}"
    n = 1
    while calibration_name_taken(db, f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"
