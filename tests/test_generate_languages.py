"""Prompts per language (en, ja own; generic for the rest) and French generation on the real ASFALDA lexicon."""

from __future__ import annotations

import io
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub, request_text, schema_name  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.generation import generate  # noqa: E402
from fbagent.prompting.messages import load_prompts  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402
from fbagent.store.items import run_items  # noqa: E402
from fbagent.store.runs import get_run  # noqa: E402

FRAME = {"frame": "Departing", "definition": "An object moves away from a Source.",
         "core_fes": [{"name": "Theme", "definition": "The thing that moves."}], "lu_definition": "go away from",
         "examples": [{"text": "She left the house.", "target_start": 4, "target_end": 8}]}


def test_english_and_japanese_have_their_own_prompts():
    en = load_prompts("en")
    assert en.folder == "en" and en.versions["generate_base"] == "generate_base/en@1"
    text = en.base_messages("leave", FRAME, FRAME)[0]["content"]
    assert 'exactly "Which sentence implies that [condition]?"' in text
    assert "- She [left] the house." in text and "- Theme: The thing that moves." in text
    ja = load_prompts("ja")
    assert ja.folder == "ja"
    jtext = ja.base_messages("出る", FRAME, FRAME)[0]["content"]
    assert "のはどちらの文ですか？" in jtext and "perfective" in jtext
    assert ja.judge.version == "verify/judge/ja@1" and ja.define.version.startswith("roundtrip/define_from_example/")


def test_other_languages_use_the_generic_template_naming_the_language():
    fr = load_prompts("fr")
    assert fr.folder == "generic" and fr.language == "French"
    text = fr.base_messages("partir", FRAME, FRAME)[0]["content"]
    assert "You write test items in French" in text and 'The French verb "partir"' in text
    assert 'exactly "Quelle phrase implique que {condition} ?"' in text
    de = load_prompts("de-AT")
    dtext = de.base_messages("gehen", FRAME, FRAME)[0]["content"]
    assert "German" in dtext and 'a natural German question that means "Which sentence implies that' in dtext
    assert "in English, of the French word" in fr.define_messages("partir", "Il est parti.")[0]["content"]
    xx = load_prompts("xx")
    assert xx.language == "xx" and xx.folder == "generic"


@pytest.mark.realdata
@pytest.mark.slow
async def test_french_asfalda_generates_through_the_generic_prompt(fr_db, tmp_path):
    src, result = fr_db
    db_path = tmp_path / "fr.db"
    with sqlite3.connect(db_path) as dst:  # a private copy of the session-wide French database
        src.conn.backup(dst)
    with OpenAIStub(FrameResponder()) as stub:
        opts = generate_options(pairs=2, generator="openai", base_url=stub.base_url, model="stub-model",
                               backoff_s=0.01, screen=False, lexicon="framenet-fr-asfalda")
        summary = await generate(db_path, opts, on_event=GenerateView(Console(file=io.StringIO())), command="test")
        base_prompts = [request_text(r) for r in stub.requests if schema_name(r) == "BasePair"]
    assert summary.counts["verified"] == 2
    assert all("You write test items in French" in p for p in base_prompts)
    db = open_db(db_path)
    run = get_run(db, summary.run_name)
    assert run["prompt_versions"]["generate_base"] == "generate_base/generic@1"
    for item in run_items(db, run["id"]):
        assert item["language"] == "fr" and item["lexicon"] == "framenet-fr-asfalda"
        assert item["question"].startswith("Quelle phrase implique que ")
        assert item["question_four_choice"].startswith("Sélectionnez toutes les phrases où ")
        s, e = item["target_spans"]["sentence_a"]
        assert item["sentence_a"][s:e].split()[0] == item["verb"].split()[0]
