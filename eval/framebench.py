"""``fbagent eval run``: score a model on FrameBench entries (Yano and Sasano 2026, section 4, appendix B).

Every entry gives four problems (base and extended pair, each in both
sentence orders, see :mod:`fbagent.eval.problems`; ``orders="canonical"``
asks one order, as the authors' evaluator does by default), asked under each
selected template of the entry's own language (:mod:`fbagent.eval.templates`:
fbagent's templates or a folder in the authors' layout; ``templates_lang``
forces one set); the backend decodes one option number under constraint;
every prediction is stored with its mapping and raw output
(:mod:`fbagent.eval.runner`) and the run is summarised with
:func:`fbagent.eval.metrics.framebench_summary` under the run's
:class:`fbagent.eval.metrics.Scoring`.

With the authors' annotator columns in the dataset the human filter is on by
default: a pair is asked only when at least 2 annotators matched the gold
answer and at least 2 rated it acceptable (:func:`fbagent.eval.dataset.human_filter_keeps`);
the manifest and summary say how many problems were dropped.

Identity (what decides resume, :class:`fbagent.eval.runner.ResultWriter`):
dataset sha256, backend, model, seed, the template language(s), limit and
reasoning settings as before, plus, only when they are not at their defaults,
the templates folder (every file's hash), the choices style, the sentence
orders, free-text parsing and an active human filter: an older result folder
whose options are at their defaults resumes unchanged. Scoring conventions
(failures, std) are not part of the identity: they change the summary, not
the predictions, and are recorded in the manifest's ``scoring``.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.eval.batch import batch_choice_task
from fbagent.eval.choices import ALL_TEMPLATES, DEFAULT_ORDERS, ORDER_CHOICES
from fbagent.eval.dataset import (
    HUMAN_FILTER_MIN,
    Entry,
    dataset_human_filter,
    dataset_sha256,
    has_annotator_columns,
    human_accuracy,
    human_filter_keeps,
    read_entries,
)
from fbagent.eval.metrics import DEFAULT_SCORING, Scoring, framebench_summary
from fbagent.eval.problems import Problem, build_problems
from fbagent.eval.runner import ChoiceJob, base_versions, choice_fields
from fbagent.eval.task import EvalTask, choice_task, run_task
from fbagent.eval.templates import EvalTemplate, TemplateSet, load_template_set
from fbagent.limits import DEFAULT_N_BOOT
from fbagent.progress.events import OnEvent, callbacks, chain
from fbagent.providers.base import (
    DEFAULT_CHOICES,
    Backend,
    BackendInfo,
    ChoiceResult,
    ReasoningConfig,
    parse_free_text,
)
from fbagent.providers.prices import CostMeter, PriceTable, check_cap, estimate_tokens, load_prices
from fbagent.seeds import DEFAULT_SEED

HUMAN_FILTER_RULE = (f"a pair is kept when >= {HUMAN_FILTER_MIN} annotators matched the gold answer and "
                     f">= {HUMAN_FILTER_MIN} rated it acceptable (match_answer_annotator{{i}}_ab|_prime, "
                     "quality_annotator{i}_ab|_prime)")


@dataclass
class RunSettings:
    """Options of one ``eval run`` (recorded in the manifest).

    ``lang``: language of entries that carry none (the authors' columns never
    do; default ``en``). ``templates``: ``all`` or names; ``templates_dir``: a
    folder in the authors' layout (None: fbagent's templates); ``labels_file``: the
    four option labels from this file (None: the folder's ``labels.txt``, else ours);
    ``choices_style``: ``inline`` | ``lines`` | None (the source's default);
    ``templates_lang``: ask every entry with this language's templates;
    ``orders``: ``both`` | ``canonical``; ``parse_free_text``: read an option
    number from a free-text answer (:func:`fbagent.providers.base.parse_free_text`);
    ``human_filter``: True / False / None (on when the dataset has annotator
    columns); ``scoring``: failure and std conventions; ``label``: the name
    reports show for this run.
    """

    dataset: Path
    templates: str = ALL_TEMPLATES
    lang: str | None = None
    limit: int | None = None
    seed: int = DEFAULT_SEED
    concurrency: int | None = None
    batch_size: int | None = None
    n_boot: int = DEFAULT_N_BOOT
    templates_dir: Path | None = None
    labels_file: Path | None = None
    choices_style: str | None = None
    templates_lang: str | None = None
    orders: str = DEFAULT_ORDERS
    parse_free_text: bool = False
    human_filter: bool | None = None
    scoring: Scoring = field(default_factory=lambda: DEFAULT_SCORING)
    label: str | None = None
    #: ``--max-cost``: dollars this run may spend in all (earlier sessions included); ``prices``: the table
    max_cost: float | None = None
    prices: PriceTable | None = None
    #: ``--batch``: ask through the provider's batch API (:mod:`fbagent.eval.batch`; openai only)
    batch: bool = False


@dataclass
class Plan:
    """What a run will ask, checked before any model is loaded: entries, template sets per entry
    language, the problems kept, and the human filter's counts."""

    entries: list[Entry]
    template_sets: dict[str, TemplateSet]
    problems: list[Problem]
    human_filter: dict

    @property
    def languages(self) -> list[str]:
        return sorted(self.template_sets)


def plan_run(settings: RunSettings) -> Plan:
    """Read the dataset, resolve the template set of every entry language and build the problems.

    Raises :class:`FbagentError` for a bad dataset, unknown templates or
    orders, a templates folder without a set for a language, a bad template
    placeholder, a human filter asked for without annotator columns, or a
    filter that drops every problem. Loads no model.
    """
    if settings.orders not in ORDER_CHOICES:
        raise FbagentError(f"unknown sentence orders {settings.orders!r}", "use both or canonical")
    entries = read_entries(settings.dataset, default_lang=settings.lang or "en", limit=settings.limit)
    langs = sorted({e.language for e in entries})
    sets: dict[str, TemplateSet] = {}
    for lang in langs:
        want = settings.templates_lang or lang
        if settings.templates_lang and sets:  # one forced set serves every language
            sets[lang] = next(iter(sets.values()))
            continue
        sets[lang] = load_template_set(want, settings.templates, settings.templates_dir, settings.choices_style,
                                       settings.labels_file)
    problems = build_problems(entries, settings.seed, ORDER_CHOICES[settings.orders])
    with_columns = has_annotator_columns(entries)
    if settings.human_filter and not with_columns:
        raise FbagentError(f"the human filter was asked for, but no entry of {settings.dataset} has annotator "
                           "columns (match_answer_annotator{i}_ab ...)",
                           "pass --no-human-filter, or pass the authors' final dataset")
    applied = with_columns if settings.human_filter is None else bool(settings.human_filter)
    by_id = {e.id: e for e in entries}
    kept = [p for p in problems if not applied or human_filter_keeps(by_id[p.entry_id], p.kind)]
    kept_ids = {p.problem_id for p in kept}
    dropped = [p for p in problems if p.problem_id not in kept_ids]
    info = {"applied": applied, "available": with_columns, "rule": HUMAN_FILTER_RULE if applied else None,
            "n_problems_before": len(problems), "n_problems_dropped": len(dropped),
            "n_pairs_dropped": len({(p.entry_id, p.kind) for p in dropped}),
            "n_entries_dropped": len({p.entry_id for p in problems} - {p.entry_id for p in kept})}
    if not kept:
        raise FbagentError(f"the human filter drops all {len(problems)} problems of {settings.dataset} "
                           f"({HUMAN_FILTER_RULE}; on by default when the columns are present)",
                           "pass --no-human-filter to score every problem, or export only the entries the "
                           "annotators kept (fbagent export --validated --format framebench)")
    return Plan(entries=entries, template_sets=sets, problems=kept, human_filter=info)


def dataset_fingerprint(problems: list[Problem]) -> str:
    """16 hex digits identifying WHAT is asked: the problems' ids, questions, sentences and languages
    (not the option order, which depends on the seed). Equal for two runs on the same problems."""
    rows = sorted((p.problem_id, p.question, p.first, p.second, p.language) for p in problems)
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


def make_record(problem: Problem, template: EvalTemplate, prompt: str, r: ChoiceResult,
                parse_text: bool = False) -> dict:
    """The stored prediction for one (problem, template) answer.

    With ``parse_text``, a failed answer whose raw text holds one option number
    (:func:`parse_free_text`) becomes that choice, with ``parsed_from_text``
    True and the original error kept as ``parse_error``.
    """
    fields = choice_fields(r)
    parsed = False
    if parse_text and r.choice is None and r.raw:
        value = parse_free_text(r.raw, DEFAULT_CHOICES)
        if value is not None:
            fields.update(choice=value, error=None, parse_error=r.error)
            parsed = True
    choice = fields["choice"]
    label = problem.label_of(choice)
    outcome = problem.outcome(choice)
    return {
        "task": "framebench",
        "key": f"{template.name}|{problem.problem_id}",
        "problem_id": problem.problem_id, "entry_id": problem.entry_id,
        "kind": problem.kind, "order": problem.order, "roles": list(problem.roles),
        "correct_position": problem.correct_position, "language": problem.language,
        "frame_pair": problem.frame_pair, "template": template.name, "template_version": template.version, "template_lang": template.lang,
        "mapping": problem.mapping, "gold_label": problem.gold, "gold_choice": problem.gold_choice,
        "label": label, "outcome": outcome, "correct": None if outcome is None else outcome == "correct",
        "parsed_from_text": parsed,
        **fields,
        "prompt": prompt,
    }


def build_jobs(problems: list[Problem], template_sets: dict[str, TemplateSet],
               parse_text: bool = False) -> list[ChoiceJob]:
    """One job per (template, problem): each problem under its language's set, grouped by template."""
    by_lang: dict[str, list[Problem]] = {}
    for p in problems:
        by_lang.setdefault(p.language, []).append(p)
    names = list(dict.fromkeys(t.name for s in template_sets.values() for t in s.templates))
    jobs = []
    for name in names:
        for lang, probs in by_lang.items():
            tset = template_sets[lang]
            t = next((t for t in tset.templates if t.name == name), None)
            if t is None:
                continue
            for p in probs:
                prompt = t.render(p, lu=p.lu)
                jobs.append(ChoiceJob(
                    key=f"{t.name}|{p.problem_id}", group=f"{tset.source}:{t.lang}:{t.name}", prompt=prompt,
                    choices=DEFAULT_CHOICES,
                    make_record=functools.partial(make_record, p, t, prompt, parse_text=parse_text),
                ))
    return jobs


def _lang_key(plan: Plan, settings: RunSettings) -> str:
    """The identity's ``lang``: the forced template language, the one entry language, or ``en,ja``."""
    if settings.templates_lang:
        return settings.templates_lang
    return plan.languages[0] if len(plan.languages) == 1 else ",".join(plan.languages)


def identity(plan: Plan, settings: RunSettings, info: BackendInfo, reasoning: ReasoningConfig) -> dict:
    """The manifest identity (see the module docstring: new keys only off their defaults)."""
    ident = {
        "task": "framebench", "dataset_sha256": dataset_sha256(settings.dataset), "backend": info.name,
        "model": info.model, "seed": settings.seed, "lang": _lang_key(plan, settings), "limit": settings.limit,
        "reasoning": asdict(reasoning),
    }
    first = next(iter(plan.template_sets.values()))
    if settings.templates_dir is not None:
        ident["templates"] = {lang: s.describe()["templates"] for lang, s in plan.template_sets.items()}
    if settings.templates_dir is not None or settings.labels_file is not None:
        ident["labels"] = {lang: s.labels for lang, s in plan.template_sets.items()}
    if first.choices_style != ("lines" if first.source == "fbagent" else "inline"):
        ident["choices_style"] = first.choices_style
    if settings.orders != DEFAULT_ORDERS:
        ident["orders"] = settings.orders
    if settings.parse_free_text:
        ident["parse_free_text"] = True
    if plan.human_filter["applied"] and plan.human_filter["n_problems_dropped"]:
        ident["human_filter"] = True
    return ident


def framebench_manifest(plan: Plan, settings: RunSettings, info: BackendInfo, reasoning: ReasoningConfig,
                        command: list[str] | None, n_jobs: int) -> dict:
    """What a FrameBench run records in ``manifest.json`` (its ``identity``: :func:`identity`)."""
    first = next(iter(plan.template_sets.values()))
    return {
        "task": "framebench",
        "identity": identity(plan, settings, info, reasoning),
        "command": command,
        "label": settings.label,
        "dataset": {"path": str(settings.dataset), "n_entries": len(plan.entries),
                    "formats": sorted({e.source_format for e in plan.entries}),
                    "languages": dict(sorted(Counter(e.language for e in plan.entries).items())),
                    "fingerprint": dataset_fingerprint(plan.problems)},
        "backend": info.name, "model": info.model, "backend_options": info.options,
        "versions": {**base_versions(), **info.versions},
        "seed": settings.seed, "lang": _lang_key(plan, settings), "template_lang": first.folder,
        "templates": {t.name: t.version for t in first.templates},
        "labels": first.labels,
        "template_sets": {lang: s.describe() for lang, s in plan.template_sets.items()},
        "templates_dir": str(settings.templates_dir) if settings.templates_dir else None,
        **({"labels_file": str(settings.labels_file)} if settings.labels_file else {}),
        "choices_style": first.choices_style, "orders": settings.orders,
        "parse_free_text": settings.parse_free_text,
        "human_filter": plan.human_filter,
        "scoring": settings.scoring.as_dict(),
        "reasoning": asdict(reasoning),
        "limit": settings.limit, "concurrency": settings.concurrency, "batch_size": settings.batch_size,
        "n_problems": len(plan.problems), "n_jobs": n_jobs,
        "human_accuracy_dataset": human_accuracy(plan.entries),
        "human_filter_dataset": dataset_human_filter(plan.entries),
    }


def framebench_task(backend: Backend, settings: RunSettings, *, reasoning: ReasoningConfig,
                    command: list[str] | None = None, plan: Plan | None = None) -> EvalTask:
    """The FrameBench run of ``settings`` as an :class:`~fbagent.eval.task.EvalTask`: one constrained job per
    (template, problem), scored with :func:`fbagent.eval.metrics.framebench_summary` under ``settings.scoring``
    (plus the human filter's counts). ``plan``: from :func:`plan_run` (made here when None)."""
    plan = plan or plan_run(settings)
    jobs = build_jobs(plan.problems, plan.template_sets, settings.parse_free_text)
    manifest = framebench_manifest(plan, settings, backend.info(), reasoning, command, len(jobs))

    def score(preds: list[dict]) -> dict:
        summary = framebench_summary(preds, n_boot=settings.n_boot, seed=settings.seed, scoring=settings.scoring,
                                     default_lang=settings.lang or "en")
        summary["human_filter"] = plan.human_filter
        return summary

    if settings.batch:
        return batch_choice_task("framebench", manifest, jobs, score)
    return choice_task("framebench", manifest, jobs, score, batch_size=settings.batch_size,
                       concurrency=settings.concurrency)


def run_framebench(backend: Backend, settings: RunSettings, out_dir: Path, *,
                   reasoning: ReasoningConfig, command: list[str] | None = None, plan: Plan | None = None,
                   on_event: OnEvent | None = None, on_start: Callable[[int, int], None] | None = None,
                   on_progress: Callable[[int], None] | None = None) -> tuple[dict | None, dict]:
    """Run (or resume) a FrameBench evaluation into ``out_dir``; returns ``(summary, manifest)``.

    ``plan``: from :func:`plan_run` (made here when None). ``on_event``: the progress events of
    :func:`fbagent.eval.task.run_task`; ``on_start(total, done)`` (the number of answers of the run and how
    many are already stored: a resumed run starts there) and ``on_progress(n)`` are the same as two
    callbacks. Raises :class:`fbagent.errors.FbagentError` for a bad dataset, templates or options (see
    :func:`plan_run`), or an ``out_dir`` that holds another run. ``summary`` is None when interrupted.
    """
    task = framebench_task(backend, settings, reasoning=reasoning, command=command, plan=plan)
    meter = cost_meter(backend, settings.max_cost, settings.prices)
    return run_task(backend, task, out_dir, on_event=chain(on_event, callbacks(on_start, on_progress)), meter=meter)


def cost_meter(backend: Backend, max_cost: float | None, prices: PriceTable | None) -> CostMeter | None:
    """The :class:`~fbagent.providers.prices.CostMeter` of ``--max-cost`` for ``backend``'s model (``None``
    without a cap). Raises :class:`FbagentError` when the price table has no price for the model."""
    if max_cost is None:
        return None
    price = (prices or load_prices()).lookup(backend.name, backend.model)
    check_cap(max_cost, price, f"{backend.name}:{backend.model}")
    assert price is not None   # check_cap raised otherwise
    return CostMeter(price, max_cost)


#: output tokens of one constrained answer (``{"answer": "1"}`` and the end of the message), for estimates
ANSWER_OUTPUT_TOKENS = 8


def request_estimate(plan: Plan, settings: RunSettings, done: set[str], reasoning: ReasoningConfig) -> tuple[int, int, int]:
    """``(requests, input tokens, output tokens)`` still to ask in a run of ``plan``: one request per job
    whose key is not in ``done``; input tokens :func:`~fbagent.providers.prices.estimate_tokens` of its
    prompt, output :data:`ANSWER_OUTPUT_TOKENS` (plus the thinking budget in reasoning mode: an upper
    bound). No retries."""
    jobs = [j for j in build_jobs(plan.problems, plan.template_sets, settings.parse_free_text) if j.key not in done]
    per_answer = ANSWER_OUTPUT_TOKENS + (reasoning.max_think_tokens if reasoning.enabled else 0)
    return len(jobs), sum(estimate_tokens(j.prompt) for j in jobs), per_answer * len(jobs)
