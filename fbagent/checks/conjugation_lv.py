"""Latvian verb forms for the verb check: the paradigm of an infinitive by its conjugation class.

Latvian verbs fall into three conjugations by their infinitive and present stems (Nītiņa & Grigorjevs
2013, *Latviešu valodas gramatika*, §§ 1080-1140; Mathiassen 1997, *A Short Grammar of Latvian*, ch. 5):

- 1st: one-syllable stems, the present and past stems are listed (``nākt``: ``nāku``, ``nācu``;
  ``iet``: ``eju``, ``gāju``): the ``irregular`` table of ``prompts/verbs/morphology.toml`` and
  simplemma's dictionary; the regular endings are generated on the infinitive stem too (``nāk``:
  ``nāku``, ``nāks``, ``nākdams``), with ``k/g`` -> ``c/dz`` before a front vowel (``nāca``, ``nācis``);
- 2nd: ``-āt``, ``-ēt``, ``-īt``, ``-ot`` with ``j`` before the endings (``runāt``: ``runāju``,
  ``runā``, ``runājam``, ``runāja``, ``runājis``);
- 3rd: ``-ēt``, ``-īt``, ``-ināt``, ``-āt`` whose present drops the stem vowel (``redzēt``: ``redzu``,
  ``redz``, ``redzam``; past ``redzēju``; ``mācīt``: ``mācu``, ``māca``, ``mācām``).

An ``-ēt`` / ``-īt`` / ``-āt`` verb gets both patterns (a generated non-word is only compared with
tokens). Every tense, mood and participle is generated: future (``-šu``, ``-s``, ``-sim``),
conditional (``-tu``), imperative (``-iet``), the debitive (``jā`` + the 3rd person present:
``jārunā``, ``jāredz``), participles (``-is/-usi/-uši``, ``-ts/-ta/-ti``, ``-ošs``, ``-dams/-dama``,
``-ot``, ``-ams``, and the definite endings ``-tais``, ``-ošais``). Reflexive verbs in ``-ties``
(``mazgāties``) take the reflexive endings (``mazgājos``, ``mazgājas``, ``mazgājās``, ``mazgāsies``,
``mazgājies``, ``mazgājoties``). A prefixed verb keeps its prefix (``aiziet``: ``aizgāja``), and the
``irregular`` forms of its base verb are prefixed with it. The negation ``ne-`` and the debitive
``jā-`` stand before the prefix: the verb check strips them (``negative_prefixes``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

_PRESENT2 = ("ju", "", "jam", "jat", "j", "jot", "jams", "jama", "jami", "jamas", "jošs", "joša", "joši", "jošas",
             "jošais", "jošā", "jiet", "jiem")
_PRESENT3 = ("u", "i", "", "am", "at", "a", "ām", "āt", "ot", "ams", "ama", "ami", "amas", "āms", "āma", "ošs", "oša",
             "oši", "ošas", "ošais", "iet")
_PAST = ("ju", "ji", "ja", "jām", "jāt", "jis", "jusi", "juši", "jušas", "jušo", "jušā", "jušais", "jušie")
_FROM_INFINITIVE = ("šu", "si", "s", "sim", "siet", "sit", "tu", "ts", "ta", "ti", "tas", "to", "tā", "tais", "tie",
                    "tās", "tajā", "dams", "dama", "dami", "damas", "šot", "šos")
_FIRST = ("u", "i", "", "am", "at", "a", "ām", "āt", "is", "usi", "uši", "ušas", "ot", "ošs", "oša", "ams", "ama",
          "iet", "ta", "ts", "ti")
#: the 2nd conjugation's reflexive present (mazgājas, mazgājamies, mazgājoties): only where that class is the verb's
_REFLEXIVE2 = ("jas", "jamies", "jaties", "joties", "jieties")
#: the reflexive past on the -j- past stem of the 2nd and 3rd conjugations (mācījos, mācījās, mācījušies); jos / jies
#: are also the 2nd conjugation's present
_REFLEXIVE_PAST = ("jos", "jies", "jās", "jāmies", "jāties", "jusies", "jušies", "jušās")
_REFLEXIVE3 = ("os", "ies", "as", "amies", "aties", "ās", "āmies", "āties", "oties", "usies", "ušies", "ušās",
               "ieties")
_REFLEXIVE_INF = ("šos", "sies", "simies", "sieties", "sities", "tos", "damies", "damās")
_SOFTEN = {"k": "c", "g": "dz"}


def lv_forms(lemma: str, irregular: Iterable[tuple[str, frozenset[str]]] = (), prefixes: Iterable[str] = (),
             classes: tuple[bool, bool] = (True, True)) -> set[str]:
    """The generated forms of the Latvian verb ``lemma`` (lower case; see the module doc), the lemma
    included; ``irregular``: (verb, listed forms) pairs whose forms a prefixed ``lemma`` takes with its
    prefix (``prefixes``: the verbal prefixes, ``aiz``, ``at``, ``iz``, ...); ``classes``: whether the
    2nd-conjugation present (``runāju``) and the 3rd-conjugation present (``runu``) of an ``-āt`` / ``-ēt``
    / ``-īt`` verb are generated (:func:`lv_classes` decides; both by default). Empty for a word that is
    not an infinitive (``-t`` / ``-ties``)."""
    lemma = lemma.lower()
    reflexive = lemma.endswith("ties")
    base = lemma[:-3] if reflexive else lemma
    if not base.endswith("t") or len(base) < 3:
        return set()
    s0 = base[:-1]                      # runā, redzē, mācī, nāk, ie
    forms = {lemma}
    stems3 = [s0[:-1]] if s0[-1] in "āēī" and len(s0) > 2 and classes[1] else []
    if s0.endswith("inā"):
        stems3.append(s0[:-1])
    consonant = s0[-1] not in "aāeēiīoōuū"
    if reflexive:
        forms |= {s0 + e for e in (*_REFLEXIVE_INF, *_REFLEXIVE_PAST)}
        if classes[0] or not stems3:
            forms |= {s0 + e for e in _REFLEXIVE2}
        forms |= {c + e for c in stems3 for e in _REFLEXIVE3}
        if consonant:
            forms |= {s0 + e for e in _REFLEXIVE3}
            forms |= {s0[:-1] + _SOFTEN[s0[-1]] + e for e in ("ies", "ies", "os", "ās") if s0[-1] in _SOFTEN}
    else:
        forms |= {s0 + e for e in (*_PAST, *_FROM_INFINITIVE)}
        if not consonant and (classes[0] or not stems3):
            forms |= {s0 + e for e in _PRESENT2}
        forms |= {c + e for c in stems3 for e in _PRESENT3}
        if consonant:
            forms |= {s0 + e for e in _FIRST}
            if s0[-1] in _SOFTEN:
                soft = s0[:-1] + _SOFTEN[s0[-1]]
                forms |= {soft + e for e in ("", "u", "i", "a", "ām", "āt", "is", "iet")}
    for verb, listed in irregular:
        if lemma == verb:
            forms |= listed
        elif lemma.endswith(verb) and lemma[: -len(verb)] in set(prefixes):
            forms |= {lemma[: -len(verb)] + f for f in listed}
    return forms


def lv_classes(lemma: str, lemmatize: Callable[[str], str], known: Callable[[str], bool]) -> tuple[bool, bool]:
    """Which present an ``-āt`` / ``-ēt`` / ``-īt`` verb ``lemma`` has: (2nd conjugation, 3rd conjugation),
    asked of a dictionary (``lemmatize(word) -> lemma``, ``known(word) -> bool``: simplemma's) on the 1st
    person plural, where the classes differ and no past form interferes: ``runājam`` (2nd) vs ``runam``
    (3rd; simplemma: the noun *runa*) -> (True, False); ``mācām`` -> (False, True); a reflexive verb is asked
    on its reflexive forms (``vēlamies``: ``vēlam`` alone is the adjective *vēls*). (True, True) when the
    dictionary knows neither or both (``raudāt``), or for any other infinitive."""
    lemma = lemma.lower()
    base = lemma[:-3] if lemma.endswith("ties") else lemma
    s0 = base[:-1]
    if not base.endswith("t") or len(s0) < 3 or s0[-1] not in "āēī" or s0.endswith("inā"):
        return (True, True)
    reflexive = "ies" if lemma != base else ""   # vēlēties: vēlējamies (2nd) vs vēlamies (3rd)
    second = known(s0 + "jam" + reflexive) and lemmatize(s0 + "jam" + reflexive) == lemma
    third = any(known(s0[:-1] + e + reflexive) and lemmatize(s0[:-1] + e + reflexive) == lemma for e in ("am", "ām"))
    return (True, True) if second == third else (second, third)


#: root-final alternations of the 1st and 3rd conjugations (ciest: cietu, cieš; samalt: samaļ; nosacīt: nosaku;
#: lūgt: lūdz) and of vowel length (izlemt: izlēmu); the present infix -st- (norimt: norimst) and -j- (kāpt: kāpj)
_ALTERNATE = {"t": "(?:t|d|s|š|ž)", "d": "(?:d|t|s|š|ž)", "s": "(?:s|š|t|d|ž)", "z": "(?:z|ž|d|t)", "k": "(?:k|c)",
              "g": "(?:g|dz)", "c": "(?:c|k)", "l": "(?:l|ļ)", "n": "(?:n|ņ)", "e": "(?:e|ē)", "ē": "(?:e|ē)",
              "i": "(?:i|ī|e)", "ī": "(?:i|ī)", "a": "(?:a|ā)", "ā": "(?:a|ā)", "u": "(?:u|ū)", "ū": "(?:u|ū)"}
_ENDINGS = sorted({*_PRESENT2, *_PRESENT3, *_PAST, *_FROM_INFINITIVE, *_FIRST, *_REFLEXIVE2, *_REFLEXIVE_PAST, *_REFLEXIVE3,
                   *_REFLEXIVE_INF, "usi", "uši", "ušas", "ušies", "usies", "ušo", "ušais", "ot", "oties"} - {""},
                  key=len, reverse=True)


@lru_cache(maxsize=4096)
def lv_root_pattern(lemma: str) -> re.Pattern[str] | None:
    """A regular expression for forms of the Latvian verb ``lemma`` whose root alternates (see
    :data:`_ALTERNATE`): the infinitive stem without its last vowel, its last two letters with their
    alternations, an optional present infix, and any verbal ending; None for a root under 3 letters and for
    the 2nd-conjugation and causative classes, whose root never alternates (``-ot``, ``-ināt``: ``slimot``
    has no form ``slims``; the adjective is refused)."""
    lemma = lemma.lower()
    base = lemma[:-3] if lemma.endswith("ties") else lemma
    if not base.endswith("t") or base.endswith(("ot", "ināt")):
        return None
    root = base[:-1]
    if root and root[-1] in "aāeēiīoōuū" and len(root) > 3:
        root = root[:-1]
    if len(root) < 4:
        return None
    head, tail = root[:-2], root[-2:]
    tail_re = "".join(_ALTERNATE.get(ch, re.escape(ch)) for ch in tail)
    endings = "|".join(re.escape(e) for e in _ENDINGS)
    return re.compile(f"{re.escape(head)}{tail_re}(?:st|j)?(?:{endings})?")


#: active participles declined as adjectives: present -oš- (dziedošs, dziedošu), past -uš- (nokritušās)
_PARTICIPLE = re.compile(r"^(.{2,}?)(oš|uš)(s|a|u|o|ie|as|ās|ais|ā|am|ai|iem|ām|ajā|ajam|ajai|ajiem|ajām|os|ajos|i|ajās)$")


def lv_participle(token: str, forms: set[str] | frozenset[str]) -> bool:
    """Whether ``token`` is a declined active participle of the verb whose forms are ``forms``: the present
    participle is the 3rd-person present plus ``-oš-`` and an adjective ending (dzied -> dziedošu, dziedošās),
    the past participle the past stem plus ``-uš-`` (nokrita -> nokritušās, nokritušo); Latvian grammar
    (Nītiņa & Grigorjevs 2013, *Latviešu valodas gramatika*, participles, §§ on -ošs and -is/-usi)."""
    m = _PARTICIPLE.match(token)
    if m is None:
        return False
    stem, kind = m.group(1), m.group(2)
    if kind == "oš":
        return stem in forms
    return stem + "a" in forms or stem + "is" in forms or stem + "usi" in forms
