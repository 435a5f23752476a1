"""Verb morphology for the verb check: each language's data, read once from ``prompts/verbs/morphology.toml``.

The data (separable particles, words allowed after a separated particle, verb cluster words, optional words of LU
lemmas, closed classes and noun slots of the rules) becomes one frozen :class:`Morphology` per language
(:func:`morphology`). The regular forms generated from a lemma with it are in :mod:`fbagent.checks.paradigms`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from fbagent.errors import FbagentError
from fbagent.languages import base_lang


@dataclass(frozen=True)
class Morphology:
    """The ``prompts/verbs/morphology.toml`` entry of one base language (empty when it has none)."""

    lang: str
    separable_particles: tuple[str, ...] = ()
    after_particle: frozenset[str] = frozenset()
    cluster_words: frozenset[str] = frozenset()
    infinitive_marker: str = ""
    inseparable_prefixes: tuple[str, ...] = ()
    weak_inflection: str = ""
    optional_words: frozenset[str] = frozenset()
    reflexive_clitics: frozenset[str] = frozenset()
    auxiliaries: frozenset[str] = frozenset()
    between_auxiliary: frozenset[str] = frozenset()
    determiners: frozenset[str] = frozenset()
    subject_pronouns: frozenset[str] = frozenset()
    enclitics: frozenset[str] = frozenset()
    participles: tuple[tuple[str, str], ...] = ()
    window: int = 6
    imperative_openers: frozenset[str] = frozenset()
    clitic_articles: frozenset[str] = frozenset()
    prepositions: frozenset[str] = frozenset()
    prenominal: frozenset[str] = frozenset()
    adjective_links: frozenset[str] = frozenset()
    attached_clitics: tuple[str, ...] = ()
    noun_suffixes: tuple[str, ...] = ()
    probes: tuple[tuple[str, str], ...] = ()
    conjugation: tuple[tuple[str, tuple[str, ...]], ...] = ()
    irregular: tuple[tuple[str, frozenset[str]], ...] = ()
    strong_participles: tuple[tuple[str, str], ...] = ()
    stem_changes: bool = False
    swedish_weak: bool = False
    reflexive_suffix: str = ""
    paradigm_rules: str = ""
    clitic_verb_endings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    article_onsets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    degree_adverbs: frozenset[str] = frozenset()
    ungradable_particles: frozenset[str] = frozenset()
    quantity_adverbs: frozenset[str] = frozenset()
    imperative_endings: tuple[str, ...] = ()
    hyphen_prefixes: frozenset[str] = frozenset()
    function_homographs: frozenset[str] = frozenset()
    verb_context: frozenset[str] = frozenset()
    inversion_subjects: frozenset[str] = frozenset()
    negative_prefixes: tuple[str, ...] = ()
    verb_prefixes: tuple[str, ...] = ()
    copulas: frozenset[str] = frozenset()
    light_adverbs: frozenset[str] = frozenset()
    nonfinite_endings: tuple[str, ...] = ()
    no_finite_after: frozenset[str] = frozenset()
    perfect_auxiliaries: frozenset[str] = frozenset()
    adjective_endings: tuple[str, ...] = ()
    infinitive_endings: tuple[str, ...] = ()
    clause_links: frozenset[str] = frozenset()
    modifier_suffixes: tuple[str, ...] = ()
    prenominal_alone: bool = False
    multiword_verb_last: bool = False  # tr: a multi-word lemma's verb is its last word ("formül bulmak")
    shared_forms: tuple[tuple[str, frozenset[str]], ...] = ()
    modifier_endings: tuple[str, ...] = ()
    nonfinite_prefixes: tuple[str, ...] = ()
    finite_endings: tuple[str, ...] = ()
    verb_second: bool = False
    infinitives: frozenset[str] = frozenset()
    mesoclitic_endings: frozenset[str] = frozenset()
    fused_particles: frozenset[str] = frozenset()
    particle_spellings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    initial_verb_endings: tuple[str, ...] = ()
    shared_forms_after: tuple[tuple[str, frozenset[str]], ...] = ()
    function_after: tuple[tuple[str, frozenset[str]], ...] = ()
    singular_subjects: frozenset[str] = frozenset()
    participle_auxiliaries: frozenset[str] = frozenset()
    reflexive_persons: tuple[tuple[str, frozenset[str]], ...] = ()
    verbal_auxiliaries: frozenset[str] = frozenset()
    past_time_words: frozenset[str] = frozenset()
    no_verb_after_adposition: bool = False
    lexical_voice: frozenset[str] = frozenset()
    bare_stem_links: frozenset[str] = frozenset()
    bare_stem_modifiers: frozenset[str] = frozenset()
    participle_degree: frozenset[str] = frozenset()
    function_phrases: tuple[tuple[str, ...], ...] = ()
    genitive_endings: tuple[str, ...] = ()
    genitive_quantifiers: frozenset[str] = frozenset()
    passive_endings: tuple[str, ...] = ()
    nominal_postpositions: frozenset[str] = frozenset()
    attributive: frozenset[str] = frozenset()
    lowercase_nouns: bool = False
    subject_before_finite: bool = False
    inverted_subjects: frozenset[str] = frozenset()
    fronting_verbs: frozenset[str] = frozenset()
    lexical_noun_infixes: tuple[str, ...] = ()
    hunspell_adjectives: bool = False
    lexicon_nouns: bool = False  # sv/lv: noun readings from the Hunspell dictionary (verb_lexicon_slots.py)
    quantifiers: frozenset[str] = frozenset()
    quantifier_homographs: frozenset[str] = frozenset()
    plural_quantifiers: frozenset[str] = frozenset()
    quantifier_after: frozenset[str] = frozenset()
    adverb_homographs: frozenset[str] = frozenset()
    participle_infixes: tuple[str, ...] = ()
    noun_postpositions: frozenset[str] = frozenset()
    question_openers: frozenset[str] = frozenset()
    question_prepositions: frozenset[str] = frozenset()
    deponent_forms: tuple[tuple[str, frozenset[str]], ...] = ()
    clause_initial_homographs: frozenset[str] = frozenset()
    modal_adverbs: frozenset[str] = frozenset()
    existentials: frozenset[str] = frozenset()
    predicative_verbs: frozenset[str] = frozenset()  # sv: copulas and verbs of posture before a predicative adjective  # tr: the existential words with the copula (verb_readings_tr)  # sv: quantifiers that are modal adverbs before a modal's infinitive
    postnominal_adjectives: bool = False  # fr: an adjective follows its noun, so the tagger's adjective after a determiner is no attributive one

    @property
    def tables(self) -> bool:
        """True for a conjugation-table language (:mod:`fbagent.checks.conjugation`): one with rules for its
        regular paradigms (``conjugation`` endings, the Swedish weak groups, or ``paradigm_rules``: the Latvian
        conjugation classes, the Turkish suffix chains), not only listed forms."""
        return bool(self.conjugation or self.swedish_weak or self.paradigm_rules)


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    node = resources.files("fbagent.prompts").joinpath("verbs", "morphology.toml")
    try:
        return tomllib.loads(node.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise FbagentError(f"prompts/verbs/morphology.toml cannot be read ({err})",
                           "restore the file from the fbagent sources (pip install -e . again)") from err


def morphology_version() -> str:
    """The ``version`` of ``prompts/verbs/morphology.toml`` (e.g. ``morphology@1``)."""
    return str(_data().get("version", "unversioned"))


@lru_cache(maxsize=64)
def morphology(lang: str) -> Morphology:
    """The morphology data of ``lang``'s base language (``nl-BE`` -> ``nl``); empty for a language without an entry."""
    code = base_lang(lang)
    entry = _data().get("languages", {}).get(code, {})
    low = lambda xs: [str(x).lower() for x in xs]  # noqa: E731
    return Morphology(
        lang=code,
        separable_particles=tuple(sorted(set(low(entry.get("separable_particles", []))), key=len, reverse=True)),
        after_particle=frozenset(low(entry.get("after_particle", []))),
        cluster_words=frozenset(low(entry.get("cluster_words", []))),
        infinitive_marker=str(entry.get("infinitive_marker", "")).lower(),
        inseparable_prefixes=tuple(sorted(low(entry.get("inseparable_prefixes", [])), key=len, reverse=True)),
        weak_inflection=str(entry.get("weak_inflection", "")),
        optional_words=frozenset(low(entry.get("optional_words", []))),
        reflexive_clitics=frozenset(low(entry.get("reflexive_clitics", []))),
        auxiliaries=frozenset(low(entry.get("auxiliaries", []))),
        between_auxiliary=frozenset(low(entry.get("between_auxiliary", []))),
        determiners=frozenset(low(entry.get("determiners", []))),
        subject_pronouns=frozenset(low(entry.get("subject_pronouns", []))),
        enclitics=frozenset(low(entry.get("enclitics", []))),
        participles=tuple(sorted(((str(a).lower(), str(b).lower()) for a, b in entry.get("participles", [])),
                                 key=lambda r: len(r[0]), reverse=True)),
        window=int(_data().get("defaults", {}).get("window", 6)),
        **_table_fields(entry, low),
    )


