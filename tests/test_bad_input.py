"""The bad-input corpus: every command, every kind of bad input; one line, the documented exit code, nothing changed.

Each case runs the real entry point (``python -m fbagent.cli``) in a subprocess on its own copy
of a small database (a lexicon, a selection, a finished run with items, as written by the
commands), and asserts:

- the documented exit code (2: bad input; 1: the command ran but nothing could be achieved,
  e.g. every LLM call failed);
- at most 2 lines on stderr, no traceback;
- a message that names the problem and the fix (``Fix:`` on the error line);
- for bad input (exit 2) the database dump is unchanged (and no database file appears where none
  was); a run that tried and failed (exit 1) keeps its record (the run, its failed calls).

Cases that need an outside condition skip with the reason (a full file system needs a tmpfs
the test can mount).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from factories import make_db

HUGE_SEED = str(2**64)
UNREACHABLE = "http://127.0.0.1:9/v1"  # port 9 (discard): nothing listens there
ENTRIES = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


@dataclass
class Case:
    """One bad input: ``args`` ({db}, {tmp}, {entries} are filled in), the expected exit code, and
    optionally a setup that writes files under tmp and words the error line must contain."""

    id: str
    args: list[str]
    code: int = 2
    setup: str | None = None
    says: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    db: str = "base"          # "base": a copy of the base database; "none": no database file


def _c(id: str, *args: str, code: int = 2, setup: str | None = None, says: tuple[str, ...] = (),
       env: dict[str, str] | None = None, db: str = "base") -> Case:
    return Case(id, list(args), code, setup, says, env or {}, db)


CASES = [
    # --- usage errors (Typer/click): one line, exit 2, in every command
    _c("usage-unknown-command", "nosuch", says=("No such command",)),
    _c("invite-competence-not-a-language", "annotators", "invite", "bob", "--competence", "xx=native", "--db", "{db}",
       says=("--competence 'xx=native'", "not a language code")),
    _c("usage-seed-not-a-number", "pairs", "select", "--pairs", "2", "--seed", "abc", "--db", "{db}", says=("--seed",)),
    _c("usage-missing-option", "generate", "--db", "{db}", says=("--pairs",)),
    _c("usage-bad-choice-bool", "pairs", "select", "--pairs", "x", "--db", "{db}", says=("--pairs",)),
    _c("usage-unknown-option", "lexicon", "list", "--colour", "--db", "{db}", says=("--colour",)),
    _c("usage-missing-argument", "lexicon", "add", says=("path",)),
    _c("gguf-missing-calibrate-before-the-db", "verifier", "calibrate", "--signal", "roundtrip", "--generator", "local",
       "--model-path", "{tmp}/absent.gguf", "--db", "{tmp}/none.db", db="none", says=("absent.gguf does not exist",)),
    _c("gguf-missing-generate-before-the-db", "generate", "--pairs", "1", "--generator", "local",
       "--model-path", "{tmp}/absent.gguf", "--db", "{tmp}/none.db", db="none", says=("absent.gguf does not exist",)),
    _c("models-prepare-missing-gguf", "models", "prepare", "--model-path", "{tmp}/absent.gguf", db="none",
       says=("absent.gguf does not exist", "--model-path")),
    _c("models-prepare-not-a-gguf", "models", "prepare", "--model-path", "{tmp}/afile", db="none",
       setup="a_file", env={"FBAGENT_MODEL_CACHE": "{tmp}/cache"}, says=("cannot read", "as a GGUF model")),
    _c("prompt-style-unknown-calibrate", "verifier", "calibrate", "--prompt-style", "nonsense", "--db", "{db}",
       says=("unknown prompt style 'nonsense'", "--prompt-style auto | chat | fewshot")),
    _c("usage-option-before-command", "--db", "{db}", "verifier", "calibrate",
       says=("--db is an option of `fbagent verifier calibrate`", "put it after the command")),
    _c("usage-in-a-supervised-command", "generate", "--pairs", "1", "--nope", "--db", "{db}",
       says=("--nope", "see `fbagent generate --help`")),
    _c("usage-eval-limit-zero", "eval", "run", "--dataset", "{entries}", "--backend", "local", "--limit", "0",
       says=("--limit",)),
    _c("usage-report-human-out-of-range", "eval", "report", "{tmp}", "--human-accuracy", "150",
       says=("--human-accuracy",)),
    # --- databases: missing, another program's, a folder, garbage, in a missing folder
    _c("db-missing-lexicon-list", "lexicon", "list", "--db", "{tmp}/none.db", db="none", says=("does not exist",)),
    _c("db-missing-runs-list", "runs", "list", "--db", "{tmp}/none.db", db="none", says=("does not exist",)),
    _c("db-missing-pairs-list", "pairs", "list", "--db", "{tmp}/none.db", db="none", says=("does not exist",)),
    _c("db-missing-validate", "validate", "report", "--db", "{tmp}/none.db", db="none", says=("does not exist",)),
    _c("db-missing-export", "export", "{tmp}/o.jsonl", "--db", "{tmp}/none.db", db="none", says=("does not exist",)),
    _c("db-other-program", "lexicon", "list", "--db", "{tmp}/other.db", setup="other_db", db="none", says=("another program",)),
    _c("db-other-program-generate", "generate", "--pairs", "1", "--db", "{tmp}/other.db", setup="other_db", db="none", says=("another program",)),
    _c("db-is-a-folder", "lexicon", "list", "--db", "{tmp}", db="none", says=("is a folder",)),
    _c("db-garbage-file", "runs", "list", "--db", "{tmp}/garbage.db", setup="garbage_db", db="none", says=("not a usable",)),
    _c("db-in-missing-folder", "pairs", "select", "--pairs", "2", "--db", "{tmp}/no/such/dir/x.db", db="none", says=("does not exist",)),
    # --- lexicon add / show
    _c("lexicon-add-missing-path", "lexicon", "add", "{tmp}/nope", "--lang", "en", "--db", "{db}", says=("does not exist",)),
    _c("lexicon-add-empty-folder", "lexicon", "add", "{tmp}/empty", "--lang", "en", "--db", "{db}", setup="empty_dir", says=("frameIndex.xml",)),
    _c("lexicon-add-malformed-xml", "lexicon", "add", "{tmp}/badxml", "--lang", "en", "--db", "{db}",
       setup="malformed_xml", says=("malformed XML",)),
    _c("lexicon-add-bad-jsonl-line", "lexicon", "add", "{tmp}/bad.jsonl", "--lang", "en", "--db", "{db}",
       setup="bad_jsonl", says=("bad.jsonl",)),
    _c("lexicon-add-jsonl-missing-field", "lexicon", "add", "{tmp}/nofield.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_missing_field", says=("'frame' is a required property",)),
    _c("lexicon-add-bad-format", "lexicon", "add", "{tmp}/bad.jsonl", "--format", "csv", "--lang", "en", "--db", "{db}",
       setup="bad_jsonl", says=("csv",)),
    _c("lexicon-add-new-db-failed-first-import", "lexicon", "add", "{tmp}/bad.jsonl", "--lang", "en",
       "--db", "{tmp}/fresh.db", setup="bad_jsonl", db="none", says=("bad.jsonl:1",)),
    _c("lexicon-add-truncated-kfn-json", "lexicon", "add", "{tmp}/kfn", "--lang", "ko", "--db", "{db}",
       setup="truncated_kfn", says=("KFN_lus.json:2: not valid JSON",)),
    _c("lexicon-add-conll-bad-columns", "lexicon", "add", "{tmp}/a.conll2009", "--lang", "lv", "--db", "{db}",
       setup="bad_conll", says=("a.conll2009:2: 11 tab-separated column(s)",)),
    _c("lexicon-add-tr-malformed-xml", "lexicon", "add", "{tmp}/framenet.xml", "--lang", "tr", "--db", "{db}",
       setup="bad_tr_xml", says=("framenet.xml:2: malformed XML",)),
    _c("lexicon-add-swefn-truncated", "lexicon", "add", "{tmp}/swefn.xml", "--lang", "sv", "--db", "{db}",
       setup="truncated_swefn", says=("swefn.xml:6: malformed XML",)),
    _c("lexicon-add-swefn-bad-lu", "lexicon", "add", "{tmp}/swefn.xml", "--lang", "sv", "--db", "{db}",
       setup="bad_swefn_lu", says=("swefn.xml:5: LU 'lämna' of swefn--Departing is not a SALDO sense id",)),
    _c("lexicon-add-odfn-truncated", "lexicon", "add", "{tmp}/odfn.json", "--lang", "nl", "--db", "{db}",
       setup="truncated_odfn", says=("odfn.json:3: not valid JSON",)),
    _c("lexicon-add-lu-tsv-bad-columns", "lexicon", "add", "{tmp}/lus.tsv", "--lang", "ar", "--db", "{db}",
       setup="bad_lu_tsv", says=("lus.tsv:3: 1 column(s), the header has 2",)),
    _c("lexicon-add-frames-from-unknown", "lexicon", "add", "{tmp}/lus.tsv", "--lang", "ar", "--frames-from", "nosuch",
       "--db", "{db}", setup="bad_lu_tsv", says=("nosuch",)),
    _c("lexicon-show-unknown", "lexicon", "show", "nosuch", "--db", "{db}", says=("nosuch",)),
    # --- pairs
    _c("pairs-select-unknown-protocol-no-db", "pairs", "select", "--protocol", "framebenhc", "--pairs", "5",
       "--db", "{tmp}/none.db", db="none", says=("framebenhc",)),  # checked before the database is created
    _c("pairs-select-zero", "pairs", "select", "--pairs", "0", "--db", "{db}", says=("--pairs",)),
    _c("pairs-select-huge-seed", "pairs", "select", "--pairs", "2", "--seed", HUGE_SEED, "--db", "{db}",
       says=("seed",)),
    _c("pairs-select-negative-seed", "pairs", "select", "--pairs", "2", "--seed", "-1", "--db", "{db}",
       says=("seed",)),
    _c("pairs-select-unknown-lexicon", "pairs", "select", "--pairs", "2", "--lexicon", "nosuch", "--db", "{db}", says=("nosuch",)),
    _c("pairs-select-max-per-verb-zero", "pairs", "select", "--pairs", "2", "--max-per-verb", "0", "--db", "{db}", says=("--max-per-verb",)),
    _c("pairs-select-min-examples-negative", "pairs", "select", "--pairs", "2", "--min-examples", "-1", "--db", "{db}", says=("--min-examples",)),
    _c("pairs-show-unknown-selection", "pairs", "show", "999", "--db", "{db}", says=("999",)),
    _c("pairs-show-bad-status", "pairs", "show", "1", "--status", "bogus", "--db", "{db}", says=("bogus",)),
    # --- generate: options validated before anything is stored or loaded
    _c("generate-pairs-zero", "generate", "--pairs", "0", "--db", "{db}", says=("--pairs",)),
    _c("generate-per-pair-zero", "generate", "--pairs", "1", "--per-pair", "0", "--db", "{db}", says=("--per-pair",)),
    _c("generate-unknown-backend", "generate", "--pairs", "1", "--generator", "claude", "--db", "{db}",
       says=("claude",)),
    _c("generate-unknown-verifier", "generate", "--pairs", "1", "--verifier-generator", "x", "--db", "{db}", says=("'x'",)),
    _c("generate-concurrency-zero", "generate", "--pairs", "1", "--concurrency", "0", "--db", "{db}", says=("--concurrency",)),
    _c("generate-timeout-negative", "generate", "--pairs", "1", "--timeout", "-1", "--db", "{db}", says=("--timeout",)),
    _c("generate-similarity-out-of-range", "generate", "--pairs", "1", "--similarity-threshold", "2", "--db", "{db}", says=("--similarity-threshold",)),
    _c("generate-margin-out-of-range", "generate", "--pairs", "1", "--margin", "5", "--db", "{db}", says=("--margin",)),
    _c("generate-huge-seed", "generate", "--pairs", "1", "--seed", HUGE_SEED, "--db", "{db}", says=("seed",)),
    _c("generate-huge-seed-dry-run", "generate", "--pairs", "1", "--seed", HUGE_SEED, "--dry-run", "--db", "{db}",
       says=("seed",)),
    _c("generate-unknown-lexicon", "generate", "--pairs", "1", "--lexicon", "nosuch", "--db", "{db}", says=("nosuch",)),
    _c("generate-openai-no-key", "generate", "--pairs", "1", "--generator", "openai", "--no-screen",
       "--db", "{db}", says=("OPENAI_API_KEY",)),
    _c("generate-gemini-no-key", "generate", "--pairs", "1", "--generator", "gemini", "--no-screen",
       "--db", "{db}", says=("GEMINI_API_KEY",)),
    _c("generate-missing-gguf", "generate", "--pairs", "1", "--model-path", "{tmp}/none.gguf", "--db", "{db}", says=("none.gguf",)),
    _c("generate-run-name-taken", "generate", "--pairs", "1", "--run", "run1", "--db", "{db}", says=("run1",)),
    _c("generate-bad-openai-mode", "generate", "--pairs", "1", "--generator", "openai", "--base-url", UNREACHABLE,
       "--no-screen", "--db", "{db}", env={"FBAGENT_OPENAI_MODE": "yaml"}, says=("FBAGENT_OPENAI_MODE",)),
    _c("generate-bad-openai-transport", "generate", "--pairs", "1", "--generator", "openai", "--base-url",
       UNREACHABLE, "--model", "m", "--no-screen", "--db", "{db}", env={"FBAGENT_OPENAI_TRANSPORT": "curl"},
       says=("FBAGENT_OPENAI_TRANSPORT='curl'", "direct, sdk")),
    _c("generate-api-key-with-newline", "generate", "--pairs", "1", "--generator", "openai", "--base-url",
       UNREACHABLE, "--model", "m", "--no-screen", "--db", "{db}", env={"OPENAI_API_KEY": "sk-abc123\nX-Evil: 1"},
       says=("control character",)),
    # --- servers failing: the command runs, achieves nothing, says why in one line, exit 1 (its record is kept)
    _c("generate-unreachable-server", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--no-screen", "--llm-retries", "0", "--no-require-core-fe", "--db", "{db}",
       code=1, says=("cannot connect",)),
    _c("eval-unreachable-server", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--max-retries", "0", "--limit", "1", "--templates", "v1", "--out", "{tmp}/r",
       code=1, says=("cannot connect",)),
    # --- runs
    _c("runs-show-unknown", "runs", "show", "nosuch", "--db", "{db}", says=("nosuch",)),
    # --- annotate (needs a terminal; bad options are refused first)
    _c("annotate-no-tty", "annotate", "--annotator", "alice", "--db", "{db}", says=("interactive terminal",)),
    _c("annotate-huge-seed", "annotate", "--annotator", "alice", "--seed", HUGE_SEED, "--db", "{db}",
       says=("seed",)),
    # --- validate / export
    _c("validate-min-correct-negative", "validate", "report", "--min-correct", "-1", "--db", "{db}", says=("--min-correct",)),
    _c("validate-unknown-run", "validate", "report", "--run", "nosuch", "--db", "{db}", says=("nosuch",)),
    _c("export-min-correct-negative", "export", "{tmp}/o.jsonl", "--validated", "--min-correct", "-1",
       "--db", "{db}", says=("--min-correct",)),
    _c("export-out-in-missing-folder", "export", "{tmp}/no/such/o.jsonl", "--db", "{db}", says=("does not exist",)),
    _c("export-out-is-a-folder", "export", "{tmp}", "--db", "{db}", says=("is a folder",)),
    _c("export-unknown-run", "export", "{tmp}/o.jsonl", "--run", "nosuch", "--db", "{db}", says=("nosuch",)),
    # --- eval run / report / frame-id / sembench
    _c("eval-dataset-missing", "eval", "run", "--dataset", "{tmp}/none.jsonl", "--backend", "local",
       "--out", "{tmp}/r", says=("does not exist",)),
    _c("eval-dataset-bad-line", "eval", "run", "--dataset", "{tmp}/bad.jsonl", "--backend", "local",
       "--out", "{tmp}/r", setup="bad_jsonl", says=("bad.jsonl is a FrameNet lexicon in JSONL",)),  # its line 1 is a frame
    _c("eval-dataset-empty", "eval", "run", "--dataset", "{tmp}/empty.jsonl", "--backend", "local",
       "--out", "{tmp}/r", setup="empty_file", says=("no entries",)),
    _c("eval-unknown-template", "eval", "run", "--dataset", "{entries}", "--backend", "local", "--templates", "v9",
       "--out", "{tmp}/r", says=("v9",)),
    _c("eval-unknown-backend", "eval", "run", "--dataset", "{entries}", "--backend", "nope", "--out", "{tmp}/r",
       says=("nope",)),
    _c("eval-extra-body-not-json", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--extra-body", "{{bad", "--out", "{tmp}/r", says=("--extra-body",)),
    _c("eval-openai-no-key", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "m",
       "--out", "{tmp}/r", says=("OPENAI_API_KEY",)),
    _c("eval-openai-needs-model", "eval", "run", "--dataset", "{entries}", "--backend", "openai",
       "--base-url", UNREACHABLE, "--out", "{tmp}/r", says=("needs a model",)),
    _c("eval-missing-gguf", "eval", "run", "--dataset", "{entries}", "--backend", "local",
       "--model-path", "{tmp}/none.gguf", "--out", "{tmp}/r", says=("none.gguf",)),
    _c("eval-out-holds-another-run", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--out", "{tmp}/other-run", setup="other_result", says=("another run",)),
    _c("eval-report-missing-folder", "eval", "report", "{tmp}/nope", says=("does not exist",)),
    _c("eval-report-no-manifest", "eval", "report", "{tmp}/empty", setup="empty_dir", says=("manifest.json",)),
    _c("eval-report-broken-manifest", "eval", "report", "{tmp}/broken", setup="broken_result", says=("not valid JSON",)),
    _c("eval-frame-id-unknown-lexicon", "eval", "frame-id", "--backend", "local", "--lexicon", "nosuch",
       "--db", "{db}", "--out", "{tmp}/r", says=("nosuch",)),
    _c("eval-sembench-bad-mode", "eval", "sembench", "--backend", "local", "--mode", "bogus", "--out", "{tmp}/r", says=("bogus",)),
    _c("eval-sembench-missing-dictionary", "eval", "sembench", "--backend", "local", "--dictionary",
       "{tmp}/none.jsonl", "--out", "{tmp}/r", says=("does not exist",)),
    # --- issue 19: outputs that are not regular files, counts out of range, names, URLs, checkpoints, datasets
    _c("export-to-dev-full", "export", "/dev/full", "--db", "{db}", says=("no space left",)),
    _c("export-to-a-socket", "export", "{tmp}/sock", "--db", "{db}", setup="socket", says=("socket",)),
    _c("generate-per-pair-huge-dry-run", "generate", "--pairs", "1", "--per-pair", "100000000", "--dry-run",
       "--db", "{db}", says=("--per-pair", "at most")),
    _c("generate-pairs-huge", "generate", "--pairs", "1000000000", "--db", "{db}", says=("--pairs", "at most")),
    _c("pairs-select-per-pair-huge", "pairs", "select", "--pairs", "2", "--per-pair", "5000", "--db", "{db}",
       says=("--per-pair",)),
    _c("eval-out-is-a-file", "eval", "run", "--dataset", "{entries}", "--backend", "local", "--out", "{tmp}/afile",
       setup="a_file", says=("existing file",)),
    _c("eval-out-under-a-file", "eval", "run", "--dataset", "{entries}", "--backend", "local", "--out",
       "{tmp}/afile/sub", setup="a_file", says=("existing file",)),
    _c("annotate-name-too-long", "annotate", "--annotator", "x" * 10_000, "--db", "{db}", says=("characters long",)),
    _c("annotate-name-with-escape", "annotate", "--annotator", "eve\x1b[31m\x07", "--db", "{db}",
       says=("annotator name", "control character")),
    _c("generate-run-name-with-newline-and-escape", "generate", "--pairs", "1", "--run", "a\nb\x1b[31m",
       "--db", "{db}", says=("run name", "control character")),
    _c("lexicon-add-name-with-osc", "lexicon", "add", "{tmp}", "--lang", "en", "--name", "x\x1b]0;owned\x07",
       "--db", "{db}", says=("lexicon name", "control character")),
    _c("eval-label-with-escape", "eval", "run", "--dataset", "{entries}", "--backend", "local", "--label",
       "\x1b[2J", "--out", "{tmp}/r", says=("label", "control character")),
    _c("runs-show-name-with-escape", "runs", "show", "\x1b[2Jx", "--db", "{db}", says=("run name",)),
    _c("export-run-name-too-long", "export", "{tmp}/o.jsonl", "--run", "r" * 300, "--db", "{db}",
       says=("characters long",)),
    _c("pairs-select-lexicon-without-verbs", "pairs", "select", "--pairs", "2", "--lexicon", "nouns",
       "--db", "{db}", setup="noun_lexicon", says=("no verb",)),
    _c("generate-lexicon-without-verbs", "generate", "--pairs", "1", "--lexicon", "nouns", "--generator", "openai",
       "--model", "m", "--base-url", UNREACHABLE, "--no-screen", "--db", "{db}", setup="noun_lexicon",
       says=("no verb",)),
    _c("generate-checkpoints-is-a-folder", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--no-screen", "--db", "{db}", setup="checkpoints_folder",
       says=("checkpoint file", "fb.checkpoints.db", "is a folder")),
    _c("generate-checkpoints-garbage", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--no-screen", "--db", "{db}", setup="checkpoints_garbage",
       says=("checkpoint file", "fb.checkpoints.db")),
    _c("generate-checkpoints-truncated", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--no-screen", "--db", "{db}", setup="checkpoints_truncated",
       says=("checkpoint file", "fb.checkpoints.db")),
    _c("generate-base-url-ftp", "generate", "--pairs", "1", "--generator", "openai", "--model", "m", "--base-url",
       "ftp://127.0.0.1/v1", "--no-screen", "--db", "{db}", says=("ftp",)),
    _c("generate-base-url-without-scheme", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", "127.0.0.1:8000/v1", "--no-screen", "--db", "{db}", says=("http",)),
    _c("generate-base-url-env-ftp", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--no-screen", "--db", "{db}", env={"OPENAI_BASE_URL": "ftp://127.0.0.1/v1", "OPENAI_API_KEY": "k"},
       says=("OPENAI_BASE_URL", "ftp")),
    _c("eval-base-url-ftp", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "m",
       "--base-url", "ftp://127.0.0.1/v1", "--out", "{tmp}/r", says=("ftp",)),
    _c("db-is-a-folder-runs-list", "runs", "list", "--db", "{tmp}", db="none", says=("is a folder",)),
    _c("db-is-a-folder-validate", "validate", "report", "--db", "{tmp}", db="none", says=("is a folder",)),
    _c("db-is-a-folder-export", "export", "{tmp}/o.jsonl", "--db", "{tmp}", db="none", says=("is a folder",)),
    _c("eval-dataset-same-base-sentences", "eval", "run", "--dataset", "{tmp}/same.jsonl", "--backend", "local",
       "--out", "{tmp}/r", setup="same_sentences", says=("same.jsonl:1", "same text")),
    _c("eval-dataset-sentence-with-escape", "eval", "run", "--dataset", "{tmp}/esc.jsonl", "--backend", "local",
       "--out", "{tmp}/r", setup="sentence_escape", says=("esc.jsonl:1", "control character")),
    _c("export-into-proc", "export", "/proc/version", "--db", "{db}", says=("/proc", "takes no new files")),
    _c("export-to-a-fifo-without-reader", "export", "{tmp}/fifo", "--db", "{db}", setup="fifo",
       says=("no process reads",)),
    _c("eval-dataset-human-not-an-object", "eval", "run", "--dataset", "{tmp}/human.jsonl", "--backend", "local",
       "--out", "{tmp}/r", setup="human_yes", says=("human.jsonl:1", "'human'")),
    _c("lexicon-add-billion-laughs", "lexicon", "add", "{tmp}/laughs", "--lang", "en", "--db", "{db}",
       setup="billion_laughs", says=("Activity_start.xml", "amplification")),
    _c("lexicon-add-external-entity", "lexicon", "add", "{tmp}/xxe", "--lang", "en", "--db", "{db}",
       setup="external_entity", says=("Activity_start.xml", "entity")),
    # --- issue 40: licence options, --shared-with
    _c("lexicon-add-source-url-not-a-url", "lexicon", "add", "{tmp}/nope", "--lang", "en", "--source-url", "here",
       "--db", "{db}", says=("--source-url 'here' is not a URL",)),
    _c("lexicon-add-citation-missing", "lexicon", "add", "{tmp}/nope", "--lang", "en", "--citation", "{tmp}/x.bib",
       "--db", "{db}", says=("x.bib does not exist",)),
    _c("pairs-select-shared-with-unknown", "pairs", "select", "--pairs", "2", "--shared-with", "nosuch", "--db", "{db}",
       says=("unknown lexicon 'nosuch'",)),
    _c("pairs-select-shared-with-empty", "pairs", "select", "--pairs", "2", "--shared-with", "", "--db", "{db}",
       says=("--shared-with '' names no lexicon",)),
    _c("pairs-select-shared-with-twice", "pairs", "select", "--pairs", "2", "--shared-with", "lv,ko,lv", "--db", "{db}",
       says=("--shared-with 'lv,ko,lv' names lv more than once", "Fix: name each lexicon once: --shared-with lv,ko")),
    # --- issue 46: --batch needs a provider with a batch API
    _c("generate-batch-local", "generate", "--pairs", "1", "--generator", "local", "--batch", "--db", "{db}",
       says=("--batch needs a generator with a batch API, not --generator local",)),
    _c("generate-batch-two-servers", "generate", "--pairs", "1", "--generator", "openai", "--model", "m", "--batch",
       "--base-url", "http://127.0.0.1:9/v1", "--base-url", "http://127.0.0.1:10/v1", "--db", "{db}",
       says=("--batch sends each wave to one server",)),
    _c("eval-batch-local", "eval", "run", "--dataset", "{entries}", "--backend", "local", "--batch",
       "--out", "{tmp}/r", says=("--batch needs the openai or gemini backend",)),
]



ID_PAST_SQLITE = str(2**63)   # one past SQLite's largest integer
HUGE = str(10**30)
EVAL_LOCAL = ("--backend", "local", "--out", "{tmp}/r")

CASES += [
    # --- issue 30 item 4: ids past SQLite's 64-bit range, in every command that takes one
    _c("id-past-sqlite-pairs-show", "pairs", "show", ID_PAST_SQLITE, "--db", "{db}",
       says=("SELECTION must be at most 9,223,372,036,854,775,807",)),
    _c("id-past-sqlite-runs-show", "runs", "show", ID_PAST_SQLITE, "--db", "{db}", says=("no run named",)),
    _c("id-past-sqlite-export-run", "export", "{tmp}/o.jsonl", "--run", ID_PAST_SQLITE, "--db", "{db}",
       says=("unknown run",)),
    _c("id-past-sqlite-annotate-run", "annotate", "--run", ID_PAST_SQLITE, "--annotator", "bob", "--db", "{db}",
       says=("unknown run",)),
    _c("id-past-sqlite-validate-run", "validate", "report", "--run", ID_PAST_SQLITE, "--db", "{db}",
       says=("unknown run",)),
    _c("id-past-sqlite-frame-id-selection", "eval", "frame-id", "--selection", ID_PAST_SQLITE, *EVAL_LOCAL,
       "--db", "{db}", says=("--selection must be at most 9,223,372,036,854,775,807",)),
    _c("id-past-sqlite-calibrate-selection", "verifier", "calibrate", "--selection", ID_PAST_SQLITE, "--db", "{db}",
       says=("--selection must be at most",)),
    # --- the same cap for the same option in every command
    _c("seed-huge-export-lm-eval", "export", "{tmp}/lm", "--format", "lm-eval", "--seed", HUGE, "--db", "{db}",
       says=("--seed must be at most 18,446,744,073,709,551,615",)),
    _c("seed-huge-eval-run", "eval", "run", "--dataset", "{entries}", "--seed", HUGE, *EVAL_LOCAL,
       says=("--seed must be at most 18,446,744,073,709,551,615",)),
    _c("seed-huge-pairs-select", "pairs", "select", "--pairs", "2", "--seed", HUGE, "--db", "{db}",
       says=("--seed must be at most 18,446,744,073,709,551,615",)),
    _c("min-acceptable-huge-validate", "validate", "report", "--min-acceptable", HUGE, "--db", "{db}",
       says=("--min-acceptable must be at most 1,000",)),
    _c("min-acceptable-huge-export", "export", "{tmp}/o.jsonl", "--validated", "--min-acceptable", HUGE,
       "--db", "{db}", says=("--min-acceptable must be at most 1,000",)),
    _c("min-correct-huge-validate", "validate", "report", "--min-correct", HUGE, "--db", "{db}",
       says=("--min-correct must be at most 1,000",)),
    _c("limit-huge-runs-show", "runs", "show", "run1", "--limit", HUGE, "--db", "{db}",
       says=("--limit must be at most",)),
    # --- dataset files: encodings read one way (UTF-8; a byte-order mark is accepted everywhere)
    _c("eval-dataset-utf16", "eval", "run", "--dataset", "{tmp}/utf16.jsonl", *EVAL_LOCAL, setup="utf16",
       says=("is UTF-16 text", "iconv")),
    _c("eval-dataset-latin1", "eval", "run", "--dataset", "{tmp}/latin1.jsonl", *EVAL_LOCAL, setup="latin1",
       says=("is not UTF-8 text (byte 0xe9 on line 1", "iconv")),
    _c("eval-dataset-random-bytes", "eval", "run", "--dataset", "{tmp}/random.jsonl", *EVAL_LOCAL, setup="random_bytes",
       says=("holds binary data",)),
    _c("eval-dataset-dev-null", "eval", "run", "--dataset", "/dev/null", *EVAL_LOCAL,
       says=("dataset /dev/null is a character device, not a file",)),
    _c("eval-dataset-fifo", "eval", "run", "--dataset", "{tmp}/fifo", *EVAL_LOCAL, setup="fifo",
       says=("is a named pipe (FIFO), not a file",)),
    _c("lexicon-add-utf16", "lexicon", "add", "{tmp}/utf16.jsonl", "--lang", "en", "--db", "{db}", setup="utf16",
       says=("is UTF-16 text",)),
    _c("lexicon-add-latin1", "lexicon", "add", "{tmp}/latin1.jsonl", "--lang", "en", "--db", "{db}", setup="latin1",
       says=("is not UTF-8 text",)),
    # --- JSON nested deeper than any row (a RecursionError before)
    _c("lexicon-add-deep-json", "lexicon", "add", "{tmp}/deep.jsonl", "--lang", "en", "--db", "{db}", setup="deep_json",
       says=("deep.jsonl:1: JSON nested deeper than 100 levels",)),
    _c("eval-dataset-deep-json", "eval", "run", "--dataset", "{tmp}/deep.jsonl", *EVAL_LOCAL, setup="deep_json",
       says=("deep.jsonl:1: JSON nested deeper than 100 levels",)),
    # --- base URLs are URLs, from the option and from OPENAI_BASE_URL, before anything is stored
    _c("base-url-with-space-generate", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", "http://127.0.0.1:9/v1 ", "--db", "{tmp}/fresh.db", db="none", says=("contains a space",)),
    _c("base-url-env-with-space-generate", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--db", "{tmp}/fresh.db", db="none", env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1 x", "OPENAI_API_KEY": "k"},
       says=("(from OPENAI_BASE_URL) contains a space",)),
    _c("base-url-bad-host-calibrate", "verifier", "calibrate", "--generator", "openai", "--model", "m",
       "--base-url", "http://local_host!:9/v1", "--db", "{tmp}/fresh.db", db="none",
       says=("has a host name with characters no host name has",)),
    _c("base-url-env-with-space-eval", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "m",
       "--out", "{tmp}/r", env={"OPENAI_BASE_URL": "http://127.0.0.1:9/ v1", "OPENAI_API_KEY": "k"},
       says=("(from OPENAI_BASE_URL) contains a space",)),
    # --- the circuit breaker's limits from the environment
    _c("breaker-env-not-a-number", "generate", "--pairs", "1", "--generator", "openai", "--model", "m",
       "--base-url", UNREACHABLE, "--db", "{tmp}/fresh.db", db="none", env={"FBAGENT_BREAKER_CALLS": "many"},
       says=("FBAGENT_BREAKER_CALLS='many'",)),
    # --- names: NFC, no invisible characters
    _c("annotator-name-only-invisible", "annotate", "--annotator", "\u200b\u2060", "--db", "{db}",
       says=("the annotator name is empty",)),
    # --- issue 46: several models, several servers
    _c("eval-no-backend", "eval", "frame-id", "--model", "m", "--db", "{db}", says=("no --backend given",)),
    _c("eval-two-models-one-model-command", "eval", "sembench", "--backend", "openai", "--model", "a", "--model", "b",
       says=("--model given 2 times",)),
    _c("eval-models-file-missing", "eval", "run", "--dataset", "{entries}", "--models", "{tmp}/none.toml",
       says=("cannot read --models",)),
    _c("eval-label-several-models", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "a",
       "--model", "b", "--label", "x", says=("--label names one model",)),
    _c("eval-gpus-not-numbers", "eval", "run", "--dataset", "{entries}", "--backend", "openai", "--model", "a",
       "--model", "b", "--gpus", "0,x", says=("--gpus='0,x'",)),
    _c("eval-two-base-urls-local", "eval", "run", "--dataset", "{entries}", "--backend", "local",
       "--base-url", "http://127.0.0.1:1/v1", "--base-url", "http://127.0.0.1:2/v1", says=("only the openai backend",)),
]


LEX_ADD = ("lexicon", "add")
CASES += [
    # --- issue 43 item 7: tracebacks
    _c("lexicon-jsonl-frame-id-2-63", *LEX_ADD, "{tmp}/big.jsonl", "--lang", "en", "--db", "{db}", setup="jsonl_id_2_63",
       says=("big.jsonl:1", "id 9223372036854775808, outside SQLite's integer range")),
    _c("db-file-name-too-long", "lexicon", "list", "--db", "{tmp}/" + "x" * 300 + ".db", db="none",
       says=("too long for the file system", "shorter file name")),
    # --- issue 43 item 8: hangs
    _c("lexicon-add-frameindex-is-a-fifo", *LEX_ADD, "{tmp}/fifolex", "--lang", "en", "--db", "{db}",
       setup="fifo_frameindex", says=("frameIndex.xml is a named pipe (FIFO), not a file",)),
    _c("db-is-a-fifo", "lexicon", "list", "--db", "{tmp}/fifo", setup="fifo", db="none",
       says=("database", "is a named pipe (FIFO), not a file")),
    # --- issue 43 item 9: lexicon content
    _c("lexicon-jsonl-inheritance-cycle", *LEX_ADD, "{tmp}/cycle.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_cycle", says=("cycle.jsonl:1", "Inheritance relations form a cycle: A -> B -> A")),
    _c("lexicon-jsonl-self-inheritance", *LEX_ADD, "{tmp}/self.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_self", says=("self.jsonl:1", "frame A has a Inheritance relation to itself")),
    _c("lexicon-jsonl-duplicate-frame-id", *LEX_ADD, "{tmp}/dupid.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_dup_id", says=("dupid.jsonl:2", "frame B has id 7, already the id of the frame on line 1")),
    _c("lexicon-jsonl-duplicate-frame-name", *LEX_ADD, "{tmp}/dupname.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_dup_name", says=("dupname.jsonl:2", "frame A is already defined on line 1")),
    _c("lexicon-jsonl-blank-frame-name", *LEX_ADD, "{tmp}/blank.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_blank", says=("blank.jsonl:1", "frame name '   ' is blank")),
    _c("lexicon-jsonl-bidi-frame-name", *LEX_ADD, "{tmp}/bidi.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_bidi", says=("bidi.jsonl:1", "control character")),
    _c("lexicon-jsonl-empty-target-mark", *LEX_ADD, "{tmp}/marks", "--lang", "en", "--db", "{db}",
       setup="jsonl_empty_mark", says=("exemplars.jsonl:1", "its target mark <t></t> is empty")),
    _c("lexicon-jsonl-unclosed-target-mark", *LEX_ADD, "{tmp}/marks", "--lang", "en", "--db", "{db}",
       setup="jsonl_unclosed_mark", says=("exemplars.jsonl:1", "its target mark <t> is never closed")),
    _c("lexicon-jsonl-duplicate-key", *LEX_ADD, "{tmp}/dupkey.jsonl", "--lang", "en", "--db", "{db}",
       setup="jsonl_dup_key", says=("dupkey.jsonl:1", "the key 'frame' appears twice")),
    _c("lexicon-xml-duplicate-frame-id", *LEX_ADD, "{tmp}/xmlid", "--lang", "en", "--db", "{db}",
       setup="xml_dup_id", says=("frameIndex.xml", "have the same ID")),
    _c("lexicon-xml-duplicate-frame-name", *LEX_ADD, "{tmp}/xmlname", "--lang", "en", "--db", "{db}",
       setup="xml_dup_name", says=("frameIndex.xml", "is listed twice")),
    _c("lexicon-xml-lu-without-pos-strict", *LEX_ADD, "{tmp}/xmlpos", "--lang", "en", "--strict", "--db", "{db}",
       setup="xml_no_pos", says=("has no part of speech",)),
    _c("db-user-version-negative", "lexicon", "list", "--db", "{tmp}/neg.db", setup="negative_version",
       says=("schema version -5, which no fbagent writes",)),
    _c("db-other-program-with-a-lexicons-table", "lexicon", "list", "--db", "{tmp}/otherlex.db",
       setup="foreign_lexicons", db="none", says=("another program", "not fbagent's")),
    # --- issue 43 item 10
    _c("public-url-crlf", "annotators", "invite", "bob", "--public-url", "http://127.0.0.1:8000\r\nX-Evil: 1",
       "--db", "{db}", says=("--public-url", "the character '\\r'")),
    _c("public-url-port-99999", "annotate", "--serve", "--public-url", "http://127.0.0.1:99999", "--db", "{db}",
       says=("--public-url", "port outside 1..65535")),
    _c("serve-host-with-a-blank", "annotate", "--serve", "--host", "bad host", "--port", "8799", "--db", "{db}",
       says=("--host 'bad host' contains a blank", "--host 127.0.0.1")),
    _c("eval-dataset-newer-export-format", "eval", "run", "--dataset", "{tmp}/newer.jsonl", *EVAL_LOCAL,
       setup="newer_format", says=("newer.jsonl:1", "fbagent-export/999")),
]

# --- the new user's trial (session 12): other tools' files given to `lexicon add`, an NLTK folder missing its index
CASES += [
    _c(f"lexicon-add-{name}", "lexicon", "add", f"{{tmp}}/{file}", "--lang", "en", "--db", "{db}", setup="foreign_files",
       says=(f"{file} is {what}", "not a FrameNet lexicon", "Fix: pass a FrameNet"))
    for name, file, what in (
        ("prodigy-jsonl", "prodigy.jsonl", "a Prodigy annotation export"),
        ("argilla-jsonl", "argilla.jsonl", "an Argilla dataset export"),
        ("lm-eval-results", "results.json", "an lm-evaluation-harness results file"),
        ("lm-eval-samples", "samples.jsonl", "an lm-evaluation-harness samples file"),
        ("fbagent-export", "bench.jsonl", "a benchmark of entries written by fbagent export"),
        ("conllu", "treebank.conllu", "a CoNLL-U treebank file without frame annotation"),
        ("conllu-as-txt", "treebank.txt", "a CoNLL-U treebank file without frame annotation"))
] + [
    _c("eval-report-lm-eval-results-file", "eval", "report", "{tmp}/results.json", setup="foreign_files",
       says=("results.json is an lm-evaluation-harness results file", "--backend transformers --no-chat")),
    _c("eval-report-lm-eval-output-folder", "eval", "report", "{tmp}/lm", setup="foreign_files",
       says=("lm holds lm-evaluation-harness results (results_2026-12-07T09-00-00.json)", "fbagent eval run")),
    _c("eval-run-lm-eval-task-folder", "eval", "run", "--dataset", "{tmp}/tasks", *EVAL_LOCAL, setup="foreign_files",
       says=("tasks is an lm-evaluation-harness task folder", "lm_eval --include_path", "--tasks framebench_en")),
    _c("eval-run-dataset-conllu", "eval", "run", "--dataset", "{tmp}/treebank.conllu", *EVAL_LOCAL,
       setup="foreign_files", says=("treebank.conllu:1: not valid JSON", "the first line of this file is not JSON")),
] + [
    # session 13: other tools' files and a lexicon given to `eval run --dataset` are named, not "field missing"
    _c(f"eval-run-dataset-{name}", "eval", "run", "--dataset", f"{{tmp}}/{file}", *EVAL_LOCAL, setup="foreign_files",
       says=(f"{file} is {what}, not a benchmark of entries", "pass --dataset with the JSONL of `fbagent export`"))
    for name, file, what in (
        ("prodigy", "prodigy.jsonl", "a Prodigy annotation export"),
        ("argilla", "argilla.jsonl", "an Argilla dataset export"),
        ("lm-eval-results", "results_full.json", "an lm-evaluation-harness results file"),
        ("lm-eval-samples", "samples.jsonl", "an lm-evaluation-harness samples file"),
        ("lexicon-jsonl", "lexicon.jsonl", "a FrameNet lexicon in JSONL (one frame per line)"))
] + [
    _c("eval-run-human-filter-drops-all", "eval", "run", "--dataset", "{tmp}/fb_unjudged.jsonl", *EVAL_LOCAL,
       setup="foreign_files", says=("the human filter drops all 4 problems", "pass --no-human-filter")),
    _c("validate-report-out-is-a-folder", "validate", "report", "--format", "md", "--out", "{tmp}", "--db", "{db}",
       says=("is a folder", "such as", "report.md")),
    _c("lexicon-add-nltk-folder-without-frameindex", "lexicon", "add", "{tmp}/noindex", "--lang", "en", "--db", "{db}",
       setup="no_frameindex", says=("an NLTK-layout FrameNet folder without frameIndex.xml", "luIndex.xml, frame")),
]


# --------------------------------------------------------------------------- set-ups


def _setup(name: str | None, tmp: Path) -> None:
    if name is None:
        return
    if name == "other_db":
        with sqlite3.connect(tmp / "other.db") as conn:
            conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
            conn.execute("INSERT INTO invoices (total) VALUES (12.5)")
    elif name == "garbage_db":
        (tmp / "garbage.db").write_text("this is not a database\n" * 100)
    elif name == "empty_dir":
        (tmp / "empty").mkdir()
    elif name == "empty_file":
        (tmp / "empty.jsonl").write_text("")
    elif name == "malformed_xml":
        (tmp / "badxml" / "frame").mkdir(parents=True)
        (tmp / "badxml" / "frameIndex.xml").write_text("<frameIndex><frame ID='1' name='X'/></frameIndex>")
        (tmp / "badxml" / "luIndex.xml").write_text("<luIndex></luIndex>")
        (tmp / "badxml" / "frame" / "X.xml").write_text("<frame><unclosed>")
    elif name == "utf16":
        (tmp / "utf16.jsonl").write_bytes(ENTRIES.read_text(encoding="utf-8").encode("utf-16"))
    elif name == "latin1":
        (tmp / "latin1.jsonl").write_bytes('{"frame": "Caf\u00e9", "definition": "x"}\n'.encode("latin-1"))
    elif name == "random_bytes":
        import random

        (tmp / "random.jsonl").write_bytes(random.Random(0).randbytes(4096))
    elif name == "deep_json":
        (tmp / "deep.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    elif name == "bad_jsonl":
        (tmp / "bad.jsonl").write_text('{"frame": "Departing", "definition": "x"}\n{not json\n')
    elif name == "truncated_kfn":
        (tmp / "kfn" / "resource" / "1.2").mkdir(parents=True)
        (tmp / "kfn" / "resource" / "1.2" / "KFN_lus.json").write_text('{\n  "1": {"lexeme": "가다", "pos": "v", "fr')
    elif name == "bad_conll":
        row = ["1", "Iet", "iet", "VERB", "x", "_", "0", "root", "0:root", "Y", "Motion", "_"]
        (tmp / "a.conll2009").write_text("# text = Iet.\n" + "\t".join(row[:11]) + "\n\n")
    elif name == "bad_tr_xml":
        (tmp / "framenet.xml").write_text('<FRAMENET>\n<FRAME NAME="Motion"></FRAMENET>\n')
    elif name in ("truncated_swefn", "bad_swefn_lu"):
        lu = "lämna..1" if name == "truncated_swefn" else "lämna"
        text = (f'<LexicalResource>\n<Lexicon>\n<LexicalEntry>\n<Sense id="swefn--Departing">\n<feat att="LU" val="{lu}"/>\n'
                '</Sense>\n</LexicalEntry>\n</Lexicon>\n</LexicalResource>\n')
        (tmp / "swefn.xml").write_text(text.replace("</Sense>\n", "") if name == "truncated_swefn" else text, "utf-8")
    elif name == "truncated_odfn":
        (tmp / "odfn.json").write_text('{\n  "gaan:VERB": {"lemma": "gaan", "pos": "VERB", "frames": {\n'
                                        '    "fn17-motion": {"annotations": [{"status": "man', "utf-8")
    elif name == "bad_lu_tsv":
        (tmp / "lus.tsv").write_text("lu\tframe\ngo.v\tMotion\nrun.v\n")
    elif name == "jsonl_missing_field":
        (tmp / "nofield.jsonl").write_text('{"definition": "a frame without a name"}\n')
    elif name == "other_result":
        folder = tmp / "other-run"
        folder.mkdir()
        (folder / "manifest.json").write_text(json.dumps({"identity": {"task": "framebench", "backend": "vllm"}}))
    elif name == "broken_result":
        folder = tmp / "broken"
        folder.mkdir()
        (folder / "manifest.json").write_text("{broken")
    elif name == "socket":
        import socket

        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(tmp / "sock"))
        sock.close()
    elif name == "a_file":
        (tmp / "afile").write_text("not a folder\n")
    elif name == "noun_lexicon":
        rows = [{"frame": f"Thing_{i}", "definition": "A kind of thing.", "frame_elements": [
            {"name": "Entity", "core_type": "Core", "definition": "The thing."}],
            "lexical_units": [{"name": "stone.n"}, {"name": f"item{i}.n"}]} for i in range(3)]
        (tmp / "nouns.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicon", "add", str(tmp / "nouns.jsonl"),
                               "--lang", "en", "--name", "nouns", "--db", str(tmp / "fb.db")],
                              capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr
    elif name == "checkpoints_folder":
        (tmp / "fb.checkpoints.db").mkdir()
    elif name == "checkpoints_garbage":
        (tmp / "fb.checkpoints.db").write_text("garbage, not SQLite\n" * 50)
    elif name == "checkpoints_truncated":
        path = tmp / "fb.checkpoints.db"
        conn = sqlite3.connect(path)
        with conn:
            conn.execute("CREATE TABLE checkpoints (thread_id TEXT, data BLOB)")
            conn.executemany("INSERT INTO checkpoints VALUES (?, ?)", [(str(i), b"x" * 3000) for i in range(40)])
        conn.close()
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
    elif name == "same_sentences":
        row = json.loads(ENTRIES.read_text(encoding="utf-8").splitlines()[0])
        row["sentence_b"] = row["sentence_a"]
        (tmp / "same.jsonl").write_text(json.dumps(row) + "\n")
    elif name == "sentence_escape":
        row = json.loads(ENTRIES.read_text(encoding="utf-8").splitlines()[0])
        row["sentence_a"] = "She \x1b[31mheld\x07 the cup."
        (tmp / "esc.jsonl").write_text(json.dumps(row) + "\n")
    elif name == "fifo":
        os.mkfifo(tmp / "fifo")
    elif name == "human_yes":
        row = json.loads(ENTRIES.read_text(encoding="utf-8").splitlines()[0])
        row["human"] = "yes"
        (tmp / "human.jsonl").write_text(json.dumps(row) + "\n")
    elif name in ("billion_laughs", "external_entity"):
        from fbagent.lexicon.importer import embedded_path

        folder = tmp / ("laughs" if name == "billion_laughs" else "xxe")
        shutil.copytree(embedded_path(), folder)  # a complete layout: only the entities are wrong
        frame = folder / "frame" / "Activity_start.xml"
        if name == "billion_laughs":
            dtd = '<!DOCTYPE frame [<!ENTITY a "aaaaaaaaaa">' + "".join(
                f'<!ENTITY {chr(98 + i)} "' + f"&{chr(97 + i)};" * 10 + '">' for i in range(8)) + "]>"
            ref = "&i;"
        else:
            (tmp / "secret.txt").write_text("TOP SECRET\n")
            dtd = f'<!DOCTYPE frame [<!ENTITY xxe SYSTEM "file://{tmp}/secret.txt">]>'
            ref = "&xxe;"
        text = frame.read_text(encoding="utf-8").replace('<frame ID="146"', dtd + '\n<frame ID="146"', 1)
        frame.write_text(text.replace("<definition>", "<definition>" + ref, 1), encoding="utf-8")
    elif name in SETUPS_43:
        SETUPS_43[name](tmp)
    elif name in SETUPS_40:
        SETUPS_40[name](tmp)
    elif name in SETUPS_NU:
        SETUPS_NU[name](tmp)
    else:  # pragma: no cover - a typo in CASES
        raise AssertionError(f"unknown setup {name}")


def _frame_row(name: str, **extra: object) -> dict:
    return {"frame": name, "definition": "A frame.", "frame_elements": [{"name": "Agent", "core_type": "Core"}],
            "lexical_units": [{"name": f"{name.strip().lower() or 'x'}go.v"}], **extra}


def _rows(path: Path, *rows: object) -> None:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")


def _sample_copy(tmp: Path, name: str) -> Path:
    from fbagent.lexicon.importer import embedded_path

    folder = tmp / name
    shutil.copytree(embedded_path(), folder)
    return folder


def _xml_dup(tmp: Path, name: str, same_id: bool) -> None:
    index = _sample_copy(tmp, name) / "frameIndex.xml"
    text = index.read_text(encoding="utf-8")
    if same_id:   # the second frame takes the first frame's ID
        import re

        ids = re.findall(r'<frame [^>]*?ID="(\d+)"', text)
        text = text.replace(f'ID="{ids[1]}"', f'ID="{ids[0]}"', 1)
    else:         # the first frame listed twice
        import re

        first = re.search(r"<frame [^>]*?/>", text).group(0)
        text = text.replace(first, first + "\n" + first, 1)
    index.write_text(text, encoding="utf-8")


def _xml_no_pos(tmp: Path) -> None:
    import re

    folder = _sample_copy(tmp, "xmlpos")
    frame = folder / "frame" / "Activity_start.xml"
    text = frame.read_text(encoding="utf-8")
    unit = re.search(r'<lexUnit [^>]*?name="([^"]+)\.v"[^>]*?>', text)
    bare = unit.group(0).replace(f'name="{unit.group(1)}.v"', f'name="{unit.group(1)}"')
    frame.write_text(text.replace(unit.group(0), re.sub(r' POS="[^"]*"', "", bare), 1), encoding="utf-8")
    index = folder / "luIndex.xml"
    index.write_text(index.read_text(encoding="utf-8").replace(f'name="{unit.group(1)}.v"', f'name="{unit.group(1)}"'),
                     encoding="utf-8")


def _marks(tmp: Path, text: str) -> None:
    (tmp / "marks").mkdir()
    _rows(tmp / "marks" / "frames.jsonl", _frame_row("A"))
    _rows(tmp / "marks" / "exemplars.jsonl", {"lu": "ago.v", "frame": "A", "text": text})


def _negative_version(tmp: Path) -> None:
    shutil.copy(tmp / "fb.db", tmp / "neg.db")
    with sqlite3.connect(tmp / "neg.db") as conn:
        conn.execute("PRAGMA user_version = -5")
    conn.close()


def _foreign_lexicons(tmp: Path) -> None:
    with sqlite3.connect(tmp / "otherlex.db") as conn:
        conn.execute("CREATE TABLE lexicons (id INTEGER PRIMARY KEY, title TEXT, words INTEGER)")
        conn.execute("INSERT INTO lexicons (title, words) VALUES ('Oxford', 600000)")
    conn.close()


def _fifo_frameindex(tmp: Path) -> None:
    folder = tmp / "fifolex"
    (folder / "frame").mkdir(parents=True)
    os.mkfifo(folder / "frameIndex.xml")
    (folder / "luIndex.xml").write_text("<luIndex></luIndex>")


def _newer_format(tmp: Path) -> None:
    row = json.loads(ENTRIES.read_text(encoding="utf-8").splitlines()[0])
    row["format"] = "fbagent-export/999"
    (tmp / "newer.jsonl").write_text(json.dumps(row) + "\n")


SETUPS_43 = {
    "jsonl_id_2_63": lambda tmp: _rows(tmp / "big.jsonl", _frame_row("A", id=2**63)),
    "jsonl_cycle": lambda tmp: _rows(tmp / "cycle.jsonl",
                                     _frame_row("A", relations=[{"type": "Inheritance", "super_frame": "B"}]),
                                     _frame_row("B", relations=[{"type": "Inheritance", "super_frame": "A"}])),
    "jsonl_self": lambda tmp: _rows(tmp / "self.jsonl",
                                    _frame_row("A", relations=[{"type": "Inheritance", "super_frame": "A"}])),
    "jsonl_dup_id": lambda tmp: _rows(tmp / "dupid.jsonl", _frame_row("A", id=7), _frame_row("B", id=7)),
    "jsonl_dup_name": lambda tmp: _rows(tmp / "dupname.jsonl", _frame_row("A"), _frame_row("A")),
    "jsonl_blank": lambda tmp: _rows(tmp / "blank.jsonl", _frame_row("   ")),
    "jsonl_bidi": lambda tmp: _rows(tmp / "bidi.jsonl", _frame_row("Evil\u202eemag")),
    "jsonl_empty_mark": lambda tmp: _marks(tmp, "She <t></t> left early."),
    "jsonl_unclosed_mark": lambda tmp: _marks(tmp, "She <t>left early."),
    "jsonl_dup_key": lambda tmp: _rows(tmp / "dupkey.jsonl", json.dumps(_frame_row("A"))[:-1] + ', "frame": "B"}'),
    "xml_dup_id": lambda tmp: _xml_dup(tmp, "xmlid", same_id=True),
    "xml_dup_name": lambda tmp: _xml_dup(tmp, "xmlname", same_id=False),
    "xml_no_pos": _xml_no_pos,
    "negative_version": _negative_version,
    "foreign_lexicons": _foreign_lexicons,
    "fifo_frameindex": _fifo_frameindex,
    "newer_format": _newer_format,
}


# --- issue 40: damaged or mistaken input to `lexicon add` in every layout (session 12's rough edges)
def _kfn_cut(tmp: Path) -> None:
    from tests.lexicon_layouts import KFN_TSV, write_kfn

    write_kfn(tmp / "kfn", tsv=KFN_TSV[:KFN_TSV.index("#anno-id:2") + len("#anno-id:2\n#text:그녀는 회")])


def _kfn_latin1(tmp: Path) -> None:
    from tests.lexicon_layouts import KFN_TSV, write_kfn

    tsv = write_kfn(tmp / "kfn") / "data" / "1.2" / "dev.tsv"
    tsv.write_bytes(KFN_TSV.replace("아침에", "café").encode("utf-8").replace("é".encode(), b"\xe9"))


def _empty_conll(tmp: Path) -> None:
    (tmp / "lv").mkdir()
    for name in ("a.conll2009", "b.conll2009"):
        (tmp / "lv" / name).write_text("", "utf-8")


def _cut_zip(tmp: Path) -> None:
    import zipfile

    from fbagent.lexicon.importer import embedded_path

    with zipfile.ZipFile(tmp / "fn.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(embedded_path().rglob("*.xml")):
            zf.write(file, f"fn/{file.relative_to(embedded_path())}")
    data = (tmp / "fn.zip").read_bytes()
    (tmp / "fn.zip").write_bytes(data[: len(data) // 2])


def _kfn_zip(tmp: Path) -> None:
    import zipfile

    from tests.lexicon_layouts import write_kfn

    root = write_kfn(tmp / "koreanframenet-master")
    with zipfile.ZipFile(tmp / "kfn.zip", "w") as zf:
        for file in sorted(root.rglob("*")):
            zf.write(file, file.relative_to(tmp).as_posix())


SETUPS_40 = {
    "kfn_zip": _kfn_zip,
    "kfn_cut_last_block": _kfn_cut,
    "kfn_latin1": _kfn_latin1,
    "lus_csv": lambda tmp: (tmp / "lus.csv").write_text("lu,frame\ngo.v,Motion\n", "utf-8"),
    "empty_conll": _empty_conll,
    "cut_zip": _cut_zip,
}
CASES += [
    _c("lexicon-add-kfn-tsv-cut-in-last-block", *LEX_ADD, "{tmp}/kfn", "--lang", "ko", "--db", "{db}",
       setup="kfn_cut_last_block", says=("dev.tsv:9: the file ends inside the sentence block of line 8",)),
    _c("lexicon-add-lu-list-on-a-folder", *LEX_ADD, "{tmp}/empty", "--format", "lu-list", "--lang", "en",
       "--db", "{db}", setup="empty_dir", says=("is a folder, but --format lu-list reads one file",)),
    _c("lexicon-add-jsonl-forced-on-csv", *LEX_ADD, "{tmp}/lus.csv", "--format", "jsonl", "--lang", "en",
       "--db", "{db}", setup="lus_csv", says=("lus.csv holds an LU list", "pass --format lu-list")),
    _c("lexicon-add-conll-every-file-empty", *LEX_ADD, "{tmp}/lv", "--lang", "lv", "--db", "{db}",
       setup="empty_conll", says=("every CoNLL-2009 file is empty (2: a.conll2009, b.conll2009)",)),
    _c("lexicon-add-kfn-latin1", *LEX_ADD, "{tmp}/kfn", "--lang", "ko", "--db", "{db}", setup="kfn_latin1",
       says=("dev.tsv is not UTF-8 text (byte 0xe9 on line 2", "iconv -f LATIN1 -t UTF-8")),
    _c("lexicon-add-kfn-zip", *LEX_ADD, "{tmp}/kfn.zip", "--lang", "ko", "--db", "{db}", setup="kfn_zip",
       says=("kfn.zip: a zip archive of the Korean FrameNet", "koreanframenet-master/resource/1.2/KFN_lus.json inside",
             "Fix: unzip it first (unzip kfn.zip) and pass the folder: fbagent lexicon add koreanframenet-master")),
    _c("lexicon-add-truncated-zip", *LEX_ADD, "{tmp}/fn.zip", "--lang", "en", "--db", "{db}", setup="cut_zip",
       says=("fn.zip: a damaged zip archive", "fetch the archive again")),
    _c("lexicon-add-license-without-version", *LEX_ADD, "{tmp}/lus.csv", "--lang", "en", "--license", "cc-by-nc-sa",
       "--db", "{db}", setup="lus_csv", says=("is not an SPDX licence id (close ones: CC-BY-NC-SA-4.0",)),
]

# --- session 15's new-user pass (issue-ux): what a clean clone's docs led to
CASES += [
    # a traceback (FileExistsError from matplotlib's folder) after the whole audit had run
    _c("audit-plots-is-a-file", "audit", "--run", "run1", "--no-encoder", "--plots", "{tmp}/afile", "--db", "{db}",
       setup="a_file", says=("--plots folder", "is an existing file, not a folder", "pass --plots with a new")),
    _c("audit-plots-under-a-file", "audit", "--run", "run1", "--no-encoder", "--plots", "{tmp}/afile/p", "--db",
       "{db}", setup="a_file", says=("lies under", "which is an existing file")),
    # a traceback (FileExistsError) after the tables were printed
    _c("eval-report-out-is-a-file", "eval", "report", "{tmp}", "--out", "{tmp}/afile", setup="a_file",
       says=("--out folder", "is an existing file, not a folder", "report.md, report.csv and the figure")),
    _c("eval-report-out-under-a-file", "eval", "report", "{tmp}", "--out", "{tmp}/afile/report", setup="a_file",
       says=("lies under", "which is an existing file")),
    # "Fix: fix that line" for a file that is no JSONL at all
    _c("eval-sembench-dictionary-not-jsonl", "eval", "sembench", "--dictionary", "{tmp}/afile", "--backend", "local",
       "--out", "{tmp}/s", setup="a_file", says=("afile:1: not valid JSON", 'one JSON object per line, {"word"',
                                                 "--dictionary wordnet")),
    # left an empty database file behind (made for the embedded sample, which was not asked for)
    _c("db-missing-lexicon-show-a-name", "lexicon", "show", "fn-x", "--db", "{tmp}/none.db", db="none",
       says=("database", "none.db does not exist")),
    # a refused first command left an empty database file behind
    _c("pairs-select-unknown-lexicon-no-db", "pairs", "select", "--pairs", "3", "--lexicon", "fn-x", "--db",
       "{tmp}/none.db", db="none", says=("unknown lexicon 'fn-x'",)),
    _c("verifier-calibrate-unknown-lexicon-no-db", "verifier", "calibrate", "--lexicon", "fn-x", "--db",
       "{tmp}/none.db", db="none", says=("unknown lexicon 'fn-x'",)),
]

# --- session 16 (ux): leftovers and the new user's second trial
CASES += [
    # "cannot write .../afile/r.md (Not a directory)": which part is a file was left to guess
    _c("validate-report-out-under-a-file", "validate", "report", "--out", "{tmp}/afile/r.md", "--db", "{db}",
       setup="a_file", says=("afile is an existing file, not a folder", "pass an output file in a folder")),
    _c("export-out-under-a-file", "export", "{tmp}/afile/x/e.jsonl", "--db", "{db}", setup="a_file",
       says=("afile is an existing file, not a folder", "e.g. ")),
    # "cannot read validation report FILE" without why, after the bootstrap of every result folder
    _c("eval-report-validation-report-not-json", "eval", "report", "{tmp}", "--validation-report", "{tmp}/afile",
       setup="a_file", says=("validation report", "afile is not JSON (Expecting value at line 1, column 1)",
                             "validate report --format json --out report.json")),
    _c("eval-report-validation-report-empty", "eval", "report", "{tmp}", "--validation-report", "{tmp}/empty.jsonl",
       setup="empty_file", says=("empty.jsonl is empty", "validate report --format json")),
    # the new user's second trial (session 16): a file where a folder goes, a folder where a file goes, a fix that
    # named another command's file
    _c("eval-report-result-is-a-file", "eval", "report", "{tmp}/afile", setup="a_file",
       says=("afile is a file, not a result folder", "written by `fbagent eval run`")),
    _c("eval-sembench-dictionary-is-a-folder", "eval", "sembench", "--dictionary", "{tmp}/empty", "--backend", "local",
       "--out", "{tmp}/s", setup="empty_dir", says=("dictionary", "empty is a folder, not a file", "--dictionary wordnet")),
    _c("validate-report-out-is-the-db", "validate", "report", "--format", "json", "--out", "{db}", "--db", "{db}",
       says=("is an SQLite database", "e.g. report.json")),
    # an empty (0-byte) --db: the commands that need an existing database wrote the whole schema into it, then
    # refused (annotate: "no generated entries") or said "has schema version 14 already: nothing to do" (db upgrade)
    _c("annotate-db-empty-file", "annotate", "--annotator", "bob", "--db", "{tmp}/empty.jsonl", db="none",
       setup="empty_file", says=("empty.jsonl is an empty database (no fbagent tables)",)),
    _c("db-upgrade-empty-file", "db", "upgrade", "--db", "{tmp}/empty.jsonl", db="none", setup="empty_file",
       says=("empty.jsonl is an empty database (no fbagent tables)",)),
    _c("annotators-invite-empty-file", "annotators", "invite", "bob", "--db", "{tmp}/empty.jsonl", db="none",
       setup="empty_file", says=("empty.jsonl is an empty database (no fbagent tables)",)),
]


CONLLU = ("# sent_id = 1\n# text = She held the cup.\n1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n"
          "2\theld\thold\tVERB\tVBD\t_\t0\troot\t_\t_\n3\tthe\tthe\tDET\tDT\t_\t4\tdet\t_\t_\n"
          "4\tcup\tcup\tNOUN\tNN\t_\t2\tobj\t_\tSpaceAfter=No\n5\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n\n")


def _foreign_files(tmp: Path) -> None:
    """Files of other tools, as they write them (a line or two each)."""
    _rows(tmp / "prodigy.jsonl", {"text": "She held the cup.", "label": "Manipulation", "answer": "accept",
                                  "_input_hash": 12, "_task_hash": 34})
    _rows(tmp / "argilla.jsonl", {"id": "1", "fields": {"text": "She held the cup."},
                                  "responses": {"label": [{"value": "Manipulation", "user_id": "u1"}]}})
    (tmp / "results.json").write_text(json.dumps({"results": {"hellaswag": {"acc,none": 0.5}}, "versions":
                                                  {"hellaswag": 1}, "config": {"model": "hf"}}, indent=2))
    _rows(tmp / "samples.jsonl", {"doc_id": 0, "doc": {"q": "x"}, "target": "1", "resps": [["1"]]})
    _rows(tmp / "bench.jsonl", *(json.loads(line) for line in ENTRIES.read_text(encoding="utf-8").splitlines()[:2]))
    (tmp / "lm" / "gpt2").mkdir(parents=True)
    shutil.copy(tmp / "results.json", tmp / "lm" / "gpt2" / "results_2026-12-07T09-00-00.json")
    (tmp / "tasks" / "data").mkdir(parents=True)   # the layout of `export --format lm-eval`
    (tmp / "tasks" / "_framebench_en.yaml").write_text("group: framebench_en\ntask:\n  - framebench_en_v1\n")
    (tmp / "tasks" / "framebench_en_v1.yaml").write_text("task: framebench_en_v1\ndataset_path: json\n")
    _rows(tmp / "tasks" / "data" / "framebench_en.jsonl", {"query": "Which?", "choices": ["1", "2", "3", "4"]})
    (tmp / "treebank.conllu").write_text(CONLLU, encoding="utf-8")
    (tmp / "treebank.txt").write_text(CONLLU * 3, encoding="utf-8")
    (tmp / "results_full.json").write_text(json.dumps({"results": {"framebench_en": {"acc,none": 0.25}},
                                                       "versions": {"framebench_en": 1}, "n-shot": {}}, indent=2))
    _rows(tmp / "lexicon.jsonl", {"frame": "Placing", "definition": "An Agent places a Theme.", "lus": [{"name": "put.v"}]})
    sentences = {f"sentence_{k}": f"She {v} it." for k, v in (("a", "left"), ("b", "put"), ("a_prime", "quit"),
                                                               ("b_prime", "set"))}
    votes = {f"{c}_annotator{i}_{p}": False for c in ("match_answer", "quality") for i in (1, 2, 3)
             for p in ("ab", "prime")}   # nobody judged either pair correct: the authors' filter keeps nothing
    _rows(tmp / "fb_unjudged.jsonl", {"original_qa_id": "q1", "lex_unit_name": "leave.v",
                                      "question": "Select all sentences where someone goes away.", **sentences, **votes})


def _no_frameindex(tmp: Path) -> None:
    (_sample_copy(tmp, "noindex") / "frameIndex.xml").unlink()


SETUPS_NU = {"foreign_files": _foreign_files, "no_frameindex": _no_frameindex}


def _dump(path: Path) -> list[str] | None:
    """The database as SQL text (read-only; None when there is no database file)."""
    if not path.is_file():
        return None
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def base_db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bad-input") / "base.db"
    db = make_db(path, n=4)
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.conn.close()
    return path


def _env(case: Case, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY", "FBAGENT_DB",
                        "FBAGENT_OPENAI_MODE", "FBAGENT_OPENAI_TRANSPORT")}
    env.update({"COLUMNS": "200", **{k: v.format(tmp=home) for k, v in case.env.items()}})
    return env


def test_every_case_names_a_word_of_its_message() -> None:
    """A case that asserted no word could pass on another error (a usage error, a typo in its options)."""
    assert all(c.says for c in CASES), [c.id for c in CASES if not c.says]
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case, base_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "fb.db"
    if case.db == "base":
        shutil.copy(base_db, db)
    _setup(case.setup, tmp_path)
    args = [a.format(db=db, tmp=tmp_path, entries=ENTRIES) for a in case.args]
    before = _dump(db)
    watched = [tmp_path / "fresh.db", tmp_path / "none.db", tmp_path / "no"]
    existed = {p: p.exists() for p in watched}
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True,
                          env=_env(case, tmp_path), timeout=240, stdin=subprocess.DEVNULL)
    err_lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    shown = f"exit {proc.returncode}\nstdout: {proc.stdout[-1500:]}\nstderr: {proc.stderr[-3000:]}"
    assert proc.returncode == case.code, shown
    assert "Traceback" not in proc.stderr + proc.stdout, shown
    assert "\x1b" not in proc.stderr + proc.stdout and "\x07" not in proc.stderr, "a control character reached the terminal"
    assert 1 <= len(err_lines) <= 2, shown
    line = next((ln for ln in err_lines if ln.startswith("error:")), "")
    assert line, shown
    assert "Fix:" in line or "--help`" in line, shown
    for word in case.says:
        assert word in line, shown
    if case.code == 2:  # bad input changes nothing; an exit-1 run keeps the record of what it tried
        assert _dump(db) == before, "the database changed"
    for path, was in existed.items():
        assert path.exists() == was, f"{path} was {'removed' if was else 'created'}"
    if case.code == 2:   # no upgrade's copy beside a refused file (issue 43: `.v-5.bak`, `.v0.bak`)
        assert not list(tmp_path.glob("*.bak")), list(tmp_path.glob("*.bak"))


def test_full_disk_is_one_line(tmp_path: Path) -> None:
    """`lexicon add` into a database on a full file system: one line naming the full disk, exit 2."""
    mount = tmp_path / "small"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({proc.stderr.strip() or 'mount failed'})")
    try:
        from fbagent.lexicon.importer import embedded_path

        sample = embedded_path()
        run = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicon", "add", str(sample), "--lang", "en",
                              "--db", str(mount / "fb.db")], capture_output=True, text=True, timeout=240,
                             stdin=subprocess.DEVNULL)
        err_lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr and 1 <= len(err_lines) <= 2, run.stderr
        assert "disk" in err_lines[-1].lower() and "Fix:" in err_lines[-1], run.stderr
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


@pytest.mark.parametrize("args", [
    ["pairs", "select", "--pairs", "2", "--no-require-core-fe"],
    ["export", "--out", "{mount}/out.jsonl"],
    ["lexicon", "list"],
    ["generate", "--pairs", "1", "--generator", "openai", "--base-url", UNREACHABLE, "--no-screen",
     "--no-require-core-fe", "--llm-retries", "0"],
], ids=["pairs-select", "export", "lexicon-list", "generate"])
def test_nearly_full_disk_is_one_line_and_changes_nothing(tmp_path: Path, base_db: Path, args: list[str]) -> None:
    """A database on a file system with a few KB left: each command says so in one line; the data is intact."""
    mount = tmp_path / "small"
    mount.mkdir()
    size = base_db.stat().st_size + 1024 * 1024
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({proc.stderr.strip() or 'mount failed'})")
    try:
        db = mount / "fb.db"
        shutil.copy(base_db, db)
        before = _dump(db)
        free = shutil.disk_usage(mount).free
        (mount / "filler").write_bytes(b"\0" * max(0, free - 8 * 1024))  # leave about 8 KB
        env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "FBAGENT_DB")}
        run = subprocess.run([sys.executable, "-m", "fbagent.cli", *[a.format(mount=mount) for a in args],
                              "--db", str(db)], capture_output=True, text=True, timeout=240,
                             stdin=subprocess.DEVNULL, env=env)
        err_lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
        if run.returncode == 0:  # a read that fit: nothing to report, and nothing may have changed
            assert not err_lines or all("warning" in ln for ln in err_lines), run.stderr
        else:
            assert run.returncode in (1, 2), run.stderr
            assert "Traceback" not in run.stderr and 1 <= len(err_lines) <= 2, run.stderr
            assert "Fix:" in err_lines[-1], run.stderr
            assert "another file name" not in err_lines[-1], run.stderr  # not "not a usable database"
        (mount / "filler").unlink()
        assert _dump(db) == before
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_seeds_of_64_bits_are_stored_and_read_back(tmp_path: Path) -> None:
    """Seeds up to 2**64-1 are accepted, stored losslessly (two's complement in SQLite) and read back."""
    from fbagent import seeds
    from fbagent.store import runs as runs_store
    from fbagent.store.db import open_db

    big = 2**64 - 1
    assert seeds.from_sql(seeds.to_sql(big)) == big and seeds.to_sql(big) == -1
    assert seeds.from_sql(seeds.to_sql(2**63)) == 2**63 and seeds.to_sql(2**63 - 1) == 2**63 - 1
    assert seeds.request_seed(7) == 7 and 0 <= seeds.request_seed(big) < 2**31
    db = make_db(tmp_path / "s.db", n=1)
    run = runs_store.create_run(db, name="big-seed", command="fbagent generate", lexicon_id=1, generator="local",
                                model="m", verifier_generator="local", verifier_model="m", encoder=None, seed=big,
                                options={}, prompt_versions={})
    assert runs_store.get_run(db, "big-seed")["seed"] == big and run["seed"] == big
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "pairs", "select", "--pairs", "1", "--seed", str(big),
                           "--no-require-core-fe", "--db", str(tmp_path / "s.db")], capture_output=True, text=True,
                          timeout=240, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    db2 = open_db(tmp_path / "s.db", read_only=True)
    from fbagent.store.pairs import list_selections

    assert list_selections(db2)[-1]["seed"] == big


