"""``fbagent export --format hf DIR``: a Hugging Face dataset folder that ``datasets.load_dataset(DIR)``
loads as it is.

Layout::

    DIR/README.md                                 dataset card (YAML configs + sections, fbagent.publish.card)
    DIR/data/<lang>/test-00000-of-00001.parquet   one config per language, split "test"
    DIR/lm_eval/                                  the lm-eval task folder (fbagent.publish.lmeval.write_tasks)
    DIR/fbagent-export.json                       what was exported, how (no secrets)

Rows: :func:`fbagent.publish.rows.hf_row` (the fbagent fields plus the FrameBench authors' column
names), in the stable entry order, with the features of :func:`fbagent.publish.rows.features`
stored in the Parquet schema. The folder is written to a temporary folder and renamed
(:func:`fbagent.publish.folder.staged_folder`). Needs the ``publish`` extra (datasets, pyarrow,
huggingface_hub).
"""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.eval.templates import load_template_set
from fbagent.languages import language_name
from fbagent.publish.card import LM_EVAL_DIR, CardInputs, render_card
from fbagent.publish.card_creation import lexicons
from fbagent.publish.folder import check_target, staged_folder, write_marker, write_text
from fbagent.publish.jsonl import export_records, require_kept
from fbagent.publish.licensing import Licensing, decide
from fbagent.publish.lmeval import plan_tasks, write_tasks
from fbagent.publish.options import HfOptions, LmEvalOptions, Scope
from fbagent.publish.provenance import provenance
from fbagent.publish.rows import FRAMEBENCH_MIN_ANNOTATORS, features, hf_row
from fbagent.publish.sections import contributed_sections

DATA_FILE = "data/{lang}/test-00000-of-00001.parquet"
FORMAT_VERSION = "1"
_LICENSE_RE = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")
_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")


def require(module: str) -> None:
    """Raise :class:`FbagentError` naming the ``publish`` extra when ``module`` cannot be imported."""
    if importlib.util.find_spec(module) is None:
        raise FbagentError(f"this export needs the Python package {module!r}, which is not installed",
                           "pip install 'fbagent[publish]'")


def configs_for(languages: list[str]) -> list[dict[str, Any]]:
    """The card's ``configs``: one per language; with several, an ``all`` config first and default."""
    configs: list[dict[str, Any]] = [
        {"config_name": lang, "data_files": [{"split": "test", "path": DATA_FILE.format(lang=lang)}]}
        for lang in languages]
    if len(configs) > 1:
        configs.insert(0, {"config_name": "all", "data_files": [{"split": "test", "path": "data/*/test-*.parquet"}],
                           "default": True})
    else:
        configs[0]["default"] = True
    return configs


def source_repository(homepage: str | None) -> str | None:
    """fbagent's source repository for the card's install line: ``homepage`` (``--homepage``), else the first
    ``Source`` / ``Repository`` / ``Homepage`` entry of the installed package's ``[project.urls]``, else None."""
    if homepage:
        return homepage
    try:
        urls = metadata.metadata("fbagent").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    found = dict(u.split(",", 1) for u in urls if "," in u)
    for label in ("Source", "Repository", "Homepage"):
        if label in found:
            return found[label].strip()
    return None


def export_hf(db: sqlite_utils.Database, out: Path, scope: Scope | None = None,
              options: HfOptions | None = None, lmeval: LmEvalOptions | None = None) -> dict[str, Any]:
    """Write the Hugging Face folder ``out`` (with the lm-eval task folder of ``lmeval`` options in
    ``lm_eval/``); returns ``{"entries", "languages": {lang: rows}, "annotators", "files"}``.

    Raises :class:`FbagentError` for what :func:`fbagent.publish.jsonl.export_records` refuses (unknown run,
    no entries, ``validated`` without judgments), a licence that is not a Hub licence id or that drops a term
    of a source without ``force_license`` (:func:`fbagent.publish.licensing.decide`), a ``repo_id``
    that is not ``owner/name``, a missing ``publish`` extra, or an output folder that cannot be replaced
    (:func:`fbagent.publish.folder.check_target`).
    """
    scope, options = scope or Scope(), options or HfOptions()
    _check_options(options)
    for module in ("datasets", "pyarrow", "huggingface_hub"):
        require(module)
    check_target(out)
    records = export_records(db, fmt="fbagent", **scope.export_options())
    require_kept(db, records, scope.export_options())
    facts = provenance(db, records, scope, options.annotator_names)
    lic = decide(lexicons(facts), options.license, options.force_license)  # refused before anything is written
    with staged_folder(out) as tmp:
        return _write(db, tmp, records, (scope, facts, lic), options, lmeval or LmEvalOptions(), folder=out.name)