def _table_fields(entry: dict[str, Any], low: Any) -> dict[str, Any]:
    """The conjugation-table and context fields of one language entry (see ``morphology.toml``)."""
    return dict(
        imperative_openers=frozenset(low(entry.get("imperative_openers", []))),
        clitic_articles=frozenset(low(entry.get("clitic_articles", []))),
        prepositions=frozenset(low(entry.get("prepositions", []))),
        prenominal=frozenset(low(entry.get("prenominal", []))),
        adjective_links=frozenset(low(entry.get("adjective_links", []))),
        attached_clitics=tuple(sorted(set(low(entry.get("attached_clitics", []))), key=len, reverse=True)),
        noun_suffixes=tuple(sorted(set(low(entry.get("noun_suffixes", []))), key=len, reverse=True)),
        probes=tuple((str(a).lower(), str(b).lower()) for a, b in entry.get("probes", [])),
        conjugation=tuple((str(k).lower(), tuple(str(v).lower().split())) for k, v in entry.get("conjugation", {}).items()),
        irregular=tuple((str(k).lower(), frozenset(low(v))) for k, v in entry.get("irregular", {}).items()),
        strong_participles=tuple(sorted(((str(a).lower(), str(b).lower()) for a, b in entry.get("strong_participles", [])),
                                        key=lambda r: len(r[0]), reverse=True)),
        stem_changes=bool(entry.get("stem_changes", False)),
        swedish_weak=bool(entry.get("swedish_weak", False)),
        reflexive_suffix=str(entry.get("reflexive_suffix", "")).lower(),
        paradigm_rules=str(entry.get("paradigm_rules", "")),
        clitic_verb_endings=tuple((str(k).lower(), tuple(low(v))) for k, v in entry.get("clitic_verb_endings", {}).items()),
        article_onsets=tuple((str(k).lower(), tuple(low(v))) for k, v in entry.get("article_onsets", {}).items()),
        degree_adverbs=frozenset(low(entry.get("degree_adverbs", []))),
        ungradable_particles=frozenset(low(entry.get("ungradable_particles", []))),
        quantity_adverbs=frozenset(low(entry.get("quantity_adverbs", []))),
        imperative_endings=tuple(low(entry.get("imperative_endings", []))),
        hyphen_prefixes=frozenset(low(entry.get("hyphen_prefixes", []))),
        function_homographs=frozenset(low(entry.get("function_homographs", []))),
        verb_context=frozenset(low(entry.get("verb_context", []))),
        inversion_subjects=frozenset(low(entry.get("inversion_subjects", []))),
        negative_prefixes=tuple(sorted(low(entry.get("negative_prefixes", [])), key=len, reverse=True)),
        verb_prefixes=tuple(low(entry.get("verb_prefixes", []))),
        singular_subjects=frozenset(low(entry.get("singular_subjects", []))),
        participle_auxiliaries=frozenset(low(entry.get("participle_auxiliaries", []))),
        verbal_auxiliaries=frozenset(low(entry.get("verbal_auxiliaries", []))),
        past_time_words=frozenset(low(entry.get("past_time_words", []))),
        no_verb_after_adposition=bool(entry.get("no_verb_after_adposition", False)),
        reflexive_persons=tuple((str(k).lower(), frozenset(low(v))) for k, v in entry.get("reflexive_persons", {}).items()),
        **_context_fields(entry, low),
    )


