"""Generated (weak) inflections of a verb lemma for the verb check, from the language data of
:mod:`fbagent.checks.morphology` (``prompts/verbs/morphology.toml``): the regular forms of a verb lemma:

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
import sys
import threading
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType

from fbagent.checks.morphology import Morphology, morphology
from fbagent.errors import FbagentError

_VOWELS = set("aeiouyäöüáéíóúàèìòùâêîôû")


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
