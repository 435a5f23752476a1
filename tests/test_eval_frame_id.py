"""Frame identification (FrameBench appendix B.5) on a small store built here, with a scripted backend."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.eval.frame_id import FrameIdSettings, load_pairs, run_frame_id, short_definition
from fbagent.eval.runner import read_predictions
from fbagent.providers.base import ChoiceResult, ConcurrentBackend, ReasoningConfig, TextResult
from fbagent.store import open_db

FRAMES = {
    "Departing": "An object (the Theme) moves away from a Source.",
    "Placing": "An Agent places a Theme at a location, the Goal.",
    "Self_motion": "The Self_mover, a living being, moves under its own power.",
    "Operating_a_system": "An Operator runs a System so that it does what it is meant to do.",
    "Getting": "A Recipient starts off without the Theme in their possession, and then comes to possess it.",
    "Medical_conditions": "A Patient has a medical Ailment.",
}
LUS = [  # (lemma, frame, exemplars with the target word)
    ("leave", "Departing", ["She left the office at noon .", "The train leaves at six ."]),
    ("leave", "Placing", ["She left her keys on the desk ."]),
    ("run", "Self_motion", ["He ran to the store ."]),
    ("run", "Operating_a_system", ["He runs the factory ."]),
    ("catch", "Getting", ["She caught the ball ."]),
    ("catch", "Medical_conditions", ["She caught a cold ."]),
]
TARGETS = ("left", "leaves", "ran", "runs", "caught")


def make_store(path: Path, with_selection: bool) -> Path:
    db = open_db(path)
    lex = db["lexicons"].insert({"name": "mini", "lang": "en", "format": "jsonl", "imported_at": "2026-01-01"}).last_pk
    frame_pk = {}
    for name, definition in FRAMES.items():
        frame_pk[name] = db["frames"].insert({"lexicon_id": lex, "name": name, "definition": definition}).last_pk
    for lemma, frame, sentences in LUS:
        lu = db["lexical_units"].insert({"lexicon_id": lex, "frame_pk": frame_pk[frame], "name": f"{lemma}.v",
                                         "lemma": lemma, "pos": "V"}).last_pk
        for s in sentences:
            word = next(w for w in s.split() if w in TARGETS)
            start = s.index(word)
            db["exemplars"].insert({"lu_pk": lu, "text": s, "target_start": start, "target_end": start + len(word)})
    if with_selection:
        sel = db["selections"].insert({"lexicon_id": lex, "seed": 0, "options": "{}", "counts": "{}",
                                       "created_at": "2026-01-01"}).last_pk
        for rank, (verb, fa, fb) in enumerate([("leave", "Departing", "Placing"), ("run", "Self_motion", "Operating_a_system"),
                                               ("catch", "Getting", "Medical_conditions")]):
            db["frame_pairs"].insert({"selection_id": sel, "rank": rank, "verb": verb, "lu_a": f"{verb}.v",
                                      "lu_b": f"{verb}.v", "frame_a": fa, "frame_b": fb})
    db.conn.close()
    return path


SENTENCE_FRAME = {s: frame for _, frame, sents in LUS for s in sents}
OPTION = re.compile(r"^(\d)\. (.+)$", re.M)


class ScriptedBackend(ConcurrentBackend):
    """Reads the last task of the prompt: right frame, except 'Neither' for catch/Medical_conditions and a
    failure for run/Operating_a_system."""

    name = "scripted"

    def __init__(self):
        super().__init__("scripted")
        self.prompts = []
        self.choices = set()

    async def choose_one(self, prompt, choices):
        self.prompts.append(prompt)
        self.choices.add(tuple(choices))
        last = prompt.rsplit("Sentence: ", 1)[1]
        sentence = last.splitlines()[0].replace("*", "")
        gold = SENTENCE_FRAME[sentence]
        opts = {label.split(":")[0]: n for n, label in OPTION.findall(last)}
        if gold == "Operating_a_system":
            return ChoiceResult(raw=None, choice=None, error="scripted failure")
        if gold == "Medical_conditions":
            return ChoiceResult(raw=opts["Neither frame is evoked"], choice=opts["Neither frame is evoked"])
        return ChoiceResult(raw=opts[gold], choice=opts[gold])

    async def generate_one(self, prompt, max_new_tokens, stop):
        return TextResult(text="")


def test_frame_id_from_selection(tmp_path):
    db = make_store(tmp_path / "fb.db", with_selection=True)
    settings = FrameIdSettings(db=db, shots=1, seed=3)
    pairs, lex = load_pairs(settings)
    assert [p.verb for p in pairs] == ["leave", "run", "catch"] and lex["source"].startswith("selection:")
    backend = ScriptedBackend()
    summary, manifest = run_frame_id(backend, settings, tmp_path / "out", reasoning=ReasoningConfig())
    assert backend.choices == {("1", "2", "3")}
    preds = read_predictions(tmp_path / "out")
    assert len(preds) == 6 and manifest["n_pairs"] == 3
    # 6 problems: 4 correct, 1 'neither', 1 failure; behaviour change (issue 9): the failure counts as wrong,
    # so the rates are out of 6 answers (they were out of the 5 scored ones)
    assert summary["n_failed"] == 1 and summary["failures"] == "count"
    assert summary["accuracy"] == pytest.approx(4 / 6)
    assert summary["neither"] == pytest.approx(1 / 6) and summary["other_frame"] == 0
    assert manifest["scoring"] == {"failures": "count", "std": "population"}
    p = next(x for x in preds if x["frame_a"] == "Departing" and x["side"] == "a")
    assert sorted(p["mapping"].values()) == ["frame_a", "frame_b", "neither"]
    prompt = p["prompt"]
    assert prompt.count("Sentence: ") == 2  # one shot + the question
    assert re.search(r"Answer: [123]\n\nSentence:", prompt)  # the shot is solved
    assert "*left*" in prompt or "*leaves*" in prompt
    assert "Departing: An object (the Theme) moves away from a Source." in prompt
    shot_verb = prompt.split("Verb: ")[1].splitlines()[0]
    assert shot_verb != "leave"  # shots come from other verbs


def test_frame_id_pairs_from_lexical_units_and_errors(tmp_path):
    db = make_store(tmp_path / "fb.db", with_selection=False)
    pairs, lex = load_pairs(FrameIdSettings(db=db, seed=0))
    assert lex["source"] == "lexical_units"
    assert sorted((p.verb, p.frame_a, p.frame_b) for p in pairs) == [
        ("catch", "Getting", "Medical_conditions"), ("leave", "Departing", "Placing"),
        ("run", "Operating_a_system", "Self_motion")]
    with pytest.raises(FbagentError, match="no lexicon named"):
        load_pairs(FrameIdSettings(db=db, lexicon="nope"))
    with pytest.raises(FbagentError, match="does not exist"):
        load_pairs(FrameIdSettings(db=tmp_path / "missing.db"))


def test_short_definition():
    text = "First sentence here. Second sentence is longer and goes on. Third."
    assert short_definition(text, 30) == "First sentence here."
    assert short_definition("x" * 50, 20) == "x" * 20 + "..."
