"""Verb morphology for the verb check: language data and generated (weak) inflections.

The data (separable particles, words allowed after a separated particle, verb
cluster words, optional words of LU lemmas) lives in
``prompts/verbs/morphology.toml``; this module reads it and generates the
regular forms of a verb lemma:

- English: lemminflect's inflections (``getAllInflections``; the rule-based
  ``getAllInflectionsOOV`` for a lemma it does not know).
- Dutch (``weak_inflection = "nl"``): stem (``zetten`` -> ``zet``, ``maken`` ->
  ``maak``, ``leven`` -> ``leef``), present ``stem``/``stem+t``, past by the
  't kofschip rule (``werkte``, ``leefde``, plural ``-ten``/``-den``), participle
  ``ge+stem+t/d`` (no ``ge-`` after ``be- ge- her- er- ont- ver-``).
- German (``weak_inflection = "de"``): stem, present ``-e -st -t -en``, past
  ``-te -test -ten -tet``, participle ``ge+stem+t`` (no ``ge-`` after an
  inseparable prefix or for ``-ieren``), ``e`` inserted after ``t``/``d``
  (``arbeitete``).

- French (``weak_inflection = "fr"``): the regular conjugations of ``-er`` verbs
  (``couche``, ``marchons``, ``lèvera``: ``ç`` / ``ge`` before ``a o``, ``è`` and doubled
  consonants both generated for ``-eler -eter`` and ``e/é + consonant + er``) and of ``-ir``
  verbs of the second group (``finis``, ``finissons``); and (``participles`` table) the past participle of the lemma by its ending
  (``partir`` -> ``parti``, ``ouvrir`` -> ``ouvert``, ``prendre`` -> ``pris``) with its
  agreement forms (``partie``, ``partis``, ``parties``), for "avoir/être + participle".

Strong forms with a vowel change (``sliep``, ``rief``) are not generated: the
lemmatisers know them; the strong participle without one (``ge`` + lemma:
``gelopen``, ``gefahren``) is. A generated non-word costs nothing (it is only compared with tokens);
the rules are written so that they do not produce real forms of other verbs.
"""

from __future__ import annotations

import importlib.abc
import re
import sys
import threading
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import ModuleType
from typing import Any

from fbagent.errors import FbagentError
from fbagent.languages import base_lang

_VOWELS = set("aeiouyäöüáéíóúàèìòùâêîôû")


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


def separable_splits(lemma: str, lang: str) -> list[tuple[str, str]]:
    """Ways to read ``lemma`` as particle + base verb: ``samenvatten`` -> ``[("samen", "vatten")]``.

    Only for languages with ``separable_particles``; the base must be at least
    3 letters and end like an infinitive (``-n``). Longest particle first.
    """
    m = morphology(lang)
    out = []
    for p in m.separable_particles:
        if lemma.startswith(p):
            base = lemma[len(p):]
            if len(base) >= 3 and base.endswith("n") and any(ch in _VOWELS for ch in base):
                out.append((p, base))
    return out


# --------------------------------------------------------------------------- weak inflections


def _strip_prefix(word: str, prefixes: tuple[str, ...]) -> tuple[str, str]:
    for p in prefixes:
        if word.startswith(p) and len(word) - len(p) >= 3:
            return p, word[len(p):]
    return "", word


def _vowel_groups(word: str) -> int:
    groups, prev = 0, False
    for ch in word:
        v = ch in _VOWELS
        if v and not prev:
            groups += 1
        prev = v
    return groups


def _dutch_stems(lemma: str, m: Morphology) -> list[str]:
    """Present stems of a Dutch infinitive (``zetten`` -> zet, ``maken`` -> maak, ``leven`` -> leef)."""
    if not lemma.endswith("en") or len(lemma) < 4:
        return []
    s = lemma[:-2]
    if len(s) >= 2 and s[-1] == s[-2] and s[-1] not in _VOWELS:
        return [s[:-1]]  # zett -> zet, verrekk -> verrek
    stems = [s]
    _, core = _strip_prefix(s, m.inseparable_prefixes + m.separable_particles)
    open_syllable = len(s) >= 3 and s[-1] not in _VOWELS and s[-2] in "aeou" and s[-3] not in _VOWELS
    if open_syllable:
        doubled = s[:-1] + s[-2] + s[-1]  # mak -> maak, lop -> loop
        if _vowel_groups(core) == 1:
            stems = [doubled]
        elif core.endswith(("er", "el")):
            stems = [s, doubled]  # wandel (unstressed) or studeer (stressed): both, non-words are harmless
    return [st[:-1] + {"v": "f", "z": "s"}[st[-1]] if st[-1] in "vz" else st for st in stems]


