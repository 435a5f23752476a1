"""A verb LU whose first word is a noun or adjective of its own, written apart from the verb (Dutch, German):
"kennis nemen", "verantwoordelijk houden", "verantwortlich machen" (issue 40).

Such a word stands where a separable particle stands, in the language's order: right before the verb's
non-finite form, only verb-cluster words between ("heeft kennis genomen", "wordt verantwoordelijk gehouden",
"kennis te nemen"), after the finite verb in a main clause at the clause end or before a word that may follow a
separated particle, an extraposed preposition ("nam kennis van het rapport", "houden hem verantwoordelijk voor de
schade"), or joined to it ("kennisgenomen"). After a determiner, an adjective or a preposition the word is part
of a noun phrase and not the LU's ("nam zijn kennis mee", "houdt van verantwoordelijk werk" has no such word at
the clause end).

A one-word lemma made of a word and a verb is read as these two words only where the language writes them apart:
simplemma's dictionary does not know the joined word ("verantwoordelijkhouden", "gelukkigmaken"; the standard
spelling is "verantwoordelijk houden"). A joined word the dictionary knows is one verb ("goedmaken": "goed
gemaakt" is "made well", not goedmaken) and keeps today's matching (separable particles only).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from fbagent.checks.lemmas import _simplemma_knows
from fbagent.checks.morphology import Morphology, morphology
from fbagent.checks.paradigms import separable_splits
from fbagent.checks.verb_context import SentenceContext
from fbagent.checks.verb_parts import Candidate, _particle_before
from fbagent.framenet.lu_names import LemmaPart

#: parts of speech before the word that make it part of a noun phrase ("zijn kennis", "met kennis")
_NOUN_PHRASE_BEFORE = frozenset({"determiner", "adjective", "adposition", "numeral"})


def complement_split(parts: Sequence[LemmaPart], code: str) -> tuple[str, str] | None:
    """``(word, verb)`` for an LU of ``code`` (a base language with separable verbs: nl, de) made of a word that is
    no separable particle and a verb infinitive (``-n``): two words ("kennis nemen"), or one word the dictionary
    does not know that splits into two words it knows ("verantwoordelijkhouden"); None otherwise."""
    m = morphology(code)
    required = [p for p in parts if not p.optional]
    if not m.separable_particles or not required or any(len(p.alternatives) != 1 for p in required):
        return None
    words = [w for p in required for w in p.alternatives[0]]
    if len(words) == 2 and len(required) == 2:
        word, verb = words
        return (word, verb) if _plain_word(word, m) and verb.endswith("n") and verb not in m.separable_particles \
            else None
    return _joined_split(words[0], code) if len(words) == 1 else None


@lru_cache(maxsize=4096)
def _joined_split(lemma: str, code: str) -> tuple[str, str] | None:
    """The longest known word + known verb infinitive that ``lemma`` is made of, where the dictionary does not know
    ``lemma`` itself and no separable particle starts it; None otherwise."""
    m = morphology(code)
    if not lemma.endswith("n") or _simplemma_knows(lemma, code) or separable_splits(lemma, code):
        return None
    for k in range(len(lemma) - 3, 2, -1):
        word, verb = lemma[:k], lemma[k:]
        if _plain_word(word, m) and _simplemma_knows(word, code) and _simplemma_knows(verb, code):
            return word, verb
    return None


def _plain_word(word: str, m: Morphology) -> bool:
    return word.isalpha() and word not in m.separable_particles and word not in m.optional_words


def complement_candidates(ctx: SentenceContext, word: str, verb: str) -> list[Candidate]:
    """Occurrences of ``word`` + ``verb`` in the orders of the module doc, as ``(verb token, masked tokens,
    method)``."""
    out: list[Candidate] = []
    marker = ctx.m.infinitive_marker
    for i, t in enumerate(ctx.tokens):
        if t.text.startswith(word) and len(t.text) > len(word):
            rest = t.text[len(word):]
            rests = [rest] + ([rest[len(marker):]] if marker and rest.startswith(marker) else [])
            if ctx.verb_reading(i) is not False and any(ctx.word_method(r, verb, None, stem=False) for r in rests):
                out.append((i, [i], "complement:joined"))
            continue
        if not ctx.word_method(t.text, verb, i, stem=False):
            continue
        j = _particle_before(ctx, i, word, ctx.m.cluster_words | {marker})
        if j is None:
            j = _word_after(ctx, i, word)
        if j is not None and not _in_noun_phrase(ctx, j):
            out.append((i, sorted([i, j]), "complement"))
    return out


def _word_after(ctx: SentenceContext, i: int, word: str) -> int | None:
    """``word`` later in verb token ``i``'s clause, no finite verb between, at the clause end or before a word of
    ``after_particle``."""
    toks = ctx.tokens
    for j in range(i + 1, len(toks)):
        if ctx.clause[j] != ctx.clause[i] or ctx.finite_verb_between(i, j):
            return None
        if toks[j].text == word:
            last = j + 1 >= len(toks) or ctx.clause[j + 1] != ctx.clause[j]
            return j if last or toks[j + 1].text in ctx.m.after_particle else None
    return None


def _in_noun_phrase(ctx: SentenceContext, j: int) -> bool:
    """Whether token ``j`` follows a determiner, adjective, numeral or preposition of its clause."""
    if ctx.determiner_before(j) is not None:
        return True
    if j == 0 or ctx.clause[j - 1] != ctx.clause[j] or not ctx.config.pos or ctx.readings is None:
        return False
    before = ctx.readings[j - 1]
    return before is not None and before.pos in _NOUN_PHRASE_BEFORE
