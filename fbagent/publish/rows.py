"""Rows of the Hugging Face dataset: one per entry, the fbagent fields plus the FrameBench authors'
column names, with their features (types) and descriptions in one table (:data:`FIELDS`).

A row is built from one fbagent-format export record (:func:`fbagent.publish.jsonl.fbagent_record`):

- ``question`` holds what the authors' ``question`` column holds, the four-choice form
  (``question_four_choice``, or the two-choice form when an entry has none); both forms are also
  in their own columns;
- ``original_qa_id`` and ``lex_unit_name`` repeat ``id`` and ``lu`` under the authors' names;
- ``match_answer_annotator{i}_ab|_prime`` and ``quality_annotator{i}_ab|_prime`` (i = 1..n, at least
  3 as the authors' script expects) are the judgments of annotator i (numbered once per database in the
  order of their first task, :mod:`fbagent.publish.annotators`, so ``annotator_i`` is one person in every
  row and every export); a missing judgment is ``false``, as in the authors' format;
- ``human`` holds the aggregated judgments with annotators as ``annotator_1..n`` (or their names
  with ``annotator_names``); free-text comments are not published;
- nested values whose shape varies (``verifier``) are reduced to fixed fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import datasets

#: a column's type as ``FIELDS`` writes it: a ``datasets.Value`` dtype, ``[spec]`` (a list of it) or ``{name: spec}``
FieldSpec: TypeAlias = str | list["FieldSpec"] | dict[str, "FieldSpec"]

FRAMEBENCH_MIN_ANNOTATORS = 3
SENTENCES = ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime")
REVISABLE = ("question", "question_four_choice", *SENTENCES)
PAIRS = ("base", "extended", "both_correct", "neither_correct")

#: name -> (feature spec, description). Spec: a dtype string, ["string"] for a list, or a dict.
FIELDS: dict[str, tuple[FieldSpec, str]] = {
    "id": ("string", "Entry id, `<run>:<frame pair id>:<k>` (stable across exports of the same database)."),
    "original_qa_id": ("string", "The same id under the FrameBench authors' column name."),
    "language": ("string", "Language code of the entry (ISO 639-1, e.g. `en`, `ja`): the config name."),
    "lexicon": ("string", "Name of the FrameNet-style lexicon the frames come from (`fbagent lexicon add`)."),
    "verb": ("string", "The target verb's lemma, shared by both frames."),
    "lu": ("string", "Lexical unit of frame A (e.g. `leave.v`)."),
    "lex_unit_name": ("string", "The same lexical unit under the FrameBench authors' column name."),
    "lu_a": ("string", "Lexical unit of the verb in frame A."),
    "lu_b": ("string", "Lexical unit of the verb in frame B."),
    "frame_a": ("string", "Frame A: the frame the correct sentences evoke."),
    "frame_b": ("string", "Frame B: the other frame of the same verb."),
    "frame_pair": ("string", "The frame pair's key common to every language: both frames' FrameNet 1.7 names, "
                   "sorted, `FrameA|FrameB` (compare languages on the same pairs with it)."),
    "question": ("string", "The question as the authors' evaluator reads it: the four-choice form "
                 "(`question_four_choice`), or the two-choice form when the entry has no four-choice form."),
    "question_two_choice": ("string", "Two-choice form: \"Which sentence implies that [condition]?\"."),
    "question_four_choice": ("string", "Four-choice form: \"Select all sentences where [condition].\" "
                             "(shown to models)."),
    "condition": ("string", "The [condition] slot of both question forms."),
    "sentence_a": ("string", "S_A: base pair, frame A (answers the question)."),
    "sentence_b": ("string", "S_B: base pair, frame B, as lexically similar to S_A as possible."),
    "sentence_a_prime": ("string", "S_A': extended pair, frame A, free in form."),
    "sentence_b_prime": ("string", "S_B': extended pair, frame B, free in form."),
    "verb_form_a": ("string", "The verb as written in S_A."),
    "verb_form_b": ("string", "The verb as written in S_B."),
    "verb_form_a_prime": ("string", "The verb as written in S_A'."),
    "verb_form_b_prime": ("string", "The verb as written in S_B'."),
    "target_spans": ({s: ["int32"] for s in SENTENCES},
                     "Character span [start, end) of the verb in each sentence (empty when not found)."),
    "lexical_similarity": ("float64", "Lexical similarity of S_A and S_B with the verb masked (generation self-check)."),
    "verifier": ({"encoder": "string", "margin": "float64", "passed": "bool",
                  **{f"sim_own_{s}": "float64" for s in SENTENCES},
                  **{f"sim_other_{s}": "float64" for s in SENTENCES}},
                 "SemBench round-trip verifier: encoder, margin, overall pass, and per sentence the cosine "
                 "similarity of the verifier's definition to its own frame and to the other frame "
                 "(null when the entry was not verified)."),
    "status": ("string", "Generation status: `verified` (verifier passed) or `flagged` (it did not)."),
    "generator_model": ("string", "Model that wrote the entry."),
    "verb_check": ("string", "What vouched for the verb: analyser, conjugation tables, dictionary only, surface "
                   "match, llm or surface (`fbagent generate --verb-check`)."),
    "run": ("string", "Name of the generation run."),
    "revised": ("bool", "True when an annotator revised any text of the entry."),
    "revised_fields": (["string"], "The revised fields."),
    "original": ({f: "string" for f in REVISABLE}, "The generated text of each revised field (null when unrevised)."),
    "human": ({"annotators": ["string"], "n_correct": "int32", "n_acceptable": "int32", "min_correct": "int32",
               "min_acceptable": "int32", "kept": "bool", "vote_kept": "bool", "outcome": "string",
               "adjudication": {"decision": "string", "reason": "string", "second_round": ["string"]},
               "adjudication_set_aside": {"decision": "string", "reason": "string", "revised": ["string"],
                                          "why": "string"},
               "judgments": [{"annotator": "string", "pair": "string", "choice": "string", "selected": ["string"],
                              "shown": ["string"], "correct": "bool", "acceptability": "string",
                              "acceptable": "bool"}]},
              "Human validation (FrameBench 3.2): annotators with an entry score, how many judged the entry "
              "correct / acceptable (entry score = min over base and extended pair), the filter thresholds, "
              "whether it passed (`kept`: the outcome; `vote_kept`: the vote filter alone; `outcome`: which rule "
              "decided, votes or the lead's adjudication; `adjudication`: decision keep / drop / second_round, "
              "reason, second-round annotators, null when none; `adjudication_set_aside`: a decision that no "
              "longer applies because the entry was revised after it, with the revised fields and why, null when "
              "none), and every pair judgment (pair: base, extended, both_correct, neither_correct; "
              "choice in the labels shown: A, B, both, neither)."),
}


def annotator_columns(n: int) -> list[str]:
    """The authors' annotator columns for annotators 1..n: ``match_answer_annotator{i}_ab``, ..."""
    return [f"{kind}_annotator{i}_{p}" for i in range(1, n + 1)
            for kind in ("match_answer", "quality") for p in ("ab", "prime")]


