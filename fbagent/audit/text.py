"""Words and lemmas of a text for the shortcut baselines (question-sentence and question-frame overlap).

Convention: lower-cased word tokens (``\\w+``); in a language written without spaces (Japanese,
Chinese, Thai) character bigrams instead. Each token stands for its candidate lemmas where fbagent
has a lemmatiser for the language (:func:`fbagent.checks.lemmas.token_lemmas`: simplemma,
lemminflect), else for itself. Two tokens match when their lemma sets meet.
"""

from __future__ import annotations

import re
from functools import lru_cache

from fbagent.checks.lemmas import lemma_sources, token_lemmas
from fbagent.languages import base_lang

NO_SPACES = frozenset({"ja", "zh", "th"})
WORD = re.compile(r"\w+")


def tokens(text: str, lang: str) -> list[str]:
    """Lower-cased tokens of ``text``: words, or character bigrams in a language without spaces."""
    low = text.lower()
    if base_lang(lang) in NO_SPACES:
        chars = "".join(WORD.findall(low))
        return [chars[i:i + 2] for i in range(len(chars) - 1)] or ([chars] if chars else [])
    return WORD.findall(low)


@lru_cache(maxsize=65536)
def lemma_set(text: str, lang: str) -> frozenset[str]:
    """Every candidate lemma of every token of ``text`` (tokens themselves included)."""
    if base_lang(lang) in NO_SPACES:
        return frozenset(tokens(text, lang))
    out: set[str] = set()
    for tok in tokens(text, lang):
        out |= token_lemmas(tok, lang)
    return frozenset(out)


def overlap(question: str, text: str, lang: str) -> int:
    """How many tokens of ``question`` match a token of ``text`` (lemma sets meet); repeated tokens count
    each time."""
    target = lemma_set(text, lang)
    if base_lang(lang) in NO_SPACES:
        return sum(1 for t in tokens(question, lang) if t in target)
    return sum(1 for t in tokens(question, lang) if token_lemmas(t, lang) & target)


def lemma_note(lang: str) -> str:
    """Which unit the overlap counts for ``lang`` (the convention, in words)."""
    if base_lang(lang) in NO_SPACES:
        return f"{lang}: character bigrams"
    sources = [s for s in lemma_sources(lang) if s != "hanta"]
    return f"{lang}: lemmas ({', '.join(sources)})" if sources else f"{lang}: word forms (no lemmatiser)"
