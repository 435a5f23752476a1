"""``fbagent export``: one entry point that writes any format of :data:`fbagent.publish.formats.FORMATS`.

:func:`export_entries` checks the format, then calls its writer from :data:`WRITERS` (one per format name):
:func:`fbagent.publish.jsonl.export` for the JSONL formats, :func:`fbagent.publish.hf.export_hf` and
:func:`fbagent.publish.lmeval.export_lmeval` for the folders.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlite_utils

from fbagent.publish import jsonl
from fbagent.publish.formats import check_format
from fbagent.publish.hf import export_hf
from fbagent.publish.lmeval import export_lmeval
from fbagent.publish.options import HfOptions, LmEvalOptions, Scope


def _jsonl(fmt: str) -> Callable[..., dict[str, Any]]:
    def write(db: sqlite_utils.Database, out: Path, scope: Scope, hf: HfOptions, lmeval: LmEvalOptions) -> dict:
        return {"entries": jsonl.export(db, out, hf.annotator_names, fmt=fmt, **scope.export_options())}
    return write


def _hf(db: sqlite_utils.Database, out: Path, scope: Scope, hf: HfOptions, lmeval: LmEvalOptions) -> dict:
    return export_hf(db, out, scope, hf, lmeval)


def _lmeval(db: sqlite_utils.Database, out: Path, scope: Scope, hf: HfOptions, lmeval: LmEvalOptions) -> dict:
    return export_lmeval(db, out, scope, lmeval)


# one writer per name of fbagent.publish.formats.FORMATS (a test checks that they match)
WRITERS: dict[str, Callable[..., dict[str, Any]]] = {
    "fbagent": _jsonl("fbagent"),
    "framebench": _jsonl("framebench"),
    "hf": _hf,
    "lm-eval": _lmeval,
}


def export_entries(db: sqlite_utils.Database, out: Path, fmt: str, scope: Scope | None = None,
                   hf: HfOptions | None = None, lmeval: LmEvalOptions | None = None) -> dict[str, Any]:
    """Write ``scope``'s entries of ``db`` to ``out`` in format ``fmt``; returns the writer's summary
    (always ``{"entries": n, ...}``; hf adds ``languages``/``annotators``/``files``, lm-eval
    ``problems``/``tasks``/``groups``).

    Raises :class:`FbagentError` for an unknown format and for what the writer refuses (unknown run, no
    entries, ``validated`` without judgments, an output that cannot be replaced); nothing is written then.
    """
    check_format(fmt)
    return WRITERS[fmt](db, out, scope or Scope(), hf or HfOptions(), lmeval or LmEvalOptions())
