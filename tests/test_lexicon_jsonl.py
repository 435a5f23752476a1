"""JSONL lexicon format: valid files, every kind of invalid line (file:line), JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from fbagent.lexicon.importer import import_lexicon
from fbagent.lexicon.jsonl_reader import LexiconFormatError, lexicon_schema, read_jsonl
from fbagent.store.lexicon import frame_context, lexicon_stats

FRAMES = [
    {"frame": "Departing", "id": 57,
     "definition": "A <fen>Theme</fen> leaves a <fen>Source</fen>. <ex>The bus <t>left</t> at noon.</ex>",
     "frame_elements": [{"name": "Theme", "core_type": "Core", "definition": "What moves."},
                        {"name": "Time", "core_type": "Peripheral"}],
     "lexical_units": [{"name": "leave.v", "definition": "go away"}, {"name": "exit.v"}]},
    {"frame": "Quitting", "definition": "Someone gives up a job.",
     "examples": ["She <t>quit</t> in May."],
     "frame_elements": [{"name": "Employee", "core_type": "Core"}],
     "lexical_units": [{"name": "leave.v", "n_annotated": 7}],
     "relations": [{"type": "Using", "super_frame": "Departing"}],
     "x_note": "private keys are ignored"},
]
EXEMPLARS = [
    {"lu": "leave.v", "frame": "Quitting", "text": "He <t>left</t> the firm."},
    {"lu": "leave.v", "frame": "Departing", "text": "We <t>left</t> early."},
]


def write(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), "utf-8")
    return path


@pytest.fixture
def lexdir(tmp_path):
    d = tmp_path / "lex"
    d.mkdir()
    write(d / "frames.jsonl", FRAMES)
    write(d / "exemplars.jsonl", EXEMPLARS)
    return d


def test_schema_is_valid_and_accepts_the_sample_lines():
    schema = lexicon_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for row in FRAMES:
        jsonschema.validate(row, schema)


def test_valid_folder_imports(tmp_db, lexdir):
    data = read_jsonl(lexdir)
    assert [f.name for f in data.frames] == ["Departing", "Quitting"]
    quitting = data.frames[1]
    assert quitting.examples[0].text == "She quit in May." and quitting.examples[0].target_start == 4
    lus = {(lu.name, lu.frame): lu for lu in data.lexical_units}
    assert lus[("leave.v", "Quitting")].n_annotated == 7            # given explicitly
    assert lus[("leave.v", "Departing")].n_annotated == 1           # defaults to exemplar count
    assert lus[("exit.v", "Departing")].pos == "V"
    result = import_lexicon(tmp_db, lexdir, lang="en")
    assert result.name == "lex" and result.format == "jsonl"
    stats = lexicon_stats(tmp_db, result.lexicon_id)
    assert stats["polysemous_verbs"] == 1 and stats["candidate_pairs"] == 1
    assert stats["exemplars"] == 2 and stats["frame_relations"] == 1 and stats["frame_examples"] == 2
    ctx = frame_context(tmp_db, result.lexicon_id, "Departing", "leave")
    assert ctx["core_fes"] == [{"name": "Theme", "definition": "What moves."}]
    assert ctx["examples"][0]["text"] == "We left early."
    assert import_lexicon(tmp_db, lexdir, lang="en").status == "unchanged"


def test_file_path_finds_sibling_exemplars(tmp_path):
    write(tmp_path / "mini.jsonl", FRAMES)
    write(tmp_path / "mini.exemplars.jsonl", EXEMPLARS[:1])
    data = read_jsonl(tmp_path / "mini.jsonl")
    assert data.n_exemplars == 1
    assert read_jsonl(tmp_path / "mini.jsonl", exemplars=tmp_path / "mini.exemplars.jsonl").n_exemplars == 1


BAD_FRAME_LINES = [
    ("{not json", "not valid JSON"),
    ({"frame": "X", "frame_elements": [], "lexical_units": []}, "'definition' is a required property"),
    ({**FRAMES[0], "frame": "X", "lexical_units": [{"name": "leave"}]}, "lexical_units/0/name: 'leave' is not valid"),
    ({**FRAMES[0], "frame": "X", "frame_elements": [{"name": "A", "core_type": "Central"}]},
     "frame_elements/0/core_type: 'Central' is not one of"),
    ({**FRAMES[0], "frame": "X", "colour": "red"}, "unknown key(s) 'colour' (allowed: frame, id, definition"),
    ({**FRAMES[0], "frame": "X", "id": "57"}, "id: '57' is not of type 'integer'"),
    (FRAMES[0], "frame Departing is already defined on line 1"),
    ({**FRAMES[0], "frame": "X", "id": 58, "lexical_units": [{"name": "a.v"}, {"name": "a.v"}]},
     "LU a.v appears twice in frame X"),
    # issue 43 item 7 and 9: ids SQLite cannot store, ids used twice, unusable names, relations in a circle
    ({**FRAMES[0], "frame": "X", "id": 2**63}, "frame X has id 9223372036854775808, outside SQLite's integer range"),
    ({**FRAMES[0], "frame": "X", "id": 58, "lexical_units": [{"name": "a.v", "id": -(2**63) - 1}]},
     "LU a.v has id -9223372036854775809, outside SQLite's integer range"),
    ({**FRAMES[0], "frame": "X"}, "frame X has id 57, already the id of the frame on line 1"),
    ({**FRAMES[0], "frame": "   ", "id": 58}, "frame name '   ' is blank"),
    ({**FRAMES[0], "frame": "Evil\u202eemag", "id": 58}, "contains the control character \\u202e"),
    ({**FRAMES[0], "frame": "X", "id": 58, "relations": [{"type": "Inheritance", "super_frame": "X"}]},
     "relations: frame X has a Inheritance relation to itself"),
    ('{"frame": "X", "frame": "Y", "definition": "d", "frame_elements": [], "lexical_units": []}',
     "the key 'frame' appears twice in one JSON object"),
    ({**FRAMES[0], "frame": "X", "id": 58, "relations": [{"type": "Inheritance", "super_frame": "Nowhere"}]},
     "super_frame Nowhere is not a frame of this file"),
    ([1, 2], "[1, 2] is not of type 'object'"),
]


@pytest.mark.parametrize(("line", "message"), BAD_FRAME_LINES, ids=[m[:30] for _, m in BAD_FRAME_LINES])
def test_each_invalid_frame_line_is_reported_with_file_and_line(tmp_db, lexdir, line, message):
    write(lexdir / "frames.jsonl", [FRAMES[0], FRAMES[1], line])
    with pytest.raises(LexiconFormatError) as err:
        import_lexicon(tmp_db, lexdir, lang="en")
    assert "frames.jsonl:3: " in str(err.value)
    assert message in str(err.value)
    assert tmp_db.execute("SELECT COUNT(*) FROM frames").fetchone()[0] == 0
    assert tmp_db.execute("SELECT COUNT(*) FROM lexicons").fetchone()[0] == 0


BAD_EXEMPLAR_LINES = [
    ({"lu": "leave.v", "frame": "Nowhere", "text": "x <t>y</t>"}, "frame Nowhere is unknown"),
    ({"lu": "go.v", "frame": "Departing", "text": "x <t>y</t>"}, "LU go.v is not in frame Departing"),
    ({"lu": "leave.v", "text": "x"}, "'frame' is a required property"),
    ({"lu": "leave.v", "frame": "Departing", "text": "<t></t>"}, "text is empty once markup is removed"),
    ({"lu": "leave.v", "frame": "Departing", "text": "She <t></t> left."}, "text: its target mark <t></t> is empty"),
    ({"lu": "leave.v", "frame": "Departing", "text": "She <t>left early."}, "text: its target mark <t> is never closed"),
    ("[", "not valid JSON"),
]


@pytest.mark.parametrize(("line", "message"), BAD_EXEMPLAR_LINES, ids=[m[:30] for _, m in BAD_EXEMPLAR_LINES])
def test_each_invalid_exemplar_line_is_reported(lexdir, line, message):
    write(lexdir / "exemplars.jsonl", [EXEMPLARS[0], "", line])
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(lexdir)
    assert "exemplars.jsonl:3: " in str(err.value) and message in str(err.value)


def test_a_cycle_of_inheritance_is_named_on_the_line_of_its_first_frame(lexdir):
    """Issue 43 item 9: A inherits from B and B from A was imported without a word."""
    a = {**FRAMES[1], "frame": "A", "relations": [{"type": "Inheritance", "super_frame": "B"}]}
    b = {**FRAMES[1], "frame": "B", "relations": [{"type": "Inheritance", "super_frame": "A"}]}
    write(lexdir / "frames.jsonl", [FRAMES[0], a, b])
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(lexdir)
    assert "frames.jsonl:2: relations: Inheritance relations form a cycle: A -> B -> A" in str(err.value)


def test_several_problems_are_all_listed(lexdir):
    write(lexdir / "frames.jsonl", ["{", FRAMES[0], "[", {"frame": "Y"}])
    (lexdir / "exemplars.jsonl").unlink()
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(lexdir)
    assert len(err.value.problems) == 5  # 2 JSON errors + 3 missing keys of line 4
    assert "and 4 more problem(s)" in str(err.value)
    assert err.value.problems[0].endswith("frames.jsonl:1: not valid JSON (Expecting property name enclosed in double quotes at column 2)")


def test_the_fix_names_the_users_files_and_the_installed_schema(lexdir):
    """The fix names the file(s) with the bad lines (not a path of fbagent's source tree) and the schema file
    as installed, which exists wherever fbagent is installed."""
    from fbagent.lexicon.jsonl_reader import schema_path

    write(lexdir / "frames.jsonl", [FRAMES[0], {"frame": "Y", "definiton": "typo"}])
    (lexdir / "exemplars.jsonl").unlink()
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(lexdir)
    assert err.value.fix.startswith(f"correct the named line(s) of {lexdir / 'frames.jsonl'} as docs/lexicon.md")
    assert f"(JSON Schema: {schema_path()})" in err.value.fix and Path(schema_path()).is_file()
    write(lexdir / "exemplars.jsonl", [EXEMPLARS[0], {"lu": "leave.v", "text": "x"}])
    with pytest.raises(LexiconFormatError) as err:
        read_jsonl(lexdir)
    assert f"of {lexdir / 'frames.jsonl'} and {lexdir / 'exemplars.jsonl'} as" in err.value.fix


def test_invalid_jsonl_keeps_previous_lexicon(tmp_db, lexdir):
    first = import_lexicon(tmp_db, lexdir, lang="en", name="lex")
    write(lexdir / "frames.jsonl", [FRAMES[0], "{oops"])
    with pytest.raises(LexiconFormatError):
        import_lexicon(tmp_db, lexdir, lang="en", name="lex")
    assert lexicon_stats(tmp_db, first.lexicon_id)["frames"] == 2
