"""SemBench mode: WordNet 3.0 reader, JSONL dictionaries, distractor bins, round trip with a scripted backend."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from fbagent.errors import FbagentError
from fbagent.eval.runner import read_predictions
from fbagent.eval.sembench import (
    SemBenchSettings,
    choose_distractors,
    clean_generation,
    load_instances,
    read_dictionary_jsonl,
    run_sembench,
)
from fbagent.eval.wordnet import DEBIAN_WORDNET, lexnames_text
from fbagent.providers.base import ChoiceResult, ConcurrentBackend, ReasoningConfig, TextResult

HAVE_WORDNET = (DEBIAN_WORDNET / "data.verb").is_file()
needs_wordnet = pytest.mark.skipif(not HAVE_WORDNET, reason="WordNet 3.0 (Debian wordnet-base) is not installed")


def _encoder_or_skip():
    from fbagent.verifier.encoder import load_encoder

    try:
        load_encoder(None)
    except FbagentError as err:
        pytest.skip(f"no offline sentence encoder: {err}")


BANK = {"word": "bank", "pos": "n", "senses": [
    {"definition": "sloping land beside a body of water", "examples": ["they pulled the canoe up on the bank"]},
    {"definition": "a financial institution that accepts deposits", "examples": ["he cashed a check at the bank"]},
    {"definition": "a long ridge or pile", "examples": ["a huge bank of earth"]},
    {"definition": "a supply or stock held in reserve", "examples": ["a blood bank"]},
]}


def dictionary(tmp_path: Path, n_words: int = 6) -> Path:
    rows = [BANK]
    for i in range(n_words - 1):
        w = f"word{chr(97 + i)}"
        rows.append({"word": w, "pos": "n", "senses": [
            {"definition": d, "examples": [f"an example with {w} in it"]}
            for d in (f"a kind of tool number {i}", f"a colour of the sky at dusk {i}",
                      f"a person who sells fish {i}", f"a legal document about land {i}")]})
    path = tmp_path / "dict.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


class Oracle(ConcurrentBackend):
    """Writes the target gloss as the definition (found through the example in the prompt); an empty
    answer for the word 'worda' (a failure); examples: 'A sentence with <word>.'"""

    name = "oracle"

    def __init__(self, gloss_by_example: dict[str, str]):
        super().__init__("oracle")
        self.gloss_by_example = gloss_by_example
        self.prompts = []

    async def choose_one(self, prompt, choices):
        return ChoiceResult(raw=None, choice=None, error="unused")

    async def generate_one(self, prompt, max_new_tokens, stop):
        self.prompts.append(prompt)
        word = re.findall(r'"(\w+)"', prompt)[-1]
        if prompt.rstrip().endswith("Sentence:"):
            return TextResult(text=f"Sentence: A sentence with {word}.")
        if word == "worda":
            return TextResult(text="", error=None)
        example = [ln for ln in prompt.splitlines() if ln.strip()][-3].strip()
        return TextResult(text=f"Definition: {self.gloss_by_example[example]}\n")


def test_lexnames_and_bins():
    lines = lexnames_text().splitlines()
    assert len(lines) == 45 and lines[0] == "00\tadj.all\t3" and lines[29] == "29\tverb.body\t2"
    target = np.array([1.0, 0.0])
    others = np.array([[0.9, 0.436], [0.1, 0.995], [0.5, 0.866]])
    picks = choose_distractors(target, others, __import__("random").Random(0))
    assert (picks["easy"], picks["mid"], picks["hard"]) == (1, 2, 0)
    assert picks["rand"] in (0, 1, 2)
    assert clean_generation('  Definition: "a place"\nmore', ["Definition:"]) == "a place"


def test_jsonl_dictionary_reader(tmp_path):
    words = read_dictionary_jsonl(dictionary(tmp_path), "n", 4)
    assert len(words) == 6 and words[0].word == "bank" and len(words[0].senses) == 4
    assert read_dictionary_jsonl(dictionary(tmp_path), "n", 5) == []
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(BANK) + "\n" + json.dumps({"word": "x"}) + "\n", encoding="utf-8")
    with pytest.raises(FbagentError, match=r"bad\.jsonl:2: needs a 'senses' list"):
        read_dictionary_jsonl(bad, None, 4)


def test_round_trip_jsonl_ex_and_def(tmp_path):
    _encoder_or_skip()
    settings = SemBenchSettings(mode="ex", dictionary=str(dictionary(tmp_path)), pos="n", instances=4, min_senses=4,
                                seed=1, shots=1)
    data = load_instances(settings)
    assert len(data.instances) == 4
    for inst in data.instances:
        sims = inst.distractor_similarity
        assert sims["easy"] <= sims["mid"] <= sims["hard"]
        assert inst.target.key not in {s.key for s in inst.distractors.values()}
    gloss = {i.example: i.target.definition for i in data.instances}
    gloss.update({s.example: s.definition for s in data.shots})
    oracle = Oracle(gloss)
    summary, manifest = run_sembench(oracle, settings, tmp_path / "ex", reasoning=ReasoningConfig(), data=data)
    preds = read_predictions(tmp_path / "ex")
    failed = [p for p in preds if p["error"]]
    expected_failed = sum(1 for i in data.instances if i.word == "worda")
    assert len(failed) == expected_failed == summary["n_failed"]
    for d in ("easy", "mid", "hard", "rand"):
        assert summary["difficulties"][d]["accuracy"] == 1.0  # the exact gloss is always closest to itself
    ok = next(p for p in preds if not p["error"])
    assert ok["scores"]["hard"]["sim_own"] == pytest.approx(1.0, abs=1e-4)
    assert "Definition: " in oracle.prompts[0] and oracle.prompts[0].rstrip().endswith("Definition:")
    assert manifest["prompts"]["define"].startswith("roundtrip/define_from_example/en@")
    # def mode: example first (generated), then the definition of the generated example
    settings_def = SemBenchSettings(mode="def", dictionary=settings.dictionary, pos="n", instances=4, min_senses=4, seed=1)
    data_def = load_instances(settings_def)
    gloss_def = {f"A sentence with {i.word}.": i.target.definition for i in data_def.instances}
    summary_def, _ = run_sembench(Oracle(gloss_def), settings_def, tmp_path / "def", reasoning=ReasoningConfig(),
                                  data=data_def)
    preds_def = read_predictions(tmp_path / "def")
    assert all(p["example_source"] == "generated" for p in preds_def)
    assert {p["example"] for p in preds_def} == set(gloss_def)
    assert summary_def["difficulties"]["easy"]["accuracy"] == 1.0


@needs_wordnet
def test_wordnet_instances():
    _encoder_or_skip()
    from fbagent.eval.wordnet import example_uses_word, load_wordnet, wordnet_words

    wn = load_wordnet()
    assert wn.get_version() == "3.0"
    assert example_uses_word(wn, "The children ran to the store", "run", "v")
    words = {w.word: w for w in wordnet_words(wn, "v", 4)}
    assert "run" in words and len(words["run"].senses) >= 4
    data = load_instances(SemBenchSettings(mode="ex", pos="v", instances=5, seed=0))
    assert len(data.instances) == 5 and len({i.word for i in data.instances}) == 5
    for inst in data.instances:
        assert inst.example and example_uses_word(wn, inst.example, inst.word, "v")
        assert set(inst.distractors) == {"easy", "mid", "hard", "rand"}
    again = load_instances(SemBenchSettings(mode="ex", pos="v", instances=5, seed=0))
    assert [i.instance_id for i in again.instances] == [i.instance_id for i in data.instances]  # seeded


def test_missing_wordnet_dir(tmp_path):
    with pytest.raises(FbagentError, match="WordNet 3.0 was not found"):
        load_instances(SemBenchSettings(wordnet_dir=tmp_path))


@pytest.mark.parametrize("flag", ["--instances", "--limit", "-n"])
def test_sembench_limit_is_another_name_of_instances(flag, monkeypatch):
    """The README writes `fbagent eval sembench --backend llamacpp --limit 100`."""
    from typer.testing import CliRunner

    from fbagent.cli import app

    seen = {}

    def fake_load(settings):
        seen["instances"] = settings.instances
        raise FbagentError("stop here", "nothing")

    monkeypatch.setattr("fbagent.eval.sembench.load_instances", fake_load)
    res = CliRunner().invoke(app, ["eval", "sembench", "--backend", "llamacpp", flag, "7"])
    assert isinstance(res.exception, FbagentError), res.output
    assert seen == {"instances": 7}
