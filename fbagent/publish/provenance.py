"""What the database says about how the exported entries were built and validated (for the card).

Only whitelisted facts leave the database: lexicon names, releases (the folder name of the
imported source, never its full path), selection seeds and counts, run models, seeds, prompt
versions and verifier settings, statuses, and the validation report with annotators anonymised.
Command lines, server URLs, options outside :data:`RUN_OPTION_KEYS` and annotator comments are
never read into the result; every string is passed through :func:`fbagent.providers.redact.redact`
as a second guard.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

import sqlite_utils

from fbagent.providers.redact import redact_value
from fbagent.publish.annotators import published
from fbagent.publish.options import Scope
from fbagent.store.competence import competence
from fbagent.store.lexicon import lexicon_row
from fbagent.store.pairs import find_selection
from fbagent.store.runs import get_run, item_counts
from fbagent.validation.aggregate import report

#: the run options the card shows (what changes the generated entries; no URLs, no keys)
RUN_OPTION_KEYS = ("pairs", "per_pair", "max_per_verb", "max_retries", "similarity_threshold", "near_copy_threshold",
                   "verifier", "margin", "margin_source", "target_precision", "screen", "judge",
                   "variant_temperature", "max_tokens", "prompt_style", "prompt_styles", "min_examples",
                   "require_definition", "require_core_fe", "exclude_related", "shared_with")


def display_model(name: str | None) -> str | None:
    """A model name fit for publishing: a local path (``/``, ``~`` or ``.`` first) becomes its file name."""
    if not name:
        return name
    return PurePath(name).name if name[0] in "/~." else name


def _json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def lexicon_facts(db: sqlite_utils.Database, lexicon_id: int | None) -> dict[str, Any] | None:
    """``{name, lang, format, release, source_hash, license, license_source, citation, url, source_name, reader,
    n_frames, n_lexical_units, ...}`` of one lexicon (the provenance columns ``""`` when not recorded)."""
    if lexicon_id is None:
        return None
    r = lexicon_row(db, lexicon_id)
    if r is None:
        return None
    release = PurePath(source).name if (source := r.get("source_path")) else None
    return {"name": r["name"], "lang": r["lang"], "format": r["format"], "release": release,
            "source_hash": r.get("source_hash"), "imported_at": r.get("imported_at"),
            **{k: r.get(k) or "" for k in ("license", "license_source", "citation", "url", "source_name", "reader")},
            **{k: r.get(k) for k in ("n_frames", "n_frame_elements", "n_lexical_units", "n_exemplars",
                                     "n_frame_relations")}}


def selection_facts(db: sqlite_utils.Database, selection_id: int | None) -> dict[str, Any] | None:
    """``{seed, protocol, counts}`` of the frame-pair selection a run drew from (``protocol``: ``fbagent`` or
    ``framebench``, :data:`fbagent.pairs.options.PROTOCOLS`; ``fbagent`` for a selection stored before it was recorded)."""
    if selection_id is None:
        return None
    row = find_selection(db, selection_id)
    if row is None:
        return None
    counts = _json(row["counts"])
    return {"seed": row["seed"], "protocol": row.get("protocol") or "fbagent",
            "counts": counts if isinstance(counts, dict) else {}}


def run_facts(db: sqlite_utils.Database, name: str) -> dict[str, Any]:
    """Models, seed, prompt versions, whitelisted options, lexicon, selection and item statuses of one run."""
    run: Mapping[str, Any] = get_run(db, name) or {"name": name}   # an unknown run: its name, the rest unknown
    options: dict = run["options"] if isinstance(run.get("options"), dict) else {}
    statuses = {s: n for s, n in sorted(item_counts(db, run.get("id") or 0).items()) if n}
    return {
        "name": run["name"], "generator": run.get("generator"), "model": display_model(run.get("model")),
        "verifier_generator": run.get("verifier_generator") or run.get("generator"),
        "verifier_model": display_model(run.get("verifier_model") or run.get("model")),
        "encoder": display_model(run.get("encoder")), "seed": run.get("seed"), "status": run.get("status"),
        "prompt_versions": dict(sorted((run.get("prompt_versions") or {}).items())),
        "options": {k: options[k] for k in RUN_OPTION_KEYS if k in options},
        "lexicon": lexicon_facts(db, run.get("lexicon_id")),
        "selection": selection_facts(db, run.get("selection_id")),
        "items_by_status": statuses,
    }


def verifier_settings(records: list[dict]) -> list[dict[str, Any]]:
    """Distinct ``(encoder, margin)`` of the exported entries' verifier results, with counts."""
    seen: Counter = Counter()
    for r in records:
        v = r.get("verifier")
        if isinstance(v, dict):
            seen[(display_model(v.get("encoder")), v.get("margin"))] += 1
    return [{"encoder": e, "margin": m, "entries": n} for (e, m), n in sorted(seen.items(), key=str)]


