"""LLM screening of a frame-pair selection, as a LangGraph agent (FrameBench step 1; Yano and Sasano 2026,
sec. 3.1). :func:`screen_pairs` runs it; :func:`fbagent.pairs.select.select_pairs` is the one public
entry that selects (this graph's ``draw`` and ``save`` nodes store the same rows).

Nodes (the pure draw from :mod:`fbagent.pairs.select`, plus one LLM node)::

    START --(no selection yet)--> draw --(save)--> save --(screen)--> screen
      |                             |(dry run) -> END  |(no screen) -> END
      +--(selection exists, screening not finished)--------------------> screen
    screen --(a pair was screened out and the reserve promoted a replacement)--> screen
    screen --(nothing left to screen)--> END

- ``draw``: :func:`fbagent.pairs.select.draw_selection` (either protocol: candidates, filters,
  seeded sample of P pairs plus the seeded reserve).
- ``save``: ``selections`` + ``frame_pairs`` rows (sample ``selected``, rest ``reserve``).
- ``screen`` (``--screen``): the generator LLM answers, per selected pair, whether
  the verb truly evokes both frames and whether everyday uses tell them apart
  (:class:`fbagent.schemas.PairScreening`). A pair failing either is marked
  ``screened_out`` with the reason, and the next reserve pair (seeded order)
  is promoted and screened in turn, so the sample keeps its size while the
  reserve lasts. A screening call that fails (LLM trouble) keeps the pair.
  A reason that only repeats the prompt is not stored (:func:`own_reason`).
  With a base model screening is off unless asked for (:func:`fbagent.generation.options.default_screen`);
  under ``--protocol framebench`` it is always off (the authors screen nothing).

The graph runs without a checkpointer: every step is cheap, the selection is
stored before screening starts, and screening answers come from the
``llm_calls`` cache when it is run again.

``fbagent generate`` stores a new selection with :func:`fbagent.pairs.select.select_pairs`
(as ``fbagent pairs select`` does: the rows the ``draw`` and ``save`` nodes
store) and runs this graph on it to screen it.

LangGraph is imported when the graph is built, not with this module. When
:func:`screen_pairs` screens a stored selection, the first round of screening
calls (:func:`start_screen_round`) starts before that, and LangGraph loads in a
background thread while they are in flight; the ``screen`` node then awaits
those calls instead of making its own, so the first request of ``fbagent generate``
does not wait for LangGraph's import (about half a second), and the calls,
their rows and the results are the same.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, cast

import sqlite_utils

from fbagent.llm.batch import BatchPending
from fbagent.pairs import select as pair_steps
from fbagent.schemas import PairScreening
from fbagent.store import pairs as pair_store
from fbagent.store.lexicon import frame_context
from fbagent.store.rows import LexiconRow

if TYPE_CHECKING:  # LangGraph is imported when the graph is built (module doc)
    from langgraph.graph import StateGraph
    from langgraph.graph.state import CompiledStateGraph
    from langgraph.runtime import Runtime

    from fbagent.llm.client import CallResult, LLMClient
    from fbagent.prompting.messages import Prompts


class SelectionState(TypedDict, total=False):
    """State of one selection (not checkpointed; values may be dataclasses)."""

    lexicon: LexiconRow
    options: dict[str, Any]            # pair_steps.SelectionOptions fields
    selection_id: int | None
    drawn: pair_steps.Drawn
    counts: dict[str, Any]
    pairs: list[dict[str, Any]]        # selected pairs (frame_pairs rows, or dicts in a dry run)
    screened: dict[int, dict[str, Any]]   # frame_pairs.id -> PairScreening fields (+ error)
    screened_out: list[dict[str, Any]]
    promoted: list[dict[str, Any]]


@dataclass
class SelectionContext:
    """Run-scoped objects of the selection graph."""

    db: sqlite_utils.Database
    save: bool = True
    screen_client: LLMClient | None = None   # None: no screening
    prompts: Prompts | None = None
    run_id: int | None = None
    seed: int | None = None
    started: ScreenRound | None = None   # the first screening round, started before the graph (screen_pairs)
    #: ``generate --batch``: answers the screening requests the client recorded in collect mode as one batch
    #: wave (:func:`fbagent.generation.batch.wave_settler`); None: the requests are sent directly
    settle_batch: Callable[[], Awaitable[object]] | None = None


#: the compiled selection graph (:func:`build_selection_graph`, compiled)
SelectionGraph: TypeAlias = "CompiledStateGraph[SelectionState, SelectionContext, SelectionState, SelectionState]"


@dataclass
class ScreenRound:
    """One round of screening calls, started: the selection's selected ``pairs`` at that point, those not
    yet screened (``todo``), their ``requests`` (messages) and ``calls`` (tasks of ``screen_client.complete``,
    in the same order)."""

    selection_id: int | None
    pairs: list[dict[str, Any]]
    todo: list[dict[str, Any]]
    requests: list[list[dict[str, str]]]
    calls: list[asyncio.Future[CallResult]] = field(default_factory=list)


def start_screen_round(state: SelectionState, ctx: SelectionContext) -> ScreenRound:
    """Start the screening calls of every selected pair of ``state`` not screened yet (tasks on the running
    loop); the requests are sent as soon as the loop runs them."""
    db, lexicon = ctx.db, state["lexicon"]
    assert ctx.screen_client is not None and ctx.prompts is not None   # the graph screens only with both
    client, prompts = ctx.screen_client, ctx.prompts
    screened = state.get("screened") or {}
    selection_id = state["selection_id"]
    assert selection_id is not None   # screening follows a stored selection
    pairs = state.get("pairs") or pair_store.selection_pairs(db, selection_id)
    todo = [p for p in pairs if p["id"] not in screened]

    def definition(frame: str, verb: str) -> str:
        return frame_context(db, lexicon["id"], frame, verb, max_examples=0)["definition"]

    requests = [prompts.screen_messages(p["verb"], p["frame_a"], definition(p["frame_a"], p["verb"]),
                                            p["frame_b"], definition(p["frame_b"], p["verb"])) for p in todo]
    calls: list[asyncio.Future[CallResult]] = [
        asyncio.ensure_future(client.complete(
            task="screen", response_model=PairScreening, run_id=ctx.run_id, item_id=f"pair:{p['id']}",
            prompt_version=prompts.screen.version, temperature=0.0, max_tokens=256, seed=ctx.seed,
            messages=messages,
        ))
        for p, messages in zip(todo, requests, strict=True)
    ]
    return ScreenRound(selection_id=state.get("selection_id"), pairs=pairs, todo=todo, requests=requests, calls=calls)


# --------------------------------------------------------------------------- nodes


async def draw_node(state: SelectionState, runtime: Runtime[SelectionContext]) -> SelectionState:
    """Draw the selection by its protocol (:func:`fbagent.pairs.select.draw_selection`); nothing stored."""
    opts = pair_steps.SelectionOptions.from_json(state["options"])
    drawn = pair_steps.draw_selection(runtime.context.db, state["lexicon"], opts)
    pairs = [{"id": None, "rank": i, "per_pair": opts.per_pair, **c} for i, c in enumerate(drawn.selected)]
    return {"drawn": drawn, "counts": drawn.counts, "pairs": pairs}


async def save_node(state: SelectionState, runtime: Runtime[SelectionContext]) -> SelectionState:
    """Store the selection (``selections``, ``frame_pairs``) in one transaction."""
    opts = pair_steps.SelectionOptions.from_json(state["options"])
    db, drawn = runtime.context.db, state["drawn"]
    selection_id = pair_store.save_selection(
        db, lexicon_id=state["lexicon"]["id"], seed=opts.seed, options=opts.to_json(), counts=drawn.counts,
        selected=drawn.selected, reserve=drawn.reserve, per_pair=opts.per_pair, protocol=opts.protocol,
    )
    return {"selection_id": selection_id, "pairs": pair_store.selection_pairs(db, selection_id)}


async def screen_node(state: SelectionState, runtime: Runtime[SelectionContext]) -> SelectionState:
    """Ask the LLM about every selected pair not yet screened; replace rejected ones from the reserve.

    The first visit of a graph started on a stored selection takes the round :func:`screen_pairs`
    started before the graph (the same calls this node would make); every other visit starts its own."""
    ctx = runtime.context
    db = ctx.db
    screened = dict(state.get("screened") or {})
    started, ctx.started = ctx.started, None
    if started is not None and not screened and started.selection_id == state.get("selection_id"):
        round_ = started
    else:
        round_ = start_screen_round(state, ctx)
    round_, results = await _answered(round_, state, ctx)
    pairs, todo, requests = round_.pairs, round_.todo, round_.requests
    rejected: dict[int, str] = {}
    for p, messages, r in zip(todo, requests, results, strict=True):
        if r.error:
            screened[p["id"]] = {"kept": True, "error": r.error}
            continue
        v = cast(PairScreening, r.value)   # no error: the response_model instance
        ok = bool(v.evokes_both and v.distinguishable)
        reason = own_reason(v.reason, " ".join(str(m.get("content") or "") for m in messages))
        screened[p["id"]] = {"kept": ok, "evokes_both": v.evokes_both, "distinguishable": v.distinguishable,
                             "reason": reason}
        if reason is None:   # the model's text stays in llm_calls (the audit log), not as a reason
            screened[p["id"]]["reason_repeated_prompt"] = True
        if not ok:
            why = []
            if not v.evokes_both:
                why.append("the verb does not truly evoke both frames")
            if not v.distinguishable:
                why.append("everyday uses do not tell the frames apart")
            rejected[p["id"]] = f"screening: {'; '.join(why)} ({reason or NO_OWN_REASON})"
    promoted: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = list(state.get("screened_out") or [])
    selection_id = state["selection_id"]
    assert selection_id is not None   # screening follows a stored selection
    if rejected:
        promoted = pair_store.replace_from_reserve(db, selection_id, rejected)
        out.extend({**p, "reason": rejected[p["id"]]} for p in pairs if p["id"] in rejected)
    return {"screened": screened, "screened_out": out, "promoted": promoted,
            "pairs": pair_store.selection_pairs(db, selection_id)}


async def _answered(round_: ScreenRound, state: SelectionState,
                    ctx: SelectionContext) -> tuple[ScreenRound, list[CallResult]]:
    """The results of ``round_``'s calls. Under ``generate --batch`` (:attr:`SelectionContext.settle_batch`)
    the calls the cache cannot answer raise :class:`~fbagent.llm.batch.BatchPending`: the round's requests
    then go out as one batch wave, and the same round is started again, answered from the cache (a line that
    failed every resubmission is a failed call, and its pair is kept, as after a failed direct call).
    Returns the round whose results these are, and the results in its order."""
    if ctx.settle_batch is None:
        return round_, list(await asyncio.gather(*round_.calls))
    results = await asyncio.gather(*round_.calls, return_exceptions=True)
    while any(isinstance(r, BatchPending) for r in results):
        await ctx.settle_batch()
        round_ = start_screen_round(state, ctx)   # the same requests (the state is unchanged), now cached
        results = await asyncio.gather(*round_.calls, return_exceptions=True)
    answered: list[CallResult] = []
    for r in results:
        if isinstance(r, BaseException):
            raise r
        answered.append(r)
    return round_, answered


NO_OWN_REASON = "no reason of its own: the model's reason repeated its prompt"
ECHO_SHARE = 0.5   # a reason whose word trigrams are at least this share prompt trigrams repeats the prompt


def own_reason(reason: str, prompt: str) -> str | None:
    """The screening ``reason`` as stored, or ``None`` when it only repeats ``prompt`` text.

    A reason repeats the prompt when its words (lower case) occur as one run in the prompt,
    or when at least :data:`ECHO_SHARE` of its word trigrams occur in it: a small base model
    copies instructions ("one sentence explaining your decision"), definitions or worked
    examples instead of reasoning. An empty reason is ``None`` too.
    """
    words = re.findall(r"\w+", (reason or "").lower())
    if not words:
        return None
    source = re.findall(r"\w+", prompt.lower())
    if f" {' '.join(words)} " in f" {' '.join(source)} ":
        return None
    if len(words) >= 3:
        grams = {tuple(words[i:i + 3]) for i in range(len(words) - 2)}
        seen = {tuple(source[i:i + 3]) for i in range(len(source) - 2)}
        if len(grams & seen) >= ECHO_SHARE * len(grams):
            return None
    return reason.strip()


# --------------------------------------------------------------------------- edges


def route_start(state: SelectionState, runtime: Runtime[SelectionContext]) -> str:   # "draw" | "screen" | END
    """A stored selection goes straight to screening (or ends without a client); otherwise select from scratch."""
    from langgraph.graph import END

    if state.get("selection_id") is None:
        return "draw"
    return "screen" if runtime.context.screen_client is not None else END


def after_draw(state: SelectionState, runtime: Runtime[SelectionContext]) -> str:   # "save" | END
    """Dry runs stop after sampling (nothing stored)."""
    from langgraph.graph import END

    return "save" if runtime.context.save else END


def after_save(state: SelectionState, runtime: Runtime[SelectionContext]) -> str:   # "screen" | END
    """Screen when a screening client is configured."""
    from langgraph.graph import END

    return "screen" if runtime.context.screen_client is not None else END


def after_screen(state: SelectionState) -> str:   # "screen" | END
    """Screen the pairs promoted from the reserve; stop when none were promoted."""
    from langgraph.graph import END

    return "screen" if state.get("promoted") else END


def build_selection_graph() -> StateGraph[SelectionState, SelectionContext, SelectionState, SelectionState]:
    """The (uncompiled) selection :class:`~langgraph.graph.StateGraph` (imports LangGraph)."""
    global Runtime   # LangGraph reads the nodes' and edges' type hints: ``Runtime`` must resolve from now on
    from langgraph.graph import END, START, StateGraph
    from langgraph.runtime import Runtime

    graph = StateGraph(SelectionState, context_schema=SelectionContext)
    graph.add_node("draw", draw_node)
    graph.add_node("save", save_node)
    graph.add_node("screen", screen_node)
    graph.add_conditional_edges(START, route_start, ["draw", "screen", END])
    graph.add_conditional_edges("draw", after_draw, ["save", END])
    graph.add_conditional_edges("save", after_save, ["screen", END])
    graph.add_conditional_edges("screen", after_screen, ["screen", END])
    return graph


async def screen_pairs(db: sqlite_utils.Database, lexicon: LexiconRow, options: pair_steps.SelectionOptions, *,
                       screen_client: LLMClient | None = None, prompts: Prompts | None = None, run_id: int | None = None, save: bool = True,
                       selection_id: int | None = None,
                       settle_batch: Callable[[], Awaitable[object]] | None = None) -> dict[str, Any]:
    """Run the selection graph for ``lexicon`` (a ``lexicons`` row) under ``options``.

    With ``selection_id`` the stored selection is only screened (resume; ``options``
    are then not used for sampling). With ``save=False`` (dry run) nothing is stored
    and nothing is screened. ``screen_client``: the LLM client that screens (``None``:
    no screening); ``prompts``: :class:`fbagent.prompting.messages.Prompts`; ``run_id``:
    recorded with the screening calls; ``settle_batch``: ``generate --batch`` (:attr:`SelectionContext.settle_batch`).
    Under ``options.protocol == "framebench"`` nothing is screened
    (the authors' protocol has no screening). Returns ``{"selection_id", "counts", "pairs":
    [selected pairs in rank order], "screened": {pair id: answer}, "screened_out":
    [pairs with reason]}``. Raises :class:`fbagent.errors.FbagentError` for bad options.
    """
    options.check()
    screens = save and options.protocol != "framebench"
    ctx = SelectionContext(db=db, save=save, screen_client=screen_client if screens else None, prompts=prompts,
                           run_id=run_id, seed=options.seed, settle_batch=settle_batch)
    state: SelectionState = {"lexicon": lexicon, "options": options.to_json(),
                             "selection_id": selection_id}
    if selection_id is not None and ctx.screen_client is not None:   # straight to screening: start it now
        ctx.started = start_screen_round(state, ctx)
    started = ctx.started
    try:
        graph = await _compiled_graph(loading_behind=started.calls if started else [])
        out = await graph.ainvoke(state, context=ctx)
    finally:
        for call in started.calls if started else []:   # the graph failed before its screen node awaited them
            if not call.done():
                call.cancel()
            elif not call.cancelled():
                call.exception()   # retrieved: no "exception was never retrieved" warning
    return {
        "selection_id": out.get("selection_id"), "counts": out.get("counts") or {},
        "pairs": out.get("pairs") or [], "screened": out.get("screened") or {},
        "screened_out": out.get("screened_out") or [],
    }


async def _compiled_graph(*, loading_behind: Sequence[asyncio.Future[CallResult]]) -> SelectionGraph:
    """The compiled selection graph. With calls ``loading_behind`` (started, in flight), LangGraph loads in a
    daemon thread once the loop has run them up to their first wait (their requests' own imports done), so
    that the event loop sends them and takes their answers meanwhile; without, it loads here and now."""
    if not loading_behind:
        return build_selection_graph().compile()
    await asyncio.sleep(0)
    compiled: concurrent.futures.Future[SelectionGraph] = concurrent.futures.Future()

    def load() -> None:
        # a future cancelled before the thread got to it (the session was cancelled) takes no result; once
        # running it can no longer be cancelled, so set_result below never meets a cancelled future
        if not compiled.set_running_or_notify_cancel():
            return
        try:
            compiled.set_result(build_selection_graph().compile())
        except BaseException as err:  # noqa: BLE001 - raised where the graph is awaited
            compiled.set_exception(err)

    threading.Thread(target=load, name="fbagent-selection-graph", daemon=True).start()
    return await asyncio.wrap_future(compiled)


def load_run_pairs(db: sqlite_utils.Database, selection_id: int) -> list[dict[str, Any]]:
    """The selected pairs (``frame_pairs`` rows, status ``selected``) of a selection, in rank order."""
    return pair_store.selection_pairs(db, selection_id, "selected")
