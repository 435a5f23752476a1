"""Lemma sources of the verb check (fbagent.checks.verb_match), by language.

A lemma source maps the words of one sentence, as written, to one set of
lower-cased lemmas per word (:data:`LemmaSource`). :func:`lemma_sources` says
which ones a language uses:

- English: lemminflect (every verb reading of a word) and simplemma;
- Dutch, German: simplemma and HanTa (the Hanover Tagger, LGPL, pure Python,
  models shipped in the package; loaded by :mod:`fbagent.checks.analysers`): HanTa tags the
  whole sentence, so ``stand`` in "Er stand ... auf" is ``stehen`` (simplemma: the noun
  ``Stand``) and ``verrekte`` is ``verrekken`` (simplemma: ``verrekt``);
- the other languages simplemma has a dictionary for (50+, e.g. French): simplemma;
- any other language: none (:func:`lemmatizer_note` says how the check then works).

The part of speech of each word, and the lemma in context of the analyser that gives it (HanTa
for English too, spaCy for French), come from :mod:`fbagent.checks.analysers`. Japanese uses
fugashi/UniDic (``pip install 'fbagent[ja]'``; :func:`require_verb_analyser` refuses a run
without it).
A missing dependency raises :class:`fbagent.errors.FbagentError` naming the
package; results are cached per word or sentence, failures never are.
Measured per source on 90 sentences: ``benchmarks/bench_verbs.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from types import ModuleType

from fbagent.checks import analysers
from fbagent.checks.analysers import hanta_tagger, tagger_name
from fbagent.checks.paradigms import inflections, lemminflect_module
from fbagent.errors import FbagentError
from fbagent.languages import base_lang, written_without_spaces

try:
    import simplemma
except ImportError:   # a core dependency: a broken install; _simplemma() raises naming the package
    simplemma = None  # type: ignore[assignment]
try:
    from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES
except ImportError:   # simplemma missing, or older than 1.0 (another layout): simplemma_languages() raises
    SUPPORTED_LANGUAGES = None  # type: ignore[assignment]
try:
    import fugashi  # type: ignore[import-not-found]
except ImportError:   # the "ja" extra is not installed: Japanese uses the kana-stem fallback (lemmatizer_note says so)
    fugashi = None

__all__ = [
    "HANTA_LEMMA_LANGS", "SOURCES", "LemmaSource", "analyser_note", "clear_caches", "hanta_source", "hanta_tagger",
    "lemma_sources", "lemmatizer_note", "lemminflect_source", "register_dependent_cache", "require_verb_analyser",
    "simplemma_languages", "simplemma_source", "token_lemmas",
]

HANTA_LEMMA_LANGS = ("de", "nl")  # languages whose lemma sources include HanTa's lemma in context

# A lemma source: (the sentence's words as written, base language) -> one set of lower-cased lemmas per word.
LemmaSource = Callable[[Sequence[str], str], list[frozenset[str]]]


def _simplemma() -> ModuleType:
    """The simplemma module; raises :class:`FbagentError` when it is not installed (a broken install, not a
    fallback)."""
    if simplemma is None:
        raise FbagentError("simplemma is not installed (lemmas for the verb check)",
                           "reinstall fbagent with its dependencies: pip install -e . (or pip install simplemma)")
    return simplemma


@lru_cache(maxsize=1)
def simplemma_languages() -> frozenset[str]:
    """Language codes simplemma has a dictionary for (54 in simplemma 2.0).

    Raises :class:`FbagentError` when simplemma is not installed or older than 1.0.
    """
    _simplemma()
    if SUPPORTED_LANGUAGES is None:  # layout of simplemma < 1.0
        raise FbagentError("this simplemma version is too old for fbagent", "pip install 'simplemma>=1.0'")
    return frozenset(SUPPORTED_LANGUAGES)


@lru_cache(maxsize=131072)
def _simplemma_word(word: str, code: str) -> str:
    return _simplemma().lemmatize(word, lang=code).lower()


@lru_cache(maxsize=131072)
def _simplemma_knows(word: str, code: str) -> bool:
    return bool(_simplemma().is_known(word, lang=code))


@lru_cache(maxsize=131072)
def _lemminflect_word(word: str) -> frozenset[str]:
    return frozenset(x.lower() for x in lemminflect_module().getAllLemmas(word, upos="VERB").get("VERB", ()))


def simplemma_source(words: Sequence[str], code: str) -> list[frozenset[str]]:
    """simplemma's lemma of each lower-cased word (one lemma per word, no context)."""
    return [frozenset({_simplemma_word(w.lower(), code)}) for w in words]


def lemminflect_source(words: Sequence[str], code: str) -> list[frozenset[str]]:
    """lemminflect's English verb lemmas of each word (all readings, no context)."""
    return [_lemminflect_word(w.lower()) for w in words]


def hanta_source(words: Sequence[str], code: str) -> list[frozenset[str]]:
    """HanTa's lemma of each word, tagged as one sentence (context decides ``stand`` -> ``stehen``)."""
    if code not in HANTA_LEMMA_LANGS or not words:
        return [frozenset() for _ in words]
    return [frozenset({lemma.lower()}) for lemma, _ in analysers.hanta_sentence(tuple(words), code)]


# caches of other modules built on the lemma sources (fbagent.checks.verb_match's per-sentence analysis): emptied with these
_DEPENDENT_CACHES: list[Callable[[], None]] = []