def anonymised_report(rep: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    """The validation report (:func:`fbagent.validation.aggregate.report`) with annotator names replaced by
    their aliases, the per-entry list and the filter hint (which names annotators) dropped."""
    out = {k: v for k, v in rep.items() if k not in ("judgments", "verifier_vs_human", "filter_hint")}
    out["annotators"] = [{**a, "annotator": aliases.get(a["annotator"], a["annotator"])} for a in rep["annotators"]]
    h = rep["human_accuracy"]
    out["human_accuracy"] = {**h, "per_annotator": {aliases.get(n, n): v for n, v in h["per_annotator"].items()}}
    adj = rep.get("adjudication") or {"entries": []}
    out["adjudication"] = {**adj, "entries": [{**r, "adjudicator": "lead",
                                               "second_round": [aliases.get(n, n) for n in r["second_round"]]}
                                              for r in adj["entries"]]}
    return out


def provenance(db: sqlite_utils.Database, records: list[dict], scope: Scope, annotator_names: bool) -> dict[str, Any]:
    """Facts for the card: ``runs`` (:func:`run_facts`), ``verifier`` (:func:`verifier_settings`),
    ``validation`` (anonymised report, or None when nobody judged), ``aliases`` (annotator -> published
    name, :mod:`fbagent.publish.annotators`), ``numbers`` (annotator -> number, the ``i`` of the authors'
    annotator columns), ``annotator_names`` (whether names are published), ``competence`` (published name -> ``{lang: level}`` as each annotator stated it,
    :mod:`fbagent.store.competence`; ``{}`` for an unstated one), ``exported`` (entries per language and
    status, distinct verbs per language) and the ``scope``."""
    rep = report(db, run=scope.run, statuses=scope.statuses, min_correct=scope.min_correct,
                 min_acceptable=scope.min_acceptable)
    pub = published(db, annotator_names)
    aliases = pub.aliases({a["annotator"] for a in rep["annotators"]}
                          | {n for r in records for p in r["human"]["pairs"].values() for n in p})
    stated = competence(db)
    facts = {
        "annotator_names": annotator_names,
        "scope": {"run": scope.run, "validated": scope.validated, "min_correct": scope.min_correct,
                  "min_acceptable": scope.min_acceptable, "statuses": list(scope.statuses)},
        "runs": [run_facts(db, name) for name in sorted({r["run"] for r in records})],
        "verifier": verifier_settings(records),
        "validation": anonymised_report(rep, aliases) if rep["entries"]["judged"] else None,
        "competence": {alias: stated.get(name, {}) for name, alias in aliases.items()},
        "exported": {
            "entries": len(records),
            "languages": dict(sorted(Counter(r["language"] for r in records).items())),
            "statuses": dict(sorted(Counter(r["status"] for r in records).items())),
            "revised": sum(1 for r in records if r["revised"]),
            "verbs": {lang: len({r["verb"] for r in records if r["language"] == lang})
                      for lang in sorted({r["language"] for r in records})},
        },
    }
    return {**redact_value(facts), "aliases": aliases, "numbers": {n: pub.number(n) for n in aliases}}
