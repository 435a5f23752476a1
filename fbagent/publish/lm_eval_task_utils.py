"""Helpers of a FrameBench task folder for lm-evaluation-harness, written by
``fbagent export --format lm-eval`` (copied there as ``utils.py``; it needs only ``datasets``).

- :func:`load_problems`: the ``custom_dataset`` of every task: ``data/framebench_<language>.jsonl``
  next to this file, one row per problem (four per entry: base and extended pair, both sentence
  orders), with the option order of each problem and its prompt under every template, exactly as
  ``fbagent eval run`` builds them (same seed, same text).
- :func:`process_results`: fbagent's transformers backend picks the option NUMBER whose tokens carry
  the most probability after the prompt, summing over the spellings "n" and " n". The tasks
  therefore score eight continuations (:data:`CONTINUATIONS`, target delimiter ""), and this
  function sums the probabilities of the two spellings of each option number and takes the largest
  (ties: the smaller number). Outcome rates: ``acc`` (the frame-A sentence only), ``both``,
  ``neither``, ``opposite`` (the frame-B sentence only), as in FrameBench section 4.
"""

import json
import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datasets


class _QuietCustomDataset(logging.Filter):
    """Drop lm_eval's "Custom kwargs can be passed to `--metadata`" warning, printed once per task that
    loads its data with ``custom_dataset``: these tasks take no kwargs (the language is fixed per task)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Custom kwargs can be passed to `--metadata`" not in record.getMessage()


logging.getLogger("lm_eval.api.task").addFilter(_QuietCustomDataset())


def _quiet_git_hash() -> str | None:
    """lm_eval's ``get_git_commit_hash`` without git's ``fatal: not a git repository`` on stderr when
    lm_eval runs outside a git checkout (the same value: the hash, or the one read from ``.git``, or None)."""
    import os
    import subprocess

    from lm_eval.loggers.utils import get_commit_from_path

    try:
        return subprocess.check_output(["git", "describe", "--always"], stderr=subprocess.DEVNULL).strip().decode()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return get_commit_from_path(os.getcwd())


try:  # this file is imported by lm_eval itself, when it reads the task YAML files
    import lm_eval.evaluator as _evaluator

    if hasattr(_evaluator, "get_git_commit_hash"):
        _evaluator.get_git_commit_hash = _quiet_git_hash
except ImportError:
    pass

HERE = Path(__file__).resolve().parent
OPTIONS = ("1", "2", "3", "4")
#: the continuations every task scores, in this order (the YAML files' doc_to_choice)
CONTINUATIONS = [s for n in OPTIONS for s in (n, " " + n)]


def load_problems(language: str, **kwargs: object) -> "datasets.DatasetDict":
    """``datasets.DatasetDict`` with a ``test`` split: the problems of ``language`` (other keyword
    arguments, lm-eval's task metadata, are ignored)."""
    import datasets

    path = HERE / "data" / f"framebench_{language}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def choose(loglikelihoods: Sequence[float]) -> str:
    """The option number ("1".."4") with the largest summed probability over its two spellings.

    ``loglikelihoods``: one per continuation of :data:`CONTINUATIONS`, in that order.
    """
    best, best_score = OPTIONS[0], -math.inf
    for i, n in enumerate(OPTIONS):
        a, b = loglikelihoods[2 * i], loglikelihoods[2 * i + 1]
        top = max(a, b)
        score = top + math.log(math.exp(a - top) + math.exp(b - top)) if top > -math.inf else -math.inf
        if i == 0 or score > best_score:
            best, best_score = n, score
    return best


def outcome(doc: Mapping[str, Any], choice: str) -> str:
    """``correct`` / ``both`` / ``neither`` / ``opposite`` of option number ``choice`` for ``doc``."""
    label = str(doc["options"][int(choice) - 1])
    if label == doc["gold_label"]:
        return "correct"
    return label if label in ("both", "neither") else "opposite"


def process_results(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> dict[str, float]:
    """lm-eval's per-document scoring: ``results`` holds ``(loglikelihood, is_greedy)`` per continuation."""
    got = outcome(doc, choose([float(r[0]) for r in results]))
    return {"acc": float(got == "correct"), "both": float(got == "both"), "neither": float(got == "neither"),
            "opposite": float(got == "opposite")}
