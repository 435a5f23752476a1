"""Options of the publishing exports: which entries (:class:`Scope`), the HF card (:class:`HfOptions`)
and the lm-eval problems (:class:`LmEvalOptions`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fbagent.eval.choices import ALL_TEMPLATES, DEFAULT_ORDERS
from fbagent.seeds import DEFAULT_SEED
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.validation.aggregate import DEFAULT_MIN_ACCEPTABLE, DEFAULT_MIN_CORRECT

DEFAULT_LICENSE = "cc-by-4.0"  # FrameNet data is distributed under CC BY; change it with --license


@dataclass(frozen=True)
class Scope:
    """Which entries are exported (as ``fbagent export``): one ``run`` (name or id, None = all),
    ``validated`` (only entries passing the human filter, FrameBench 3.2), the filter thresholds and
    the item ``statuses``."""

    run: str | None = None
    validated: bool = False
    min_correct: int = DEFAULT_MIN_CORRECT
    min_acceptable: int = DEFAULT_MIN_ACCEPTABLE
    statuses: tuple[str, ...] = ANNOTATED_STATUSES
    exclude: tuple[str, ...] = ()      # entry ids left out (export --exclude-shortcut: the audit's flags)

    def export_options(self) -> dict:
        """Keyword arguments of :func:`fbagent.publish.jsonl.export_records`."""
        return {"run": self.run, "validated": self.validated, "min_correct": self.min_correct,
                "min_acceptable": self.min_acceptable, "statuses": tuple(self.statuses), "exclude": self.exclude}


@dataclass(frozen=True)
class HfOptions:
    """The Hugging Face folder: ``annotator_names`` (publish annotator names; default: anonymised
    ``annotator_1..n``), the card's ``license`` (a Hub licence id), ``pretty_name`` (None: made
    from the languages), ``repo_id`` (the Hub dataset id, ``owner/name``, that the card's
    ``load_dataset`` and upload commands use; None: they say what to put), ``homepage`` (fbagent's
    source repository for the install line; None: the ``[project.urls]`` of the installed package)
    and ``curators`` (who curated the data, for the card's Curators section; None: not named)."""

    annotator_names: bool = False
    license: str = DEFAULT_LICENSE
    pretty_name: str | None = None
    repo_id: str | None = None
    homepage: str | None = None
    curators: str | None = None


@dataclass(frozen=True)
class LmEvalOptions:
    """The problems of the lm-eval task folder, as ``fbagent eval run`` builds them: ``seed`` (option
    orders), ``templates`` (``all`` or names), ``templates_dir`` (a folder in the FrameBench authors'
    layout; None: fbagent's templates), ``choices_style`` (``inline`` | ``lines`` | None),
    ``templates_lang`` (one language's templates for every entry), ``orders`` (``both`` |
    ``canonical``) and ``labels_file`` (the four option labels from this file, as ``eval run
    --labels``: :func:`fbagent.eval.templates.read_labels_file`; None: the templates' own)."""

    seed: int = DEFAULT_SEED
    templates: str = ALL_TEMPLATES
    templates_dir: Path | None = None
    choices_style: str | None = None
    templates_lang: str | None = None
    orders: str = DEFAULT_ORDERS
    labels_file: Path | None = None
