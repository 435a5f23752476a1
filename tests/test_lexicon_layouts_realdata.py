"""The published layouts on the real releases in ../shared/data (skipped with a reason when absent): Korean
FrameNet 1.2, the Latvian FrameNet (FullStack) and the Turkish FrameNet through KeNet. Each is imported once per
module; the counts are those the sources state (issue 40)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from fbagent.lexicon.importer import import_lexicon
from fbagent.pairs import draw_selection
from fbagent.pairs.options import SelectionOptions
from fbagent.store.db import open_db
from fbagent.store.lexicon import lexicon_by_name, lexicon_stats

pytestmark = [pytest.mark.realdata]
ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LEXICON_MD = (ROOT / "docs" / "lexicon.md").read_text(encoding="utf-8")


def _import(tmp_path_factory, shared_data, folder: str, lang: str):
    root = shared_data / folder
    if not root.exists():
        pytest.skip(f"{root} is absent (the {folder} copy; see ../shared/data/README.md)")
    db = open_db(tmp_path_factory.mktemp(f"db-{lang}") / "fbagent.db")
    return db, import_lexicon(db, root, lang=lang, name=lang)


@pytest.fixture(scope="module")
def ko(tmp_path_factory, shared_data):
    return _import(tmp_path_factory, shared_data, "framenet-ko-kfn-1.2", "ko")


@pytest.fixture(scope="module")
def lv(tmp_path_factory, shared_data):
    return _import(tmp_path_factory, shared_data, "framenet-lv-fullstack", "lv")


def framebench_pairs(db, name: str, n: int = 800) -> int:
    drawn = draw_selection(db, lexicon_by_name(db, name), SelectionOptions(pairs=n, protocol="framebench"))
    return len(drawn.selected)


def test_korean_framenet_12_counts(ko):
    db, result = ko
    assert result.format == "kfn" and result.warnings == []
    stats = lexicon_stats(db, result.lexicon_id)
    assert (stats["frames"], stats["lexical_units"], stats["lus_by_pos"]["V"]) == (809, 7942, 4361)
    # data/1.2/dev.tsv + test.tsv: 2,548 + 5,097 annotated sentences, each an exemplar with its target
    assert stats["exemplars"] == 7645
    assert db.execute("SELECT COUNT(*) FROM exemplars WHERE target_start IS NULL").fetchone()[0] == 0
    text, start, end = db.execute(
        "SELECT x.text, x.target_start, x.target_end FROM exemplars x JOIN lexical_units lu ON lu.id = x.lu_pk "
        "WHERE lu.name = '입증하다.v' AND x.text LIKE '%입증했다.'").fetchone()
    assert text[start:end] == "입증했다."
    assert framebench_pairs(db, "ko") == 800
    assert "# prints: 809 frames, 7,942 LUs, ..." in README      # what the docs quote is what was read
    assert "| 809 frames, 7,942 LUs, 4,361 verb LUs, 7,645 exemplars (dev + test TSV) |" in LEXICON_MD


def test_latvian_framenet_counts(lv):
    db, result = lv
    assert result.format == "conll2009"
    stats = lexicon_stats(db, result.lexicon_id)
    # README: 20,879 annotation sets, 540 frames, 2,577 LUs (word-frame pairs: kļūt is VERB and AUX in Becoming)
    assert (stats["frames"], stats["lexical_units"], stats["exemplars"]) == (540, 2577, 20879)
    # the copy's žāvēt_20191014102605.conll2009 ends inside a row: its unfinished sentence has no target yet
    assert len(result.warnings) == 1 and "žāvēt_20191014102605.conll2009:57: the file ends inside a row" in result.warnings[0]
    assert framebench_pairs(db, "lv") == 800
    assert "# Latvian CoNLL-2009: 540 frames, 2,577 LUs" in README
    assert "| 540 frames, 2,577 LUs, 20,879 annotation sets = exemplars |" in LEXICON_MD


def test_turkish_framenet_through_kenet(tmp_path_factory, shared_data):
    if find_spec("WordNet") is None:
        pytest.skip("KeNet is not installed: pip install 'fbagent[tr]' (nlptoolkit-wordnet)")
    db, result = _import(tmp_path_factory, shared_data, "framenet-tr-starlang", "tr")
    stats = lexicon_stats(db, result.lexicon_id)
    # 809 frames; 8,484 synset ids (8,423 distinct), each literal an LU: 13,726 (literal, frame) pairs, all verbs
    assert (stats["frames"], stats["lexical_units"], stats["lus_by_pos"]["V"]) == (809, 13726, 13726)
    assert result.warnings == []


@pytest.mark.slow
def test_frames_from_framenet_15(en_db, shared_data, tmp_path):
    """Korean and Latvian frames take FrameNet 1.5's text: by id (Korean) or by name and the 1.5/1.7 renames."""
    copy = tmp_path / "en.db"   # en_db is shared by the session: work on a copy
    with sqlite3.connect(copy) as dst:
        en_db[0].conn.backup(dst)
    db = open_db(copy)
    for folder, lang, expected in (("framenet-ko-kfn-1.2", "ko", "768 of 809 frames found (765 by frame id, 0 "),
                                   ("framenet-lv-fullstack", "lv", "481 of 540 frames found (0 by frame id, 20 ")):
        root = shared_data / folder
        if not root.exists():
            pytest.skip(f"{root} is absent")
        result = import_lexicon(db, root, lang=lang, name=f"{lang}-fn15")
        assert any(expected in n for n in result.notes), result.notes
    lv = lexicon_by_name(db, "lv-fn15")
    assert db.execute("SELECT definition FROM frames WHERE lexicon_id = ? AND name = 'Hearsay'",
                      [lv["id"]]).fetchone()[0].startswith("The Hearer receives a Message")  # 1.5's Hear, renamed Hearsay in 1.7
    csv_path = tmp_path / "lus.csv"
    csv_path.write_text("lemma,pos,frame\nabandonner,v,Departing\nabandonner,v,Quitting\npartir,v,Departing\n", "utf-8")
    result = import_lexicon(db, csv_path, lang="fr", name="csv-fn15")
    stats = lexicon_stats(db, result.lexicon_id)
    assert stats["frames"] == 2 and stats["core_frame_elements"] > 0 and stats["polysemous_verbs"] == 1


