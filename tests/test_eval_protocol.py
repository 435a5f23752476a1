"""The FrameBench authors' protocol on demand (issue 9): templates folders in their layout, per-language
templates, the authors' readers and human filter, sentence orders, identity and resume.

The templates folder tests/data/eval_prompt_ours/ follows the authors' layout and placeholders with our
own wording (no text of theirs). The backends here are scripted SyncBackends that record every prompt.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fbagent.cli import app
from fbagent.errors import FbagentError
from fbagent.eval.dataset import human_filter_keeps, read_entries
from fbagent.eval.framebench import RunSettings, plan_run, run_framebench
from fbagent.eval.problems import build_problems
from fbagent.eval.runner import read_predictions
from fbagent.eval.templates import check_placeholders, load_template_set
from fbagent.providers.base import ChoiceResult, ReasoningConfig, SyncBackend, TextResult

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
OURS = Path(__file__).parent / "data" / "eval_prompt_ours"


class Recorder(SyncBackend):
    """Answers ``answer`` to every prompt and records the prompts."""

    name = "recorder"

    def __init__(self, answer: str = "1"):
        super().__init__("recorder-model")
        self.prompts: list[str] = []
        self.answer = answer

    def choose_sync(self, prompts, choices):
        self.prompts.extend(prompts)
        return [ChoiceResult(raw=self.answer, choice=self.answer) for _ in prompts]

    def generate_sync(self, prompts, max_new_tokens, stop):
        return [TextResult(text="x") for _ in prompts]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


JA_ROW = {"id": "ja:1", "language": "ja", "verb": "出る", "lu": "出る.v",
          "question_four_choice": "人がある場所から離れたことを表す文をすべて選んでください。",
          "sentence_a": "彼は朝早く家を出た。", "sentence_b": "彼の本が先月出た。",
          "sentence_a_prime": "電車が駅を出た。", "sentence_b_prime": "新しい雑誌が出た。"}
FR_ROW = {"id": "fr:1", "language": "fr", "verb": "quitter", "lu": "quitter.v",
          "question_four_choice": "Choisissez les phrases où quelqu'un s'en va d'un lieu.",
          "sentence_a": "Elle a quitté le bureau à midi.", "sentence_b": "Il a quitté son emploi.",
          "sentence_a_prime": "Le train quitte la gare.", "sentence_b_prime": "Elle a quitté ses illusions."}


def mixed_dataset(tmp_path: Path, extra: list[dict] = ()) -> Path:
    en = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()[:2]]
    return write_jsonl(tmp_path / "mixed.jsonl", en + [JA_ROW, *extra])


# -- templates folders in the authors' layout ------------------------------------------------
def test_folder_templates_render_exactly():
    """seed 0, first entry, base pair canonical: mapping {1: B, 2: A, 3: neither, 4: both} (see
    option_mapping); the expected texts are written out by hand from the template files."""
    entry = read_entries(DATA, limit=1)[0]
    problem = build_problems([entry], seed=0)[0]
    assert problem.mapping == {"1": "sentence_b", "2": "sentence_a", "3": "neither", "4": "both"}
    tset = load_template_set("en", "all", OURS)
    assert [t.name for t in tset.templates] == ["prompt_v1", "prompt_v2", "prompt_v3"]
    assert tset.choices_style == "inline" and tset.folder == "en"
    choices = "1: Sentence B     2: Sentence A     3: Neither sentence     4: Both sentences"
    expected = {
        "prompt_v1": "Question: Select all sentences that imply that someone goes away from a place.\n"
                     "Sentence A: She left the office at noon.\n"
                     "Sentence B: She left her umbrella at the office.\n"
                     f"Options: {choices}\n"
                     "Answer with the number of one option.",
        # the file starts and ends with blank lines: stripped, as the authors' load_prompt_template does
        "prompt_v2": 'Look at how "leave" is used in each sentence.\n\n'
                     "Select all sentences that imply that someone goes away from a place.\n\n"
                     "Sentence A: She left the office at noon.\n"
                     "Sentence B: She left her umbrella at the office.\n\n"
                     f"{choices}\n\n"
                     "Your answer (a single number):",
        # fbagent's names as aliases, and {lex_unit_name}
        "prompt_v3": "[leave.v] Select all sentences that imply that someone goes away from a place.\n"
                     "A: She left the office at noon.\n"
                     "B: She left her umbrella at the office.\n"
                     f"{choices}\n"
                     "Number:",
    }
    for t in tset.templates:
        assert t.render(problem, lu=problem.lu) == expected[t.name]
    # versions: path in the folder + content hash
    assert tset.templates[0].version.startswith("en/prompt_v1.txt@") and len(tset.templates[0].version) == 29
    # lines style: one option per line in fbagent's option format
    lines = load_template_set("en", "v1", OURS, choices_style="lines").templates[0]
    assert "Options: 1. Sentence B\n2. Sentence A\n3. Neither sentence\n4. Both sentences\n" in lines.render(problem)
    # fbagent's own templates with the authors' inline choices
    own = load_template_set("en", "v1", None, choices_style="inline").templates[0]
    assert f"Options:\n{choices}\n\nPick the option" in own.render(problem)


def test_japanese_folder_templates_and_labels():
    entry = read_entries(write_jsonl(Path("/tmp") / "fbagent-ja-one.jsonl", [JA_ROW]))[0]
    problem = build_problems([entry], seed=0)[0]
    tset = load_template_set("ja", "all", OURS)
    assert tset.labels == {"sentence_a": "文A", "sentence_b": "文B", "both": "文Aと文Bの両方", "neither": "どちらでもない"}
    text = tset.templates[1].render(problem)
    assert text.startswith("「出る」の意味に気をつけて答えてください。\n人がある場所から離れたことを表す文をすべて選んでください。\n"
                           "文A：彼は朝早く家を出た。\n文B：彼の本が先月出た。\n")
    inv = {v: k for k, v in problem.mapping.items()}
    assert f"{inv['both']}: 文Aと文Bの両方" in text and text.endswith("答え（番号のみ）：")


@pytest.mark.parametrize("body, message", [
    ("Q: {four_choice_question}\nA: {statment_a}\nB: {statement_b}\n{choices_text}", "unknown placeholder(s) {statment_a}"),
    ("Q: {four_choice_question}\nA: {statement_a}\nB: {statement_b}\n", "missing placeholder(s) {choices_text}"),
    ("Q: {four_choice_question} {statement_a} {statement_b} {choices_text} {0}", "unknown placeholder(s) {0}"),
    ("Q: {four_choice_question {statement_a} {statement_b} {choices_text}", "template"),
])
def test_bad_placeholder_is_one_error_naming_the_file(tmp_path, body, message):
    (tmp_path / "en").mkdir()
    bad = tmp_path / "en" / "prompt_v1.txt"
    bad.write_text(body, encoding="utf-8")
    with pytest.raises(FbagentError) as err:
        load_template_set("en", "all", tmp_path)
    text = str(err.value)
    assert str(bad) in text and message in text and "Fix:" in text and "\n" not in text


def test_bad_placeholder_cli_exit_2_nothing_stored(tmp_path):
    (tmp_path / "tpl" / "en").mkdir(parents=True)
    (tmp_path / "tpl" / "en" / "prompt_v1.txt").write_text("{four_choice_question} {statement_a} {statment_b} "
                                                           "{choices_text}", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "run", "--dataset", str(DATA),
                           "--backend", "local", "--model-path", "/nonexistent.gguf",
                           "--templates-dir", str(tmp_path / "tpl"), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: template {tmp_path}/tpl/en/prompt_v1.txt: unknown "
                                                   "placeholder(s) {statment_b}. Fix:")
    assert not (tmp_path / "o").exists()


def test_template_names_and_missing_language(tmp_path):
    tset = load_template_set("en", "v1,prompt_v3", OURS)  # v1 matches prompt_v1
    assert [t.name for t in tset.templates] == ["prompt_v1", "prompt_v3"]
    with pytest.raises(FbagentError, match=r"unknown template\(s\) \['v9'\].*prompt_v1,prompt_v2,prompt_v3"):
        load_template_set("en", "v9", OURS)
    with pytest.raises(FbagentError, match=r"has no templates for language 'fr' \(it has: en, ja\)"):
        load_template_set("fr", "all", OURS)
    with pytest.raises(FbagentError, match="does not exist"):
        load_template_set("en", "all", tmp_path / "nope")
    with pytest.raises(FbagentError, match="unknown choices style"):
        load_template_set("en", "all", OURS, choices_style="grid")
    check_placeholders("{question} {first} {second} {options} {verb} {lu} {{literal}}", "x")  # aliases are fine


# -- languages -----------------------------------------------------------------------------
def test_mixed_dataset_each_language_its_own_templates(tmp_path):
    data = mixed_dataset(tmp_path, [FR_ROW])
    b = Recorder()
    summary, manifest = run_framebench(b, RunSettings(dataset=data, templates="v1,v2"), tmp_path / "o",
                                       reasoning=ReasoningConfig())
    preds = read_predictions(tmp_path / "o")
    assert len(preds) == 4 * 4 * 2
    for p in preds:
        prompt = p["prompt"]
        if p["language"] == "ja":
            assert "文A：" in prompt and "Sentence A" not in prompt and p["template_lang"] == "ja"
        elif p["language"] == "fr":  # no French templates: generic (English instructions)
            assert "may be in a language other than English" in prompt or "may not be in English" in prompt
            assert p["template_lang"] == "generic"
        else:
            assert "Sentence A: " in prompt and p["template_lang"] == "en"
    assert {k: v["folder"] for k, v in manifest["template_sets"].items()} == {"en": "en", "fr": "generic", "ja": "ja"}
    assert manifest["template_sets"]["ja"]["templates"] == {"v1": "eval/ja/v1@1", "v2": "eval/ja/v2@1"}
    assert manifest["identity"]["lang"] == "en,fr,ja" and manifest["dataset"]["languages"] == {"en": 2, "fr": 1, "ja": 1}
    per = summary["per_language"]
    assert set(per) == {"en", "fr", "ja"}
    assert per["ja"]["n_predictions"] == 8 and per["ja"]["n_entries"] == 1 and per["en"]["n_entries"] == 2
    assert per["ja"]["template_sets"] == ["ja"]
    # the answer is always "1": accuracy = share of problems whose gold option is 1
    for lang in per:
        rows = [p for p in preds if p["language"] == lang]
        assert per[lang]["accuracy_pooled"] == pytest.approx(sum(p["gold_choice"] == "1" for p in rows) / len(rows))
    # one set forced for every entry
    b2 = Recorder()
    _, m2 = run_framebench(b2, RunSettings(dataset=data, templates="v1", templates_lang="en"), tmp_path / "o2",
                           reasoning=ReasoningConfig())
    assert all("Sentence A: " in p for p in b2.prompts) and m2["identity"]["lang"] == "en"
    assert {v["folder"] for v in m2["template_sets"].values()} == {"en"}


def test_mixed_dataset_with_templates_folder(tmp_path):
    data = mixed_dataset(tmp_path)
    b = Recorder()
    summary, manifest = run_framebench(b, RunSettings(dataset=data, templates="v1", templates_dir=OURS),
                                       tmp_path / "o", reasoning=ReasoningConfig())
    preds = read_predictions(tmp_path / "o")
    ja = [p for p in preds if p["language"] == "ja"]
    assert len(ja) == 4 and all(p["prompt"].startswith("質問：") and "選択肢：1: " in p["prompt"] for p in ja)
    assert all(p["prompt"].startswith("Question: ") for p in preds if p["language"] == "en")
    assert manifest["identity"]["templates"]["ja"] == {"prompt_v1": manifest["template_sets"]["ja"]["templates"]["prompt_v1"]}
    assert manifest["choices_style"] == "inline" and "choices_style" not in manifest["identity"]
    # a French entry and a folder without French or generic templates: one error before any model call
    with pytest.raises(FbagentError, match="no templates for language 'fr'"):
        plan_run(RunSettings(dataset=mixed_dataset(tmp_path, [FR_ROW]), templates_dir=OURS))
    # a generic/ folder serves it
    folder = tmp_path / "tpl"
    for sub in ("en", "ja"):
        (folder / sub).mkdir(parents=True)
        for f in (OURS / sub).iterdir():
            (folder / sub / f.name).write_bytes(f.read_bytes())
    (folder / "generic").mkdir()
    (folder / "generic" / "prompt_v1.txt").write_text("{four_choice_question}\n1) {statement_a}\n2) {statement_b}\n"
                                                      "{choices_text}", encoding="utf-8")
    plan = plan_run(RunSettings(dataset=mixed_dataset(tmp_path, [FR_ROW]), templates_dir=folder))
    assert plan.template_sets["fr"].folder == "generic" and plan.template_sets["fr"].labels["both"] == "Both sentences"


# -- readers and the human filter ------------------------------------------------------------
STEP3 = {"original_qa_id": "qa-7", "lex_unit_name": "run.v",
         "question": "Does someone move quickly on foot?",  # step 3: the single-sentence question
         "single-question": "Does someone move quickly on foot?",
         "two-choice-question": "In which sentence does someone move quickly on foot?",
         "four-choice-question": "Select all sentences where someone moves quickly on foot.",
         "sentence_A": "She ran to the station.", "sentence_B": "She ran the meeting.",
         "sentence_A_prime": "The children ran across the field.", "sentence_B_prime": "He runs a small shop.",
         "frame_A": "Self_motion", "frame_B": "Operating_a_system"}


def final_row(i: int, match_ab=(1, 1, 1), match_prime=(1, 1, 1), quality_ab=(1, 1, 1), quality_prime=(1, 1, 1)):
    row = {"original_qa_id": f"fb-{i}", "lex_unit_name": "leave.v",
           "question": f"Select all sentences that imply that someone goes away from a place ({i}).",
           "sentence_a": f"She left the office at noon ({i}).", "sentence_b": f"She left her umbrella ({i}).",
           "sentence_a_prime": f"The train leaves the station ({i}).", "sentence_b_prime": f"He left a note ({i})."}
    for a in range(3):
        row[f"match_answer_annotator{a + 1}_ab"] = bool(match_ab[a])
        row[f"match_answer_annotator{a + 1}_prime"] = bool(match_prime[a])
        row[f"quality_annotator{a + 1}_ab"] = bool(quality_ab[a])
        row[f"quality_annotator{a + 1}_prime"] = bool(quality_prime[a])
    return row


def test_step3_output_reads(tmp_path):
    e = read_entries(write_jsonl(tmp_path / "qa.jsonl", [STEP3]))[0]
    assert e.source_format == "framebench-step3" and e.id == "qa-7" and e.verb == "run" and e.lu == "run.v"
    assert e.question == "Select all sentences where someone moves quickly on foot."  # the four-choice form
    assert (e.sentence_a, e.sentence_b) == ("She ran to the station.", "She ran the meeting.")
    assert (e.sentence_a_prime, e.sentence_b_prime) == ("The children ran across the field.", "He runs a small shop.")
    assert (e.frame_a, e.frame_b) == ("Self_motion", "Operating_a_system") and e.pair_votes == {}
    broken = {k: v for k, v in STEP3.items() if k != "sentence_B_prime"}
    with pytest.raises(FbagentError, match=r"qa.jsonl:1: field 'sentence_b_prime' is missing"):
        read_entries(write_jsonl(tmp_path / "qa.jsonl", [broken]))


# hand-counted: (matched, acceptable) per pair; kept when both >= 2
FILTER_ROWS = [
    final_row(1),                                                      # base kept, extended kept
    final_row(2, match_ab=(1, 0, 0)),                                  # base: 1 matched -> dropped
    final_row(3, quality_prime=(0, 1, 0)),                             # extended: 1 acceptable -> dropped
    final_row(4, match_ab=(1, 1, 0), quality_ab=(0, 1, 1), quality_prime=(0, 0, 0)),  # base kept; extended dropped
]


def test_final_columns_and_votes(tmp_path):
    rows = [*FILTER_ROWS]
    rows[0] = {k: v for k, v in rows[0].items() if k != "quality_annotator3_prime"}  # a missing column counts False
    entries = read_entries(write_jsonl(tmp_path / "fb.jsonl", rows))
    assert [e.source_format for e in entries] == ["framebench"] * 4
    assert entries[0].pair_votes == {"base": {"matched": 3, "acceptable": 3, "annotators": 3},
                                     "extended": {"matched": 3, "acceptable": 2, "annotators": 3}}
    assert entries[3].pair_votes["base"] == {"matched": 2, "acceptable": 2, "annotators": 3}
    keeps = [(human_filter_keeps(e, "base"), human_filter_keeps(e, "extended")) for e in entries]
    assert keeps == [(True, True), (False, True), (True, False), (True, False)]
    assert entries[1].human_correct["annotator2"] == (False, True)


def test_human_filter_against_hand_counted_problems(tmp_path):
    data = write_jsonl(tmp_path / "fb.jsonl", FILTER_ROWS)
    # kept pairs: 1 base, 1 ext, 2 ext, 3 base, 4 base = 5 pairs = 10 problems; dropped 3 pairs = 6 problems
    b = Recorder()
    summary, manifest = run_framebench(b, RunSettings(dataset=data, templates="v1"), tmp_path / "on",
                                       reasoning=ReasoningConfig())
    preds = read_predictions(tmp_path / "on")
    assert len(preds) == 10
    asked = sorted({(p["entry_id"], p["kind"]) for p in preds})
    assert asked == [("fb-1", "base"), ("fb-1", "extended"), ("fb-2", "extended"), ("fb-3", "base"), ("fb-4", "base")]
    hf = summary["human_filter"]
    assert hf["applied"] is True and hf["n_problems_before"] == 16 and hf["n_problems_dropped"] == 6
    assert hf["n_pairs_dropped"] == 3 and hf["n_entries_dropped"] == 0
    assert manifest["human_filter"] == hf and manifest["identity"]["human_filter"] is True
    assert summary["n_predictions"] == 10
    # off: all 16 problems
    _, m_off = run_framebench(Recorder(), RunSettings(dataset=data, templates="v1", human_filter=False),
                              tmp_path / "off", reasoning=ReasoningConfig())
    assert len(read_predictions(tmp_path / "off")) == 16 and "human_filter" not in m_off["identity"]
    # one order (as the authors' evaluator): 5 kept, 3 dropped
    s1, m1 = run_framebench(Recorder(), RunSettings(dataset=data, templates="v1", orders="canonical"),
                            tmp_path / "one", reasoning=ReasoningConfig())
    assert s1["n_predictions"] == 5 and s1["human_filter"]["n_problems_dropped"] == 3
    assert {p["order"] for p in read_predictions(tmp_path / "one")} == {"canonical"}
    assert m1["identity"]["orders"] == "canonical"
    # asked for, without any annotator column
    with pytest.raises(FbagentError, match="no entry of .* has annotator columns"):
        plan_run(RunSettings(dataset=DATA, human_filter=True))
    # every pair dropped
    none = write_jsonl(tmp_path / "none.jsonl", [final_row(9, match_ab=(0, 0, 0), match_prime=(0, 0, 0))])
    with pytest.raises(FbagentError, match="drops all 4 problems"):
        plan_run(RunSettings(dataset=none))


def test_human_filter_cli_summary_says_dropped(tmp_path, monkeypatch):
    data = write_jsonl(tmp_path / "fb.jsonl", FILTER_ROWS)
    monkeypatch.setattr("fbagent.providers.registry.create_backend", lambda opts: Recorder())
    res = CliRunner().invoke(app, ["eval", "run", "--dataset", str(data), "--backend", "openai", "--model", "m",
                                   "--templates", "v1,v2", "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    out = tmp_path / "report"
    res = CliRunner().invoke(app, ["eval", "report", str(tmp_path / "o"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "Human filter (>= 2 annotators matched, >= 2 acceptable) dropped problems: recorder-model: 6." in md
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["human_filter"]["n_problems_dropped"] == 6


# -- identity and resume ----------------------------------------------------------------------
OLD_IDENTITY_KEYS = {"task", "dataset_sha256", "backend", "model", "seed", "lang", "limit", "reasoning"}


def test_identity_at_defaults_is_the_old_one(tmp_path):
    """An older result folder (identity of the previous version) resumes: at their defaults the new
    options add no identity key."""
    _, m = run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1"), tmp_path / "o",
                          reasoning=ReasoningConfig())
    assert set(m["identity"]) == OLD_IDENTITY_KEYS and m["identity"]["lang"] == "en"
    # scoring conventions are not identity: the same folder re-scored with the sample std and failures excluded
    s, m2 = run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1"), tmp_path / "o",
                           reasoning=ReasoningConfig())
    assert m2["sessions"][-1]["predictions"] == 0
    from fbagent.eval.metrics import Scoring

    s3, m3 = run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1",
                                                    scoring=Scoring("exclude", "sample")),
                            tmp_path / "o", reasoning=ReasoningConfig())
    assert m3["scoring"] == {"failures": "exclude", "std": "sample"} and s3["ddof"] == 1
    # options that change what is asked are identity
    with pytest.raises(FbagentError, match="differs in: parse_free_text"):
        run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1", parse_free_text=True),
                       tmp_path / "o", reasoning=ReasoningConfig())
    with pytest.raises(FbagentError, match="differs in: choices_style"):
        run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1", choices_style="inline"),
                       tmp_path / "o", reasoning=ReasoningConfig())
    with pytest.raises(FbagentError, match="differs in: labels, templates"):
        run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1", templates_dir=OURS),
                       tmp_path / "o", reasoning=ReasoningConfig())


def test_resumed_progress_starts_at_done(tmp_path):
    class Crash(Recorder):
        def choose_sync(self, prompts, choices):
            if len(self.prompts) >= 16:
                raise RuntimeError("simulated crash")
            return super().choose_sync(prompts, choices)

    settings = RunSettings(dataset=DATA, limit=6, templates="v1,v2", batch_size=8)
    starts = []
    with pytest.raises(RuntimeError):
        run_framebench(Crash(), settings, tmp_path / "o", reasoning=ReasoningConfig(),
                       on_start=lambda total, done: starts.append((total, done)))
    advanced = []
    run_framebench(Recorder(), settings, tmp_path / "o", reasoning=ReasoningConfig(),
                   on_start=lambda total, done: starts.append((total, done)), on_progress=advanced.append)
    assert starts == [(48, 0), (48, 16)] and sum(advanced) == 32
    # the CLI's bar says so
    from fbagent.commands.eval import _Progress

    prog = _Progress("local:gemma")
    with prog:
        prog.start(48, 16)
        task = prog.progress.tasks[0]
    assert task.completed == 16 and task.total == 48 and task.fields["resumed"] == "(resumed: 16 of 48 already done)"


def test_manifest_records_label_fingerprint_and_template_sets(tmp_path):
    _, m = run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v1", label="My model"),
                          tmp_path / "a", reasoning=ReasoningConfig())
    _, m_same = run_framebench(Recorder(), RunSettings(dataset=DATA, limit=2, templates="v2", seed=4), tmp_path / "b",
                               reasoning=ReasoningConfig())
    _, m_other = run_framebench(Recorder(), RunSettings(dataset=DATA, limit=3, templates="v1"), tmp_path / "c",
                                reasoning=ReasoningConfig())
    assert m["label"] == "My model" and len(m["dataset"]["fingerprint"]) == 16
    assert m["dataset"]["fingerprint"] == m_same["dataset"]["fingerprint"]  # same problems, other seed/template
    assert m["dataset"]["fingerprint"] != m_other["dataset"]["fingerprint"]  # another entry
    assert m["template_sets"] == {"en": {"source": "fbagent", "folder": "en", "templates": {"v1": "eval/en/v1@1"},
                                         "labels": m["labels"], "choices_style": "lines"}}


def test_a_labels_file_outside_the_templates_folder_replaces_the_folders_and_ours(tmp_path):
    """The authors' Japanese labels kept outside their eval_prompt/ (whose every *.txt is a template)."""
    labels = tmp_path / "authors-labels-ja.txt"
    labels.write_text("sentence_a: 文A\nsentence_b: 文B\nboth: 文Aと文B\nneither: 該当なし\n", encoding="utf-8")
    want = {"sentence_a": "文A", "sentence_b": "文B", "both": "文Aと文B", "neither": "該当なし"}
    folder = load_template_set("ja", "all", OURS, labels_file=labels)
    assert folder.labels == want and all(t.labels == want for t in folder.templates)
    assert [t.name for t in folder.templates] == [t.name for t in load_template_set("ja", "all", OURS).templates]
    ours = load_template_set("ja", "v1", None, labels_file=labels)
    assert ours.labels == want and ours.templates[0].labels == want
    entry = read_entries(write_jsonl(tmp_path / "ja.jsonl", [JA_ROW]))[0]
    problem = build_problems([entry], seed=0)[0]
    inv = {v: k for k, v in problem.mapping.items()}
    assert f"{inv['neither']}: 該当なし" in folder.templates[0].render(problem)
    with pytest.raises(FbagentError, match="labels file .* does not exist"):
        load_template_set("ja", "all", OURS, labels_file=tmp_path / "none.txt")
