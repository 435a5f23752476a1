"""FrameNet's own LU names: `/` and parentheses in JSONL, grouping by lemma with parentheticals set aside."""

from __future__ import annotations

import json

import pytest

from fbagent.framenet.lu_names import LemmaPart, group_lemma, lemma_parts, lu_name_problem
from fbagent.lexicon.importer import import_lexicon
from fbagent.lexicon.jsonl_reader import LexiconFormatError, read_jsonl
from fbagent.pairs.select import SelectionOptions, candidates, select_pairs
from fbagent.store.lexicon import frame_context, lexicon_stats
from fbagent.store.pairs import verb_lexical_units


def test_group_lemma_sets_parentheticals_aside():
    assert group_lemma("sleep (together/with)") == "sleep"
    assert group_lemma("sleep_(with)") == "sleep"
    assert group_lemma("abide_((by))") == "abide"
    assert group_lemma("be_supposed_(to)") == "be supposed"
    assert group_lemma("band_together") == group_lemma("band together") == "band together"
    assert group_lemma("make (someone's) acquaintance") == "make acquaintance"
    assert group_lemma("get_a(n)_eyeful") == "get a eyeful"
    assert group_lemma("(in/out) line") == "line"
    assert group_lemma("(x)") == "x"  # never empty
    assert group_lemma("leave") == "leave" and group_lemma("s'accorder") == "s'accorder"
    assert group_lemma("Cafe\u0301") == "Café"  # NFC


def test_lemma_parts():
    assert lemma_parts("sleep (together/with)") == [
        LemmaPart((("sleep",),)), LemmaPart((("together",), ("with",)), optional=True)]
    assert lemma_parts("abide_((by))") == [LemmaPart((("abide",),)), LemmaPart((("by",),), optional=True)]
    assert lemma_parts("get_a(n)_eyeful") == [
        LemmaPart((("get",),)), LemmaPart((("a",), ("an",))), LemmaPart((("eyeful",),))]
    assert lemma_parts("think/believe") == [LemmaPart((("think",), ("believe",)))]
    assert lemma_parts("do_something_(with_to)")[-1] == LemmaPart((("with",), ("to",)), optional=True)
    assert lemma_parts("Take Off") == [LemmaPart((("take",),)), LemmaPart((("off",),))]
    assert lemma_parts("((") == []


def test_lu_name_problem_says_what_is_wrong():
    assert lu_name_problem("sleep (together/with).v") is None
    assert lu_name_problem("fn-ñl.v") is None
    assert "does not end with .POS" in lu_name_problem("leave")
    assert "'\\\\'" in lu_name_problem("a\\b.v") and "backslash" in lu_name_problem("a\\b.v")
    assert "starts with a dot" in lu_name_problem(".v")


FRAMES = [
    {"frame": "Sleep", "definition": "A <fen>Sleeper</fen> sleeps.",
     "frame_elements": [{"name": "Sleeper", "core_type": "Core"}],
     "lexical_units": [{"name": "sleep.v", "definition": "rest with eyes closed"}]},
    {"frame": "Sex", "definition": "A <fen>Partner_1</fen> has sex with a <fen>Partner_2</fen>.",
     "frame_elements": [{"name": "Partner_1", "core_type": "Core"}],
     "lexical_units": [{"name": "sleep (together/with).v", "definition": "have sex"},
                       {"name": "abide_((by)).v"}]},
    {"frame": "Compliance", "definition": "A <fen>Protagonist</fen> complies with a <fen>Norm</fen>.",
     "frame_elements": [{"name": "Protagonist", "core_type": "Core"}],
     "lexical_units": [{"name": "abide.v"}]},
]


@pytest.fixture
def lexfile(tmp_path):
    path = tmp_path / "fn.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in FRAMES), "utf-8")
    (tmp_path / "fn.exemplars.jsonl").write_text(json.dumps(
        {"lu": "sleep (together/with).v", "frame": "Sex", "text": "They <t>slept</t> together."}) + "\n", "utf-8")
    return path


def test_jsonl_accepts_framenet_names_and_groups_them(tmp_db, lexfile):
    data = read_jsonl(lexfile)
    names = [(lu.name, lu.lemma, lu.pos) for lu in data.lexical_units]
    assert ("sleep (together/with).v", "sleep (together/with)", "V") in names  # the full name is kept
    result = import_lexicon(tmp_db, lexfile, lang="en")
    stats = lexicon_stats(tmp_db, result.lexicon_id)
    assert stats["verbs"] == 2 and stats["polysemous_verbs"] == 2 and stats["candidate_pairs"] == 2
    cands = candidates(verb_lexical_units(tmp_db, result.lexicon_id))
    assert [(c.verb, c.frame_a, c.frame_b, c.lu_a, c.lu_b) for c in cands] == [
        ("abide", "Compliance", "Sex", "abide.v", "abide_((by)).v"),
        ("sleep", "Sex", "Sleep", "sleep (together/with).v", "sleep.v"),
    ]
    sel = select_pairs(tmp_db, {"id": result.lexicon_id, "name": result.name}, SelectionOptions(pairs=5, seed=0))
    assert sel["counts"]["candidates"] == 2 and sel["counts"]["unique_verbs"] == 2
    # the prompt context of "sleep" in frame Sex finds its LU under the full name
    ctx = frame_context(tmp_db, result.lexicon_id, "Sex", "sleep")
    assert ctx["lu"] == "sleep (together/with).v" and ctx["lu_definition"] == "have sex"
    assert ctx["examples"][0]["text"] == "They slept together." and ctx["examples"][0]["source"] == "exemplar"
    assert frame_context(tmp_db, result.lexicon_id, "Sleep", "sleep")["lu"] == "sleep.v"


def test_jsonl_name_errors_say_which_character(tmp_path):
    bad = {**FRAMES[0], "lexical_units": [{"name": "sleep\\with.v"}]}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(bad) + "\n", "utf-8")
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(path)
    assert "'sleep\\\\with.v' is not valid: the LU name contains '\\\\'" in str(err.value)
    frame = {**FRAMES[0], "frame": "In/Out"}
    path.write_text(json.dumps(frame) + "\n", "utf-8")
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(path)
    assert "frame: 'In/Out' is not valid: it contains '/'" in str(err.value)


def test_bad_json_message_has_no_doubled_word(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"frame": "Unterminated\n', "utf-8")
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(path)
    assert "not valid JSON (Unterminated string starting at column 11)" in str(err.value)
    assert "at at" not in str(err.value)
