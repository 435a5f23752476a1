"""The database schema: one SQL script per concept, applied idempotently.

Tables (field terms as in FrameNet / FrameBench):

- ``lexicons``: one row per imported FrameNet-style resource (``name`` unique), with its provenance
  (schema 11: licence, where the licence came from, citation, URL, release name, reader).
- ``frames``, ``frame_examples`` (``<ex>`` sentences of frame definitions),
  ``frame_elements``, ``lexical_units``, ``exemplars`` (annotated sentences of
  LUs), ``frame_relations``: the lexicon contents, keyed by ``lexicon_id``.
- ``selections``: one frame-pair selection run (seed, options, counts).
- ``frame_pairs``: candidate (verb, frame A, frame B) pairs chosen by a selection.
- ``runs``: one generation run (command line, backends, models, prompt
  versions, seeds, options).
- ``llm_calls``: every LLM request and response; the audit log and the cache
  (``cache_key`` = hash of backend, model, messages, response schema, params).
- ``items``: one benchmark entry (pair x k) with its question, four sentences,
  checks, verifier scores and status.
- ``item_revisions``: human revisions of item text (never an overwrite); ``field`` also takes
  ``question_four_choice``.
- ``run_sessions``: one row per invocation of a run, with its calls and cache hits.
- annotation tables (:data:`ANNOTATION_SQL`): annotators, their sessions, pair tasks, answer history and
  judgments; queried by :mod:`fbagent.store.annotations`.
- ``annotator_invites``, ``annotator_web_sessions`` (schema 6, :data:`INVITE_SQL`): invite links and
  browser sessions of ``annotate --serve``, hashes only; queried by :mod:`fbagent.store.invites`.
- ``baseline_tasks`` (schema 9, :data:`BASELINE_SQL`): the independent human baseline's problems and answers.
- ``annotator_languages`` (schema 8, :data:`COMPETENCE_SQL`): each annotator's language competence in
  each language, as the annotator stated it; queried by :mod:`fbagent.store.competence`.
- ``adjudications`` (schema 12, :data:`ADJUDICATION_SQL`): the lead's decision (keep, drop, second round) and
  reason on a disputed entry; queried by :mod:`fbagent.store.adjudications`.
- ``batch_jobs`` (schema 13, :data:`BATCH_SQL`): the provider batch jobs of ``generate --batch`` (job id, provider,
  model, the cache keys of its lines, state); queried by :mod:`fbagent.store.batch_jobs`.
- ``schema_migrations``: one row per upgrade of this file (from, to, when, backup copy).

``PRAGMA user_version`` records :data:`SCHEMA_VERSION`. A new file gets the
scripts below as they are; a file of an earlier version is upgraded in place
by the numbered steps of :mod:`fbagent.store.migrations` (one transaction,
after a backup copy beside the file); a file of a newer version is refused.
To change the schema: bump :data:`SCHEMA_VERSION`, add the step (frozen SQL,
idempotent) and change the script here so that new files match upgraded ones
(``tests/test_store_db.py`` compares them).
"""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store.migrations import (  # the steps load only for an old file
    Upgrade,
    run_script,
    upgrade,
)
from fbagent.store.transaction import transaction

SCHEMA_VERSION = 14

