"""The verb gate on issue 41's sixth pass for es, pt, it, fr (builder 41r): each kind with the reason a refusal names,
the helpers behind the rules by hand, and the per-language floors of the builder's dev set
(tests/data/verb_sentences_issue41r_dev.jsonl: sentences per kind, uses and non-uses of the same surface shape, written
for this issue) and of the 2026-12e and 2026-12d sets (sealed when they were scored, dev sets since). All were tuned
on: floors against regressions, not a fresh measure."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

from fbagent.checks.conjugation import nonfinite_form, strong_participles
from fbagent.checks.verb_slots_fr import french_future_stem


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # a past participle right after a preposition is a noun or adjective; after an auxiliary it is the verb
    ("Decine di feriti sono arrivati in ospedale.", "ferire", "it", False, "right after the preposition 'di'", ""),
    ("Sono stati feriti gravemente.", "ferire", "it", True, "", "feriti"),
    ("Quería un vaso de helado de fresa.", "helar", "es", False, "right after the preposition 'de'", ""),
    ("Anoche ha helado en la sierra.", "helar", "es", True, "", "helado"),
    # a past participle right after an article that is also a clitic: the article's noun
    ("Faccio la spesa il sabato mattina.", "spendere", "it", False, "an object pronoun would need an auxiliary", ""),
    ("L'ha spesa tutta in un giorno.", "spendere", "it", True, "", "spesa"),
    # a participle right after hacer / fazer, which take no participle: their object
    ("Isso não faz sentido.", "sentir", "pt", False, "a verb that takes no participle", ""),
    ("Tenho sentido frio.", "sentir", "pt", True, "", "sentido"),
    # the infinitive after a quantifier is a noun; after a modal it is the verb
    ("Todo ser humano tiene dignidad.", "ser", "es", False, "the infinitive after the quantifier 'todo'", ""),
    ("Todo debe ser revisado.", "ser", "es", True, "", "ser"),
    # consigo: the pronoun where nothing a verb takes follows it, conseguir's 1st person before an infinitive
    ("Levou as chaves consigo.", "conseguir", "pt", False, "the pronoun", ""),
    ("Habla consigo mismo.", "conseguir", "es", False, "the pronoun", ""),
    ("Não consigo dormir.", "conseguir", "pt", True, "", "consigo"),
    # Portuguese estar a + infinitive: "a" is the preposition there; the nominal infinitive takes "o"
    ("Estávamos a jantar quando ligaste.", "jantar", "pt", True, "", "jantar"),
    ("O jantar está pronto.", "jantar", "pt", False, "follows 'o'", ""),
    # vimos: vir before a word of motion, ver before an object
    ("Vimos de Faro de autocarro.", "vir", "pt", True, "", "Vimos"),
    ("Vimos um veado na estrada.", "vir", "pt", False, "a form of 'ver' here", ""),
    # a sentence-opening preterite before "a" + noun: the article
    ("Acendeu a vela do bolo.", "velar", "pt", False, "follows 'a'", ""),
    # Italian strong participles after an auxiliary, pronominal compound tenses
    ("Si è accorto del furto troppo tardi.", "accorgere", "it", True, "", "accorto"),
    ("Mi ha rivolto la parola.", "rivolgere", "it", True, "", "rivolto"),
    # Italian forms of the finite paradigm that end as strong participles elsewhere (canto, lotta)
    ("Ha registrato canto e chitarra.", "cantare", "it", False, "follows the perfect 'ha registrato'", ""),
    ("Corrono senza sosta da ore.", "sostare", "it", False, "follows the preposition 'senza'", ""),
    ("Io canto spesso.", "cantare", "it", True, "", "canto"),
    # a finite-looking form right after another verb's finite form: its object
    ("Compramos pesca fresca no mercado.", "pescar", "pt", False, "follows the finite verb 'compramos'", ""),
    ("Busco trabajo en Madrid.", "trabajar", "es", False, "follows the finite verb 'busco'", ""),
    ("Mi hermano trabaja en Madrid.", "trabajar", "es", True, "", "trabaja"),
    # Portuguese: a form that drops its -r or -s before -lo / -la
    ("Temos de resolvê-lo já.", "resolver", "pt", True, "", "resolvê"),
    ("Vimo-lo ontem à noite.", "ver", "pt", True, "", "Vimo"),
    # French: irregular future stems, clause-opening present participles
    ("Sauriez-vous où est la gare ?", "savoir", "fr", True, "", "Sauriez"),
    ("Nous viendrons demain.", "venir", "fr", True, "", "viendrons"),
    ("Le savoir est une arme.", "savoir", "fr", False, "follows the article 'le'", ""),
    ("Fuyant la police, il a traversé la rivière.", "fuir", "fr", True, "", "Fuyant"),
    ("Durant la nuit, il a neigé.", "durer", "fr", False, "function word", ""),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


def test_helpers_by_hand() -> None:
    """The rules' helpers, by hand: strong participles by the infinitive's ending (without the Italian preterites),
    French future stems, and Italian forms that end as strong participles but are finite in their own class."""
    assert strong_participles("accorgere", "it") == {"accorto", "accorta", "accorti", "accorte"}
    assert strong_participles("chiedere", "it") == {"chiesto", "chiesta", "chiesti", "chieste"}   # not "chiesi"
    assert strong_participles("hacer", "es") == {"hecho", "hecha", "hechos", "hechas"}
    assert strong_participles("cantare", "it") == frozenset()
    assert french_future_stem("savoir") == "saur" and french_future_stem("devenir") == "deviendr"
    assert french_future_stem("prendre") == "prendr" and french_future_stem("aimer") is None
    assert not nonfinite_form("canto", "cantare", "it") and not nonfinite_form("lotta", "lottare", "it")
    assert nonfinite_form("cantato", "cantare", "it") and nonfinite_form("vinto", "vincere", "it")
    assert nonfinite_form("cantando", "cantare", "it") and nonfinite_form("hablado", "hablar", "es")
    assert nonfinite_form("resolvê", "resolver", "pt") and not nonfinite_form("resolve", "resolver", "pt")


#: (found, refused) per language on the builder's dev set, measured at the end of the work; the misses left: it "era
#: un uomo colto" (a participle after a noun after a copula), "Hai torto marcio" (the idiom avere torto), "pagato conto e
#: mancia" (conto read as con + clitic), "Studio canto" (studio: a noun by the dictionary), es "Prefiero cocina
#: mediterránea" (a capitalised first word before a 3rd person may be a name), fr "Étonnant, ce résultat !" (an
#: adjective before a comma)
ISSUE41R_FLOORS = {"es": (ALL, 13), "fr": (ALL, 8), "it": (ALL, 14), "pt": (ALL, ALL)}
#: the 2026-12e set (sealed when scored, a dev set since), measured at the end of 41r
SEALED_12E_FLOORS = {"es": (ALL, ALL), "fr": (ALL, ALL), "it": (ALL, ALL), "pt": (ALL, ALL)}
#: the 2026-12d set: es "Pongámonos a trabajar" (an enclitic cluster on the 1st plural imperative), "No tiene sentido"
#: (tener takes a participle: "tengo pensado")
SEALED_12D_FLOORS = {"es": (57, 28), "fr": (ALL, ALL), "it": (ALL, ALL), "pt": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(ISSUE41R_FLOORS))
def test_issue41r_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41r_dev", lang, ISSUE41R_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12E_FLOORS))
def test_sealed_2026_12e_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12e", lang, SEALED_12E_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12D_FLOORS))
def test_sealed_2026_12d_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12d", lang, SEALED_12D_FLOORS[lang])
