"""The units of the lexical-similarity check: language-aware, so that every language measures alike.

FrameBench (Yano and Sasano 2026, sec. 3.1) asks that S_A and S_B share their content words as far as
possible. The self-check measures that as an edit similarity over units
(:func:`fbagent.checks.self_check.normalized_similarity`); this module says what a unit is:

- Chinese: jieba's words (:func:`fbagent.checks.analysers.jieba_words`), Japanese: fugashi/UniDic's
  words, not characters (every kana of 食べました would otherwise count as a difference); without
  the segmenter, characters as before; Korean: Kiwi's morphemes, so that a noun and its particle
  (기차 + 가) are two units, as a separate word would be elsewhere;
- German and Dutch: a noun that HanTa reads as a compound counts as its parts ("Haustür" = haus + tür,
  as English writes "front door" in two words), each lemmatised;
- every other language written with spaces: the lemma of each word where simplemma has a
  dictionary ("boxes" = "box"), else the word as written (lower case).

Punctuation is never a unit. The tokens of the verb (the check's mask spans) are one ``<V>`` unit per
span. ``benchmarks/bench_similarity.py`` checks the 0.5 threshold against minimal pairs of the paper's
kind and loosely related pairs in the eleven languages of ``benchmarks/bench_verbs.py``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from fbagent.checks.analysers import (
    HANTA_MODELS,
    hanta_compound_parts,
    jieba_words,
    kiwi_morphemes,
    segmenter_installed,
)
from fbagent.checks.lemmas import (
    _fugashi_tagger,
    _simplemma_word,
    register_dependent_cache,
    simplemma_languages,
)
from fbagent.checks.verb_match import VerbMatch, sentence_tokens
from fbagent.languages import base_lang, written_without_spaces

MASK = "<V>"
#: Kiwi's tags of punctuation and symbols (not units); SL, SH, SN (foreign words, hanja, numbers) are
KO_PUNCTUATION = frozenset({"SF", "SP", "SS", "SSO", "SSC", "SE", "SO", "SW"})
#: languages whose nouns are split into compound parts by HanTa
COMPOUND_LANGS = ("de", "nl")
#: (sentence, language, mask) unit sequences kept (an entry measures 6, 4 of them new)
UNITS_CACHE_SIZE = 8192


def _is_punctuation(text: str) -> bool:
    return all(ch.isspace() or unicodedata.category(ch).startswith(("P", "S")) for ch in text)


def _words(sentence: str, code: str) -> list[tuple[int, int, list[str]]] | None:
    """``(start, end, units)`` per word from a segmenter (zh: jieba, ja: fugashi), or None without one."""
    if code == "zh" and segmenter_installed("zh"):
        return [(s, e, [w]) for s, e, w, _ in jieba_words(sentence) if not _is_punctuation(w)]
    if code == "ko" and segmenter_installed("ko"):  # particles and endings are units of their own: 기차 + 가
        return [(s, e, [m]) for s, e, m, tag in kiwi_morphemes(sentence) if tag not in KO_PUNCTUATION]
    if code == "ja" and (tagger := _fugashi_tagger()) is not None:
        out, pos = [], 0
        for word in tagger(sentence):
            start = sentence.find(word.surface, pos)
            if start < 0 or _is_punctuation(word.surface):
                continue
            pos = start + len(word.surface)
            out.append((start, pos, [word.surface]))
        return out
    return None


def _spaced(sentence: str, code: str) -> list[tuple[int, int, list[str]]]:
    tokens = sentence_tokens(sentence, code)
    words = tuple(sentence[t.start:t.end] for t in tokens)
    parts: Sequence[tuple[str, ...]] = hanta_compound_parts(words, code) if code in COMPOUND_LANGS and code in HANTA_MODELS \
        else [()] * len(tokens)
    lemmatise = code in simplemma_languages()
    out = []
    for t, split in zip(tokens, parts, strict=True):
        pieces = list(split) or [t.text]
        if lemmatise:
            pieces = [_simplemma_word(p, code) for p in pieces]
        out.append((t.start, t.end, pieces))
    return out


def similarity_units(sentence: str, lang: str, match: VerbMatch) -> list[str]:
    """The units of ``sentence`` for the lexical similarity (see the module doc), the verb's masked spans
    replaced by one ``<V>`` each (no mask when ``match`` did not find the verb)."""
    return list(_masked_units(sentence, base_lang(lang), tuple(sorted(match.mask)) if match.found else ()))


@lru_cache(maxsize=UNITS_CACHE_SIZE)
def _masked_units(sentence: str, code: str, spans: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    """:func:`similarity_units` of ``sentence`` in base language ``code`` with the sorted mask ``spans``; cached, so
    that a base sentence measured in the self-check and again against its extension is cut into units once;
    emptied by :func:`fbagent.checks.lemmas.clear_caches` (the units are lemmas and segmenter words)."""
    words = _words(sentence, code)
    if words is None:
        words = _spaced(sentence, code) if not written_without_spaces(code) else [
            (t.start, t.end, [t.text]) for t in sentence_tokens(sentence, code)]
    units: list[str] = []
    used: set[int] = set()
    for start, end, pieces in words:
        hit = next((i for i, (s, e) in enumerate(spans) if start < e and end > s), None)
        if hit is None:
            units.extend(pieces)
        elif hit not in used:
            used.add(hit)
            units.append(MASK)
    return tuple(units)


register_dependent_cache(_masked_units.cache_clear)

