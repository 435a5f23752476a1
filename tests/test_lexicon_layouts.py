"""The readers of the published layouts (Korean FrameNet, CoNLL-2009, Turkish FrameNet XML + KeNet, LU lists),
--frames-from, and what `lexicon add` says at the end: on small files written by hand (tests/lexicon_layouts.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fbagent.commands.lexicon import FORMAT_HELP
from fbagent.errors import FbagentError
from fbagent.lexicon import starlang_reader
from fbagent.lexicon.conll2009_reader import read_conll2009
from fbagent.lexicon.importer import (
    FORMATS,
    ImportOptions,
    detect_format,
    embedded_path,
    import_lexicon,
)
from fbagent.lexicon.kfn_reader import read_kfn
from fbagent.lexicon.lu_list_reader import parse_columns, read_lu_list
from fbagent.store.lexicon import lexicon_stats
from tests.lexicon_layouts import (
    CONLL,
    KFN_TSV,
    LU_CSV,
    TR_XML,
    write_conll,
    write_kenet,
    write_kfn,
    write_starlang,
)


def lu_map(data):
    return {(lu.name, lu.frame): lu for lu in data.lexical_units}


@pytest.fixture
def sample_db(tmp_db):
    """A database holding the embedded English sample as a Berkeley (NLTK-layout, en) lexicon named ``fn``."""
    import_lexicon(tmp_db, embedded_path(), lang="en", name="fn", fmt="nltk")
    return tmp_db


@pytest.fixture
def kenet(tmp_path, monkeypatch):
    """The Turkish reader resolves synsets through a hand-written KeNet XML."""
    path = write_kenet(tmp_path / "kenet.xml")
    monkeypatch.setattr(starlang_reader, "kenet_path", lambda: path)
    return path


# -- Korean FrameNet --------------------------------------------------------------------------------

def test_kfn_reads_lus_frames_sentences_and_provenance(tmp_path):
    data = read_kfn(write_kfn(tmp_path / "kfn"))
    assert [f.name for f in data.frames] == ["Departing", "Giving_birth", "Quitting"]
    departing = data.frames[0]
    assert departing.frame_id == 57 and departing.definition.startswith("An object (the Theme) moves away")
    assert [(fe.name, fe.core_type) for fe in departing.frame_elements] == [("Theme", "Core"), ("Source", "Core")]
    lus = lu_map(data)
    assert len(lus) == 4 and lus[("떠나다.v", "Departing")].pos == "V" and lus[("출발.n", "Departing")].pos == "N"
    assert lus[("떠나다.v", "Departing")].lu_id == 11
    # n_annotated: the release's annotation_ids (3), not the one TSV sentence read
    assert lus[("떠나다.v", "Departing")].n_annotated == 3 and lus[("떠나다.v", "Quitting")].n_annotated == 1
    (ex,) = lus[("떠나다.v", "Departing")].exemplars
    # "그는 " (3) + "아침에 " (4) + "집을 " (3): the target token starts at 10 and is 4 characters long
    assert ex.text == "그는 아침에 집을 떠났다." and (ex.target_start, ex.target_end) == (10, 14)
    assert ex.text[10:14] == "떠났다."
    assert data.n_polysemous_verbs == 1
    assert data.provenance.license == "CC BY-NC-SA (https://creativecommons.org/licenses/by-nc-sa/2.0/)" and data.provenance.name == "Korean FrameNet 1.2"
    assert "hahm2020crowdsourcing" in data.provenance.citation and "ruppenhofer-etal-2016-framenet" in data.provenance.citation
    assert data.provenance.reader == "kfn" and "koreanframenet" in data.provenance.url


def test_kfn_damaged_files_name_file_and_line(tmp_path):
    truncated = json.dumps({"11": {"lexeme": "떠나다"}}, indent=4)[:-8]
    with pytest.raises(FbagentError) as err:
        read_kfn(write_kfn(tmp_path / "a", lus_json=truncated))
    assert "KFN_lus.json:3: not valid JSON" in str(err.value) and "nothing was imported" in str(err.value)
    bad_row = KFN_TSV.replace("2\t집을\t_\t_\tB-Source", "2\t집을\t_\tB-Source")
    with pytest.raises(FbagentError) as err:
        read_kfn(write_kfn(tmp_path / "b", tsv=bad_row))
    assert "dev.tsv:5: 4 tab-separated column(s), the layout has 5" in str(err.value)


def test_kfn_borrows_what_it_lacks_from_berkeley(sample_db, tmp_path):
    result = import_lexicon(sample_db, write_kfn(tmp_path / "kfn"), lang="ko", name="ko")
    assert result.format == "kfn"
    assert any("the one Berkeley FrameNet in the database" in n for n in result.notes)
    # all three found by frame id (Giving_birth is 1.5's Birth, id 1418); Departing keeps its own text and FEs
    assert any("3 of 3 frames found (3 by frame id, 0 under their FrameNet 1.5/1.7 name); 2 definitions, "
               "2 frame-element lists" in n for n in result.notes), result.notes
    row = sample_db.execute("SELECT definition FROM frames f JOIN lexicons l ON l.id = f.lexicon_id "
                            "WHERE l.name = 'ko' AND f.name = 'Giving_birth'").fetchone()
    births = sample_db.execute("SELECT definition FROM frames WHERE name = 'Birth'").fetchone()
    assert row[0] == births[0] and row[0]
    fes = [r[0] for r in sample_db.execute(
        "SELECT e.name FROM frame_elements e JOIN frames f ON f.id = e.frame_pk JOIN lexicons l ON l.id = f.lexicon_id "
        "WHERE l.name = 'ko' AND f.name = 'Departing' ORDER BY e.id")]
    assert fes == ["Theme", "Source"]


# -- CoNLL-2009 ---------------------------------------------------------------------------------------

def test_conll2009_sets_become_exemplars(tmp_path):
    data = read_conll2009(write_conll(tmp_path / "lv"))
    assert [f.name for f in data.frames] == ["Departing", "Giving_birth", "Quitting"]
    assert [fe.name for fe in data.frames[0].frame_elements] == ["Theme", "Source"]
    lus = lu_map(data)
    assert sorted(lus) == [("aizbraukt.v", "Departing"), ("aizbraukt.v", "Quitting"), ("dzemdēt.v", "Giving_birth")]
    (ex,) = lus[("aizbraukt.v", "Departing")].exemplars
    assert ex.text == "Viņš aizbrauca no Rīgas." and (ex.target_start, ex.target_end) == (5, 14)
    assert lus[("aizbraukt.v", "Quitting")].n_annotated == 1 and data.n_exemplars == 3
    assert data.provenance.license == "CC-BY-SA-4.0" and "nespore2018latvian" in data.provenance.citation
    assert read_conll2009(write_conll(tmp_path / "other", readme=False)).provenance.license == "unknown"


def test_conll2009_bad_column_count_and_truncated_file(tmp_path):
    lines = CONLL.split("\n")
    lines[3] = "\t".join(lines[3].split("\t")[:10])        # line 4: 10 of 12 columns, inside the file
    with pytest.raises(FbagentError) as err:
        read_conll2009(write_conll(tmp_path / "a", "\n".join(lines)))
    assert "a.conll2009:4: 10 tab-separated column(s), the file's rows have 12" in str(err.value)
    # a copy cut inside its last row: the unfinished sentence (no target yet) is left out, with a warning
    cut = CONLL[:CONLL.index("2\tmērķa")] + "2\tmērķa\tmērķis"
    data = read_conll2009(write_conll(tmp_path / "b", cut))
    assert data.n_exemplars == 3 and len(data.warnings) == 1
    assert "a.conll2009:25: the file ends inside a row (3 of 12 columns" in data.warnings[0]
    assert "its unfinished sentence from line 24 is left out" in data.warnings[0]
    with pytest.raises(FbagentError, match=r"a.conll2009:25: 3 tab-separated"):
        read_conll2009(tmp_path / "b", strict=True)



def test_conll2009_damage_is_said_again_when_unchanged(tmp_db, tmp_path):
    """A re-add of the same truncated copy (and an empty file beside it) repeats both warnings in the words of the
    first read; a whole copy gets none; with --strict the re-add is refused and nothing changes."""
    cut = CONLL[:CONLL.index("2\tmērķa")] + "2\tmērķa\tmērķis"
    folder = write_conll(tmp_path / "b", cut)
    (folder / "data" / "z.conll2009").write_text("\n\n", "utf-8")
    first = import_lexicon(tmp_db, folder, lang="lv", name="b")
    assert [w.split(": ", 1)[1] if w.startswith(str(folder)) else w for w in first.warnings] == [
        "the file ends inside a row (3 of 12 columns: a truncated copy); its unfinished sentence from line 24 is "
        "left out (--strict refuses it)",
        f"1 of 2 CoNLL-2009 file(s) are empty and were skipped: {folder / 'data' / 'z.conll2009'} (fetch them again "
        "if they should hold sentences)"]
    again = import_lexicon(tmp_db, folder, lang="lv", name="b")
    assert again.status == "unchanged" and again.warnings == first.warnings
    whole = import_lexicon(tmp_db, write_conll(tmp_path / "w"), lang="lv", name="w")
    assert whole.warnings == [] and import_lexicon(tmp_db, tmp_path / "w", lang="lv", name="w").warnings == []
    with pytest.raises(FbagentError, match=r"a.conll2009:25: 3 tab-separated"):
        import_lexicon(tmp_db, folder, lang="lv", name="b", strict=True)
    assert lexicon_stats(tmp_db, again.lexicon_id)["exemplars"] == 3

# -- Turkish FrameNet XML + KeNet ---------------------------------------------------------------------

def test_starlang_resolves_synsets_through_kenet(tmp_path, kenet):
    data = starlang_reader.read_starlang(write_starlang(tmp_path / "tr"))
    lus = lu_map(data)
    assert sorted(lus) == [("ayrılmak.v", "Departing"), ("ayrılmak.v", "Quitting"), ("gitmek.v", "Departing")]
    assert lus[("ayrılmak.v", "Quitting")].definition == "İşini bırakmak" and lus[("gitmek.v", "Departing")].pos == "V"
    (ex,) = lus[("ayrılmak.v", "Departing")].exemplars
    # "Sabah erkenden evden " is 21 characters; the word starting with the stem "ayrıl" is "ayrıldı"
    assert (ex.text, ex.target_start, ex.target_end) == ("Sabah erkenden evden ayrıldı.", 21, 28)
    assert lus[("ayrılmak.v", "Departing")].n_annotated == 0   # dictionary examples, not FrameNet annotation
    assert [fe.name for fe in data.frames[0].frame_elements] == ["Theme", "Yön"]
    assert len(data.warnings) == 1 and "1 LU synset id(s) are not in the installed KeNet" in data.warnings[0]
    assert "TUR10-9999999" in data.warnings[0]
    assert data.provenance.license == "GPL-3.0-only" and "marsan20" in data.provenance.citation


def test_starlang_malformed_xml(tmp_path, kenet):
    broken = TR_XML.replace("</FRAME_ELEMENTS>\n    </FRAME>", "</FRAME>", 1)   # line 9 closes FRAME inside FRAME_ELEMENTS
    with pytest.raises(FbagentError) as err:
        starlang_reader.read_starlang(write_starlang(tmp_path / "bad", broken))
    assert "framenet.xml:9: malformed XML (mismatched tag, column" in str(err.value)


def test_kenet_path_names_the_extra_when_absent(monkeypatch):
    monkeypatch.setattr(starlang_reader, "find_spec", lambda name: None)
    with pytest.raises(FbagentError, match=r"pip install 'fbagent\[tr\]' \(nlptoolkit-wordnet, GPL-3.0\)"):
        starlang_reader.kenet_path()


# -- LU lists -----------------------------------------------------------------------------------------

def test_lu_list_csv_with_columns_and_frames_from(sample_db, tmp_path):
    csv_path = tmp_path / "arabic.csv"
    csv_path.write_text(LU_CSV + "commencer,verb,Activity_start,\ncommencer,verb,Process_start,\n", "utf-8")
    with pytest.raises(FbagentError, match=r"no frame \(or frame_id\) column"):
        read_lu_list(csv_path)
    data = read_lu_list(csv_path, "lemma=Word,pos=Tag,frame=FN_frame,exemplar=Sentence")
    lus = lu_map(data)
    assert ("partir.v", "Quitting") in lus and lus[("départ.n", "Departing")].pos == "N"
    (ex,) = lus[("partir.v", "Departing")].exemplars
    assert (ex.text, ex.target_start, ex.target_end) == ("Il va partir demain.", 6, 12)
    result = import_lexicon(sample_db, csv_path, lang="fr", name="ar",
                            options=ImportOptions(columns="lemma=Word,pos=Tag,frame=FN_frame,exemplar=Sentence",
                                                  frames_from="fn"))
    assert result.format == "lu-list"
    # Giving_birth is found under its FrameNet 1.5 name Birth; the sample's Activity_start -> Process_start relation
    assert any("5 of 5 frames found (0 by frame id, 1 under their FrameNet 1.5/1.7 name); 5 definitions, "
               "5 frame-element lists, 1 frame relations taken" in n for n in result.notes), result.notes
    stats = lexicon_stats(sample_db, result.lexicon_id)
    assert stats["frame_relations"] == 1 and stats["polysemous_verbs"] == 2 and stats["exemplars"] == 2


def test_lu_list_damage_and_bad_columns(tmp_path):
    tsv = tmp_path / "l.tsv"
    tsv.write_text("lu\tframe\nleave.v\tDeparting\nquit.v\tQuitting\textra\n", "utf-8")
    with pytest.raises(FbagentError, match=r"l.tsv:3: 3 column\(s\), the header has 2"):
        read_lu_list(tsv)
    js = tmp_path / "l.json"
    js.write_text('[\n  {"lu": "leave.v", "frame": "Departing"},\n  {"lu": "quit.v", "fr', "utf-8")
    with pytest.raises(FbagentError, match=r"l.json:3: not valid JSON"):
        read_lu_list(js)
    js.write_text(json.dumps({"lexical_units": [{"lu": "leave.v", "frame": "Departing", "frame_id": "57"}]}), "utf-8")
    (lu,) = read_lu_list(js).lexical_units
    assert (lu.name, lu.frame) == ("leave.v", "Departing") and read_lu_list(js).frames[0].frame_id == 57
    js.write_text('[\n  {"lu": "leave.v", "frame": "Departing"},\n\n  {"lu": "quit.v"}\n]\n', "utf-8")
    with pytest.raises(FbagentError, match=r"l.json:4: row has no frame"):
        read_lu_list(js)
    with pytest.raises(FbagentError, match="not FIELD=COLUMN"):
        parse_columns("lemma")
    with pytest.raises(FbagentError, match="names no column"):
        read_lu_list(js, "lemma=Wort")


# -- detection, reference choice, the CLI ------------------------------------------------------------------

def test_detect_format_each_layout(tmp_path):
    assert detect_format(write_kfn(tmp_path / "kfn")) == "kfn"
    assert detect_format(tmp_path / "kfn" / "resource" / "1.2") == "kfn"
    assert detect_format(write_conll(tmp_path / "lv")) == "conll2009"
    assert detect_format(write_starlang(tmp_path / "tr")) == "starlang"
    assert detect_format(tmp_path / "tr" / "framenet.xml") == "starlang"
    (tmp_path / "l.csv").write_text(LU_CSV, "utf-8")
    assert detect_format(tmp_path / "l.csv") == "lu-list"
    (tmp_path / "empty").mkdir()
    with pytest.raises(FbagentError, match="no FrameNet layout fbagent reads"):
        detect_format(tmp_path / "empty")


def test_no_berkeley_lexicon_says_what_to_do(tmp_db, tmp_path):
    result = import_lexicon(tmp_db, write_conll(tmp_path / "lv"), lang="lv", name="lv")
    assert any("the database holds no Berkeley FrameNet" in n for n in result.notes)
    with pytest.raises(FbagentError, match="unknown lexicon 'nope'"):
        import_lexicon(tmp_db, tmp_path / "lv", lang="lv", name="lv2", options=ImportOptions(frames_from="nope"))


def run_cli(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FBAGENT_DB": str(db), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, env=env)


def test_cli_add_says_reader_summary_and_refuses_damage(tmp_path):
    db = tmp_path / "f.db"
    bad = write_conll(tmp_path / "bad", CONLL.replace("\t_\tTheme", "\tTheme", 1))
    refused = run_cli("lexicon", "add", str(bad), "--lang", "lv", db=db)
    assert refused.returncode == 2 and refused.stderr.strip().count("\n") == 0, refused.stderr
    assert "a.conll2009:3: 11 tab-separated column(s)" in refused.stderr and not db.exists()
    ok = run_cli("lexicon", "add", str(embedded_path()), "--lang", "en", "--name", "fn", db=db)
    assert ok.returncode == 0, ok.stderr
    lv = run_cli("lexicon", "add", str(write_conll(tmp_path / "lv")), "--lang", "lv", db=db)
    assert lv.returncode == 0, lv.stderr
    err = lv.stderr
    assert "note: read by the reader for CoNLL-2009 FrameNet annotation" in err and "(--format conll2009;" in err
    assert "lexicon fn, the one Berkeley FrameNet in the database" in err
    assert ("note: lv: 3 frames, 3 LUs (3 verb LUs), 3 exemplars, 1 polysemous verbs; frame pairs possible: "
            "1 under --protocol fbagent (of 1 candidates, default filters), 1 under --protocol framebench") in err
    assert "warning: fewer than 100 frame pairs possible (1 under --protocol fbagent, 1 under --protocol framebench)" in err
    assert "note: verb check for 'lv'" in err
    forced = run_cli("lexicon", "add", str(tmp_path / "lv"), "--lang", "lv", "--name", "x", "--format", "kfn", db=db)
    assert forced.returncode == 2 and "holds CoNLL-2009 FrameNet annotation" in forced.stderr
    assert "Fix: pass --format conll2009, or leave --format out" in forced.stderr
    cols = run_cli("lexicon", "add", str(tmp_path / "lv"), "--lang", "lv", "--columns", "lemma=x", db=db)
    assert cols.returncode == 2 and "--columns applies to LU lists" in cols.stderr


def test_lu_list_pos_words_and_default_name(tmp_db, tmp_path):
    csv_path = tmp_path / "fr_lus.csv"
    csv_path.write_text("lemma,pos,frame\nabandonner,verbe,Departing\nabandonner,VERB,Quitting\ndépart,nom,Departing\n",
                        "utf-8")
    result = import_lexicon(tmp_db, csv_path, lang="fr")
    assert result.name == "fr_lus"
    names = {r[0] for r in tmp_db.execute("SELECT name FROM lexical_units")}
    assert names == {"abandonner.v", "départ.n"}
    assert lexicon_stats(tmp_db, result.lexicon_id)["polysemous_verbs"] == 1


def test_kfn_entry_without_its_keys_names_its_line(tmp_path):
    lus = json.dumps({"11": {"lexeme": "가다", "pos": "v", "frame": "Motion"}, "12": {"lexeme": "오다"}}, indent=4)
    with pytest.raises(FbagentError, match=r"KFN_lus.json:7: LU entry '12' lacks a lexeme, pos or frame string"):
        read_kfn(write_kfn(tmp_path / "k", lus_json=lus))


def test_help_names_every_format():
    assert set(FORMAT_HELP.split(" | ")) == set(FORMATS)
