"""Lexicon import: embedded sample, NLTK layout quirks, idempotence, broken resources, CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.importer import (
    EMBEDDED_NAME,
    embedded_path,
    import_embedded,
    import_lexicon,
    resolve_lexicon,
)
from fbagent.lexicon.jsonl_reader import read_jsonl
from fbagent.lexicon.nltk_reader import read_nltk
from fbagent.store.lexicon import frame_context, frame_reference_texts, lexicon_stats

SAMPLE_JSONL = embedded_path().parent / "sample_en_jsonl"


@pytest.fixture
def sample_copy(tmp_path):
    """An editable copy of the embedded sample (NLTK layout)."""
    dst = tmp_path / "sample"
    shutil.copytree(embedded_path(), dst)
    return dst


def table_count(db, table):
    return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def snapshot(db):
    return {t: table_count(db, t) for t in ("lexicons", "frames", "frame_examples", "frame_elements",
                                             "lexical_units", "exemplars", "frame_relations")}


# -- embedded sample ---------------------------------------------------------------------------

def test_resolve_lexicon_imports_embedded_sample_and_says_so(tmp_db):
    notes = []
    row = resolve_lexicon(tmp_db, notify=notes.append)
    assert row["name"] == EMBEDDED_NAME and row["format"] == "embedded" and row["lang"] == "en"
    assert len(notes) == 1 and "embedded" in notes[0] and "sample-en" in notes[0]
    stats = lexicon_stats(tmp_db, row["id"])
    assert stats["frames"] == 34
    assert stats["polysemous_verbs"] == 16
    assert stats["candidate_pairs"] == 26
    assert stats["exemplars"] == 75
    assert stats["frame_relations"] == 2
    assert stats["lus_by_pos"] == {"V": 88, "N": 1}
    # a second call uses it silently
    notes.clear()
    assert resolve_lexicon(tmp_db, notify=notes.append)["id"] == row["id"]
    assert notes == []


def test_sample_verbs_have_two_or_three_frames_with_core_fes_and_exemplars():
    data = read_nltk(embedded_path())
    assert data.warnings == []
    frames = {f.name: f for f in data.frames}
    by_verb = {}
    for lu in data.lexical_units:
        if lu.pos == "V":
            by_verb.setdefault(lu.lemma, []).append(lu)
    poly = {v: lus for v, lus in by_verb.items() if len(lus) >= 2}
    assert len(poly) == 16 and all(2 <= len(lus) <= 3 for lus in poly.values())
    for lus in poly.values():
        for lu in lus:
            assert lu.definition and lu.exemplars and lu.n_annotated == len(lu.exemplars)
            assert all(e.text[e.target_start:e.target_end] for e in lu.exemplars)
            f = frames[lu.frame]
            assert f.definition and f.examples
            assert any(fe.core_type == "Core" and fe.definition for fe in f.frame_elements)


def test_nltk_sample_equals_its_jsonl_source():
    a, b = read_nltk(embedded_path()), read_jsonl(SAMPLE_JSONL)
    assert a.frames == b.frames
    assert a.relations == b.relations
    assert [replace(lu, lu_id=None) for lu in a.lexical_units] == b.lexical_units


def test_frame_context_and_reference_texts(tmp_db):
    lex = import_embedded(tmp_db)
    ctx = frame_context(tmp_db, lex.lexicon_id, "Quitting", "leave", max_examples=3)
    assert ctx["frame"] == "Quitting" and ctx["lu"] == "leave.v"
    assert ctx["definition"].startswith("An Employee stops working for an Employer")
    assert [fe["name"] for fe in ctx["core_fes"]] == ["Employee", "Employer", "Position"]
    assert ctx["lu_definition"] == "stop working for an employer or give up a job"
    # two exemplars of leave.v first, then the frame's <ex> example
    assert [e["source"] for e in ctx["examples"]] == ["exemplar", "exemplar", "frame"]
    first = ctx["examples"][0]
    assert first["text"][first["target_start"]:first["target_end"]] == "left"
    # a verb without an LU in the frame: frame examples only, no LU definition
    ctx2 = frame_context(tmp_db, lex.lexicon_id, "Departing", "fly", max_examples=5)
    assert ctx2["lu"] is None and ctx2["lu_definition"] == ""
    assert [e["source"] for e in ctx2["examples"]] == ["frame", "frame"]
    texts = frame_reference_texts(tmp_db, lex.lexicon_id, "Giving", "leave")
    assert texts == ["A Donor transfers a Theme into the possession of a Recipient.",
                     "hand something on to someone, especially in a will"]
    assert frame_reference_texts(tmp_db, lex.lexicon_id, "Giving") == texts[:1]
    with pytest.raises(FbagentError, match="frame 'Nope' is not in lexicon sample-en"):
        frame_context(tmp_db, lex.lexicon_id, "Nope", "leave")


def test_resolve_lexicon_unknown_name_lists_available_and_most_recent(tmp_db, sample_copy):
    import_embedded(tmp_db)
    import_lexicon(tmp_db, sample_copy, lang="en", name="copy")
    with pytest.raises(FbagentError) as err:
        resolve_lexicon(tmp_db, "nope", notify=None)
    assert "available: sample-en, copy" in str(err.value)
    notes = []
    assert resolve_lexicon(tmp_db, notify=notes.append)["name"] == "copy"
    assert "most recent of 2" in notes[0]
    assert resolve_lexicon(tmp_db, "sample-en", notify=None)["name"] == "sample-en"


def test_the_embedded_sample_by_name_is_imported_when_missing(tmp_db, sample_copy):
    """README: commands use `sample-en` until a lexicon is added; asking for it by name works on a fresh
    database and on one that holds other lexicons only (it is imported, and a note says so)."""
    notes = []
    assert resolve_lexicon(tmp_db, EMBEDDED_NAME, notify=notes.append)["name"] == EMBEDDED_NAME
    assert len(notes) == 1 and "has no lexicon" in notes[0]

    import_lexicon(tmp_db, sample_copy, lang="en", name="copy")
    notes.clear()
    assert resolve_lexicon(tmp_db, EMBEDDED_NAME, notify=notes.append)["name"] == EMBEDDED_NAME
    assert notes == []   # already there: silent
    with pytest.raises(FbagentError, match="unknown lexicon 'sample-ja'"):
        resolve_lexicon(tmp_db, "sample-ja", notify=None)


def test_the_embedded_sample_by_name_beside_another_lexicon(tmp_path, sample_copy):
    from fbagent.store.db import open_db

    db = open_db(tmp_path / "other.db")
    import_lexicon(db, sample_copy, lang="en", name="copy")
    notes = []
    assert resolve_lexicon(db, EMBEDDED_NAME, notify=notes.append)["name"] == EMBEDDED_NAME
    assert notes == ["note: imported the embedded English sample lexicon 'sample-en' (34 frames, 89 LUs) into the "
                     "database"]


# -- idempotence ---------------------------------------------------------------------------------

def test_reimport_same_resource_is_unchanged_and_changed_one_replaces(tmp_db, sample_copy):
    first = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    before = snapshot(tmp_db)
    again = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    assert (first.status, again.status) == ("imported", "unchanged")
    assert snapshot(tmp_db) == before
    # change one LU definition: same name -> replaced in place, no duplicates, same lexicon id
    f = sample_copy / "frame" / "Firing.xml"
    f.write_text(f.read_text("utf-8").replace("dismiss someone from a job", "let someone go from a job"), "utf-8")
    third = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    assert third.status == "replaced" and third.lexicon_id == first.lexicon_id
    assert snapshot(tmp_db) == before
    ctx = frame_context(tmp_db, first.lexicon_id, "Firing", "fire")
    assert ctx["lu_definition"] == "let someone go from a job"


def test_a_lexicon_without_polysemous_verbs_imports_with_a_note(tmp_db, tmp_path):
    import json

    rows = [{"frame": f"Thing_{i}", "definition": "A kind of thing.", "frame_elements": [
        {"name": "Entity", "core_type": "Core", "definition": "The thing."}],
        "lexical_units": [{"name": "stone.n"}, {"name": "run.v"}]} for i in range(2)]
    path = tmp_path / "nouns.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = import_lexicon(tmp_db, path, lang="en", name="nouns")
    # run.v evokes Thing_0 and Thing_1: one polysemous verb, no note
    assert result.status == "imported" and not [n for n in result.notes if "no verb lexical unit" in n]
    rows[1]["lexical_units"] = [{"name": "stone.n"}, {"name": "walk.v"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = import_lexicon(tmp_db, path, lang="en", name="nouns")
    assert result.status == "replaced"
    assert [n for n in result.notes if n.startswith("no verb lexical unit (POS V) evokes two or more frames")]
    assert table_count(tmp_db, "lexical_units") == 4


# -- broken resources: report the file, import nothing ------------------------------------------

def _assert_rejected(db, path, match, **kw):
    before = snapshot(db)
    with pytest.raises(FbagentError, match=match):
        import_lexicon(db, path, lang="en", name="s", **kw)
    assert snapshot(db) == before


def test_malformed_frame_file_names_the_file_and_keeps_previous_data(tmp_db, sample_copy):
    import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    bad = sample_copy / "frame" / "Attack.xml"
    bad.write_text(bad.read_text("utf-8").replace("</frame>", ""), "utf-8")
    _assert_rejected(tmp_db, sample_copy, r"frame/Attack\.xml: malformed XML")
    assert lexicon_stats(tmp_db, 1)["frames"] == 34


def test_missing_index_and_missing_frame_file(tmp_db, sample_copy):
    (sample_copy / "frame" / "Birth.xml").unlink()
    _assert_rejected(tmp_db, sample_copy, r"frame/Birth\.xml: missing frame file")
    (sample_copy / "luIndex.xml").unlink()
    _assert_rejected(tmp_db, sample_copy, "missing index luIndex.xml", fmt="nltk")


def test_lu_pointing_to_another_frame_is_an_error(tmp_db, sample_copy):
    idx = sample_copy / "luIndex.xml"
    text = idx.read_text("utf-8")
    line = next(ln for ln in text.splitlines() if 'name="fire.v"' in ln and "Firing" in ln)
    idx.write_text(text.replace(line, line.replace('frameName="Firing"', 'frameName="No_such_frame"')), "utf-8")
    _assert_rejected(tmp_db, sample_copy, r"luIndex\.xml: LU fire\.v .* points to frame No_such_frame, but frame/Firing\.xml lists it")


def test_dangling_lu_is_skipped_with_a_warning_or_rejected_with_strict(tmp_db, sample_copy):
    idx = sample_copy / "luIndex.xml"
    idx.write_text(idx.read_text("utf-8").replace(
        "</luIndex>", '    <lu ID="999" name="ghost.v" frameName="Haunting" frameID="4242" status="Created"/>\n</luIndex>'),
        "utf-8")
    _assert_rejected(tmp_db, sample_copy, "points to unknown frame Haunting", strict=True)
    result = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    assert result.counts["n_lexical_units"] == 89
    assert any("ghost.v" in w and "Haunting" in w for w in result.warnings)


def test_missing_relations_file_and_group_writable_files_still_import(tmp_db, sample_copy):
    """NLTK 3.10 refuses group-writable files and needs frRelation.xml; the private mirror handles both."""
    (sample_copy / "frRelation.xml").unlink()
    for path in [sample_copy, *sample_copy.rglob("*")]:
        os.chmod(path, 0o777 if path.is_dir() else 0o666)
    result = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    assert result.status == "imported"
    assert result.counts["n_frames"] == 34 and result.counts["n_frame_relations"] == 0
    assert any("frRelation.xml" in n for n in result.notes)


def test_lexicon_without_status_and_ids_like_asfalda(tmp_db, sample_copy):
    """ASFALDA-like quirks: frameIndex without IDs, <lexUnit> without status, extra attributes."""
    idx = sample_copy / "frameIndex.xml"
    import re

    idx.write_text(re.sub(r' ID="\d+"', ' domain="X"', idx.read_text("utf-8")), "utf-8")
    for f in (sample_copy / "frame").glob("*.xml"):
        f.write_text(f.read_text("utf-8").replace(' status="Finished_Initial"', ' inhib="false"'), "utf-8")
    result = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    assert result.counts["n_frames"] == 34 and result.counts["n_lexical_units"] == 89
    assert tmp_db.execute("SELECT frame_id FROM frames WHERE name = 'Departing'").fetchone()[0] == 57


# -- CLI ------------------------------------------------------------------------------------------

def run_cli(*args, db):
    env = {**os.environ, "FBAGENT_DB": str(db)}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, env=env)


def test_cli_add_list_show_and_bad_input(tmp_path, sample_copy):
    db = tmp_path / "cli.db"
    ok = run_cli("lexicon", "add", str(sample_copy), "--lang", "en", "--name", "s", db=db)
    assert ok.returncode == 0, ok.stderr
    assert "Imported lexicon s (en, nltk): 34 frames" in ok.stdout
    again = run_cli("lexicon", "add", str(sample_copy), "--lang", "en", "--name", "s", db=db)
    assert "Unchanged" in again.stdout
    shown = run_cli("lexicon", "show", "s", "--json", db=db)
    import json

    counts = json.loads(shown.stdout)["counts"]
    assert counts["polysemous_verbs"] == 16 and counts["candidate_pairs"] == 26
    listed = run_cli("lexicon", "list", db=db)
    assert "s" in listed.stdout and "34" in listed.stdout

    missing = run_cli("lexicon", "add", str(tmp_path / "nowhere"), "--lang", "en", db=db)
    assert missing.returncode == 2
    assert missing.stderr.strip().count("\n") == 0 and missing.stderr.startswith("error: ")
    assert "does not exist" in missing.stderr and "Fix:" in missing.stderr

    bad = sample_copy / "frame" / "Attack.xml"
    bad.write_text("<frame", "utf-8")
    broken = run_cli("lexicon", "add", str(sample_copy), "--lang", "en", "--name", "s", db=db)
    assert broken.returncode == 2 and "Attack.xml: malformed XML" in broken.stderr
    assert "Traceback" not in broken.stderr

    lang = run_cli("lexicon", "add", str(sample_copy), "--lang", "english!", db=db)
    assert lang.returncode == 2 and "not a language code" in lang.stderr
    unknown = run_cli("lexicon", "show", "nope", db=db)
    assert unknown.returncode == 2 and "available: s" in unknown.stderr


def test_reimport_under_another_language_is_refused_and_changes_nothing(tmp_db, sample_copy):
    first = import_lexicon(tmp_db, sample_copy, lang="en", name="s")
    before = snapshot(tmp_db)
    with pytest.raises(FbagentError, match="stored with language 'en', not 'fr'"):
        import_lexicon(tmp_db, sample_copy, lang="fr", name="s")
    assert snapshot(tmp_db) == before
    assert tmp_db["lexicons"].get(first.lexicon_id)["lang"] == "en"


def test_lexicon_show_of_the_embedded_sample_in_a_database_without_it(tmp_path, sample_copy):
    """`lexicon show sample-en` opens the database read-only unless it must import the sample: it imports it."""
    db = tmp_path / "fb.db"
    assert run_cli("lexicon", "add", str(sample_copy), "--lang", "en", "--name", "copy", db=db).returncode == 0
    proc = run_cli("lexicon", "show", "sample-en", db=db)
    assert proc.returncode == 0, proc.stderr
    assert "imported the embedded English sample lexicon 'sample-en'" in proc.stderr
    assert "Lexicon sample-en (en, embedded)" in proc.stdout
