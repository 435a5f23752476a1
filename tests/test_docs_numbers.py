"""The numbers README.md and docs/lexicon.md quote are what the commands print: the embedded sample's
(always checked) and FrameNet 1.5's and ASFALDA's (checked where ../shared/data has them). A changed
importer or sample shows up here, not in a newcomer's first hour."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fbagent.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LEXICON_MD = (ROOT / "docs" / "lexicon.md").read_text(encoding="utf-8")


def show(db_path: str, name: str) -> dict:
    res = CliRunner().invoke(app, ["lexicon", "show", name, "--json", "--db", db_path])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["counts"]


def n(value: int) -> str:
    return f"{value:,}"


def test_the_sample_numbers_in_the_readme(tmp_path):
    c = show(str(tmp_path / "s.db"), "sample-en")
    assert f"`sample-en` ({c['polysemous_verbs']} polysemous verbs, {c['frames']} frames, our own wording)" in README


def _db_path(db) -> str:
    return next(r[2] for r in db.conn.execute("PRAGMA database_list") if r[1] == "main")


@pytest.mark.realdata
def test_framenet_numbers_in_readme_and_docs(en_db):
    db, result = en_db
    c = show(_db_path(db), "framenet-en-1.5")
    # README: what `lexicon add` prints, and what `lexicon show` adds
    assert f"# prints: {n(c['frames'])} frames, {n(c['lexical_units'])} LUs, ..." in README
    assert f"# frames, LUs by POS, {n(c['polysemous_verbs'])} verbs with 2+ frames" in README
    # docs/lexicon.md: the import line and the `lexicon show` table
    line = (f"Imported lexicon framenet-en-1.5 (en, nltk): {n(c['frames'])} frames, {n(c['frame_elements'])} FEs, "
            f"{n(c['lexical_units'])} LUs, {n(c['exemplars'])} exemplars,\n{n(c['frame_relations'])} frame relations")
    assert line in LEXICON_MD
    missing = next(w for w in result.warnings if "LU file(s) missing" in w)
    assert re.search(r": ([\d,]+) LU file", missing).group(1) in LEXICON_MD
    table = {"frames": c["frames"], "lexical units": c["lexical_units"], "verbs with 2+ frames": c["polysemous_verbs"],
             "candidate frame pairs": c["candidate_pairs"], "exemplars": c["exemplars"],
             "frame relations": c["frame_relations"], "frame <ex> examples": c["frame_examples"],
             "verbs (lemmas with a V LU)": c["verbs"]}
    for label, value in table.items():
        assert re.search(rf"^{re.escape(label)}\s+{re.escape(n(value))}$", LEXICON_MD, flags=re.M), (label, value)


@pytest.mark.realdata
def test_asfalda_numbers_in_the_readme(fr_db):
    db, _ = fr_db
    c = show(_db_path(db), "framenet-fr-asfalda")
    assert f"# prints: {n(c['frames'])} frames, {n(c['lexical_units'])} LUs, ..." in README
