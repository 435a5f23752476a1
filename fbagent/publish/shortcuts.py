"""The shortcut audit (:mod:`fbagent.audit`) over what ``fbagent export`` writes: a run's entries, the
ids ``export --exclude-shortcut`` leaves out, and the dataset card's "Known shortcuts" section
(a contributor of :mod:`fbagent.publish.sections`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sqlite_utils

from fbagent.audit.audit import AuditOptions, run_audit
from fbagent.audit.render import known_shortcuts_section
from fbagent.audit.sources import AuditInput, lexicon_facts, record_entries
from fbagent.errors import FbagentError
from fbagent.publish.jsonl import export_records
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.store.lexicon import get_lexicon
from fbagent.store.runs import get_run

if TYPE_CHECKING:
    from fbagent.audit.audit import AuditResult
    from fbagent.audit.baselines import Embed


def run_entries(db: sqlite_utils.Database, run: str, statuses: Sequence[str] | None = None) -> AuditInput:
    """The entries of generation run ``run`` (name or id) with items of ``statuses`` (default: verified,
    flagged) as ``export`` writes them, with the run's lexicon facts. Raises :class:`FbagentError` for an
    unknown run or no entry."""
    row = get_run(db, run)
    if row is None:
        raise FbagentError(f"no run named {run!r}", "see the names with: fbagent runs list")
    records = export_records(db, run=run, statuses=tuple(statuses or ANNOTATED_STATUSES))
    definitions, relations = lexicon_facts(db, lexicon_id) if (lexicon_id := row["lexicon_id"]) else ({}, None)
    return AuditInput(record_entries(records), f"run {row['name']}", definitions, relations)


def records_facts(db: sqlite_utils.Database, records: Sequence[dict[str, Any]]) -> tuple[dict[str, str], Any]:
    """Frame definitions and relations of the records' lexicon when they all name one stored lexicon,
    else ``({}, None)`` (frame names only, relations unknown)."""
    names = {r.get("lexicon") for r in records}
    row = get_lexicon(db, str(next(iter(names)))) if len(names) == 1 and None not in names else None
    return lexicon_facts(db, row["id"]) if row else ({}, None)


def shortcut_ids(db: sqlite_utils.Database, export_options: dict[str, Any], *, embed: Embed | None = None,
                 encoder: str | None = None) -> tuple[list[str], AuditResult]:
    """The ids of the entries the audit flags ``shortcut`` among those an export with ``export_options``
    (:meth:`fbagent.publish.options.Scope.export_options`) would write, and the audit result (run with
    ``embed``, as ``fbagent audit`` runs by default)."""
    records = export_records(db, fmt="fbagent", **export_options)
    definitions, relations = records_facts(db, records)
    result = run_audit(record_entries(records), AuditOptions(encoder=encoder), definitions=definitions,
                       relations=relations, embed=embed)
    return result["flagged"], result


def known_shortcuts(db: sqlite_utils.Database, records: list[dict[str, Any]], facts: dict[str, Any]) -> str:
    """The card's "Known shortcuts" section for the exported ``records``: the audit's baselines without the
    sentence encoder (an export loads no model; ``fbagent audit`` adds it), seed 0."""
    if not records:
        return known_shortcuts_section(None)
    definitions, relations = records_facts(db, records)
    section = known_shortcuts_section(run_audit(record_entries(records), AuditOptions(), definitions=definitions,
                                                relations=relations))
    return section + "\n" + inputs_note(records, relations is not None) + "\n"


def inputs_note(records: Sequence[dict[str, Any]], with_lexicon: bool) -> str:
    """What the card's audit read, and the ``fbagent audit`` command that reproduces it on the published
    folder: the exported rows, seed 0, no encoder, and (``with_lexicon``) the frame definitions and relations
    of the records' lexicon from the exporter's database, which the folder does not carry."""
    n = len(records)
    rows = f"the {n:,} exported {'entry' if n == 1 else 'entries'} (the rows of this folder), seed 0, no sentence encoder"
    if not with_lexicon:
        return (f"Inputs: {rows}, frame names only (no frame definitions or relations). Reproduce from this folder with "
                "`fbagent audit --dataset . --no-encoder`.")
    name = next(iter({r.get("lexicon") for r in records}))
    return (f"Inputs: {rows}, and the frame definitions and relations of lexicon `{name}` from the exporter's "
            "database, which this folder does not carry. Reproduce with "
            f"`fbagent audit --dataset . --lexicon {name} --no-encoder --db DB` against a database holding that "
            "lexicon; `fbagent audit --dataset .` alone knows frame names only, so baselines that read frame "
            "definitions or relations may give another verdict.")
