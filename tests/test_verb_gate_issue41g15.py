"""The verb gate on issue 41's sixth pass for de, nl, en, zh, ko (builder 41g, session 15): word-class knowledge from
the analysers' own lexicons (HanTa's tags and morphology, jieba's dictionary, Kiwi's next-best analyses) and the slot
rules that select a reading. Each kind with the reason a refusal names, the helpers by hand, and the floors of the
builder's dev set (tests/data/verb_sentences_issue41g15_dev.jsonl: 165 sentences, for each kind non-uses and uses of
the same surface shape) and of the 2026-12e set (sealed when it was scored, a dev set since). Both were tuned on:
floors against regressions, not a fresh measure."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

pytest.importorskip("simplemma")


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # German / Dutch: one finite verb a main clause; a form HanTa also knows as another class after it
    ("Gib mir mal bitte das Salz.", "malen", "de", False, "the finite verb of its clause", ""),
    ("Mal mir bitte ein Schaf!", "malen", "de", True, "", "Mal"),
    ("Hij vindt rust in de natuur.", "rusten", "nl", False, "the finite verb of its clause", ""),
    ("Ik rust elke middag een uur.", "rusten", "nl", True, "", "rust"),
    ("Ik slaap slecht als het warm is.", "slapen", "nl", True, "", "slaap"),
    # German: an attributive adjective with no verbal morpheme; a participle used attributively stays the verb
    ("Die heiße Suppe war sehr lecker.", "heißen", "de", False, "adjective of its own before the noun 'Suppe'", ""),
    ("Ich heiße Anna und komme aus Wien.", "heißen", "de", True, "", "heiße"),
    ("Die spielenden Kinder lachten laut.", "spielen", "de", True, "", "spielenden"),
    # Dutch: the only reading HanTa's lexicon has; the infinitive's slot keeps the target
    ("Wij zagen gisteren een mooie film.", "zagen", "nl", False, "the only reading the tagger's lexicon has", ""),
    ("Ze moeten de oude boom zagen.", "zagen", "nl", True, "", "zagen"),
    # Dutch: an -en adjective HanTa builds on no verb after a copula (not the glued particle op + enen either)
    ("De deur is open.", "openen", "nl", False, "follows the copula 'is'", ""),
    ("Ik open de deur voor de postbode.", "openen", "nl", True, "", "open"),
    ("De deur is gesloten.", "sluiten", "nl", True, "", "gesloten"),
    # Dutch: a nominalised infinitive after a possessive determiner; "je" and "aan het" keep the verb
    ("Mijn lezen gaat goed vooruit.", "lezen", "nl", False, "nominalised infinitive", ""),
    ("Wil je morgen zwemmen?", "zwemmen", "nl", True, "", "zwemmen"),
    ("Ze is aan het koken.", "koken", "nl", True, "", "koken"),
    # English: a noun after a determiner and a hyphenated compound modifier
    ("The show had a two-week run on Broadway.", "run", "en", False, "compound modifier 'two-week'", ""),
    ("The check-in desks open at six.", "open", "en", True, "", "open"),
    # English: one finite verb a clause: a noun after a finite lexical verb, a subject noun before a finite -s verb
    ("They want work, not charity.", "work", "en", False, "follows the finite verb 'want'", ""),
    ("Change takes time.", "change", "en", False, "before the finite verb 'takes'", ""),
    ("We help clean the kitchen.", "clean", "en", True, "", "clean"),
    ("Please water the plants.", "water", "en", True, "", "water"),
    # German: a verb stem in a hyphenated compound; the clitic du
    ("Die Koch-Show läuft jeden Freitag.", "kochen", "de", False, "part of the compound 'Koch-Show'", ""),
    ("Kannste mir mal helfen?", "können", "de", True, "", "Kannste"),
    ("Das ist die lauteste Band der Stadt.", "lauten", "de", False, "", ""),
    # Dutch: a present participle leaves no separated particle; the finite verb's particle is its own
    ("Al fluitend liep hij de trap af.", "fluiten", "nl", True, "", "fluitend"),
    ("Hij floot het deuntje na.", "fluiten", "nl", False, "", ""),
    # Chinese: a place noun before a localiser, a compound noun, a classifier after a demonstrative, 把 + object + verb
    ("运动员们在跑道上热身。", "跑", "zh", False, "before the localiser '上'", ""),
    ("她把结婚照挂在卧室里。", "结婚", "zh", False, "", ""),
    ("那把锁是新买的。", "锁", "zh", False, "a demonstrative with its measure word", ""),
    ("出门前他把门锁了。", "锁", "zh", True, "", "锁"),
    # Korean: ㄷ-irregular / ㄹ verbs by their particles; an adjective spelled as the verb
    ("그는 문에 열쇠를 걸었다.", "걷다", "ko", False, "", ""),
    ("그는 거실 벽에 가족사진을 걸었다.", "걷다", "ko", False, "a place with '에' and an object before it", ""),
    ("그는 문에 열쇠를 걸었다.", "걸다", "ko", True, "", "걸었다"),
    ("기자가 장관에게 이유를 물었다.", "묻다", "ko", True, "", "물었다"),
    ("강아지가 내 신발을 물었다.", "묻다", "ko", False, "", ""),
    ("옆집 개가 택배 기사를 물었다.", "묻다", "ko", False, "no dative before it, and Kiwi weighs both", ""),
    ("커피가 너무 써서 설탕을 넣었다.", "쓰다", "ko", False, "the adjective '쓰다'", ""),
    ("편지를 써서 친구에게 보냈다.", "쓰다", "ko", True, "", "써서"),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


def test_helpers_by_hand() -> None:
    """HanTa's morphology tells a participle from a lexical adjective; its lexicon's lemmas of a form; Kiwi's reading
    of a lemma alone."""
    from fbagent.checks.verb_slots_v2 import _lemmas_of, verbal_morphology
    assert verbal_morphology("reparierte", "ADJ(A)", "de") and verbal_morphology("spielenden", "ADJ(A)", "de")
    assert not verbal_morphology("weise", "ADJ(A)", "de") and not verbal_morphology("heiße", "ADJ(A)", "de")
    assert _lemmas_of("zagen", "nl") == frozenset({"zien"})
    assert "found" in _lemmas_of("found", "en") and "find" in _lemmas_of("found", "en")
    pytest.importorskip("kiwipiepy")
    from fbagent.checks.verb_homographs_ko import _lemma_is_verb
    assert _lemma_is_verb("쓰") and _lemma_is_verb("걸") and not _lemma_is_verb("예쁘")


#: (found, refused) per language on the builder's dev set, measured at the end of the work; the misses left: en "I need
#: rest" (HanTa reads the modal need, which takes a bare infinitive) and "Hope springs eternal" (HanTa reads the plural
#: noun springs)
ISSUE41G15_FLOORS = {"de": (ALL, ALL), "en": (ALL, 14), "ko": (ALL, ALL), "nl": (ALL, ALL), "zh": (ALL, ALL)}
#: the 2026-12e set (sealed until committed), measured at the end of 41g: the misses left are en "We found the keys"
#: (found of find for found: meaning decides), nl "Werk je morgen ook thuis?" (thuiswerken is a separable verb)
SEALED_12E_FLOORS = {"de": (ALL, ALL), "en": (ALL, 27), "ja": (ALL, ALL), "ko": (ALL, ALL), "nl": (47, ALL),
                     "zh": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(ISSUE41G15_FLOORS))
def test_issue41g15_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41g15_dev", lang, ISSUE41G15_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12E_FLOORS))
def test_sealed_2026_12e_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12e", lang, SEALED_12E_FLOORS[lang])
