"""Orchestration of ``fbagent generate``: run record, pair selection, one LangGraph thread per entry.

Flow of :func:`generate` (FrameBench construction, Yano and Sasano 2026, sec. 3):

1. Resolve the lexicon (the embedded sample when the database has none) and
   the run: ``--run NAME``, or a name derived from the lexicon, generator, seed
   and a hash of every option that changes results, so that running the same
   command again continues the same run (:mod:`.options`).
2. Pair selection unless the run already has one: a stored selection with the
   same options that no run uses (e.g. made by ``fbagent pairs select``) is
   reused, else one is made and stored as ``pairs select`` makes it
   (:func:`fbagent.pairs.select.select_pairs`); then LLM screening with replacement from
   the seeded reserve by :mod:`fbagent.pairs.screening` (:mod:`.selection`),
   whose first requests go out before LangGraph is imported.
3. Entries = selected pairs x ``per_pair`` (:func:`.workers.entry_list`). Entries
   whose ``items`` row has a final status (verified, flagged, rejected) are
   skipped; ``failed`` ones are redone. Each entry runs the entry graph
   (:mod:`fbagent.agents.entry_graph`) as its own LangGraph thread (``thread_id``
   = item id) with LangGraph's SQLite checkpointer (:mod:`.checkpoints`, writing on
   the event loop thread) in ``<db stem>.checkpoints.db`` next to the database (a
   separate file, so checkpoint writes never wait on the main database's write lock): an entry
   killed mid-graph resumes from its last checkpoint. A finished entry is one
   ``items`` row written in one short transaction; its checkpoints are then deleted.
4. At most ``concurrency`` LLM requests are in flight (the clients' bound) and
   at most ``2 x concurrency`` entries (while the encoder's model loads, an entry
   that waits for it lends its slot to the next entry, up to ``4 x`` more:
   :class:`.workers.EntryPool`); llama.cpp runs in a worker thread, the sentence
   encoder in a process of its own (:mod:`fbagent.verifier.encoder_process`), and
   the encoder and the verb check's lemma tables load in the background while
   selection, screening and the first requests run (:mod:`fbagent.verifier.startup`).
5. Ctrl-C cancels the entries in flight (their checkpoints and every finished
   LLM call stay), records the session as interrupted and re-raises
   ``asyncio.CancelledError``. ``kill -9`` loses at most the LLM requests in flight.

The library prints nothing: progress, notes and the summary are events
(:mod:`.events`) passed to ``on_event``; ``fbagent generate`` renders them.
``--dry-run`` plans instead (:mod:`.plan`). The run's lifecycle is :mod:`.run`.

The names below load on first use (PEP 562): importing a light module of the package
(:mod:`.options`, whose option groups ``fbagent generate --help`` reads for its defaults) must not
import the run's machinery (numpy, the per-language analysers, the lexicon readers; LangGraph loads only
when the run builds its graphs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.generation.events import (
        EntriesStarted,
        EntriesStopped,
        EntryError,
        GenerationEvent,
        GenerationSummary,
        LexiconNote,
        NothingToDo,
        OnEvent,
        PlanMade,
        Progress,
        Resuming,
        RunWarning,
        ScreeningDone,
        SelectionChosen,
        SessionEnded,
    )
    from fbagent.generation.options import (
        GenerateOptions,
        RunOptions,
        check_compatible,
        checkpoint_path,
        default_run_name,
        validate_options,
    )
    from fbagent.generation.plan import OUTPUT_TOKEN_ESTIMATE, build_plan, estimate_tokens
    from fbagent.generation.run import generate, session_failure
    from fbagent.generation.selection import SelectionChoice, choose_selection
    from fbagent.generation.workers import (
        FrameInfoCache,
        entry_list,
        initial_state,
        pending,
        run_entry,
    )

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.generation.plan": ("OUTPUT_TOKEN_ESTIMATE", "build_plan", "estimate_tokens"),
    "fbagent.generation.events": ("EntriesStarted", "EntriesStopped", "EntryError", "GenerationEvent",
                                  "GenerationSummary", "LexiconNote", "NothingToDo", "OnEvent", "PlanMade", "Progress",
                                  "Resuming", "RunWarning", "ScreeningDone", "SelectionChosen", "SessionEnded"),
    "fbagent.generation.workers": ("FrameInfoCache", "entry_list", "initial_state", "pending", "run_entry"),
    "fbagent.generation.options": ("GenerateOptions", "RunOptions", "check_compatible", "checkpoint_path",
                                   "default_run_name", "validate_options"),
    "fbagent.generation.selection": ("SelectionChoice", "choose_selection"),
    "fbagent.generation.run": ("generate", "session_failure"),
}
__all__ = [
    "OUTPUT_TOKEN_ESTIMATE", "EntriesStarted", "EntriesStopped", "EntryError", "FrameInfoCache",
    "GenerateOptions", "GenerationEvent", "GenerationSummary", "LexiconNote", "NothingToDo", "OnEvent", "PlanMade",
    "Progress", "Resuming", "RunOptions", "RunWarning", "ScreeningDone", "SelectionChoice", "SelectionChosen",
    "SessionEnded", "build_plan", "check_compatible", "checkpoint_path", "choose_selection", "default_run_name", "entry_list",
    "estimate_tokens", "generate", "initial_state", "pending", "run_entry", "session_failure", "validate_options",
]

__getattr__ = lazy_attributes(__name__, _MODULES)