LEXICON_SQL = """
CREATE TABLE IF NOT EXISTS lexicons (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    lang TEXT NOT NULL,
    format TEXT NOT NULL,              -- nltk | jsonl | embedded
    source_path TEXT,
    source_hash TEXT,                  -- content hash of the imported files
    imported_at TEXT NOT NULL,
    n_frames INTEGER, n_frame_elements INTEGER, n_lexical_units INTEGER,
    n_exemplars INTEGER, n_frame_relations INTEGER,
    license TEXT NOT NULL DEFAULT 'unknown',        -- SPDX id where one exists, else the source's words (schema 11)
    license_source TEXT NOT NULL DEFAULT 'unknown', -- where the licence came from (known release, the file, --license)
    citation TEXT NOT NULL DEFAULT '',              -- BibTeX of the source
    url TEXT NOT NULL DEFAULT '',                   -- the source's home page or repository
    source_name TEXT NOT NULL DEFAULT '',           -- the release's name, e.g. FrameNet 1.5
    reader TEXT NOT NULL DEFAULT ''                 -- the reader that read it (nltk-xml, jsonl, ...)
);
CREATE TABLE IF NOT EXISTS frames (
    id INTEGER PRIMARY KEY,
    lexicon_id INTEGER NOT NULL REFERENCES lexicons(id) ON DELETE CASCADE,
    frame_id INTEGER,                  -- ID in the source resource
    name TEXT NOT NULL,
    definition TEXT NOT NULL DEFAULT '',          -- clean text, <ex> examples removed
    definition_markup TEXT NOT NULL DEFAULT '',   -- original FrameNet markup
    UNIQUE (lexicon_id, name)
);
CREATE TABLE IF NOT EXISTS frame_examples (
    id INTEGER PRIMARY KEY,
    frame_pk INTEGER NOT NULL REFERENCES frames(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    target_start INTEGER, target_end INTEGER      -- character span of <t>, end exclusive
);
CREATE TABLE IF NOT EXISTS frame_elements (
    id INTEGER PRIMARY KEY,
    frame_pk INTEGER NOT NULL REFERENCES frames(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    core_type TEXT NOT NULL,           -- Core | Core-Unexpressed | Peripheral | Extra-Thematic
    definition TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS lexical_units (
    id INTEGER PRIMARY KEY,
    lexicon_id INTEGER NOT NULL REFERENCES lexicons(id) ON DELETE CASCADE,
    frame_pk INTEGER NOT NULL REFERENCES frames(id) ON DELETE CASCADE,
    lu_id INTEGER,                     -- ID in the source resource
    name TEXT NOT NULL,                -- e.g. leave.v
    lemma TEXT NOT NULL,               -- e.g. leave
    pos TEXT NOT NULL,                 -- upper case: V, N, A, ADV, PREP, ...
    definition TEXT NOT NULL DEFAULT '',
    n_annotated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS lexical_units_lemma ON lexical_units (lexicon_id, pos, lemma);
CREATE TABLE IF NOT EXISTS exemplars (
    id INTEGER PRIMARY KEY,
    lu_pk INTEGER NOT NULL REFERENCES lexical_units(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    target_start INTEGER, target_end INTEGER      -- character span of the target, end exclusive
);
CREATE INDEX IF NOT EXISTS exemplars_lu ON exemplars (lu_pk);
CREATE TABLE IF NOT EXISTS frame_relations (
    id INTEGER PRIMARY KEY,
    lexicon_id INTEGER NOT NULL REFERENCES lexicons(id) ON DELETE CASCADE,
    type TEXT NOT NULL,                -- Inheritance, Subframe, Perspective_on, Using, ...
    super_frame TEXT NOT NULL,
    sub_frame TEXT NOT NULL
);
-- child-key indexes: re-import deletes and frame_context() look rows up by these
CREATE INDEX IF NOT EXISTS frames_lexicon ON frames (lexicon_id, name);
CREATE INDEX IF NOT EXISTS frame_examples_frame ON frame_examples (frame_pk);
CREATE INDEX IF NOT EXISTS frame_elements_frame ON frame_elements (frame_pk);
CREATE INDEX IF NOT EXISTS lexical_units_frame ON lexical_units (frame_pk);
CREATE INDEX IF NOT EXISTS frame_relations_lexicon ON frame_relations (lexicon_id);
"""

