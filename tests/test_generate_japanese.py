"""Japanese generation through the stub (issue 21): a lexicon whose LUs are written in kana (とる.v,
かける.v) gets kanji sentences (取った, 掛けた) verified, because the verb check matches by UniDic lemma
and reading; the same lexicon without fugashi is refused by `generate` and `verifier calibrate` in one
line, unless --surface-verb-match accepts the surface match (recorded with the run)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.checks import lemmas, verb_match  # noqa: E402
from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.generation import generate  # noqa: E402
from fbagent.lexicon.importer import import_lexicon  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402
from fbagent.store.items import run_items  # noqa: E402
from fbagent.store.runs import get_run  # noqa: E402

#: how the scripted generator writes each kana LU: in kanji, perfective
KANJI = {"とる": "取った", "かける": "掛けた"}
#: the one content word that tells the two sentences of a base pair apart, per frame
NOUN = {"Taking": "本", "Physical_artworks": "写真", "Placing": "絵", "Contacting": "電話"}
FRAMES = [
    {"frame": "Taking", "definition": "An Agent takes a Theme into their possession.",
     "frame_elements": [{"name": "Agent", "core_type": "Core"}, {"name": "Theme", "core_type": "Core"}],
     "lexical_units": [{"name": "とる.v", "definition": "手に持つ"}]},
    {"frame": "Physical_artworks", "definition": "A Creator makes a photograph or picture of a Represented.",
     "frame_elements": [{"name": "Creator", "core_type": "Core"}, {"name": "Represented", "core_type": "Core"}],
     "lexical_units": [{"name": "とる.v", "definition": "写真に写す"}]},
    {"frame": "Placing", "definition": "An Agent puts a Theme at a Goal, hanging it there.",
     "frame_elements": [{"name": "Agent", "core_type": "Core"}, {"name": "Goal", "core_type": "Core"}],
     "lexical_units": [{"name": "かける.v", "definition": "つるす"}]},
    {"frame": "Contacting", "definition": "A Communicator contacts an Addressee by telephone.",
     "frame_elements": [{"name": "Communicator", "core_type": "Core"}, {"name": "Addressee", "core_type": "Core"}],
     "lexical_units": [{"name": "かける.v", "definition": "電話する"}]},
]
EXEMPLARS = [
    {"lu": "とる.v", "frame": "Taking", "text": "彼は本を<t>取った</t>。"},
    {"lu": "とる.v", "frame": "Physical_artworks", "text": "彼は写真を<t>撮った</t>。"},
    {"lu": "かける.v", "frame": "Placing", "text": "壁に絵を<t>掛けた</t>。"},
    {"lu": "かける.v", "frame": "Contacting", "text": "母に電話を<t>かけた</t>。"},
]
_VERB_JA = re.compile(r"verb 「([^」]+)」")
_FRAME = re.compile(r"Frame name: (\S+)\nDefinition: (.*)")


class JapaneseResponder(FrameResponder):
    """FrameResponder writing Japanese: kanji spellings of kana LUs, verb-final and perfective."""

    def _BasePair(self, text: str) -> dict[str, Any]:  # noqa: N802
        verb = _VERB_JA.search(text).group(1)
        (fa, da), (fb, db) = _FRAME.findall(text)[:2]
        form = KANJI[verb]
        a, b = f"彼は昨日その{NOUN[fa]}を{form}。", f"彼は昨日その{NOUN[fb]}を{form}。"
        self.definitions[a], self.definitions[b] = da, db
        self.side[a], self.side[b] = "a", "b"
        return {"condition": "何かを手に入れた", "question": "何かを手に入れたのはどちらの文ですか？",
                "sentence_a": a, "sentence_b": b, "verb_form_a": form, "verb_form_b": form}

    def _ExtendedSentence(self, text: str) -> dict[str, Any]:  # noqa: N802
        verb = _VERB_JA.search(text).group(1)
        frame, definition = _FRAME.findall(text)[0]
        side = "a" if "must also imply" in text else "b"
        s = f"去年の冬、駅の近くで多くの人が古い{NOUN[frame]}を静かに{KANJI[verb]}。"
        self.definitions[s] = definition
        self.side[s] = side
        return {"sentence": s, "verb_form": KANJI[verb]}


def _lexicon_db(tmp_path: Path) -> Path:
    lexdir = tmp_path / "ja-lex"
    lexdir.mkdir()
    for name, rows in (("frames.jsonl", FRAMES), ("exemplars.jsonl", EXEMPLARS)):
        (lexdir / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    db_path = tmp_path / "ja.db"
    import_lexicon(open_db(db_path), lexdir, lang="ja", name="ja-kana")
    return db_path


@pytest.fixture
def no_fugashi(monkeypatch):
    """fugashi cannot be imported (as in an install without the ``ja`` extra)."""
    lemmas._fugashi_tagger.cache_clear()
    verb_match.clear_caches()
    monkeypatch.setattr(lemmas, "fugashi", None)  # as its failed module-level import leaves it
    yield
    monkeypatch.undo()
    lemmas._fugashi_tagger.cache_clear()
    verb_match.clear_caches()


@pytest.mark.slow
async def test_kana_lus_generate_kanji_sentences_verified(tmp_path):
    pytest.importorskip("fugashi", reason="fugashi not installed (pip install 'fbagent[ja]')")
    db_path = _lexicon_db(tmp_path)
    with OpenAIStub(JapaneseResponder()) as stub:
        opts = generate_options(pairs=2, generator="openai", base_url=stub.base_url, model="stub-model",
                               backoff_s=0.01, screen=False, lexicon="ja-kana", require_definition=False)
        summary = await generate(db_path, opts, on_event=GenerateView(Console(file=io.StringIO())), command="test")
    assert summary.counts["verified"] == 2, summary.counts
    db = open_db(db_path)
    run = get_run(db, summary.run_name)
    assert "surface_verb_match" not in run["options"]
    items = run_items(db, run["id"])
    assert {item["verb"] for item in items} == {"とる", "かける"}
    for item in items:
        form = KANJI[item["verb"]]
        for key in ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime"):
            s, e = item["target_spans"][key]
            assert item[key][s:e] == form, (key, item[key])  # the kanji spelling, found by its reading


def test_without_fugashi_generate_and_calibrate_refuse_in_one_line(tmp_path):
    db_path = _lexicon_db(tmp_path)
    blocked = tmp_path / "no-fugashi"  # first on PYTHONPATH: fugashi fails to import, in child processes too
    (blocked / "fugashi").mkdir(parents=True)
    (blocked / "fugashi" / "__init__.py").write_text("raise ImportError('fugashi is not installed (test)')\n")
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": os.pathsep.join(
        [str(blocked), *filter(None, [os.environ.get("PYTHONPATH")])])}
    for args in (["generate", "--pairs", "2", "--generator", "openai", "--base-url", "http://127.0.0.1:9/v1",
                  "--model", "m", "--lexicon", "ja-kana", "--no-screen"],
                 ["verifier", "calibrate", "--lexicon", "ja-kana", "--signal", "encoder"]):
        result = subprocess.run([sys.executable, "-m", "fbagent.cli", *args, "--db", str(db_path)],
                                capture_output=True, text=True, timeout=300, env=env)
        assert result.returncode == 2, result.stderr
        lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: the Japanese verb check needs fugashi"), lines
        assert "pip install 'fbagent[ja]'" in lines[0] and "--surface-verb-match" in lines[0]
    db = open_db(db_path)
    assert db["runs"].count == 0  # nothing stored: refused before the run row


@pytest.mark.slow
async def test_surface_verb_match_is_accepted_and_recorded_with_the_run(tmp_path, no_fugashi):
    db_path = _lexicon_db(tmp_path)
    with OpenAIStub(JapaneseResponder()) as stub:
        opts = generate_options(pairs=2, generator="openai", base_url=stub.base_url, model="stub-model",
                               backoff_s=0.01, screen=False, lexicon="ja-kana", require_definition=False,
                               surface_verb_match=True)
        events: list[Any] = []
        summary = await generate(db_path, opts, on_event=events.append, command="test")
    run = get_run(open_db(db_path), summary.run_name)
    assert run["options"]["surface_verb_match"] is True
    notes = [e.text for e in events if type(e).__name__ == "LexiconNote"]
    assert any("surface-verb-match" in n and "nouns sharing it pass" in n for n in notes), notes
    # the surface match cannot see 取った as とる: the kanji sentences fail the verb check
    assert summary.counts.get("verified", 0) == 0
