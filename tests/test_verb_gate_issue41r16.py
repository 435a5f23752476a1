"""The verb gate on issue 41's session-16 pass for es, pt, it, fr (builder 41r): rules narrowed where they overreached
(nada of nadar after a noun subject, a finite verb after a que-drop verb, consigo after an adverb), the forms two verbs
share settled by the words around them (``[[languages.<code>.homograph_owners]]``: Sé/Ve of ser/ir, pt sente of sentir,
fr suis of suivre, vit/vis of vivre), nominal infinitives and the French noun with a "de" complement, each with the
reason a refusal names; the helper :func:`fbagent.checks.conjugation.third_singular` by hand; and the floors of the
builder's dev set (tests/data/verb_sentences_issue41r16_dev.jsonl, "set": "issue-41r16": 104 sentences, uses and
non-uses of the same surface shape, written for this pass) and of the 2026-12f set (sealed when it was scored, a dev
set since). All were tuned on: floors against regressions, not a fresh measure."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

from fbagent.checks.conjugation import third_singular
from fbagent.checks.verb_slots_romance import homograph_owners


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # nada: nadar's 3rd person after a noun subject; the pronoun before its clause's verb
    ("Mi hija nada mucho mejor que yo.", "nadar", "es", True, "", "nada"),
    ("Mi abuelo nada sabe de ordenadores.", "nadar", "es", False, "function word", ""),
    ("A minha vida nada tem de especial.", "nadar", "pt", False, "function word", ""),
    ("Mi hermano para comer siempre tarda mucho.", "parar", "es", False, "function word", ""),
    # a function homograph after a noun subject is the verb only as the 3rd person singular present
    ("O comboio para em todas as estações.", "parar", "pt", True, "", "para"),
    ("O acordo entre os sindicatos foi assinado.", "entrar", "pt", False, "function word", ""),
    # que-drop: the complement clause's verb right after credere, temere, rogar
    ("Temo piova stasera.", "piovere", "it", True, "", "piova"),
    ("Le ruego envíe la documentación cuanto antes.", "enviar", "es", True, "", "envíe"),
    ("Busco trabajo en Madrid.", "trabajar", "es", False, "follows the finite verb 'busco'", ""),
    # consigo after an adverb is the verb; after a verb or noun at the clause's end the pronoun
    ("Ahora sí consigo.", "conseguir", "es", True, "", "consigo"),
    ("Trouxe o cão consigo.", "conseguir", "pt", False, "the pronoun", ""),
    # forms two verbs share
    ("Sé paciente con tu hermano.", "saber", "es", False, "a form of 'ser' here", ""),
    ("Sé tocar la guitarra.", "saber", "es", True, "", "Sé"),
    ("Ve a la farmacia y compra aspirinas.", "ver", "es", False, "a form of 'ir' here", ""),
    ("Ve a su abuela todos los domingos.", "ver", "es", True, "", "Ve"),
    ("Ela sente muita falta da família.", "sentar", "pt", False, "a form of 'sentir' here", ""),
    ("Quero que ela se sente ao meu lado.", "sentar", "pt", True, "", "sente"),
    ("Je suis ce cours de chinois depuis septembre.", "être", "fr", False, "a form of 'suivre' here", ""),
    ("Je suis ce cours de chinois depuis septembre.", "suivre", "fr", True, "", "suis"),
    ("Je suis le professeur de cette classe.", "être", "fr", True, "", "suis"),
    ("Il vit à Marseille depuis dix ans.", "voir", "fr", False, "a form of 'vivre' here", ""),
    ("Elle vit la voiture arriver au loin.", "voir", "fr", True, "", "vit"),
    ("Siéntate aquí, a mi lado.", "sentir", "es", False, "a form of 'sentar' here", ""),
    ("Siéntate aquí, por favor.", "sentarse", "es", True, "", "Siéntate"),
    ("Me siento en la primera fila.", "sentir", "es", False, "a form of 'sentar' here", ""),
    ("Me siento en la primera fila.", "sentar", "es", True, "", "siento"),
    ("Me siento muy cansada hoy.", "sentir", "es", True, "", "siento"),
    # nominal infinitives
    ("Ho letto il tuo libro con grande piacere.", "piacere", "it", False, "after 'con' and is read as a noun", ""),
    ("É dever de todos proteger o ambiente.", "dever", "pt", False, "follows the copula 'é' before 'de'", ""),
    ("Lo repito para mejor entender el texto.", "entender", "es", True, "", "entender"),
    ("O difícil é sair de casa cedo.", "sair", "pt", True, "", "sair"),
    # French: determiner + adjective + N + de + bare noun
    ("La vieille porte d'entrée grince depuis des semaines.", "porter", "fr", False, "'de' + a bare noun", ""),
    ("La vieille porte de l'eau tous les matins.", "porter", "fr", True, "", "porte"),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


def test_helpers_by_hand() -> None:
    """third_singular: the fourth ending of the conjugation row (stem changes included), never the subjunctive or the
    1st person; the homograph_owners table read by form."""
    assert third_singular("para", "parar", "es") and third_singular("nada", "nadar", "pt")
    assert third_singular("duerme", "dormir", "es") and third_singular("canta", "cantare", "it")
    assert not third_singular("entre", "entrar", "pt") and not third_singular("como", "comer", "es")
    assert not third_singular("sobre", "sobrar", "es") and not third_singular("paro", "parar", "es")
    assert [e.verb for e in homograph_owners("es")["sé"]] == ["ser"]
    assert [e.verb for e in homograph_owners("fr")["suis"]] == ["suivre", "suivre"]
    assert homograph_owners("de") == {}


#: (found, refused) per language on the builder's dev set, measured at the end of the work (before it, on 817d300:
#: es 19/25 10/21, pt 9/14 4/9, it 8/9 2/4, fr 7/13 6/9). The misses left: fr nominalised adjective subjects that
#: spaCy reads as the noun's adjective ("Le vieux marche de long en large", "La jeune garde les enfants", "Le petit
#: tient de sa mère")
ISSUE41R16_FLOORS = {"es": (ALL, ALL), "fr": (10, ALL), "it": (ALL, ALL), "pt": (ALL, ALL)}
#: the 2026-12f set (sealed when scored, a dev set since), at the end of this pass: the one miss left is it "Non c'è
#: più posto" (a participle that is a noun after c'è più; a noun lexicon would decide it)
SEALED_12F_FLOORS = {"es": (ALL, ALL), "fr": (ALL, ALL), "it": (ALL, 26), "pt": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(ISSUE41R16_FLOORS))
def test_issue41r16_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41r16_dev", lang, ISSUE41R16_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(SEALED_12F_FLOORS))
def test_sealed_2026_12f_per_language(lang: str) -> None:
    assert_floor("sealed_2026_12f", lang, SEALED_12F_FLOORS[lang])
