"""A licence given on the command line is read as an SPDX id (issue 40): `--license cc-by-4` (no ".0") and other
near misses are stored as the id they stand for, with one line saying so; one word close to SPDX ids but none of
them (CC-BY-NC-SA without its version) is refused in one line listing the close ids; the source's own words pass;
`export --license cc-by-4` is read as cc-by-4.0, and its refusal over a non-commercial, share-alike source stays."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.framenet.spdx import export_licence, read_licence
from fbagent.lexicon.importer import embedded_path
from fbagent.lexicon.provenance import import_overrides
from fbagent.store.db import open_db
from fbagent.store.lexicon import set_provenance
from tests.test_licence import KOREAN


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("typed", "stored"), [
    ("cc-by-4", "CC-BY-4.0"), ("CC BY 4.0", "CC-BY-4.0"), ("ccby4", "CC-BY-4.0"), ("CC_BY_NC_SA_4.0", "CC-BY-NC-SA-4.0"),
    ("CC BY-NC-SA 2.0", "CC-BY-NC-SA-2.0"), ("cc-nc-sa-4.0", "CC-BY-NC-SA-4.0"), ("cc-by-sa-3", "CC-BY-SA-3.0"),
    ("GPLv3", "GPL-3.0-only"), ("gpl-3+", "GPL-3.0-or-later"), ("lgpl2.1", "LGPL-2.1-only"), ("apache2", "Apache-2.0"),
])
def test_near_misses_are_stored_as_the_spdx_id_with_a_line(typed, stored):
    read = read_licence(typed)
    assert read.text == stored
    assert read.note == f"--license {typed!r} is not an SPDX id; stored as {stored}, the id it stands for"


@pytest.mark.parametrize(("typed", "stored", "said"), [
    ("CC-BY-4.0", "CC-BY-4.0", False), ("cc-by-nc-sa-2.0", "CC-BY-NC-SA-2.0", True), ("mit", "MIT", True),
    ("GPL-3.0-only", "GPL-3.0-only", False), ("LGPL-LR", "LGPL-LR", False), ("unknown", "unknown", False),
    ("CC BY-NC-SA (https://creativecommons.org/licenses/by-nc-sa/2.0/)",
     "CC BY-NC-SA (https://creativecommons.org/licenses/by-nc-sa/2.0/)", False),
    ("free for research use", "free for research use", False), ("proprietary", "proprietary", False),
])
def test_spdx_ids_in_any_case_and_own_words(typed, stored, said):
    read = read_licence(typed)
    assert read.text == stored and (read.note == f"--license {typed} stored as {stored} (its SPDX spelling)") == said
    assert said or read.note is None


@pytest.mark.parametrize(("typed", "close"), [
    ("CC-BY-NC-SA", "CC-BY-NC-SA-4.0, CC-BY-NC-SA-3.0, CC-BY-NC-SA-2.5, CC-BY-NC-SA-2.0, CC-BY-NC-SA-1.0"),
    ("cc-by", "CC-BY-4.0, CC-BY-3.0, CC-BY-2.5, CC-BY-2.0, CC-BY-1.0"),
    ("Apach-2.0", "Apache-2.0, Apache-1.0"),
])
def test_a_word_close_to_spdx_ids_is_refused_with_them(typed, close):
    with pytest.raises(FbagentError) as err:
        read_licence(typed)
    assert str(err.value) == (
        f"--license {typed!r} is not an SPDX licence id (close ones: {close}). Fix: pass the SPDX id the source "
        "states (https://spdx.org/licenses/), or its own words in quotes (e.g. --license 'CC BY-NC-SA, as its README "
        "says')")


def test_lexicon_add_says_what_it_stored(tmp_path):
    db = tmp_path / "l.db"
    res = cli("lexicon", "add", str(embedded_path()), "--lang", "en", "--license", "cc-by-4", "--db", str(db))
    assert res.returncode == 0, res.stderr
    assert "note: --license 'cc-by-4' is not an SPDX id; stored as CC-BY-4.0, the id it stands for" in res.stderr
    assert "note: licence: CC-BY-4.0 (--license at import)" in res.stderr
    assert open_db(db, read_only=True).execute("SELECT license FROM lexicons").fetchone()[0] == "CC-BY-4.0"
    refused = cli("lexicon", "add", str(embedded_path()), "--lang", "en", "--name", "x", "--license", "cc-by-nc-sa",
                  "--db", str(db))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "--license 'cc-by-nc-sa' is not an SPDX licence id (close ones: CC-BY-NC-SA-4.0" in refused.stderr
    assert import_overrides("CC-BY-SA-4.0").license_note is None


def test_export_reads_a_near_miss_as_its_hub_id_and_keeps_the_nc_sa_refusal(tmp_path):
    assert export_licence("cc-by-4") is not None and export_licence("cc-by-4").text == "cc-by-4.0"  # type: ignore[union-attr]
    for given in ("cc-by-4.0", "cc-by-nc-sa-2.0", "other", "openrail", "my own terms"):
        assert export_licence(given).text == given and export_licence(given).note is None  # type: ignore[union-attr]
    path = tmp_path / "ko.db"
    make_db(path, n=2, language="ko", lexicon="kfn").close()
    db = open_db(path)
    set_provenance(db, 1, KOREAN)
    db.conn.commit()
    db.close()
    out = tmp_path / "hf"
    res = cli("export", str(out), "--format", "hf", "--license", "cc-by-4", "--db", str(path))
    assert res.returncode == 2 and not out.exists()
    assert res.stderr.splitlines() == [
        "note: --license 'cc-by-4' is not a licence id; read as cc-by-4.0, the card's id for CC-BY-4.0",
        "error: --license cc-by-4.0 drops terms of the data it is made from: lexicon kfn is CC BY-NC-SA "
        "(non-commercial, share-alike); nothing was written. Fix: export without --license (the card then carries "
        "cc-by-nc-sa-4.0, the terms of its sources) or with --license cc-by-nc-sa-4.0; --force-license publishes "
        "under cc-by-4.0 anyway (only if you hold other rights to the sources)"]
    res = cli("export", str(out), "--format", "hf", "--license", "cc-by-nc-sa-4", "--db", str(path))
    assert res.returncode == 0, res.stderr
    assert "\nlicense: cc-by-nc-sa-4.0\n" in (out / "README.md").read_text("utf-8").split("---", 2)[1]
    assert Path(out / "README.md").is_file()