def annotator_column_doc(n: int) -> str:
    return (f"`match_answer_annotator{{i}}_ab` / `_prime` (i = 1..{n}): annotator i chose the correct answer on the "
            "base / extended pair; `quality_annotator{i}_ab` / `_prime`: annotator i rated that pair acceptable "
            "(false when annotator i did not judge it), the FrameBench authors' columns.")


def _spec_to_feature(spec: FieldSpec) -> datasets.Value | datasets.List | dict[str, object]:
    from datasets import List, Value

    if isinstance(spec, str):
        return Value(spec)
    if isinstance(spec, list):
        return List(_spec_to_feature(spec[0]))
    return {k: _spec_to_feature(v) for k, v in spec.items()}


def features(n_annotators: int) -> datasets.Features:
    """The ``datasets.Features`` of a row with ``n_annotators`` annotator column sets (see :func:`hf_row`)."""
    from datasets import Features, Value

    feats = {name: _spec_to_feature(spec) for name, (spec, _) in FIELDS.items()}
    feats.update({c: Value("bool") for c in annotator_columns(n_annotators)})
    return Features(feats)


def _verifier(v: Any) -> dict | None:
    if not isinstance(v, dict):
        return None
    sents: dict = v["sentences"] if isinstance(v.get("sentences"), dict) else {}
    out = {"encoder": v.get("encoder"), "margin": v.get("margin"), "passed": v.get("passed")}
    for s in SENTENCES:
        one: dict = sents[s] if isinstance(sents.get(s), dict) else {}
        out[f"sim_own_{s}"] = one.get("sim_own")
        out[f"sim_other_{s}"] = one.get("sim_other")
    return out


