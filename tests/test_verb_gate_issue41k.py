"""The verb gate on issue 41's fifth pass for zh, fr, de, nl, en, ja, ko (builder 41k): each kind with the reason a
refusal names, the helpers behind the rules by hand, and the per-language floors of the builder's dev set
(tests/data/verb_sentences_issue41k_dev.jsonl: sentences per kind, uses and non-uses of the same surface shape) and of
the 2026-12d set (sealed when it was scored, a dev set since). Both were tuned on: floors against regressions."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # Korean: morphological passive / causative stems, a noun + 하다 verb split by a particle
    ("도둑이 마침내 경찰에게 잡혔다.", "잡다", "ko", True, "", "잡혔다"),
    ("멀리서 기차 소리가 들렸다.", "듣다", "ko", True, "", "들렸다"),
    ("그는 손으로 얼굴을 가렸다.", "가다", "ko", False, "no verb with the stem '가'", ""),
    ("어제 도서관에서 공부를 했다.", "공부하다", "ko", True, "", "공부를 했다"),
    ("나는 공부가 너무 싫다.", "공부하다", "ko", False, "no verb with the stem '공부하'", ""),
    # Japanese: humble / honorific する, a verbal noun split from する, continuative + 方
    ("会場までご案内いたします。", "案内する", "ja", True, "", "案内いたします"),
    ("部長が新しい計画を説明なさった。", "説明する", "ja", True, "", "説明なさった"),
    ("毎日英語の勉強をしています。", "勉強する", "ja", True, "", "勉強をし"),
    ("ピアノの練習はもうした。", "練習する", "ja", True, "", "練習はもうした"),
    ("練習を始める前に準備運動をした。", "練習する", "ja", False, "", ""),
    ("新しい機械の使い方を教えてください。", "使う", "ja", False, "the nominal suffix '方'", ""),
    # Chinese: rare jieba dictionary phrases cut, 从 ... 到, clause-final nouns, adjectives, numeral + measure
    ("我们提前完成了任务。", "完成", "zh", True, "", "完成"),
    ("她每天骑车去上班。", "骑", "zh", True, "", "骑"),
    ("大城市的生活节奏太快了。", "生活", "zh", False, "", ""),
    ("从学校到车站要走十分钟。", "到", "zh", False, "preposition here (a coverb)", ""),
    ("他昨天从上海到了北京。", "到", "zh", True, "", "到"),
    ("你对将来有什么打算？", "打算", "zh", False, "follows the determiner '什么'", ""),
    ("你打算什么时候回来？", "打算", "zh", True, "", "打算"),
    ("这条路又窄又长。", "长", "zh", False, "adjective after '又'", ""),
    ("他一口喝了下去。", "喝", "zh", True, "", "喝"),
    ("她穿着睡衣在看书。", "睡", "zh", False, "inside '睡衣'", ""),
    ("我回家后给妈妈打了个电话。", "给", "zh", False, "preposition here (a coverb): '打了个'", ""),
    # English: contracted be, a base form after a modal or let's, prepositions and nouns spelled as verb forms
    ("It's snowing in the mountains.", "be", "en", True, "", "s"),
    ("They're waiting outside.", "be", "en", True, "", "re"),
    ("She's lost her keys again.", "be", "en", False, "", ""),
    ("My brother's car needs a wash.", "be", "en", False, "", ""),
    ("Could you text her the address?", "text", "en", True, "", "text"),
    ("Let's order some food.", "order", "en", True, "", "order"),
    ("Let's check the order.", "order", "en", False, "follows 'the'", ""),
    ("They cycled round the park.", "round", "en", False, "follows the verb 'cycled'", ""),
    ("The pouch was made of soft felt.", "feel", "en", False, "ends the noun phrase after 'of soft'", ""),
    ("I felt a soft touch on my arm.", "feel", "en", True, "", "felt"),
    ("She bought a chess set.", "set", "en", False, "head noun of its object", ""),
    ("I think the kids run every day.", "run", "en", True, "", "run"),
    ("Reading the news takes time.", "read", "en", True, "", "Reading"),
    ("Cooking classes are popular.", "cook", "en", False, "read as a noun", ""),
    # French: l' after a preposition, prenominal adjectives, an attribute after a copula, a clitic cluster
    ("Le vent souffle de l'est.", "être", "fr", False, "an article after a preposition", ""),
    ("Il est venu pour l'aider.", "aider", "fr", True, "", "aider"),
    ("Il m'a fait un petit sourire.", "sourire", "fr", False, "follows 'un'", ""),
    ("Il paraissait content de son travail.", "conter", "fr", False, "follows the copula 'paraissait'", ""),
    ("Les grands-parents content des histoires.", "conter", "fr", True, "", "content"),
    ("Nous te les enverrons demain.", "envoyer", "fr", True, "", "enverrons"),
    # German / Dutch: an adverbial adjective after a finite full verb
    ("Er grinste verlegen in die Kamera.", "verlegen", "de", False, "adverbial adjective", ""),
    ("Wir verlegen den Termin auf Freitag.", "verlegen", "de", True, "", "verlegen"),
    ("Ze lachte verlegen naar de fotograaf.", "verlegen", "nl", False, "adverbial adjective", ""),
    # Dutch: a nominalised infinitive after clause-initial het
    ("Het wachten duurde lang.", "wachten", "nl", False, "nominalised infinitive", ""),
    ("Het duurt lang, dus we wachten.", "wachten", "nl", True, "", "wachten"),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


def test_helpers_by_hand() -> None:
    """The rules' helpers, by hand: Korean voice stems by their final consonant, jieba's rare phrases cut as jieba's
    route would weigh them."""
    from fbagent.checks.verb_match_ko import voice_stem
    assert voice_stem("잡히", "잡") and voice_stem("물리", "물") and voice_stem("들리", "듣") and voice_stem("먹이", "먹")
    assert not voice_stem("가리", "가") and not voice_stem("잡", "잡") and not voice_stem("잡히다", "잡")
    pytest.importorskip("jieba")
    from fbagent.checks.verb_function_zh import dictionary_split
    assert dictionary_split("提前完成") == ("提前", "完成") and dictionary_split("操场上") == ("操场", "上")
    assert dictionary_split("完成") is None and dictionary_split("打火机") is None   # a word, or a frequent one


#: (found, refused) per language on the builder's dev set, measured at the end of the work; the misses left: zh
#: "院子里长了很多草" (jieba's dictionary word 里长, village head), fr "s'empêcher de rire" (spaCy reads a noun), en "I saw
#: the dog walk." (HanTa reads a noun after a perception verb's object noun phrase)
ISSUE41K_FLOORS = {"de": (ALL, ALL), "en": (27, ALL), "fr": (10, ALL), "ja": (ALL, ALL), "ko": (ALL, ALL),
                   "nl": (ALL, ALL), "zh": (20, ALL)}
#: the 2026-12d set (sealed until committed), measured at the end of 41k: the misses left are en "Cooking pasta
#: properly takes" (a verbal gerund subject), "They found the keys" (found of find for found), nl "Neemt u ... plaats"
#: labelled nemen (de "Haste" and ko "걸었다" found since 41g, session 15)
SEALED_12D_FLOORS = {"de": (ALL, ALL), "en": (51, 31), "fr": (ALL, ALL), "ja": (ALL, ALL), "ko": (ALL, ALL),
                     "nl": (52, ALL), "zh": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(ISSUE41K_FLOORS))
def test_issue41k_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41k_dev", lang, ISSUE41K_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12D_FLOORS))
def test_sealed_2026_12d_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12d", lang, SEALED_12D_FLOORS[lang])
