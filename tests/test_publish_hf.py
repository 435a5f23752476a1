"""`fbagent export --format hf`: a folder `datasets.load_dataset` loads as it is, its card, anonymised
annotators, no secrets, English + Japanese configs, `eval run --dataset DIR` reading it back, bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("datasets", reason="the publish extra (datasets) is not installed: pip install 'fbagent[publish]'")
yaml = pytest.importorskip("yaml")

from annotate_factories import add_japanese_run  # noqa: E402
from factories import make_db  # noqa: E402
from test_validation import scripted_answers  # noqa: E402

from fbagent.eval.dataset import read_entries  # noqa: E402
from fbagent.eval.framebench import RunSettings, plan_run  # noqa: E402
from fbagent.publish.jsonl import export_records  # noqa: E402
from fbagent.publish.rows import FIELDS, annotator_columns  # noqa: E402

SECRET = "sk-test" + "0123456789abcdefXYZ"


def run_cli(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def load_in_subprocess(folder, name=None, tmp_path=None) -> dict:
    """``datasets.load_dataset(folder[, name])`` in a fresh interpreter that imports no fbagent code."""
    code = ("import datasets, json, sys\n"
            "ds = datasets.load_dataset(sys.argv[1], *sys.argv[2:])\n"
            "t = ds['test']\n"
            "print(json.dumps({'splits': list(ds), 'n': t.num_rows, 'features': t.features.to_dict(),"
            " 'rows': t.to_list()}, default=str))\n")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "hf-cache")}
    res = subprocess.run([sys.executable, "-c", code, str(folder), *([name] if name else [])], capture_output=True,
                         text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture
def annotated(tmp_path):
    """5 English entries in scope (the sixth is rejected), judged by alice, bob and carol (test_validation's
    script: E1 and E2 pass the filter), plus 3 Japanese entries nobody judged. A key sits in the run's
    command line and a credentialed URL in its options (neither may leave the database)."""
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    db["runs"].update(1, {"command": f"fbagent generate --api-key {SECRET}",
                          "options": json.dumps({"base_url": f"https://user:{SECRET}@llm.example.org/v1",
                                                 "margin": 0.0, "pairs": 6, "api_key": SECRET}),
                          "prompt_versions": json.dumps({"generate_base": "generate/en/base@3", "verify": "verify/en@2"})})
    db.conn.commit()
    add_japanese_run(path, n=3)
    return db, path


def test_loads_as_it_is_with_documented_features(annotated, tmp_path):
    db, path = annotated
    out = tmp_path / "hf"
    res = run_cli("export", str(out), "--db", str(path), "--format", "hf", env={"OPENAI_API_KEY": SECRET})
    assert res.returncode == 0, res.stderr
    assert "wrote 8 entries (en: 5, ja: 3)" in res.stdout
    records = export_records(db)
    default = load_in_subprocess(out, tmp_path=tmp_path)  # config "all" (default with two languages)
    assert default["splits"] == ["test"] and default["n"] == 8
    en = load_in_subprocess(out, "en", tmp_path=tmp_path)
    ja = load_in_subprocess(out, "ja", tmp_path=tmp_path)
    assert (en["n"], ja["n"]) == (5, 3)
    assert [r["id"] for r in en["rows"] + ja["rows"]] == [r["id"] for r in records]
    expected = [*FIELDS, *annotator_columns(3)]
    assert list(en["features"]) == expected and en["features"] == ja["features"] == default["features"]
    by_id = {r["id"]: r for r in records}
    for row in en["rows"] + ja["rows"]:
        rec = by_id[row["id"]]
        for f in ("language", "lexicon", "verb", "lu", "frame_a", "frame_b", "question_four_choice", "sentence_a",
                  "sentence_b", "sentence_a_prime", "sentence_b_prime", "status", "run"):
            assert row[f] == rec[f], f
        assert row["original_qa_id"] == rec["id"] and row["lex_unit_name"] == rec["lu"]
        assert row["question"] == rec["question_four_choice"]  # the authors' meaning of `question`
        assert row["target_spans"]["sentence_a"] == rec["target_spans"]["sentence_a"]
    e2 = next(r for r in en["rows"] if r["id"] == "run1:2:0")
    # test_validation's script, E2: alice base (1,1) extended (0,1); bob all 1; carol base (1,0) extended (1,1)
    assert e2["human"]["annotators"] == ["annotator_1", "annotator_2", "annotator_3"]
    assert (e2["human"]["n_correct"], e2["human"]["n_acceptable"], e2["human"]["kept"]) == (2, 2, True)
    assert e2["match_answer_annotator1_ab"] is True and e2["match_answer_annotator1_prime"] is False
    assert e2["quality_annotator3_ab"] is False and e2["quality_annotator3_prime"] is True
    assert len(e2["human"]["judgments"]) == 12  # 3 annotators x 4 pairs
    assert all(r["match_answer_annotator1_ab"] is False for r in ja["rows"])  # nobody judged the Japanese entries
    # nothing secret, no annotator name, in any file
    for f in out.rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            assert SECRET.encode() not in data, f
            assert not re.search(rb"alice|bob|carol", data), f
            assert b"llm.example.org" not in data, f


def test_card_front_matter_and_sections(annotated, tmp_path):
    _, path = annotated
    out = tmp_path / "hf"
    assert run_cli("export", str(out), "--db", str(path), "--format", "hf", "--license", "cc-by-sa-4.0").returncode == 0
    text = (out / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["language"] == ["en", "ja"] and meta["license"] == "cc-by-sa-4.0"
    assert meta["task_categories"] == ["multiple-choice"] and meta["size_categories"] == ["n<1K"]
    assert meta["pretty_name"] == "FrameBench-style frame-semantic benchmark (English, Japanese)"
    configs = {c["config_name"]: c for c in meta["configs"]}
    assert list(configs) == ["all", "en", "ja"] and configs["all"]["default"] is True
    assert configs["ja"]["data_files"] == [{"split": "test", "path": "data/ja/test-00000-of-00001.parquet"}]
    body = text.split("---\n", 2)[2]
    sections = dict(re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", body, flags=re.S | re.M))
    assert list(sections) == ["Using the data", "Languages", "Dataset structure", "Dataset creation",
                              "Considerations for using the data",
                              "Known shortcuts", "Human filter, adjudication and agreement",
                              "Evaluation protocol", "Additional information"]
    for name, content in sections.items():
        assert len(content.strip()) > 40, name
    assert "None" not in body and "TODO" not in body and not re.search(r"\{(?!i\})[a-z_]+\}", body.split("```bibtex")[0])
    built = sections["Dataset creation"]
    assert "| run1 | openai / scripted-test-model |" in built and "generate/en/base@3" in built
    assert "| all-MiniLM-L6-v2 | 0.000 | 8 |" in built  # verifier margin of the 8 entries (both runs)
    val = sections["Dataset creation"]
    # test_validation's hand-computed numbers: 5 judged, 2 kept, kappa 4/9 on entry correctness
    assert "judged: 5; kept: 2; dropped by the filter: 3" in val
    assert "| correctness | entry | 5 | 3 | 60.0% | 0.444 |" in val
    assert "| annotator_1 | 5 | 60.0% | 60.0% |" in val
    assert "framebench_en" in sections["Using the data"] and "eval/ja/v5@" in sections["Evaluation protocol"]
    assert "huggingface-cli upload" in sections["Additional information"]
    assert "SemBench" in sections["Additional information"] and "FrameBench" in sections["Additional information"]


def test_annotator_names_only_when_asked(annotated, tmp_path):
    _, path = annotated
    out = tmp_path / "named"
    assert run_cli("export", str(out), "--db", str(path), "--format", "hf", "--annotator-names").returncode == 0
    rows = load_in_subprocess(out, "en", tmp_path=tmp_path)["rows"]
    assert rows[0]["human"]["annotators"] == ["alice", "bob", "carol"]
    assert "| alice | 5 |" in (out / "README.md").read_text(encoding="utf-8")


def test_validated_export_reads_back_as_the_jsonl(annotated, tmp_path):
    db, path = annotated
    out, jsonl = tmp_path / "hf", tmp_path / "v.jsonl"
    res = run_cli("export", str(out), "--db", str(path), "--format", "hf", "--validated")
    assert res.returncode == 0 and "wrote 2 validated entries (en: 2)" in res.stdout, res.stderr
    assert run_cli("export", str(jsonl), "--db", str(path), "--validated").returncode == 0
    a, b = read_entries(out), read_entries(jsonl)
    assert [e.id for e in a] == [e.id for e in b] == ["run1:1:0", "run1:2:0"]
    for x, y in zip(a, b, strict=True):
        assert (x.question, x.sentence_a, x.sentence_b, x.sentence_a_prime, x.sentence_b_prime, x.verb, x.lu,
                x.language, x.frame_a) == (y.question, y.sentence_a, y.sentence_b, y.sentence_a_prime,
                                           y.sentence_b_prime, y.verb, y.lu, y.language, y.frame_a)
        assert sorted(x.human_correct.values()) == sorted(y.human_correct.values())
    pa, pb = plan_run(RunSettings(dataset=out)), plan_run(RunSettings(dataset=jsonl))
    assert [(p.problem_id, p.mapping, p.first) for p in pa.problems] == [(p.problem_id, p.mapping, p.first)
                                                                          for p in pb.problems]
    assert pa.human_filter["applied"] is False


def test_reexport_replaces_and_bad_targets_refused(annotated, tmp_path):
    _, path = annotated
    out = tmp_path / "hf"
    assert run_cli("export", str(out), "--db", str(path), "--format", "hf").returncode == 0
    res = run_cli("export", str(out), "--db", str(path), "--format", "hf", "--run", "run1")
    assert res.returncode == 0 and "wrote 5 entries (en: 5)" in res.stdout
    assert sorted(p.name for p in (out / "data").iterdir()) == ["en"]  # the old ja config is gone
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    for args, needle in ((["--format", "hf", str(mine)], "is not an fbagent export"),
                         (["--format", "hf", str(mine / "notes.txt")], "is a file"),
                         (["--format", "hf", "--license", "CC BY 4.0", str(tmp_path / "x")], "not a Hugging Face licence id"),
                         (["--format", "lm-eval", "--run", "nope", str(tmp_path / "y")], "unknown run 'nope'"),
                         (["--format", "parquet", str(tmp_path / "z")], "unknown export format")):
        res = run_cli("export", "--db", str(path), *args)
        assert res.returncode == 2 and needle in res.stderr and res.stderr.count("\n") == 1, (args, res.stderr)
    assert (mine / "notes.txt").read_text() == "keep me" and sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_japanese_only_database(tmp_path):
    path = tmp_path / "ja.db"
    add_japanese_run(path, n=3)
    out = tmp_path / "hf-ja"
    assert run_cli("export", str(out), "--db", str(path), "--format", "hf").returncode == 0
    loaded = load_in_subprocess(out, tmp_path=tmp_path)
    assert loaded["n"] == 3 and {r["language"] for r in loaded["rows"]} == {"ja"}
    meta = yaml.safe_load((out / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    assert [c["config_name"] for c in meta["configs"]] == ["ja"] and meta["configs"][0]["default"] is True
    assert "No human judgments are stored" in (out / "README.md").read_text(encoding="utf-8")


def test_validated_folder_export_keeping_nothing_is_one_line(annotated, tmp_path):
    """A --validated filter that keeps 0 entries: hf and lm-eval refuse in one line naming the filter and the
    thresholds that keep entries (no traceback, no temp file named, nothing written)."""
    _, path = annotated
    for fmt in ("hf", "lm-eval"):
        out = tmp_path / fmt
        res = run_cli("export", str(out), "--db", str(path), "--format", fmt, "--validated", "--min-correct", "4")
        assert res.returncode == 2 and res.stderr.count("\n") == 1, (fmt, res.stderr)
        assert "--validated --min-correct 4 --min-acceptable 2) keeps 0 entries" in res.stderr, res.stderr
        assert "judgments come from 3 annotators" in res.stderr and "--min-correct 3 --min-acceptable 1 keeps 1" in res.stderr and "entries.jsonl" not in res.stderr
        assert "Traceback" not in res.stderr and not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_cards_load_dataset_block_runs_as_written_in_the_folder_and_its_parent(annotated, tmp_path):
    """The card's 🤗 Datasets block, copied as a reader copies it: run in the export folder as written, and in
    the folder above it with the path its comment gives (datasets 5 refuses ``load_dataset(".")``)."""
    db, path = annotated
    out = tmp_path / "bench-hf"
    res = run_cli("export", str(out), "--db", str(path), "--format", "hf")
    assert res.returncode == 0, res.stderr
    card = (out / "README.md").read_text(encoding="utf-8")
    block = re.search(r"### With 🤗 Datasets\n+```python\n(.*?)```", card, flags=re.S).group(1)
    assert 'load_dataset("../bench-hf")' in block and 'the path is "bench-hf"' in block
    check = "\nprint(ds['test'].num_rows, ds_en['test'].num_rows, ds_ja['test'].num_rows)\n"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "hf-cache")}
    for cwd, code in ((out, block), (tmp_path, block.replace('"../bench-hf"', '"bench-hf"'))):
        ran = subprocess.run([sys.executable, "-c", code + check], cwd=cwd, capture_output=True, text=True,
                             timeout=300, env=env)
        assert ran.returncode == 0, ran.stderr[-2000:]
        assert ran.stdout.split()[-3:] == ["8", "5", "3"]
