"""One sentence as the verb check sees it, whatever the target lemma (:mod:`fbagent.checks.verb_match`).

:class:`SentenceFacts` holds what :func:`fbagent.checks.verb_match.find_verb` knows of a sentence (tokens and
clause ids, each token's lemma set, simplemma's knowledge, the analyser's reading) and answers the questions
about one token that need no target: is it read as a verb, does a determiner make it a noun, is it a function
word, part of a hyphenated compound, a sentence-initial imperative, and by which spelling method (exact, lemma,
inflection, stem, verb_form) it is a form of a lemma. The rules that weigh a spelling match of the target against
the context (another verb's form, a noun or adjective where a tagger is missing) are
:class:`fbagent.checks.verb_context.SentenceContext`'s. The analysis is cached per (sentence, language,
configuration) and emptied with the lemma caches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.analyser_tr import optative_of, own_verb_form
from fbagent.checks.analysers import Reading, readings
from fbagent.checks.conjugation import (
    nonfinite_form,
    strong_participles,
    table_method,
    third_singular,
)
from fbagent.checks.lemmas import (
    SOURCES,
    _simplemma_knows,
    _simplemma_word,
    lemma_sources,
    register_dependent_cache,
)
from fbagent.checks.lexicon_hunspell import is_adjective
from fbagent.checks.morphology import Morphology
from fbagent.checks.paradigms import inflections
from fbagent.checks.verb_tokens import (
    MatchConfig,
    Token,
    VerbMatch,
    plausible_form,
    sentence_tokens,
    stem_match,
)

_CLAUSE_END = re.compile(r"[,;:.!?¿¡…،؛。、！？]")
#: French le / la / les, object clitics after another clitic or a subject pronoun (Grevisse & Goosse, *Le bon usage*,
#: § 683: the order of the clitic pronouns, me / te / se / nous / vous before le / la / les before lui / leur)
_FR_OBJECT_ARTICLES = frozenset({"le", "la", "les"})
_FR_CLITICS_BEFORE_ARTICLE = frozenset({"me", "m", "te", "t", "se", "s", "nous", "vous", "ne", "n", "je", "j", "tu", "il",
                                        "elle", "on", "ils", "elles"})
_NOT_VERB = frozenset({"noun", "adposition", "conjunction", "numeral"})


@dataclass
class SentenceFacts:
    """One sentence being searched: tokens, their clause ids, lemma sets and readings, the language and configuration,
    and the questions about one token that need no target lemma (see the module doc)."""

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
        subject-pronoun or hyphen construction), False (a noun, adposition, conjunction or numeral, or right after a
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
        before = self.readings[i - 1] if self.readings is not None and i > 0 else None
        if self.m.no_verb_after_adposition and before is not None and before.pos == "adposition" \
                and self.clause[i - 1] == self.clause[i] and self.tokens[i].text != self.m.infinitive_marker:
            return False  # "met zijn hond", "für sein Kind": after a preposition a possessive or a noun, no verb form
        if reading.pos == "numeral" and not self._counts(i):
            return None  # "Wir sieben das Mehl": a number word before an article counts nothing
        return False if reading.pos in _NOT_VERB else None

    def _counts(self, i: int) -> bool:
        """Whether token ``i``, read as a number word, counts something: a noun or adjective follows it in its
        clause ("sieben Jahre", "sieben neue Bücher"), or it ends the clause ("Sie ist sieben.")."""
        if i + 1 >= len(self.tokens) or self.clause[i + 1] != self.clause[i]:
            return True
        nxt = self.readings[i + 1] if self.readings is not None else None
        return nxt is not None and nxt.pos in ("noun", "adjective")

    def _adjectives_before(self, i: int) -> int:
        """The index of the word before the adjectives that precede token ``i`` in its clause: ``prenominal``
        words, a word with an ``adjective_endings`` suffix or an adjective of the language's Hunspell dictionary
        (``hunspell_adjectives``: :mod:`fbagent.checks.lexicon_hunspell`) right after a determiner, pairs joined by an ``adjective_links`` word whose first member is listed ("largo y agradable"),
        one more word before a listed adjective ("en vass liten"), or any two words joined by a link right
        after a determiner ("un bello y triste"): a determiner there makes ``i`` a noun
        (only then is the walk used). ``i - 1`` when no adjective stands before ``i``."""
        m, toks, clause = self.m, self.tokens, self.clause
        if i >= 3 and toks[i - 2].text in m.degree_adverbs and toks[i - 3].text in m.determiners \
                and clause[i - 3] == clause[i] and m.tables:
            return i - 3   # determiner, degree adverb, adjective: "en mycket stark vilja"
        if i >= 4 and toks[i - 2].text in m.adjective_links and toks[i - 4].text in m.determiners \
                and clause[i - 4] == clause[i]:
            return i - 4   # determiner, adjective, link, adjective: "un bello y triste canto"
        j, passed = i - 1, False
        while j > 0 and clause[j - 1] == clause[i]:
            if toks[j].text in m.prenominal or self._attributive(j) or (
                    (m.adjective_endings and toks[j].text.endswith(m.adjective_endings)
                     or m.hunspell_adjectives and is_adjective(toks[j].text, self.code))
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

    def _attributive(self, j: int) -> bool:
        """Whether the analyser reads token ``j`` as an adjective with a determiner right before it ("het lange wachten",
        "a long walk"): an attributive adjective, which the noun after it follows. Never where adjectives follow their
        noun (``postnominal_adjectives``: French "cette céréale semble", the tagger's adjective is the noun)."""
        readings = self.readings
        if readings is None or j == 0 or (r := readings[j]) is None or r.pos != "adjective" or self.m.postnominal_adjectives:
            return False
        return self.tokens[j - 1].text in self.m.determiners or (b := readings[j - 1]) is not None and b.pos == "determiner"

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
        if j < i - 1 and self._attributive(j + 1) and text not in m.determiners:
            return text   # "Het lange wachten": the analyser's determiner before an attributive adjective
        if text in m.determiners:
            if text in m.optional_words and j == i - 1 and j > 0 and toks[j - 1].text in m.verb_context:
                return None  # Portuguese "nós nos mudamos": the reflexive pronoun, not em + os
            return text
        if text in m.clitic_articles and (j == 0 or self.clause[j - 1] != self.clause[j]
                                          or toks[j - 1].text in m.prepositions or self.finite_other(j - 1)
                                          or self._after_perfect(j)):
            if j == i - 1 and (j == 0 or self.clause[j - 1] != self.clause[j]) and self.clitic_pronoun(j, i):
                return None
            return text
        return None

    def _after_perfect(self, j: int) -> bool:
        """Whether token ``j`` follows a participle (``nonfinite_endings``) that follows a ``perfect_auxiliaries``
        word in its clause: a clitic pronoun never stands there, so a ``clitic_articles`` word is the article
        ("ha perso l'amo")."""
        m, toks = self.m, self.tokens
        return j >= 2 and self.clause[j - 2] == self.clause[j] and toks[j - 2].text in m.perfect_auxiliaries \
            and toks[j - 1].text.endswith(m.nonfinite_endings or ("\0",))

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

    def function_phrase(self, i: int) -> str | None:
        """The ``function_phrases`` entry (a fixed prepositional or adverbial phrase: Spanish "a pesar de", Italian
        "visto che", Turkish "ara sıra") that token ``i`` stands inside, its words in a row in one clause, as
        written; None when it stands in none. A verb form spelled inside one is part of a function word."""
        toks, clause, text = self.tokens, self.clause, self.tokens[i].text
        for phrase in self.m.function_phrases:
            for p, word in enumerate(phrase):
                start = i - p
                if word != text or start < 0 or start + len(phrase) > len(toks):
                    continue
                if all(toks[start + k].text == w and clause[start + k] == clause[i] for k, w in enumerate(phrase)):
                    return self.sentence[toks[start].start:toks[start + len(phrase) - 1].end]
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

    def function_word(self, i: int, lemma: str | None = None) -> bool:
        """Whether token ``i`` is a ``function_homographs`` word ("nada": nothing, or swims) read as the
        function word: not right after a ``verb_context`` word ("Ella nada", "no nada") nor before an
        ``inverted_subjects`` pronoun (Swedish "Nu för han dagbok"), not inside its clause where it is a
        ``clause_initial_homographs`` word (Latvian "kur": where, which opens its clause), nor after a noun that follows a determiner
        ("el niño nada"), unless a determiner follows it and its clause has a verb before the noun ("Hay una farmacia
        entre el banco", "köpte en present för min mamma": a preposition; "El policía para el coche": the verb).
        A word ending as a participle after a noun is the preposition ("en fråga angående hyran") only where it is a
        non-finite form of ``lemma`` (when given): Spanish "nada" ends as "-ada" but is nadar's 3rd person ("Mi hija
        nada mucho"); before its clause's finite verb it is the function word ("Mi abuelo nada sabe de eso"); after a noun subject it is
        the verb only as ``lemma``'s 3rd person singular present (:func:`fbagent.checks.conjugation.third_singular`)."""
        m, toks = self.m, self.tokens
        text = toks[i].text
        if text not in m.function_homographs:
            return False
        nxt = toks[i + 1].text if i + 1 < len(toks) and self.clause[i + 1] == self.clause[i] else None
        if nxt is not None and nxt in m.inverted_subjects:
            return False   # Swedish "Nu för han dagbok": a subject pronoun after it, verb second
        if i == 0 or self.clause[i - 1] != self.clause[i]:
            return True
        if text in m.clause_initial_homographs:
            return False   # Latvian "Tēvs kur ugunskuru": relative and interrogative "kur" open their clause
        k = i - 1   # French "n'a jamais vu": negation and adverbs may stand between the auxiliary and the participle
        while k > 0 and self.clause[k - 1] == self.clause[i] and toks[k].text not in m.verb_context \
                and (toks[k].text in m.between_auxiliary or toks[k].text in m.light_adverbs):   # "Viņš vienmēr tur"
            k -= 1
        if toks[k].text in m.verb_context and not (m.inverted_subjects and toks[k].text not in m.inverted_subjects
                                                   and k > 0 and self.clause[k - 1] == self.clause[i]
                                                   and self._dictionary_verb(k - 1)):
            return False   # not Swedish "gjorde det för ...": "det" after a verb is its object, no subject
        if text.endswith(m.nonfinite_endings or ("\0",)) and (lemma is None or nonfinite_form(text, lemma, self.code)):
            return True   # "en fråga angående hyran": a participle-shaped preposition after a noun stays one
        if nxt is not None and self._verb_follows(i):
            return True   # "Mi abuelo nada sabe", "A mi madre nada le gusta": the pronoun before its clause's verb
        if nxt is not None and (nxt in m.determiners or nxt in m.clitic_articles) \
                and any(self._dictionary_verb(k) for k in range(i - 2) if self.clause[k] == self.clause[i]):
            return True   # "Hay una farmacia entre el banco": the clause has its verb, so a preposition before its noun phrase
        if lemma is not None and m.conjugation and not third_singular(text, lemma, self.code):
            return True   # "El acuerdo entre los sindicatos": a noun subject takes no subjunctive "entre" of entrar
        return not (i >= 2 and self.clause[i - 2] == self.clause[i] and (
            toks[i - 2].text in m.determiners   # "O comboio para": a clause-initial article-clitic before a noun
            or (toks[i - 2].text in m.clitic_articles and (i == 2 or self.clause[i - 3] != self.clause[i])
                and not self._dictionary_verb(i - 1))))

    def _verb_follows(self, i: int) -> bool:
        """Whether a finite verb by the dictionary (:meth:`_dictionary_verb`) follows token ``i`` in its clause, at
        most one ``attached_clitics`` word between ("nada sabe", "nada le gusta"), or an infinitive ("para comer"):
        a clause has one finite verb, and a preposition takes the infinitive, so the ``function_homographs`` word
        before it is the function word."""
        toks, same = self.tokens, (lambda j: j < len(self.tokens) and self.clause[j] == self.clause[i])
        j = i + 1
        if same(j) and toks[j].text in self.m.attached_clitics:
            j += 1
        if not same(j):
            return False
        word = toks[j].text
        infinitive = word in self.lemmas[j] and word.endswith(self.m.infinitive_endings or ("\0",))
        return infinitive or self._dictionary_verb(j)   # "para comer": a preposition before the infinitive

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
        if before and toks[i - 1].text not in m.hyphen_prefixes and toks[i - 1].text not in m.enclitics:
            return text[toks[i - 1].start:(toks[i + 1].end if after else t.end)]
        if after and toks[i + 1].text not in m.enclitics and toks[i + 1].text not in m.hyphen_prefixes:
            return text[t.start:toks[i + 1].end]   # French "Donne-le", "Puis-je", "a-t-il": the verb and its clitic
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
        if self.hyphen_enclitic(i):
            return True
        if not (m.auxiliaries or m.subject_pronouns):
            return False
        for j in range(i - 1, max(-1, i - 6), -1):
            if self.clause[j] != self.clause[i]:
                return False
            text = toks[j].text
            if text in m.auxiliaries or text in m.subject_pronouns:
                return True
            if text in _FR_OBJECT_ARTICLES and j > 0 and toks[j - 1].text in _FR_CLITICS_BEFORE_ARTICLE \
                    and self.clause[j - 1] == self.clause[i]:
                continue   # "Je te le donnerai", "Nous vous les donnerons": le / la / les in a clitic cluster
            if text not in m.between_auxiliary:
                return False
        return False

    def hyphen_enclitic(self, i: int) -> bool:
        """Whether an ``enclitics`` pronoun is joined to token ``i`` by a hyphen ("Puis-je", "Prends-le"): a verb."""
        m, toks = self.m, self.tokens
        return bool(m.enclitics) and i + 1 < len(toks) and toks[i + 1].start == toks[i].end + 1 \
            and self.sentence[toks[i].end] in "-\u2011" and toks[i + 1].text in m.enclitics

    def _noun_or_unread(self, i: int) -> bool:
        """Whether the analyser reads token ``i`` as a noun or not at all: only such a reading of a sentence-initial
        word may be an imperative the tagger missed ("Ruf deinen Bruder!"), never an adposition ("Durant l'hiver")."""
        reading = self.readings[i] if self.readings is not None else None
        if reading is not None and reading.pos in ("adposition", "conjunction") and self.m.imperative_endings:
            return self.tokens[i].text.endswith(self.m.imperative_endings)   # "Sachez que": French 2pl imperative
        return reading is None or reading.pos == "noun"

    def final_infinitive(self, i: int) -> bool:
        """Dutch and German word order: token ``i`` ends its clause and a ``cluster_words`` word (a modal,
        an auxiliary, te / zu) stands earlier in it with no determiner right before ``i``: the infinitive of
        the verb cluster, even where the tagger reads a noun ("We moeten ons haasten")."""
        last = i + 1 >= len(self.tokens) or self.clause[i + 1] != self.clause[i]
        return last and any(self.tokens[j].text in self.m.cluster_words and self.clause[j] == self.clause[i]
                            for j in range(max(0, i - self.window), i - 1))

    def lemmas_for_lemma(self, lemma: str) -> frozenset[str]:
        """Spellings of ``lemma`` an analyser may give as its lemma (a German verb without its ``sich``)."""
        return frozenset({lemma, lemma.replace("-", ""), lemma.replace("_", " ")})

    def _spelling_method(self, text: str, lemma: str, i: int | None, *, stem: bool = True) -> str | None:
        if text == lemma:
            return "exact"
        if self.m.tables and self.config.inflections:
            if i is not None and self.m.mesoclitic_endings and (joined := self._mesoclisis(i)):
                text = joined
            method = table_method(text, lemma, self.code, lambda w: _simplemma_word(w, self.code))
            if method is None and i is not None and text in strong_participles(lemma, self.code) \
                    and self._after_auxiliary(i):
                return "conjugation:participle"   # "Ha rivolto": not rivoltare's 1st person after an auxiliary
            if method is None and i is not None and self.code == "tr" and own_verb_form(text, lemma):
                return "analyser:zeyrek"   # Turkish forms the tables lack: "göndermeniz" (verbal noun + person)
            if method is None and i is not None and self.code == "tr" and self._doubled(i) and optative_of(text, lemma):
                return "analyser:zeyrek"   # the doubled optative is the converb of manner: "koşa koşa geldi"
            return method
        lemmas = self.lemmas[i] if i is not None else self._lemmas_of(text)
        if lemma in lemmas:
            return "lemma"
        reading = self.readings[i] if i is not None and self.readings is not None else None
        if reading is not None and reading.lemma == lemma and i is not None and self.hyphen_enclitic(i):
            return "lemma"   # "Puis-je": the analyser's lemma, a verb by its hyphenated subject whatever its tag
        if self.config.inflections and text in inflections(lemma, self.code):
            return "inflection"
        known = self.known[i] if i is not None else False
        if stem and self.config.stem and self.code != "en" and not known and stem_match(text, lemma):
            return "stem"
        if (i is not None and not self.has_lemmatizer and self.config.verb_form and text in self.declared
                and plausible_form(text, lemma)):
            return "verb_form"
        return None

    def _doubled(self, i: int) -> bool:
        """Whether token ``i`` repeats the word right before or after it in its clause ("koşa koşa")."""
        toks, clause = self.tokens, self.clause
        return any(0 <= k < len(toks) and clause[k] == clause[i] and toks[k].text == toks[i].text for k in (i - 1, i + 1))

    def _after_auxiliary(self, i: int) -> bool:
        """Whether a ``perfect_auxiliaries`` or ``copulas`` word stands before token ``i`` in its clause, only
        ``light_adverbs`` between: the slot of a past participle ("ha rivolto", "si è accorto", "ha già scelto"), where
        the lemma's listed strong participle outranks the other verb the dictionary gives the spelling to."""
        m, j = self.m, i - 1
        while j > 0 and self.clause[j] == self.clause[i] and self.tokens[j].text in m.light_adverbs:
            j -= 1
        return j >= 0 and self.clause[j] == self.clause[i] and (self.tokens[j].text in m.perfect_auxiliaries
                                                                or self.tokens[j].text in m.copulas)

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


@lru_cache(maxsize=4096)
def sentence_analysis(sentence: str, code: str, config: MatchConfig) -> tuple[
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


register_dependent_cache(sentence_analysis.cache_clear)
