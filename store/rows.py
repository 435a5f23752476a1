"""Row shapes of the tables other rooms read (TypedDicts over what ``db.query`` returns), and JSON values.

A row is what ``SELECT *`` gives for its table (columns in schema order, see :mod:`fbagent.store.schema`), after
the store's own decoding where the function says so (``options`` of a run or a selection decoded from JSON, a
``seed`` read back with :func:`fbagent.seeds.from_sql`). sqlite-utils hands plain dicts: the query functions
:func:`typing.cast` them to these shapes at the one place each is read.

- :data:`JSONValue`, :data:`JSONObject` - a value ``json.loads`` can return (what JSON columns hold).
- :class:`LexiconRow` - ``lexicons``; :class:`SelectionRow` - ``selections`` (decoded);
  :class:`RunRow` - ``runs`` (decoded); :class:`RunSessionRow` - ``run_sessions``.
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict

JSONValue: TypeAlias = "str | int | float | bool | None | list[JSONValue] | dict[str, JSONValue]"
JSONObject: TypeAlias = "dict[str, JSONValue]"
#: the revisable text fields of an entry, ``{field: text}`` (:func:`fbagent.store.revisions.texts_at`)
ItemTexts: TypeAlias = "dict[str, str | None]"


class LexiconRow(TypedDict):
    """One ``lexicons`` row (an imported lexicon and its provenance, schema step 11)."""

    id: int
    name: str
    lang: str
    format: str
    source_path: str | None
    source_hash: str | None
    imported_at: str
    n_frames: int
    n_frame_elements: int
    n_lexical_units: int
    n_exemplars: int
    n_frame_relations: int
    license: str
    license_source: str
    citation: str
    url: str
    source_name: str
    reader: str


class LexiconName(TypedDict):
    """``id``, ``name`` and ``lang`` of a ``lexicons`` row (:func:`fbagent.store.lexicon.lexicons_by_id`)."""

    id: int
    name: str
    lang: str


class LexiconStats(TypedDict):
    """The counts of one lexicon (:func:`fbagent.store.lexicon.lexicon_stats`)."""

    frames: int
    frame_examples: int
    frame_elements: int
    core_frame_elements: int
    lexical_units: int
    lus_by_pos: dict[str, int]
    verbs: int
    polysemous_verbs: int
    candidate_pairs: int
    exemplars: int
    frame_relations: int


class FrameRow(TypedDict):
    """One ``frames`` row."""

    id: int
    lexicon_id: int
    frame_id: int | None
    name: str
    definition: str
    definition_markup: str


class LexicalUnitRow(TypedDict):
    """One ``lexical_units`` row."""

    id: int
    lexicon_id: int
    frame_pk: int
    lu_id: int | None
    name: str
    lemma: str
    pos: str
    definition: str
    n_annotated: int


class CoreFE(TypedDict):
    """A core frame element of :class:`FrameContext`."""

    name: str
    definition: str


class FrameExample(TypedDict):
    """An example sentence of :class:`FrameContext`: character offsets of the target, end exclusive, or None."""

    text: str
    target_start: int | None
    target_end: int | None
    source: str                     # exemplar | frame


class FrameContext(TypedDict):
    """What a generation prompt needs about one frame and verb (:func:`fbagent.store.lexicon.frame_context`)."""

    frame: str
    frame_id: int | None
    definition: str
    core_fes: list[CoreFE]
    lu: str | None
    lu_definition: str
    examples: list[FrameExample]


class RunRow(TypedDict):
    """One ``runs`` row, ``options`` and ``prompt_versions`` decoded and ``seed`` read back
    (:func:`fbagent.store.runs.get_run`). ``options`` is the JSON the run stored: its options, and a calibration's
    result and sentences (read by key path, shapes of :mod:`fbagent.verifier.calibration`)."""

    id: int
    name: str
    kind: str                       # generate | calibrate
    command: str
    lexicon_id: int | None
    selection_id: int | None
    generator: str | None
    model: str | None
    verifier_generator: str | None
    verifier_model: str | None
    encoder: str | None
    seed: int | None
    options: dict[str, Any]
    prompt_versions: dict[str, str]
    status: str                     # running | finished | interrupted
    created_at: str
    updated_at: str


class TokenUsage(TypedDict):
    """LLM requests of one task: calls, failed calls, tokens in and out."""

    calls: int
    failures: int
    input_tokens: int
    output_tokens: int


class RunUsage(TokenUsage):
    """LLM usage of a run (:func:`fbagent.store.runs.usage`): totals, cache hits and wall seconds summed over its
    sessions, and the same counts per task."""

    cache_hits: int
    wall_s: float
    by_task: dict[str, TokenUsage]


class RunListing(RunRow):
    """A run as :func:`fbagent.store.runs.list_runs` gives it: its row, items by status and its usage."""

    items: dict[str, int]
    usage: RunUsage


class ModelUsage(TypedDict):
    """Tokens of a run's requests to one model (:func:`fbagent.store.runs.usage_by_model`); ``batch``: answered by a
    provider batch job (priced at the batch discount), one row each way."""

    backend: str
    model: str
    batch: bool
    calls: int
    input_tokens: int
    output_tokens: int


class SessionCounts(TypedDict):
    """What a session that never finished did, counted from the rows it wrote
    (:func:`fbagent.store.runs.stale_session_counts`)."""

    entries_done: int
    calls: int
    failures: int
    input_tokens: int
    output_tokens: int
    ended_at: str


class RunSessionRow(TypedDict, total=False):
    """One ``run_sessions`` row (one invocation of a run); ``killed`` is set only in a read-only view of a session
    whose process is gone (:func:`fbagent.store.runs.sessions` with ``as_recovered``)."""

    id: int
    run_id: int
    started_at: str
    ended_at: str | None
    status: str                     # running | finished | interrupted | error
    command: str | None
    entries_done: int
    calls: int
    cache_hits: int
    failures: int
    input_tokens: int
    output_tokens: int
    wall_s: float | None
    pid: int | None
    host: str | None
    killed: bool


class RevisionRow(TypedDict):
    """One ``item_revisions`` row: a revised text field of an entry (or its ``unfixable`` mark, "0"/"1")."""

    id: int
    item_id: str
    field: str
    old: str | None
    new: str | None
    annotator: str
    created_at: str


class JudgmentRow(TypedDict):
    """One ``annotation_judgments`` row: a complete judgment (choice and acceptability) of one task on one text."""

    id: int
    task_id: int
    annotator: str
    item_id: str
    pair: str
    fingerprint: str
    choice: str
    correct: int
    acceptability: str
    acceptable: int
    judged_at: str
    source: str                     # app | migration


class AnnotationTaskRow(TypedDict):
    """One ``annotation_tasks`` row (an annotator x pair task and its current answer)."""

    id: int
    annotator: str
    item_id: str
    pair: str
    sort_key: float
    shown_first: str
    shown_second: str
    gold: str
    choice: str | None
    correct: int | None
    acceptability: str | None
    acceptable: int | None
    comment: str | None
    skipped: int
    seconds: float
    session_id: int | None
    created_at: str
    first_shown_at: str | None
    answered_at: str | None
    updated_at: str | None
    fingerprint: str | None


class HistoryRow(TypedDict):
    """One ``annotation_history`` row: an answer field's earlier value."""

    id: int
    task_id: int
    annotator: str
    field: str
    old: str | None
    new: str | None
    changed_at: str


class ExemplarRow(TypedDict):
    """An annotated exemplar sentence of an LU (:func:`fbagent.store.exemplars.lu_exemplars`): the character span of
    its target, end exclusive, or ``None`` where the exemplar has none."""

    id: int
    text: str
    target_start: int | None
    target_end: int | None


class VerbLU(TypedDict):
    """A verb LU with its exemplar count (:func:`fbagent.store.pairs.verb_lexical_units`); ``lemma`` is the
    grouping lemma (:func:`fbagent.framenet.lu_names.group_lemma`), ``lu`` the full LU name."""

    lemma: str
    lu: str
    frame: str
    n_exemplars: int


class AnnotatedVerbLU(TypedDict):
    """A verb LU as the FrameBench authors read it (:func:`fbagent.store.pairs.annotated_verb_lexical_units`)."""

    lu: str
    frame: str
    n_annotated: int


class FrameFacts(TypedDict):
    """What pair selection's filters ask of a frame (:func:`fbagent.store.pairs.frame_facts`)."""

    name: str
    has_definition: bool
    n_core_fes: int
    n_examples: int
