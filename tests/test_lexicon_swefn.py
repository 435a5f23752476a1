"""The Swedish FrameNet reader (swefn.xml, Språkbanken's LMF) on a file written by hand in that layout
(tests/data/swefn: swefn.xml and a SALDO saldo.xml beside it for the parts of speech). No real SweFN copy is in
../shared/data, so nothing here reads one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.importer import detect_format, embedded_path, import_lexicon
from fbagent.lexicon.swefn_reader import match_lu, pos_tag, read_swefn
from fbagent.store.lexicon import lexicon_stats

DATA = Path(__file__).parent / "data" / "swefn"


def lus(data):
    return {(lu.name, lu.frame): lu for lu in data.lexical_units}


def test_frames_lus_pos_and_exemplars():
    data = read_swefn(DATA / "swefn.xml")
    assert [f.name for f in data.frames] == ["Departing", "Quitting", "Giving_birth", "Fotboll"]
    departing = data.frames[0]
    assert departing.definition == "En Theme förflyttar sig bort från en Source."
    assert [(fe.name, fe.core_type) for fe in departing.frame_elements] == [
        ("Theme", "Core"), ("Source", "Core"), ("Time", "Peripheral")]
    by_key = lus(data)
    # lämna..1 (Departing) and lämna..2 (Quitting): one verb in two frames; POS from saldo.xml
    assert by_key[("lämna.v", "Departing")].pos == "V"
    assert by_key[("avresa.n", "Departing")].pos == "N"
    assert by_key[("straff", "Fotboll")].pos == ""  # not in saldo.xml: no POS, no suffix
    assert data.n_polysemous_verbs == 1
    ex = by_key[("lämna.v", "Departing")].exemplars
    assert [(e.text, e.text[e.target_start:e.target_end]) for e in ex] == [
        ("Tåget lämnade stationen klockan tre.", "lämnade")]
    assert (ex[0].target_start, ex[0].target_end) == (6, 13)
    quit_ex = by_key[("avgå.v", "Quitting")].exemplars
    assert [e.text for e in quit_ex] == ["Ministern avgick i går."]
    assert by_key[("lämna.v", "Quitting")].n_annotated == 1
    # "drog" is no form of lämna or avresa; "Avresan blev sen." marks no LU
    assert any("1 example(s) whose target is no form" in w for w in data.warnings)
    assert any("1 example(s) without a target" in w for w in data.warnings)
    assert any("1 LU sense(s) are not in" in w for w in data.warnings)
    p = data.provenance
    assert (p.license, p.reader, p.url) == ("CC-BY-4.0", "swefn", "https://spraakbanken.gu.se/resurser/swefn")
    assert "borin-etal-2010-past" in p.citation and "Språkbanken Text" in p.license_source


def test_without_saldo_no_pos_and_a_warning(tmp_path):
    shutil.copy(DATA / "swefn.xml", tmp_path / "swefn.xml")
    data = read_swefn(tmp_path)  # the folder holding swefn.xml
    assert {lu.pos for lu in data.lexical_units} == {""}
    assert {lu.name for lu in data.lexical_units} == {"lämna", "avresa", "avgå", "föda", "straff"}
    assert data.n_polysemous_verbs == 0
    assert any("no part of speech" in w and "saldo.xml" in w for w in data.warnings)


def test_match_lu_levels():
    assert match_lu("lämnade", ["lämna", "avresa"]) == "lämna"   # stem lämn-
    assert match_lu("Avgick", ["avgå", "lämna"]) == "avgå"        # stem avg-
    assert match_lu("åt", ["äta", "dricka"]) is None              # strong past with another vowel: not found
    assert match_lu("avgå", ["avgå", "lämna"]) == "avgå"          # the same word
    assert match_lu("drog", ["lämna", "avresa"]) is None
    assert match_lu("lämnar", ["lämna", "lämna om"]) is None     # two LUs fit: left out
    assert pos_tag("vbm") == ("V", "v") and pos_tag("pm") == ("N", "n") and pos_tag("xx") == ("", "")


def test_detect_and_lexicon_add(tmp_db):
    assert detect_format(DATA / "swefn.xml") == "swefn"
    assert detect_format(DATA) == "swefn"
    import_lexicon(tmp_db, embedded_path(), lang="en", name="fn", fmt="nltk")
    result = import_lexicon(tmp_db, DATA / "swefn.xml", lang="sv", name="swefn")
    assert result.format == "swefn"
    stats = lexicon_stats(tmp_db, result.lexicon_id)
    assert (stats["frames"], stats["lexical_units"], stats["exemplars"], stats["polysemous_verbs"]) == (4, 6, 3, 1)
    # Giving_birth is FrameNet 1.5's Birth in the embedded sample: its definition is borrowed through the rename
    row = tmp_db.execute("SELECT definition FROM frames WHERE lexicon_id = ? AND name = 'Giving_birth'",
                         [result.lexicon_id]).fetchone()
    assert row[0]


def test_cli_format_swefn_says_the_reader(tmp_path):
    db = tmp_path / "s.db"
    run = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicon", "add", str(DATA / "swefn.xml"), "--format",
                          "swefn", "--lang", "sv", "--db", str(db)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Swedish FrameNet's LMF" in run.stderr and "licence: CC-BY-4.0" in run.stderr


def test_not_swefn_is_refused(tmp_path):
    other = tmp_path / "other.xml"
    other.write_text("<LexicalResource><Lexicon/></LexicalResource>", "utf-8")
    with pytest.raises(FbagentError, match="no Swedish FrameNet LMF"):
        read_swefn(other)


def test_short_licence():
    from fbagent.commands.lexicon import short_licence

    assert short_licence("CC-BY-NC-SA-4.0") == "CC-BY-NC-SA-4.0"          # 16 characters: whole
    assert short_licence(None) == "unknown"
    assert short_licence("CC BY-NC-SA") == "CC BY-NC-SA"
    assert short_licence("LGPL-LR (Sequoia part); free for research use") == "LGPL-LR (Sequoi\u2026"
    assert short_licence("free for research use only") == "free for\u2026"  # cut where a word ends
    assert len(short_licence("x" * 40)) == 16


def test_lexicon_list_licence_column_at_80_columns(tmp_path):
    db = tmp_path / "l.db"
    env = {**__import__("os").environ, "COLUMNS": "80"}
    run = lambda *a: subprocess.run([sys.executable, "-m", "fbagent.cli", *a, "--db", str(db)],  # noqa: E731
                                    capture_output=True, text=True, timeout=300, env=env)
    long = "LGPL-LR (Sequoia part); free for research use (French Treebank part)"
    assert run("lexicon", "add", str(embedded_path()), "--lang", "en", "--name", "fn", "--license", long).returncode == 0
    assert run("lexicon", "add", str(DATA / "swefn.xml"), "--lang", "sv").returncode == 0
    listed = run("lexicon", "list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "licence" in lines[1]
    fn_row = next(line for line in lines if line.startswith("fn "))
    swefn_row = next(line for line in lines if line.startswith("swefn "))
    assert "LGPL-LR (Sequoi\u2026" in fn_row and "CC-BY-4.0" in swefn_row
    assert "the full terms with fbagent lexicon show fn" in listed.stdout
