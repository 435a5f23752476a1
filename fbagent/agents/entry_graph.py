"""The entry graph: one LangGraph thread per benchmark entry (frame pair x k).

FrameBench construction (Yano and Sasano 2026, sec. 3.1-3.2) as a LangGraph
``StateGraph`` of two async nodes, one per wave of expensive work; each node runs its steps in order
and picks the next node itself (``Command(goto=...)``)::

    START -> generate --base and extension done--> verify -> END
                 |
                 +--rejected (self-check failed R+1 times) or failed (an LLM call failed)--> END

- ``generate``: FrameBench steps 1 and 2 with their checks, the retries included (:func:`generate`):
  - step 1, :func:`_generate_base`: question Q, S_A, S_B and the verb forms
    (:class:`fbagent.schemas.BasePair`), from both frames' information; on a retry the previous answer and
    the self-check reasons are sent as feedback;
  - its self-check (no LLM, :func:`fbagent.checks.self_check.self_check`; in the checks' worker thread,
    :func:`off_loop`, as the extension check is: a sentence's analysis never stalls the event loop); failed
    with retries left (:func:`after_self_check`, <= R times): step 1 again;
  - step 2, :func:`_extend`: S_A' and S_B' (:class:`fbagent.schemas.ExtendedSentence`), checked by
    :func:`fbagent.checks.self_check.extension_check`; failed sides are asked again with feedback at most R
    times (:func:`after_extend`), then kept with the reasons (flagged);
  - an entry that stops here (rejected, failed) gets its status and ``items`` row (:func:`build_item`).
- ``verify``: SemBench round trip (:func:`fbagent.verifier.verify.verify_item`), then the status and the
  ``items`` row (:func:`build_item`).

Statuses: ``verified`` (all checks and all four round trips pass), ``flagged`` (some fail; kept with
reasons), ``rejected`` (self-check failed after R retries), ``failed`` (an LLM call failed after its
retries); the ``items`` row is written by :mod:`fbagent.generation`.

Why two nodes: each LangGraph superstep costs a task, channel updates and a checkpoint write, about half
of the event loop's instructions per entry when every step (and the final status) was a node of its own
(a verified entry: 5 supersteps with START's, 6 checkpoints; now 3 and 4, of which ``fbagent generate``
stores 2, :attr:`fbagent.generation.checkpoints.LoopSqliteSaver.skip_input_checkpoints`). A checkpoint is
stored after each node, i.e. before the verifier's requests and the encoder: an entry killed during ``verify`` resumes
there; one killed during ``generate`` runs it again from its start, each LLM answer it had from the
``llm_calls`` cache (no new request, the same result: the seeds follow the attempt numbers), the checks
recomputed (milliseconds). :data:`OLD_NODES` are the nodes of the five-node graph before: a checkpoint
waiting at one of them is resumed by :func:`fbagent.generation.workers.run_entry` as such a rerun.

The state holds only JSON-like data, so the SQLite checkpointer can store it
after every node. Clients, encoder and prompts come in through the run-scoped context
(:class:`EntryContext`, LangGraph ``context_schema``), never the state.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    ParamSpec,
    TypeAlias,
    TypedDict,
    TypeVar,
    cast,
    get_args,
)

from fbagent.checks import self_check as checks
from fbagent.checks.coverage import entry_verb_check
from fbagent.checks.defaults import DEFAULT_MAX_RETRIES
from fbagent.checks.llm_verb_check import confirm_verb
from fbagent.providers.config import GENERATION_MAX_TOKENS, GENERATION_VARIANT_TEMPERATURE
from fbagent.schemas import BasePair, ExtendedSentence
from fbagent.seeds import DEFAULT_SEED
from fbagent.store.clock import utc_now
from fbagent.store.rows import FrameContext
from fbagent.verifier.settings import VerifierOptions
from fbagent.verifier.verify import (
    SENTENCE_KEYS,
    BatchEncoder,
    ReferenceBank,
    VerifierResult,
    verifier_reasons,
    verify_item,
)

if TYPE_CHECKING:   # LangGraph loads where the graph is built (compile_entry_graph) and run, not with this module
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.graph import StateGraph
    from langgraph.graph.state import CompiledStateGraph
    from langgraph.runtime import Runtime
    from langgraph.types import Command

    from fbagent.checks.verb_match import VerbMatch
    from fbagent.llm.client import LLMClient
    from fbagent.prompting.messages import Prompts
    from fbagent.verifier.encoder_check import ExemplarBank

P = ParamSpec("P")
T = TypeVar("T")
G = TypeVar("G", bound=str)   # a node's destinations (a Literal of node names)
#: the compiled entry graph (:func:`compile_entry_graph`)
EntryGraph: TypeAlias = "CompiledStateGraph[EntryState, EntryContext, EntryState, EntryState]"

#: where ``generate`` goes next (its ``Command(goto=...)``; the graph's declared destinations): ``__end__`` is
#: LangGraph's ``END``, for an entry that stops before ``verify`` (rejected, failed)
AfterGenerate = Literal["verify", "__end__"]
#: the next step after a self-check / an extension inside ``generate`` (:func:`after_self_check`,
#: :func:`after_extend`; ``finalize``: the entry stops with its status, rejected or failed)
AfterSelfCheck = Literal["extend", "generate_base", "finalize"]
AfterExtend = Literal["extend", "verify", "finalize"]
#: the nodes of the entry graph before it had two (generate_base, self_check, extend, verify, finalize): a
#: checkpoint that waits at one of these (but ``verify``, a node of both) is from that graph
OLD_NODES = frozenset({"generate_base", "self_check", "extend", "finalize"})


class EntryState(TypedDict, total=False):
    """Checkpointed state of one entry (JSON-like values only)."""

    # inputs
    item_id: str
    run_id: int
    pair_id: int
    k: int
    lang: str
    lexicon: str
    verb: str
    lu_a: str
    lu_b: str
    frame_a: str
    frame_b: str
    frame_a_info: FrameContext     # fbagent.store.lexicon.frame_context output
    frame_b_info: FrameContext
    # step 1
    attempts: int                   # generate_base calls so far
    base: dict[str, Any] | None     # BasePair fields of the latest attempt
    self_check: dict[str, Any] | None
    check_history: list[dict[str, Any]]
    verb_check: str                 # what vouched for the verb (fbagent.checks.coverage.entry_verb_check)
    # step 2
    extend_attempts: int
    extended: dict[str, dict[str, Any]]   # sentence_a_prime / sentence_b_prime -> sentence, verb_form, check
    # step 3
    verifier: VerifierResult | None
    # outcome
    error: str | None
    status: str | None
    item: dict[str, Any] | None


@dataclass
class EntryOptions:
    """Run options the nodes need (recorded with the run).

    ``similarity_threshold``: minimum base-pair lexical similarity; ``near_copy_threshold``:
    maximum similarity of S_x' to S_x; ``max_retries``: R, extra generate_base / extend
    attempts after a failed check; ``variant_temperature``: sampling temperature for entries k >= 1
    (k = 0 is greedy); ``verifier``: the run's verifier options group as it is
    (:class:`fbagent.verifier.settings.VerifierOptions`: signal, margin, verb check, judge), declared there once.
    """

    similarity_threshold: float = checks.DEFAULT_SIMILARITY_THRESHOLD
    near_copy_threshold: float = checks.DEFAULT_NEAR_COPY_THRESHOLD
    max_retries: int = DEFAULT_MAX_RETRIES
    seed: int = DEFAULT_SEED
    variant_temperature: float = GENERATION_VARIANT_TEMPERATURE
    max_tokens: int = GENERATION_MAX_TOKENS
    verifier: VerifierOptions = field(default_factory=VerifierOptions)


@dataclass
class EntryContext:
    """Run-scoped objects shared by every entry (LangGraph runtime context; not checkpointed)."""

    generator: LLMClient             # its results' ``value`` is typed BaseModel | None
    verifier: LLMClient              # may be the generator
    prompts: Prompts
    encoder: BatchEncoder
    references: ReferenceBank
    options: EntryOptions = field(default_factory=EntryOptions)
    encoder_name: str | None = None
    exemplars: ExemplarBank | None = None   # verifier signals encoder, both
    # resolves when the verb check's lemma tables are loaded (fbagent.checks.warmup.Warmup); None: no wait
    checks_ready: Awaitable[None] | None = None

    async def checks_loaded(self) -> None:
        """Wait until the background load of the verb check's tables is over (at once when it is, or is none)."""
        ready = self.checks_ready
        if ready is not None and not (isinstance(ready, asyncio.Future) and ready.done()):
            await asyncio.shield(ready)