def _dutch_forms(lemma: str, m: Morphology) -> set[str]:
    forms: set[str] = set()
    last = lemma[-3] if len(lemma) >= 3 else ""
    kofschip = last in "tkfspx" or lemma[:-2].endswith("ch")
    prefixed = bool(_strip_prefix(lemma, m.inseparable_prefixes)[0])
    for stem in _dutch_stems(lemma, m):
        past = "te" if kofschip else "de"
        forms |= {stem, stem + past, stem + past + "n", lemma}
        if not stem.endswith("t"):
            forms.add(stem + "t")
        ending = "" if stem.endswith(("t", "d")) else ("t" if kofschip else "d")
        forms.add(("" if prefixed else "ge") + stem + ending)
    if not prefixed:
        forms.add("ge" + lemma)  # strong participle without vowel change: gelopen, geslapen
    return forms


def _german_forms(lemma: str, m: Morphology) -> set[str]:
    if lemma.endswith(("eln", "ern")):
        stem = lemma[:-1]
    elif lemma.endswith("en") and len(lemma) >= 4:
        stem = lemma[:-2]
    else:
        return set()
    e = "e" if stem.endswith(("t", "d")) or (len(stem) >= 2 and stem[-1] in "mn" and stem[-2] not in _VOWELS | set("lrhmn")) else ""
    st = "t" if stem.endswith(("s", "ß", "z", "x")) else "st"
    forms = {stem, stem + "e", stem + e + st, stem + e + "t", lemma}
    forms |= {stem + e + s for s in ("te", "test", "ten", "tet")}
    no_ge = bool(_strip_prefix(lemma, m.inseparable_prefixes)[0]) or lemma.endswith("ieren")
    forms.add(("" if no_ge else "ge") + stem + e + "t")
    if not no_ge:
        forms.add("ge" + lemma)  # strong participle without vowel change: gefahren, gelesen
    return forms


def past_participles(lemma: str, lang: str) -> frozenset[str]:
    """The past participle of ``lemma`` and its agreement forms, for a language with a ``participles``
    table (French): ``ouvrir`` -> ``{ouvert, ouverte, ouverts, ouvertes}``; ``prendre`` -> ``{pris,
    prise, prises}``. Empty for other languages or a lemma no ending fits. Generated, not looked up:
    the verb check counts one only where a lexicon or the sentence's analyser knows it."""
    m = morphology(lang)
    lemma = lemma.lower()
    for ending, participle in m.participles:
        if lemma.endswith(ending):
            p = lemma[: len(lemma) - len(ending)] + participle
            stem = p[:-1] + "u" if p.endswith("û") else p  # dû -> due, dus
            plural = p if p.endswith(("s", "x")) else stem + "s"
            return frozenset({p, stem + "e", plural, stem + "es"})
    return frozenset()


_FR_ER = {
    "present": ("e", "es", "e", "ons", "ez", "ent"), "imperfect": ("ais", "ait", "ions", "iez", "aient"),
    "simple_past": ("ai", "as", "a", "âmes", "âtes", "èrent"), "subjunctive": ("ions", "iez"),
    "past_subjunctive": ("asse", "asses", "ât", "assions", "assiez", "assent"), "participle": ("ant",),
}
_FR_FUTURE = ("ai", "as", "a", "ons", "ez", "ont", "ais", "ait", "ions", "iez", "aient")
_FR_IR = ("is", "it", "issons", "issez", "issent", "issais", "issait", "issions", "issiez", "issaient", "îmes",
          "îtes", "irent", "isse", "isses", "ît", "issant", "irai", "iras", "ira", "irons", "irez", "iront", "irais",
          "irait", "irions", "iriez", "iraient")


def _french_forms(lemma: str, m: Morphology) -> set[str]:
    """Regular conjugated forms of a French ``-er`` or second-group ``-ir`` lemma (see the module doc)."""
    forms: set[str] = set()
    if lemma.endswith("ir") and len(lemma) > 3:
        forms |= {lemma[:-2] + e for e in _FR_IR}
    if not lemma.endswith("er") or len(lemma) < 4:
        return forms
    stem = lemma[:-2]
    soft = stem + ("ç" if stem.endswith("c") else "e" if stem.endswith("g") else "")  # before a / o
    for endings in _FR_ER.values():
        forms |= {(soft if e[0] in "aâo" else stem) + e for e in endings}
    forms |= {lemma + e for e in _FR_FUTURE}
    # stressed stems (before a mute e): lève / appelle / jette / paie
    stressed = []
    if len(stem) >= 3 and stem[-2] in "eé" and stem[-1] not in _VOWELS:
        stressed.append(stem[:-2] + "è" + stem[-1])
        if stem.endswith(("el", "et")):
            stressed.append(stem + stem[-1])
    if stem.endswith("y"):
        stressed.append(stem[:-1] + "i")
    for st in stressed:
        forms |= {st + e for e in ("e", "es", "ent")} | {st + "er" + e for e in _FR_FUTURE}
    return forms