def test_a_byte_order_mark_is_accepted_everywhere(tmp_path: Path) -> None:
    """Issue 30 item 4: a UTF-8 byte-order mark is accepted by every reader of text input (it was accepted by
    `lexicon add` and refused by `eval run`): the same entries and lexicon as without it."""
    from fbagent.eval.dataset import read_entries
    from fbagent.eval.jsonl import jsonl_objects
    from fbagent.lexicon.importer import embedded_path
    from fbagent.lexicon.jsonl_reader import read_jsonl

    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + ENTRIES.read_bytes())
    assert read_entries(bom) == read_entries(ENTRIES)
    assert [v for _, v in jsonl_objects(bom, "fix")] == [v for _, v in jsonl_objects(ENTRIES, "fix")]
    sample = Path(embedded_path()).parent / "sample_en_jsonl"
    folder = tmp_path / "lex"
    folder.mkdir()
    for name in ("frames.jsonl", "exemplars.jsonl"):
        (folder / name).write_bytes(b"\xef\xbb\xbf" + (sample / name).read_bytes())
    with_bom, without = read_jsonl(folder), read_jsonl(sample)
    assert (with_bom.frames, with_bom.lexical_units) == (without.frames, without.lexical_units)  # hash: of the bytes


def test_annotator_names_are_normalised() -> None:
    """`bob` and `bob` + a zero-width space (or a word joiner, a BOM, blanks around) are one annotator; an
    accent precomposed or combined is one name (NFC)."""
    from fbagent.text import check_name

    for name in ("bob", "bob\u200b", "\u2060bob", "\u200dbob\u200c", "b\u00adob", " bob\ufeff "):
        assert check_name(name, "annotator name") == "bob"
    assert check_name("Rene\u0301", "annotator name") == "Ren\u00e9" == check_name("Ren\u00e9", "annotator name")


