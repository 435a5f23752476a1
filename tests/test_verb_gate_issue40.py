"""The Dutch verb gate on two kinds met in the Open Dutch FrameNet Lexicon's annotated sentences (issue 40): a
separated particle before a sentence run into its clause without a full stop (a headline before its text:
"Leger haalde drone neer Twee soldaten raakten gewond"), and the finite verb that ends a subordinate clause
spelled like a noun ("Omdat ze geen antwoord gaven ,": gifts). tests/data/verb_sentences_issue40_dev.jsonl holds
ten uses and ten non-uses of the same surface shape per kind (written for the kinds, tuned on: a floor against
regressions, not a fresh measure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fbagent.checks.verb_match import find_verb

DATA = Path(__file__).parent / "data" / "verb_sentences_issue40_dev.jsonl"


def test_issue40_dev_set_every_kind() -> None:
    """Each kind: all ten uses found and all ten non-uses refused (before the rules: 9/20 found, 18/20 refused)."""
    rows = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line.strip()]
    wrong = [(r["kind"], r["sentence"]) for r in rows
             if find_verb(r["sentence"], r["lemma"], r["lang"], r["verb_form"]).found != r["present"]]
    assert len(rows) == 40 and {r["kind"] for r in rows} and wrong == []


@pytest.mark.parametrize(("sentence", "lemma", "present", "surface"), [
    # the particle before a capitalised numeral, pronoun or adverb opening the next sentence ends its clause
    ("Politie pakt verdachte op Drie anderen zijn nog voortvluchtig .", "oppakken", True, "pakt"),
    ("Zangeres zegt concert af Zij is ziek geworden .", "afzeggen", True, "zegt"),
    # a capitalised noun, or a name's "Van" / "De" before another capital, does not: a preposition before a name
    ("Ze gaf het cadeau aan Marieke .", "aangeven", False, None),
    ("De trainer stelde zijn vertrouwen in Van Gaal .", "instellen", False, None),
    # the last word of a subordinate clause with no other verb is its finite verb
    ("Toen wij het antwoord gaven , lachte de leraar .", "geven", True, "gaven"),
    ("Zodra de winkels hun deuren sloten , werd het stil .", "sluiten", True, "sloten"),
    # not after a preposition or possessive, and not where the clause has its verb elsewhere
    ("Omdat ze blij waren met hun gaven , dankten ze de gever .", "geven", False, None),
    ("Omdat het water hoog stond in alle sloten , bleven de koeien binnen .", "sluiten", False, None),
])
def test_issue40_kinds(sentence: str, lemma: str, present: bool, surface: str | None) -> None:
    m = find_verb(sentence, lemma, "nl")
    assert m.found is present, m
    assert m.surface == surface


def test_word_before_the_last_finite_verb_of_a_subordinate_clause_is_refused_with_the_reason() -> None:
    """"omdat er schoten klonken": a subordinate clause has one finite verb, last; "schoten" is its subject."""
    m = find_verb("Omdat er in de nacht schoten klonken , belde ze de politie .", "schieten", "nl")
    assert not m.found
    assert "'schoten' stands before 'klonken', the finite verb that ends its subordinate clause" in m.note


@pytest.mark.parametrize(("sentence", "lemma", "present", "surface"), [
    # a noun or adjective + verb LU written apart, in the language's order (fbagent/checks/verb_complements.py):
    # before the non-finite verb, after the finite verb at the clause end or before an extraposed preposition
    ("Hij heeft kennis genomen van het rapport .", "kennis nemen", True, "genomen"),
    ("De minister nam kennis van de brief .", "kennis nemen", True, "nam"),
    ("Ik wil eerst kennis nemen van de stukken .", "kennis nemen", True, "nemen"),
    ("Wij houden hem verantwoordelijk voor de schade .", "verantwoordelijk houden", True, "houden"),
    ("Zij hielden de regering verantwoordelijk .", "verantwoordelijk houden", True, "hielden"),
    # a one-word lemma the dictionary does not know is the two words the standard spelling writes apart
    ("T. wordt verantwoordelijk gehouden voor de aanslag .", "verantwoordelijkhouden", True, "gehouden"),
    ("Ze maakten hem met dat cadeau gelukkig .", "gelukkigmaken", True, "maakten"),
    ("Er macht ihn für den Schaden verantwortlich .", "verantwortlich machen", True, "macht"),
    # the word inside a noun phrase, or not at the clause end, is not the LU's
    ("Hij nam zijn kennis mee naar de nieuwe baan .", "kennis nemen", False, None),
    ("Hij nam een boek over kennis mee .", "kennis nemen", False, None),
    ("De kennis van het rapport nemen we mee .", "kennis nemen", False, None),
    ("Hij houdt veel van verantwoordelijk werk .", "verantwoordelijk houden", False, None),
    ("Wij houden verantwoordelijke mensen in dienst .", "verantwoordelijk houden", False, None),
    # a one-word lemma the dictionary knows is one verb: its parts written apart mean something else
    ("Zij heeft de taart goed gemaakt .", "goedmaken", False, None),
    ("De bakker heeft het brood goed gebakken en goed gemaakt .", "goedmaken", False, None),
    ("Hij heeft zijn huiswerk goed gemaakt .", "goedmaken", False, None),
])
def test_word_and_verb_written_apart(sentence: str, lemma: str, present: bool, surface: str | None) -> None:
    m = find_verb(sentence, lemma, "de" if "ihn" in sentence else "nl")
    assert m.found is present, m
    assert m.surface == surface


@pytest.mark.parametrize(("sentence", "lemma", "present"), [
    # French adjectives follow their noun: the tagger's "adjective" after a determiner is the noun, the verb follows
    ("Mais l' avenir de cette céréale semble compromis .", "sembler", True),
    ("Tous ces séminaires comprennent trois volets .", "comprendre", True),
    # the closed set that precedes its noun still makes the next word a noun
    ("Cette petite ferme produit du lait .", "fermer", False),
    ("Une nouvelle note arrive demain .", "noter", False),
    # an infinitive after an adverb of degree is a verb, a participle there an adjective
    ("Les pays occidentaux aimeraient bien oublier l' Afrique noire .", "oublier", True),
    ("Il veut vraiment partir ce soir .", "partir", True),
    ("Elle était très fatiguée .", "fatiguer", False),
    ("Son grand rire résonne dans la salle .", "rire", False),
])
def test_french_adjective_order_and_infinitive_after_degree_adverb(sentence: str, lemma: str, present: bool) -> None:
    """ASFALDA's sample's misses (issue 40's bench, fr 284 -> 288 of 300): "cette céréale [semble]" was
    refused as a noun after "cette", "aimeraient bien [oublier]" as an adjective after "bien"."""
    assert find_verb(sentence, lemma, "fr").found is present
