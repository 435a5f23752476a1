"""Cross-lingual benchmarks (issue 40, item 5): `pairs select --shared-with` keeps the frame pairs that are
polysemous-verb pairs in every named lexicon (frames by ID where both have IDs, else by name with the FrameNet
1.5/1.7 renames), `pairs show` gives each language's verbs, exports carry `frame_pair`, and `eval report` over
several languages prints one model x language table on the shared pairs. Every number is computed by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from factories import make_db
from test_eval_report import folder

from fbagent.errors import FbagentError
from fbagent.eval.metrics import Scoring
from fbagent.eval.report import load_result, tables
from fbagent.framenet.pair_keys import (
    canonical_names,
    frame_pair_key,
    framenet_version,
    guessed_pair_key,
)
from fbagent.lexicon.importer import import_lexicon
from fbagent.pairs.shared import parse_names, shared_pairs
from fbagent.publish.jsonl import export_records
from fbagent.store.db import open_db
from fbagent.store.lexicon import lexicon_by_name

# (frame, id) per lexicon and each verb's frames. en15 names FrameNet 1.5 frames (Hear, Birth: renamed in 1.7 to
# Hearsay, Giving_birth; same IDs); ko names 1.7 frames with the same IDs; lv names 1.7 frames without IDs.
LEXICONS = {
    "en15": ({"Departing": 1, "Quitting": 2, "Causation": 3, "Hear": 37, "Perception": 5, "Birth": 281},
             {"leave": ["Departing", "Quitting", "Causation"], "hear": ["Hear", "Perception"],
              "bear": ["Birth", "Causation"]}),
    "ko": ({"Departing": 1, "Quitting": 2, "Causation": 3, "Hearsay": 37, "Perception": 5, "Giving_birth": 281},
           {"떠나다": ["Departing", "Quitting"], "듣다": ["Hearsay", "Perception"], "낳다": ["Giving_birth", "Causation"]}),
    "lv": ({"Departing": None, "Quitting": None, "Causation": None, "Hearsay": None, "Perception": None},
           {"atstāt": ["Departing", "Quitting", "Causation"], "dzirdēt": ["Hearsay", "Perception"]}),
}
# by hand: en15 has 5 polysemous-verb frame pairs (leave: D-Q, D-C, Q-C; hear: Hear-Perception; bear: Birth-C).
# ko (by ID) shares D-Q, Hear-Perception (= Hearsay), Birth-C (= Giving_birth): 3; lv (by name, Hear -> Hearsay)
# shares D-Q, D-C, Q-C, Hear-Perception: 4; all three: D-Q and Hear-Perception: 2.


def write_lexicon(folder: Path, frames: dict[str, int | None], verbs: dict[str, list[str]]) -> Path:
    lines = []
    for name, fid in frames.items():
        frame = {"frame": name, "definition": f"The {name} frame.", "frame_elements": [{"name": "Agent", "core_type": "Core"}],
                 "lexical_units": [{"name": f"{v}.v"} for v, fs in verbs.items() if name in fs]}
        if fid is not None:
            frame["id"] = fid
        lines.append(json.dumps(frame, ensure_ascii=False))
    path = folder / "frames.jsonl"
    folder.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def three(tmp_path):
    db_path = tmp_path / "x.db"
    db = open_db(db_path)
    for name, (frames, verbs) in LEXICONS.items():
        import_lexicon(db, write_lexicon(tmp_path / name, frames, verbs), lang=name[:2], name=name)
    db.close()
    return db_path


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=300)


def test_pair_keys_and_versions():
    assert framenet_version(["Hear", "Birth", "Departing"]) == "1.5"
    assert framenet_version(["Hearsay", "Departing"]) == "1.7" and framenet_version(["Becoming"]) == "1.7"
    names = canonical_names(["Hear", "Birth", "Becoming"])   # a 1.5 lexicon: its Becoming is 1.7's Transition_to_state
    assert names == {"Hear": "Hearsay", "Birth": "Giving_birth", "Becoming": "Transition_to_state"}
    assert frame_pair_key("Quitting", "Departing") == "Departing|Quitting"
    assert frame_pair_key("Hear", "Perception", names) == "Hearsay|Perception"
    assert guessed_pair_key("Birth", "Causation") == "Causation|Giving_birth" and guessed_pair_key("", "X") == ""


def test_shared_pairs_of_three_lexicons(three):
    db = open_db(three, read_only=True)
    common = shared_pairs(db, lexicon_by_name(db, "en15"), ["ko", "lv"])
    assert common.n_base == 5 and common.per_lexicon == {"ko": 3, "lv": 4}
    assert common.by_id == {"ko": True, "lv": False}
    assert common.pairs == {frozenset({"Departing", "Quitting"}), frozenset({"Hear", "Perception"})}
    assert common.verbs_in("ko", "Hear", "Perception") == ["듣다"]
    assert common.verbs_in("lv", "Departing", "Quitting") == ["atstāt"]
    assert common.verbs_in("ko", "Departing", "Causation") == []


def test_pairs_select_shared_with_prints_the_count_and_selects_from_them(three):
    res = cli("pairs", "select", "--lexicon", "en15", "--shared-with", "ko,lv", "--pairs", "10", "--db", str(three))
    assert res.returncode == 0, res.stderr
    line = " ".join(res.stdout.split())
    assert ("Shared frame pairs: 2 of the 5 distinct polysemous-verb frame pairs of en15 (each pair of frames once, "
            "whatever its verbs) are polysemous-verb pairs in every one of ko, lv (with each alone: ko: 3 (by frame "
            "ID), lv: 4 (by name)); the candidates above are drawn from them (Table 1's # frame pairs counts (verb, "
            "frame pair) entries).") in line
    assert "# frame pairs: (verb, pair of frames) entries, a pair of frames counted once per verb" in line
    show = cli("pairs", "show", "1", "--json", "--db", str(three))
    assert show.returncode == 0, show.stderr
    pairs = json.loads(show.stdout)["pairs"]
    got = sorted((p["frame_pair"], p["verbs"]["en15"][0], p["verbs"]["ko"], p["verbs"]["lv"]) for p in pairs)
    assert got == [("Departing|Quitting", "leave", ["떠나다"], ["atstāt"]),
                   ("Hearsay|Perception", "hear", ["듣다"], ["dzirdēt"])]
    table = cli("pairs", "show", "1", "--wide", "--db", str(three))
    assert "verbs in ko (ko)" in table.stdout and "verbs in lv (lv)" in table.stdout and "dzirdēt" in table.stdout
    # new user (session 12): the selection says it was drawn --shared-with, in `pairs show` and `pairs list`
    assert table.stdout.startswith("Selection 1 (selected: 2 pairs; protocol fbagent, seed 0; shared with ko, lv)")
    listed = cli("pairs", "list", "--wide", "--db", str(three))
    assert "S=ko,lv" in listed.stdout and "; S shared with (--shared-with)" in listed.stdout, listed.stdout
    bad = cli("pairs", "select", "--lexicon", "en15", "--shared-with", "nope", "--db", str(three))
    assert bad.returncode == 2 and "unknown lexicon 'nope' (available: en15, ko, lv)" in bad.stderr


def test_no_shared_pair_is_one_line(tmp_path):
    db = open_db(tmp_path / "x.db")
    import_lexicon(db, write_lexicon(tmp_path / "a", {"Departing": None, "Quitting": None},
                                     {"leave": ["Departing", "Quitting"]}), lang="en", name="a")
    import_lexicon(db, write_lexicon(tmp_path / "b", {"Causation": None, "Quitting": None},
                                     {"lassen": ["Causation", "Quitting"]}), lang="de", name="b")
    db.close()
    res = cli("pairs", "select", "--lexicon", "a", "--shared-with", "b", "--db", str(tmp_path / "x.db"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "no frame pair of lexicon a is a polysemous-verb pair in all of b (of its 1 pairs, shared with each: b: 0)" \
        in res.stderr


def test_exports_carry_frame_pair_in_framenet_17_naming(tmp_path):
    db = make_db(tmp_path / "x.db", n=2)
    lex = db["lexicons"].get(1)
    for name in ("Hear", "Birth"):            # the lexicon now names 1.5 frames: Hear is 1.7's Hearsay
        db["frames"].insert({"lexicon_id": lex["id"], "name": name, "definition": "x", "definition_markup": "x"})
    db["items"].update(db.execute("SELECT id FROM items ORDER BY id").fetchall()[1][0], {"frame_b": "Hear"})
    db.conn.commit()
    recs = export_records(db, statuses=("verified", "flagged"))
    assert [r["frame_pair"] for r in recs] == ["Causation|Departing", "Hearsay|Self_motion"]
    from jsonschema import Draft202012Validator

    schema = json.loads((Path(__file__).parents[1] / "fbagent/json_schemas/export.schema.json").read_text())
    assert not list(Draft202012Validator(schema).iter_errors(recs[1]))


# --------------------------------------------------------------------------- the model x language table

OUTCOMES = {  # (model, language) -> {entry: (frame pair, four outcomes)}
    ("model-a", "en"): {"e0": ("P1", ["correct", "correct", "both", "neither"]),
                        "e1": ("P2", ["correct"] * 4), "e2": ("P3", ["opposite"] * 4)},
    ("model-a", "ko"): {"k0": ("P1", ["correct", "opposite", "correct", None]),
                        "k1": ("P2", ["correct", "correct", "correct", "both"])},
    ("model-b", "en"): {"e0": ("P1", ["opposite"] * 4), "e1": ("P2", ["correct"] * 4)},
}
KINDS = [("base", "canonical", 1), ("base", "swapped", 2), ("extended", "canonical", 2), ("extended", "swapped", 1)]


def result_folder(path: Path, model: str, lang: str) -> Path:
    preds = []
    for entry, (pair, outs) in OUTCOMES[(model, lang)].items():
        for (kind, order, pos), out in zip(KINDS, outs, strict=True):
            preds.append({"key": f"v1|{entry}|{kind}|{order}", "template": "v1", "entry_id": entry, "kind": kind,
                          "order": order, "correct_position": pos, "language": lang, "frame_pair": pair,
                          "outcome": out, "correct": None if out is None else out == "correct"})
    manifest = {"task": "framebench", "model": model, "seed": 0, "lang": lang, "reasoning": {"enabled": False},
                "scoring": {"failures": "count", "std": "population"}, "sessions": []}
    return folder(path, manifest, preds)


def test_model_by_language_table_on_the_shared_pairs(tmp_path):
    dirs = [result_folder(tmp_path / f"{m}-{lang}", m, lang) for m, lang in OUTCOMES]
    tab = tables([load_result(d) for d in dirs], scoring=Scoring())[-1]
    assert tab.title == "FrameBench accuracy by model x language on the 2 shared frame pairs (%, [95% CI])"
    assert tab.headers == ["Model", "en", "ko"]
    # by hand, P3 (English only) left out: model-a en: e0 2/4 + e1 4/4 = 6/8; ko: k0 2/4 (the failure counts as
    # wrong) + k1 3/4 = 5/8; model-b en: 0/4 + 4/4. Bootstrap over two entries: the interval runs from the lower
    # entry's rate to the higher one's.
    assert tab.rows == [["model-a", "75.0 [50.0, 100.0]", "62.5 [50.0, 75.0]"],
                        ["model-b", "50.0 [0.0, 100.0]", "-"]]
    assert tab.caption.startswith("On the 2 frame pairs (frame_pair) present in every language (en: 3 pairs; ko: 2 "
                                  "pairs); entries on them: model-a: en 2, ko 2; model-b: en 2.")
    assert "percentile bootstrap over entries (1000 resamples, seed 0)" in tab.caption
    out = tmp_path / "rep"
    res = cli("eval", "report", *map(str, dirs), "--out", str(out))
    assert res.returncode == 0, res.stderr
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| model-a | 75.0 [50.0, 100.0] | 62.5 [50.0, 75.0] |" in md
    assert "model x language on the 2 shared frame pairs" in res.stdout


def test_a_run_records_shared_with_and_keeps_its_name_without_it():
    from fbagent.generation.options import GenerateOptions, check_compatible
    from fbagent.pairs.options import SelectionOptions

    plain = GenerateOptions()
    assert "shared_with" not in plain.result_options()     # runs named before the option keep their names
    shared = GenerateOptions(selection=SelectionOptions(pairs=5, shared_with="ko, lv"))
    assert shared.selection.shared_with == ("ko", "lv") and shared.result_options()["shared_with"] == "ko,lv"
    stored = json.loads(json.dumps(shared.result_options()))   # as the run row keeps it
    stored["engine"] = "transformers+llguidance"               # what a run of the embedded engine stores beside them
    run = {"kind": "generate", "lexicon_id": 1, "options": stored, "name": "r"}
    check_compatible(run, {"id": 1}, shared)                    # resumes with the same languages
    with pytest.raises(Exception, match="shared_with: 'ko,lv' -> ''"):
        check_compatible(run, {"id": 1}, GenerateOptions(selection=SelectionOptions(pairs=5)))



def test_shared_with_naming_a_lexicon_twice_is_refused() -> None:
    """"ko,lv,ko" (issue 40): one line naming the lexicon, the fix naming each once (also for `pairs show`)."""
    with pytest.raises(FbagentError, match="names ko more than once. Fix: name each lexicon once: --shared-with ko,lv"):
        parse_names("ko,lv,ko")
    assert parse_names(" ko, lv ") == ("ko", "lv") and parse_names(None) == ()
