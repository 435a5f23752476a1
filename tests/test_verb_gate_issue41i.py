"""The verb gate on issue 41's fourth pass for zh, fr, de, nl, en, ja, ko (builder 41i): each kind with the reason a
refusal names, and the per-language floors of the builder's dev set (tests/data/verb_sentences_issue41i_dev.jsonl: 10
or more sentences per kind, half uses and half non-uses of the same surface shape, written for the kinds) and of the
2026-12c set (sealed when it was scored, a dev set since). Both were tuned on: floors against regressions."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

from fbagent.checks.verb_function_zh import adverb_word, spend_time
from fbagent.checks.verb_match_ja import continuative


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # Chinese: jieba words that hide the verb (a potential form after an adverb, a modal, a localiser or a subject
    # pronoun glued on, V一V after pronoun + 俩, a separable verb split after an adverb glued to its verb)
    ("我一时想不起来他的名字了。", "想", "zh", True, "", "想"),
    ("我相信他一定会来的。", "来", "zh", True, "", "来"),
    ("她在这次比赛中得了第一名。", "得", "zh", True, "", "得"),
    ("我们俩比一比，看谁跑得快。", "比", "zh", True, "", "比一比"),
    ("你别再生他的气了，他已经道歉了。", "生气", "zh", True, "", "生他的气"),
    ("我爱你。", "爱", "zh", True, "", "爱"),
    ("他看来看去，还是没买。", "看", "zh", True, "", "看来看去"),
    ("今年在哪儿过年？", "过", "zh", True, "", "过"),
    ("我明天还你钱。", "还", "zh", True, "", "还"),
    ("雨下得很大。", "得", "zh", False, "inside '下得'", ""),
    # Chinese function words spelled as the verb, fixed adverbs, verbal nouns as subjects, localisers
    ("她以前学过两年法语。", "过", "zh", False, "aspect marker guo", ""),
    ("他还没来，我们再等等吧。", "还", "zh", False, "adverb hái", ""),
    ("你到底想说什么？", "到", "zh", False, "'到底' is a fixed adverb", ""),
    ("看来今天要下雨了。", "看", "zh", False, "'看来' is a fixed adverb", ""),
    ("研究表明，多喝水有好处。", "研究", "zh", False, "opens its clause before '表明'", ""),
    ("城市生活很方便。", "生活", "zh", False, "subject of an adjectival predicate", ""),
    ("书在桌子上。", "上", "zh", False, "is a localiser", ""),
    # French: a sentence-initial 2pl imperative tagged a preposition, inversion, degree adverb, article, compounds
    ("Sachez que nous ferons tout notre possible pour vous aider.", "savoir", "fr", True, "", "Sachez"),
    ("Puis-je vous aider à porter ces valises, madame ?", "pouvoir", "fr", True, "", "Puis"),
    ("Ce long voyage l'a vraiment fatigué.", "fatiguer", "fr", True, "", "fatigué"),
    ("Elle est très fière de la réussite de son fils.", "fier", "fr", False, "after the degree adverb 'très'", ""),
    ("Le devoir de mathématiques était difficile.", "devoir", "fr", False, "article 'le' that opens its clause", ""),
    ("La porte ouverte laissait entrer le froid.", "ouvrir", "fr", False, "before the verb 'laissait'", ""),
    ("Il viendra peut-être demain.", "pouvoir", "fr", False, "compound 'peut-être'", ""),
    ("Il a mangé, puis il a dormi.", "pouvoir", "fr", False, "", ""),
    # German: adjective and noun particles, a particle after a degree or quantity adverb, a preposition's object
    ("Das tut mir wirklich leid.", "leidtun", "de", True, "", "tut"),
    ("Die Kinder sehen abends viel zu viel fern.", "fernsehen", "de", True, "", "sehen"),
    ("Der Vertrag kommt nächste Woche zustande.", "zustandekommen", "de", True, "", "kommt"),
    ("Die Berge sehen wir von fern.", "sehen", "de", True, "", "sehen"),
    ("Es tut mir leid.", "tun", "de", False, "separated particle of its own", ""),
    ("Er sprang so hoch, wie er konnte.", "hochspringen", "de", False, "does not stand at the end", ""),
    # Dutch: noun particles before a prepositional phrase, "ik was" + object, nominalised infinitive + adjective
    ("Neemt u gerust plaats, de dokter komt zo.", "plaatsnemen", "nl", True, "", "Neemt"),
    ("Hij neemt morgen deel aan de wedstrijd.", "deelnemen", "nl", True, "", "neemt"),
    ("Ik was elke zondag de auto.", "wassen", "nl", True, "", "was"),
    ("Ik was de ramen van het huis.", "wassen", "nl", True, "", "was"),
    ("Ik was de baas.", "wassen", "nl", False, "form of 'zijn'", ""),
    ("Hij neemt het grootste deel van de taart.", "deelnemen", "nl", False, "does not stand at the end", ""),
    ("Het lange wachten was voorbij.", "wachten", "nl", False, "follows 'het'", ""),
    # English: head noun of a compound subject, adjective before a preposition, gerund complement
    ("The morning run along the canal clears my head.", "run", "en", False, "head noun of the subject", ""),
    ("They live close to the harbour.", "close", "en", False, "adjective 'close to'", ""),
    ("We went for a long walk after lunch.", "walk", "en", False, "follows 'a'", ""),
    ("The kids run along the canal every morning.", "run", "en", True, "", "run"),
    ("They close the shop at six.", "close", "en", True, "", "close"),
    ("She enjoys cooking for friends.", "cook", "en", True, "", "cooking"),
    # Japanese honorific frame; Korean derived noun
    ("社長はもうお帰りになりました。", "帰る", "ja", True, "", "お帰りになりました"),
    ("お帰りの際は足元にご注意ください。", "帰る", "ja", False, "", ""),
    ("오랜 기다림 끝에 드디어 합격 소식을 들었다.", "기다리다", "ko", False, "after '오랜' (MM) is a noun", ""),
    ("나는 그를 기다림에 지쳤다.", "기다리다", "ko", True, "", "기다림에"),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


def test_zh_and_ja_helpers_by_hand() -> None:
    """The word lists behind the rules, by hand: fixed adverbs by jieba's tag or the list, 过 + time, ren'yōkei."""
    pytest.importorskip("jieba")
    assert adverb_word("到底", "到") is not None and adverb_word("还是", "还") is not None
    assert adverb_word("不是", "是") is None   # an adverb glued before the verb: the caller finds 是
    assert adverb_word("到达", "到") is None
    assert spend_time("过年", "过") and spend_time("过生日", "过") and not spend_time("过时", "过")
    assert continuative("帰る") == {"帰り", "帰"} and continuative("書く") == {"書き"} and continuative("食べる") >= {"食べ"}


#: (found, refused) per language on the builder's dev set, measured at the end of the work; the misses left:
#: de "fällt mir sehr schwer" (a gradable adjective particle after a degree adverb, as "sprang so hoch" is not one),
#: en "My sister's friends cook dinner" (HanTa reads a noun after a possessive noun phrase)
ISSUE41I_FLOORS = {"de": (19, ALL), "en": (20, ALL), "fr": (ALL, ALL), "ja": (ALL, ALL), "ko": (ALL, ALL),
                   "nl": (ALL, ALL), "zh": (ALL, ALL)}
#: the 2026-12c set (sealed until committed): every verb found and every non-use refused in these languages since 41i
SEALED_12C_FLOORS = {lang: (ALL, ALL) for lang in ("de", "en", "fr", "ja", "ko", "nl", "zh")}


@pytest.mark.parametrize("lang", sorted(ISSUE41I_FLOORS))
def test_issue41i_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41i_dev", lang, ISSUE41I_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12C_FLOORS))
def test_sealed_2026_12c_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12c", lang, SEALED_12C_FLOORS[lang])
