"""Damaged and mistaken input to `lexicon add` (issue 40's rough edges): a Korean FrameNet TSV cut inside its last
sentence, a forced --format that meets another layout, empty CoNLL-2009 files, text that is not UTF-8 (one wording
for every reader), a damaged zip. Small files written by hand (tests/lexicon_layouts.py)."""

from __future__ import annotations

import gzip
import shutil
import zipfile
from pathlib import Path

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon import starlang_reader
from fbagent.lexicon.conll2009_reader import read_conll2009
from fbagent.lexicon.importer import embedded_path, import_lexicon
from fbagent.lexicon.kfn_reader import read_kfn
from fbagent.lexicon.lu_list_reader import read_lu_list
from fbagent.lexicon.starlang_reader import read_starlang
from tests.lexicon_layouts import (
    KFN_TSV,
    LU_CSV,
    write_conll,
    write_kenet,
    write_kfn,
    write_starlang,
)

DATA = Path(__file__).parent / "data"

# -- a Korean FrameNet TSV cut inside its last sentence block ---------------------------------------------------

SECOND = KFN_TSV.index("#anno-id:2")


@pytest.mark.parametrize(("cut", "line", "says"), [
    # cut inside the #text: line (line 9): a header and no token rows
    (KFN_TSV[:SECOND + len("#anno-id:2\n#text:그녀는 회")], 9, "(a header and no token rows: a truncated copy)"),
    # cut after the #anno-id line, with its newline
    (KFN_TSV[:SECOND + len("#anno-id:2\n")], 8, "(a header and no token rows"),
    # cut after the second token row (line 11), with and without its newline: the tokens stop before the text's end
    (KFN_TSV[:KFN_TSV.index("2\t떠났다.")], 11, "its tokens stop at '그녀는 회사를' of its #text"),
    (KFN_TSV[:KFN_TSV.index("2\t떠났다.") - 1], 11, "its tokens stop at '그녀는 회사를'"),
])
def test_kfn_tsv_cut_inside_its_last_block_is_refused(tmp_path, cut, line, says):
    with pytest.raises(FbagentError) as err:
        read_kfn(write_kfn(tmp_path / "k", tsv=cut))
    message = str(err.value)
    assert f"dev.tsv:{line}: the file ends inside the sentence block of line 8 " in message, message
    assert says in message and "nothing was imported" in message


@pytest.mark.parametrize("ending", ["\n\n", "\n", ""])
def test_kfn_tsv_complete_last_block_without_blank_line_is_read(tmp_path, ending):
    data = read_kfn(write_kfn(tmp_path / "k", tsv=KFN_TSV.rstrip("\n") + ending))
    assert data.n_exemplars == 2 and not data.warnings


# -- a forced --format that meets another layout or kind of file --------------------------------------------------

def _add(db, path, fmt: str) -> str:
    with pytest.raises(FbagentError) as err:
        import_lexicon(db, path, lang="en", fmt=fmt)
    return str(err.value)