def _check_options(options: HfOptions) -> None:
    if options.license is not None and not _LICENSE_RE.match(options.license):
        raise FbagentError(f"licence {options.license!r} is not a Hugging Face licence id",
                           "pass --license with an id such as cc-by-4.0, cc-by-sa-4.0, apache-2.0 or other")
    if options.repo_id is not None and not _REPO_RE.match(options.repo_id):
        raise FbagentError(f"--repo-id {options.repo_id!r} is not a Hub dataset id",
                           "pass --repo-id OWNER/NAME (letters, digits, '-', '_', '.'), e.g. my-lab/framebench-en")


def _write(db: sqlite_utils.Database, tmp: Path, records: list[dict],
           decided: tuple[Scope, dict[str, Any], Licensing], options: HfOptions, lmeval: LmEvalOptions,
           folder: str = "hf") -> dict[str, Any]:
    """Write the Parquet files, the lm-eval folder, the card and the marker into the staged folder ``tmp`` (of the
    export folder named ``folder``; ``decided``: the scope, the card's facts and its licence)."""
    scope, facts, lic = decided
    facts = dict(facts)
    aliases, numbers = facts.pop("aliases"), facts.pop("numbers")
    n_annotators = max([FRAMEBENCH_MIN_ANNOTATORS, *numbers.values()])
    feats = features(n_annotators)
    languages = sorted({r["language"] for r in records})
    configs = configs_for(languages)
    counts = dict(sorted(Counter(r["language"] for r in records).items()))
    pretty = options.pretty_name or ("FrameBench-style frame-semantic benchmark ("
                                     + ", ".join(language_name(x) for x in languages) + ")")

    import pyarrow.parquet as pq
    from datasets import Dataset

    files = []
    rows_by_lang = {lang: [hf_row(r, aliases, n_annotators, numbers) for r in records if r["language"] == lang]
                    for lang in languages}
    for lang in languages:
        rel = DATA_FILE.format(lang=lang)
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        # the Arrow table keeps the features in its schema metadata ("huggingface"); no progress bar
        pq.write_table(Dataset.from_list(rows_by_lang[lang], features=feats).data.table, tmp / rel)
        files.append(rel)
    (tmp / LM_EVAL_DIR).mkdir()
    tasks = write_tasks(tmp / LM_EVAL_DIR, plan_tasks(records, lmeval), scope, lmeval)
    card = CardInputs(facts=facts, pretty_name=pretty, options=options, configs=configs, counts=counts,
                      template_sets={lang: load_template_set(lang) for lang in languages}, n_annotators=n_annotators,
                      example=rows_by_lang[languages[0]][0], tasks=tasks,
                      contributed=contributed_sections(db, records, facts), homepage=source_repository(options.homepage),
                      licensing=lic, folder=folder)
    write_text(tmp, "README.md", render_card(card))
    write_marker(tmp, {"format": f"fbagent-hf/{FORMAT_VERSION}", "entries": len(records), "languages": counts,
                       "scope": facts["scope"], "annotators": len(aliases),
                       "annotator_names": options.annotator_names, "license": lic.licence, "license_how": lic.how,
                       "repo_id": options.repo_id, "files": ["README.md", *files, f"{LM_EVAL_DIR}/"]})
    return {"entries": len(records), "languages": counts, "annotators": len(aliases),
            "files": ["README.md", *files, f"{LM_EVAL_DIR}/"], "license": lic.licence, "license_how": lic.how,
            "license_dropped": lic.dropped}