#: the one worker thread of the checks (the part-of-speech analysers and lemma tables are read by one thread at a
#: time; its threads start on first use and end with the process)
_CHECKS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fbagent-checks")


async def off_loop(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` run in the checks' worker thread (the event loop serves the network meanwhile);
    its result, or what it raised."""
    return await asyncio.get_running_loop().run_in_executor(_CHECKS, functools.partial(fn, *args, **kwargs))


def _sampling(state: EntryState, opts: EntryOptions, attempt: int = 1) -> tuple[float, int]:
    """(temperature, seed) of one request of an entry.

    Entry k = 0, first attempt: greedy (temperature 0). Entries k >= 1 and retries
    after a failed check sample at ``variant_temperature`` with the seed
    ``seed + 1000 * k + attempt``, so each gets its own answer (and cache key).
    """
    k = int(state.get("k", 0))
    if k == 0 and attempt <= 1:
        return 0.0, opts.seed
    return opts.variant_temperature, opts.seed + 1000 * k + attempt


def _frame_element_names(state: EntryState) -> list[str]:
    names: list[str] = []
    for info in (state.get("frame_a_info"), state.get("frame_b_info")):
        if info:
            names.extend(fe.get("name", "") for fe in info.get("core_fes") or [])
    return [n for n in names if n]


# --------------------------------------------------------------------------- nodes


def _command(update: EntryState, goto: G) -> Command[G]:
    """LangGraph's ``Command(update=update, goto=goto)`` (LangGraph is loaded: the graph runs)."""
    from langgraph.types import Command

    return Command(update=update, goto=goto)


async def generate(state: EntryState, runtime: Runtime[EntryContext]) -> Command[AfterGenerate]:
    """FrameBench steps 1 and 2 with their checks and retries (see the module doc), one node: the update of
    every step, and the ``items`` row (status, item) of an entry that stops before ``verify``; then ``verify``
    or the end."""
    max_retries = runtime.context.options.max_retries
    current, update = state, cast(EntryState, {})
    route: AfterSelfCheck | AfterExtend = "generate_base"
    while route == "generate_base":   # step 1 and its self-check, again with feedback while it fails (<= R)
        current, update = _step(current, update, await _generate_base(current, runtime))
        if current.get("error"):
            route = "finalize"
            break
        current, update = _step(current, update, await _self_check(current, runtime))
        route = after_self_check(current, max_retries)
    while route == "extend":          # step 2 and its checks, failed sides again with feedback (<= R)
        current, update = _step(current, update, await _extend(current, runtime))
        route = after_extend(current, max_retries)
    if route == "verify":
        return _command(update, "verify")
    item = build_item(current, generator_model=getattr(runtime.context.generator, "model", None))
    update["status"], update["item"] = item["status"], item
    return _command(update, "__end__")


def _step(current: EntryState, update: EntryState, step: EntryState) -> tuple[EntryState, EntryState]:
    """``(current, update)`` after one step of a node: the state with ``step`` applied, and the node's update
    so far with ``step`` applied."""
    return _merged(current, step), _merged(update, step)


def _merged(state: EntryState, update: EntryState) -> EntryState:
    """``state`` with a node's ``update`` applied (what LangGraph stores after the node)."""
    return cast(EntryState, {**state, **update})


async def _generate_base(state: EntryState, runtime: Runtime[EntryContext]) -> EntryState:
    ctx = runtime.context
    previous, reasons = None, None
    check = state.get("self_check")
    if check and not check["passed"]:
        previous, reasons = state.get("base"), check["reasons"]
    messages = ctx.prompts.base_messages(state["verb"], state["frame_a_info"], state["frame_b_info"], previous, reasons)
    attempts = int(state.get("attempts", 0)) + 1
    temperature, seed = _sampling(state, ctx.options, attempts)
    result = await ctx.generator.complete(
        task="generate_base", messages=messages, response_model=BasePair, run_id=state["run_id"],
        item_id=state["item_id"], prompt_version=ctx.prompts.base.version, temperature=temperature,
        max_tokens=ctx.options.max_tokens, seed=seed,
    )
    if result.error:
        return {"attempts": attempts, "error": f"generate_base: {result.error}"}
    return {"attempts": attempts, "base": cast(BasePair, result.value).model_dump()}   # no error: a BasePair


async def _self_check(state: EntryState, runtime: Runtime[EntryContext]) -> EntryState:
    await runtime.context.checks_loaded()
    opts = runtime.context.options
    base = state["base"] or {}
    matches = None
    if opts.verifier.effective_verb_check == "llm":
        keys = ("sentence_a", "sentence_b")
        found = await asyncio.gather(*(_llm_verb(state, runtime.context, base.get(k) or "") for k in keys))
        matches = dict(zip(keys, found, strict=True))
    result = await off_loop(
        checks.self_check, base, lemma=state["verb"], lang=state["lang"],
        frame_names=[state["frame_a"], state["frame_b"]], fe_names=_frame_element_names(state),
        similarity_threshold=opts.similarity_threshold, verb_matches=matches,
    )
    history = list(state.get("check_history") or [])
    history.append({"attempt": state.get("attempts", 1), "base": state.get("base"), "passed": result["passed"],
                    "reasons": result["reasons"], "lexical_similarity": result["lexical_similarity"]})
    return {"self_check": result, "check_history": history,
            "verb_check": entry_verb_check(state["lang"], opts.verifier.effective_verb_check)}


async def _llm_verb(state: EntryState, ctx: EntryContext, sentence: str) -> VerbMatch:
    """``--verb-check llm``: the verifier's model confirms the verb in ``sentence`` (one cached call)."""
    return await confirm_verb(ctx.verifier, sentence, state["verb"], state["lang"], run_id=state["run_id"],
                              item_id=state["item_id"])


async def _extend(state: EntryState, runtime: Runtime[EntryContext]) -> EntryState:
    ctx = runtime.context
    base, sc = state["base"] or {}, state["self_check"] or {}
    extended = {k: dict(v) for k, v in (state.get("extended") or {}).items()}
    sides = [
        ("sentence_a_prime", "sentence_a", state["frame_a_info"], True),
        ("sentence_b_prime", "sentence_b", state["frame_b_info"], False),
    ]
    todo = [s for s in sides if not (extended.get(s[0]) or {}).get("check", {}).get("passed")]
    attempts = int(state.get("extend_attempts", 0)) + 1
    temperature, seed = _sampling(state, ctx.options, attempts)
    calls = []
    for key, base_key, frame, answers in todo:
        prev = extended.get(key)
        messages = ctx.prompts.extend_messages(
            state["verb"], frame, base[base_key], base.get("question", ""), sc.get("condition") or base.get("condition", ""),
            answers, previous=prev["sentence"] if prev else None, reasons=prev["check"]["reasons"] if prev else None,
        )
        calls.append(ctx.generator.complete(
            task="extend", messages=messages, response_model=ExtendedSentence, run_id=state["run_id"],
            item_id=state["item_id"], prompt_version=ctx.prompts.extend.version, temperature=temperature,
            max_tokens=ctx.options.max_tokens, seed=seed,
        ))
    results = await asyncio.gather(*calls)
    await ctx.checks_loaded()
    first_error = next((n for n, r in enumerate(results) if r.error), len(results))   # sides after it: not checked
    answered = [(side[0], side[1], cast(ExtendedSentence, r.value))   # no error: ExtendedSentences
                for side, r in zip(todo[:first_error], results[:first_error], strict=True)]
    if ctx.options.verifier.effective_verb_check == "llm":
        for key, base_key, value in answered:
            match = await _llm_verb(state, ctx, value.sentence)
            await off_loop(_check_extensions, extended, [(key, base_key, value, match)], base, state, ctx.options)
    elif answered:   # every side in one hand-off to the checks' thread
        await off_loop(_check_extensions, extended, [(k, b, v, None) for k, b, v in answered], base, state, ctx.options)
    if first_error < len(results):
        return {"extend_attempts": attempts, "extended": extended, "error": f"extend: {results[first_error].error}"}
    return {"extend_attempts": attempts, "extended": extended}


def _check_extensions(extended: dict[str, dict[str, Any]], sides: list[tuple[str, str, ExtendedSentence, VerbMatch | None]],
                      base: dict[str, Any], state: EntryState, opts: EntryOptions) -> None:
    """Check each answered side ``(key, base key, answer, verb match or None)`` in order with
    :func:`fbagent.checks.self_check.extension_check` and store it in ``extended`` (a side checked later
    sees the sentences of those before it among the others)."""
    for key, base_key, value, match in sides:
        others = [base.get("sentence_a", ""), base.get("sentence_b", "")] + [
            v["sentence"] for k, v in extended.items() if k != key and v.get("sentence")
        ]
        check = checks.extension_check(
            value.sentence, base[base_key], key=key, lemma=state["verb"], lang=state["lang"],
            verb_form=value.verb_form, near_copy_threshold=opts.near_copy_threshold,
            others=[o for o in others if o != base[base_key]], verb_match=match,
        )
        extended[key] = {"sentence": value.sentence, "verb_form": value.verb_form, "check": check,
                         "attempts": int((extended.get(key) or {}).get("attempts", 0)) + 1}


async def verify(state: EntryState, runtime: Runtime[EntryContext]) -> EntryState:
    """SemBench round trip of all four sentences and/or the exemplar encoder check (``--verifier``;
    the optional four-choice judge too)."""
    ctx = runtime.context
    base, ext = state["base"] or {}, state.get("extended") or {}
    sentences = {
        "sentence_a": base.get("sentence_a", ""), "sentence_b": base.get("sentence_b", ""),
        "sentence_a_prime": (ext.get("sentence_a_prime") or {}).get("sentence", ""),
        "sentence_b_prime": (ext.get("sentence_b_prime") or {}).get("sentence", ""),
    }
    sc = state.get("self_check") or {}
    result = await verify_item(
        client=ctx.verifier, prompts=ctx.prompts, encoder=ctx.encoder, references=ctx.references,
        sentences=sentences, verb=state["verb"], frame_a=state["frame_a"], frame_b=state["frame_b"],
        question_four_choice=sc.get("question_four_choice") or base.get("question"), margin=ctx.options.verifier.margin,
        judge=ctx.options.verifier.judge, run_id=state["run_id"], item_id=state["item_id"], seed=ctx.options.seed,
        encoder_name=ctx.encoder_name, signal=ctx.options.verifier.signal, exemplars=ctx.exemplars,
        spans={**(sc.get("target_spans") or {}),
               **{k: ((ext.get(k) or {}).get("check") or {}).get("target_span")
                  for k in ("sentence_a_prime", "sentence_b_prime")}},
    )
    update: EntryState = {"verifier": result}
    if result.get("error"):
        update["error"] = f"verify: {result['error']}"
    # the entry's last step: its status and items row
    item = build_item(_merged(state, update), generator_model=getattr(ctx.generator, "model", None))
    update["status"], update["item"] = item["status"], item
    return update


def build_item(state: EntryState, generator_model: str | None = None) -> dict[str, Any]:
    """The ``items`` row of a finished entry state (see :mod:`fbagent.store.items`)."""
    base = state.get("base") or {}
    sc = state.get("self_check") or {}
    ext = state.get("extended") or {}
    reasons: list[str] = []
    if error := state.get("error"):
        status = "failed"
        reasons.append(error)
    elif not sc.get("passed"):
        status = "rejected"
        reasons.extend(f"self-check (attempt {state.get('attempts', 1)}): {r}" for r in sc.get("reasons", []))
    else:
        for key in ("sentence_a_prime", "sentence_b_prime"):
            reasons.extend(f"extension check: {r}" for r in ((ext.get(key) or {}).get("check") or {}).get("reasons", []))
        reasons.extend(verifier_reasons(state.get("verifier") or {}))
        status = "flagged" if reasons else "verified"
    spans = dict(sc.get("target_spans") or {})
    forms = dict(sc.get("verb_forms") or {})
    for key in ("sentence_a_prime", "sentence_b_prime"):
        check = (ext.get(key) or {}).get("check") or {}
        spans[key] = check.get("target_span")
        forms[key] = check.get("verb_form") or (ext.get(key) or {}).get("verb_form")
    checks_json = {
        "self_check": sc.get("checks"),
        "self_check_attempts": state.get("check_history") or [],
        "extension": {k: {"checks": (v.get("check") or {}).get("checks"),
                          "reasons": (v.get("check") or {}).get("reasons"),
                          "similarity_to_base": (v.get("check") or {}).get("similarity_to_base"),
                          "attempts": v.get("attempts")} for k, v in ext.items()},
        "extend_attempts": state.get("extend_attempts", 0),
    }

    stamp = utc_now()
    return {
        "id": state["item_id"], "run_id": state["run_id"], "pair_id": state["pair_id"], "k": state["k"],
        "language": state["lang"], "lexicon": state["lexicon"], "verb": state["verb"],
        "lu_a": state["lu_a"], "lu_b": state["lu_b"], "frame_a": state["frame_a"], "frame_b": state["frame_b"],
        "question": base.get("question"), "question_four_choice": sc.get("question_four_choice"),
        "condition": sc.get("condition") or base.get("condition"),
        "sentence_a": base.get("sentence_a"), "sentence_b": base.get("sentence_b"),
        "sentence_a_prime": (ext.get("sentence_a_prime") or {}).get("sentence"),
        "sentence_b_prime": (ext.get("sentence_b_prime") or {}).get("sentence"),
        "verb_form_a": forms.get("sentence_a") or base.get("verb_form_a"),
        "verb_form_b": forms.get("sentence_b") or base.get("verb_form_b"),
        "verb_form_a_prime": forms.get("sentence_a_prime"), "verb_form_b_prime": forms.get("sentence_b_prime"),
        "target_spans": spans, "lexical_similarity": sc.get("lexical_similarity"),
        "checks": checks_json, "verifier": state.get("verifier"), "status": status, "reasons": reasons,
        "attempts": int(state.get("attempts", 1)), "generator_model": generator_model,
        "verb_check": state.get("verb_check"),
        "created_at": stamp, "updated_at": stamp,
    }


# --------------------------------------------------------------------------- routing
# ``generate`` picks its next step with these functions of the state after each step.


def after_self_check(state: EntryState, max_retries: int) -> AfterSelfCheck:
    """Passed -> extend; failed with retries left (attempts <= R = ``max_retries``) -> generate_base; else ->
    finalize (rejected)."""
    if (state.get("self_check") or {}).get("passed"):
        return "extend"
    if int(state.get("attempts", 0)) <= max_retries:
        return "generate_base"
    return "finalize"


def after_extend(state: EntryState, max_retries: int) -> AfterExtend:
    """LLM failure -> finalize; a side failing its checks with retries left (R = ``max_retries``) -> extend;
    else -> verify."""
    if state.get("error"):
        return "finalize"
    ext = state.get("extended") or {}
    all_ok = all(((ext.get(k) or {}).get("check") or {}).get("passed") for k in ("sentence_a_prime", "sentence_b_prime"))
    if not all_ok and int(state.get("extend_attempts", 0)) <= max_retries:
        return "extend"
    return "verify"


def build_entry_graph() -> StateGraph[EntryState, EntryContext, EntryState, EntryState]:
    """The (uncompiled) entry :class:`~langgraph.graph.StateGraph`; compile it with a checkpointer. Imports
    LangGraph (about 0.5 s the first time)."""
    from langgraph.graph import END, START, StateGraph

    graph = StateGraph(EntryState, context_schema=EntryContext)
    # generate's destinations, declared (its ``Command[...]`` annotation names LangGraph's types, which this
    # module imports only for the type checker, so LangGraph cannot read them)
    graph.add_node("generate", generate, destinations=get_args(AfterGenerate))
    graph.add_node("verify", verify)
    graph.add_edge(START, "generate")
    graph.add_edge("verify", END)
    return graph


def compile_entry_graph(checkpointer: BaseCheckpointSaver | None = None) -> EntryGraph:
    """Compile the entry graph with ``checkpointer`` (e.g. ``AsyncSqliteSaver``; None: no checkpoints)."""
    return build_entry_graph().compile(checkpointer=checkpointer)


__all__ = ["EntryState", "EntryOptions", "EntryContext", "build_entry_graph", "compile_entry_graph",
           "build_item", "SENTENCE_KEYS", "OLD_NODES"]
