"""The verb gate on issue 41's fifth pass for es, pt, it, sv, lv, tr (builder 41j): each kind with the reason a refusal
names, the per-language floors of the builder's dev set (tests/data/verb_sentences_issue41j_dev.jsonl: 10 or more
sentences per kind, uses and non-uses of the same surface shape, written for the kinds: proper names, a Latvian
sentence-opening subject, determiners and prepositions spelled as verb forms, Swedish adjectives by suffix or by
hunspell-sv's dictionary, the Turkish noun in -mAğ-, Latvian kur/tur, Swedish -ja verbs with a back-vowel past,
fossil subjunctives and fronted present participles, Portuguese verb + noun compounds) and of the 2026-12d set (sealed when it was
scored, a dev set since). Both were tuned on: floors against regressions."""

from __future__ import annotations

import pytest
from verb_gate_floors import assert_floor, assert_kind

from fbagent.checks.lexicon_hunspell import adjective_stems, comparison_flags, is_adjective

pytest.importorskip("simplemma")

#: hunspell-sv (the optional extra fbagent[sv]): the rules that need its adjectives skip without it
needs_sv_lexicon = pytest.mark.skipif(not adjective_stems("sv"), reason="hunspell-sv (fbagent[sv]) is not installed")


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # a capitalised word inside the sentence is a name; the lower-case verb stays the verb
    ("Conosco bene Porta Venezia e i suoi negozi.", "portare", "it", False, "read as a proper name", ""),
    ("Mio fratello porta sempre un ombrello.", "portare", "it", True, "", "porta"),
    ("Mi abuela se llama Consuelo y vive en Cádiz.", "consolar", "es", False, "read as a proper name", ""),
    ("Vakar satiku Gaidu pie veikala.", "gaidīt", "lv", False, "read as a proper name", ""),
    # Latvian: a sentence-opening form right before another verb's finite form is its subject
    ("Lija strādā slimnīcā par māsu.", "līt", "lv", False, "right before the verb 'strādā' and is read as its subject", ""),
    ("Sāka līt, un mēs skrējām mājās.", "sākt", "lv", True, "", "Sāka"),
    ("Runā skaļāk, es nedzirdu!", "runāt", "lv", True, "", "Runā"),
    # a determiner spelled as a verb form before its noun; the imperative before an adverb or a particle
    ("Han sålde sitt hus förra året.", "sitta", "sv", False, "stands before 'hus' and is read as the determiner", ""),
    ("Kom hit och sitt här bredvid mig.", "sitta", "sv", True, "", "sitt"),
    # a function homograph before a determiner in a clause that has its verb is the preposition
    ("Hay un banco entre la iglesia y el mercado.", "entrar", "es", False, "read as a function word", ""),
    ("El policía para el tráfico en la esquina.", "parar", "es", True, "", "para"),
    ("Vi gjorde det för barnens skull.", "föra", "sv", False, "read as a function word", ""),
    ("Nu för han samtalet vidare.", "föra", "sv", True, "", "för"),
    # Swedish adjectives by their derivational suffix after a determiner
    ("Det blev ett tragiskt fall i rätten.", "falla", "sv", False, "follows 'ett' and is read as a noun", ""),
    ("Den lilla pojken sprang hem.", "springa", "sv", True, "", "sprang"),
    # Swedish: a clause-opening word spelled as the infinitive before a finite verb that is no auxiliary: a name
    ("Linda arbetar på ett sjukhus.", "linda", "sv", False, "right before the verb 'arbetar'", ""),
    ("Simma kan hon som en fisk.", "simma", "sv", True, "", "Simma"),
    # Turkish: -mAğ- + a vowel is the noun spelled like the infinitive; the verbal noun's cases are -mAyI, -mAyA
    ("Öğle yemeği için dışarı çıktık.", "yemek", "tr", False, "read as the noun spelled like the infinitive", ""),
    ("Çocuk sebze yemeyi sevmiyor.", "yemek", "tr", True, "", "yemeyi"),
    # Latvian kur / tur: adverbs, the verb after its subject pronoun (adverbs may stand between)
    ("Tur stāv mūsu mašīna.", "turēt", "lv", False, "read as a function word", ""),
    ("Viņš vienmēr tur savu vārdu.", "turēt", "lv", True, "", "tur"),
    ("Tēvs kur ugunskuru pie ezera.", "kurt", "lv", True, "", "kur"),   # "kur" (where) opens its clause
    ("Kur ir mana soma?", "kurt", "lv", False, "read as a function word", ""),
    # Swedish: -ja verbs with a back vowel in the past, fossil subjunctives, a present participle fronted before
    # the verb and an inverted subject pronoun (the -ande noun before a verb without one stays a noun)
    ("Hon sålde sin gamla cykel på nätet.", "sälja", "sv", True, "", "sålde"),
    ("Mekanikern smorde kedjan noga.", "smörja", "sv", True, "", "smorde"),
    ("Länge leve kungen!", "leva", "sv", True, "", "leve"),
    ("Skrattande berättade hon historien.", "skratta", "sv", True, "", "Skrattande"),
    ("Lidande är en del av livet.", "lida", "sv", False, "opens its clause before the verb 'är' (verb second)", ""),
    # Portuguese verb + noun compounds joined by a hyphen; the verb with a hyphenated enclitic, contracted ones too
    ("Um beija-flor pousou na janela.", "beijar", "pt", False, "part of the compound 'beija-flor'", ""),
    ("Ele beija-a na testa todas as noites.", "beijar", "pt", True, "", "beija"),
    ("Ele deu-mo ontem à tarde.", "dar", "pt", True, "", "deu"),
])
def test_kind(sentence: str, lemma: str, lang: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


@needs_sv_lexicon
@pytest.mark.parametrize(("sentence", "lemma", "present", "why", "surface"), [
    ("Snickaren köpte en rostig såg i affären.", "se", False, "follows 'en' and is read as a noun", ""),
    ("Vi åt en mör stek med potatis.", "steka", False, "follows 'en' and is read as a noun", ""),
    ("En äldre man såg oss från fönstret.", "se", True, "", "såg"),
])
def test_swedish_lexicon_adjective(sentence: str, lemma: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, "sv", present, why, surface)


def test_comparison_flags_read_from_aff_text() -> None:
    aff = "SFX P Y 3\nSFX P 0 are [^a]\nSFX P 0 ast [^a]\nSFX P 0 aste [^a]\nSFX D Y 2\nSFX D 0 en [^a]\nSFX D 0 are ."
    flags = comparison_flags(aff, ("are", "ast"))
    assert set(flags) == {"P"}
    assert flags["P"].search("skarp") and not flags["P"].search("kvinna")


@needs_sv_lexicon
def test_swedish_adjective_lexicon() -> None:
    assert [w for w in ("skarp", "skarpt", "skarpa", "saftig", "ny") if not is_adjective(w, "sv")] == []
    assert [w for w in ("såg", "stek", "kvinna", "grannen", "och", "sälja") if is_adjective(w, "sv")] == []


@pytest.mark.parametrize(("lang", "floor"), [
    ("es", (4, 6)), ("it", (1, 2)), ("lv", (10, 12)), ("pt", (6, 10)), ("sv", (32, 34)), ("tr", (5, 8)),
])
def test_issue41j_dev_floors(lang: str, floor: tuple[int, int]) -> None:
    if lang == "sv" and not adjective_stems("sv"):
        floor = (floor[0], floor[1] - 1)   # "en mör stek" needs hunspell-sv's adjectives (measured: 20/23 without)
    assert_floor("issue41j_dev", lang, floor)


@pytest.mark.parametrize(("lang", "floor"), [
    # 2026-12d after this pass (before: es 57/27, it 55/28, lv 55/20, pt 50/26, sv 53/23, tr 51/25)
    ("es", (57, 28)), ("it", (55, 29)), ("lv", (55, 25)), ("pt", (50, 27)), ("sv", (56, 29)), ("tr", (51, 26)),
])
def test_sealed_2026_12d_floors(lang: str, floor: tuple[int, int]) -> None:
    if lang == "sv" and not adjective_stems("sv"):
        floor = (floor[0], floor[1] - 1)   # "en skarp såg" needs hunspell-sv's adjectives
    assert_floor("sealed_2026_12d", lang, floor)
