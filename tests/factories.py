"""Test data: a fresh fbagent database with a lexicon, frames, LUs, one run, frame pairs and items.

``make_db(tmp_path / "x.db", n=6)`` returns an open :class:`sqlite_utils.Database`
whose ``items`` rows look like what ``fbagent generate`` writes (question in
both forms, four sentences, verb forms, target spans, verifier JSON, status).
Entries cycle through a few hand-written English examples; ids are
``"<run>:<pair id>:<k>"``. Other features' tests may reuse it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.store import open_db

TS = "2026-01-01T00:00:00+00:00"

#: (verb, frame A, frame B, condition, S_A, S_B, S_A', S_B', verb forms A, B, A', B')
EXAMPLES: list[tuple[str, ...]] = [
    ("leave", "Departing", "Causation", "someone physically went away from a place",
     "She left the office at noon.", "She left the office in a mess.",
     "After the argument, the guests left quickly.", "The storm left the village without power.",
     "left", "left", "left", "left"),
    ("run", "Self_motion", "Operating_a_system", "someone moved quickly on foot",
     "Tom ran the last mile in Boston.", "Tom ran the bakery in Boston.",
     "The children ran across the wet field.", "My aunt runs a small hotel by the sea.",
     "ran", "ran", "ran", "runs"),
    ("grasp", "Manipulation", "Grasp", "someone held something with their hands",
     "She grasped the rope firmly.", "She grasped the idea quickly.",
     "The climber grasped a rock with both hands.", "Few students grasped the proof on first reading.",
     "grasped", "grasped", "grasped", "grasped"),
    ("cut", "Cutting", "Cause_change_of_position_on_a_scale", "something was divided with a blade",
     "He cut the bread into thick slices.", "He cut the price by a third.",
     "The gardener cut the hedge this morning.", "The company cut its budget again.",
     "cut", "cut", "cut", "cut"),
    ("see", "Perception_experience", "Grasp", "someone perceived something with their eyes",
     "I saw the lights from the bridge.", "I saw the point of the plan.",
     "We saw a deer near the road last night.", "Now she sees why he was upset.",
     "saw", "saw", "saw", "sees"),
    ("hold", "Manipulation", "Discussion", "someone had something in their hands",
     "They held the box carefully.", "They held the meeting carefully.",
     "The baby held my finger tightly.", "The committee holds a hearing every spring.",
     "held", "held", "held", "holds"),
]

FRAME_DEFINITIONS = {
    "Departing": "An object (the Theme) moves away from a Source.",
    "Causation": "A Cause causes an Effect.",
    "Self_motion": "The Self_mover moves under its own power.",
    "Operating_a_system": "An Operator manages a System so that it works.",
    "Manipulation": "An Agent manipulates an Entity with a body part.",
    "Grasp": "A Cognizer comes to understand a Phenomenon.",
    "Cutting": "An Agent cuts an Item into Pieces using an Instrument.",
    "Cause_change_of_position_on_a_scale": "An Agent or Cause changes the position of an Item on a scale.",
    "Perception_experience": "A Perceiver has a perceptual experience of a Phenomenon.",
    "Discussion": "Interlocutors communicate about a Topic, e.g. in a meeting.",
}

FIELDS = ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime")


def get_call(db: sqlite_utils.Database, call_id: int) -> dict[str, Any] | None:
    """One ``llm_calls`` row as a dict (``request``/``response`` decoded from JSON), or ``None``."""
    rows = list(db.query("SELECT * FROM llm_calls WHERE id = ?", [call_id]))
    if not rows:
        return None
    row = dict(rows[0])
    for field in ("request", "response"):
        if row[field] is not None:
            row[field] = json.loads(row[field])
    return row


def _span(text: str, form: str) -> list[int]:
    i = text.find(form)
    assert i >= 0, (text, form)
    return [i, i + len(form)]


def item_row(run_id: int, run_name: str, pair_id: int, k: int, example: Sequence[str], status: str,
             language: str = "en", lexicon: str = "fn-test") -> dict[str, Any]:
    """One ``items`` row built from an :data:`EXAMPLES` tuple."""
    verb, fa, fb, cond, sa, sb, sap, sbp, va, vb, vap, vbp = example
    sentences = dict(zip(FIELDS, (sa, sb, sap, sbp), strict=True))
    forms = dict(zip(FIELDS, (va, vb, vap, vbp), strict=True))
    sentences_v = {
        f: {"frame": fa if f in ("sentence_a", "sentence_a_prime") else fb,
            "definition": f"to {verb} ({fa if f in ('sentence_a', 'sentence_a_prime') else fb})",
            "sim_own": 0.62, "sim_other": 0.31, "pass": not (status == "flagged" and f == "sentence_b_prime"),
            "call_id": None}
        for f in FIELDS
    }
    # the layout of fbagent.verifier.verify.verify_item()
    verifier = {"encoder": "all-MiniLM-L6-v2", "margin": 0.0, "error": None, "sentences": sentences_v,
                "passed": status == "verified"}
    return {
        "id": f"{run_name}:{pair_id}:{k}",
        "run_id": run_id, "pair_id": pair_id, "k": k,
        "language": language, "lexicon": lexicon, "verb": verb,
        "lu_a": f"{verb}.v", "lu_b": f"{verb}.v", "frame_a": fa, "frame_b": fb,
        "question": f"Which sentence implies that {cond}?",
        "question_four_choice": f"Select all sentences where {cond}.",
        "condition": cond,
        **sentences,
        "verb_form_a": va, "verb_form_b": vb, "verb_form_a_prime": vap, "verb_form_b_prime": vbp,
        "target_spans": json.dumps({f: _span(sentences[f], forms[f]) for f in FIELDS}),
        "lexical_similarity": 0.71,
        "checks": json.dumps({"verb_present": True, "lexical_similarity": 0.71}),
        "verifier": json.dumps(verifier),
        "status": status,
        "reasons": json.dumps([] if status == "verified" else ["sentence_b_prime: closer to the other frame"]),
        "attempts": 1,
        "generator_model": "scripted-test-model",
        "created_at": TS, "updated_at": TS,
    }


def make_db(
    path: str | Path,
    n: int = 6,
    *,
    statuses: Sequence[str] = ("verified",),
    language: str = "en",
    run_name: str = "run1",
    lexicon: str = "fn-test",
    per_pair: int = 1,
) -> sqlite_utils.Database:
    """Create ``path`` with ``n`` items (statuses cycle through ``statuses``) and return it open.

    ``per_pair`` items share one frame pair (k = 0..per_pair-1). Calling it
    again on the same file with another ``run_name`` adds a second run.
    """
    db = open_db(path)
    lex = db["lexicons"]
    existing = list(db.query("SELECT id FROM lexicons WHERE name = ?", [lexicon]))
    if existing:
        lex_id = existing[0]["id"]
    else:
        lex_id = lex.insert({"name": lexicon, "lang": language, "format": "jsonl", "imported_at": TS}).last_pk
        for name, definition in FRAME_DEFINITIONS.items():
            fpk = db["frames"].insert({"lexicon_id": lex_id, "name": name, "definition": definition,
                                       "definition_markup": definition}).last_pk
            for ex in EXAMPLES:
                if name in ex[1:3]:
                    db["lexical_units"].insert({"lexicon_id": lex_id, "frame_pk": fpk, "name": f"{ex[0]}.v",
                                                "lemma": ex[0], "pos": "V",
                                                "definition": f"COD: {ex[0]} in the sense of {name}"})
    sel_id = db["selections"].insert({"lexicon_id": lex_id, "seed": 0, "options": "{}", "counts": "{}",
                                      "created_at": TS}).last_pk
    run_id = db["runs"].insert({"name": run_name, "kind": "generate", "command": "fbagent generate (test)",
                                "lexicon_id": lex_id, "selection_id": sel_id, "generator": "openai",
                                "model": "scripted-test-model", "seed": 0, "status": "finished",
                                "created_at": TS, "updated_at": TS}).last_pk
    rows = []
    n_pairs = (n + per_pair - 1) // per_pair
    for p in range(n_pairs):
        ex = EXAMPLES[p % len(EXAMPLES)]
        pair_id = db["frame_pairs"].insert({"selection_id": sel_id, "rank": p, "verb": ex[0], "lu_a": f"{ex[0]}.v",
                                            "lu_b": f"{ex[0]}.v", "frame_a": ex[1], "frame_b": ex[2]}).last_pk
        for k in range(per_pair):
            idx = p * per_pair + k
            if idx >= n:
                break
            rows.append(item_row(run_id, run_name, pair_id, k, ex, statuses[idx % len(statuses)], language, lexicon))
    db["items"].insert_all(rows, batch_size=500)
    return db


# Flat option keywords (the fields of the options classes before they were split into groups) -> the groups.
_GENERATOR_KEYS = {"generator": "backend", "model": "model", "base_url": "base_url", "model_path": "model_path",
                   "concurrency": "concurrency", "llm_retries": "retries", "timeout_s": "timeout_s",
                   "backoff_s": "backoff_s", "prompt_style": "prompt_style"}
_VERIFIER_MODEL_KEYS = {"verifier_generator": "backend", "verifier_model": "model", "verifier_base_url": "base_url"}
_VERIFIER_KEYS = {"margin": "margin", "surface_verb_match": "surface_verb_match", "verb_check": "verb_check",
                  "judge": "judge", "margin_auto": "margin_auto", "target_precision": "target_precision",
                  "margin_source": "margin_source", "signal": "signal", "verifier": "signal"}
_SELECTION_KEYS = ("pairs", "per_pair", "seed", "max_per_verb", "min_examples", "require_definition",
                   "require_core_fe", "exclude_related", "protocol")
_RUN_KEYS = {"lexicon": "lexicon", "run": "name", "dry_run": "dry_run", "durability": "durability",
             "max_retries": "max_retries", "similarity_threshold": "similarity_threshold",
             "near_copy_threshold": "near_copy_threshold", "screen": "screen",
             "variant_temperature": "variant_temperature", "max_tokens": "max_tokens", "max_cost": "max_cost",
             "batch": "batch"}


def _take(flat: dict[str, Any], names: Any) -> dict[str, Any]:
    """Pop ``names`` (flat key -> group field, or a tuple of keys kept as they are) out of ``flat``."""
    names = names if isinstance(names, dict) else {k: k for k in names}
    return {field: flat.pop(key) for key, field in names.items() if key in flat}


def _models(flat: dict[str, Any]) -> Any:
    from fbagent.verifier.run_models import RunModels, VerifierModel, generator_config

    return RunModels(generator=generator_config(**_take(flat, _GENERATOR_KEYS)),
                     verifier=VerifierModel(**_take(flat, _VERIFIER_MODEL_KEYS)), encoder=flat.pop("encoder", None))


def generate_options(**flat: Any) -> Any:
    """A :class:`fbagent.generation.GenerateOptions` from the flat keywords of the options before their groups
    (``generator=``, ``verifier=`` (the signal), ``run=`` (the run name), ``pairs=``, ...). Raises ``TypeError``
    for a keyword no group has."""
    from fbagent.generation import GenerateOptions, RunOptions
    from fbagent.generation.options import GENERATE_PAIRS
    from fbagent.pairs.select import SelectionOptions
    from fbagent.verifier.settings import VerifierOptions

    flat = dict(flat)
    models, verifier = _models(flat), VerifierOptions(**_take(flat, _VERIFIER_KEYS))
    selection = SelectionOptions(**{"pairs": GENERATE_PAIRS, **_take(flat, _SELECTION_KEYS)})
    run = RunOptions(**_take(flat, _RUN_KEYS))
    if flat:
        raise TypeError(f"no options group has {sorted(flat)}")
    return GenerateOptions(models=models, verifier=verifier, selection=selection, run=run)


def calibrate_options(**flat: Any) -> Any:
    """A :class:`fbagent.verifier.calibration.CalibrateOptions` from flat keywords (as
    :func:`generate_options`; ``signal=``, ``lexicons=``, ``selection=``, ``pairs=``, ``seed=``, ...)."""
    from fbagent.verifier.calibration import CalibrateOptions
    from fbagent.verifier.settings import VerifierOptions

    flat = dict(flat)
    models, verifier = _models(flat), VerifierOptions(**_take(flat, _VERIFIER_KEYS))
    return CalibrateOptions(models=models, verifier=verifier, **flat)
