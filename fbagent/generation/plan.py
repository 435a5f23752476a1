"""The dry-run plan of a run (``fbagent generate --dry-run``): entries, expected LLM calls and tokens.

Nothing is called and nothing is stored. Input tokens are estimated from the real
prompt texts (``ceil(chars / 4)``, :func:`estimate_tokens`) with placeholder
sentences where a prompt quotes model output; output tokens per call are the
constants of :data:`OUTPUT_TOKEN_ESTIMATE`. Both assume no retries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlite_utils

from fbagent import providers
from fbagent.checks.llm_verb_check import verb_use_messages
from fbagent.errors import FbagentError
from fbagent.generation.options import GenerateOptions, default_run_name
from fbagent.generation.selection import choose_selection, screening_done, screens
from fbagent.generation.workers import FrameInfoCache, entry_list, pending
from fbagent.pairs.screening import load_run_pairs
from fbagent.pairs.select import draw_selection
from fbagent.providers.prices import estimate_tokens, load_prices
from fbagent.store import items as items_store
from fbagent.store.rows import LexiconRow, RunRow

if TYPE_CHECKING:
    from fbagent.prompting.messages import Prompts

OUTPUT_TOKEN_ESTIMATE = {"generate_base": 120, "extend": 40, "define": 30, "judge": 4, "screen": 50, "verb_check": 20}
SENTENCE = "x" * 60      # stands for a generated sentence inside a prompt
CONDITION = "x" * 40     # stands for the question's condition


def prompt_tokens(messages: list[dict[str, str]]) -> int:
    """:func:`estimate_tokens` of every message of a request."""
    return sum(estimate_tokens(m["content"]) for m in messages)


async def build_plan(db: sqlite_utils.Database, lexicon: LexiconRow, prompts: Prompts, run: RunRow | None,
                     opts: GenerateOptions) -> dict[str, Any]:
    """Entries, expected LLM calls and tokens of a run, without calling or storing anything.

    ``run``: the existing ``runs`` row, or ``None`` for a new run (its selection is then the one
    the run would use: a reusable stored one, or a sample drawn now and not stored).
    Returns ``{"run", "run_exists", "lexicon", "language", "selection", "pairs", "entries",
    "entries_todo", "entries_finished", "screen_calls", "verb_check_calls", "calls_min", "calls_max",
    "input_tokens", "output_tokens", "generator", "model", "verifier"}``; ``calls_*`` count
    requests (no retries .. every retry), ``--verb-check llm``'s calls included (``verb_check_calls``: those
    of the run without retries); tokens assume no retries.
    """
    if run is not None and (selection_id := run["selection_id"]) is not None:
        pairs = load_run_pairs(db, selection_id)
        to_screen = pairs if screens(opts) and not screening_done(run) else []
        finished = items_store.finished_ids(db, run["id"])
        selection = f"{run['selection_id']} (the run's)"
    else:
        choice = choose_selection(db, lexicon, opts.selection)
        if choice.selection_id is not None:
            pairs = load_run_pairs(db, choice.selection_id)
            selection = f"{choice.selection_id} (stored, reused)"
        else:
            drawn = draw_selection(db, lexicon, opts.selection)
            pairs = [{"id": None, "rank": i, "per_pair": opts.selection.per_pair, **p} for i, p in enumerate(drawn.selected)]
            selection = "new"
        to_screen = pairs if screens(opts) else []
        finished = set()
    frame_infos = FrameInfoCache(db, lexicon["id"])
    entries = entry_list(pairs, opts.selection.per_pair)
    todo = pending(entries, run["name"] if run is not None else None, finished)
    defines = 0 if opts.verifier.signal == "encoder" else 4   # the encoder check calls no LLM
    verb_min, verb_max = verb_check_calls(opts)
    per_entry_min = 1 + 2 + defines + (4 if opts.verifier.judge else 0) + verb_min
    per_entry_max = (opts.run.max_retries + 1) * 3 + defines + (4 if opts.verifier.judge else 0) + verb_max
    gen = [0, 0]      # generator: base pair and extension (retried by self-check), tokens in and out
    ver = [0, 0]      # verifier: definitions, judge, the LLM verb check
    screen = [0, 0]   # screening (generator, not retried)
    for pair, _k in todo:
        fa, fb = frame_infos.get(pair["frame_a"], pair["verb"]), frame_infos.get(pair["frame_b"], pair["verb"])
        gen[0] += prompt_tokens(prompts.base_messages(pair["verb"], fa, fb))
        gen[0] += 2 * prompt_tokens(prompts.extend_messages(pair["verb"], fa, SENTENCE, SENTENCE, CONDITION, True))
        ver[0] += defines * prompt_tokens(prompts.define_messages(pair["verb"], SENTENCE))
        gen[1] += OUTPUT_TOKEN_ESTIMATE["generate_base"] + 2 * OUTPUT_TOKEN_ESTIMATE["extend"]
        ver[1] += defines * OUTPUT_TOKEN_ESTIMATE["define"]
        if opts.verifier.judge:
            ver[0] += 4 * prompt_tokens(prompts.judge_messages(SENTENCE, SENTENCE, SENTENCE))
            ver[1] += 4 * OUTPUT_TOKEN_ESTIMATE["judge"]
        if verb_min:
            ver[0] += verb_min * prompt_tokens(verb_use_messages(SENTENCE, pair["verb"], lexicon["lang"]))
            ver[1] += verb_min * OUTPUT_TOKEN_ESTIMATE["verb_check"]
    for pair in to_screen:  # the screening prompt as screen_node sends it: both frames' definitions
        fa, fb = frame_infos.get(pair["frame_a"], pair["verb"]), frame_infos.get(pair["frame_b"], pair["verb"])
        screen[0] += prompt_tokens(prompts.screen_messages(pair["verb"], pair["frame_a"], fa["definition"],
                                                           pair["frame_b"], fb["definition"]))
        screen[1] += OUTPUT_TOKEN_ESTIMATE["screen"]
    tokens_in, tokens_out = gen[0] + ver[0] + screen[0], gen[1] + ver[1] + screen[1]
    screen_calls = len(to_screen)
    return {
        "run": run["name"] if run is not None else default_run_name(lexicon["name"], opts),
        "run_exists": run is not None, "lexicon": lexicon["name"], "language": lexicon["lang"],
        "selection": selection, "pairs": len(pairs), "entries": len(entries), "entries_todo": len(todo),
        "entries_finished": len(entries) - len(todo), "screen_calls": screen_calls,
        "verb_check_calls": verb_min * len(todo),
        "calls_min": per_entry_min * len(todo) + screen_calls, "calls_max": per_entry_max * len(todo) + screen_calls,
        "input_tokens": tokens_in, "output_tokens": tokens_out, "generator": opts.models.generator.backend, "model": opts.models.generator.model,
        "verifier": opts.models.verifier.backend or opts.models.generator.backend,
        **plan_cost(opts, gen, ver, screen),
    }


def plan_cost(opts: GenerateOptions, gen: list[int], ver: list[int], screen: list[int]) -> dict[str, Any]:
    """Dollars of a plan's tokens (``[in, out]`` of the generator's entry calls, the verifier's calls and
    screening) at the price table (:func:`fbagent.providers.prices.load_prices`; ``FBAGENT_PRICES``):
    ``cost_usd`` (no retries), ``cost_usd_retries`` (every self-check retry: the generator's entry tokens x
    ``--max-retries + 1``), ``cost_usd_batch`` (what ``--batch`` costs: every call at batch prices, the screening's too:
    ``--batch`` sends it as the run's first wave), ``None`` when a model has no price
    (``price_missing`` names it), ``batch`` (whether this run uses ``--batch``), the table's ``prices_date`` and
    ``tokens_by_role`` (``[in, out]`` each)."""
    table = load_prices()
    roles = {"tokens_by_role": {"generator": list(gen), "verifier": list(ver), "screening": list(screen)},
             "batch": opts.run.batch}
    g, v = opts.models.config("generator"), opts.models.config("verifier")
    gp, vp = table.lookup(g.backend, g.model), table.lookup(v.backend, v.model)
    missing = [f"{c.backend}:{c.model}" for c, p in ((g, gp), (v, vp)) if p is None]
    if gp is None or vp is None:
        return {"cost_usd": None, "cost_usd_retries": None, "cost_usd_batch": None, "prices_date": table.date,
                "price_missing": list(dict.fromkeys(missing)), **roles}
    tries = opts.run.max_retries + 1

    def cost(batch: bool, gen_factor: int = 1) -> float:
        return (gp.cost(gen[0] * gen_factor, gen[1] * gen_factor, batch=batch) + gp.cost(*screen, batch=batch)
                + vp.cost(*ver, batch=batch))

    return {"cost_usd": cost(False), "cost_usd_retries": cost(False, tries), "cost_usd_batch": cost(True),
            "prices_date": table.date, "price_missing": [], **roles}


def verb_check_calls(opts: GenerateOptions) -> tuple[int, int]:
    """``(fewest, most)`` LLM calls of ``--verb-check llm`` per entry (``(0, 0)`` for any other verb check).

    The verifier's model is asked once per sentence (:func:`fbagent.checks.llm_verb_check.confirm_verb`):
    S_A and S_B after each base attempt, S_A' and S_B' after each extension attempt, so 4 calls when
    nothing is retried and ``4 * (max_retries + 1)`` when every attempt is used (a cached answer, the
    same sentence again, costs no call).
    """
    if opts.verifier.effective_verb_check != "llm":
        return 0, 0
    return 4, 4 * (opts.run.max_retries + 1)


def missing_key_warnings(opts: GenerateOptions) -> list[str]:
    """For ``--dry-run``: one line per backend of the run whose API key the real run would miss
    (the key variables of :mod:`fbagent.providers`); unknown backends are left to the real run."""
    used = [(config.backend, config.base_url) for config in (opts.models.config("generator"),
                                                              opts.models.config("verifier"))]
    warnings: list[str] = []
    for name, url in used:
        try:
            p = providers.provider(name, among=providers.GENERATION_PROVIDERS)
        except FbagentError:
            continue
        if providers.has_api_key(p) or (p.name == "openai" and providers.base_url(p, url)):
            continue
        what = f"{p.name} backend" + (" without --base-url" if p.name == "openai" else "")
        unset = "neither is set" if len(p.key_vars) > 1 else "it is not set"
        line = f"the real run needs {' or '.join(p.key_vars)} ({what}); {unset}"
        if line not in warnings:
            warnings.append(line)
    return warnings


def missing_package_warnings(opts: GenerateOptions) -> list[str]:
    """For ``--dry-run``: one line per backend of the run naming every Python package it needs that is not
    installed (the provider's ``packages``, found with :func:`importlib.util.find_spec`: nothing is
    imported), and the extra (or pip line) that installs them; unknown backends are left to the real run."""
    warnings: list[str] = []
    for config in (opts.models.config("generator"), opts.models.config("verifier")):
        try:
            p = providers.provider(config.backend, among=providers.GENERATION_PROVIDERS)
        except FbagentError:
            continue
        missing = [distribution for module, distribution in p.packages if not providers.installed(module)]
        if not missing:
            continue
        fix = f"pip install 'fbagent[{p.extra}]'" if p.extra else "pip install " + " ".join(missing)
        several = len(missing) > 1
        line = (f"the real run needs the Python package{'s' if several else ''} "
                f"{' and '.join(repr(d) for d in missing)} ({p.name} backend), which {'are' if several else 'is'} "
                f"not installed: {fix}")
        if line not in warnings:
            warnings.append(line)
    return warnings


