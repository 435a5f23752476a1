"""Find the target verb of an LU in a sentence, for any language (the verb check of fbagent.checks).

A token counts as the verb ``lemma`` when (first match wins; the name is the
``method`` recorded with every check):

1. ``exact``: it is the lemma;
2. ``lemma``: a lemmatiser of the language maps it to the lemma (sources by
   language in :mod:`fbagent.checks.lemmas`: lemminflect and simplemma for English;
   simplemma and HanTa, which tags the whole sentence, for Dutch and German;
   simplemma for the 50+ other languages it covers);
3. ``inflection``: it is one of the lemma's generated forms
   (:func:`fbagent.checks.morphology.inflections`: lemminflect for English, weak-verb
   rules for Dutch and German);
4. ``stem``: outside English, no lemmatiser knows the token and it shares a
   prefix of at least ``max(4, len(lemma) - 2)`` characters with the lemma;
5. ``verb_form``: only for a language with no lemmatiser, the token is the
   generator's declared ``verb_form`` and shares its first letter or three
   letters in a row with the lemma (:func:`lemmatizer_note` says so).

Part of speech (:mod:`fbagent.checks.analysers`: HanTa for German, Dutch and English,
spaCy ``fr_core_news_sm`` for French): a token the sentence's analyser reads as
a noun, adposition or conjunction is not the verb whatever its spelling ("a run",
"De stelen", "Der Anruf", "un souvenir"); a generated form (``inflection``,
``stem``, a joined separable form) counts only where the analyser reads it as a
verb or simplemma's lexicon knows the word, so rules never invent a word. French
"avoir/être + participle" ("s'est plainte") and a verb joined to a pronoun by a
hyphen ("Dépêchez-vous") are verb readings whatever the tagger says.

Separable verbs (languages with ``separable_particles`` in
``prompts/verbs/morphology.toml``: Dutch, German): ``samenvatten`` also
matches the base verb with its particle anywhere later in the same clause
("Hij vat het samen."): clause-final, before a word listed in ``after_particle``,
or, with an analyser, read as a particle before any word ("kwam aan wegens");
with an analyser the clause also ends where a conjunction or relative pronoun is
followed by a finite verb, whose particle it then is ("trok de deur dicht en ging
uit" is not uittrekken); without one the particle must stand within ``window``
tokens. Also the particle just before the base with only cluster words between
("samen te vatten", "dat hij het samen wil vatten"), or glued to a form of the
base ("samengevat", "anzurufen"). The base alone or the particle alone is not
the verb.

Multi-word LUs (:func:`fbagent.framenet.lu_names.lemma_parts`): the first
required part is matched as a verb (1-5 above), every other required part, in
order, by word or lemma within ``window`` tokens of the previous one and in
the same clause (clauses end at ``, ; : . ! ?``); parenthesised parts and
``optional_words`` (reflexive pronouns, ``someone's``) may be missing and are
masked when present, but only beside a verb reading of the head (a bare noun
never passes through them); ``a/b`` are alternatives. French reflexive LUs
(``se souvenir``) need a reflexive pronoun (``reflexive_clitics``): before the
verb with only auxiliaries, negation and clitics between ("nous nous sommes
souvenus"), or after it with a hyphen ("Réveille-toi").

Japanese (written without spaces): fugashi/UniDic by lemma and reading
(:mod:`fbagent.checks.verb_match_ja`), else the dictionary form minus its final kana as
written (:func:`fbagent.checks.lemmas.require_verb_analyser` refuses runs that did not
accept that).

Errors: a missing dependency (lemminflect, simplemma, HanTa) or a fugashi
without its dictionary raises :class:`fbagent.errors.FbagentError` naming the
package; nothing falls back silently.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from fbagent.checks.analysers import Reading, readings, segmenter_installed
from fbagent.checks.conjugation import table_method
from fbagent.checks.lemmas import (
    SOURCES,
    LemmaSource,
    _fugashi_tagger,
    _simplemma_knows,
    _simplemma_word,
    clear_caches,
    lemma_sources,
    lemmatizer_note,
    register_dependent_cache,
    token_lemmas,
)
from fbagent.checks.morphology import Morphology, inflections, morphology, separable_splits
from fbagent.checks.verb_match_ja import find_verb_ja
from fbagent.checks.verb_match_zh import find_verb_ko, find_verb_zh
from fbagent.framenet.lu_names import LemmaPart, lemma_parts
from fbagent.languages import NO_SPACE_LANGS, base_lang, written_without_spaces

__all__ = [
    "NO_SPACE_LANGS", "SOURCES", "LemmaSource", "MatchConfig", "Token", "VerbMatch", "clear_caches", "find_verb",
    "lemma_sources", "lemmatizer_note", "sentence_tokens", "token_is_lemma", "token_lemmas", "tokenize",
    "written_without_spaces",
]

_WORD_RE = re.compile(r"\w+", re.UNICODE)
_CLAUSE_END = re.compile(r"[,;:.!?¿¡…،؛。、！？]")

@dataclass(frozen=True)
class Token:
    """A unit of a sentence: text (lower-cased) and its character span ``[start, end)``."""

    text: str
    start: int
    end: int


def tokenize(sentence: str, lang: str) -> list[Token]:
    """Split ``sentence`` into units: lower-cased words, or characters for no-space languages.

    Punctuation and whitespace are dropped in both cases.
    """
    if written_without_spaces(lang):
        return [
            Token(ch.lower(), i, i + 1)
            for i, ch in enumerate(sentence)
            if not ch.isspace() and not unicodedata.category(ch).startswith(("P", "S"))
        ]
    return [Token(m.group().lower(), m.start(), m.end()) for m in _WORD_RE.finditer(sentence)]


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


def _stem_match(token: str, lemma: str) -> bool:
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
class _Ctx:
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
            if toks[j].text in m.prenominal:
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
            return text
        if text in m.clitic_articles and (j == 0 or self.clause[j - 1] != self.clause[j]
                                          or toks[j - 1].text in m.prepositions):
            if j == i - 1 and (j == 0 or self.clause[j - 1] != self.clause[j]) and self.clitic_pronoun(j, i):
                return None
            return text
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
                or self.function_word(i):
            return None
        if method in ("inflection", "stem") and verb is not True and not (method == "inflection" and self.known[i]):
            return None  # a generated form the analyser does not read as a verb and no lexicon knows
        return method

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
            return table_method(text, lemma, self.code, lambda w: _simplemma_word(w, self.code))
        lemmas = self.lemmas[i] if i is not None else self._lemmas_of(text)
        if lemma in lemmas:
            return "lemma"
        if self.config.inflections and text in inflections(lemma, self.code):
            return "inflection"
        known = self.known[i] if i is not None else False
        if stem and self.config.stem and self.code != "en" and not known and _stem_match(text, lemma):
            return "stem"
        if (i is not None and not self.has_lemmatizer and self.config.verb_form and text in self.declared
                and _plausible_form(text, lemma)):
            return "verb_form"
        return None

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


def _context(sentence: str, lang: str, config: MatchConfig, verb_form: str | None = None) -> _Ctx:
    code = base_lang(lang)
    tokens, clause, lemmas, known, tagged, has_lemmatizer = _analysis(sentence, code, config)
    declared = frozenset(w.lower() for w in _WORD_RE.findall(verb_form or ""))
    return _Ctx(sentence, tokens, clause, lemmas, known, tagged, code, config, morphology(code), has_lemmatizer,
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


# --------------------------------------------------------------------------- matchers

Candidate = tuple[int, list[int], str]  # (head token, masked tokens, method)


def _separable(ctx: _Ctx, particle: str, base: str) -> list[Candidate]:
    m = ctx.m
    out: list[Candidate] = []
    marker = m.infinitive_marker
    for i, t in enumerate(ctx.tokens):
        if t.text.startswith(particle) and len(t.text) > len(particle):
            rest = t.text[len(particle):]
            rests = [rest] + ([rest[len(marker):]] if marker and rest.startswith(marker) else [])
            verb = ctx.verb_reading(i) if ctx.config.pos else None
            real = verb is True or ctx.known[i] or ctx.readings is None or not ctx.config.pos
            if verb is not False and real and any(ctx.word_method(r, base, None, stem=False) for r in rests):
                out.append((i, [i], "separable:joined"))
                continue
        if not ctx.word_method(t.text, base, i, stem=False):
            continue
        j = _particle_after(ctx, i, particle, m.after_particle)
        if j is None:
            j = _particle_before(ctx, i, particle, m.cluster_words | {marker})
        if j is not None:
            out.append((i, [i, j], "separable"))
    return out


def _particle_after(ctx: _Ctx, i: int, particle: str, after: frozenset[str]) -> int | None:
    """The separated particle later in token ``i``'s clause ("Hij vat het verhaal samen."): clause-final,
    before a word of ``after``, or read as a particle by the analyser; an occurrence that is none of these
    (a preposition: "op de krant") is passed over. With an analyser the clause ends at a conjunction or
    relative pronoun followed by a finite verb; without one the particle must be within the window."""
    toks = ctx.tokens
    readings = ctx.readings if ctx.readings is not None and ctx.config.pos else None
    tagged = readings is not None
    opened = False  # a conjunction or relative pronoun since token i: its finite verb starts another clause
    for j in range(i + 1, len(toks)):
        if ctx.clause[j] != ctx.clause[i] or (not tagged and j - i > ctx.window):
            return None
        r = readings[j] if readings is not None else None
        if r is not None and r.pos == "conjunction":
            opened = True
        elif r is not None and opened and r.verb and r.finite:
            return None
        if toks[j].text == particle and _is_particle(ctx, j, after, r):
            return j
    return None


#: parts of speech a separated particle never has: "Er nahm ein Stück", "over de weg", "ging weg" (a verb)
_NEVER_PARTICLE = frozenset({"determiner", "noun", "verb", "conjunction"})


def _is_particle(ctx: _Ctx, j: int, after: frozenset[str], r: Reading | None) -> bool:
    """Whether token ``j``, spelled like a particle, is the separated particle (see :func:`_particle_after`).

    With an analyser: at the clause end any word but a conjunction or the noun of a noun phrase
    ("over de weg"); before it never an article, noun, verb or conjunction ("Er nahm ein Stück"),
    an adverb or adjective neither ("spielt wieder Fußball", "dat de deur open was"), a particle by
    part of speech always, another word before a word of ``after`` or before an adposition ("belde
    haar op vanuit Parijs"). Without one: the clause end or before a word of ``after``."""
    toks = ctx.tokens
    last = j + 1 >= len(toks) or ctx.clause[j + 1] != ctx.clause[j]
    if j > 0 and toks[j - 1].text in ctx.m.degree_adverbs and ctx.clause[j - 1] == ctx.clause[j] \
            and r is not None and r.pos in ("adjective", "adverb"):
        return False  # "sprang so hoch", "schreien viel zu laut": an adverb of degree modifies an adjective, never a particle
    nxt = ctx.readings[j + 1] if ctx.readings is not None and not last else None
    if toks[j].text in ctx.m.degree_adverbs and nxt is not None and nxt.pos in ("adjective", "adverb"):
        return False  # "hängt zu tief": "zu" is the adverb of degree of the adjective after it
    if r is None:
        return last or toks[j + 1].text in after
    if last:  # no article or verb ends a clause after its verb: HanTa, seeing no final punctuation, may say so
        before = ctx.readings[j - 1] if ctx.readings is not None and j > 0 else None
        noun_phrase = r.pos == "noun" and (ctx.determiner_before(j) is not None or (
            before is not None and before.pos in ("determiner", "adjective", "adposition")))
        return not noun_phrase and r.pos != "conjunction"  # "over de weg" is a noun phrase
    if r.pos in _NEVER_PARTICLE:
        return False
    if r.pos == "particle":
        return True
    if r.pos in ("adverb", "adjective"):
        return False
    nxt = ctx.readings[j + 1] if ctx.readings is not None else None
    return toks[j + 1].text in after or r.pos == "other" or (nxt is not None and nxt.pos == "adposition")


def _particle_before(ctx: _Ctx, i: int, particle: str, between: frozenset[str]) -> int | None:
    """The particle just before the base, only cluster words between ("samen te vatten", "samen wil vatten")."""
    for j in ctx.near(i, back=True):
        if ctx.clause[j] != ctx.clause[i] or i - j > 3:
            return None
        if ctx.tokens[j].text == particle:
            return j
        if ctx.tokens[j].text not in between:
            return None
    return None


def _other_separable(ctx: _Ctx, i: int, lemma: str, particles: tuple[str, ...], after: frozenset[str]) -> bool:
    """True when token ``i`` has a separated particle of its own ("Er zog die Jacke an." is anziehen, not ziehen)."""
    own = {p for p, _ in separable_splits(lemma, ctx.code)}
    return any(p not in own and _particle_after(ctx, i, p, after) is not None and _real_verb(ctx, i, p)
               for p in particles if p in {t.text for t in ctx.tokens[i + 1:]})


def _real_verb(ctx: _Ctx, i: int, particle: str) -> bool:
    """Whether ``particle`` + a lemma of token ``i`` is a verb of the language (simplemma's lexicon knows it
    as its own lemma): "anziehen" for "zog ... an"; "wiederspielen" for "spielt ... wieder" is none."""
    for lemma in ctx.lemmas[i]:
        verb = particle + lemma
        if verb.endswith("n") and _simplemma_knows(verb, ctx.code) \
                and _simplemma_word(verb, ctx.code).replace("_", "") == verb:
            return True
    return False


def _alt_at(ctx: _Ctx, j: int, alt: tuple[str, ...], head: bool) -> tuple[list[int], str] | None:
    """Token indices of alternative ``alt`` starting at token ``j`` and how its first word matched, or None."""
    idx = list(range(j, j + len(alt)))
    if idx[-1] >= len(ctx.tokens) or any(ctx.clause[k] != ctx.clause[j] for k in idx):
        return None
    method = "exact"
    for k, word in zip(idx, alt, strict=True):
        tok = ctx.tokens[k].text
        if head and k == j:
            found = ctx.word_method(tok, word, k)
            if not found:
                return None
            method = found
        elif tok != word and word not in ctx.lemmas[k] and not (ctx.m.tables and ctx.word_method(tok, word, k, stem=False)):
            return None  # a later part may be the verb itself where the verb comes last (Turkish "izin vermek")
    return idx, method


def _in_order(ctx: _Ctx, parts: Sequence[LemmaPart]) -> tuple[list[Candidate], int | None]:
    """Occurrences of all required parts in order (optional ones masked when near); and a head without its parts."""
    first = next(k for k, p in enumerate(parts) if not p.optional)
    head_part, rest = parts[first], parts[first + 1:]
    several = sum(not p.optional for p in parts) > 1
    found: list[Candidate] = []
    partial = None
    for i in range(len(ctx.tokens)):
        for alt in head_part.alternatives:
            head = _alt_at(ctx, i, alt, head=True)
            if head is None:
                continue
            mask, pos, ok = list(head[0]), head[0][-1], True
            for part in rest:
                hit = None
                for j in ctx.near(pos):
                    if ctx.clause[j] != ctx.clause[i] or ctx.finite_verb_between(pos, j):
                        break
                    hit = next((h for a in part.alternatives if (h := _alt_at(ctx, j, a, head=False))), None)
                    if hit:
                        break
                if hit:
                    mask += hit[0]
                    if not part.optional:
                        pos = hit[0][-1]
                elif not part.optional:
                    ok = False
                    break
            if ok:
                found.append((i, mask, "multiword" if several else head[1]))
                break
            if partial is None:
                partial = i
    return found, partial


@lru_cache(maxsize=4096)
def _effective_parts(lemma: str, code: str) -> tuple[LemmaPart, ...]:
    m = morphology(code)
    parts = lemma_parts(lemma)
    out = [
        LemmaPart(p.alternatives, p.optional or all(len(a) == 1 and a[0] in m.optional_words for a in p.alternatives))
        for p in parts
    ]
    if out and all(p.optional for p in out):  # "(x)" alone, or only optional words: keep them required
        out = [LemmaPart(p.alternatives, False) for p in parts]
    return tuple(out)


def _reflexive_part(parts: Sequence[LemmaPart], m: Morphology) -> bool:
    """True when the LU starts with a reflexive pronoun that the language requires (French ``se souvenir``)."""
    return (bool(m.reflexive_clitics) and len(parts) > 1 and not parts[0].optional
            and all(len(a) == 1 and a[0] in m.reflexive_clitics for a in parts[0].alternatives))


def _reflexive_at(ctx: _Ctx, i: int) -> int | None:
    """The reflexive pronoun of the verb at token ``i``: before it with only ``between_auxiliary`` words and
    auxiliaries between ("nous nous sommes souvenus", "ne s'en souvient"), or joined after it by a hyphen
    ("Réveille-toi"). A ``nous`` / ``vous`` just before a finite verb is its subject, not a reflexive, unless
    another ``nous`` / ``vous`` precedes it."""
    m, toks = ctx.m, ctx.tokens
    if i + 1 < len(toks) and toks[i + 1].text in m.reflexive_clitics and toks[i + 1].start == toks[i].end + 1 \
            and ctx.sentence[toks[i].end] in "-\u2011":
        return i + 1
    for j in range(i - 1, max(-1, i - 6), -1):
        if ctx.clause[j] != ctx.clause[i]:
            return None
        text = toks[j].text
        if text in m.reflexive_clitics:
            if text not in ("nous", "vous"):
                return j
            subject_only = j == 0 or toks[j - 1].text != text
            reading = ctx.readings[i] if ctx.readings is not None else None
            finite = reading is not None and reading.finite
            if not (subject_only and finite and j == i - 1):
                return j
        if text not in m.between_auxiliary and text not in m.auxiliaries:
            return None
    return None


def _single_word(parts: Sequence[LemmaPart]) -> str | None:
    required = [p for p in parts if not p.optional]
    if len(required) == 1 and len(required[0].alternatives) == 1 and len(required[0].alternatives[0]) == 1:
        return required[0].alternatives[0][0]
    return None


def find_verb(
    sentence: str, lemma: str, lang: str, verb_form: str | None = None, *, config: MatchConfig = DEFAULT_CONFIG
) -> VerbMatch:
    """Find the verb ``lemma`` (an LU lemma in FrameNet notation) in ``sentence`` (see the module doc).

    ``verb_form`` (what the generator says it used) picks the occurrence when
    several tokens match, and is the fallback for a language without a
    lemmatiser. Returns a :class:`VerbMatch` (``found`` False with ``method``
    ``multiword:part-missing`` when the head verb occurs without a required
    part). Raises :class:`FbagentError` when a lemmatiser package is missing.
    """
    if not lemma or not lemma.strip() or not sentence:
        return VerbMatch(False, method="empty")
    if written_without_spaces(lang):
        return _find_verb_no_space(sentence, lemma, lang, verb_form)
    code = base_lang(lang)
    if code == "ko" and segmenter_installed("ko"):
        return _analysed(find_verb_ko(sentence, lemma.strip().lower()), "kiwi")
    parts = _effective_parts(lemma, code)
    if not parts:
        return VerbMatch(False, method="empty")
    ctx = _context(sentence, code, config, verb_form)
    m = ctx.m
    reflexive = _reflexive_part(parts, m)
    if reflexive:
        parts = parts[1:]
    required = [p for p in parts if not p.optional]
    word = _single_word(parts)
    search = parts
    splits: list[tuple[str, str]] = []
    if word is not None:
        splits = separable_splits(word, code)
    elif m.separable_particles and len(required) == 2 and all(len(p.alternatives) == 1 for p in required):
        a, b = required[0].alternatives[0], required[1].alternatives[0]
        if len(a) == len(b) == 1 and (a[0] in m.separable_particles) != (b[0] in m.separable_particles):
            particle, base = (a[0], b[0]) if a[0] in m.separable_particles else (b[0], a[0])
            splits = [(particle, base)]  # "samen vatten" / "vatten samen": one separable verb
            search = (LemmaPart(((particle + base,),)),)
    candidates, partial = _in_order(ctx, search)
    if config.separable and m.separable_particles and word is not None:
        candidates = [c for c in candidates if not _other_separable(ctx, c[0], word, m.separable_particles,
                                                                    m.after_particle)]
    if config.separable:
        for particle, base in splits:
            candidates += _separable(ctx, particle, base)
    if reflexive:
        candidates = [(c[0], c[1] + [r], c[2]) for c in candidates if (r := _reflexive_at(ctx, c[0])) is not None]
    if candidates:
        candidates.sort(key=lambda c: c[0])
        form = [w.lower() for w in _WORD_RE.findall(verb_form or "")]
        chosen = next((c for c in candidates if form and ctx.tokens[c[0]].text in form), candidates[0])
        return ctx.result(*chosen)
    if partial is not None:
        t = ctx.tokens[partial]
        rest = " ".join(" ".join(a) for p in required[1:] for a in p.alternatives[:1])
        return VerbMatch(False, span=(t.start, t.end), method="multiword:part-missing",
                         note=f"'{sentence[t.start:t.end]}' is there but not '{rest}' in the same clause")
    return VerbMatch(False, method="lemma" if ctx.has_lemmatizer else "surface", note=_refusal_note(ctx, word, splits))


def _refusal_note(ctx: _Ctx, word: str | None, splits: list[tuple[str, str]]) -> str:
    """Why no token was taken for the one-word verb ``word``: the first form of it (or of its base verb,
    for a separable one) seen in the sentence and what refused it; "" when there is none."""
    if word is None:
        return ""
    for i, t in enumerate(ctx.tokens):
        for verb, particle in [(word, None), *((base, p) for p, base in splits)]:
            if not ctx._spelling_method(t.text, verb, i, stem=False):
                continue
            surface = ctx.sentence[t.start:t.end]
            if ctx.config.pos and (det := ctx.determiner_before(i)) is not None:
                return f"'{surface}' follows '{det}' and is read as a noun, not as a form of '{word}'"
            if ctx.config.pos and ctx.function_word(i):
                return f"'{surface}' is read as a function word here (no subject or negation before it), not as a form of '{word}'"
            if ctx.config.pos and (compound := ctx.hyphen_compound(i)) is not None:
                return f"'{surface}' is part of the compound '{compound}', not a form of '{word}' on its own"
            if ctx.config.pos and (other := ctx.other_verb(i, verb, ctx._spelling_method(t.text, verb, i) or "")):
                return f"'{surface}' is read as a form of '{other}' here, not of '{word}'"
            if ctx.config.pos and ctx.verb_reading(i) is False:
                reading = ctx.readings[i] if ctx.readings is not None else None
                pos = reading.pos if reading is not None else "noun"
                return f"'{surface}' is read as a {pos} here, not as a form of '{word}'"
            if particle is not None:
                return (f"'{surface}' is a form of '{verb}', but its particle '{particle}' does not stand at the end "
                        f"of its clause as a separated particle, so it is not '{word}'")
            return f"'{surface}' has a separated particle of its own here, which makes it another verb than '{word}'"
    return ""


def _analysed(hit: tuple[int, int, str, str] | None, method: str) -> VerbMatch:
    """A :class:`VerbMatch` from a segmenting analyser's answer (:mod:`fbagent.checks.verb_match_zh`)."""
    if hit is None:
        return VerbMatch(False, method=method)
    start, end, surface, note = hit
    if start < 0:
        return VerbMatch(False, method=method, note=note)
    return VerbMatch(True, (start, end), [(start, end)], surface, method)


def token_is_lemma(token: str, lemma: str, lang: str) -> bool:
    """True when the lower-cased ``token`` is a form of the one-word ``lemma`` out of context (methods 1-4)."""
    code = base_lang(lang)
    lemma = lemma.lower()
    if token == lemma or lemma in token_lemmas(token, code) or token in inflections(lemma, code):
        return True
    known = "simplemma" in lemma_sources(code) and _simplemma_knows(token, code)
    return code != "en" and not known and _stem_match(token, lemma)


def _find_verb_no_space(sentence: str, lemma: str, lang: str, verb_form: str | None) -> VerbMatch:
    lemma = lemma.replace("_", " ").replace(" ", "").strip().lower()
    if base_lang(lang) == "zh" and segmenter_installed("zh"):
        return _analysed(find_verb_zh(sentence, lemma), "jieba")
    if base_lang(lang) == "ja" and (tagger := _fugashi_tagger()) is not None:
        hit = find_verb_ja(sentence, lemma, tagger)
        if hit is None:
            return VerbMatch(False, method="fugashi")
        start, end, surface = hit
        return VerbMatch(True, (start, end), [(start, end)], surface, "fugashi")
    # No morphological analyser: the stem (dictionary form minus its last kana) must occur.
    stem = lemma[:-1] if len(lemma) > 1 and _is_kana(lemma[-1]) else lemma
    if verb_form and verb_form in sentence and verb_form.startswith(stem):
        start = sentence.index(verb_form)
        return VerbMatch(True, (start, start + len(verb_form)), [(start, start + len(verb_form))], verb_form, "stem+form")
    start = sentence.find(stem)
    if start < 0:
        return VerbMatch(False, method="stem")
    end = start + len(stem)
    while end < len(sentence) and _is_kana(sentence[end]) and end - start < len(stem) + 4:
        end += 1  # take the inflectional ending (okurigana) along
    return VerbMatch(True, (start, end), [(start, end)], sentence[start:end], "stem")


def _is_kana(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff"