def register_dependent_cache(cache_clear: Callable[[], None]) -> None:
    """Have :func:`clear_caches` also call ``cache_clear`` (a cache whose values come from the lemma sources)."""
    _DEPENDENT_CACHES.append(cache_clear)


def clear_caches() -> None:
    """Empty the per-word and per-sentence lemma caches and those built on them (the loaded HanTa models
    stay); for timing runs and tests."""
    for fn in (_simplemma_word, _simplemma_knows, _lemminflect_word, inflections, _token_lemmas):
        fn.cache_clear()
    analysers.clear_caches()
    for cache_clear in _DEPENDENT_CACHES:
        cache_clear()


SOURCES: dict[str, LemmaSource] = {
    "lemminflect": lemminflect_source,
    "simplemma": simplemma_source,
    "hanta": hanta_source,
}


def lemma_sources(lang: str) -> tuple[str, ...]:
    """Names of the lemma sources used for ``lang`` (keys of :data:`SOURCES`); empty: no lemmatiser."""
    code = base_lang(lang)
    if code == "en":
        return ("lemminflect", "simplemma")
    if code in HANTA_LEMMA_LANGS:
        return ("simplemma", "hanta")
    if code in simplemma_languages():
        return ("simplemma",)
    return ()


def lemmatizer_note(lang: str) -> str | None:
    """One line saying how the verb check works without a lemmatiser for ``lang``; None when one covers it.

    Japanese gets a note only when fugashi is not installed.
    """
    code = base_lang(lang)
    if code == "ja":
        if _fugashi_tagger() is not None:
            return None
        return ("no morphological analyser for Japanese (fugashi not installed): the verb check looks for the "
                "dictionary form minus its final kana; pip install 'fbagent[ja]' for lemma matching")
    if written_without_spaces(code) or lemma_sources(code):
        return None
    return (f"no lemmatiser for language {lang!r}: the verb check accepts the lemma as written, the generator's "
            "declared verb_form (when it shares its first letter or 3 letters in a row with the lemma) and words "
            "sharing a long prefix with the lemma")


def analyser_note(lang: str, *, surface_verb_match: bool = False) -> str:
    """One line saying what serves the verb check of ``lang`` (said once per run and per calibration):
    the part-of-speech analyser and the lemma sources, or that none does and what the check then accepts.

    ``surface_verb_match``: the run accepted Japanese surface matching without fugashi
    (:func:`require_verb_analyser`). Raises :class:`FbagentError` for a fugashi without its dictionary.
    """
    code = base_lang(lang)
    if code == "ja":
        if _fugashi_tagger() is not None:
            return "verb check for 'ja': fugashi + UniDic (part of speech, lemma and reading: kana and kanji spellings meet)"
        how = "accepted by the run's surface-verb-match option" if surface_verb_match else "not installed"
        return (f"verb check for 'ja': no morphological analyser (fugashi {how}): the dictionary form minus its final "
                "kana is matched as written, nouns sharing it pass; pip install 'fbagent[ja]'")
    if note := lemmatizer_note(code):
        return f"verb check for {lang!r}: {note}"
    sources = ", ".join(lemma_sources(code)) or "none"
    tagger = tagger_name(code)
    if tagger is None:
        return (f"verb check for {lang!r}: lemmas by {sources}; no part-of-speech analyser for this language, "
                "so a noun spelled like a form of the verb may pass")
    return f"verb check for {lang!r}: part of speech by {tagger}; lemmas by {sources} and the analyser in context"


def require_verb_analyser(lang: str, *, surface_verb_match: bool = False) -> None:
    """Refuse a Japanese run whose verb check would have no analyser (fugashi not installed).

    Without fugashi the Japanese verb check can only match the dictionary form minus its last kana
    as written, so nouns (出口, 出発 for 出る) pass and a kana LU (とる) misses its kanji spelling (取った).
    ``surface_verb_match=True`` accepts that (the caller records it with the run). Other languages: no-op.

    Raises :class:`FbagentError` naming the ``ja`` extra.
    """
    if base_lang(lang) == "ja" and not surface_verb_match and _fugashi_tagger() is None:
        raise FbagentError("the Japanese verb check needs fugashi with UniDic, which is not installed (without it "
                           "nouns such as 出口 pass as 出る and kana LUs miss their kanji spellings)",
                           "pip install 'fbagent[ja]', or pass --surface-verb-match to accept today's surface match")


@lru_cache(maxsize=1)
def _fugashi_tagger() -> fugashi.Tagger | None:
    if fugashi is None:
        return None  # optional extra fbagent[ja]: the kana-stem fallback applies (lemmatizer_note says so)
    try:
        return fugashi.Tagger()
    except RuntimeError as err:  # fugashi without a dictionary
        raise FbagentError(f"fugashi is installed but cannot load a dictionary ({err})",
                           "pip install unidic-lite (or pip install 'fbagent[ja]')") from err


def token_lemmas(token: str, lang: str) -> frozenset[str]:
    """Candidate lemmas of one lower-cased word out of context: the token plus each context-free source's
    lemmas (cached per word and base language)."""
    return _token_lemmas(token, base_lang(lang))


@lru_cache(maxsize=131072)
def _token_lemmas(token: str, code: str) -> frozenset[str]:
    out = {token}
    for name in lemma_sources(code):
        if name != "hanta":
            out |= SOURCES[name]([token], code)[0]
    return frozenset(out)
