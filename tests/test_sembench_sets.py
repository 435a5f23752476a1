"""SemBench's own test sets (the authors' format, written here by us: no copy of their data) scored by their rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openai_stub import OpenAIStub, request_text  # noqa: E402

from fbagent.errors import FbagentError  # noqa: E402
from fbagent.eval.sembench import SemBenchSettings, load_instances, run_sembench  # noqa: E402
from fbagent.eval.sembench_sets import (  # noqa: E402
    file_group,
    looks_like_instances,
    paper_correct,
    read_instances_file,
)
from fbagent.providers.base import ChoiceResult, ConcurrentBackend, ReasoningConfig, TextResult  # noqa: E402

BANK = ["sloping land beside a body of water", "a financial institution that accepts deposits"]
RUN = ["move at a speed faster than a walk", "be in charge of a business or an activity"]
STRIKE = ["hit forcibly and deliberately", "refuse to work as a form of organized protest"]
PLANT = ["a living organism such as a tree or a flower", "a place where an industrial process takes place"]
HARD = [  # (instance, what the stub LLM answers)
    ({"word": "bank", "POS": "noun", "label": 0, "definitions": BANK,
      "example": "They pulled the canoe up on the bank."}, BANK[0]),               # the target gloss: correct
    ({"word": "run", "POS": "verb", "label": 1, "definitions": RUN,
      "example": "She runs a small bakery downtown."}, RUN[1]),                    # the target gloss: correct
    ({"word": "strike", "POS": "verb", "label": 0, "definitions": STRIKE,
      "example": "He struck the ball hard."}, STRIKE[1]),                          # the distractor: wrong
]
EASY = [
    ({"word": "plant", "POS": "noun", "label": 1, "definitions": PLANT,
      "example": "The car plant employs 3,000 workers."}, PLANT[1]),               # correct
    ({"word": "bank", "POS": "noun", "label": 1, "definitions": BANK,
      "example": "He cashed a check at the bank."}, ""),                           # empty answer: a failure
]
ANSWERS = {inst["example"]: answer for inst, answer in HARD + EASY}


def write_sets(folder: Path) -> list[Path]:
    paths = []
    for name, rows in (("test_hard.json", HARD), ("test_easy.json", EASY)):
        path = folder / name
        path.write_text("".join(json.dumps(inst) + "\n" for inst, _ in rows), encoding="utf-8")
        paths.append(path)
    return paths


class Scripted(ConcurrentBackend):
    """Answers each definition prompt with the definition scripted for the example it quotes."""

    name = "scripted"

    def __init__(self) -> None:
        super().__init__("scripted")

    async def choose_one(self, prompt, choices):
        return ChoiceResult(raw=None, choice=None, error="unused")

    async def generate_one(self, prompt, max_new_tokens, stop):
        answer = next(a for ex, a in ANSWERS.items() if ex in prompt)
        return TextResult(text=answer or None, error=None if answer else "empty answer")


def _encoder_or_skip():
    from fbagent.verifier.encoder import load_encoder

    try:
        load_encoder(None)
    except FbagentError as err:
        pytest.skip(f"no offline sentence encoder: {err}")


def test_reader_format_and_groups(tmp_path):
    hard, easy = write_sets(tmp_path)
    rows = read_instances_file(hard)
    assert [r.instance_id for r in rows] == ["test_hard.json:1", "test_hard.json:2", "test_hard.json:3"]
    assert rows[1].target.definition == RUN[1] and rows[1].distractors == {"hard": rows[1].distractors["hard"]}
    assert rows[1].distractors["hard"].definition == RUN[0] and rows[1].pos == "v" and rows[0].pos == "n"
    assert rows[0].example == "They pulled the canoe up on the bank."
    assert [file_group(n) for n in ("test_medium.json", "dev_random.json", "test_es_random.json", "mine.jsonl")] == [
        "mid", "rand", "rand", "mine"]
    assert looks_like_instances(hard) and not looks_like_instances(tmp_path / "missing.json")


@pytest.mark.parametrize("line, message", [
    ("{not json", "not valid JSON"),
    (json.dumps({"word": "x", "POS": "noun", "label": 2, "definitions": ["a", "b"], "example": "x"}), "'label' must be 0 or 1"),
    (json.dumps({"word": "x", "POS": "noun", "label": 0, "definitions": ["a"], "example": "x"}), "two non-empty strings"),
    (json.dumps({"word": "x", "POS": "noun", "label": 0, "definitions": ["a", "b"]}), "needs an 'example' string"),
])
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "test_hard.json"
    path.write_text(json.dumps(HARD[0][0]) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(FbagentError, match=rf"test_hard\.json:2: .*{message}"):
        read_instances_file(path)


def test_authors_decision_rule():
    assert paper_correct(0, 0.9, 0.1) and not paper_correct(0, 0.1, 0.9)
    assert paper_correct(1, 0.9, 0.1) and not paper_correct(1, 0.1, 0.9)
    # a tie predicts label 1 (their `if dot1 > dot2: 0 else: 1`)
    assert not paper_correct(0, 0.5, 0.5) and paper_correct(1, 0.5, 0.5)


def test_scores_exactly_the_instances_by_file(tmp_path):
    _encoder_or_skip()
    files = write_sets(tmp_path)
    settings = SemBenchSettings(mode="ex", instances_files=files, n_boot=200)
    data = load_instances(settings)
    assert len(data.instances) == 5 and data.dictionary["files"][0]["group"] == "hard"
    summary, manifest = run_sembench(Scripted(), settings, tmp_path / "out", reasoning=ReasoningConfig(), data=data)
    by = summary["by_file"]
    # hard: bank and run answered with their target gloss (cosine 1 with it), strike with its distractor -> 2/3
    assert by["hard"]["n"] == 3 and by["hard"]["n_failed"] == 0 and by["hard"]["accuracy"] == pytest.approx(2 / 3)
    lo, hi = by["hard"]["ci95"]
    assert lo < 2 / 3 < hi
    # easy: plant correct, the second bank failed (empty answer): 1/1 scored, 1/2 with failures counted wrong
    assert by["easy"]["accuracy"] == 1.0 and by["easy"]["n_failed"] == 1 and by["easy"]["accuracy_all"] == 0.5
    # the generic summary agrees (no tie here): hard 2/3, easy 1/1, one failure
    assert summary["difficulties"]["hard"]["accuracy"] == pytest.approx(2 / 3)
    assert summary["difficulties"]["easy"]["n"] == 1 and summary["n_failed"] == 1
    assert manifest["identity"]["instances_files"] == [str(f) for f in files]


def test_cli_instances_file_and_dictionary_autodetect(tmp_path):
    _encoder_or_skip()
    hard, easy = write_sets(tmp_path)

    def respond(request):
        text = request_text(request)
        return next((a for ex, a in ANSWERS.items() if ex in text), "")

    with OpenAIStub(respond) as stub:
        common = ["--backend", "openai", "--base-url", stub.base_url, "--model", "stub", "--mode", "ex",
                  "--n-boot", "200"]
        res = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "sembench", "--instances-file", str(hard),
                              "--instances-file", str(easy), "--out", str(tmp_path / "a"), *common],
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert "test_hard.json" in res.stdout and "66.7" in res.stdout
        summary = json.loads((tmp_path / "a" / "summary.json").read_text())
        assert summary["by_file"]["hard"]["accuracy"] == pytest.approx(2 / 3)
        res = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "sembench", "--dictionary", str(hard),
                              "--out", str(tmp_path / "b"), *common], capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert "is a SemBench instances file" in res.stderr
        assert json.loads((tmp_path / "b" / "summary.json").read_text())["by_file"]["hard"]["n"] == 3
