"""The verb gate's finite-verb context for the languages without a tagger (es, pt, it, sv, lv, tr; issue 41,
builder 41a): a copula, a degree adverb, a preposition or a noun's modifier before a form of the verb, another
finite verb in a Latvian clause, the word after a form that ser and ir share; each refusal names the form and
the reason. tests/data/verb_sentences_issue41c_dev.jsonl holds ten or so sentences per kind with the verb
readings next to them (written for the kinds, tuned on: a floor against regressions, not a fresh measure)."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor

from fbagent.checks.conjugation import nonfinite_form, shared_form_owner
from fbagent.checks.verb_match import find_verb

#: per language every verb found, and the refusals measured at the end of the work: all but Latvian accusatives after
#: a genitive or a past the rules do not know as a verb (iesniedza, atcēla: no finite ending the rule lists, simplemma
#: does not know them) and Swedish "fråga angående" (a preposition after a noun, read as the verb as "el niño nada" is)
FLOORS = {"es": (ALL, 25), "pt": (ALL, 14), "it": (ALL, 14), "sv": (ALL, 13), "lv": (ALL, 6), "tr": (ALL, 9)}


@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_issue41c_dev_set_floors(lang: str) -> None:
    assert_floor("issue41c_dev", lang, FLOORS[lang])


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why"), [
    ("El asiento de al lado está libre.", "librar", "es", False, "follows the copula 'está'"),
    ("Mi hermana lleva el pelo muy corto.", "cortar", "es", False, "degree adverb 'muy'"),
    ("La carta fue escrita por mi abuela.", "escribir", "es", True, ""),
    ("Mi padre está limpiando el garaje.", "limpiar", "es", True, ""),
    ("Fue a la farmacia a comprar aspirinas.", "ser", "es", False, "form of 'ir'"),
    ("Fui muy feliz en aquella ciudad.", "ir", "es", False, "form of 'ser'"),
    ("Cuando llegué, ella ya se fue.", "ir", "es", True, ""),
    ("Subimos la cuesta muy despacio.", "costar", "es", False, "follows 'la'"),
    ("Pedro la llama todos los días.", "llamar", "es", True, ""),
    ("Marco la chiama ogni sera.", "chiamare", "it", True, ""),
    ("O cão ajuda o senhor cego a atravessar a rua.", "cegar", "pt", False, "noun phrase 'o senhor'"),
    ("Cada día venzo mis miedos.", "vencer", "es", True, ""),
    ("İki dolar verdim.", "dolmak", "tr", False, "follows 'iki'"),
    ("Apagó la llama de la vela.", "llamar", "es", False, "follows 'la'"),
    ("Quiero que empecemos la reunión a las nueve.", "empezar", "es", True, ""),
    ("A casa foi construída pelo meu avô.", "construir", "pt", True, ""),
    ("Nós nos mudamos para São Paulo.", "mudar-se", "pt", True, ""),
    ("O lugar ao lado da janela está livre.", "livrar", "pt", False, "copula 'está'"),
    ("Le barche sono rientrate in porto.", "portare", "it", False, "preposition 'in'"),
    ("Ho molto apprezzato il tuo aiuto.", "apprezzare", "it", True, ""),
    ("Il bambino è già sveglio da un'ora.", "svegliare", "it", False, "copula 'è'"),
    ("Passo la domenica dai miei genitori.", "dare", "it", False, "function word"),
    ("Han talade med låg och lugn röst.", "ligga", "sv", False, "preposition 'med'"),
    ("Hon är en mycket känd författare.", "känna", "sv", False, "degree adverb 'mycket'"),
    ("Jag känner mig lite trött i dag.", "känna sig", "sv", True, ""),
    ("Pojkarna slogs på skolgården.", "slåss", "sv", True, ""),
    ("Var ligger närmaste apotek?", "vara", "sv", False, "verb second"),
    ("Mötet blev inställt på grund av stormen.", "ställa in", "sv", True, ""),
    ("Fabriken är nedlagd sedan länge.", "lägga ner", "sv", True, ""),
    ("Hans inställning till arbetet är bra.", "ställa in", "sv", False, ""),
    ("Non distrarmi mentre guido!", "distrarre", "it", True, ""),
    ("Dir-te-ei tudo amanhã.", "dizer", "pt", True, ""),
    ("Ben de yeni geldim.", "gelmek", "tr", True, ""),
    ("Var det kallt i Kiruna?", "vara", "sv", True, ""),
    ("Ci siamo conosciuti tre anni fa a Roma.", "fare", "it", False, "follows 'anni'"),
    ("Che tempo fa oggi a Roma?", "fare", "it", True, ""),
    ("Mežā mēs dzirdējām dziedošu putnu.", "dziedāt", "lv", True, ""),
    ("Nokritušās lapas mēs sagrābām kaudzē.", "nokrist", "lv", True, ""),
    ("Mēs ilgi meklējām pareizo ceļu.", "celt", "lv", False, "already has the verb 'meklējām'"),
    ("Šī mazā sala ir ļoti skaista.", "salt", "lv", False, "already has the verb 'ir'"),
    ("Es sēžu un rakstu vēstuli.", "rakstīt", "lv", True, ""),
    ("Es ļoti priecājos tevi redzēt.", "priecāties", "lv", True, ""),
    ("Limanda büyük beyaz bir yat vardı.", "yatmak", "tr", False, "follows 'bir'"),
    ("En sevdiğim yazar yeni bir roman yayımladı.", "yazmak", "tr", False, "modifier 'sevdiğim'"),
    ("O her gün günlüğüne bir şeyler yazar.", "yazmak", "tr", True, ""),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str) -> None:
    m = find_verb(sentence, lemma, lang)
    assert m.found == present, m
    assert why in m.note, m.note


def test_nonfinite_forms_by_hand() -> None:
    """Infinitive, gerund, participles (regular endings, the lemma's strong participle, a clitic stripped)."""
    assert nonfinite_form("cortado", "cortar", "es") and nonfinite_form("escrita", "escribir", "es")
    assert nonfinite_form("decírselo", "decir", "es") and nonfinite_form("limpiando", "limpiar", "es")
    assert not nonfinite_form("corto", "cortar", "es") and not nonfinite_form("libre", "librar", "es")
    assert nonfinite_form("distrutto", "distruggere", "it") and not nonfinite_form("calmo", "calmare", "it")
    assert nonfinite_form("jādara", "darīt", "lv") and not nonfinite_form("ceļu", "celt", "lv")


def test_shared_forms_by_hand() -> None:
    """ser / ir: the word after decides (a word of motion or the clause's end: ir; else ser)."""
    assert shared_form_owner("fue", "ser", "es", "a") == "ir"
    assert shared_form_owner("fue", "ser", "es", "muy") is None
    assert shared_form_owner("fue", "ir", "es", "muy") == "ser"
    assert shared_form_owner("fue", "ir", "es", None) is None
    assert shared_form_owner("foi", "ser", "pt", "ao") == "ir"
    assert shared_form_owner("es", "ser", "es", "a") is None  # only ser's: nothing to decide
    assert shared_form_owner("fuimos", "ir", "es", "en tren") is None  # a means of transport: ir
    assert shared_form_owner("fuimos", "ir", "es", "en 1990") == "ser"
    assert shared_form_owner("fue", "ir", "es", "sin decir", before="se") is None  # se fue: irse
    assert shared_form_owner("fue", "ser", "es", "muy", before="se") == "ir"
