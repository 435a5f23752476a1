"""Lemma sources of the verb check (fbagent.checks.verb_match), by language.

A lemma source maps the words of one sentence, as written, to one set of
lower-cased lemmas per word (:data:`LemmaSource`). :func:`lemma_sources` says
which ones a language uses:

- English: lemminflect (every verb reading of a word) and simplemma;
- Dutch, German: simplemma and HanTa (the Hanover Tagger, LGPL, pure Python,
  models shipped in the package): HanTa tags the whole sentence, so ``stand``
  in "Er stand ... auf" is ``stehen`` (simplemma: the noun ``Stand``) and
  ``verrekte`` is ``verrekken`` (simplemma: ``verrekt``);
- the other languages simplemma has a dictionary for (50+, e.g. French): simplemma;
- any other language: none (:func:`lemmatizer_note` says how the check then works).

Japanese uses fugashi/UniDic when installed (``pip install 'fbagent[ja]'``).
A missing dependency raises :class:`fbagent.errors.FbagentError` naming the
package; results are cached per word or sentence, failures never are.
Measured per source on 90 sentences: ``benchmarks/bench_verbs.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from fbagent.checks.morphology import inflections, lemminflect_module
from fbagent.errors import FbagentError
from fbagent.languages import base_lang, written_without_spaces

HANTA_MODELS = {"de": "morphmodel_ger.pgz", "nl": "morphmodel_dutch.pgz"}

# A lemma source: (the sentence's words as written, base language) -> one set of lower-cased lemmas per word.
LemmaSource = Callable[[Sequence[str], str], list[frozenset[str]]]


def _simplemma():
    try:
        import simplemma
    except ImportError as err:  # a core dependency: a broken install, not a fallback
        raise FbagentError("simplemma is not installed (lemmas for the verb check)",
                           "reinstall fbagent with its dependencies: pip install -e . (or pip install simplemma)") from err
    return simplemma


@lru_cache(maxsize=1)
def simplemma_languages() -> frozenset[str]:
    """Language codes simplemma has a dictionary for (54 in simplemma 2.0)."""
    _simplemma()
    try:
        from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES
    except ImportError as err:  # layout of simplemma < 1.0
        raise FbagentError("this simplemma version is too old for fbagent", "pip install 'simplemma>=1.0'") from err
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


@lru_cache(maxsize=4)
def hanta_tagger(code: str):
    """The HanTa tagger of ``code`` (``de``, ``nl``), loaded once (about 0.2 s / 1.3 s).

    Raises :class:`FbagentError` when HanTa (a dependency) is not installed.
    """
    try:
        from HanTa import HanoverTagger
    except ImportError as err:
        raise FbagentError("HanTa is not installed (Dutch and German lemmas in context)",
                           "reinstall fbagent with its dependencies: pip install -e . (or pip install HanTa)") from err
    return HanoverTagger.HanoverTagger(HANTA_MODELS[code])


@lru_cache(maxsize=8192)
def _hanta_sentence(words: tuple[str, ...], code: str) -> tuple[frozenset[str], ...]:
    tagged = hanta_tagger(code).tag_sent(list(words), taglevel=1)
    return tuple(frozenset({str(lemma).lower()}) for _, lemma, _ in tagged)


def hanta_source(words: Sequence[str], code: str) -> list[frozenset[str]]:
    """HanTa's lemma of each word, tagged as one sentence (context decides ``stand`` -> ``stehen``)."""
    if code not in HANTA_MODELS or not words:
        return [frozenset() for _ in words]
    return list(_hanta_sentence(tuple(words), code))


# caches of other modules built on the lemma sources (fbagent.checks.verb_match's per-sentence analysis): emptied with these
_DEPENDENT_CACHES: list[Callable[[], None]] = []


def register_dependent_cache(cache_clear: Callable[[], None]) -> None:
    """Have :func:`clear_caches` also call ``cache_clear`` (a cache whose values come from the lemma sources)."""
    _DEPENDENT_CACHES.append(cache_clear)


def clear_caches() -> None:
    """Empty the per-word and per-sentence lemma caches and those built on them (the loaded HanTa models
    stay); for timing runs and tests."""
    for fn in (_simplemma_word, _simplemma_knows, _lemminflect_word, _hanta_sentence, inflections, _token_lemmas):
        fn.cache_clear()
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
    if code in HANTA_MODELS:
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


@lru_cache(maxsize=1)
def _fugashi_tagger():
    try:
        import fugashi  # type: ignore[import-not-found]
    except ImportError:
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