def _adjudication(a: dict[str, Any] | None, aliases: dict[str, str], number: dict[str, int]) -> dict[str, Any] | None:
    """The adjudication of an export record with its second-round annotators under their published names
    (in number order)."""
    if a is None:
        return None
    return {"decision": a["decision"], "reason": a["reason"],
            "second_round": [aliases[n] for n in sorted(a["second_round"], key=number.__getitem__)]}


def hf_row(rec: dict, aliases: dict[str, str], n_annotators: int,
           numbers: dict[str, int] | None = None) -> dict[str, Any]:
    """One dataset row from an fbagent-format export record with annotator names (``aliases``: name -> published
    name; ``numbers``: name -> the ``i`` of the annotator columns, :mod:`fbagent.publish.annotators`; None: the
    position in ``aliases``)."""
    h = rec["human"]
    number = numbers or {name: i for i, name in enumerate(aliases, start=1)}
    judgments = []
    for pair in PAIRS:
        for name, j in sorted(h["pairs"].get(pair, {}).items(), key=lambda kv: number[kv[0]]):
            judgments.append({"annotator": aliases[name], "pair": pair, "choice": j["choice"],
                              "selected": list(j["selected"]), "shown": list(j["shown"]), "correct": j["correct"],
                              "acceptability": j["acceptability"], "acceptable": j["acceptable"]})
    spans = rec.get("target_spans") or {}
    row: dict[str, Any] = {
        "id": rec["id"], "original_qa_id": rec["id"], "language": rec["language"], "lexicon": rec["lexicon"],
        "verb": rec["verb"], "lu": rec["lu"], "lex_unit_name": rec["lu"], "lu_a": rec["lu_a"], "lu_b": rec["lu_b"],
        "frame_a": rec["frame_a"], "frame_b": rec["frame_b"], "frame_pair": rec["frame_pair"],
        "question": rec["question_four_choice"] or rec["question"],
        "question_two_choice": rec["question_two_choice"], "question_four_choice": rec["question_four_choice"],
        "condition": rec["condition"],
        **{s: rec[s] for s in SENTENCES},
        **{f"verb_form_{s.removeprefix('sentence_')}": rec["verb_forms"].get(s) for s in SENTENCES},
        "target_spans": {s: list(spans.get(s) or []) for s in SENTENCES},
        "lexical_similarity": rec["lexical_similarity"],
        "verifier": _verifier(rec["verifier"]),
        "status": rec["status"], "generator_model": rec["generator_model"], "verb_check": rec.get("verb_check"),
        "run": rec["run"],
        "revised": rec["revised"], "revised_fields": list(rec["revised_fields"]),
        "original": {f: (rec["original"] or {}).get(f) for f in REVISABLE},
        "human": {"annotators": [aliases[n] for n in sorted(h["annotators"], key=number.__getitem__)],
                  "n_correct": h["n_correct"],
                  "n_acceptable": h["n_acceptable"], "min_correct": h["min_correct"],
                  "min_acceptable": h["min_acceptable"], "kept": h["kept"],
                  "vote_kept": h.get("vote_kept", h["kept"]), "outcome": h.get("outcome", "votes"),
                  "adjudication": _adjudication(h.get("adjudication"), aliases, number),
                  "adjudication_set_aside": h.get("adjudication_set_aside"), "judgments": judgments},
    }
    cols = dict.fromkeys(annotator_columns(n_annotators), False)
    for pair, suffix in (("base", "ab"), ("extended", "prime")):
        for name, j in h["pairs"].get(pair, {}).items():
            i = number[name]
            cols[f"match_answer_annotator{i}_{suffix}"] = bool(j["correct"])
            cols[f"quality_annotator{i}_{suffix}"] = bool(j["acceptable"])
    row.update(cols)
    return row

