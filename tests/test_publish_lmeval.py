"""`fbagent export --format lm-eval`: the task folder asks eval run's problems with eval run's prompts, and
the real `lm_eval` on a tiny transformers model built here picks the same option as
`fbagent eval run --backend transformers` for every problem (same accuracy per template)."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("datasets", reason="the publish extra is not installed: pip install 'fbagent[publish]'")
yaml = pytest.importorskip("yaml")

from factories import make_db  # noqa: E402
from test_validation import scripted_answers  # noqa: E402

from fbagent.eval.framebench import RunSettings, plan_run  # noqa: E402

LMEVAL_DIR = Path(__file__).parents[1] / "fbagent" / "publish" / "lm_eval_task_utils.py"


def run(cmd: list[str], timeout: int = 600, env=None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})},
                          cwd=cwd)


def fbagent(*args: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "fbagent.cli", *args])


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A database of 5 English entries in scope judged by three annotators, its JSONL export (what
    `eval run` reads) and its lm-eval task folder."""
    tmp = tmp_path_factory.mktemp("lmeval")
    db = make_db(tmp / "v.db", n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    res = fbagent("export", str(tmp / "tasks"), "--db", str(tmp / "v.db"), "--format", "lm-eval")
    assert res.returncode == 0, res.stderr
    assert "wrote 5 lm-eval tasks in groups framebench_en (5 entries, problems en: 20)" in res.stdout
    assert fbagent("export", str(tmp / "entries.jsonl"), "--db", str(tmp / "v.db")).returncode == 0
    return tmp


def utils_module(folder: Path):
    spec = importlib.util.spec_from_file_location("framebench_lm_eval_utils", folder / "utils.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_problems_and_prompts_are_eval_runs(exported):
    tasks = exported / "tasks"
    plan = plan_run(RunSettings(dataset=exported / "entries.jsonl"))
    rows = [json.loads(x) for x in (tasks / "data" / "framebench_en.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["problem_id"] for r in rows] == [p.problem_id for p in plan.problems]
    templates = plan.template_sets["en"].templates
    for row, p in zip(rows, plan.problems, strict=True):
        assert row["options"] == [p.mapping[n] for n in "1234"] and row["gold_choice"] == p.gold_choice
        for t in templates:
            assert row[f"prompt_{t.name}"] == t.render(p, lu=p.lu)  # the exact string eval run sends
    assert sorted(p.name for p in tasks.glob("*.yaml")) == [
        "_framebench_en.yaml", *[f"framebench_en_v{i}.yaml" for i in range(1, 6)]]
    group = yaml.safe_load((tasks / "_framebench_en.yaml").read_text())
    assert group["group"] == "framebench_en" and group["task"] == [f"framebench_en_v{i}" for i in range(1, 6)]
    assert group["aggregate_metric_list"][0] == {"metric": "acc", "aggregation": "mean", "weight_by_size": False}
    text = (tasks / "framebench_en_v3.yaml").read_text()
    assert "output_type: multiple_choice" in text and "custom_dataset: !function utils.load_problems" in text
    assert "doc_to_text: prompt_v3" in text and 'target_delimiter: ""' in text
    assert 'doc_to_choice: ["1", " 1", "2", " 2", "3", " 3", "4", " 4"]' in text
    assert (tasks / "utils.py").read_text() == LMEVAL_DIR.read_text()


def test_choice_rule_sums_both_spellings(exported):
    u = utils_module(exported / "tasks")
    ln = math.log
    # " 2" alone is the most likely continuation (0.30), but "1" + " 1" = 0.20 + 0.25 = 0.45 wins
    assert u.choose([ln(0.20), ln(0.25), -math.inf, ln(0.30), ln(0.1), ln(0.05), ln(0.05), ln(0.05)]) == "1"
    # ties go to the smaller number, as fbagent's choose_label
    assert u.choose([ln(0.1)] * 8) == "1"
    doc = {"options": ["both", "sentence_b", "sentence_a", "neither"], "gold_label": "sentence_a"}
    assert u.process_results(doc, [(ln(p), False) for p in (.01, .01, .01, .01, .5, .3, .01, .01)]) == {
        "acc": 1.0, "both": 0.0, "neither": 0.0, "opposite": 0.0}
    assert u.outcome(doc, "2") == "opposite" and u.outcome(doc, "1") == "both"
    loaded = u.load_problems(language="en", version=1.0)
    assert loaded["test"].num_rows == 20


@pytest.mark.slow
def test_parity_with_real_lm_eval(exported, tmp_path):
    """Both real tools on one tiny model saved here (byte-level BPE tokenizer trained here, random Llama)."""
    if shutil.which("lm_eval") is None and importlib.util.find_spec("lm_eval") is None:
        pytest.skip("lm_eval is not installed: pip install 'fbagent[publish]'")
    pytest.importorskip("accelerate", reason="lm_eval's hf model needs accelerate (the publish extra)")
    from fbagent.eval.tiny import save_tiny_model

    model = save_tiny_model(tmp_path / "tiny", seed=0)
    env = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "HF_DATASETS_CACHE": str(tmp_path / "hf-cache")}
    res = fbagent("eval", "run", "--dataset", str(exported / "entries.jsonl"), "--backend", "transformers",
                  "--model", str(model), "--out", str(tmp_path / "fb"))
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Loading weights" not in res.stdout + res.stderr  # transformers' own bar is off (fbagent draws one)
    t0 = time.perf_counter()
    outside = tmp_path / "outside-git"  # not a git checkout: lm_eval asks git for a commit hash
    outside.mkdir()
    res = run([sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args", f"pretrained={model}",
               "--include_path", str(exported / "tasks"), "--tasks", "framebench_en", "--device", "cpu",
               "--batch_size", "8", "--log_samples", "--output_path", str(tmp_path / "lm")],
              env={**env, "GIT_CEILING_DIRECTORIES": str(tmp_path)}, cwd=outside)
    seconds = time.perf_counter() - t0
    assert res.returncode == 0, res.stderr[-3000:]
    # the task folder's utils.py keeps lm_eval's per-task "Custom kwargs" warning and git's complaint away
    assert "Custom kwargs" not in res.stderr and "not a git repository" not in res.stderr, res.stderr[-3000:]
    print(f"lm_eval took {seconds:.1f} s for 100 problems x 8 continuations")

    preds = {(p["template"], p["problem_id"]): p for p in map(json.loads, (tmp_path / "fb" / "predictions.jsonl")
                                                              .read_text().splitlines())}
    lm: dict[tuple[str, str], str] = {}
    for f in (tmp_path / "lm").rglob("samples_framebench_en_*.jsonl"):
        template = f.name.removeprefix("samples_framebench_en_").split("_")[0]
        for line in f.read_text().splitlines():
            s = json.loads(line)
            (outcome,) = [k for k in ("acc", "both", "neither", "opposite") if s[k] == 1.0]
            lm[(template, s["doc"]["problem_id"])] = "correct" if outcome == "acc" else outcome
    assert len(lm) == len(preds) == 100
    assert {k: lm[k] for k in preds} == {k: p["outcome"] for k, p in preds.items()}  # same choice, every problem
    summary = json.loads((tmp_path / "fb" / "summary.json").read_text())
    results = json.loads(next((tmp_path / "lm").rglob("results_*.json")).read_text())["results"]
    for t in ("v1", "v2", "v3", "v4", "v5"):
        assert results[f"framebench_en_{t}"]["acc,none"] == pytest.approx(summary["per_template"][t]["accuracy"])
    assert results["framebench_en"]["acc,none"] == pytest.approx(summary["accuracy"]["mean"])


# -- issue 22: --labels FILE, as `eval run --labels` ---------------------------------------------------------
JA_LABELS = {"sentence_a": "文A", "sentence_b": "文B", "both": "両方の文", "neither": "どちらの文でもない"}


@pytest.mark.slow
def test_labels_file_reaches_the_prompts_lm_eval_builds(exported, tmp_path):
    """The real lm_eval loads the exported folder (its TaskManager, as `lm_eval --include_path`) and
    builds each prompt with the four labels of the file, not fbagent's English ones."""
    if importlib.util.find_spec("lm_eval") is None:
        pytest.skip("lm_eval is not installed: pip install 'fbagent[publish]'")
    labels = tmp_path / "authors-labels-ja.txt"
    labels.write_text("".join(f"{k}: {v}\n" for k, v in JA_LABELS.items()) + "---\nthe authors' labels\n",
                      encoding="utf-8")
    out = tmp_path / "tasks"
    res = fbagent("export", str(out), "--db", str(exported / "v.db"), "--format", "lm-eval", "--templates", "v1",
                  "--labels", str(labels))
    assert res.returncode == 0, res.stderr
    marker = json.loads((out / "fbagent-export.json").read_text(encoding="utf-8"))
    assert marker["template_sets"]["en"]["labels"] == JA_LABELS  # recorded with the folder
    code = ("import json, sys\n"
            "from lm_eval.tasks import TaskManager, get_task_dict\n"
            "task = get_task_dict(['framebench_en_v1'], TaskManager(include_path=sys.argv[1]))['framebench_en_v1']\n"
            "docs = list(task.test_docs())\n"
            "print(json.dumps([[task.doc_to_text(d), d['options']] for d in docs]))\n")
    env = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "hf-cache")}
    shown = run([sys.executable, "-c", code, str(out)], env=env)
    assert shown.returncode == 0, shown.stderr[-3000:]
    prompts = json.loads(shown.stdout.strip().splitlines()[-1])
    assert len(prompts) == 20  # 5 entries x (base, extended) x (canonical, swapped)
    for text, options in prompts:
        for number, key in enumerate(options, 1):  # the option numbered n carries the file's label of its key
            assert f"{number}. {JA_LABELS[key]}" in text, text
        assert "Both sentences" not in text and "Neither sentence" not in text


def test_a_bad_labels_file_is_one_line_exit_2_and_writes_nothing(exported, tmp_path):
    bad = tmp_path / "labels.txt"
    bad.write_text("sentence_a: A\nsentence_b: B\n", encoding="utf-8")  # both and neither missing
    for path, says in ((tmp_path / "none.txt", "does not exist"), (bad, "lacks ['both', 'neither']")):
        out = tmp_path / "tasks"
        res = fbagent("export", str(out), "--db", str(exported / "v.db"), "--format", "lm-eval", "--labels", str(path))
        assert res.returncode == 2, res.stderr
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0] and "Fix:" in lines[0]
        assert not out.exists() and not list(tmp_path.glob("*tasks*"))
