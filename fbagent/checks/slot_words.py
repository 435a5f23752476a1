"""The ``[languages.<code>.slots]`` table of ``prompts/verbs/morphology.toml``: the closed word classes and endings
that the verb gate's slot rules (:mod:`fbagent.checks.verb_slots` and its language mixins) read, one frozen
:class:`SlotWords` per base language."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.morphology import _data
from fbagent.languages import base_lang


@dataclass(frozen=True)
class SlotWords:
    """One language's ``slots`` table (see the module doc); every field empty where the language has none."""

    present_participle: tuple[str, ...] = ()   # endings after infinitive + "d": de "", "e", "en", ...; nl "", "e"
    gerund_marker: str = ""                    # French "en" (+ the -ant form)
    base_slot: frozenset[str] = frozenset()    # English words after which only a base form stands
    causatives: frozenset[str] = frozenset()   # English make/let/see... forms taking object + bare infinitive
    object_pronouns: frozenset[str] = frozenset()
    coordinators: frozenset[str] = frozenset()  # "en", "und", "and": coordinated finite verbs
    copulas: frozenset[str] = frozenset()      # de/nl: a finite-looking form read as adjective after one
    inverted_copulas: frozenset[str] = frozenset()  # English be-forms that open a question
    complementizer: str = ""                   # nl "om", de "um": before the infinitive marker, no particle
    direction_after: tuple[tuple[str, frozenset[str]], ...] = ()  # English "left" after turn/go/keep ...
    finite_endings: tuple[str, ...] = ()       # nl/de: endings of finite forms (headline / coordination rule)
    sein_perfect: frozenset[str] = frozenset()  # de: verbs whose perfect takes sein (fallen: "ist gefallen")
    perfect_sein: frozenset[str] = frozenset()  # de: finite forms of sein (the perfect auxiliary)
    perfect_haben: frozenset[str] = frozenset()  # de: finite forms of haben
    present_singular: tuple[tuple[str, tuple[str, ...]], ...] = ()  # fr: infinitive ending -> singular endings
    articles: frozenset[str] = frozenset()     # fr: articles that are also clitic pronouns ("la part": a noun)
    adjective_before: tuple[tuple[str, frozenset[str]], ...] = ()  # en: "bound" before "for" is an adjective
    first_person: tuple[tuple[str, str], ...] = ()  # nl: form -> the verb whose 1st person singular it is ("was")
    first_person_subject: str = ""             # nl "ik"
    possessives: frozenset[str] = frozenset()  # nl: possessive determiners (an object's: "mijn handen")
    schedule_words: frozenset[str] = frozenset()  # nl: "elke", "iedere": a routine, so "ik was ... de auto" is wassen
    plural_endings: tuple[str, ...] = ()       # nl: endings of a plural noun ("ramen", "shirts")
    subordinators: frozenset[str] = frozenset()  # en: words that open another clause ("that", "who", "because")
    gerund_verbs: frozenset[str] = frozenset()  # en: verbs whose complement is a gerund ("enjoys cooking")
    opening_articles: frozenset[str] = frozenset()  # fr: articles spelled as object clitics; opening a clause, articles
    participle_after_noun: bool = False        # fr: a participle after determiner + noun before the finite verb: adjective
    verb_final_openers: frozenset[str] = frozenset()  # nl: conjunctions opening a verb-final clause ("omdat"; issue 40)


@lru_cache(maxsize=64)
def slot_words(lang: str) -> SlotWords:
    """The ``[languages.<code>.slots]`` table of ``prompts/verbs/morphology.toml`` for ``lang``'s base language."""
    entry = _data().get("languages", {}).get(base_lang(lang), {}).get("slots", {})

    def words(key: str) -> frozenset[str]:
        return frozenset(str(x).lower() for x in entry.get(key, []))

    return SlotWords(
        present_participle=tuple(str(x) for x in entry.get("present_participle", [])),
        gerund_marker=str(entry.get("gerund_marker", "")),
        base_slot=words("base_slot"),
        causatives=words("causatives"),
        object_pronouns=words("object_pronouns"),
        coordinators=words("coordinators"),
        copulas=words("copulas"),
        inverted_copulas=words("inverted_copulas"),
        complementizer=str(entry.get("complementizer", "")),
        direction_after=tuple((str(k).lower(), frozenset(str(x).lower() for x in v))
                              for k, v in entry.get("direction_after", {}).items()),
        finite_endings=tuple(str(x) for x in entry.get("finite_endings", [])),
        sein_perfect=words("sein_perfect"),
        perfect_sein=words("perfect_sein"),
        perfect_haben=words("perfect_haben"),
        articles=words("articles"),
        adjective_before=tuple((str(k).lower(), frozenset(str(x).lower() for x in v))
                               for k, v in entry.get("adjective_before", {}).items()),
        first_person=tuple((str(k).lower(), str(v).lower()) for k, v in entry.get("first_person", {}).items()),
        first_person_subject=str(entry.get("first_person_subject", "")),
        possessives=words("possessives"),
        schedule_words=words("schedule_words"),
        plural_endings=tuple(str(x) for x in entry.get("plural_endings", [])),
        subordinators=words("subordinators"),
        gerund_verbs=words("gerund_verbs"),
        opening_articles=words("opening_articles"),
        participle_after_noun=bool(entry.get("participle_after_noun", False)),
        verb_final_openers=words("verb_final_openers"),
        present_singular=tuple(sorted(((str(k), tuple(str(x) for x in v))
                                       for k, v in entry.get("present_singular", {}).items()),
                                      key=lambda row: len(row[0]), reverse=True)),
    )
