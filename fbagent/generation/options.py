"""Options and identity of a generation run: :class:`GenerateOptions`, their checks, the default run
name (a hash of the options that change results), and whether an existing run may continue."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from fbagent.checks.defaults import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_NEAR_COPY_THRESHOLD,
    DEFAULT_SIMILARITY_THRESHOLD,
)
from fbagent.errors import FbagentError
from fbagent.limits import check_count
from fbagent.pairs.options import SelectionOptions
from fbagent.providers.config import (
    DEFAULT_PROMPT_STYLE,
    GENERATION_MAX_TOKENS,
    GENERATION_VARIANT_TEMPERATURE,
    ModelConfig,
)
from fbagent.providers.names import EMBEDDED_ENGINE
from fbagent.store.db import tidy_wal
from fbagent.store.rows import LexiconRow, RunRow
from fbagent.verifier.run_models import RunModels, prompt_styles
from fbagent.verifier.settings import DEFAULT_SIGNAL, VerifierOptions

# The options that change what is generated, in the order they are stored with a run.
#: generators whose provider has a batch API (``generate --batch``)
BATCH_BACKENDS = ("openai", "gemini")
RESULT_KEYS = ("pairs", "per_pair", "seed", "generator", "model", "verifier_generator", "verifier_model", "encoder",
               "max_retries", "similarity_threshold", "near_copy_threshold", "margin", "max_per_verb", "screen",
               "judge", "variant_temperature", "max_tokens")
# Pair-eligibility options (those of `fbagent pairs select`). They change results too, but join the result
# options only when they differ from their defaults, so that runs named before they existed keep their names.
ELIGIBILITY_KEYS = ("min_examples", "require_definition", "require_core_fe", "exclude_related", "protocol",
                    "shared_with")
# Verifier options that came later (``--signal``, stored as ``verifier``): like the eligibility options, they
# join the result options only when they differ from these defaults, so that runs named before they existed keep
# their names.
VERIFIER_DEFAULTS = {"verifier": DEFAULT_SIGNAL}
# The prompt style (``--prompt-style``, fbagent.providers.prompt_style), with the same rule.
PROMPT_STYLE_DEFAULTS = {"prompt_style": DEFAULT_PROMPT_STYLE}
# The verb check's accepted fallback (``--surface-verb-match``, fbagent.checks.lemmas.require_verb_analyser), same rule.
VERB_MATCH_DEFAULTS = {"surface_verb_match": VerifierOptions.surface_verb_match,
                       "verb_check": VerifierOptions.verb_check}
#: LangGraph checkpoint durabilities (``sync``: each step's checkpoint written before the next step) and the default
DURABILITIES = ("sync", "async", "exit")
Durability = Literal["sync", "async", "exit"]   # LangGraph's checkpoint durability (one of DURABILITIES)
DEFAULT_DURABILITY: Durability = "sync"
#: ``--pairs`` of a :class:`GenerateOptions` built without one (the command requires it: fbagent.pairs.options.PAIRS_HELP)
GENERATE_PAIRS = 10


def eligibility_defaults() -> dict[str, Any]:
    """``{eligibility option: default}``, the defaults of :class:`fbagent.pairs.select.SelectionOptions`."""
    defaults = SelectionOptions()
    return {k: _flat_value(getattr(defaults, k)) for k in ELIGIBILITY_KEYS}


def _flat_value(value: Any) -> Any:
    """An option as runs store it: a tuple of names (``shared_with``) as one comma-separated string."""
    return ",".join(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class RunOptions:
    """What one ``fbagent generate`` run does with its selected pairs (the run group).

    ``lexicon``: lexicon name (``None``: the only/first one); ``name``: run name (``None``:
    :func:`default_run_name`); ``dry_run``: plan only; ``durability``: checkpoint writes, ``sync`` |
    ``async`` | ``exit``; ``max_retries``: new generate_base / extend attempts after a failed self-check;
    ``similarity_threshold``: minimum lexical similarity of S_A and S_B, verb masked (0..1);
    ``near_copy_threshold``: S_x' must be less similar than this to S_x (0..1); ``screen``: LLM
    screening of the selected pairs, ``None``: on for a chat model, off for a base model
    (:func:`default_screen`); ``variant_temperature``: sampling temperature of the extensions;
    ``max_tokens``: per LLM answer.
    """

    lexicon: str | None = None
    name: str | None = None
    dry_run: bool = False
    durability: Durability = DEFAULT_DURABILITY
    max_retries: int = DEFAULT_MAX_RETRIES
    similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD
    near_copy_threshold: float = DEFAULT_NEAR_COPY_THRESHOLD
    screen: bool | None = None
    variant_temperature: float = GENERATION_VARIANT_TEMPERATURE
    max_tokens: int = GENERATION_MAX_TOKENS
    #: ``--max-cost``: US dollars the run may spend in all (:mod:`fbagent.generation.budget`); ``None``: no cap
    max_cost: float | None = None
    #: ``--batch``: each wave of the entry graph's requests as one provider batch job (:mod:`fbagent.generation.batch`);
    #: how the requests travel, not what they ask: not a result option (the run's name does not change)
    batch: bool = False


def _generate_selection() -> SelectionOptions:
    return SelectionOptions(pairs=GENERATE_PAIRS)


@dataclass(frozen=True)
class GenerateOptions:
    """Every option of ``fbagent generate`` (see ``fbagent generate --help`` for units and defaults), in four
    groups, each frozen: ``models`` (:class:`fbagent.verifier.run_models.RunModels`: the generator's
    :class:`~fbagent.providers.config.ModelConfig`, the verifier's model, the encoder; shared with
    ``fbagent verifier calibrate``), ``verifier`` (:class:`fbagent.verifier.settings.VerifierOptions`: signal,
    margin, verb check, judge; shared too), ``selection`` (:class:`fbagent.pairs.select.SelectionOptions`: the
    frame-pair selection of the run, as ``fbagent pairs select`` makes it) and ``run`` (:class:`RunOptions`).

    Never changed after parsing: the run resolves ``--margin auto`` and the default of ``--screen`` into a new
    object (``dataclasses.replace`` of the group).
    """

    models: RunModels = field(default_factory=RunModels)
    verifier: VerifierOptions = field(default_factory=VerifierOptions)
    selection: SelectionOptions = field(default_factory=_generate_selection)
    run: RunOptions = field(default_factory=RunOptions)

    def flat(self) -> dict[str, Any]:
        """The options under the flat keys runs have always stored (``RESULT_KEYS``, ``ELIGIBILITY_KEYS``,
        ``verifier`` = the signal, ``prompt_style``, ``surface_verb_match``, ``verb_check``, and the request
        limits of :meth:`fbagent.verifier.run_models.RunModels.flat`)."""
        sel, ver, run = self.selection, self.verifier, self.run
        return {**self.models.flat(),
                "pairs": sel.pairs, "per_pair": sel.per_pair, "seed": sel.seed, "max_per_verb": sel.max_per_verb,
                "min_examples": sel.min_examples, "require_definition": sel.require_definition,
                "require_core_fe": sel.require_core_fe, "exclude_related": sel.exclude_related,
                "protocol": sel.protocol, "shared_with": _flat_value(sel.shared_with), "max_retries": run.max_retries,
                "similarity_threshold": run.similarity_threshold, "near_copy_threshold": run.near_copy_threshold,
                "screen": run.screen, "variant_temperature": run.variant_temperature, "max_tokens": run.max_tokens,
                "margin": ver.margin, "judge": ver.judge, "verifier": ver.signal,
                "surface_verb_match": ver.surface_verb_match, "verb_check": ver.verb_check}

    def result_options(self) -> dict[str, Any]:
        """The options that change what is generated (stored with the run, hashed into its default name),
        under their flat keys (:meth:`flat`).

        The eligibility options (and the signal, prompt style and verb check) appear only when they differ
        from their defaults.
        """
        flat = self.flat()
        out = {k: flat[k] for k in RESULT_KEYS}
        for defaults in (eligibility_defaults(), VERIFIER_DEFAULTS, PROMPT_STYLE_DEFAULTS, VERB_MATCH_DEFAULTS):
            out.update({k: flat[k] for k, v in defaults.items() if flat[k] != v})
        return out


def style_note(opts: GenerateOptions, generator_style: str) -> str | None:
    """One line for a base model (``fewshot`` style): which prompts it gets and, when ``--screen`` was
    not given, that LLM screening is off by default; ``None`` for a chat model."""
    if generator_style != "fewshot":
        return None
    why = ("--prompt-style fewshot" if opts.models.generator.prompt_style == "fewshot"
           else "the generator's GGUF has no chat template (a base model)")
    screening = ("; LLM screening is off by default for a base model (pass --screen to screen anyway)"
                 if opts.run.screen is None else "")
    return f"note: {why}: it gets few-shot completion prompts with worked examples{screening}"


def default_screen(generator_style: str) -> bool:
    """Whether LLM screening is on when ``--screen/--no-screen`` is not given: on for a chat model, off
    for a base model (``fewshot``), whose yes/no answers are not reliable enough to drop pairs."""
    return generator_style != "fewshot"


def validate_options(opts: GenerateOptions) -> GenerateOptions:
    """``opts`` checked, with canonical backend names: raise :class:`FbagentError` (one line, with the fix)
    for the first impossible option value.

    Backend names are checked here, before anything is stored, and aliases become the
    canonical names of :mod:`fbagent.providers` (``llama.cpp`` -> ``llamacpp``), so a
    run's name and options never depend on the spelling. Returns a new object (``opts`` is frozen).
    """
    models = opts.models.checked()   # backend names, base URLs, concurrency, LLM retries, timeout, prompt style
    if opts.run.batch and models.generator.backend not in BATCH_BACKENDS:
        raise FbagentError(f"--batch needs a generator with a batch API, not --generator {models.generator.backend}",
                           f"use --generator {' or '.join(BATCH_BACKENDS)}, or drop --batch")
    if opts.run.batch:
        check_batch_transport(models.generator)
    opts.verifier.check()   # margin, signal, target precision
    models.check_model_files()   # a --model-path that is not there: before the lexicon is read
    opts.selection.check()   # seed, pairs, per-pair, max-per-verb, min-examples
    run = opts.run
    check_count("--max-retries", run.max_retries)
    if not 0.0 <= run.similarity_threshold <= 1.0:
        raise FbagentError(f"--similarity-threshold must be in [0, 1], got {run.similarity_threshold}",
                           "pass a value such as 0.5")
    if not 0.0 < run.near_copy_threshold <= 1.0:
        raise FbagentError(f"--near-copy-threshold must be in (0, 1], got {run.near_copy_threshold}",
                           "pass a value such as 0.7")
    if run.durability not in DURABILITIES:
        raise FbagentError(f"unknown checkpoint durability {run.durability!r}", "use sync, async or exit")
    return replace(opts, models=models)


def check_batch_transport(config: ModelConfig) -> None:
    """Raise :class:`FbagentError` where an OpenAI generator's batch lines could not be its direct requests:
    several ``--base-url`` (a batch goes to one server), or ``FBAGENT_OPENAI_MODE`` /
    ``FBAGENT_OPENAI_TRANSPORT`` other than the default JSON-schema mode over the direct transport."""
    if config.backend != "openai":
        return
    if len(config.base_urls) > 1:
        raise FbagentError(f"--batch sends each wave to one server, and {len(config.base_urls)} --base-url are given",
                           "pass one --base-url with --batch")
    mode = (os.environ.get("FBAGENT_OPENAI_MODE") or "json_schema").strip().lower()
    transport = (os.environ.get("FBAGENT_OPENAI_TRANSPORT") or "direct").strip().lower()
    if (mode, transport) != ("json_schema", "direct"):
        raise FbagentError(f"--batch sends JSON-schema requests, not FBAGENT_OPENAI_MODE={mode} / "
                           f"FBAGENT_OPENAI_TRANSPORT={transport}", "unset both variables, or drop --batch")


def default_run_name(lexicon: str, opts: GenerateOptions) -> str:
    """``<lexicon>-<generator>-s<seed>-<8 hex of the result options>``: same command, same run."""
    doc = json.dumps({"lexicon": lexicon, **opts.result_options()}, sort_keys=True, default=str)
    digest = hashlib.sha256(doc.encode()).hexdigest()[:8]
    return f"{lexicon}-{opts.models.generator.backend}-s{opts.selection.seed}-{digest}"


def checkpoint_path(db_path: str | Path) -> Path:
    """Where LangGraph checkpoints live: ``<db folder>/<db stem>.checkpoints.db``."""
    p = Path(db_path)
    return p.with_name(p.stem + ".checkpoints.db")


def check_checkpoint_file(path: str | Path) -> Path:
    """``path`` when it can hold LangGraph checkpoints: missing (it is created), or an SQLite database
    (empty or with the checkpointer's tables) that passes ``PRAGMA quick_check``.

    Raises :class:`FbagentError` naming the checkpoint file itself (a folder, garbage, a truncated or
    corrupt database), with the fix: move it away; finished entries are in the main database and are
    not redone, only entries in flight when it was last written start again.
    """
    path = Path(path)
    fix = (f"move it away (mv {path} {path}.bad) and rerun: generate starts its checkpoints afresh; finished "
           "entries are stored in the database and are not redone")
    if path.parent.is_dir() and not os.access(path.parent, os.W_OK):   # before the file: it may be healthy
        raise FbagentError(f"the folder {path.parent} of the database and its checkpoint file {path.name} is "
                           "read-only (generate writes its checkpoints and SQLite's -wal files there)",
                           "get write permission on the folder, or copy the database into a writable folder "
                           "(fbagent db backup DEST --db ...) and pass --db DEST")
    if not path.exists():
        return path
    if path.is_dir():
        raise FbagentError(f"the checkpoint file {path} is a folder, not an SQLite file", fix)
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
            tidy_wal(path)   # a read-only look leaves no -wal/-shm beside the file
    except sqlite3.Error as err:
        raise FbagentError(f"the checkpoint file {path} is not a usable SQLite database ({err})", fix) from err
    if problems != ["ok"]:
        raise FbagentError(f"the checkpoint file {path} is corrupt ({'; '.join(problems[:2])})", fix)
    if tables and not tables & {"checkpoints", "writes"}:
        raise FbagentError(f"the checkpoint file {path} is another program's SQLite database "
                           f"(tables: {', '.join(sorted(tables)[:3])})", fix)
    return path


def check_engine(run: RunRow, stored: dict[str, object], generator: str) -> None:
    """A run of provider ``local`` that stores no ``engine`` was made by llama.cpp (fbagent ran ``local`` on
    llama-cpp-python until issue 42; the same run name, since the engine is no result option): the embedded
    engine (:data:`~fbagent.providers.names.EMBEDDED_ENGINE`) does not continue its entries with answers of
    another engine. ``generator`` is the one asked for now; ``llamacpp`` continues such a run (``stored`` then
    says ``llamacpp``, so that the generator compares equal). Raises :class:`FbagentError` for ``local``."""
    if stored.get("generator") != "local" or "engine" in (run.get("options") or {}):
        return
    if generator == "llamacpp":
        stored["generator"] = "llamacpp"
        return
    if generator == "local":
        raise FbagentError(
            f"run {run['name']!r} was made by provider 'local' before it ran on {EMBEDDED_ENGINE} (fbagent ran "
            "'local' on llama.cpp until then, and the run stores no engine): its entries are llama.cpp's, and this "
            "engine does not continue them",
            f"pass --run NEW_NAME for a new run on the embedded engine, or resume this one on llama.cpp: pip install "
            f"-e '.[llama]', then add --generator llamacpp --run {run['name']}")


def check_compatible(run: RunRow, lexicon: LexiconRow, opts: GenerateOptions) -> None:
    """An existing run continues only with the same lexicon and result options.

    Raises :class:`FbagentError` naming each option that differs (stored -> given).
    Eligibility options a run stored nothing for count as their defaults (so does ``prompt_style``);
    a run that stored the prompt styles its models got (``prompt_styles``) continues only with the
    same ones (``auto`` may resolve differently for another model file).
    """
    if run.get("kind") not in (None, "generate"):
        raise FbagentError(f"run {run['name']!r} is a {run['kind']} run, not a generation run",
                           "pass another --run NAME")
    if run.get("lexicon_id") != lexicon["id"]:
        raise FbagentError(f"run {run['name']!r} was made on another lexicon", "pass --run NEW_NAME or the same --lexicon")
    stored = (dict(eligibility_defaults()) | VERIFIER_DEFAULTS | PROMPT_STYLE_DEFAULTS | VERB_MATCH_DEFAULTS
              | (run.get("options") or {}))
    for column in ("generator", "seed"):  # always stored as columns, even by runs that stored no options
        if run.get(column) is not None:
            stored.setdefault(column, run[column])
    flat = opts.flat()
    check_engine(run, stored, str(flat["generator"]))
    wanted = {k: flat[k] for k in (*RESULT_KEYS, *ELIGIBILITY_KEYS, *VERIFIER_DEFAULTS, *PROMPT_STYLE_DEFAULTS,
                                   *VERB_MATCH_DEFAULTS)}
    if "prompt_styles" in stored:
        generator, verifier = prompt_styles(opts.models)
        wanted["prompt_styles"] = {"generator": generator, "verifier": verifier}
    diff = [k for k, v in wanted.items() if k in stored and stored[k] != v]
    if diff:
        shown = ", ".join(f"{k}: {stored[k]!r} -> {wanted[k]!r}" for k in diff)
        raise FbagentError(f"run {run['name']!r} exists with other options ({shown})",
                           "rerun with the run's options to resume it, or pass --run NEW_NAME")

