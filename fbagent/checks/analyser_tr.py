"""Turkish morphological readings from zeyrek (issue 41): every analysis of one word, out of context.

zeyrek 0.1.3 (MIT; a Python port of Zemberek-NLP's rule-based analyser, lexicon and morphotactics shipped in the
wheel, Apache-2.0; extra ``fbagent[tr]``) gives each analysis of a Turkish word as its dictionary item (lemma and
part of speech) and its morpheme chain: "vardı" is varmak's past (arrived) and the existential "var" + past copula;
"öldürdü" is öldürmek's past and ölmek + causative + past; "dolması" is the noun "dolma" + 3rd person possessive and
dolmak's verbal noun (-mA). The verb check's Turkish rules (:mod:`fbagent.checks.verb_lexicon_slots`) read these
in place of hand lists: whether a word the conjugation tables do not make is a form of the verb (:func:`own_verb_form`,
asked only of words that begin with the verb's stem) and whether a form also has a lexical noun or existential
reading (:func:`tr_readings`, asked only of the target's forms and the words its rules look at).

Loading the lexicon takes 3-11 s of CPU once per process (lazy: only a Turkish sentence loads it); a word takes
1-10 ms and is cached (:data:`WORD_CACHE_SIZE`). Without the package every function returns an empty answer and
:func:`has_zeyrek` is False (:mod:`fbagent.checks.coverage` then refuses a Turkish run under ``--verb-check auto``,
naming the extra).
"""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import dataclass
from functools import lru_cache

#: words whose readings are kept (a generated benchmark's vocabulary is far smaller)
WORD_CACHE_SIZE = 65536


@dataclass(frozen=True)
class TrReading:
    """One analysis of a word: ``lemma`` (the dictionary item's lemma: "varmak", "var", "dolma"), ``item_pos``
    (the item's own part of speech: ``Verb``, ``Noun``, ``Adj``, ``Postp``, ...), ``pos`` (the part of speech
    of the whole word after its derivations: "göndermeniz" is a ``Noun`` of the ``Verb`` item göndermek) and
    ``morphemes`` (zeyrek's morpheme ids in order: ``("Verb", "Caus", "Verb", "Past", "A3sg")``)."""

    lemma: str
    item_pos: str
    pos: str
    morphemes: tuple[str, ...]

    @property
    def verb_item(self) -> bool:
        """Whether the dictionary item is a verb (its lemma then ends in -mak/-mek)."""
        return self.item_pos == "Verb"


def has_zeyrek() -> bool:
    """Whether zeyrek is installed (its import is not attempted)."""
    return importlib.util.find_spec("zeyrek") is not None


@lru_cache(maxsize=1)
def _analyser() -> object | None:
    """zeyrek's analyser, loaded once per process (its per-result warning log silenced); None without zeyrek."""
    if not has_zeyrek():
        return None
    import zeyrek

    logging.getLogger("zeyrek.rulebasedanalyzer").setLevel(logging.ERROR)
    logging.getLogger("zeyrek.morphotactics").setLevel(logging.ERROR)
    return zeyrek.MorphAnalyzer()


@lru_cache(maxsize=WORD_CACHE_SIZE)
def tr_readings(word: str) -> tuple[TrReading, ...]:
    """Every zeyrek analysis of ``word`` (one token, any case; zeyrek lower-cases it the Turkish way), in zeyrek's
    order; empty where zeyrek is not installed or does not know the word."""
    analyser = _analyser()
    if analyser is None or not word:
        return ()
    out = []
    for a in analyser._parse(word):  # type: ignore[attr-defined]  # one word: the public analyze() needs nltk's punkt data
        if a is None:
            continue
        item = a.dict_item
        out.append(TrReading(str(item.lemma), str(item.primary_pos.value), str(a.pos.value),
                             tuple(str(m[0].id_) for m in a.morphemes)))
    return tuple(out)


#: zeyrek's voice and lexeme-forming derivations: a verb of its own in the lexicon's sense ("anlattı" is anlatmak,
#: not anlamak; "bulunuyor" is bulunmak; "Yazıcı", "Giriş" are nouns)
DERIVATIONS = frozenset({"Caus", "Pass", "Recip", "Reflex", "Agt", "Inf3", "ActOf", "NotState", "FeelLike",
                         "EverSince", "Almost", "Hastily", "Stay", "Start", "Repeat", "Become", "Acquire"})
#: the infinitives a person-marked verbal noun is made with ("göndermeniz gerekiyor": a clause of its own)
VERBAL_NOUNS = frozenset({"Inf1", "Inf2"})
POSSESSIVES = frozenset({"P1sg", "P2sg", "P3sg", "P1pl", "P2pl", "P3pl"})


def own_verb_form(word: str, lemma: str) -> bool:
    """Whether every zeyrek analysis of ``word`` is of a verb item and one of them is ``lemma`` inflected without
    a voice or lexeme-forming derivation (:data:`DERIVATIONS`): a finite form, or a verbal noun with a person
    ("göndermeniz"). A word with any noun, adjective, adverb or postposition reading is left to the tables and the
    rules ("için", "dolması"); False without zeyrek. A word that does not begin with the lemma's stem (its last
    letter aside) is not analysed."""
    stem = lemma[:-3] if lemma.endswith(("mak", "mek")) else lemma
    if not word.lower().startswith(stem[:max(1, len(stem) - 1)]):
        return False   # a form begins with its stem (its last letter may alternate: "gitmek" -> "gidiyor"): no analysis
    readings = tr_readings(word)
    if not readings or not all(r.verb_item for r in readings):
        return False
    return any(r.lemma == lemma and not DERIVATIONS & set(r.morphemes)
               and (r.pos == "Verb" or VERBAL_NOUNS & set(r.morphemes) and POSSESSIVES & set(r.morphemes))
               for r in readings)


def optative_of(word: str, lemma: str) -> bool:
    """Whether a zeyrek analysis of ``word`` is ``lemma``'s 3rd person optative ("koşa" of koşmak), the form that
    doubled is the converb of manner ("koşa koşa geldi": Göksel & Kerslake 2005, 8.5.2.3, -(y)A -(y)A); False
    without zeyrek."""
    stem = lemma[:-3] if lemma.endswith(("mak", "mek")) else lemma
    return word.lower().startswith(stem[:max(1, len(stem) - 1)]) and any(
        r.verb_item and r.lemma == lemma and r.morphemes[1:] == ("Opt", "A3sg") for r in tr_readings(word))


def clear_caches() -> None:
    """Empty the per-word cache (the loaded analyser stays)."""
    tr_readings.cache_clear()
