"""``fbagent export --format lm-eval DIR``: an lm-evaluation-harness task folder that asks the
problems of ``fbagent eval run`` and scores them as fbagent's transformers backend does.

Layout::

    DIR/framebench_<lang>_<template>.yaml   one task per language and template (output_type multiple_choice)
    DIR/_framebench_<lang>.yaml             group framebench_<lang>: the templates, accuracy mean over them
    DIR/utils.py                            custom_dataset and process_results (lm_eval_task_utils.py)
    DIR/data/framebench_<lang>.jsonl        one row per problem: option order, gold, prompt per template
    DIR/README.md                           how to run it
    DIR/fbagent-export.json                 what was exported, how

Problems and prompts come from :func:`fbagent.eval.framebench.plan_run` on the entries ``fbagent
export`` writes (the same code path as ``fbagent eval run --dataset``), so the seeded option orders
and every prompt string are identical. The choices are the four option numbers, each scored under
both spellings ("1" and " 1", target delimiter ""), and utils.process_results sums their
probabilities per number (see ``lm_eval_task_utils``): the transformers backend's rule.
``lm_eval --include_path DIR --tasks framebench_<lang>`` runs it unchanged.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.eval.framebench import Plan, RunSettings, plan_run
from fbagent.eval.problems import Problem
from fbagent.eval.templates import EvalTemplate
from fbagent.publish.folder import check_target, staged_folder, write_marker, write_text
from fbagent.publish.jsonl import export_records, require_kept, write_jsonl
from fbagent.publish.options import LmEvalOptions, Scope

FORMAT_VERSION = "1"
UTILS_SOURCE = Path(__file__).with_name("lm_eval_task_utils.py")
METRICS = ("acc", "both", "neither", "opposite")


def slug(name: str) -> str:
    """A task-name part: lower case, ``[a-z0-9_]`` only."""
    return re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_") or "t"


def task_name(lang: str, template: str) -> str:
    return f"framebench_{slug(lang)}_{slug(template)}"


def group_name(lang: str) -> str:
    return f"framebench_{slug(lang)}"


def prompt_column(template: str) -> str:
    return f"prompt_{slug(template)}"


def problem_row(problem: Problem, prompts: dict[str, str]) -> dict[str, Any]:
    """One data row: the problem (:class:`fbagent.eval.problems.Problem`) and its prompt per template."""
    return {
        "problem_id": problem.problem_id, "entry_id": problem.entry_id, "language": problem.language,
        "kind": problem.kind, "order": problem.order, "lu": problem.lu, "verb": problem.verb,
        "question": problem.question, "sentence_1": problem.first, "sentence_2": problem.second,
        "roles": list(problem.roles), "correct_position": problem.correct_position,
        "options": [problem.mapping[n] for n in sorted(problem.mapping, key=int)],
        "gold_label": problem.gold, "gold_choice": problem.gold_choice,
        **{prompt_column(name): text for name, text in prompts.items()},
    }


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def task_yaml(lang: str, template: EvalTemplate, seed: int) -> str:
    """The YAML of one task (``template``: :class:`fbagent.eval.templates.EvalTemplate`)."""
    choices = ", ".join(_q(c) for n in ("1", "2", "3", "4") for c in (n, " " + n))
    metrics = "".join(f"  - metric: {m}\n    aggregation: mean\n    higher_is_better: {'true' if m == 'acc' else 'false'}\n"
                      for m in METRICS)
    return (
        "# Written by `fbagent export --format lm-eval`; export again rather than editing.\n"
        f"task: {task_name(lang, template.name)}\n"
        f"task_alias: {_q(template.name)}\n"
        "tag:\n  - framebench\n"
        "dataset_path: json  # not downloaded: custom_dataset reads data/ next to this file\n"
        "custom_dataset: !function utils.load_problems\n"
        f"dataset_kwargs:\n  language: {_q(lang)}\n"
        "test_split: test\n"
        "output_type: multiple_choice\n"
        f"doc_to_text: {prompt_column(template.name)}\n"
        "# the four option numbers, each under both spellings; utils.process_results sums the two\n"
        f"doc_to_choice: [{choices}]\n"
        "doc_to_target: gold_choice\n"
        "target_delimiter: \"\"\n"
        "num_fewshot: 0\n"
        "process_results: !function utils.process_results\n"
        f"metric_list:\n{metrics}"
        "metadata:\n  version: 1.0\n"
        f"  fbagent_template: {_q(template.version)}\n  fbagent_template_lang: {_q(template.lang)}\n"
        f"  seed: {seed}\n"
    )


def group_yaml(lang: str, templates: list) -> str:
    """The group of one language: its template tasks, each metric's unweighted mean over them."""
    tasks = "".join(f"  - {task_name(lang, t.name)}\n" for t in templates)
    aggs = "".join(f"  - metric: {m}\n    aggregation: mean\n    weight_by_size: false\n" for m in METRICS)
    return ("# Written by `fbagent export --format lm-eval`: the FrameBench score is the mean over templates.\n"
            f"group: {group_name(lang)}\ntask:\n{tasks}aggregate_metric_list:\n{aggs}metadata:\n  version: 1.0\n")


#: the model id the commands show (a small public causal LM; any Hub model id works)
EXAMPLE_MODEL = "EleutherAI/pythia-160m"


def lm_eval_command(lang: str, include_path: str) -> str:
    """``lm_eval --model hf --model_args pretrained=<EXAMPLE_MODEL> --include_path PATH --tasks framebench_<lang>``."""
    return (f"lm_eval --model hf --model_args pretrained={EXAMPLE_MODEL} --include_path {include_path} "
            f"--tasks {group_name(lang)}")


