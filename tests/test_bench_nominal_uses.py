"""The nominal-use rule of benchmarks/bench_lexicon_verbs.py (issue 40): a target that stands as a nominalised
infinitive (determiner or possessive, optional adjectives or negation, the infinitive) is a nominal use, in every
language with nominalised infinitives (nl, de, es, it, pt); a verbal use of the same words is not.

Sentences written by hand for this test, half nominal uses, half verbal uses of the same shape; the target in
brackets. The Dutch and German ones use HanTa (a dependency) for the adjective reading."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from nominal_uses import nominal_use  # noqa: E402

NOMINAL = [
    ("nl", "neerhalen", "Hij werd verdacht van betrokkenheid bij het [neerhalen] van het toestel ."),
    ("nl", "naleven", "Er kwamen boetes voor het niet [naleven] van de avondklok ."),
    ("nl", "overlijden", "Zoals na een [overlijden] bij een interventie ."),
    ("nl", "klagen", "Zijn voortdurende [klagen] werkte op onze zenuwen ."),
    ("nl", "herstellen", "Het [herstellen] van de schade duurt twee maanden ."),
    ("nl", "kennis nemen", "Na het [kennis nemen] van het rapport zweeg hij ."),
    ("de", "laufen", "Er hat sich beim [Laufen] den Fuß verletzt."),
    ("de", "warten", "Das lange [Warten] hat sich gelohnt."),
    ("de", "lesen", "Sie freut sich über das [Lesen] von Romanen."),
    ("es", "llegar", "Al [llegar] a casa, comió."),
    ("es", "cumplir", "Le multaron por el no [cumplir] las normas."),
    ("it", "fare", "Il [fare] è più difficile del dire."),
    ("it", "studiare", "Si stancava nello [studiare]."),
    ("pt", "viver", "O [viver] de cada dia cansa."),
    ("pt", "chegar", "Ao [chegar] a casa, jantou."),
]

VERBAL = [
    ("nl", "neerhalen", "Het leger wilde het toestel [neerhalen] ."),
    ("nl", "zien", "Als je dit [zien] laat , ben je het niet waard ."),
    ("nl", "schrijven", "Dat [schrijven] Russische ingenieurs in een rapport ."),
    ("nl", "helpen", "Zij wil haar [helpen] met de verhuizing ."),
    ("nl", "werken", "De ingenieurs , die [werken] in de industrie , zwijgen ."),
    ("nl", "kennis nemen", "Wij zullen er [kennis nemen] ."),
    ("de", "laufen", "Er will jeden Tag [laufen]."),
    ("de", "machen", "Er will das [machen]."),
    ("de", "machen", "Das [machen] wir morgen."),
    ("es", "llegar", "Quiere [llegar] pronto a casa."),
    ("es", "cumplir", "No pudo [cumplir] las normas."),
    ("it", "fare", "Vuole [fare] i compiti."),
    ("it", "studiare", "Non lo vuole [studiare]."),
    ("pt", "ver", "Saiu para o [ver] no hospital."),
    ("pt", "chegar", "Quer [chegar] cedo."),
]


def _args(sentence: str) -> tuple[str, int, int]:
    start = sentence.index("[")
    end = sentence.index("]") - 1
    return sentence.replace("[", "").replace("]", ""), start, end


@pytest.mark.parametrize(("lang", "lemma", "sentence"), NOMINAL)
def test_nominal_use_is_caught(lang: str, lemma: str, sentence: str) -> None:
    text, start, end = _args(sentence)
    assert nominal_use(text, start, end, lemma, lang)


@pytest.mark.parametrize(("lang", "lemma", "sentence"), VERBAL)
def test_verbal_use_is_not_caught(lang: str, lemma: str, sentence: str) -> None:
    text, start, end = _args(sentence)
    assert not nominal_use(text, start, end, lemma, lang)


@pytest.mark.parametrize(("lang", "lemma", "sentence"), [
    ("en", "shoot", "The [shoot] of the film took a week."),
    ("fr", "savoir", "Le [savoir] ne suffit pas."),
    ("lv", "iet", "Viņš grib [iet] mājās."),
])
def test_language_without_a_rule_has_no_nominal_uses(lang: str, lemma: str, sentence: str) -> None:
    text, start, end = _args(sentence)
    assert not nominal_use(text, start, end, lemma, lang)
