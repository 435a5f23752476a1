"""Language codes through langcodes and Unicode lexicon names (issue 12, items 3 and 4)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from fbagent.errors import FbagentError
from fbagent.languages import base_lang, language_name, normalize_lang
from fbagent.lexicon.importer import check_lexicon_name, default_name, embedded_path, import_lexicon
from fbagent.prompting.messages import load_prompts


@pytest.mark.parametrize(("given", "tag", "base"), [
    ("nld", "nl", "nl"), ("nl-BE", "nl-BE", "nl"), ("nl_be", "nl-BE", "nl"), ("eng", "en", "en"),
    ("fre", "fr", "fr"), ("pt_BR", "pt-BR", "pt"), ("iw", "he", "he"), ("de-AT", "de-AT", "de"),
    ("sr-Latn", "sr-Latn", "sr"), ("qaa", "qaa", "qaa"), ("gsw", "gsw", "gsw"),
])
def test_codes_are_normalised_region_kept(given, tag, base):
    assert normalize_lang(given) == tag
    assert base_lang(given) == base


def test_names_and_unknown_codes_are_refused_with_a_way_on():
    with pytest.raises(FbagentError) as err:
        normalize_lang("Dutch")
    assert str(err.value) == "'Dutch' is a language name, not a code. Fix: give its code: nl (Dutch)"
    with pytest.raises(FbagentError, match="give its code: nl"):
        normalize_lang("Nederlands")  # the autonym too
    for bad in ("xx", "und", "x-klingon", "english!", "zz-ZZ"):
        with pytest.raises(FbagentError) as err:
            normalize_lang(bad)
        line = str(err.value)
        assert "\n" not in line and f"language {bad!r} is not a language code" in line
        assert "private-use code qaa..qtz" in line and "generic prompts" in line and "verb_form" in line
    with pytest.raises(FbagentError, match="no language code given"):
        normalize_lang("  ")


def test_language_names_for_prompts():
    assert language_name("nld") == "Dutch" and language_name("nl-BE") == "Dutch"
    assert language_name("eu") == "Basque"  # not in patterns.toml: langcodes' English name
    assert language_name("xx") == "xx" and language_name("qaa") == "qaa"
    nl = load_prompts("nld")
    assert nl.language == "Dutch" and "in Dutch" in nl.base_messages("slapen", _FRAME, _FRAME)[0]["content"]


_FRAME = {"frame": "Sleep", "definition": "A Sleeper sleeps.", "core_fes": [{"name": "Sleeper", "definition": "x"}],
          "lu_definition": "", "examples": []}


def test_import_stores_the_canonical_tag(tmp_db):
    result = import_lexicon(tmp_db, embedded_path(), lang="nld", name="fn-nl")
    assert result.lang == "nl" and tmp_db["lexicons"].get(result.lexicon_id)["lang"] == "nl"
    again = import_lexicon(tmp_db, embedded_path(), lang="dut", name="fn-nl")  # ISO 639-2/B, same language
    assert again.status == "unchanged"
    with pytest.raises(FbagentError, match="stored with language 'nl', not 'nl-BE'"):
        import_lexicon(tmp_db, embedded_path(), lang="nl_BE", name="fn-nl")
    assert import_lexicon(tmp_db, embedded_path(), lang="nl_BE", name="fn-be").lang == "nl-BE"


def test_lexicon_names_take_any_letters():
    assert check_lexicon_name("fn-ñl") == "fn-ñl"
    assert check_lexicon_name("Nederlandse\u0301") == "Nederlandsé"  # stored in NFC
    assert check_lexicon_name("中文框架网") == "中文框架网" and check_lexicon_name("हिन्दी") == "हिन्दी"
    with pytest.raises(FbagentError) as err:
        check_lexicon_name("fn nl/2")
    assert "it contains ' ' (SPACE), '/' (SOLIDUS)" in str(err.value)
    assert "letters and digits of any script" in str(err.value)
    with pytest.raises(FbagentError, match="it starts with '-'"):
        check_lexicon_name("-x")


def test_default_name_from_a_folder_with_accents(tmp_db, tmp_path):
    folder = tmp_path / "Nederlandse\u0301"  # decomposed é, as some file systems store it
    shutil.copytree(embedded_path(), folder)
    assert default_name(folder) == "Nederlandsé"
    assert import_lexicon(tmp_db, folder, lang="nl").name == "Nederlandsé"


def test_cli_refuses_a_name_and_an_unknown_code_without_creating_the_database(tmp_path):
    db = tmp_path / "new.db"
    env = {**os.environ, "FBAGENT_DB": str(db)}
    for args, message in ((["--lang", "Dutch"], "'Dutch' is a language name"),
                          (["--lang", "xx"], "language 'xx' is not a language code"),
                          (["--lang", "nl", "--name", "a b"], "lexicon name 'a b' is not usable")):
        res = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicon", "add", str(embedded_path()), *args],
                             capture_output=True, text=True, env=env)
        assert res.returncode == 2 and message in res.stderr and res.stderr.count("\n") == 1, res.stderr
        assert not db.exists()