PAIRS_SQL = """
CREATE TABLE IF NOT EXISTS selections (
    id INTEGER PRIMARY KEY,
    lexicon_id INTEGER NOT NULL REFERENCES lexicons(id) ON DELETE CASCADE,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,             -- JSON
    counts TEXT NOT NULL,              -- JSON: candidates, excluded by reason, selected
    created_at TEXT NOT NULL,
    protocol TEXT NOT NULL DEFAULT 'fbagent'   -- fbagent (stratified, filtered) | framebench (the authors' rules)
);
CREATE TABLE IF NOT EXISTS frame_pairs (
    id INTEGER PRIMARY KEY,
    selection_id INTEGER NOT NULL REFERENCES selections(id) ON DELETE CASCADE,
    rank INTEGER NOT NULL,             -- order in the seeded sample (0-based); reserve pairs follow
    verb TEXT NOT NULL,                -- lemma
    lu_a TEXT NOT NULL, lu_b TEXT NOT NULL,          -- LU names, e.g. leave.v
    frame_a TEXT NOT NULL, frame_b TEXT NOT NULL,
    per_pair INTEGER NOT NULL DEFAULT 1,             -- entries to generate for this pair
    status TEXT NOT NULL DEFAULT 'selected',         -- selected | reserve | screened_out
    reason TEXT                                      -- why screened out
);
CREATE INDEX IF NOT EXISTS frame_pairs_selection ON frame_pairs (selection_id, status, rank);
"""

