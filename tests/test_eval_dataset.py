"""Reading evaluation datasets: fbagent export format, FrameBench authors' columns, bad lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.eval.dataset import human_accuracy, read_entries

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"


def framebench_row(i: int, **over) -> dict:
    row = {
        "original_qa_id": f"fb-{i}", "lex_unit_name": "leave.v",
        "question": "Select all sentences that imply that someone goes away from a place.",
        "sentence_a": "She left the office at noon.", "sentence_b": "She left her umbrella at the office.",
        "sentence_a_prime": "The train leaves the station every hour.",
        "sentence_b_prime": "He left a note for his roommate on the fridge.",
    }
    for a in (1, 2, 3):
        row[f"match_answer_annotator{a}_ab"] = True
        row[f"match_answer_annotator{a}_prime"] = a != 3  # annotator 3 got the extended pair wrong
        row[f"quality_annotator{a}_ab"] = True
        row[f"quality_annotator{a}_prime"] = True
    row.update(over)
    return row


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_fbagent_format_file():
    entries = read_entries(DATA)
    assert len(entries) == 10
    e = entries[0]
    assert e.id == "handmade:1:0"
    assert e.source_format == "fbagent"
    assert e.verb == "leave" and e.lu == "leave.v" and e.language == "en"
    assert e.frame_a == "Departing" and e.frame_b == "Placing"
    # the four-choice form of the question is the one shown to models
    assert e.question == "Select all sentences that imply that someone goes away from a place."
    assert e.sentence_b_prime == "He left a note for his roommate on the fridge."
    assert set(e.human_correct) == {"ann1", "ann2", "ann3"}
    assert human_accuracy(entries) == 1.0


def test_framebench_columns(tmp_path):
    path = write_jsonl(tmp_path / "fb.jsonl", [framebench_row(1), framebench_row(2, lex_unit_name="run.v")])
    entries = read_entries(path, default_lang="en")
    assert [e.id for e in entries] == ["fb-1", "fb-2"]
    assert entries[0].source_format == "framebench"
    assert entries[0].verb == "leave" and entries[1].verb == "run"
    assert entries[0].language == "en"
    assert entries[0].human_correct == {"annotator1": (True, True), "annotator2": (True, True),
                                        "annotator3": (True, False)}
    # mean over annotators of correct answers on both pairs: (1 + 1 + 0.5) / 3
    assert human_accuracy(entries) == pytest.approx(2.5 / 3)


def test_mixed_conventions_and_limit(tmp_path):
    first = DATA.read_text(encoding="utf-8").splitlines()[0]
    path = write_jsonl(tmp_path / "mixed.jsonl", [first, "", framebench_row(7)])
    entries = read_entries(path)
    assert [e.source_format for e in entries] == ["fbagent", "framebench"]
    assert len(read_entries(path, limit=1)) == 1


@pytest.mark.parametrize("bad, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    (json.dumps({"foo": 1}), "neither 'id'"),
    (json.dumps(framebench_row(3, sentence_b="")), "field 'sentence_b' is missing or empty"),
    (json.dumps({k: v for k, v in framebench_row(4).items() if k != "lex_unit_name"}), "'lex_unit_name'"),
])
def test_bad_line_names_file_and_line(tmp_path, bad, message):
    path = write_jsonl(tmp_path / "bad.jsonl", [framebench_row(1), bad])
    with pytest.raises(FbagentError) as err:
        read_entries(path)
    assert f"{path}:2" in str(err.value)
    assert message in str(err.value)
    assert "Fix:" in str(err.value)


def test_duplicate_id_and_missing_file(tmp_path):
    path = write_jsonl(tmp_path / "dup.jsonl", [framebench_row(1), framebench_row(1)])
    with pytest.raises(FbagentError, match="repeats line 1"):
        read_entries(path)
    with pytest.raises(FbagentError, match="does not exist"):
        read_entries(tmp_path / "missing.jsonl")
    with pytest.raises(FbagentError, match="has no entries") as err:
        read_entries(write_jsonl(tmp_path / "empty.jsonl", [""]))
    # the fix names the filter's options, not the `export --validated` that wrote the empty file
    assert "--min-correct 1 --min-acceptable 1" in err.value.fix and "without --validated" in err.value.fix


def test_handmade_file_follows_the_export_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[1] / "fbagent" / "json_schemas" / "export.schema.json")
                        .read_text(encoding="utf-8"))
    for line in DATA.read_text(encoding="utf-8").splitlines():
        jsonschema.validate(json.loads(line), schema)


def _no_backend(*args, **kwargs):
    raise AssertionError("the backend was created before the dataset and templates were validated")


def test_eval_run_validates_dataset_and_templates_before_the_model(tmp_path, monkeypatch):
    """A bad line 4 or an unknown template is reported before any model is loaded (exit 2)."""
    from typer.testing import CliRunner

    from fbagent.cli import app

    lines = DATA.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines[:3] + ["{not json"] + lines[3:]) + "\n", encoding="utf-8")
    base = ["eval", "run", "--backend", "llamacpp", "--model-path", "/nonexistent.gguf", "--out", str(tmp_path / "o")]
    # the real entry point, real backend (it would fail on the missing GGUF): the dataset line comes first, exit 2
    proc = subprocess.run([sys.executable, "-c", "from fbagent.cli import main; main()", *base, "--dataset", str(broken)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(f"error: {broken}:4: not valid JSON")
    assert "nonexistent" not in proc.stdout + proc.stderr
    # with a backend factory that must never be called
    monkeypatch.setattr("fbagent.providers.registry.create_backend", _no_backend)
    runner = CliRunner()
    res = runner.invoke(app, [*base, "--dataset", str(broken)])
    assert isinstance(res.exception, FbagentError) and f"{broken}:4:" in str(res.exception), res.output
    res = runner.invoke(app, [*base, "--dataset", str(broken), "--limit", "3"])  # --limit: line 4 is never read
    assert isinstance(res.exception, AssertionError), res.output
    res = runner.invoke(app, [*base, "--dataset", str(DATA), "--templates", "v9"])
    assert isinstance(res.exception, FbagentError) and "unknown template(s) ['v9']" in str(res.exception), res.output
    assert not (tmp_path / "o").exists()


def test_the_human_row_uses_the_entries_the_exports_filter_keeps(tmp_path):
    """One number for human accuracy: an fbagent export records its filter per entry (``human.kept``); the Human
    row counts only kept entries, as the dataset card and `validate report` do (a 1-annotator export under the
    default 2-of-3 filter keeps nothing: n/a, not the 100% of every judged entry)."""
    from fbagent.eval.dataset import dataset_human_filter

    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()[:4]]
    for i, row in enumerate(rows):
        row["human"]["kept"] = i < 2   # 2 of 4 kept
        if i == 1:   # ann1 wrong on the base pair of a kept entry: (1/2 + 1 + 1) / 3 annotators
            row["human"]["pairs"]["base"]["ann1"]["correct"] = False
        if i == 3:   # a dropped entry's answers do not count
            for pair in ("base", "extended"):
                for judgment in row["human"]["pairs"][pair].values():
                    judgment["correct"] = False
    entries = read_entries(write_jsonl(tmp_path / "e.jsonl", rows))
    assert dataset_human_filter(entries) == {"min_correct": 2, "min_acceptable": 2, "kept": 2, "judged": 4}
    assert human_accuracy(entries) == pytest.approx((0.75 + 1 + 1) / 3)
    for row in rows:
        row["human"]["kept"] = False
    none_kept = read_entries(write_jsonl(tmp_path / "none.jsonl", rows))
    assert human_accuracy(none_kept) is None
    assert dataset_human_filter(none_kept)["kept"] == 0


def test_eval_report_names_the_filter_of_its_human_accuracy(capsys):
    from types import SimpleNamespace

    from fbagent.commands.eval import _dataset_human

    filt = {"min_correct": 2, "min_acceptable": 2, "kept": 0, "judged": 2}
    none = SimpleNamespace(task="framebench", manifest={"human_accuracy_dataset": None, "human_filter_dataset": filt})
    assert _dataset_human([none]) is None
    assert ("human accuracy: n/a: no entry passes the dataset's filter (0 of 2 judged entries kept at >= 2 correct, "
            ">= 2 acceptable)") in " ".join(capsys.readouterr().err.split())
    kept = SimpleNamespace(task="framebench", manifest={"human_accuracy_dataset": 0.75,
                                                        "human_filter_dataset": {**filt, "kept": 1}})
    assert _dataset_human([kept]) == 0.75
    err = " ".join(capsys.readouterr().err.split())
    assert "human accuracy: 75.0%, the paper-style score on the 1 of 2 judged entries the dataset's filter keeps" in err
