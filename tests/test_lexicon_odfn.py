"""The Open Dutch FrameNet Lexicon reader (cltl/OpenDutchFrameNetLexicon's JSON) on a file written by hand in
that layout (tests/data/odfn/lexicon-manual.json: own sentences, none from the release), and --frames-from finding
a frame named in other letter case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.importer import ImportOptions, detect_format, embedded_path, import_lexicon
from fbagent.lexicon.odfn_reader import english, frame_name, read_odfn
from fbagent.store.lexicon import lexicon_stats

DATA = Path(__file__).parent / "data" / "odfn"


def test_entries_frames_and_exemplars():
    data = read_odfn(DATA / "lexicon-manual.json")
    assert [(f.name, [fe.name for fe in f.frame_elements]) for f in data.frames] == [
        ("Departing", ["Source"]), ("Quitting", [])]
    by_key = {(lu.name, lu.frame): lu for lu in data.lexical_units}
    assert set(by_key) == {("vertrekken.v", "Departing"), ("verlaten.v", "Departing"), ("verlaten.v", "Quitting"),
                           ("lopen.v", "Departing"), ("gaan.v", "Departing"), ("wegrennen.v", "Departing"),
                           ("weggaan.v", "Departing"), ("vertrek.n", "Departing")}
    spans = {k: [(e.text, e.target_start, e.target_end) for e in lu.exemplars] for k, lu in by_key.items()}
    assert spans[("vertrekken.v", "Departing")] == [("De trein vertrekt om acht uur .", 9, 17)]
    assert spans[("verlaten.v", "Quitting")] == [("Hij heeft zijn baan verlaten .", 20, 28)]
    # "gaan" (4 letters) could be "naar" or "gaan": the lopen mention of the same sentence fixes word w19 first
    assert spans[("gaan.v", "Departing")] == [("Ze lopen naar buiten en gaan weg .", 24, 28)]
    assert spans[("weggaan.v", "Departing")] == [("Wij gaan morgen weg .", 4, 19)]   # "gaan morgen weg"
    assert spans[("wegrennen.v", "Departing")] == []   # "rende" twice: not placed
    assert by_key[("vertrek.n", "Departing")].definition == "het weggaan"
    assert by_key[("vertrekken.v", "Departing")].n_annotated == 1   # the system annotation is not counted
    assert data.n_polysemous_verbs == 1
    assert any("1 manual mention(s) whose target word could not be placed" in w for w in data.warnings)
    assert any("annotated only in English sentences" in w and "leave:VERB" in w for w in data.warnings)
    assert "1 frame-element association(s) (fn17-FRAME@FE keys) added as FE names, not as LUs" in data.notes
    p = data.provenance
    assert (p.license, p.reader, p.url) == ("MIT", "odfn", "https://github.com/cltl/OpenDutchFrameNetLexicon")
    assert "Apache License 2.0" in p.license_source and "Vos:Fok:Mak:Son:18" in p.citation


def test_frame_names_and_language():
    assert frame_name("fn17-cause_harm") == ("Cause_harm", None)
    assert frame_name("fn17-catastrophe@undesirable_event") == ("Catastrophe", "Undesirable_event")
    assert english("The train leaves at eight o'clock and the people are waiting .")
    assert not english("De trein vertrekt om acht uur en de mensen wachten .")


def test_detect_folder_and_file(tmp_path):
    assert detect_format(DATA / "lexicon-manual.json") == "odfn"
    assert detect_format(DATA) == "odfn"
    (tmp_path / "lus.json").write_text(json.dumps([{"lu": "gaan.v", "frame": "Motion"}]), "utf-8")
    assert detect_format(tmp_path / "lus.json") == "lu-list"   # an LU list stays an LU list


def test_damaged_entry_names_file_and_line(tmp_path):
    bad = tmp_path / "lex.json"
    bad.write_text('{\n  "gaan:VERB": {"lemma": "gaan", "pos": "VERB", "frames": {}},\n'
                   '  "lopen:VERB": {"lemma": "lopen", "pos": "VERB"}\n}\n', "utf-8")
    with pytest.raises(FbagentError, match=r"lex\.json:3: entry 'lopen:VERB' lacks a lemma, pos or frames object"):
        read_odfn(bad)


def test_import_with_frames_from_and_case(tmp_db, tmp_path):
    import_lexicon(tmp_db, embedded_path(), lang="en", name="fn", fmt="nltk")
    result = import_lexicon(tmp_db, DATA, lang="nl", name="odfn", options=ImportOptions(frames_from="fn"))
    assert result.format == "odfn"
    stats = lexicon_stats(tmp_db, result.lexicon_id)
    assert (stats["frames"], stats["lexical_units"], stats["exemplars"], stats["polysemous_verbs"]) == (2, 8, 6, 1)
    # an LU list naming a frame in lower case: found in fn, stored under fn's spelling
    lus = tmp_path / "lus.json"
    lus.write_text(json.dumps([{"lu": "vertrekken.v", "frame": "departing"}]), "utf-8")
    other = import_lexicon(tmp_db, lus, lang="nl", name="lower", options=ImportOptions(frames_from="fn"))
    names = [r[0] for r in tmp_db.execute("SELECT name FROM frames WHERE lexicon_id = ?", [other.lexicon_id])]
    assert names == ["Departing"]
    assert any("1 in other letter case" in n for n in other.notes)


# -- the Arabic FrameNet's layer-2 CSV (an LU list whose frames are FrameNet 1.7 ids) ----------------------------


def test_arabic_lus_csv_imports_without_columns_and_takes_frame_names_by_id(tmp_db):
    from fbagent.lexicon.lu_list_reader import read_lu_list

    path = Path(__file__).parent / "data" / "arabic" / "lus_ar.csv"   # hand-written rows in the release's columns
    data = read_lu_list(path)
    assert [(f.name, f.frame_id) for f in data.frames] == [("frame #57", 57), ("frame #1402", 1402)]
    assert [(lu.name, lu.pos) for lu in data.lexical_units] == [
        ("غَادَرَ.v", "V"), ("رَحَلَ.v", "V"), ("مُغَادَرَة.n", "N"), ("غَادَرَ.v", "V"), ("اِسْتَقَالَ.v", "V"),
        ("مُسْتَقِيل.a", "A")]
    assert data.lexical_units[0].definition == "ترك المكان ومضى عنه."
    assert (data.provenance.name, data.provenance.license) == ("Arabic FrameNet", "unknown")
    assert "to be declared by the owner" in data.provenance.license_source
    import_lexicon(tmp_db, embedded_path(), lang="en", name="fn", fmt="nltk")
    result = import_lexicon(tmp_db, path, lang="ar", name="afn", options=ImportOptions(frames_from="fn"))
    assert result.format == "lu-list"
    names = sorted(r[0] for r in tmp_db.execute("SELECT name FROM frames WHERE lexicon_id = ?", [result.lexicon_id]))
    assert names == ["Departing", "Quitting"]
    stats = lexicon_stats(tmp_db, result.lexicon_id)
    assert (stats["lexical_units"], stats["polysemous_verbs"], stats["candidate_pairs"]) == (6, 1, 1)