def test_forced_format_on_a_folder_names_the_files_to_pass(tmp_db, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    assert _add(tmp_db, folder, "lu-list") == (
        f"{folder} is a folder, but --format lu-list reads one file (an LU list naming Berkeley frames (CSV, TSV or "
        "JSON)). Fix: pass the file itself (the folder holds no such file)")
    (folder / "ar.csv").write_text(LU_CSV, "utf-8")
    (folder / "notes.md").write_text("# notes\n", "utf-8")
    assert _add(tmp_db, folder, "lu-list").endswith("Fix: pass the file itself (the folder holds ar.csv)")


@pytest.mark.parametrize(("name", "text", "fmt", "says"), [
    # a CSV named .csv: the reader lexicon add would pick is named
    ("lus.csv", LU_CSV, "jsonl", "lus.csv holds an LU list naming Berkeley frames (CSV, TSV or JSON), but --format "
     "jsonl reads fbagent's JSONL lexicon format. Fix: pass --format lu-list, or leave --format out"),
    # a CSV under another name: told by its content
    ("lus.txt", LU_CSV, "jsonl", "lus.txt is a CSV file, but --format jsonl reads fbagent's JSONL lexicon format. "
     "Fix: pass --format lu-list"),
    ("lus.dat", LU_CSV.replace(",", "\t"), "odfn", "lus.dat is a TSV (tab-separated) file, but --format odfn reads"),
    ("frames.json", '{"frame": "A"}\n{"frame": "B"}\n', "lu-list", "frames.json is a JSON Lines file, but --format "
     "lu-list reads an LU list naming Berkeley frames (CSV, TSV or JSON). Fix: pass --format jsonl"),
    ("fn.xml", "<frameIndex/>\n", "jsonl", "fn.xml is an XML file, but --format jsonl reads"),
    ("fn.tar.gz", "", "lu-list", "fn.tar.gz is a compressed archive"),
    ("fn.zip", "", "lu-list", "fn.zip is a zip archive, but --format lu-list reads an LU list naming Berkeley frames "
     "(CSV, TSV or JSON). Fix: pass --format nltk (a zip of an NLTK-layout release), or unzip it"),
])
def test_forced_format_on_another_kind_of_file_says_which(tmp_db, tmp_path, name, text, fmt, says):
    path = tmp_path / name
    if name.endswith(".zip"):
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("lus.csv", LU_CSV)
    elif name.endswith(".tar.gz"):
        path.write_bytes(gzip.compress(b"x" * 100))
    else:
        path.write_text(text, "utf-8")
    assert says in _add(tmp_db, path, fmt)


def test_forced_format_on_another_layout_names_it(tmp_db, tmp_path):
    kfn = write_kfn(tmp_path / "kfn")
    assert _add(tmp_db, kfn, "lu-list") == (
        f"{kfn} holds the Korean FrameNet repository layout (resource/V/KFN_lus.json, data/V/*.tsv), but --format "
        "lu-list reads an LU list naming Berkeley frames (CSV, TSV or JSON). Fix: pass --format kfn, or leave "
        "--format out (lexicon add picks the reader)")
    assert "holds the NLTK FrameNet XML layout" in _add(tmp_db, embedded_path(), "kfn")


def test_forced_format_on_a_damaged_file_of_its_layout_keeps_the_readers_error(tmp_db, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("lu,frame\ngo.v,Motion\nrun.v\n", "utf-8")
    assert "bad.csv:3: 1 column(s), the header has 2" in _add(tmp_db, path, "lu-list")
    assert tmp_db["lexicons"].count == 0


# -- empty CoNLL-2009 files ------------------------------------------------------------------------------------------

def test_conll2009_empty_file_is_named_in_a_warning(tmp_path):
    folder = write_conll(tmp_path / "lv")
    (folder / "b.conll2009").write_text("", "utf-8")
    (folder / "c.conll2009").write_text("\n\n", "utf-8")
    data = read_conll2009(folder)
    assert data.n_exemplars == 3
    assert data.warnings == [f"2 of 3 CoNLL-2009 file(s) are empty and were skipped: {folder / 'b.conll2009'}, "
                             f"{folder / 'c.conll2009'} (fetch them again if they should hold sentences)"]


def test_conll2009_folder_of_empty_files_is_refused(tmp_path):
    folder = tmp_path / "lv"
    folder.mkdir()
    for name in ("a.conll2009", "b.conll09"):
        (folder / name).write_text("", "utf-8")
    with pytest.raises(FbagentError) as err:
        read_conll2009(folder)
    assert str(err.value) == (f"{folder}: every CoNLL-2009 file is empty (2: a.conll2009, b.conll09). Fix: fetch the "
                              "data again (a copy or checkout without the files' contents?); nothing was imported")


# -- text that is not UTF-8: one wording, with the iconv command, in every reader -----------------------------------

def _latin1(path: Path, old: str, new: str = "café") -> None:
    """Replace the first ``old`` in ``path`` by ``new`` in Latin-1 bytes (0xe9 for é)."""
    data = path.read_bytes()
    assert old.encode() in data, (path, old)
    path.write_bytes(data.replace(old.encode(), new.encode("latin-1"), 1))


def _kfn_tsv(tmp: Path) -> tuple[Path, Path, str]:
    folder = write_kfn(tmp / "kfn")
    _latin1(folder / "data" / "1.2" / "dev.tsv", "아침에")
    return folder, folder / "data" / "1.2" / "dev.tsv", "on line 2, column 13"


def _kfn_json(tmp: Path) -> tuple[Path, Path, str]:
    folder = write_kfn(tmp / "kfn")
    _latin1(folder / "resource" / "1.2" / "KFN_lus.json", "출발")
    return folder, folder / "resource" / "1.2" / "KFN_lus.json", "on line 31, column 19"


def _conll(tmp: Path) -> tuple[Path, Path, str]:
    folder = write_conll(tmp / "lv")
    _latin1(folder / "data" / "a.conll2009", "Rīgas")
    return folder, folder / "data" / "a.conll2009", "on line 2, column 31"


def _starlang(tmp: Path) -> tuple[Path, Path, str]:
    folder = write_starlang(tmp / "tr")
    _latin1(folder / "framenet.xml", 'NAME="', 'NAME="é')
    return folder, folder / "framenet.xml", "on line 2, column 18"


def _swefn(tmp: Path) -> tuple[Path, Path, str]:
    folder = tmp / "sv"
    shutil.copytree(DATA / "swefn", folder)
    _latin1(folder / "swefn.xml", 'val="', 'val="é')
    return folder / "swefn.xml", folder / "swefn.xml", "on line 5, column 37"


def _odfn(tmp: Path) -> tuple[Path, Path, str]:
    path = tmp / "lexicon-manual.json"
    shutil.copy(DATA / "odfn" / "lexicon-manual.json", path)
    _latin1(path, '"lemma": "', '"lemma": "é')
    return path, path, "Latin-1 or another encoding?"


def _nltk(tmp: Path) -> tuple[Path, Path, str]:
    folder = tmp / "fn"
    shutil.copytree(embedded_path(), folder)
    _latin1(folder / "frame" / "Activity_start.xml", "<definition>", "<definition>é")
    return folder, folder / "frame" / "Activity_start.xml", "Latin-1 or another encoding?"


def _lu_csv(tmp: Path) -> tuple[Path, Path, str]:
    path = tmp / "lus.csv"
    path.write_text(LU_CSV, "utf-8")
    _latin1(path, "départ", "départ")
    return path, path, "on line 6, column 2"


def _jsonl(tmp: Path) -> tuple[Path, Path, str]:
    path = tmp / "lex.jsonl"
    path.write_bytes('{"frame": "Café", "definition": "x"}\n'.encode("latin-1"))
    return path, path, "on line 1, column 15"


@pytest.mark.parametrize("layout", [_kfn_tsv, _kfn_json, _conll, _starlang, _swefn, _odfn, _nltk, _lu_csv, _jsonl],
                         ids=lambda f: f.__name__.strip("_"))
def test_every_reader_says_not_utf8_in_one_wording_with_iconv(tmp_db, tmp_path, layout, monkeypatch):
    kenet = write_kenet(tmp_path / "kenet.xml")
    monkeypatch.setattr(starlang_reader, "kenet_path", lambda: kenet)
    given, bad, where = layout(tmp_path)
    with pytest.raises(FbagentError) as err:
        import_lexicon(tmp_db, given, lang="sv")
    message = str(err.value)
    assert f"is not UTF-8 text (byte 0xe9 {where}" in message or (where in message and "byte 0xe9 on line" in message)
    assert message.split(" is not UTF-8 text")[0].endswith(str(bad.name)), message
    assert message.endswith(f"Fix: save it as UTF-8 (e.g. iconv -f LATIN1 -t UTF-8 {bad} > {bad}.utf8 && mv {bad}.utf8 "
                            f"{bad}, LATIN1 being the file's own encoding)"), message
    assert tmp_db["lexicons"].count == 0


def test_utf16_and_a_character_cut_at_the_end_are_named(tmp_path):
    path = tmp_path / "lus.csv"
    path.write_bytes(LU_CSV.encode("utf-16"))
    with pytest.raises(FbagentError) as err:
        read_lu_list(path)
    assert str(err.value) == (f"{path} is UTF-16 text; fbagent reads UTF-8. Fix: save it as UTF-8 (e.g. iconv -f "
                              f"UTF-16 -t UTF-8 {path} > {path}.utf8 && mv {path}.utf8 {path})")
    folder = write_kfn(tmp_path / "kfn")
    tsv = folder / "data" / "1.2" / "dev.tsv"
    data = tsv.read_bytes()
    tsv.write_bytes(data[:data.index("회사를".encode()) + 1])  # cut inside "회" (3 bytes in UTF-8) on line 9
    with pytest.raises(FbagentError) as err:
        read_kfn(folder)
    assert str(err.value) == (f"{tsv} ends inside a UTF-8 character on line 9 (a truncated copy). Fix: copy or fetch "
                              "the file again")


def test_xml_declaring_latin1_is_read_as_latin1(tmp_path, monkeypatch):
    kenet = write_kenet(tmp_path / "kenet.xml")
    monkeypatch.setattr(starlang_reader, "kenet_path", lambda: kenet)
    folder = write_starlang(tmp_path / "tr")
    xml = (folder / "framenet.xml").read_text("utf-8")
    (folder / "framenet.xml").write_bytes(('<?xml version="1.0" encoding="ISO-8859-1"?>\n' + xml).encode("latin-1"))
    assert read_starlang(folder).frames


# -- a damaged zip says it is damaged; a sound one without a FrameNet says "unzip it first" ---------------------------

@pytest.fixture
def sample_zip(tmp_path: Path) -> Path:
    """The embedded English sample zipped as a release is (sample_en/frameIndex.xml, frame/, lu/)."""
    path = tmp_path / "sample.zip"
    root = embedded_path()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(root.rglob("*")):
            if file.is_file():
                zf.write(file, f"sample_en/{file.relative_to(root)}")
    return path


@pytest.mark.parametrize("keep", [0.5, 0.99])
def test_truncated_zip_is_damaged_not_to_unzip(tmp_db, tmp_path, sample_zip, keep):
    cut = tmp_path / "cut.zip"
    data = sample_zip.read_bytes()
    cut.write_bytes(data[:int(len(data) * keep)])
    with pytest.raises(FbagentError) as err:
        import_lexicon(tmp_db, cut, lang="en")
    assert str(err.value) == (f"{cut}: a damaged zip archive (it starts as a zip, but its end, where a zip lists its "
                              "files, is missing or broken: a truncated download?). Fix: fetch the archive again "
                              "(`unzip -t FILE` tests a copy); nothing was imported")
    assert tmp_db["lexicons"].count == 0


def test_zip_member_with_bad_crc_is_damaged(tmp_db, tmp_path, sample_zip):
    with zipfile.ZipFile(sample_zip) as zf:
        info = zf.getinfo("sample_en/frameIndex.xml")
    data = bytearray(sample_zip.read_bytes())
    at = info.header_offset + 30 + len(info.filename) + info.compress_size // 2  # the middle of its deflated bytes
    data[at:at + 8] = bytes(8)
    broken = tmp_path / "broken.zip"
    broken.write_bytes(bytes(data))
    with pytest.raises(FbagentError) as err:
        import_lexicon(tmp_db, broken, lang="en")
    assert f"{broken}!/sample_en/frameIndex.xml: a damaged zip archive: this file cannot be unzipped (" in str(err.value)
    assert str(err.value).endswith("Fix: fetch the archive again (`unzip -t FILE` tests a copy); nothing was imported")


def test_sound_zip_without_framenet_says_unzip_first_and_csv_named_zip_says_what_it_is(tmp_db, tmp_path):
    notes = tmp_path / "notes.zip"
    with zipfile.ZipFile(notes, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(FbagentError, match="a zip archive without frameIndex.xml.*Fix: unzip it first"):
        import_lexicon(tmp_db, notes, lang="en")
    fake = tmp_path / "lus.zip"
    fake.write_text(LU_CSV, "utf-8")
    with pytest.raises(FbagentError) as err:
        import_lexicon(tmp_db, fake, lang="en")
    assert str(err.value) == (f"{fake}: not a zip archive (a CSV file named .zip). Fix: pass the FrameNet folder, or "
                              "the .zip as it was downloaded")


# -- a path above or below a lexicon (found by a new user on ../shared/data) -----------------------------------------

def test_folder_of_several_lexicons_is_refused_not_read_as_conll(tmp_db, tmp_path):
    shelf = tmp_path / "shelf"
    write_kfn(shelf / "data" / "kfn")
    write_conll(shelf / "data" / "lv")
    shutil.copytree(embedded_path(), shelf / "data" / "fn")
    for path in (shelf, shelf / "data"):  # shelf/ holds only data/: looked into
        with pytest.raises(FbagentError) as err:
            import_lexicon(tmp_db, path, lang="lv")
        assert str(err.value) == (
            f"{shelf / 'data'} holds 3 lexicons in its subfolders (fn (nltk), kfn (kfn), lv (conll2009)); fbagent will "
            f"not guess which one you mean. Fix: pass one of them, e.g. fbagent lexicon add {shelf / 'data' / 'fn'} "
            "--lang LANG")
    assert tmp_db["lexicons"].count == 0


def test_conll2009_batches_in_subfolders_are_one_lexicon(tmp_db, tmp_path):
    folder = tmp_path / "lv"
    write_conll(folder / "batch1")
    write_conll(folder / "batch2", readme=False)
    assert import_lexicon(tmp_db, folder, lang="lv").counts["n_exemplars"] == 6


def test_a_part_of_a_lexicon_names_its_root(tmp_db, tmp_path):
    root = write_kfn(tmp_path / "kfn")
    for part in (root / "resource", root / "data" / "1.2", root / "resource" / "info"):
        with pytest.raises(FbagentError) as err:
            import_lexicon(tmp_db, part, lang="ko")
        assert str(err.value) == (
            f"{part} is part of the Korean FrameNet repository layout (resource/V/KFN_lus.json, data/V/*.tsv) at "
            f"{root}. Fix: pass the lexicon's root folder: fbagent lexicon add {root} --lang LANG")
    # the sentence file, which its name makes an LU list: what reading it alone gave, and where the lexicon is
    with pytest.raises(FbagentError) as err:
        import_lexicon(tmp_db, root / "data" / "1.2" / "dev.tsv", lang="ko")
    assert "dev.tsv is part of the Korean FrameNet repository layout" in str(err.value)
    assert "(read alone: " in str(err.value) and f"Fix: pass the lexicon's root folder: fbagent lexicon add {root}" \
        in str(err.value)
    # the LU file reads alone as an LU list; a note says what the whole adds
    result = import_lexicon(tmp_db, root / "resource" / "1.2" / "KFN_lus.json", lang="ko")
    assert result.counts["n_lexical_units"] == 4 and result.counts["n_exemplars"] == 0
    assert result.notes[0] == (f"KFN_lus.json is part of the Korean FrameNet repository layout (resource/V/KFN_lus.json, "
                               f"data/V/*.tsv) at {root}; read alone it gives what this file holds only (`fbagent "
                               f"lexicon add {root}` reads the whole: sentences, frame text)")


def test_unknown_lexicon_name_suggests_the_one_meant(tmp_db):
    from fbagent.store.lexicon import lexicon_by_name

    import_lexicon(tmp_db, embedded_path(), lang="en", name="lv")
    import_lexicon(tmp_db, embedded_path(), lang="en", name="fn15", fmt="nltk")
    for typed, meant in (("LV", "lv"), ("fn-15", "fn15")):
        with pytest.raises(FbagentError) as err:
            lexicon_by_name(tmp_db, typed)
        assert str(err.value) == (f"unknown lexicon {typed!r} (available: lv, fn15). Fix: did you mean {meant}? Else "
                                  "pass one of the available names, or import it with: fbagent lexicon add PATH "
                                  "--lang LANG --name NAME")
    with pytest.raises(FbagentError, match=r"\(available: lv, fn15\)\. Fix: pass one of"):
        lexicon_by_name(tmp_db, "korean")