def test_export_removes_the_stale_temp_files_of_killed_writers_only(tmp_path: Path) -> None:
    """`.NAME.XXXXXXXX.tmp` files beside an output: a killed writer's is removed by the next write, a live
    writer's (flock held) is left; other files are never touched."""
    import fcntl

    from fbagent.files import write_atomic

    out = tmp_path / "o.jsonl"
    stale = tmp_path / ".o.jsonl.k1ll3d_1.tmp"
    live = tmp_path / ".o.jsonl.w0rk1ng2.tmp"
    other = [tmp_path / ".o.jsonl.short.tmp", tmp_path / ".p.jsonl.abcdefgh.tmp", tmp_path / "o.jsonl.abcdefgh.tmp"]
    for path in (stale, live, *other):
        path.write_text("partial")
    fd = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        write_atomic(out, ["done\n"])
        assert not stale.exists() and live.exists() and all(p.exists() for p in other)
    finally:
        os.close(fd)
    assert out.read_text() == "done\n"
    write_atomic(out, ["again\n"])
    assert not live.exists() and all(p.exists() for p in other)


def test_lexicon_add_other_problems_wrap_at_spaces_on_a_terminal(tmp_path: Path) -> None:
    """`lexicon add` of a file with several problems, on a 60-column terminal (Rich forced to one by
    FORCE_COLOR): the "other problems" line is wrapped at spaces, never inside a word, before the error line."""
    import re

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"frame": "Departing", "definition": "x"}\n' + "".join(f"{{not json {i}\n" for i in range(4)))
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicon", "add", bad.name, "--lang", "en", "--db",
                           str(tmp_path / "fb.db")], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**env, "FORCE_COLOR": "1", "COLUMNS": "60"}, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2, proc.stderr
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", proc.stderr)
    start = text.index("other problems:")
    others = text[start:text.index("error:", start)].splitlines()
    assert len(others) > 1 and all(len(line) <= 60 for line in others), others
    joined = " ".join(line.strip() for line in others)
    assert joined == "other problems: " + " | ".join(
        [f"{bad.name}:1: 'lexical_units' is a required property"]
        + [f"{bad.name}:{n}: not valid JSON (Expecting property name enclosed in double quotes at column 2)"
           for n in range(2, 6)]), joined


