"""Issue 41e: the verb gate's word-order and voice rules for es, it, lv, sv, tr (no tagger), on the builder's own
dev set (tests/data/verb_sentences_issue41e_dev.jsonl: 10+ sentences per kind, with controls) and by hand, with the
refusal's note naming the form and the reason."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor

from fbagent.checks.conjugation_tr import tr_form_of, tr_lexical_voice
from fbagent.checks.verb_match import find_verb

pytest.importorskip("simplemma")

#: measured when the rules were written (the misses are named in the issue-41e note)
FLOORS = {"tr": (ALL, 21), "sv": (ALL, 28), "lv": (0, 26), "it": (0, 17), "es": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_issue41e_dev_set_floors(lang: str) -> None:
    assert_floor("issue41e_dev", lang, FLOORS[lang])


def test_turkish_voice_convention_by_hand() -> None:
    for token, lemma in [("yıkattı", "yıkamak"), ("ezberletti", "ezberlemek"), ("içirdi", "içmek"),
                         ("öpüştüler", "öpmek"), ("giyiniyor", "giymek"), ("yaptırıldı", "yapmak")]:
        assert tr_form_of(token, lemma), token
    assert tr_lexical_voice("çalıştı", "çalmak") == "çalış"
    assert tr_lexical_voice("düşündüm", "düşmek") == "düşün"
    assert tr_lexical_voice("yıkattı", "yıkamak") == ""
    assert find_verb("Annem hasta çocuğa ilacını zorla içirdi.", "içmek", "tr").found   # simplemma: içir
    assert not find_verb("Kardeşim bütün gün çalıştı.", "çalmak", "tr").found


@pytest.mark.parametrize(("sentence", "lemma", "lang", "why"), [
    ("Maaşımı bu ay çek olarak aldım.", "çekmek", "tr", "stands inside its clause"),
    ("Bu yokuş çok dik.", "dikmek", "tr", "follows 'çok'"),
    ("Vi plockade bär i skogen.", "bära", "sv", "follows the finite verb 'plockade'"),
    ("Vi har bara få gäster.", "få", "sv", "follows 'har'"),
    ("Ceļa mala bija slidena.", "malt", "lv", "right before the copula 'bija'"),
    ("Viņš ir ļoti izglītots.", "izglītot", "lv", "follows 'ir ļoti'"),
    ("Ho comprato sei uova.", "essere", "it", "follows the perfect 'ho comprato'"),
])
def test_refusal_names_form_and_reason(sentence: str, lemma: str, lang: str, why: str) -> None:
    m = find_verb(sentence, lemma, lang)
    assert not m.found, m
    assert why in m.note, m.note


@pytest.mark.parametrize(("sentence", "lemma", "lang"), [
    ("Bu kırık kutuyu da çöpe at.", "atmak", "tr"), ("Otur da beni dinle.", "oturmak", "tr"),
    ("Yorulduysan biraz oturuver.", "oturmak", "tr"), ("Var bor du nu?", "bo", "sv"),
    ("Lådorna har burits in.", "bära", "sv"), ("Hon gav aldrig upp.", "ge upp", "sv"),
    ("¿Adónde fuiste anoche?", "ir", "es"), ("Il libro comprato ieri costa poco.", "costare", "it"),
])
def test_controls_still_found(sentence: str, lemma: str, lang: str) -> None:
    assert find_verb(sentence, lemma, lang).found, sentence
