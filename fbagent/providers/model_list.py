"""A list of models for one evaluation (``fbagent eval run --model A --model B`` or ``--models FILE``).

The file is TOML, one ``[[model]]`` table per model; each key is a model option of ``eval run`` under its
Python name (``backend``, ``model``, ``base_url`` (a URL or a list), ``model_path``, ``tensor_parallel_size``,
``gpu_memory_utilization``, ``max_model_len``, ``n_ctx``, ``device``, ``dtype``, ``chat``, ``reasoning``,
``end_think_tag``, ``max_think_tokens``, ``max_retries``, ``timeout``, ``extra_body``) plus ``label`` (the name
reports show). A key left out takes the value given on the command line (or its default)::

    [[model]]
    backend = "openai"
    model = "gpt-4o-mini"
    label = "GPT-4o mini"

    [[model]]
    backend = "vllm"
    model = "/models/Qwen2.5-7B-Instruct"
    tensor_parallel_size = 2

Every model shares the command's seed, problems and templates (that is what makes the rows comparable).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.providers.config import ModelConfig

#: keys a ``[[model]]`` table may hold besides ``label``
MODEL_KEYS = ("backend", "model", "base_url", "model_path", "tensor_parallel_size", "gpu_memory_utilization",
              "max_model_len", "n_ctx", "device", "dtype", "chat", "reasoning", "end_think_tag", "max_think_tokens",
              "max_retries", "timeout", "extra_body")


@dataclass(frozen=True)
class ModelRun:
    """One model of a multi-model evaluation: its ``config`` and the ``label`` reports show (``None``: a
    short model name)."""

    config: ModelConfig
    label: str | None = None

    @property
    def folder(self) -> str:
        """The result sub-folder's name: ``<backend>-<label or model>``, path characters replaced by ``-``."""
        name = self.label or self.config.model or self.config.model_path or "default"
        return f"{self.config.backend}-{slug(name)}"


def slug(text: str) -> str:
    """``text`` as a folder name: a local path's last part, other characters than ``A-Za-z0-9._-`` -> ``-``,
    60 characters at most."""
    base = Path(text).name if "/" in text and Path(text).exists() else text
    return re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-")[:60] or "model"


def read_model_file(path: Path) -> list[dict[str, Any]]:
    """The ``[[model]]`` tables of ``path`` (see the module docstring), each a dict of option values.
    Raises :class:`FbagentError` for a missing or unreadable file, bad TOML, no ``[[model]]`` table, or an
    unknown key (named, with the keys allowed)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise FbagentError(f"cannot read --models {path} ({err.strerror})", "pass a TOML file of [[model]] tables") from err
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise FbagentError(f"--models {path} is not TOML ({err})", "write one [[model]] table per model (docs/eval.md)") from err
    tables = data.get("model")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise FbagentError(f"--models {path} has no [[model]] table", "write one [[model]] table per model (docs/eval.md)")
    for i, table in enumerate(tables, 1):
        unknown = sorted(set(table) - set(MODEL_KEYS) - {"label"})
        if unknown:
            raise FbagentError(f"--models {path}: model {i} has unknown key(s) {', '.join(unknown)}",
                               f"use only: label, {', '.join(MODEL_KEYS)}")
    return [dict(t) for t in tables]


def model_runs(cli: dict[str, Any], models: Sequence[str], tables: Sequence[dict[str, Any]],
               build: Callable[..., ModelConfig]) -> list[ModelRun]:
    """One :class:`ModelRun` per ``--models`` table, then per ``--model``: ``build(**values)`` (the registry's
    ``backend_options``) over the command line's values ``cli`` with the table's on top (``--model``: only the
    model differs). Raises :class:`FbagentError` when a model has no backend or two models would write to the
    same result folder."""
    runs: list[ModelRun] = []
    for values in [dict(t) for t in tables] + [{"model": m} for m in models]:
        label = values.pop("label", None)
        merged = {**cli, **values}
        if isinstance(merged.get("base_url"), str):
            merged["base_url"] = [merged["base_url"]]
        if not merged.get("backend"):
            raise FbagentError(f"model {merged.get('model')!r} has no backend",
                               "pass --backend, or give the model's table a backend key")
        runs.append(ModelRun(build(**merged), None if label is None else str(label)))
    seen: dict[str, int] = {}
    for r in runs:
        seen[r.folder] = seen.get(r.folder, 0) + 1
    twice = sorted(k for k, n in seen.items() if n > 1)
    if twice:
        raise FbagentError(f"two models would share the result folder {twice[0]}",
                           "give each a distinct label (a label key in --models)")
    return runs
