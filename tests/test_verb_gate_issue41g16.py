"""The verb gate on issue 41's seventh pass for de, nl, en, zh, ko (builder 41g, session 16): rules that overreached
narrowed (German "sein" took "da" for a particle; a Chinese measure word made a relative clause's verb a noun; Korean
나는 read as 날다 where it is the pronoun + topic), and the kinds of the 2026-12f failure list as general rules
(fbagent/checks/verb_homographs.py, verb_parts.py, verb_match_zh.py, verb_context_zh.py, verb_match_ko.py,
prompts/verbs/morphology.toml). Each kind with the reason a refusal names, and the floors of the builder's dev set
(tests/data/verb_sentences_issue41g16_dev.jsonl: 141 sentences, for each kind uses and non-uses of the same surface
shape) and of the 2026-12f set (sealed when it was scored, a dev set since). Both were tuned on: floors against
regressions, not a fresh measure."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

pytest.importorskip("simplemma")


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # German: sein forms no particle verb ("da sein", "zurück sein"); a real particle verb of another base stays refused
    ("Ich bin gleich wieder da.", "sein", "de", True, "", "bin"),
    ("Sie war gestern nicht da.", "sein", "de", True, "", "war"),
    ("Ich habe heute Abend nichts vor.", "haben", "de", False, "separated particle of its own", ""),
    # English: fused spellings the irregular table lists; gonna is no form of go
    ("Wanna come with us to the lake?", "want", "en", True, "", "Wanna"),
    ("Gimme a minute to think.", "give", "en", True, "", "Gimme"),
    ("I'm gonna call her tomorrow.", "go", "en", False, "", ""),
    # English: another verb's base form after do-support or a modal; the target's past outside such a slot
    ("Please don't bore me with the details.", "bear", "en", False, "only a base form stands", ""),
    ("She bore three children.", "bear", "en", True, "", "bore"),
    ("I can't bear the noise any longer.", "bear", "en", True, "", "bear"),
    # English: a variant past right after its subject; the noun after a determiner
    ("The swimmers dove into the pool at the signal.", "dive", "en", True, "", "dove"),
    ("The dove flew over the church.", "dive", "en", False, "follows 'the'", ""),
    # German: an adverb spelled as a verb form before the inverted finite verb and its subject
    ("Bitte schließen Sie das Fenster beim Gehen.", "bitten", "de", False, "adverb before 'schließen'", ""),
    ("Ich bitte Sie um etwas Geduld.", "bitten", "de", True, "", "bitte"),
    # English: a particle after a long object before a closing adverbial of time; a place phrase led by the word
    ("The kids picked all the ripe strawberries from the lawn up before lunch.", "pick up", "en", True, "", "picked"),
    ("He looked at the old photographs on the shelf up in the attic.", "look up", "en", False, "not 'up'", ""),
    # German / Dutch: a sentence-initial noun coordinated with a noun; a verb coordinated with a verb
    ("Fliegen und Mücken machten die Nacht unerträglich.", "fliegen", "de", False, "coordinated with the noun 'Mücken'", ""),
    ("Vliegen en muggen maakten de nacht ondraaglijk.", "vliegen", "nl", False, "coordinated with the noun 'muggen'", ""),
    ("Kochen und backen Sie gern?", "kochen", "de", True, "", "Kochen"),
    ("Koken en bakken jullie graag?", "koken", "nl", True, "", "Koken"),
    # Dutch: the head after an inflected attributive adjective; an -e word after a verb is no attribute
    ("Dat eeuwige klagen van hem ergert me.", "klagen", "nl", False, "inflected attributive adjective 'eeuwige'", ""),
    ("Met twee slimme zetten won hij de partij.", "zetten", "nl", False, "inflected attributive adjective 'slimme'", ""),
    ("We moeten andere zoeken.", "zoeken", "nl", True, "", "zoeken"),
    # Dutch: the enclitic -ie; a verb stem inside a hyphenated compound stays refused
    ("Wat zegt-ie nou weer?", "zeggen", "nl", True, "", "zegt"),
    ("De doe-het-zelfzaak is vandaag open.", "doen", "nl", False, "compound", ""),
    # Dutch: a particle joined to the written past makes another verb the lexicon knows (over + staken: oversteken)
    ("De kinderen staken voorzichtig de drukke straat over.", "staken", "nl", False, "separated particle of its own", ""),
    ("De kinderen staken voorzichtig de straat over.", "oversteken", "nl", True, "", "staken"),
    ("De arbeiders staken al drie dagen.", "staken", "nl", True, "", "staken"),
    # Korean: 나는 opening its clause is the pronoun + topic; after its arguments it is 날다
    ("나는 대학에서 경제학을 전공했어요.", "날다", "ko", False, "", ""),
    ("하늘을 나는 새가 보여요.", "날다", "ko", True, "", "나는"),
    # Chinese: a measure word's phrase ends in a noun; a relative clause after one keeps its verb
    ("我明天下午有个会，不能陪你去。", "会", "zh", False, "measure word '有个'", ""),
    ("我要一份扬州炒饭和一碗汤。", "炒", "zh", False, "measure word '一份'", ""),
    ("她是一个会做饭的人。", "会", "zh", True, "", "会"),
    ("你一定要把这个电话号码记住。", "记", "zh", True, "", "记"),
    # Chinese: a glued subject noun or adverb before the verb and its complement or verbal measure
    ("外面的风吹得很厉害。", "吹", "zh", True, "", "吹"),
    ("请您稍等一下。", "等", "zh", True, "", "等"),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


def test_helpers_by_hand() -> None:
    """The measure-word phrase and the relative clause by hand on jieba's words; the Korean pronoun topic on Kiwi's."""
    pytest.importorskip("jieba")
    from fbagent.checks.verb_context_zh import _measure_before
    from fbagent.checks.verb_match_zh import _relative_clause
    words = ((0, 1, "我", "r"), (1, 3, "一份", "m"), (3, 5, "扬州", "ns"), (5, 7, "炒饭", "v"), (7, 8, "和", "c"))
    assert _measure_before(words, 3) == "一份"
    assert _measure_before(words[:2] + words[3:], 2) == "一份"
    assert _measure_before(((0, 2, "这是", "v"), (2, 4, "炒饭", "v")), 1) is None
    rel = ((0, 2, "一个", "m"), (2, 3, "会", "v"), (3, 5, "做饭", "v"), (5, 6, "的", "uj"), (6, 7, "人", "n"))
    assert _relative_clause(rel, 1) and not _relative_clause(rel[:3] + ((5, 6, "。", "x"),), 1)
    pytest.importorskip("kiwipiepy")
    from fbagent.checks.verb_match_ko import _pronoun_topic
    assert _pronoun_topic(((0, 1, "나", "NP"), (1, 2, "는", "JX")), 0)
    assert not _pronoun_topic(((0, 2, "하늘", "NNG"), (2, 3, "을", "JKO"), (4, 5, "나", "NP"), (5, 6, "는", "JX")), 4)


#: (found, refused) per language on the builder's dev set, measured at the end of the work; the misses left: en "The
#: divers dove to the wreck" (HanTa reads "divers" as an adjective, so "dove" follows "the"), nl "Kosten en baten"
#: (baten is also a verb, to avail), zh 爱笑 (jieba reads a name) and 雨下得 (jieba glues 下得)
ISSUE41G16_FLOORS = {"de": (ALL, ALL), "en": (21, ALL), "ko": (ALL, ALL), "nl": (ALL, 17), "zh": (11, ALL)}
#: the 2026-12f set (sealed until committed, a dev set this session), measured at the end of 41g (session 16): de
#: 54/55 29/29, en 60/60 33/33, ko 53/53 29/30, nl 52/53 27/27, zh 63/63 33/33 (before: 53 27, 57 32, 53 28, 51 23,
#: 61 31); the misses left: de "lief, so schnell sie konnte, zum Bahnsteig zurück" (a parenthetical clause before the
#: particle), nl "speelden ... gelijk" (gelijk is no listed particle), ko 가는 of 갈다 (grind: meaning decides)
SEALED_12F_FLOORS = {"de": (54, ALL), "en": (ALL, ALL), "ja": (ALL, ALL), "ko": (ALL, 29), "nl": (52, ALL), "zh": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(ISSUE41G16_FLOORS))
def test_issue41g16_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41g16_dev", lang, ISSUE41G16_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12F_FLOORS))
def test_sealed_2026_12f_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12f", lang, SEALED_12F_FLOORS[lang])
