"""One sentence as the verb check sees it (:mod:`fbagent.checks.verb_match`): tokens, clauses, lemmas, readings.

:class:`SentenceContext` holds what :func:`fbagent.checks.verb_match.find_verb` knows of a sentence whatever
the lemma (tokens and clause ids, each token's lemma set, simplemma's knowledge, the analyser's reading) and
answers the questions the matchers ask of one token: is it read as a verb, does a determiner make it a noun, is
it a function word, another verb's form, part of a hyphenated compound, a sentence-initial imperative, and by
which method (exact, lemma, inflection, stem, verb_form) its spelling is a form of a lemma. The analysis is
cached per (sentence, language, configuration) and emptied with the lemma caches.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from fbagent.checks.analysers import Reading, readings
from fbagent.checks.conjugation import (
    first_singular,
    nonfinite_form,
    shared_form_owner,
    table_method,
    verb_lemma,
)
from fbagent.checks.lemmas import (
    SOURCES,
    LemmaSource,
    _simplemma_knows,
    _simplemma_word,
    lemma_sources,
    register_dependent_cache,
)
from fbagent.checks.morphology import Morphology, inflections, morphology
from fbagent.languages import base_lang, written_without_spaces

WORD_RE = re.compile(r"\w+", re.UNICODE)
_DOTTED_I = ("tr", "az")
_TURKISH_UPPER = str.maketrans({"İ": "i", "I": "ı"})
_CLAUSE_END = re.compile(r"[,;:.!?¿¡…،؛。、！？]")

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
    prefix = 0
    for x, y in zip(token, lemma, strict=False):
        if x != y:
            break
        prefix += 1
    return prefix >= max(4, len(lemma) - 2)


def _plausible_form(form: str, lemma: str) -> bool:
    if not form or not lemma:
        return False
    return form[0] == lemma[0] or any(lemma[i:i + 3] in form for i in range(len(lemma) - 2))


_NOT_VERB = frozenset({"noun", "adposition", "conjunction"})


@dataclass
class SentenceContext:
    """One sentence being searched: tokens, their clause ids, lemma sets and readings, the language and configuration."""

    sentence: str
    tokens: tuple[Token, ...]
    clause: tuple[int, ...]
    lemmas: tuple[frozenset[str], ...]
    known: tuple[bool, ...]
    readings: tuple[Reading | None, ...] | None
    code: str
    config: MatchConfig
    m: Morphology
    has_lemmatizer: bool
    declared: frozenset[str] = frozenset()

    @property
    def window(self) -> int:
        return self.m.window

    def verb_reading(self, i: int) -> bool | None:
        """Whether token ``i`` is read as a verb: True (the analyser says verb, or a French auxiliary,
        subject-pronoun or hyphen construction), False (a noun, adposition or conjunction, or right after a
        determiner), None (no analyser, or another class)."""
        reading = self.readings[i] if self.readings is not None else None
        if reading is None:
            if self.determiner_before(i) is not None:
                return False
            return True if self.m.tables and self._construction(i) else None
        if self.determiner_before(i) is not None:
            return False
        if reading.verb or self._construction(i):
            return True
        return False if reading.pos in _NOT_VERB else None

    def _adjectives_before(self, i: int) -> int:
        """The index of the word before the adjectives that precede token ``i`` in its clause: ``prenominal``
        words, pairs joined by an ``adjective_links`` word whose first member is listed ("largo y agradable"),
        one more word before a listed adjective ("en vass liten"), or any two words joined by a link right
        after a determiner ("un bello y triste"): a determiner there makes ``i`` a noun
        (only then is the walk used). ``i - 1`` when no adjective stands before ``i``."""
        m, toks, clause = self.m, self.tokens, self.clause
        if i >= 4 and toks[i - 2].text in m.adjective_links and toks[i - 4].text in m.determiners \
                and clause[i - 4] == clause[i]:
            return i - 4   # determiner, adjective, link, adjective: "un bello y triste canto"
        j, passed = i - 1, False
        while j > 0 and clause[j - 1] == clause[i]:
            if toks[j].text in m.prenominal or (m.adjective_endings and toks[j].text.endswith(m.adjective_endings)
                                                and toks[j - 1].text in m.determiners):
                j, passed = j - 1, True
            elif passed and toks[j].text in m.adjective_links and toks[j - 1].text in m.prenominal:
                j -= 1
            elif j > 2 and toks[j - 1].text in m.adjective_links and toks[j - 2].text in m.prenominal \
                    and clause[j - 3] == clause[i]:
                j, passed = j - 3, True
            else:
                break
        if passed and j > 0 and toks[j].text not in m.determiners and toks[j - 1].text in m.determiners \
                and clause[j - 1] == clause[i] and m.adjective_links:
            j -= 1
        return j

    def determiner_before(self, i: int) -> str | None:
        """The determiner that makes token ``i`` a noun ("the run", "la llama de la vela", "un bel sogno"):
        a word of ``determiners`` just before it (``prenominal`` adjectives may stand between, several when
        an ``adjective_links`` word joins them: "una larga y agradable", "en lång och smal"), or a
        ``clitic_articles`` word there that starts its clause or follows a preposition; else None."""
        m, toks = self.m, self.tokens
        j = self._adjectives_before(i)
        if j < 0 or self.clause[j] != self.clause[i]:
            return None
        text = toks[j].text
        if text in m.determiners:
            if text in m.optional_words and j == i - 1 and j > 0 and toks[j - 1].text in m.verb_context:
                return None  # Portuguese "nós nos mudamos": the reflexive pronoun, not em + os
            return text
        if text in m.clitic_articles and (j == 0 or self.clause[j - 1] != self.clause[j]
                                          or toks[j - 1].text in m.prepositions or self.finite_other(j - 1)):
            if j == i - 1 and (j == 0 or self.clause[j - 1] != self.clause[j]) and self.clitic_pronoun(j, i):
                return None
            return text
        return None

    def finite_other(self, k: int) -> bool:
        """Whether token ``k`` is a form of some verb other than itself by the dictionary (its lemma ends as the
        language's ``infinitive_endings`` and is not the word: "subimos" -> subir, "meklējām" -> meklēt), so that
        a ``clitic_articles`` word after it is an article ("Subimos la cuesta"), not the next verb's pronoun.
        A capitalised word is taken for a name ("Marco la chiama": marcare's 1st person too), unless it opens
        the sentence with one of the ``initial_verb_endings`` (a person ending no name has: "Subimos")."""
        if k < 0 or not self.m.infinitive_endings or self.clause[k] != self.clause[k + 1]:
            return False
        word = self.sentence[self.tokens[k].start:self.tokens[k].end]
        if word[:1].isupper() and (k > 0 or not word.lower().endswith(self.m.initial_verb_endings or ("\0",))):
            return False  # a name ("Marco la chiama", "Lucía la llama"), unless a person ending no name has ("Subimos")
        return self._dictionary_verb(k)

    def _dictionary_verb(self, k: int) -> bool:
        """Whether token ``k`` is a form of a verb by the dictionary (see :meth:`finite_other`)."""
        m, text = self.m, self.tokens[k].text
        if text in m.determiners or text in m.prepositions or text in m.function_homographs:
            return False
        return any(x != text and (x.endswith(m.infinitive_endings) or x in m.infinitives) for x in self.lemmas[k])

    def _dictionary_finite(self, k: int) -> bool:
        """:meth:`_dictionary_verb` or a ``finite_endings`` word the dictionary does not know (Latvian past
        "-āja", "-ēju": "uzbūvēja"; a known word such as "skolotāja" is a noun), and the word does not end as a
        non-finite form does, unless it is a dictionary verb form with a ``finite_endings`` ending too (Swedish
        "hittade": a past, though "-ade" is also a plural participle)."""
        text, m = self.tokens[k].text, self.m
        if m.nonfinite_endings and text.endswith(m.nonfinite_endings) \
                and not (m.finite_endings and text.endswith(m.finite_endings) and self._dictionary_verb(k)):
            return False
        return self._dictionary_verb(k) or bool(m.finite_endings and text.endswith(m.finite_endings)
                                                 and not self.known[k] and text not in m.determiners)

    def finite_blocker(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a form of ``lemma``, is no finite verb where it stands, for a language without a
        tagger (each rule runs only where the language has its data): right after a ``no_finite_after`` word
        (a preposition: "in porto", "med låg röst"), a ``degree_adverbs`` word ("muy corto", "mycket känd"; a
        participle after the adverb is a verb after a ``perfect_auxiliaries`` word: "ho molto apprezzato"), a
        ``modifier_suffixes`` word or a ``prenominal`` adjective where ``prenominal_alone`` (Turkish "sevdiğim
        yazar", "kırmızı gül"); a finite-looking form after a ``copulas`` word with only ``light_adverbs``
        between ("está libre", "è già sveglio"; a participle or gerund there is a verb: "foi construída");
        a form other than the infinitive that opens its clause right before another verb's finite form where
        ``verb_second`` (Swedish "Var ligger apoteket?": the clause has one finite verb, in second place; a next
        word with a noun ending, "resan", "blommor", is no verb: :meth:`_noun_form`); a
        ``function_after`` word after one of its listed words (Italian "tre anni fa": ago); a regular 1st person
        singular right after a determiner and a noun ("el pelo corto", "o senhor cego": no 1st person follows
        a noun phrase without a pronoun between);
        with ``clause_links``, a finite-looking form in a clause that has another verb's finite form and no
        link word between (Latvian "Mēs meklējām pareizo ceļu"). Returns the note's reason or None."""
        m, toks, clause = self.m, self.tokens, self.clause
        if self.readings is not None:
            return None
        text = toks[i].text
        nonfinite = nonfinite_form(text, lemma, self.code)
        prev = toks[i - 1].text if i > 0 and clause[i - 1] == clause[i] else None
        if prev is not None and prev in m.no_finite_after and not nonfinite:
            return f"follows the preposition '{prev}' and is read as a noun"
        if prev is not None and prev in m.degree_adverbs and (not nonfinite or i < 2 or clause[i - 2] != clause[i]
                                                              or toks[i - 2].text not in m.perfect_auxiliaries):
            return f"follows the degree adverb '{prev}' and is read as an adjective"
        if prev is not None and (m.prenominal_alone and prev in m.prenominal
                                 or m.modifier_suffixes and prev.endswith(m.modifier_suffixes)):
            return f"follows the modifier '{prev}' and is read as a noun"
        if m.verb_second and (i == 0 or clause[i - 1] != clause[i]) and i + 1 < len(toks) and text != lemma \
                and clause[i + 1] == clause[i] and self._dictionary_finite(i + 1) and not self._noun_form(i + 1):
            return f"opens its clause before the verb '{toks[i + 1].text}' (verb second) and is read as another word"
        if nonfinite:
            return None
        if prev is not None and any(text == word and prev in before for word, before in m.function_after):
            return f"follows '{prev}' and is read as a function word"
        if self._object_noun_phrase(i) and first_singular(text, lemma, self.code):
            return f"follows the noun phrase '{toks[i - 2].text} {prev}' and is read as an adjective"
        j = i - 1
        while j >= 0 and clause[j] == clause[i] and toks[j].text in m.light_adverbs and j > i - 3:
            j -= 1
        if j >= 0 and clause[j] == clause[i] and toks[j].text in m.copulas:
            return f"follows the copula '{toks[j].text}' and is read as an adjective"
        if m.clause_links:
            return self._other_finite(i, verb_lemma(lemma, self.code))
        return None

    def _noun_form(self, k: int) -> bool:
        """Whether token ``k`` ends as a noun form does (``noun_suffixes``: "resan", "blommor", "veckor"), where
        the dictionary's verb for it is no short verb (``infinitives``: "bor", "tror" are presents) and the
        ending is not also a present's ("-ar", "-er": "ligger", "hoppar")."""
        text, m = self.tokens[k].text, self.m
        suffixes = tuple(x for x in m.noun_suffixes if not x.endswith(("ar", "er")))
        return bool(suffixes) and text.endswith(suffixes) and not (self.lemmas[k] & m.infinitives)

    def _object_noun_phrase(self, i: int) -> bool:
        """Whether a determiner (or an article after a verb form or a preposition) and a noun stand right before
        token ``i`` inside its clause, after a word that is neither a preposition nor a ``verb_context`` word
        (a clause-initial "Cada día venzo", "por la tarde salgo", "yo este año viajo" are adverbials before a
        verb; "lleva el pelo corto", "ajuda o senhor cego" are not)."""
        m, toks, clause = self.m, self.tokens, self.clause
        if not (m.infinitive_endings and m.conjugation) or i < 3 or clause[i - 3] != clause[i]:
            return False
        det, noun, before = toks[i - 2].text, toks[i - 1].text, toks[i - 3].text
        if noun in m.determiners or noun in m.prepositions or before in m.prepositions or before in m.verb_context:
            return False
        return det in m.determiners or (det in m.clitic_articles and self.finite_other(i - 3))

    def _other_finite(self, i: int, lemma: str) -> str | None:
        """The note for a finite-looking token ``i`` that follows a word ending as a noun's modifier does
        (``modifier_endings``: an adjective or a genitive, itself no verb form) in a clause that already has
        another verb's finite form before it (:meth:`_dictionary_finite`) and no ``clause_links`` word
        between: "Mēs meklējām pareizo ceļu"; None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        if i == 0 or clause[i - 1] != clause[i] or not toks[i - 1].text.endswith(m.modifier_endings or ("\0",)) \
                or self._dictionary_verb(i - 1) or toks[i - 1].text in m.verb_context or toks[i - 1].text in m.light_adverbs:
            return None
        j = i - 1
        while j > 0 and i - j <= 2 and clause[j - 1] == clause[i] and (toks[j].text.endswith(m.modifier_endings)
                                                                      or toks[j].text.endswith(m.adjective_endings)):
            j -= 1
        # a determiner and modifiers before it, a finite verb after it: the noun of the subject ("Šī mazā sala ir")
        ahead = range(i + 1, len(toks)) if toks[j].text in m.determiners and j < i - 1 else range(0)
        for side in (range(i - 2, -1, -1), ahead):
            for k in side:
                if clause[k] != clause[i] or toks[k].text in m.clause_links:
                    break
                if lemma not in self.lemmas[k] and self._dictionary_finite(k):
                    return f"is read as a noun (its clause already has the verb '{toks[k].text}')"
        return None

    def clitic_pronoun(self, j: int, i: int) -> bool:
        """Whether the clause-initial ``clitic_articles`` word ``j`` is the object pronoun of token ``i``
        ("La vi ayer", "Lo compré", "Le compro domani"), not its article: the article would not agree
        with a noun ending as token ``i`` does (``clitic_verb_endings``: "la" before "-o", "los" before a
        word without "-s"; "" = any ending), unless token ``i`` begins as the article's own nouns do
        (``article_onsets``: Italian "lo studio")."""
        clitic, word = self.tokens[j].text, self.tokens[i].text
        onsets = dict(self.m.article_onsets).get(clitic, ())
        if onsets and word.startswith(onsets):
            return False
        endings = dict(self.m.clitic_verb_endings).get(clitic)
        return endings is not None and any(word.endswith(e) for e in endings)

    def function_word(self, i: int) -> bool:
        """Whether token ``i`` is a ``function_homographs`` word ("nada": nothing, or swims) read as the
        function word: not right after a ``verb_context`` word ("Ella nada", "no nada") nor after a noun
        that follows a determiner ("el niño nada")."""
        m, toks = self.m, self.tokens
        if toks[i].text not in m.function_homographs:
            return False
        if i == 0 or self.clause[i - 1] != self.clause[i]:
            return True
        if toks[i - 1].text in m.verb_context:
            return False
        return not (i >= 2 and self.clause[i - 2] == self.clause[i] and toks[i - 2].text in m.determiners)

    def quotative(self, i: int) -> bool:
        """French quotative inversion: token ``i`` opens a clause after a comma or a quote and the next word
        begins its subject (``inversion_subjects``, or a capitalised name): '", regrette Patrice Boureau"',
        '", pensent les professionnels"'."""
        m, toks = self.m, self.tokens
        if not m.inversion_subjects or i == 0 or i + 1 >= len(toks) or self.clause[i - 1] == self.clause[i] \
                and '"' not in self.sentence[toks[i - 1].end:toks[i].start]:
            return False
        nxt = self.sentence[toks[i + 1].start:toks[i + 1].end]
        return toks[i + 1].text in m.inversion_subjects or (nxt[:1].isupper() and i + 2 < len(toks))

    def finite_verb_between(self, start: int, j: int) -> bool:
        """Whether the analyser reads a token after ``start`` and before ``j`` as a finite verb: a word of a
        multi-word LU after it belongs to that verb's phrase ("She turned and walked down the street" is
        not "turn down")."""
        if self.readings is None or not self.config.pos:
            return False
        return any((r := self.readings[k]) is not None and r.verb and r.finite for k in range(start + 1, j))

    def hyphen_compound(self, i: int) -> str | None:
        """The hyphenated compound token ``i`` is written in ("well-known", "hand-made", "long-run"), where
        the language lists ``hyphen_prefixes`` and the other part is not one of them ("re-enter",
        "co-operate" are verbs); None otherwise. A verb inside such a compound is part of an adjective
        or noun, not the verb."""
        m, toks, text = self.m, self.tokens, self.sentence
        if not m.hyphen_prefixes:
            return None
        t = toks[i]
        before = i > 0 and toks[i - 1].end == t.start - 1 and text[t.start - 1] in "-\u2010\u2011"
        after = i + 1 < len(toks) and toks[i + 1].start == t.end + 1 and text[t.end] in "-\u2010\u2011"
        if before and toks[i - 1].text not in m.hyphen_prefixes:
            return text[toks[i - 1].start:(toks[i + 1].end if after else t.end)]
        if after:
            return text[t.start:toks[i + 1].end]
        return None

    def imperative(self, i: int) -> bool:
        """Token ``i`` opens its sentence (after at most one ``imperative_openers`` word: "Please park"),
        something follows it in its clause, and no other finite verb stands there before a conjunction:
        a sentence-initial imperative the tagger took for a noun ("Ruf deinen Bruder!", "Bel me morgen")."""
        toks = self.tokens
        start = 1 if toks and toks[0].text in self.m.imperative_openers else 0
        if i != start or i + 1 >= len(toks) or self.clause[i + 1] != self.clause[i] or self.readings is None:
            return False
        for j in range(i + 1, len(toks)):
            r = self.readings[j]
            if self.clause[j] != self.clause[i] or (r is not None and r.pos == "conjunction"):
                break
            if r is not None and r.verb and r.finite:
                return False
        return True

    def _construction(self, i: int) -> bool:
        """French: an auxiliary or a subject pronoun before token ``i`` (only ``between_auxiliary`` words
        between), or a pronoun joined after it by a hyphen."""
        m, toks = self.m, self.tokens
        if self.quotative(i):
            return True
        if m.enclitics and i + 1 < len(toks) and toks[i + 1].start == toks[i].end + 1 \
                and self.sentence[toks[i].end] in "-\u2011" and toks[i + 1].text in m.enclitics:
            return True
        if not (m.auxiliaries or m.subject_pronouns):
            return False
        for j in range(i - 1, max(-1, i - 6), -1):
            if self.clause[j] != self.clause[i]:
                return False
            text = toks[j].text
            if text in m.auxiliaries or text in m.subject_pronouns:
                return True
            if text not in m.between_auxiliary:
                return False
        return False

    def word_method(self, text: str, lemma: str, i: int | None, *, stem: bool = True) -> str | None:
        """How ``text`` (token ``i``, or a piece of a word when None) is a form of the one-word ``lemma``,
        given the token's part of speech (see the module doc)."""
        method = self._spelling_method(text, lemma, i, stem=stem)
        if method is None or i is None or not self.config.pos:
            return method
        verb = self.verb_reading(i)
        if verb is False and self.determiner_before(i) is None and self.imperative(i):
            verb = True
        if verb is False or self.other_verb(i, lemma, method) is not None or self.hyphen_compound(i) is not None \
                or self.function_word(i) or self.shared_owner(i, lemma) is not None \
                or (self.m.tables and self.finite_blocker(i, lemma) is not None):
            return None
        if method in ("inflection", "stem") and verb is not True and not (method == "inflection" and self.known[i]):
            return None  # a generated form the analyser does not read as a verb and no lexicon knows
        return method

    def shared_owner(self, i: int, lemma: str) -> str | None:
        """The other verb whose form token ``i`` is here, by the word before it and the next words
        (:func:`fbagent.checks.conjugation.shared_form_owner`: "fue a la farmacia", "se fue" are ir's); None otherwise."""
        if not self.m.shared_forms:
            return None
        toks, clause = self.tokens, self.clause
        nxt = toks[i + 1].text if i + 1 < len(toks) and clause[i + 1] == clause[i] else None
        if nxt is not None and i + 2 < len(toks) and clause[i + 2] == clause[i]:
            nxt += " " + toks[i + 2].text
        prev = toks[i - 1].text if i > 0 and clause[i - 1] == clause[i] else None
        owner = shared_form_owner(toks[i].text, lemma, self.code, nxt, prev)
        return owner

    def other_verb(self, i: int, lemma: str, method: str) -> str | None:
        """The other verb the analyser reads token ``i`` as, in context, where that outranks a spelling
        match of ``lemma`` (Dutch "was" of zijn, not of wassen; French "suis" of être, not of suivre): the
        token is a verb form the analyser lemmatises to a different verb, and only a form generated from
        ``lemma``'s paradigm (``method`` ``inflection`` or ``stem``) ties it to ``lemma``. None otherwise."""
        reading = self.readings[i] if self.readings is not None else None
        if method not in ("inflection", "stem") or reading is None or not reading.verb or not reading.lemma.isalpha():
            return None
        other = reading.lemma
        if other == lemma or other == self.tokens[i].text or other in self.lemmas_for_lemma(lemma):
            return None
        return other

    def lemmas_for_lemma(self, lemma: str) -> frozenset[str]:
        """Spellings of ``lemma`` an analyser may give as its lemma (a German verb without its ``sich``)."""
        return frozenset({lemma, lemma.replace("-", ""), lemma.replace("_", " ")})

    def _spelling_method(self, text: str, lemma: str, i: int | None, *, stem: bool = True) -> str | None:
        if text == lemma:
            return "exact"
        if self.m.tables and self.config.inflections:
            if i is not None and self.m.mesoclitic_endings and (joined := self._mesoclisis(i)):
                text = joined
            return table_method(text, lemma, self.code, lambda w: _simplemma_word(w, self.code))
        lemmas = self.lemmas[i] if i is not None else self._lemmas_of(text)
        if lemma in lemmas:
            return "lemma"
        if self.config.inflections and text in inflections(lemma, self.code):
            return "inflection"
        known = self.known[i] if i is not None else False
        if stem and self.config.stem and self.code != "en" and not known and stem_match(text, lemma):
            return "stem"
        if (i is not None and not self.has_lemmatizer and self.config.verb_form and text in self.declared
                and _plausible_form(text, lemma)):
            return "verb_form"
        return None

    def _mesoclisis(self, i: int) -> str | None:
        """Portuguese mesoclisis: token ``i`` joined by hyphens to an ``enclitics`` pronoun and a
        ``mesoclitic_endings`` ending ("Dir-te-ei", "dar-lhe-ia", "comprá-lo-emos") is the future or
        conditional written whole ("direi", "daria", "compraremos": an accented stem vowel takes its ``r``
        back); None otherwise."""
        toks, text, m = self.tokens, self.sentence, self.m
        if i + 2 >= len(toks) or toks[i + 2].text not in m.mesoclitic_endings or toks[i + 1].text not in m.enclitics:
            return None
        if not (toks[i + 1].start == toks[i].end + 1 and text[toks[i].end] == "-"
                and toks[i + 2].start == toks[i + 1].end + 1 and text[toks[i + 1].end] == "-"):
            return None
        stem = toks[i].text
        if stem[-1:] in ("á", "ê", "í", "ô"):
            stem = stem[:-1] + {"á": "a", "ê": "e", "í": "i", "ô": "o"}[stem[-1]] + "r"
        return stem + toks[i + 2].text

    def _lemmas_of(self, word: str) -> frozenset[str]:
        out: set[str] = set()
        for src in self.config.sources if self.config.sources is not None else lemma_sources(self.code):
            if src != "hanta":
                fn = SOURCES[src] if isinstance(src, str) else src
                out |= fn([word], self.code)[0]
        return frozenset(out)

    def result(self, head: int, mask_idx: list[int], method: str) -> VerbMatch:
        t = self.tokens[head]
        mask = [(self.tokens[i].start, self.tokens[i].end) for i in sorted(set(mask_idx))]
        return VerbMatch(True, (t.start, t.end), mask, self.sentence[t.start:t.end], method)

    def near(self, start: int, *, back: bool = False) -> range:
        """Token indices after (or before) ``start`` within the window."""
        if back:
            return range(start - 1, max(0, start - self.window) - 1, -1)
        return range(start + 1, min(len(self.tokens), start + self.window + 1))


def sentence_context(sentence: str, lang: str, config: MatchConfig, verb_form: str | None = None) -> SentenceContext:
    code = base_lang(lang)
    tokens, clause, lemmas, known, tagged, has_lemmatizer = _analysis(sentence, code, config)
    declared = frozenset(w.lower() for w in WORD_RE.findall(verb_form or ""))
    return SentenceContext(sentence, tokens, clause, lemmas, known, tagged, code, config, morphology(code), has_lemmatizer,
                declared)


@lru_cache(maxsize=4096)
def _analysis(sentence: str, code: str, config: MatchConfig) -> tuple[
        tuple[Token, ...], tuple[int, ...], tuple[frozenset[str], ...], tuple[bool, ...],
        tuple[Reading | None, ...] | None, bool]:
    """What :func:`find_verb` needs of one sentence whatever the lemma: tokens, clause ids, lemma sets,
    ``simplemma`` knowledge and the analyser's reading per token (None: no analyser or ``config.pos`` off),
    whether a lemmatiser applies; cached per (sentence, base language, configuration), so the two checks
    that search the same sentence (for different lemmas or declared forms) analyse it once. A verb
    reading adds the analyser's lemma in context to the token's lemmas. Emptied by :func:`clear_caches`;
    an analyser failure is not cached."""
    tokens = sentence_tokens(sentence, code)
    words = [sentence[t.start:t.end] for t in tokens]
    names = config.sources if config.sources is not None else lemma_sources(code)
    lemmas = [{t.text} for t in tokens]
    for src in names:
        fn = SOURCES[src] if isinstance(src, str) else src
        for i, found in enumerate(fn(words, code)):
            lemmas[i] |= found
    tagged = readings(sentence, words, [(t.start, t.end) for t in tokens], code) if config.pos else None
    for i, r in enumerate(tagged or ()):
        if r is not None and r.verb and r.lemma:
            lemmas[i].add(r.lemma)
    known = [False] * len(tokens)
    if "simplemma" in names:
        known = [_simplemma_knows(t.text, code) for t in tokens]
    clause, current, prev_end = [], 0, 0
    for t in tokens:
        if _CLAUSE_END.search(sentence[prev_end:t.start]):
            current += 1
        clause.append(current)
        prev_end = t.end
    return tokens, tuple(clause), tuple(frozenset(x) for x in lemmas), tuple(known), tagged, bool(names or tagged)


register_dependent_cache(_analysis.cache_clear)
register_dependent_cache(sentence_tokens.cache_clear)
