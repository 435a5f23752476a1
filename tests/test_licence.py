"""Licence and citation travel with the data (issue 40, item 3): the lexicon stores them (schema 11; an older
database upgrades with licence "unknown"), `lexicon add` takes them from a known release, the JSONL file or
--license/--citation/--source-url, `lexicon show` prints them, and the Hugging Face card carries its sources'
terms: a CC BY-NC-SA source makes a CC BY-NC-SA card, `--license cc-by-4.0` on it is refused in one line
(exit 2, nothing written) unless --force-license, and a Berkeley-only export keeps CC BY."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.framenet import licences
from fbagent.framenet.model import Provenance
from fbagent.framenet.releases import BERKELEY_BIBTEX
from fbagent.lexicon.importer import import_lexicon
from fbagent.lexicon.provenance import import_overrides
from fbagent.store.db import open_db
from fbagent.store.lexicon import lexicon_provenance, set_provenance

FIXTURE_V3 = Path(__file__).parent / "data" / "fbagent_schema_v3.sqlite"
KOREAN = Provenance("CC BY-NC-SA", "known release: Korean FrameNet 1.2 (its README: CC BY-NC-SA)",
                    "@inproceedings{hahm2020crowdsourcing,\n  title = {Crowdsourcing in the Development of a "
                    "Multilingual {FrameNet}: A Case Study of {Korean FrameNet}},\n  year = {2020}\n}\n"
                    + BERKELEY_BIBTEX, "https://github.com/machinereading/koreanframenet", "Korean FrameNet 1.2",
                    "kfn")
FRAME = {"frame": "Departing", "definition": "A Theme moves away from a Source.",
         "frame_elements": [{"name": "Theme", "core_type": "Core"}], "lexical_units": [{"name": "leave.v"}]}


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=300)


# --------------------------------------------------------------------------- the terms of a licence


@pytest.mark.parametrize(("text", "hub", "obligations"), [
    ("CC-BY-4.0", "cc-by-4.0", []),
    ("CC BY-NC-SA", "cc-by-nc-sa-4.0", ["non-commercial", "share-alike"]),
    ("CC-BY-NC-SA-2.0", "cc-by-nc-sa-2.0", ["non-commercial", "share-alike"]),
    ("cc-by-sa-4.0", "cc-by-sa-4.0", ["share-alike"]),
    ("GPL-3.0-only", "gpl-3.0", ["share-alike (gpl-3.0)"]),
    ("LGPL-LR (Sequoia part); free for research use (French Treebank part)", "lgpl-lr",
     ["research use only", "share-alike (lgpl-lr)"]),
    ("Apache-2.0", "apache-2.0", []),
    ("unknown", "unknown", []),
])
def test_terms_and_hub_ids(text, hub, obligations):
    assert licences.hub_id(text) == hub
    assert licences.terms(text).obligations() == obligations


def test_combined_licence_carries_nc_and_sa_over():
    assert licences.combined_licence({"fn15": "CC-BY-4.0"}).licence == "cc-by-4.0"
    both = licences.combined_licence({"fn15": "CC-BY-4.0", "kfn": "CC BY-NC-SA"})
    assert (both.licence, both.why, both.conflict) == ("cc-by-nc-sa-4.0", "non-commercial, share-alike carried over",
                                                        False)
    assert licences.combined_licence({"fn15": "CC-BY-4.0", "tr": "GPL-3.0-only"}).licence == "gpl-3.0"
    # CC BY-SA asks for BY-SA; CC BY-NC-SA adds NC: no single licence keeps both
    clash = licences.combined_licence({"lv": "CC-BY-SA-4.0", "kfn": "CC BY-NC-SA"})
    assert clash.licence == "other" and clash.conflict
    unknown = licences.combined_licence({"fn15": "CC-BY-4.0", "mine": "unknown"})
    assert unknown.licence == "cc-by-4.0" and unknown.unknown == ("mine",)
    assert licences.combined_licence({"mine": "unknown"}).licence == "unknown"


def test_dropped_terms():
    assert licences.dropped_terms("cc-by-4.0", "CC BY-NC-SA") == ["non-commercial", "share-alike"]
    assert licences.dropped_terms("cc-by-nc-sa-4.0", "CC-BY-NC-SA-2.0") == []
    assert licences.dropped_terms("cc-by-nc-sa-4.0", "CC-BY-SA-4.0") == ["share-alike"]  # NC added to a BY-SA source
    assert licences.dropped_terms("cc-by-sa-4.0", "GPL-3.0-only") == ["share-alike (gpl-3.0)"]
    assert licences.dropped_terms("cc-by-4.0", "CC-BY-4.0") == []
    assert licences.dropped_terms("cc-by-4.0", "unknown") == []


# --------------------------------------------------------------------------- storing it


def test_an_old_database_upgrades_with_licence_unknown(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_V3, path)
    db = open_db(path)
    rows = list(db.query("SELECT name, license, license_source, citation, url, source_name, reader FROM lexicons "
                         "ORDER BY id"))
    assert [r["name"] for r in rows] == ["sample-en", "fn-test", "fn-ja"]
    assert {(r["license"], r["license_source"], r["citation"], r["url"], r["source_name"], r["reader"])
            for r in rows} == {("unknown", "unknown", "", "", "", "")}
    assert " 11" in next(db.query("SELECT note FROM schema_migrations"))["note"]  # steps ..., 10, 11, ...


def test_jsonl_declares_its_licence_and_import_options_override_it(tmp_path):
    head = {"lexicon": {"license": "CC-BY-SA-4.0", "citation": "@inproceedings{lv2018,\n  title = {Latvian}\n}",
                        "url": "https://example.org/lv", "name": "Latvian FrameNet"}}
    src = tmp_path / "lv.jsonl"
    src.write_text(json.dumps(head) + "\n" + json.dumps(FRAME) + "\n", encoding="utf-8")
    db = open_db(tmp_path / "x.db")
    res = import_lexicon(db, src, lang="lv")
    assert res.counts["n_frames"] == 1
    p = lexicon_provenance(next(db.query("SELECT * FROM lexicons")))
    assert p == Provenance("CC-BY-SA-4.0", "declared in the file", head["lexicon"]["citation"], "https://example.org/lv",
                           "Latvian FrameNet", "jsonl")
    bib = tmp_path / "mine.bib"
    bib.write_text("@misc{mine2026,\n  title = {Mine}\n}\n", encoding="utf-8")
    given = import_overrides("CC-BY-NC-SA-4.0", bib, "https://example.org/mine")
    res = import_lexicon(db, src, lang="lv", given=given)   # unchanged files: the provenance is still replaced
    p = lexicon_provenance(next(db.query("SELECT * FROM lexicons")))
    assert res.status == "unchanged"
    assert (p.license, p.license_source, p.citation, p.url) == ("CC-BY-NC-SA-4.0", "--license at import",
                                                                 "@misc{mine2026,\n  title = {Mine}\n}",
                                                                 "https://example.org/mine")


def test_the_lexicon_line_must_come_first(tmp_path):
    src = tmp_path / "bad.jsonl"
    src.write_text(json.dumps(FRAME) + "\n" + json.dumps({"lexicon": {"license": "MIT"}}) + "\n", encoding="utf-8")
    with pytest.raises(FbagentError) as err:
        import_lexicon(open_db(tmp_path / "x.db"), src, lang="en")
    assert str(err.value).startswith(f"{src}:2: the {{\"lexicon\": ...}} line must be the file's first line")


def test_bad_citation_file_is_refused_before_the_database_is_touched(tmp_path):
    bib = tmp_path / "x.bib"
    bib.write_text("not bibtex", encoding="utf-8")
    src = tmp_path / "l.jsonl"
    src.write_text(json.dumps(FRAME) + "\n", encoding="utf-8")
    res = cli("lexicon", "add", str(src), "--lang", "en", "--citation", str(bib), "--db", str(tmp_path / "new.db"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "holds no BibTeX entry" in res.stderr and not (tmp_path / "new.db").exists()


def test_lexicon_add_and_show_print_the_licence_and_citation(tmp_path):
    src = tmp_path / "fr.jsonl"
    src.write_text(json.dumps(FRAME) + "\n", encoding="utf-8")
    bib = tmp_path / "fr.bib"
    bib.write_text("@misc{fr2026,\n  title = {French},\n  year = {2026}\n}\n", encoding="utf-8")
    db = str(tmp_path / "x.db")
    res = cli("lexicon", "add", str(src), "--lang", "fr", "--license", "CC-BY-SA-4.0", "--citation", str(bib),
              "--source-url", "https://example.org/fr", "--db", db)
    assert res.returncode == 0, res.stderr
    assert "note: licence: CC-BY-SA-4.0 (--license at import; share-alike)" in res.stderr
    show = cli("lexicon", "show", "fr", "--db", db)
    assert show.returncode == 0, show.stderr
    assert "licence: CC-BY-SA-4.0 (--license at import)" in show.stdout
    assert "url: https://example.org/fr" in show.stdout and "@misc{fr2026," in show.stdout
    bare = tmp_path / "bare.jsonl"
    bare.write_text(json.dumps(FRAME) + "\n", encoding="utf-8")
    assert cli("lexicon", "add", str(bare), "--lang", "en", "--db", db).returncode == 0
    show = cli("lexicon", "show", "bare", "--db", db)
    assert "licence: unknown (nobody stated it" in show.stdout and "citation: none stored" in show.stdout


@pytest.mark.realdata
@pytest.mark.slow
def test_known_releases_get_their_licence_without_asking(en_db, fr_db):
    """FrameNet 1.5 (NLTK reader) is CC-BY-4.0 and cites Berkeley FrameNet; ASFALDA gets the terms its README
    states (../shared/data/README.md)."""
    db, res = en_db
    assert res.counts["n_frames"] == 1019
    p = lexicon_provenance(next(db.query("SELECT * FROM lexicons WHERE id = ?", [res.lexicon_id])))
    assert (p.license, p.name, p.reader) == ("CC-BY-4.0", "Berkeley FrameNet 1.5", "nltk-xml")
    assert "baker-etal-1998-berkeley" in p.citation and "ruppenhofer-etal-2016-framenet" in p.citation
    db, res = fr_db
    p = lexicon_provenance(next(db.query("SELECT * FROM lexicons WHERE id = ?", [res.lexicon_id])))
    assert p.license == "LGPL-LR (Sequoia part); free for research use (French Treebank part)"
    assert p.name == "ASFALDA French FrameNet 1.3" and "candito-etal-2014-developing" in p.citation
    assert licences.terms(p.license).obligations() == ["research use only", "share-alike (lgpl-lr)"]


# --------------------------------------------------------------------------- the card


pytest.importorskip("datasets", reason="the publish extra (datasets) is not installed: pip install 'fbagent[publish]'")


def _card(path: Path, out: Path, **options: object) -> str:
    from fbagent.publish.hf import export_hf
    from fbagent.publish.options import HfOptions, Scope

    export_hf(open_db(path), out, Scope(), HfOptions(**options))  # type: ignore[arg-type]
    return (out / "README.md").read_text(encoding="utf-8")


def _set(path: Path, p: Provenance, **columns: str) -> None:
    db = open_db(path)
    set_provenance(db, 1, p)
    if columns:
        db["lexicons"].update(1, columns)
    db.conn.commit()
    db.close()


def test_card_of_a_cc_by_nc_sa_source_is_cc_by_nc_sa_and_cites_it(tmp_path):
    path = tmp_path / "ko.db"
    make_db(path, n=2, language="ko", lexicon="kfn")
    _set(path, KOREAN)
    text = _card(path, tmp_path / "hf")
    assert "\nlicense: cc-by-nc-sa-4.0\n" in text.split("---", 2)[1]
    assert ("`cc-by-nc-sa-4.0` (from the terms of its sources: non-commercial, share-alike carried over). The frames "
            "and lexical units come from FrameNet-style lexicons (`kfn`: Korean FrameNet 1.2)") in text
    assert ("| `kfn` | Korean FrameNet 1.2 | CC BY-NC-SA | known release: Korean FrameNet 1.2 (its README: CC BY-NC-SA) "
            "| `hahm2020crowdsourcing`, `baker-etal-1998-berkeley`, `ruppenhofer-etal-2016-framenet` |") in text
    bib = text.split("```bibtex\n", 1)[1].split("```", 1)[0]
    assert "@inproceedings{hahm2020crowdsourcing," in bib and "@book{ruppenhofer-etal-2016-framenet," in bib


def test_korean_release_card_follows_the_linked_deed_and_keeps_the_words(tmp_path):
    """The Korean FrameNet's README says "CC BY-NC-SA" and links the 2.0 deed: the Hub metadata is the Hub id of
    what it links (cc-by-nc-sa-2.0, in the Hub's licence list), the card's table keeps the source's words."""
    from fbagent.lexicon.releases import known

    release = known("korean-framenet", "kfn", "1.2")
    assert release.license == "CC BY-NC-SA (https://creativecommons.org/licenses/by-nc-sa/2.0/)"
    assert licences.hub_id(release.license) == "cc-by-nc-sa-2.0"
    path = tmp_path / "ko.db"
    make_db(path, n=2, language="ko", lexicon="kfn").close()
    _set(path, release)
    text = _card(path, tmp_path / "hf")
    assert "\nlicense: cc-by-nc-sa-2.0\n" in text.split("---", 2)[1]
    assert ("`cc-by-nc-sa-2.0` (from the terms of its sources: non-commercial, share-alike carried over (version "
            "2.0, the one its share-alike source states or links))") in text
    assert "| `kfn` | Korean FrameNet 1.2 | CC BY-NC-SA (https://creativecommons.org/licenses/by-nc-sa/2.0/) |" in text
    assert "its README: `CC BY-NC-SA` Attribution-NonCommercial-ShareAlike, linking the 2.0 deed" in text
    res = cli("export", str(tmp_path / "hf2"), "--format", "hf", "--license", "cc-by-4.0", "--db", str(path))
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "or with --license cc-by-nc-sa-2.0;" in res.stderr
    # a later version of the same elements keeps the terms (CC BY-NC-SA 2.0, section 4.b)
    assert licences.dropped_terms("cc-by-nc-sa-4.0", release.license) == []
    assert licences.combined_licence({"fn": "CC-BY-4.0", "kfn": release.license}).licence == "cc-by-nc-sa-2.0"


def test_license_that_drops_nc_sa_is_refused_in_one_line_unless_forced(tmp_path):
    path = tmp_path / "ko.db"
    make_db(path, n=2, language="ko", lexicon="kfn").close()
    _set(path, KOREAN)
    out = tmp_path / "hf"
    res = cli("export", str(out), "--format", "hf", "--license", "cc-by-4.0", "--db", str(path))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == (
        "error: --license cc-by-4.0 drops terms of the data it is made from: lexicon kfn is CC BY-NC-SA "
        "(non-commercial, share-alike); nothing was written. Fix: export without --license (the card then carries "
        "cc-by-nc-sa-4.0, the terms of its sources) or with --license cc-by-nc-sa-4.0; --force-license publishes "
        "under cc-by-4.0 anyway (only if you hold other rights to the sources)")
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["ko.db"]
    res = cli("export", str(out), "--format", "hf", "--license", "cc-by-4.0", "--force-license", "--db", str(path))
    assert res.returncode == 0, res.stderr
    assert "warning: --force-license: the card's licence drops terms of its sources (kfn: non-commercial, " \
           "share-alike)" in res.stderr
    text = (out / "README.md").read_text(encoding="utf-8")
    assert "\nlicense: cc-by-4.0\n" in text.split("---", 2)[1]
    assert ("`cc-by-4.0` (chosen by the exporter with --force-license, dropping terms of its sources: kfn "
            "(CC BY-NC-SA): non-commercial, share-alike)") in text
    marker = json.loads((out / "fbagent-export.json").read_text(encoding="utf-8"))
    assert marker["license"] == "cc-by-4.0" and marker["license_how"].startswith("chosen by the exporter with --force")


def test_berkeley_only_export_keeps_cc_by(tmp_path):
    path = tmp_path / "fn.db"
    make_db(path, n=2, lexicon="fn15")
    db = open_db(path)
    db["lexicons"].update(1, {"format": "nltk"})
    db.conn.commit()
    text = _card(path, tmp_path / "hf")            # stored before licences were recorded: recognised at export
    assert "\nlicense: cc-by-4.0\n" in text.split("---", 2)[1]
    assert ("`cc-by-4.0` (from the terms of its sources: attribution only). The frames and lexical units come from "
            "FrameNet-style lexicons (`fn15`: Berkeley FrameNet): follow the terms of each (Berkeley FrameNet data is "
            "distributed under CC BY).") in text
    assert ("| `fn15` | Berkeley FrameNet | CC-BY-4.0 | recognised at export as Berkeley FrameNet (language en, format "
            "nltk); the lexicon was stored without a licence | `baker-etal-1998-berkeley`, "
            "`ruppenhofer-etal-2016-framenet` |") in text
    assert "is unknown" not in text
    from fbagent.framenet.releases import known_release
    _set(path, known_release("FrameNet 1.5", "nltk-xml"))  # imported today: the known release
    (tmp_path / "again").mkdir()
    again = _card(path, tmp_path / "again" / "hf")   # the same folder name: the card names it
    assert ("| `fn15` | Berkeley FrameNet | CC-BY-4.0 | known release: Berkeley FrameNet 1.5 (CC BY, the FrameNet "
            "project) |") in again
    # apart from the row saying where the licence came from, the two cards are the same
    assert again.replace("known release: Berkeley FrameNet 1.5 (CC BY, the FrameNet project)", "X") == \
        text.replace("recognised at export as Berkeley FrameNet (language en, format nltk); the lexicon was stored "
                     "without a licence", "X")


def test_upgraded_database_card_says_unknown(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE_V3, path)
    text = _card(path, tmp_path / "hf")
    assert "\nlicense: unknown\n" in text.split("---", 2)[1]
    assert "`unknown` (from the terms of its sources: no source states its licence)" in text
    assert "The licence of `fn-ja`, `fn-test` is unknown: nobody stated it to fbagent" in text
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] >= 11
    conn.close()