def readme(languages: list[str], n_problems: dict[str, int], templates: dict[str, list], seed: int) -> str:
    rows = "\n".join(f"| `{group_name(lang)}` | {n_problems[lang]} | "
                     + ", ".join(f"`{task_name(lang, t.name)}`" for t in templates[lang]) + " |" for lang in languages)
    lang = languages[0]
    return (
        "# FrameBench tasks for lm-evaluation-harness\n\n"
        "Written by `fbagent export --format lm-eval`. Every task asks the problems of `fbagent eval run` "
        f"(seed {seed}: the same option orders and the same prompt text) and picks, like fbagent's transformers "
        "backend, the option number whose two spellings (\"1\" and \" 1\") carry the most probability after the "
        "prompt; `acc` is the share of problems answered with the frame-A sentence only, `both`, `neither` and "
        "`opposite` the error split of FrameBench section 4.\n\n"
        "| group | problems | tasks (one per template) |\n|---|---|---|\n" + rows + "\n\n"
        "Run from this folder, with any Hugging Face causal language model in place of the example id:\n\n"
        "```bash\n"
        f"{lm_eval_command(lang, '.')}\n"
        "```\n\n"
        "The group score is the unweighted mean over the templates. fbagent wraps the prompt in a model's chat "
        "template when its tokenizer has one; lm_eval does not unless asked: compare a chat model with "
        "`fbagent eval run --no-chat` (or pass `--apply_chat_template` to lm_eval). The rule reproduces fbagent exactly "
        "when each of \"1\"..\"4\" and \" 1\"..\" 4\" is one token of the model's tokenizer (byte-level BPE "
        "tokenizers such as GPT-2's, Llama 3's and Qwen's).\n"
    )


def export_lmeval(db: sqlite_utils.Database, out: Path, scope: Scope | None = None,
                  options: LmEvalOptions | None = None) -> dict[str, Any]:
    """Write the lm-eval task folder ``out``; returns ``{"entries", "problems": {lang: n}, "tasks", "groups"}``.

    Raises :class:`FbagentError` for what :func:`fbagent.publish.jsonl.export_records` or
    :func:`fbagent.eval.framebench.plan_run` refuse (unknown run, no entries, unknown templates or
    orders, a bad templates folder or labels file) and for an output folder that cannot be replaced;
    nothing is written then.
    """
    scope, options = scope or Scope(), options or LmEvalOptions()
    check_target(out)
    records = export_records(db, fmt="fbagent", **scope.export_options())
    require_kept(db, records, scope.export_options())
    plan = plan_tasks(records, options)
    with staged_folder(out) as tmp:
        return write_tasks(tmp, plan, scope, options)


def plan_tasks(records: list[dict[str, Any]], options: LmEvalOptions) -> Plan:
    """The :class:`fbagent.eval.framebench.Plan` of ``records`` (fbagent-format export records), built
    as ``fbagent eval run --dataset`` builds it (same seed, templates, orders, labels)."""
    work = Path(tempfile.mkdtemp(prefix="fbagent-lmeval-"))
    try:
        entries_file = work / "entries.jsonl"
        write_jsonl(records, entries_file)
        return plan_run(RunSettings(dataset=entries_file, templates=options.templates, seed=options.seed,
                                    templates_dir=options.templates_dir, choices_style=options.choices_style,
                                    templates_lang=options.templates_lang, orders=options.orders,
                                    labels_file=options.labels_file, human_filter=False))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_tasks(folder: Path, plan: Plan, scope: Scope, options: LmEvalOptions) -> dict[str, Any]:
    """Write the task folder of ``plan`` (:func:`plan_tasks`) into the existing ``folder``; returns the
    summary of :func:`export_lmeval`. The Hugging Face export writes one into its ``lm_eval/`` folder."""
    languages = plan.languages
    templates = {lang: list(plan.template_sets[lang].templates) for lang in languages}
    n_problems: dict[str, int] = {}
    tasks, groups = [], []
    for lang in languages:
        probs = [p for p in plan.problems if p.language == lang]
        n_problems[lang] = len(probs)
        lines = [json.dumps(problem_row(p, {t.name: t.render(p, lu=p.lu) for t in templates[lang]}),
                            ensure_ascii=False) + "\n" for p in probs]
        write_text(folder, f"data/framebench_{slug(lang)}.jsonl", "".join(lines))
        for t in templates[lang]:
            write_text(folder, f"{task_name(lang, t.name)}.yaml", task_yaml(lang, t, options.seed))
            tasks.append(task_name(lang, t.name))
        write_text(folder, f"_{group_name(lang)}.yaml", group_yaml(lang, templates[lang]))
        groups.append(group_name(lang))
    write_text(folder, "utils.py", UTILS_SOURCE.read_text(encoding="utf-8"))
    write_text(folder, "README.md", readme(languages, n_problems, templates, options.seed))
    write_marker(folder, {
        "format": f"fbagent-lm-eval/{FORMAT_VERSION}", "entries": len(plan.entries), "problems": n_problems,
        "seed": options.seed, "orders": options.orders, "groups": groups, "tasks": tasks,
        "template_sets": {lang: plan.template_sets[lang].describe() for lang in languages},
        "scope": {"run": scope.run, "validated": scope.validated, "min_correct": scope.min_correct,
                  "min_acceptable": scope.min_acceptable, "statuses": list(scope.statuses)},
    })
    return {"entries": len(plan.entries), "problems": n_problems, "tasks": tasks, "groups": groups}