@pytest.mark.parametrize("what", ["backup", "hf-export"])
def test_a_full_destination_disk_is_named_as_such(tmp_path: Path, base_db: Path, what: str) -> None:
    """Issue 43 item 6: `db backup` to a full disk blamed the database's disk ("pass --db on another disk"); the hf
    export's full-disk line read like a permissions problem. Both now name the destination's full disk."""
    mount = tmp_path / "small"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({proc.stderr.strip() or 'mount failed'})")
    try:
        db = tmp_path / "fb.db"
        shutil.copy(base_db, db)
        before = _dump(db)
        args = (["db", "backup", str(mount / "copy.db")] if what == "backup"
                else ["export", str(mount / "hf"), "--format", "hf"])
        run = subprocess.run([sys.executable, "-m", "fbagent.cli", *args, "--db", str(db)], capture_output=True,
                             text=True, timeout=240, stdin=subprocess.DEVNULL)
        lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
        assert run.returncode == 2 and len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
        line = lines[0]
        if what == "backup":
            assert f"the disk holding the backup {mount / 'copy.db'} is full" in line, line
            assert "pass --db" not in line and "DEST on another disk" in line, line
        else:
            assert "disk is full" in line and "another disk" in line, line
        assert os.listdir(mount) == [] and _dump(db) == before
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)
