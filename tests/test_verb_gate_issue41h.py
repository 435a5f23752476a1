"""Issue 41h: the verb gate's function-word and noun-phrase rules for es, pt, it, sv, lv, tr (no tagger), on the
builder's own dev set (tests/data/verb_sentences_issue41h_dev.jsonl: fixed phrases, prepositions spelled as a verb
form, nouns after an ordinal or comparative, Latvian nouns after a genitive or adjective modifier, Turkish nouns
spelled as a bare aorist, Italian nouns after an imperative and an article, Swedish nouns after an attributive
adjective; half uses of the same surface shape) and by hand, with the refusal's note naming the form and the reason."""

from __future__ import annotations

import pytest
from verb_gate_floors import score as dev_score

from fbagent.checks.verb_match import find_verb

pytest.importorskip("simplemma")



def test_issue41h_dev_set_floors() -> None:
    score: dict[tuple[str, bool], list[int]] = {}
    for lang in ("es", "it", "pt", "sv", "tr", "lv"):
        found, present, refused, absent = dev_score("issue41h_dev", lang)
        score[(lang, True)], score[(lang, False)] = [found, present], [refused, absent]
    # measured when the rules were written: all but "Leggi la guida" (simplemma reads "leggi" as the noun,
    # laws, so it is no imperative before the article); main before them: 78 of 125
    assert score == {("es", False): [16, 16], ("es", True): [14, 14], ("it", False): [15, 16], ("it", True): [15, 15],
                     ("pt", False): [8, 8], ("pt", True): [8, 8], ("sv", False): [8, 8], ("sv", True): [7, 7],
                     ("tr", False): [11, 11], ("tr", True): [11, 11], ("lv", False): [5, 5], ("lv", True): [6, 6]}


@pytest.mark.parametrize(("sentence", "lemma", "lang", "why"), [
    ("A pesar de la lluvia, salimos.", "pesar", "es", "'pesar' stands inside the fixed phrase 'A pesar de'"),
    ("Siamo d'accordo su tutto.", "accordare", "it", "'accordo' stands inside the fixed phrase 'd'accordo'"),
    ("Ara sıra bu lokantaya geliriz.", "aramak", "tr", "the fixed phrase 'Ara sıra'"),
    ("Salvo imprevistos, llegaremos el lunes.", "salvar", "es", "'Salvo' is read as a function word"),
    ("Vi fick ett brev angående skatten.", "angå", "sv", "'angående' is read as a function word"),
    ("Pavasara sēja šogad sākās agri.", "sēt", "lv", "follows the modifier 'pavasara' and is read as its noun"),
    ("Gelir vergisi her yıl artıyor.", "gelmek", "tr", "'Gelir' stands inside its clause and is read as a noun"),
    ("Gelecek hakkında konuştuk.", "gelmek", "tr", "before the postposition 'hakkında'"),
    ("Laukos ir daudz ceļu.", "celt", "lv", "'ceļu' follows the quantifier 'daudz'"),
])
def test_refusal_names_form_and_reason(sentence: str, lemma: str, lang: str, why: str) -> None:
    m = find_verb(sentence, lemma, lang)
    assert not m.found, m
    assert why in m.note, m.note


@pytest.mark.parametrize(("sentence", "lemma", "lang"), [
    ("Tengo que pesar la harina.", "pesar", "es"),               # the phrase's word outside the phrase
    ("A pesar, de nuevo, la harina me ayudó Juan.", "pesar", "es"),   # a comma breaks the phrase
    ("Il musicista accorda la chitarra.", "accordare", "it"),
    ("Yo salvo a mi perro.", "salvar", "es"),                     # after a subject pronoun: the verb
    ("Es katru vakaru grāmatu lasu.", "lasīt", "lv"),             # object before the only finite verb
    ("Pēc darba es strādāju mājās.", "strādāt", "lv"),            # a genitive after a preposition ends its phrase
    ("Mana māsa daudz runā.", "runāt", "lv"),                     # a non -u form after a quantifier
    ("Es daudz strādāju.", "strādāt", "lv"),
    ("Kardeşim yarın akşam gelir mi?", "gelmek", "tr"),          # a question particle after the aorist
    ("Yarın gelir gelmez beni ara.", "gelmek", "tr"),            # aorist + negative aorist: as soon as                      # an -u form after it with "es": 1st person
])
def test_uses_of_the_same_shape_are_found(sentence: str, lemma: str, lang: str) -> None:
    assert find_verb(sentence, lemma, lang).found


@pytest.mark.parametrize("sentence, lemma, found", [
    # a multi-word Turkish lemma ends in its verb: the noun before it may follow "bir" or a numeral (the Turkish
    # FrameNet's own sentences: "bir formül bulmuştu", "iki dikiş attılar"); the noun alone is still no use
    ("Sonunda bu soruna bir formül bulmuştu.", "formül bulmak", True),
    ("Doktor yarasına iki dikiş attı.", "dikiş atmak", True),
    ("Annem dün akşam bir sinir krizi geçirdi.", "sinir krizi geçirmek", True),
    ("Sınavdan önce bir yardım istedi.", "yardım etmek", False),
    ("Tahtaya uzun bir formül yazdı.", "formül bulmak", False),
])
def test_turkish_multiword_lemma_after_a_determiner(sentence: str, lemma: str, found: bool) -> None:
    assert find_verb(sentence, lemma, "tr").found is found
