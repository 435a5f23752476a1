"""`fbagent export`: deterministic bytes, atomic write, JSON Schema, framebench columns, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.publish.jsonl import SCHEMA_PATH, export, export_records, write_jsonl
from fbagent.store import open_db
from fbagent.store.revisions import save_revision

FRAMEBENCH_COLUMNS = [
    "original_qa_id", "lex_unit_name", "question", "sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime",
    *[f"{kind}_annotator{i}_{p}" for i in (1, 2, 3) for kind in ("match_answer", "quality") for p in ("ab", "prime")],
]


def run_cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "e.db"
    db = make_db(path, n=4, statuses=("verified", "flagged", "rejected", "verified"))
    save_revision(db, "run1:2:0", "question_four_choice", "Select all sentences where someone ran on foot.", "lead")
    return path


def test_deterministic_bytes_and_schema(db_path, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        res = run_cli("export", str(out), "--db", str(db_path))
        assert res.returncode == 0, res.stderr
        assert "wrote 3 entries" in res.stdout  # the rejected entry is left out by default
    assert a.read_bytes() == b.read_bytes()
    schema = json.loads(SCHEMA_PATH.read_text())
    lines = a.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    recs = [json.loads(x) for x in lines]
    for r in recs:
        jsonschema.validate(r, schema)
    assert [r["id"] for r in recs] == ["run1:1:0", "run1:2:0", "run1:4:0"]
    r = recs[1]
    assert r["question_four_choice"] == "Select all sentences where someone ran on foot."
    assert r["revised_fields"] == ["question_four_choice"] and r["revised"] is True
    assert r["frame_a"] == "Self_motion" and r["lu"] == "run.v" and r["run"] == "run1"
    assert r["verifier"]["sentences"]["sentence_b_prime"]["pass"] is False and r["status"] == "flagged"
    assert r["human"] == {"annotators": [], "entry_scores": {}, "n_correct": 0, "n_acceptable": 0,
                          "min_correct": 2, "min_acceptable": 2, "kept": False, "vote_kept": False,
                          "outcome": "votes", "adjudication": None, "adjudication_set_aside": None, "pairs": {}}
    s, e = r["target_spans"]["sentence_b_prime"]
    assert r["sentence_b_prime"][s:e] == "runs"
    # no leftover temp files
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_framebench_columns_exact(db_path, tmp_path):
    out = tmp_path / "fb.jsonl"
    res = run_cli("export", str(out), "--db", str(db_path), "--format", "framebench", "--status", "all")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 4
    schema = json.loads(SCHEMA_PATH.read_text())
    for row in rows:
        assert list(row) == FRAMEBENCH_COLUMNS
        jsonschema.validate(row, schema)
        assert all(row[c] is False for c in FRAMEBENCH_COLUMNS[7:])  # nobody annotated yet: false, never null
    assert rows[1]["question"] == "Select all sentences where someone ran on foot."  # four-choice form
    assert rows[0]["lex_unit_name"] == "leave.v" and rows[0]["original_qa_id"] == "run1:1:0"


def test_validated_without_judgments_is_an_error(db_path, tmp_path):
    res = run_cli("export", str(tmp_path / "v.jsonl"), "--db", str(db_path), "--validated")
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "no" in res.stderr and "Fix:" in res.stderr
    assert not (tmp_path / "v.jsonl").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--run", "nope"], "unknown run 'nope'"),
        (["--format", "csv"], "unknown export format"),
        (["--status", "bogus"], "unknown statuses"),
    ],
)
def test_bad_input_one_line_exit_2(db_path, tmp_path, args, needle):
    out = tmp_path / "x.jsonl"
    res = run_cli("export", str(out), "--db", str(db_path), *args)
    assert res.returncode == 2
    assert needle in res.stderr and "Fix:" in res.stderr and res.stderr.count("\n") == 1
    assert not out.exists()


def test_unwritable_out_and_empty_db(db_path, tmp_path):
    res = run_cli("export", str(tmp_path / "missing" / "x.jsonl"), "--db", str(db_path))
    assert res.returncode == 2 and "does not exist" in res.stderr and res.stderr.count("\n") == 1
    res = run_cli("export", str(tmp_path), "--db", str(db_path))
    assert res.returncode == 2 and "is a folder" in res.stderr
    empty = tmp_path / "empty.db"
    open_db(empty)
    res = run_cli("export", str(tmp_path / "x.jsonl"), "--db", str(empty))
    assert res.returncode == 2 and "no generated entries" in res.stderr
    res = run_cli("export", str(tmp_path / "x.jsonl"), "--db", str(tmp_path / "nope.db"))
    assert res.returncode == 2 and "does not exist" in res.stderr
    assert not (tmp_path / "nope.db").exists()


def test_failed_write_leaves_old_file_intact(db_path, tmp_path):
    out = tmp_path / "keep.jsonl"
    out.write_text("old\n")
    records = [{"id": "ok"}, {"id": object()}]  # the second line fails half-way through the write
    with pytest.raises(TypeError):
        write_jsonl(records, out)
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".keep")] == []


def test_export_function_counts(db_path, tmp_path):
    db = open_db(db_path)
    assert export(db, tmp_path / "o.jsonl", statuses=("verified",)) == 2
    with pytest.raises(FbagentError, match="unknown run"):
        export_records(db, run="zzz")
    # a second run in the same file: --run selects it by name or id
    make_db(db_path, n=2, run_name="run2")
    assert [r["run"] for r in export_records(db, run="run2")] == ["run2", "run2"]
    assert len(export_records(db, run="2")) == 2


def test_no_matching_entries_hint_names_only_export_options(tmp_path):
    path = tmp_path / "rej.db"
    make_db(path, n=2, statuses=("rejected",))
    res = run_cli("export", str(tmp_path / "v.jsonl"), "--db", str(path), "--validated")
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    # new user (session 12): the fix names only the options given (none here), and the statuses there are
    assert "(2 entries in the database: 2 rejected). Fix: widen --status (e.g." in res.stderr, res.stderr
    assert "--run" not in res.stderr and "--lang" not in res.stderr
    res = run_cli("export", str(tmp_path / "v.jsonl"), "--db", str(path), "--run", "run1")
    assert res.returncode == 2 and "run run1 (2 entries" in res.stderr, res.stderr
    assert "Fix: drop or change --run, or widen --status" in res.stderr, res.stderr
    assert not (tmp_path / "v.jsonl").exists()


def test_one_format_list_drives_the_writers_and_the_help():
    """fbagent.publish.formats.FORMATS is the one list: every name has a writer, the help names each one."""
    from fbagent.publish.export import WRITERS
    from fbagent.publish.formats import FORMATS, NAMES, help_text

    assert NAMES == ("fbagent", "framebench", "hf", "lm-eval")
    assert set(WRITERS) == set(NAMES)
    assert help_text() == ("fbagent (all fields + human block), framebench (the FrameBench authors' column names), "
                           "hf (Hugging Face dataset folder with its card) or lm-eval (lm-evaluation-harness task folder)")
    assert [f.folder for f in FORMATS] == [False, False, True, True]


def test_validate_report_says_one_kept_entry_in_the_singular(tmp_path):
    from test_validation import scripted_answers

    from fbagent.validation.aggregate import report, tables

    db = make_db(tmp_path / "one.db", n=1)
    scripted_answers(db, "alice")
    titles = [t for t, _, _ in tables(report(db, min_correct=1, min_acceptable=1))]
    assert "Human accuracy on the 1 kept entry" in titles and not any("1 kept entries" in t for t in titles)


def test_help_shows_bracketed_text_rich_would_swallow():
    import os

    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "export", "--help"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert res.returncode == 0 and "(default: the package's [project.urls])" in res.stdout, res.stdout
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--help"], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert res.returncode == 0 and "terminal. [default: none:" in res.stdout, res.stdout


def test_an_output_never_replaces_the_database(db_path, tmp_path):
    """`export DB --db DB` (and a link to it, its -wal file, `validate report --out DB`) is refused in one line;
    the database stays byte for byte (it used to be overwritten with JSONL, exit 0)."""
    import hashlib
    import sqlite3

    done = sqlite3.connect(db_path)   # the fixture's writes, all in the file
    done.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    done.close()
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    (tmp_path / "link.db").symlink_to(db_path)
    other = sqlite3.connect(tmp_path / "other.db")   # any SQLite database, and a file beside it
    other.execute("CREATE TABLE t (x)")
    other.close()
    (tmp_path / "other.db-wal").write_bytes(b"")
    cases = [("export", str(db_path), "--db", str(db_path)),
             ("export", str(tmp_path / "link.db"), "--db", str(db_path), "--format", "framebench"),
             ("export", str(tmp_path / "other.db"), "--db", str(db_path)),
             ("export", str(tmp_path / "other.db-wal"), "--db", str(db_path)),
             ("validate", "report", "--format", "md", "--out", str(db_path), "--db", str(db_path))]
    for args in cases:
        res = run_cli(*args)
        assert res.returncode == 2, (args, res.stderr)
        assert res.stderr.count("\n") == 1 and "an output never replaces" in res.stderr and "Fix:" in res.stderr, args
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before
    assert (tmp_path / "other.db-wal").read_bytes() == b""


def test_export_to_standard_output_keeps_the_messages_on_stderr(db_path, tmp_path):
    """`export -` writes the JSONL to standard output (every line a JSON entry, as the file would hold) and the
    command's own lines to standard error; no file named '-' appears."""
    res = run_cli("export", "-", "--db", str(db_path), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and all(r["format"] == "fbagent-export/1" for r in rows)
    assert "wrote 3 entries (fbagent format) to standard output" in res.stderr
    out = tmp_path / "e.jsonl"
    assert run_cli("export", str(out), "--db", str(db_path)).returncode == 0
    assert res.stdout == out.read_text()   # the same bytes as the file
    assert not (tmp_path / "-").exists()