#: held while lemminflect is imported with spaCy hidden (:func:`lemminflect_module`) and while fbagent imports spaCy
#: (:func:`fbagent.checks.analysers.spacy_pipeline`), so that neither import sees the other's half-done state
SPACY_IMPORT_LOCK = threading.Lock()


def lemminflect_module() -> ModuleType:
    """The lemminflect module; :class:`FbagentError` when it is not installed (a core dependency).

    lemminflect's ``__init__`` imports spaCy whenever it is installed, only to register spaCy ``Token``
    extensions (``token._.lemma``, ``token._.inflect``) that fbagent never uses; through thinc that import
    loads torch: 1.8 s of CPU of the 1.9 s ``import lemminflect`` took (measured), in every English
    ``generate`` and on the event loop's machine while the first entries run. When spaCy is not loaded yet it
    is hidden from that import (a finder first on ``sys.meta_path`` answers "no module named spacy", which
    lemminflect catches), under :data:`SPACY_IMPORT_LOCK`. Deferred (imported here, not at module level) for the
    same reason: English only, 0.3 s of CPU for its tables.
    """
    loaded = sys.modules.get("lemminflect")
    if loaded is not None:   # every word asks: the import below once
        return loaded
    with SPACY_IMPORT_LOCK:
        hider = _HideSpacy() if "spacy" not in sys.modules else None
        if hider is not None:
            sys.meta_path.insert(0, hider)
        try:
            import lemminflect
        except ImportError as err:  # a broken install, not a fallback
            raise FbagentError("lemminflect is not installed (English verb lemmas and forms)",
                               "reinstall fbagent with its dependencies: pip install -e . (or pip install lemminflect)") from err
        finally:
            if hider is not None:
                sys.meta_path.remove(hider)
    return lemminflect


class _HideSpacy(importlib.abc.MetaPathFinder):
    """An import finder for which spaCy is not installed (see :func:`lemminflect_module`)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> None:
        if fullname == "spacy" or fullname.startswith("spacy."):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def _english_forms(lemma: str) -> set[str]:
    lemminflect = lemminflect_module()
    found = lemminflect.getAllInflections(lemma, upos="VERB") or lemminflect.getAllInflectionsOOV(lemma, upos="VERB")
    return {f.lower() for forms in found.values() for f in forms}


@lru_cache(maxsize=16384)
def english_participles(lemma: str) -> frozenset[str]:
    """The past participles of the English verb ``lemma`` (lemminflect, tag VBN): ``cut`` -> {"cut"},
    ``open`` -> {"opened"}. Raises :class:`FbagentError` when lemminflect is missing."""
    lemminflect = lemminflect_module()
    found = lemminflect.getAllInflections(lemma, upos="VERB") or lemminflect.getAllInflectionsOOV(lemma, upos="VERB")
    return frozenset(f.lower() for f in found.get("VBN", ()))


@lru_cache(maxsize=16384)
def inflections(lemma: str, lang: str) -> frozenset[str]:
    """Generated forms of a one-word verb ``lemma`` (lower case), the lemma included.

    English: lemminflect; French: the past participles (:func:`past_participles`); Dutch and
    German: the weak rules of the module doc,
    and for a separable verb also particle + each joined form of the base
    (``samengevat``, ``opbelde``) and, in German, particle + ``zu`` + base
    (``anzurufen``). Other languages: ``{lemma}``. Shapes: a frozenset of str.

    Raises :class:`FbagentError` when lemminflect is missing (English).
    """
    lemma = lemma.lower()
    m = morphology(lang)
    forms: set[str] = {lemma}
    if m.lang == "en":
        forms |= _english_forms(lemma)
        return frozenset(forms)
    forms |= past_participles(lemma, lang)
    rules = {"nl": _dutch_forms, "de": _german_forms, "fr": _french_forms}.get(m.weak_inflection)
    if rules is None:
        return frozenset(forms)
    forms |= rules(lemma, m)
    for particle, base in separable_splits(lemma, lang):
        joined = rules(base, m)
        forms |= {particle + f for f in joined}
        if m.infinitive_marker and m.lang == "de":
            forms.add(particle + m.infinitive_marker + base)
    return frozenset(forms)
