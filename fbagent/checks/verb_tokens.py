"""Tokens and the verb check's small types (:mod:`fbagent.checks.verb_match`): how a sentence is split into
units (words, or characters where a language is written without spaces), which matchers run
(:class:`MatchConfig`) and what a search returns (:class:`VerbMatch`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from fbagent.checks.lemmas import LemmaSource, register_dependent_cache
from fbagent.languages import base_lang, written_without_spaces

WORD_RE = re.compile(r"\w+", re.UNICODE)
_DOTTED_I = ("tr", "az")
_TURKISH_UPPER = str.maketrans({"İ": "i", "I": "ı"})

@dataclass(frozen=True)
class Token:
    """A unit of a sentence: text (lower-cased) and its character span ``[start, end)``."""

    text: str
    start: int
    end: int


def tokenize(sentence: str, lang: str) -> list[Token]:
    """Split ``sentence`` into units: lower-cased words, or characters for no-space languages.

    Punctuation and whitespace are dropped in both cases; Turkish and Azerbaijani lower "İ" to "i" and "I" to
    "ı" (Python's ``str.lower`` gives "i̇" and "i").
    """
    if written_without_spaces(lang):
        return [
            Token(ch.lower(), i, i + 1)
            for i, ch in enumerate(sentence)
            if not ch.isspace() and not unicodedata.category(ch).startswith(("P", "S"))
        ]
    if base_lang(lang) in _DOTTED_I:  # Turkish casing: İ -> i, I -> ı ("İki" is "iki", not "i̇ki")
        return [Token(m.group().translate(_TURKISH_UPPER).lower(), m.start(), m.end()) for m in WORD_RE.finditer(sentence)]
    return [Token(m.group().lower(), m.start(), m.end()) for m in WORD_RE.finditer(sentence)]


@lru_cache(maxsize=8192)
def sentence_tokens(sentence: str, lang: str) -> tuple[Token, ...]:
    """:func:`tokenize` as a tuple, cached per (sentence, lang): an entry's checks split each sentence
    several times (verb search, masked units, once per check)."""
    return tuple(tokenize(sentence, lang))


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class MatchConfig:
    """Which matchers :func:`find_verb` uses; the default is the full verb check.

    ``sources``: lemma sources (names in :data:`SOURCES` or callables with the
    :data:`LemmaSource` shape); ``None`` = :func:`lemma_sources` of the
    language. ``inflections``, ``separable``, ``stem``, ``verb_form``: methods
    3, separable verbs, 4 and 5 of the module doc; ``pos``: the part-of-speech
    analyser (off: any spelling counts, the token window bounds a particle).
    ``benchmarks/bench_verbs.py`` compares configurations.
    """

    sources: tuple[str | LemmaSource, ...] | None = None
    pos: bool = True
    inflections: bool = True
    separable: bool = True
    stem: bool = True
    verb_form: bool = True


DEFAULT_CONFIG = MatchConfig()


@dataclass
class VerbMatch:
    """Where the target verb occurs in a sentence.

    ``found``: the verb (all required parts) was found; ``span``: character span
    ``[start, end)`` of the head verb (None when not found); ``mask``: spans
    masked for the similarity (head, particle, other parts); ``surface``: the
    verb as written; ``method``: which matcher decided (see the module doc); ``note``: when not found,
    the form of the verb seen in the sentence and why it was refused ("'Anruf' is read as a noun"), for
    the feedback the generator gets ("" when nothing like the verb was seen).
    """

    found: bool
    span: tuple[int, int] | None = None
    mask: list[tuple[int, int]] = field(default_factory=list)
    surface: str | None = None
    method: str = ""
    note: str = ""


def stem_match(token: str, lemma: str) -> bool:
    """Whether ``token`` shares with ``lemma`` a prefix of at least four letters and of all but two of its
    letters (method 4, ``stem``, of :mod:`fbagent.checks.verb_match`)."""
    prefix = 0
    for x, y in zip(token, lemma, strict=False):
        if x != y:
            break
        prefix += 1
    return prefix >= max(4, len(lemma) - 2)


def plausible_form(form: str, lemma: str) -> bool:
    """Whether a declared ``form`` may be a form of ``lemma``: same first letter, or three letters of the lemma
    in a row inside it (method 5, ``verb_form``)."""
    if not form or not lemma:
        return False
    return form[0] == lemma[0] or any(lemma[i:i + 3] in form for i in range(len(lemma) - 2))


register_dependent_cache(sentence_tokens.cache_clear)