GENERATION_SQL = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL DEFAULT 'generate',
    command TEXT NOT NULL,
    lexicon_id INTEGER REFERENCES lexicons(id),
    selection_id INTEGER REFERENCES selections(id),
    generator TEXT, model TEXT, verifier_generator TEXT, verifier_model TEXT,
    encoder TEXT,
    seed INTEGER,
    options TEXT NOT NULL DEFAULT '{}',          -- JSON
    prompt_versions TEXT NOT NULL DEFAULT '{}',  -- JSON: task -> version
    status TEXT NOT NULL DEFAULT 'running',      -- running | finished | interrupted
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS llm_calls (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id),
    item_id TEXT,
    task TEXT NOT NULL,                -- generate_base | extend | define | judge | screen | ...
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    cache_key TEXT NOT NULL,           -- sha256 of backend, model, messages, schema, params
    prompt_version TEXT,
    request TEXT NOT NULL,             -- JSON (no secrets)
    response TEXT,                     -- JSON of the validated object, NULL on failure
    input_tokens INTEGER, output_tokens INTEGER,
    latency_ms REAL,
    attempts INTEGER NOT NULL DEFAULT 1,
    error TEXT,                        -- NULL when the call succeeded
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS llm_calls_cache ON llm_calls (cache_key, error);
CREATE INDEX IF NOT EXISTS llm_calls_run ON llm_calls (run_id);
CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY,               -- "<run name>:<pair id>:<k>"
    run_id INTEGER NOT NULL REFERENCES runs(id),
    pair_id INTEGER NOT NULL REFERENCES frame_pairs(id),
    k INTEGER NOT NULL,
    language TEXT NOT NULL,
    lexicon TEXT NOT NULL,
    verb TEXT NOT NULL,
    lu_a TEXT NOT NULL, lu_b TEXT NOT NULL,
    frame_a TEXT NOT NULL, frame_b TEXT NOT NULL,
    question TEXT,                     -- two-choice form: "Which sentence implies that ...?"
    question_four_choice TEXT,         -- "Select all sentences where ..."
    condition TEXT,                    -- the [condition] slot of both forms
    sentence_a TEXT, sentence_b TEXT, sentence_a_prime TEXT, sentence_b_prime TEXT,
    verb_form_a TEXT, verb_form_b TEXT, verb_form_a_prime TEXT, verb_form_b_prime TEXT,
    target_spans TEXT,                 -- JSON: {sentence_a: [start, end], ...}
    lexical_similarity REAL,           -- base pair, verb masked (see fbagent.checks.self_check)
    checks TEXT,                       -- JSON: every self-check and extension check result
    verifier TEXT,                     -- JSON: per sentence definition, sim_own, sim_other, pass
    status TEXT NOT NULL,              -- verified | flagged | rejected | failed
    reasons TEXT,                      -- JSON list of human-readable reasons
    attempts INTEGER NOT NULL DEFAULT 1,
    generator_model TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    verb_check TEXT,                   -- what vouched for the verb: analyser | conjugation tables | ... | llm | surface
    UNIQUE (run_id, pair_id, k)
);
CREATE INDEX IF NOT EXISTS items_status ON items (run_id, status);
CREATE TABLE IF NOT EXISTS item_revisions (
    id INTEGER PRIMARY KEY,
    item_id TEXT NOT NULL REFERENCES items(id),
    field TEXT NOT NULL,               -- question | sentence_a | sentence_b | sentence_a_prime | sentence_b_prime | unfixable
    old TEXT, new TEXT,
    annotator TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS item_revisions_item ON item_revisions (item_id, id);
-- one row per invocation of a run (cache hits write no llm_calls row, so they are counted here)
CREATE TABLE IF NOT EXISTS run_sessions (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL DEFAULT 'running',     -- running | finished | interrupted | error
    command TEXT,
    entries_done INTEGER NOT NULL DEFAULT 0,    -- entries finished (item rows written) in this session
    calls INTEGER NOT NULL DEFAULT 0,           -- new LLM requests (llm_calls rows)
    cache_hits INTEGER NOT NULL DEFAULT 0,      -- requests answered from llm_calls
    failures INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    wall_s REAL,
    pid INTEGER,                                -- the process of the session (generate), on host
    host TEXT
);
CREATE INDEX IF NOT EXISTS run_sessions_run ON run_sessions (run_id);
"""


MIGRATIONS_SQL = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY,
    from_version INTEGER NOT NULL,
    to_version INTEGER NOT NULL,
    applied_at TEXT NOT NULL,
    backup TEXT,                       -- copy of the file taken before the upgrade
    note TEXT                          -- the steps that ran
);
"""

#: The annotation tables (:mod:`fbagent.store.annotations`; FrameBench sec. 3.2 validation).
ANNOTATION_SQL = """
CREATE TABLE IF NOT EXISTS annotators (
    name TEXT PRIMARY KEY,
    seed INTEGER NOT NULL,             -- seed of the task shuffle and sentence orders
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS annotation_sessions (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL REFERENCES annotators(name),
    mode TEXT NOT NULL,                -- validate | revise
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,             -- JSON: run, lang, range, share, overlap, statuses
    n_assigned INTEGER NOT NULL,       -- pair tasks (validate) or entries (revise) assigned
    started_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL,
    last_task_id INTEGER               -- schema 4: task on screen when the session was last active
);
CREATE TABLE IF NOT EXISTS annotation_tasks (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL REFERENCES annotators(name),
    item_id TEXT NOT NULL REFERENCES items(id),
    pair TEXT NOT NULL,                -- base | extended | both_correct | neither_correct
    sort_key REAL NOT NULL,            -- position in the annotator's seeded shuffle (ascending)
    shown_first TEXT NOT NULL,         -- item field shown as "Sentence A" (sentence_a, sentence_b_prime, ...)
    shown_second TEXT NOT NULL,        -- item field shown as "Sentence B"
    gold TEXT NOT NULL,                -- correct choice in the shown labels: A | B | both | neither
    choice TEXT,                       -- A | B | both | neither; NULL = not answered yet
    correct INTEGER,                   -- 1 when choice = gold, 0 otherwise, NULL while unanswered
    acceptability TEXT,                -- level of the language's scale (unacceptable | acceptable | natural)
    acceptable INTEGER,                -- binarized acceptability: 1 = positive for the filter
    comment TEXT,
    skipped INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,   -- time the task was on screen, summed over visits (s)
    session_id INTEGER REFERENCES annotation_sessions(id),
    created_at TEXT NOT NULL,
    first_shown_at TEXT,
    answered_at TEXT,                  -- first time both choice and acceptability were given
    updated_at TEXT,                   -- last change of any answer field
    fingerprint TEXT,                  -- schema 4: text_fingerprint of the text choice/acceptability were given on
    UNIQUE (annotator, item_id, pair)
);
CREATE INDEX IF NOT EXISTS annotation_tasks_queue ON annotation_tasks (annotator, sort_key);
CREATE INDEX IF NOT EXISTS annotation_tasks_item ON annotation_tasks (item_id, pair);
CREATE TABLE IF NOT EXISTS annotation_history (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES annotation_tasks(id),
    annotator TEXT NOT NULL,
    field TEXT NOT NULL,               -- choice | acceptability | comment | skipped
    old TEXT, new TEXT,
    changed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS annotation_history_task ON annotation_history (task_id, id);
CREATE TABLE IF NOT EXISTS annotation_judgments (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES annotation_tasks(id),
    annotator TEXT NOT NULL,
    item_id TEXT NOT NULL,
    pair TEXT NOT NULL,
    fingerprint TEXT NOT NULL,         -- text_fingerprint(question, Sentence A, Sentence B) as shown
    choice TEXT NOT NULL,              -- A | B | both | neither (shown labels)
    correct INTEGER NOT NULL,
    acceptability TEXT NOT NULL,       -- level name of the language's scale
    acceptable INTEGER NOT NULL,       -- binarized: 1 = positive for the filter
    judged_at TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'app' -- app | migration (answer given before schema 4)
);
CREATE INDEX IF NOT EXISTS annotation_judgments_item ON annotation_judgments (item_id, task_id, id);
CREATE INDEX IF NOT EXISTS annotation_judgments_annotator ON annotation_judgments (annotator, task_id, id);
"""


ANNOTATION_TABLES = ("annotators", "annotation_sessions", "annotation_tasks", "annotation_history", "annotation_judgments")

#: The invite tables of ``annotate --serve`` (:mod:`fbagent.store.invites`).
INVITE_SQL = """
CREATE TABLE IF NOT EXISTS annotator_invites (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,   -- sha256 hex of the link's token; the token itself is never stored
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,                      -- when the link was exchanged for a session (links are one-time)
    revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS annotator_invites_annotator ON annotator_invites (annotator, id);
CREATE TABLE IF NOT EXISTS annotator_web_sessions (
    id INTEGER PRIMARY KEY,
    invite_id INTEGER NOT NULL REFERENCES annotator_invites(id),
    annotator TEXT NOT NULL,
    session_hash TEXT NOT NULL UNIQUE, -- sha256 hex of the session cookie value
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS annotator_web_sessions_annotator ON annotator_web_sessions (annotator, id);
"""


INVITE_TABLES = ("annotator_invites", "annotator_web_sessions")

#: Tables every fbagent database of this version has.
CORE_TABLES = ("lexicons", "frame_pairs", "items", "item_revisions", "run_sessions", "schema_migrations")


#: Annotators' language competence as stated (:mod:`fbagent.store.competence`; the dataset card reports it).
COMPETENCE_SQL = """
CREATE TABLE IF NOT EXISTS annotator_languages (
    annotator TEXT NOT NULL,
    lang TEXT NOT NULL,                -- language code of the entries (en, ja, ...)
    competence TEXT NOT NULL,          -- native | near-native | fluent | basic (as the annotator stated it)
    source TEXT NOT NULL,              -- annotate | invite: where it was stated
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (annotator, lang)
);
"""


#: The independent human baseline (``annotate --mode baseline``, :mod:`fbagent.store.baseline`): one row per
#: problem shown to an annotator who judged none of the final entries; the four-choice question only.
BASELINE_SQL = """
CREATE TABLE IF NOT EXISTS baseline_tasks (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL,
    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    pair TEXT NOT NULL,                -- base | extended
    position INTEGER NOT NULL,         -- order in the annotator's seeded sample
    seed INTEGER NOT NULL,             -- seed of the sample and the sentence orders
    shown_first TEXT NOT NULL,         -- item field shown as Sentence A (sentence_a, sentence_b_prime, ...)
    shown_second TEXT NOT NULL,
    gold TEXT NOT NULL,                -- sentence_a | sentence_b: the option naming the frame-A sentence
    fingerprint TEXT NOT NULL,         -- question and sentences shown (fbagent.store.annotations.text_fingerprint)
    answer TEXT,                       -- sentence_a | sentence_b | both | neither
    correct INTEGER,
    created_at TEXT NOT NULL,
    answered_at TEXT,
    UNIQUE (annotator, item_id, pair)
);
CREATE INDEX IF NOT EXISTS baseline_tasks_annotator ON baseline_tasks (annotator, position);
"""


#: The lead's decisions on disputed entries (schema 12, ``annotate --mode adjudicate``,
#: :mod:`fbagent.store.adjudications`): appended, never changed; an entry's latest row counts while the
#: entry's text is the one decided on (schema 14: ``fingerprint``).
ADJUDICATION_SQL = """
CREATE TABLE IF NOT EXISTS adjudications (
    id INTEGER PRIMARY KEY,
    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    adjudicator TEXT NOT NULL,
    decision TEXT NOT NULL,            -- keep | drop | second_round
    reason TEXT NOT NULL,
    seen TEXT NOT NULL,                -- JSON: the votes the decision saw (n_correct, n_acceptable, annotators)
    decided_at TEXT NOT NULL,
    fingerprint TEXT                   -- schema 14: entry_fingerprint of the text decided on (NULL: not known)
);
CREATE INDEX IF NOT EXISTS adjudications_item ON adjudications (item_id, id);
"""


#: Provider batch jobs of ``generate --batch`` (schema 13, :mod:`fbagent.store.batch_jobs`): one row per job,
#: written before the job is waited for, so that a killed command polls it instead of paying twice.
BATCH_SQL = """
CREATE TABLE IF NOT EXISTS batch_jobs (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,            -- openai | gemini
    model TEXT NOT NULL,
    job_id TEXT NOT NULL,              -- the provider's id (batch_..., batches/...)
    wave INTEGER NOT NULL,             -- 1, 2, ...: the pass of the entry graph that asked its lines
    keys TEXT NOT NULL,                -- JSON list: the llm_calls cache keys of its lines (custom ids)
    lines INTEGER NOT NULL,
    status TEXT NOT NULL,              -- submitted | in_progress | ... | completed | expired | failed | cancelled
    answered INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    submitted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS batch_jobs_run ON batch_jobs (run_id, status);
"""


def scripts() -> list[str]:
    """The SQL scripts of the current schema, in order (core, then annotation and invite tables)."""
    return [LEXICON_SQL, PAIRS_SQL, GENERATION_SQL, MIGRATIONS_SQL, ANNOTATION_SQL, INVITE_SQL, COMPETENCE_SQL, BASELINE_SQL,
            ADJUDICATION_SQL, BATCH_SQL]


def schema_version(db: sqlite_utils.Database) -> int:
    """``PRAGMA user_version`` of the open database."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def newer_error(path: Path | str, version: int) -> FbagentError:
    """The one-line refusal of a database written by a newer fbagent."""
    return FbagentError(
        f"{path} has schema version {version}, newer than this fbagent understands ({SCHEMA_VERSION});"
        " it was left unchanged",
        "upgrade fbagent (pip install -U fbagent) or use the version that wrote it",
    )


def ensure_schema(db: sqlite_utils.Database, path: Path | str | None = None) -> Upgrade | None:
    """Bring the database to :data:`SCHEMA_VERSION`; cheap when it is current.

    - current version: creates any table that is missing (idempotent scripts);
    - a new, empty file: the current scripts, in one transaction;
    - an earlier version: :func:`fbagent.store.migrations.upgrade` (backup copy
      beside ``path``, numbered steps, one transaction); returns its summary
      ``{"from", "to", "backup"}``;
    - a newer version: raises :class:`FbagentError` (:func:`newer_error`), nothing written.

    Returns None unless an upgrade ran.
    """
    current = schema_version(db)
    if current > SCHEMA_VERSION:
        raise newer_error(path or "the database", current)
    if current == SCHEMA_VERSION:
        if all(db[t].exists() for t in CORE_TABLES + ANNOTATION_TABLES + INVITE_TABLES):
            return None
        with transaction(db) as conn:
            for script in scripts():
                run_script(conn, script)
        return None
    if current == 0 and not db["lexicons"].exists():
        with transaction(db) as conn:
            for script in scripts():
                run_script(conn, script)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return None
    return upgrade(db.conn, None if path is None or str(path) == ":memory:" else Path(path), SCHEMA_VERSION)
