"""SemBench's published test sets: read the authors' instance files and score them by their protocol.

SemBench (the method behind ``fbagent eval sembench`` and the generation verifier) publishes its
English sets in the repository ``MikelZubi/SemBench``, folder ``SemBenchScripts/data``: four files
of 1,000 instances per split, ``test_easy.json``, ``test_medium.json``, ``test_hard.json`` and
``test_random.json`` (and ``dev_*``; ``*_es_random`` / ``*_eu_random`` for Spanish and Basque).
Each line is one JSON object::

    {"word": "repel", "POS": "verb", "label": 1,
     "definitions": ["Refuse to accept (something, ...)", "Drive or force (an attack ...) back or away."],
     "example": "In the physical world, once an attacker is repelled, you follow up with counterattack."}

``definitions[label]`` is the target sense (the sense of ``example``), the other one the distractor;
the difficulty of the distractor is the file's (easy / medium / hard / random).

The authors' protocol (``SemBenchScripts/LLMsWiCVLLM.py`` for the example -> definition mode,
``LLMsWiCExampleVLLM.py`` for definition -> example -> definition): the model writes a definition
D (from ``example``, or from an example it first wrote from ``definitions[label]``); D is embedded
with a sentence encoder together with both definitions; the predicted label is 0 when
``dot(D, definitions[0]) > dot(D, definitions[1])``, else 1 (a tie predicts 1); accuracy is
``mean(predicted == label)`` over every line of the file. Their encoders normalise embeddings, so
the dot product is the cosine that :func:`fbagent.verifier.roundtrip.score_texts` computes.

What this module adds to :mod:`fbagent.eval.sembench`: :func:`read_instances_file` (one
:class:`~fbagent.eval.sembench.Instance` per line, its one distractor keyed by the file's
difficulty), :func:`load_instance_files` and :func:`by_file_summary` (accuracy per file by the
authors' rule, with a 95% Wilson interval, failures counted two ways).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.eval.jsonl import jsonl_objects
from fbagent.eval.sembench_items import Instance, SemBenchData, Shot
from fbagent.eval.wordnet import Sense

#: The authors' difficulty names (in their file names) -> the difficulty keys of fbagent's summaries.
DIFFICULTY_NAMES = {"easy": "easy", "medium": "mid", "mid": "mid", "hard": "hard", "random": "rand", "rand": "rand"}
#: The authors' part-of-speech names -> the WordNet letters of fbagent's prompts (``pos_n``, ``pos_v`` ...).
POS_NAMES = {"noun": "n", "verb": "v", "adjective": "a", "adj": "a", "adverb": "r", "adv": "r",
             "n": "n", "v": "v", "a": "a", "s": "s", "r": "r"}
FORMAT_HINT = ('one JSON object a line: {"word": str, "POS": "noun"|"verb", "label": 0|1, '
               '"definitions": [str, str], "example": str}')


def file_group(path: str | Path) -> str:
    """The group key of an instance file: its difficulty when its name says one (``test_medium.json`` ->
    ``mid``, ``dev_random.json`` -> ``rand``), else the file name without its extension."""
    stem = Path(path).name.split(".")[0]
    for part in reversed(re.split(r"[^A-Za-z]+", stem.lower())):
        if part in DIFFICULTY_NAMES:
            return DIFFICULTY_NAMES[part]
    return stem


def looks_like_instances(path: str | Path) -> bool:
    """Whether the first non-empty line of ``path`` is an authors' instance (has ``label``, ``definitions``
    and ``example``) rather than a dictionary word (``senses``). ``False`` for a missing or unreadable file."""
    try:
        with open(path, encoding="utf-8-sig") as fh:   # a byte-order mark is accepted, as by every reader
            for line in fh:
                if line.strip():
                    obj = json.loads(line)
                    return isinstance(obj, dict) and {"label", "definitions", "example"} <= obj.keys()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return False


def read_instances_file(path: str | Path, group: str | None = None) -> list[Any]:
    """Read one authors' instance file: one :class:`fbagent.eval.sembench_items.Instance` per non-empty line.

    ``instance_id`` is ``<file name>:<line>``; ``target`` is ``definitions[label]`` (with ``example`` as
    its example); ``distractors`` holds the other definition under ``group`` (default
    :func:`file_group`); ``pos`` is the WordNet letter of ``POS``. Raises :class:`FbagentError` naming
    ``file:line`` for a missing file, invalid JSON, or a line that is not in the authors' format.
    """
    path = Path(path)
    if not path.is_file():
        raise FbagentError(f"instances file {path} does not exist",
                           "pass --instances-file with a file in SemBench's format (" + FORMAT_HINT + ")")
    group = group or file_group(path)
    out = []
    for where, obj in jsonl_objects(path, "fix that line: " + FORMAT_HINT):
        problem = _format_problem(obj)
        if problem:
            raise FbagentError(f"{where}: {problem}", "fix that line: " + FORMAT_HINT)
        label, defs = int(obj["label"]), [d.strip() for d in obj["definitions"]]
        word, example = obj["word"].strip(), obj["example"].strip()
        iid = f"{path.name}:{where.rsplit(':', 1)[1]}"  # file name and line number, as before
        out.append(Instance(
            instance_id=iid, word=word, pos=POS_NAMES.get(str(obj["POS"]).lower(), str(obj["POS"])),
            target=Sense(f"{iid}:{label}", defs[label], [example] if example else []),
            example=example or None,
            distractors={group: Sense(f"{iid}:{1 - label}", defs[1 - label], [])},
            distractor_similarity={},
        ))
    if not out:
        raise FbagentError(f"instances file {path} has no instance", "pass a file with one instance a line: " + FORMAT_HINT)
    return out


def _format_problem(obj: Any) -> str | None:
    """What is wrong with one parsed line (``None`` when it is a valid instance)."""
    if not isinstance(obj, dict):
        return "not a JSON object"
    if not isinstance(obj.get("word"), str) or not obj["word"].strip():
        return "needs a 'word' string"
    if not isinstance(obj.get("POS"), str):
        return "needs a 'POS' string (noun, verb)"
    if type(obj.get("label")) is not int or obj["label"] not in (0, 1):
        return f"'label' must be 0 or 1, got {obj.get('label')!r}"
    defs = obj.get("definitions")
    if not isinstance(defs, list) or len(defs) != 2 or not all(isinstance(d, str) and d.strip() for d in defs):
        return "'definitions' must be a list of two non-empty strings"
    if not isinstance(obj.get("example"), str):
        return "needs an 'example' string"
    return None


def load_instance_files(paths: Sequence[str | Path], mode: str) -> Any:
    """Every instance of ``paths`` (in file and line order) as :class:`fbagent.eval.sembench_items.SemBenchData`.

    Mode ``ex`` needs each instance's ``example`` (a line with an empty one raises
    :class:`FbagentError`). Two files with the same group (e.g. ``dev_hard`` and ``test_hard``) are
    grouped by file name instead. The shot pool (``--shots``) is the gold (definition, example) of the
    instances themselves; a shot is never of the same word. ``dictionary`` describes the files
    for the manifest: ``{"name": "sembench-instances", "files": [{"path", "group", "instances"}]}``.
    """
    if not paths:
        raise FbagentError("no instances file given", "pass --instances-file FILE (repeat it for several files)")
    groups = [file_group(p) for p in paths]
    if len(set(groups)) < len(groups):   # same difficulty twice: keep the files apart
        groups = [Path(p).name.split(".")[0] for p in paths]
    if len(set(groups)) < len(groups):
        raise FbagentError("two instances files have the same name", "pass each file once")
    instances, files = [], []
    for path, group in zip(paths, groups, strict=True):
        rows = read_instances_file(path, group)
        if mode == "ex":
            empty = next((i for i in rows if not i.example), None)
            if empty is not None:
                raise FbagentError(f"{empty.instance_id}: empty 'example' (mode ex defines the word from it)",
                                   "fill the example, or use --mode def")
        instances.extend(rows)
        files.append({"path": str(path), "group": group, "instances": len(rows)})
    shots = [Shot(i.word, i.pos, i.target.definition, i.example) for i in instances if i.example]
    return SemBenchData(instances=instances, shots=shots,
                        dictionary={"name": "sembench-instances", "path": ",".join(str(p) for p in paths),
                                    "files": files, "eligible_words": len(instances)})


def paper_correct(label: int, sim_target: float, sim_distractor: float) -> bool:
    """The authors' decision for one instance: predicted label 0 when ``sim(D, definitions[0]) >
    sim(D, definitions[1])``, else 1; correct when it equals ``label`` (so a tie is correct for label 1)."""
    sim0, sim1 = (sim_target, sim_distractor) if label == 0 else (sim_distractor, sim_target)
    predicted = 0 if sim0 > sim1 else 1
    return predicted == label


def by_file_summary(records: Iterable[dict[str, Any]], data: Any) -> dict[str, dict[str, Any]]:
    """Accuracy per instance file by the authors' rule (:func:`paper_correct`), with 95% intervals.

    ``records``: the stored predictions of a run (``instance_id``, ``error``, ``scores[group]`` with
    ``sim_own`` = similarity to the target, ``sim_other`` = to the distractor); ``data``: the
    :func:`load_instance_files` result. Returns ``{group: {"file", "n", "n_scored", "n_failed",
    "accuracy", "ci95", "accuracy_all", "ci95_all"}}``: ``accuracy`` over the scored instances
    (fbagent's convention: a failed or empty generation is not scored), ``accuracy_all`` over every
    line of the file with failures counted wrong (the authors' denominator; their scripts score even
    an empty generation). Intervals: Wilson score interval (``statsmodels``
    ``proportion_confint(method="wilson")``); instances are independent. ``None`` when nothing is scored.
    """
    from statsmodels.stats.proportion import proportion_confint

    labels = {i.instance_id: int(i.target.key.rsplit(":", 1)[1]) for i in data.instances}
    group_of = {i.instance_id: next(iter(i.distractors)) for i in data.instances}
    by_id = {r["instance_id"]: r for r in records}
    out: dict[str, dict[str, Any]] = {}

    def interval(k: int, n: int) -> list[float] | None:
        if not n:
            return None
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        return [float(lo), float(hi)]

    for f in data.dictionary.get("files", []):
        group = f["group"]
        ids = [iid for iid, g in group_of.items() if g == group]
        correct = scored = 0
        for iid in ids:
            r = by_id.get(iid)
            s = (r or {}).get("scores", {}).get(group) if r and r.get("error") is None else None
            if s is None:
                continue
            scored += 1
            correct += paper_correct(labels[iid], s["sim_own"], s["sim_other"])
        out[group] = {
            "file": f["path"], "n": len(ids), "n_scored": scored, "n_failed": len(ids) - scored,
            "accuracy": correct / scored if scored else None, "ci95": interval(correct, scored),
            "accuracy_all": correct / len(ids) if ids else None, "ci95_all": interval(correct, len(ids)),
        }
    return out
