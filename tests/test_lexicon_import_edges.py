"""Import edge cases (issue 12, item 5): missing LU files, links out of the folder, .zip releases, no stray DB."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.importer import detect_format, embedded_path, import_lexicon
from fbagent.lexicon.nltk_reader import fingerprint, read_nltk


@pytest.fixture
def sample(tmp_path):
    dst = tmp_path / "sample"
    shutil.copytree(embedded_path(), dst)
    return dst


def _first_lu_file(sample):
    return sorted((sample / "lu").glob("lu*.xml"))[0]


def test_missing_lu_file_is_a_warning_naming_it_or_an_error_with_strict(tmp_db, sample):
    lu_file = _first_lu_file(sample)
    lu_id = lu_file.stem[2:]
    lu_file.unlink()
    data = read_nltk(sample)
    assert len(data.warnings) == 1
    w = data.warnings[0]
    assert f"{sample / 'lu'}: 1 LU file(s) missing" in w and f"lu{lu_id}.xml (" in w and 'hasAnnotation="true"' in w
    with pytest.raises(FbagentError, match=f"lu{lu_id}.xml"):
        import_lexicon(tmp_db, sample, lang="en", name="s", strict=True)
    assert tmp_db.execute("SELECT COUNT(*) FROM lexicons").fetchone()[0] == 0
    result = import_lexicon(tmp_db, sample, lang="en", name="s")
    assert result.counts["n_lexical_units"] == 89 and result.warnings == data.warnings


def test_no_lu_folder_at_all_is_one_warning(sample):
    shutil.rmtree(sample / "lu")
    data = read_nltk(sample)
    assert len(data.warnings) == 1 and "no lu/ folder for LUs that luIndex.xml marks" in data.warnings[0]
    assert data.n_exemplars == 0


def test_a_frame_file_linked_from_outside_is_refused_with_its_path(tmp_db, tmp_path, sample):
    outside = tmp_path / "elsewhere.xml"
    frame = sample / "frame" / "Attack.xml"
    shutil.move(frame, outside)
    frame.symlink_to(outside)
    with pytest.raises(FbagentError) as err:
        import_lexicon(tmp_db, sample, lang="en", name="s")
    assert f"{frame} resolves to {outside}, outside the resource folder {sample}" in str(err.value)
    assert tmp_db.execute("SELECT COUNT(*) FROM lexicons").fetchone()[0] == 0


def test_an_lu_file_pointing_at_a_system_file_is_refused_not_malformed(sample):
    lu_file = _first_lu_file(sample)
    lu_file.unlink()
    lu_file.symlink_to("/etc/hostname" if os.path.exists("/etc/hostname") else "/etc/passwd")
    with pytest.raises(FbagentError) as err:
        read_nltk(sample)
    assert "outside the resource folder" in str(err.value) and "malformed" not in str(err.value)
    with pytest.raises(FbagentError, match="outside the resource folder"):
        fingerprint(sample)


def test_a_linked_frame_folder_is_refused(tmp_path, sample):
    moved = tmp_path / "frames-elsewhere"
    shutil.move(sample / "frame", moved)
    (sample / "frame").symlink_to(moved)
    with pytest.raises(FbagentError, match=r"frame resolves to .*frames-elsewhere, outside the resource folder"):
        read_nltk(sample)


def test_links_inside_the_folder_are_fine(sample):
    frame = sample / "frame" / "Attack.xml"
    (sample / "spare").mkdir()
    shutil.move(frame, sample / "spare" / "Attack.xml")
    frame.symlink_to(sample / "spare" / "Attack.xml")
    assert len(read_nltk(sample).frames) == 34


def _zip(folder, target, prefix=""):
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, prefix + path.relative_to(folder).as_posix())
    return target


def test_a_zip_release_is_read_in_place_with_the_folder_hash(tmp_db, tmp_path, sample):
    archive = _zip(sample, tmp_path / "fndata-sample.zip", prefix="fndata-sample/")
    assert detect_format(archive) == "nltk"
    assert fingerprint(archive) == fingerprint(sample)
    result = import_lexicon(tmp_db, archive, lang="en")
    assert result.name == "fndata-sample" and result.status == "imported" and result.format == "nltk"
    assert result.counts["n_frames"] == 34 and result.counts["n_exemplars"] == 75
    assert import_lexicon(tmp_db, sample, lang="en", name="fndata-sample").status == "unchanged"
    assert import_lexicon(tmp_db, archive, lang="en", name="again", fmt="nltk").counts["n_frames"] == 34
    # a broken file inside is named as ARCHIVE!/path
    (sample / "frame" / "Attack.xml").write_text("<frame", "utf-8")
    broken = _zip(sample, tmp_path / "broken.zip")
    with pytest.raises(FbagentError, match=r"broken\.zip!/frame/Attack\.xml: malformed XML"):
        import_lexicon(tmp_db, broken, lang="en")


def test_other_archives_and_foreign_zips_say_unzip_first(tmp_path):
    other = tmp_path / "notes.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(FbagentError) as err:
        detect_format(other)
    assert "a zip archive without frameIndex.xml" in str(err.value) and "unzip it first" in str(err.value)
    (tmp_path / "fn.tar.gz").write_bytes(b"\x1f\x8b")
    with pytest.raises(FbagentError, match="extract it first"):
        detect_format(tmp_path / "fn.tar.gz")
    (tmp_path / "fake.zip").write_text("not a zip", "utf-8")
    with pytest.raises(FbagentError, match="fake.zip: not a zip archive"):
        detect_format(tmp_path / "fake.zip")


def _cli(*args, db):
    env = {**os.environ, "FBAGENT_DB": str(db)}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, env=env)


def test_failed_first_import_leaves_no_database_file(tmp_path, sample):
    db = tmp_path / "fresh.db"
    (sample / "frame" / "Attack.xml").write_text("<frame", "utf-8")
    res = _cli("lexicon", "add", str(sample), "--lang", "en", db=db)
    assert res.returncode == 2 and "malformed XML" in res.stderr
    assert not db.exists() and not any(tmp_path.glob("fresh.db*"))
    # an existing database is kept (with its lexicon) when a later import fails
    good = tmp_path / "good"
    shutil.copytree(embedded_path(), good)
    assert _cli("lexicon", "add", str(good), "--lang", "en", db=db).returncode == 0
    assert _cli("lexicon", "add", str(sample), "--lang", "en", db=db).returncode == 2
    assert db.exists()
    listed = _cli("lexicon", "list", db=db)
    assert "good" in listed.stdout


def test_note_for_a_language_without_lemmatiser_at_import_and_once_per_run(tmp_path):
    # issue 29: the note names the check; generate refuses until --verb-check llm|surface is chosen
    db = tmp_path / "x.db"
    res = _cli("lexicon", "add", str(embedded_path()), "--lang", "eu", "--name", "fn-eu", db=db)
    assert res.returncode == 0, res.stderr
    assert "Imported lexicon fn-eu (eu, nltk)" in res.stdout
    assert "note: verb check for 'eu': surface match (no lemmatiser" in " ".join(res.stderr.split())
    args = ("generate", "--pairs", "1", "--lexicon", "fn-eu", "--generator", "openai", "--base-url",
            "http://127.0.0.1:9/v1", "--dry-run")
    refused = _cli(*args, db=db)
    assert refused.returncode == 2 and "--verb-check llm" in refused.stderr
    plan = _cli(*args, "--verb-check", "surface", db=db)
    assert plan.returncode == 0, plan.stderr
    out = " ".join((plan.stdout + plan.stderr).split())
    assert out.count("verb check for 'eu': surface match accepted by --verb-check surface") == 1


def _bomb(folder, target, member: str, size: int) -> int:
    """``folder`` zipped, plus ``member`` of ``size`` repeated bytes (streamed in; it compresses about 1000:1);
    returns the archive's size in bytes."""
    _zip(folder, target)
    with zipfile.ZipFile(target, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        info = zipfile.ZipInfo(member)
        info.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(info, "w", force_zip64=True) as out:
            chunk = b"<x/>" * (2**20 // 4)
            for _ in range(size // len(chunk)):
                out.write(chunk)
    return target.stat().st_size


PEAK_RSS = ("import resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
            "sys.stderr.write(p.stderr)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def test_a_zip_bomb_member_is_refused_in_one_line_using_little_memory(tmp_path, sample):
    """Issue 43 item 3: a 657 KB zip with one 600 MB `lu/*.xml` that no LU names was read whole into memory (peak
    1.28 GB, 69 s, exit 0). Now each member is read as a stream with a cap that follows what such a file holds:
    the member is refused in one line, before anything is imported, in well under 300 MB."""
    archive = tmp_path / "bomb.zip"
    assert _bomb(sample, archive, "lu/lu999999.xml", 400 * 2**20) < 2**20   # 400 MiB in under 1 MiB
    db = tmp_path / "fb.db"
    proc = subprocess.run([sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "fbagent.cli", "lexicon", "add",
                           str(archive), "--lang", "en", "--db", str(db)], capture_output=True, text=True, timeout=300)
    code, peak_kib = (int(x) for x in proc.stdout.split())
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1, proc.stderr
    assert "bomb.zip!/lu/lu999999.xml unzips to 400 MiB" in lines[0] and "Fix:" in lines[0], lines[0]
    assert peak_kib < 300 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB"
    assert not db.exists()


def test_an_lu_member_that_no_lu_names_is_not_unzipped_and_said_in_one_line(tmp_db, tmp_path, sample):
    """Under its cap, an `lu/` member that no LU of luIndex.xml names is skipped (one warning line), never read."""
    archive = tmp_path / "extra.zip"
    _bomb(sample, archive, "lu/lu999999.xml", 8 * 2**20)
    result = import_lexicon(tmp_db, archive, lang="en")
    assert result.status == "imported" and result.counts["n_exemplars"] == 75
    assert any("1 lu/ file(s) that no LU of luIndex.xml names were not unzipped (lu/lu999999.xml)" in w
               for w in result.warnings), result.warnings