def _cli(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FBAGENT_DB": str(db), "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, env=env)


def test_re_adding_a_truncated_latvian_copy_repeats_its_warning(shared_data, tmp_path):
    """Three real Latvian files, one cut inside a row: the first add and every re-add of the same bytes ("Unchanged")
    say that its unfinished sentence is left out; --strict refuses the re-add in one line and changes nothing."""
    root = shared_data / "framenet-lv-fullstack"
    if not root.exists():
        pytest.skip(f"{root} is absent (see ../shared/data/README.md)")
    copy = tmp_path / "lv_cut"
    (copy / "data").mkdir(parents=True)
    shutil.copy(root / "README.md", copy / "README.md")
    for stem in ("abonēt_20191101131331", "absolvēt_20180418204558"):   # 4 + 3 annotation sets
        shutil.copy(root / "data" / f"{stem}.conll2009", copy / "data")
    # aizaugt: 2 sets (sentences 1 and 2); cut inside line 60, a row of sentence 2 (its first token row: line 31)
    lines = (root / "data" / "aizaugt_20191101131637.conll2009").read_text("utf-8").split("\n")
    cut = "\n".join(lines[:59]) + "\n" + "\t".join(lines[59].split("\t")[:5])
    (copy / "data" / "aizaugt_20191101131637.conll2009").write_text(cut, "utf-8")
    db = tmp_path / "lv.db"
    warning = ("aizaugt_20191101131637.conll2009:60: the file ends inside a row (5 of 12 columns: a truncated copy); "
               "its unfinished sentence from line 31 is left out (--strict refuses it)")
    first = _cli("lexicon", "add", str(copy), "--lang", "lv", db=db)
    assert first.returncode == 0, first.stderr
    # 4 + 3 + 2 sets, less sentence 2 of aizaugt: 8 exemplars
    assert "Imported lexicon lv_cut" in first.stdout and ", 8 exemplars" in first.stdout
    again = _cli("lexicon", "add", str(copy), "--lang", "lv", db=db)
    assert again.returncode == 0, again.stderr
    assert "Unchanged (same content hash): lexicon lv_cut" in again.stdout and ", 8 exemplars" in again.stdout
    for run in (first, again):   # the warning, whole on one line (a pipe: not wrapped)
        (line,) = [w for w in run.stderr.splitlines() if w.startswith("warning: ") and "truncated" in w]
        assert line.endswith(warning) and line.startswith(f"warning: {copy}/data/"), line
    dump = "\n".join(sqlite3.connect(db).iterdump())
    strict = _cli("lexicon", "add", str(copy), "--lang", "lv", "--strict", db=db)
    assert strict.returncode == 2 and strict.stderr.count("\n") == 1, strict.stderr
    assert "aizaugt_20191101131637.conll2009:60: 5 tab-separated column(s), the file's rows have 12" in strict.stderr
    assert "\n".join(sqlite3.connect(db).iterdump()) == dump
