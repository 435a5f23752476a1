"""Getting a lexicon by name: NLTK's data folders (NLTK_DATA), a zip there, the error listing where it
looked, a zip with two releases, and a symlinked folder named as typed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.importer import default_name, embedded_path, import_lexicon
from fbagent.lexicon.locate import locate_resource, nltk_data_folders


def run_cli(*args, db, env=None, cwd=None):
    full = {**os.environ, "FBAGENT_DB": str(db), **(env or {})}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, env=full,
                          cwd=cwd)


def zip_folder(folder, zip_path, arc_root):
    with zipfile.ZipFile(zip_path, "w") as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                zf.write(p, f"{arc_root}/{p.relative_to(folder)}")


@pytest.fixture
def nltk_data(tmp_path):
    """An NLTK data folder prepared by hand: corpora/mini_fn (the embedded sample, NLTK layout)."""
    root = tmp_path / "nltk_data"
    shutil.copytree(embedded_path(), root / "corpora" / "mini_fn")
    return root


def test_lexicon_add_finds_a_corpus_by_its_nltk_name_in_nltk_data(tmp_path, nltk_data):
    db = tmp_path / "fb.db"
    ok = run_cli("lexicon", "add", "mini_fn", "--lang", "en", db=db, env={"NLTK_DATA": str(nltk_data)}, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "Imported lexicon mini_fn (en, nltk): 34 frames" in ok.stdout
    assert f"mini_fn: found in NLTK's data folder {nltk_data}" in ok.stderr


def test_a_zip_in_nltk_data_is_found_and_a_folder_is_preferred(tmp_path, monkeypatch):
    root = tmp_path / "nltk_data"
    (root / "corpora").mkdir(parents=True)
    zip_folder(embedded_path(), root / "corpora" / "fn_zip.zip", "fn_zip")
    monkeypatch.setenv("NLTK_DATA", str(root))
    monkeypatch.chdir(tmp_path)
    found = locate_resource("fn_zip")
    assert found.path == root / "corpora" / "fn_zip.zip" and "NLTK's data folder" in found.note
    assert nltk_data_folders()[0] == root
    from fbagent.store.db import open_db

    result = import_lexicon(open_db(tmp_path / "z.db"), "fn_zip", lang="en")
    assert (result.name, result.counts["n_frames"]) == ("fn_zip", 34)
    shutil.copytree(embedded_path(), root / "corpora" / "fn_zip")
    assert locate_resource("fn_zip").path == root / "corpora" / "fn_zip"


def test_an_unknown_name_lists_every_place_looked(tmp_path):
    db = tmp_path / "fb.db"
    extra = tmp_path / "my_nltk"
    res = run_cli("lexicon", "add", "framenet_v15", "--lang", "en", db=db, env={"NLTK_DATA": str(extra)}, cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "framenet_v15 is neither a file or folder here nor an NLTK corpus" in res.stderr
    assert str(extra) in res.stderr and "corpora/framenet_v15[.zip]" in res.stderr
    assert "nltk.downloader framenet_v17" in res.stderr and "docs/lexicon.md" in res.stderr
    assert not db.exists()  # a failed first import leaves no database behind


def test_a_mistyped_name_is_one_short_line_with_the_close_corpus_name(tmp_path, monkeypatch, nltk_data):
    """``lexicon add framenet_v71``: the problem and the fix in one line, no list of searched paths; a corpus of a
    close name in NLTK's data folders is offered."""
    (nltk_data / "corpora" / "framenet_v17.zip").write_bytes(b"")
    monkeypatch.setenv("NLTK_DATA", str(nltk_data))
    with pytest.raises(FbagentError) as err:
        locate_resource("framenet_v71")
    line = err.value.line()
    assert "\n" not in line and len(line) - len(str(nltk_data)) < 350  # was 16 paths long
    assert err.value.problem == (f"framenet_v71 is neither a file or folder here nor an NLTK corpus (no"
                                 f" corpora/framenet_v71[.zip] in NLTK_DATA ({nltk_data}) or NLTK's"
                                 f" {len(nltk_data_folders()) - 1} default folders)")
    assert err.value.fix.startswith("did you mean framenet_v17? Else pass a FrameNet folder, .zip or JSONL file")
    assert "`fbagent lexicon add --help`" in err.value.fix
    monkeypatch.setenv("NLTK_DATA", str(tmp_path / "empty"))
    with pytest.raises(FbagentError) as err:
        locate_resource("framenet_v71")
    assert err.value.fix.startswith("pass a FrameNet folder")  # nothing close: no guess


def test_a_missing_path_is_still_a_missing_path(tmp_path):
    with pytest.raises(FbagentError, match="does not exist"):
        locate_resource(tmp_path / "nowhere")


def test_a_zip_holding_two_releases_is_refused_with_both_named(tmp_path):
    both = tmp_path / "fndata.zip"
    with zipfile.ZipFile(both, "w") as zf:
        for release in ("fndata-1.5", "fndata-1.7"):
            for p in sorted(embedded_path().rglob("*")):
                if p.is_file():
                    zf.write(p, f"{release}/{p.relative_to(embedded_path())}")
    from fbagent.store.db import open_db

    with pytest.raises(FbagentError) as err:
        import_lexicon(open_db(tmp_path / "two.db"), both, lang="en")
    assert "2 FrameNet releases (fndata-1.5/, fndata-1.7/)" in err.value.problem
    assert "unzip it" in err.value.fix


def test_a_symlinked_folder_is_named_as_typed(tmp_path):
    target = tmp_path / "store" / "fn-1.5-copy"
    shutil.copytree(embedded_path(), target)
    link = tmp_path / "framenet15"
    link.symlink_to(target, target_is_directory=True)
    assert default_name(link) == "framenet15"
    assert default_name(f"{link}/.") == "framenet15"
    from fbagent.store.db import open_db

    assert import_lexicon(open_db(tmp_path / "l.db"), link, lang="en").name == "framenet15"
