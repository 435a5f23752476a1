"""The nominal-use rule of ``bench_lexicon_verbs.py``: which annotated verb targets stand as nominalised infinitives.

A FrameNet files "het [neerhalen] van het toestel" under the verb LU *neerhalen*; by the grammar of the language it
is a noun (a nominalised infinitive), and fbagent's verb gate refuses a target after a determiner by convention
(issue 41). The bench counts the verb check twice: of all sampled targets, and of the verbal uses, the nominal uses
found by this rule set aside (counted and listed, never silently dropped).

The rule, the same grammar for every language that has nominalised infinitives (nl, de, es, it, pt; en, fr, ko, lv,
tr and the rest have no rule: every target counts as verbal):

1. the target is the LU's infinitive: its text, lower-cased, is the lemma (a multi-word lemma: its last word, the
   lemma's other words right before it in the sentence); in German it is also written with a capital ("das Laufen");
2. walking back from it inside its clause (no punctuation between), skip at most two modifiers: an adjective (the
   analyser reads it as one: HanTa for nl and de; else the language's ``prenominal`` list in
   ``prompts/verbs/morphology.toml``) or the negation ("het niet naleven", "el no cumplir");
3. the word reached is a determiner of :data:`GRAMMARS` (an article, a possessive, a demonstrative or a preposition
   fused with an article: "beim", "al", "nel", "ao"), or one of its ``ambiguous`` determiners that are also object
   pronouns ("het", "dit", "o", "lo"; German needs none: its capital tells) where no object pronoun can stand:
   right after a preposition (nl, it; not pt, whose "para o ver" is "to see him"), or with the noun's complement
   marker (``of_word``: "van", "di", "de") right after the target. First in its clause is not enough: a Dutch or German clause may open
   with its object, and the plural present is spelled as the infinitive ("Dat schrijven Russische ingenieurs").

Functions: :func:`nominal_use`. Data: :data:`GRAMMARS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fbagent.checks.analysers import readings
from fbagent.checks.morphology import morphology


@dataclass(frozen=True)
class NominalGrammar:
    """One language's words for the rule (module doc): ``determiners`` always articles, possessives or
    demonstratives; ``ambiguous`` ones that are also object pronouns; ``prepositions`` before an ambiguous one;
    (empty: none) ``of_word`` the noun's complement marker after the target; ``negation``; ``capitalised``
    (German nouns)."""

    determiners: frozenset[str]
    ambiguous: frozenset[str]
    prepositions: frozenset[str]
    of_word: str
    negation: str
    capitalised: bool = False


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: the rule's words per base language code (module doc); a language not here has no nominal-use rule
GRAMMARS: dict[str, NominalGrammar] = {
    "nl": NominalGrammar(
        _words("de een mijn jouw zijn onze uw elk ieder"),
        _words("het haar hun ons dit deze"),
        _words("aan achter bij binnen boven buiten door in met na naar naast om onder op over per rond sinds tegen "
               "tijdens tot tussen uit van vanwege via voor wegens zonder"), "van", "niet"),
    "de": NominalGrammar(
        _words("der dem den des ein eine einem einen eines mein meinem meines sein seinem seines ihrem ihres "
               "unser unserem unseres dieses diesem jedes jedem beim zum vom im am ins das ihr"),
        frozenset(),
        _words("an auf aus bei durch für gegen hinter in mit nach neben ohne über um unter von vor während wegen zu "
               "zwischen"), "von", "nicht", capitalised=True),
    "es": NominalGrammar(
        _words("el un su mi tu nuestro vuestro este ese aquel al del"),
        frozenset(), frozenset(), "de", "no"),
    "it": NominalGrammar(
        _words("il un l' suo mio tuo nostro vostro loro questo quel quello al del nel dal col sul all' dell' nell' "
               "dall' sull' allo dello nello dallo sullo"),
        _words("lo"),
        _words("a da di in con su per tra fra"), "di", "non"),
    "pt": NominalGrammar(
        _words("um seu meu teu nosso vosso este esse aquele ao do no pelo"),
        _words("o"),
        frozenset(), "de", "não"),
}

_TOKEN = re.compile(r"\w+'?")
_BOUNDARY = re.compile(r"[.,;:!?()\[\]\"«»“”]")


def nominal_use(text: str, start: int, end: int, lemma: str, lang: str) -> bool:
    """Whether the target ``text[start:end]`` of an LU with ``lemma`` is a nominalised infinitive by the rule of
    the module doc (``lang`` a language code such as ``nl`` or ``nl-BE``); False for a language without a rule.

    ``start``/``end`` are character offsets, ``end`` exclusive. Loads the language's analyser on first use
    (HanTa for nl and de); raises nothing for a target the rule cannot read (it is then verbal)."""
    grammar = GRAMMARS.get(lang.split("-")[0].lower())
    lemma_words = lemma.lower().split()
    target = text[start:end]
    if grammar is None or not lemma_words or target.lower().split()[-1:] != lemma_words[-1:]:
        return False
    if grammar.capitalised and not target[:1].isupper():
        return False
    tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    last = max((k for k, tok in enumerate(tokens) if tok[1] < end), default=-1)
    first = last - len(lemma_words) + 1
    if first < 0 or [tok[0].lower() for tok in tokens[first:last + 1]] != lemma_words:
        return False
    k = _skip_modifiers(text, tokens, first, grammar, lang)
    if k < 0 or _boundary(text, tokens[k][2], tokens[k + 1][1]):
        return False
    word = tokens[k][0].lower()
    if word in grammar.determiners:
        return True
    if word not in grammar.ambiguous:
        return False
    after_preposition = (k > 0 and tokens[k - 1][0].lower() in grammar.prepositions
                         and not _boundary(text, tokens[k - 1][2], tokens[k][1]))
    complement = (last + 1 < len(tokens) and tokens[last + 1][0].lower() == grammar.of_word
                  and not _boundary(text, tokens[last][2], tokens[last + 1][1]))
    return after_preposition or complement


def _skip_modifiers(text: str, tokens: list[tuple[str, int, int]], first: int, grammar: NominalGrammar,
                    lang: str) -> int:
    """The index of the word before the infinitive phrase starting at token ``first`` and at most two
    adjectives or negations before it, inside its clause (-1: none)."""
    k = first - 1
    for _ in range(2):
        if k < 0 or _boundary(text, tokens[k][2], tokens[k + 1][1]):
            return k
        if not _modifier(text, tokens, k, grammar, lang):
            return k
        k -= 1
    return k


def _modifier(text: str, tokens: list[tuple[str, int, int]], k: int, grammar: NominalGrammar, lang: str) -> bool:
    """Whether token ``k`` is an adjective (the analyser's reading, else the ``prenominal`` list) or the negation."""
    word = tokens[k][0].lower()
    if word == grammar.negation:
        return True
    found = readings(text, [t[0] for t in tokens], [(t[1], t[2]) for t in tokens], lang)
    reading = found[k] if found is not None else None
    if reading is not None:
        return reading.pos == "adjective"
    return word in morphology(lang).prenominal


def _boundary(text: str, a: int, b: int) -> bool:
    """Whether punctuation stands between character offsets ``a`` and ``b`` (a clause boundary)."""
    return bool(_BOUNDARY.search(text[a:b]))
