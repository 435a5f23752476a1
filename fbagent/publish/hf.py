"""``fbagent export --format hf DIR``: a Hugging Face dataset folder that ``datasets.load_dataset(DIR)``
loads as it is.

Layout::

    DIR/README.md                                 dataset card (YAML configs + sections, fbagent.publish.card)
    DIR/data/<lang>/test-00000-of-00001.parquet   one config per language, split "test"
    DIR/fbagent-export.json                       what was exported, how (no secrets)

Rows: :func:`fbagent.publish.rows.hf_row` (the fbagent fields plus the FrameBench authors' column
names), in the stable entry order, with the features of :func:`fbagent.publish.rows.features`
stored in the Parquet schema. The folder is written to a temporary folder and renamed
(:func:`fbagent.publish.folder.staged_folder`). Needs the ``publish`` extra (datasets, pyarrow,
huggingface_hub).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.publish.options import HfOptions, Scope

DATA_FILE = "data/{lang}/test-00000-of-00001.parquet"
FORMAT_VERSION = "1"
_LICENSE_RE = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")


def require(module: str) -> None:
    """Raise :class:`FbagentError` naming the ``publish`` extra when ``module`` cannot be imported."""
    import importlib.util

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


def export_hf(db: sqlite_utils.Database, out: Path, scope: Scope | None = None,
              options: HfOptions | None = None) -> dict[str, Any]:
    """Write the Hugging Face folder ``out``; returns ``{"entries", "languages": {lang: rows}, "annotators",
    "files"}``.

    Raises :class:`FbagentError` for what :func:`fbagent.publish.jsonl.export_records` refuses (unknown run,
    no entries, ``validated`` without judgments), a licence that is not a Hub licence id, a missing
    ``publish`` extra, or an output folder that cannot be replaced (:func:`fbagent.publish.folder.check_target`).
    """
    from fbagent.eval.templates import load_template_set
    from fbagent.publish.card import language_name, render_card
    from fbagent.publish.folder import check_target, staged_folder, write_marker, write_text
    from fbagent.publish.jsonl import export_records
    from fbagent.publish.provenance import provenance
    from fbagent.publish.rows import FRAMEBENCH_MIN_ANNOTATORS, features, hf_row

    scope, options = scope or Scope(), options or HfOptions()
    if not _LICENSE_RE.match(options.license):
        raise FbagentError(f"licence {options.license!r} is not a Hugging Face licence id",
                           "pass --license with an id such as cc-by-4.0, cc-by-sa-4.0, apache-2.0 or other")
    for module in ("datasets", "pyarrow", "huggingface_hub"):
        require(module)
    check_target(out)
    records = export_records(db, fmt="fbagent", **scope.export_options())
    facts = provenance(db, records, scope, options.annotator_names)
    aliases = facts.pop("aliases")
    n_annotators = max(FRAMEBENCH_MIN_ANNOTATORS, len(aliases))
    feats = features(n_annotators)
    languages = sorted({r["language"] for r in records})
    configs = configs_for(languages)
    counts = dict(sorted(Counter(r["language"] for r in records).items()))
    pretty = options.pretty_name or ("FrameBench-style frame-semantic benchmark ("
                                     + ", ".join(language_name(x) for x in languages) + ")")
    template_sets = {lang: load_template_set(lang) for lang in languages}

    import pyarrow.parquet as pq
    from datasets import Dataset

    files = []
    with staged_folder(out) as tmp:
        for lang in languages:
            rows = [hf_row(r, aliases, n_annotators) for r in records if r["language"] == lang]
            rel = DATA_FILE.format(lang=lang)
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            # the Arrow table keeps the features in its schema metadata ("huggingface"); no progress bar
            pq.write_table(Dataset.from_list(rows, features=feats).data.table, tmp / rel)
            files.append(rel)
        write_text(tmp, "README.md", render_card(facts=facts, pretty_name=pretty, license=options.license,
                                                 configs=configs, counts=counts, template_sets=template_sets,
                                                 n_annotators=n_annotators))
        write_marker(tmp, {"format": f"fbagent-hf/{FORMAT_VERSION}", "entries": len(records), "languages": counts,
                           "scope": facts["scope"], "annotators": len(aliases),
                           "annotator_names": options.annotator_names, "license": options.license,
                           "files": ["README.md", *files]})
    return {"entries": len(records), "languages": counts, "annotators": len(aliases), "files": ["README.md", *files]}