def _context_fields(entry: dict[str, Any], low: Any) -> dict[str, Any]:
    """The finite-verb context fields of one language entry (languages without a tagger; see ``morphology.toml``)."""
    return dict(
        copulas=frozenset(low(entry.get("copulas", []))),
        light_adverbs=frozenset(low(entry.get("light_adverbs", []))),
        nonfinite_endings=tuple(low(entry.get("nonfinite_endings", []))),
        no_finite_after=frozenset(low(entry.get("no_finite_after", []))),
        perfect_auxiliaries=frozenset(low(entry.get("perfect_auxiliaries", []))),
        adjective_endings=tuple(low(entry.get("adjective_endings", []))),
        infinitive_endings=tuple(low(entry.get("infinitive_endings", []))),
        clause_links=frozenset(low(entry.get("clause_links", []))),
        modifier_suffixes=tuple(low(entry.get("modifier_suffixes", []))),
        prenominal_alone=bool(entry.get("prenominal_alone", False)),
        multiword_verb_last=bool(entry.get("multiword_verb_last", False)),
        shared_forms=tuple((str(k).lower(), frozenset(low(v))) for k, v in entry.get("shared_forms", {}).items()),
        modifier_endings=tuple(low(entry.get("modifier_endings", []))),
        nonfinite_prefixes=tuple(low(entry.get("nonfinite_prefixes", []))),
        finite_endings=tuple(low(entry.get("finite_endings", []))),
        verb_second=bool(entry.get("verb_second", False)),
        infinitives=frozenset(low(entry.get("infinitives", []))),
        mesoclitic_endings=frozenset(low(entry.get("mesoclitic_endings", []))),
        fused_particles=frozenset(low(entry.get("fused_particles", []))),
        particle_spellings=tuple((str(k).lower(), tuple(low(v))) for k, v in entry.get("particle_spellings", {}).items()),
        initial_verb_endings=tuple(low(entry.get("initial_verb_endings", []))),
        shared_forms_after=tuple((str(k).lower(), frozenset(low(v)))
                                 for k, v in entry.get("shared_forms_after", {}).items()),
        function_after=tuple((str(k).lower(), frozenset(low(v))) for k, v in entry.get("function_after", {}).items()),
        lexical_voice=frozenset(low(entry.get("lexical_voice", []))),
        bare_stem_links=frozenset(low(entry.get("bare_stem_links", []))),
        bare_stem_modifiers=frozenset(low(entry.get("bare_stem_modifiers", []))),
        participle_degree=frozenset(low(entry.get("participle_degree", []))),
        genitive_endings=tuple(low(entry.get("genitive_endings", []))),
        genitive_quantifiers=frozenset(low(entry.get("genitive_quantifiers", []))),
        passive_endings=tuple(low(entry.get("passive_endings", []))),
        nominal_postpositions=frozenset(low(entry.get("nominal_postpositions", []))),
        attributive=frozenset(low(entry.get("attributive", []))),
        lowercase_nouns=bool(entry.get("lowercase_nouns", False)),
        subject_before_finite=bool(entry.get("subject_before_finite", False)),
        inverted_subjects=frozenset(low(entry.get("inverted_subjects", []))),
        fronting_verbs=frozenset(low(entry.get("fronting_verbs", []))),
        lexical_noun_infixes=tuple(low(entry.get("lexical_noun_infixes", []))),
        hunspell_adjectives=bool(entry.get("hunspell_adjectives", False)),
        lexicon_nouns=bool(entry.get("lexicon_nouns", False)),
        quantifiers=frozenset(low(entry.get("quantifiers", []))),
        quantifier_homographs=frozenset(low(entry.get("quantifier_homographs", []))),
        plural_quantifiers=frozenset(low(entry.get("plural_quantifiers", []))),
        quantifier_after=frozenset(low(entry.get("quantifier_after", []))),
        modal_adverbs=frozenset(low(entry.get("modal_adverbs", []))),
        existentials=frozenset(low(entry.get("existentials", []))),
        predicative_verbs=frozenset(low(entry.get("predicative_verbs", []))),
        adverb_homographs=frozenset(low(entry.get("adverb_homographs", []))),
        participle_infixes=tuple(low(entry.get("participle_infixes", []))),
        noun_postpositions=frozenset(low(entry.get("noun_postpositions", []))),
        question_openers=frozenset(low(entry.get("question_openers", []))),
        question_prepositions=frozenset(low(entry.get("question_prepositions", []))),
        deponent_forms=tuple((str(k).lower(), frozenset(low(v))) for k, v in entry.get("deponent_forms", {}).items()),
        clause_initial_homographs=frozenset(low(entry.get("clause_initial_homographs", []))),
        function_phrases=tuple(tuple(re.findall(r"\w+", str(x).lower())) for x in entry.get("function_phrases", [])),
        postnominal_adjectives=bool(entry.get("postnominal_adjectives", False)),
    )
