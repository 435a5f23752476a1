"""Noun-phrase slots over a lexicon's word classes, for languages without a tagger (issue 41; Swedish first).

A spelling match of the target verb is no use of it where (1) the form has a noun reading in the language's
dictionary (:func:`fbagent.checks.lexicon_hunspell.word_classes`: Swedish "lever" is leva's present and the noun
"liver") and (2) the words before it select that reading: they open a noun phrase the form ends. Swedish noun
phrases without an article (Teleman et al., *Svenska Akademiens grammatik* 3, Nominalfraser: a noun after an
attributive adjective, a quantifier or a genitive attribute, the article being optional or absent):

- after a **quantifier** (``quantifiers``: "All mat", "en enda röra", "mycket mat"; the infinitive is never
  governed by one, but a ``modal_adverbs`` word after a modal is an adverb before the modal's infinitive: "Du får
  allt skärpa dig"); after a plural one (``plural_quantifiers``) only a form that can be a plural noun
  (:func:`fbagent.checks.lexicon_hunspell.plural_noun`): "Alla lever längre" has the pronoun and the verb;
- after an **attributive adjective**: one the dictionary knows (comparison class), a listed ``attributive`` /
  ``prenominal`` one, one with an ``adjective_endings`` suffix, or a participle-shaped word (-d, -t, -ad, -at,
  -da, -ta: "stekt lever", "gott skick") that no pronoun, subordinator or negation precedes (there the -t word
  is an adverb of a subordinate clause before its verb: "att han tydligt talar"; a pronoun inverted after the
  clause's verb does not count: "blev det kokt stek"), not at the clause's start
  before an inverted subject ("Snabbt springer hon": verb second);
- after a **genitive attribute** (a word ending in -s whose form without the -s, or whose whole form, the
  dictionary reads as a noun: "Statsministerns tal").

The infinitive (the form spelled as the lemma) after a verb form is left alone ("försökte springa": springa is
also a noun); a form other than the infinitive right after another full verb's finite form is its object ("Han åt
lever": one finite verb a clause). Further Swedish rules of the same grammar: the bare stem (the imperative of an -a
verb, which never follows its subject) right after a subject pronoun (or "de", which as an article would need a
plural) is another verb's form ("Vi såg en älg": se's past, not såga's imperative); a listed deponent verb's forms
(``deponent_forms``: "hoppas", hope) are that verb, not the s-passive of the base verb; the quantifier "få"
(``quantifier_homographs``); an LU particle that is a preposition in a clause opened by "vad" ("Vad tycker du om
filmen?": :meth:`LexiconSlotRules.question_preposition`).

Latvian (free order, one finite verb a clause): a form with a noun reading in a clause with another verb's finite
form, or after a preposition (:meth:`LexiconSlotRules.clause_noun`), and adverbs spelled as an infinitive
(``adverb_homographs``). Turkish (no dictionary, verb-final clauses): the aorist-shaped noun with a nominal suffix,
the aorist + -Im and the bare -mA form inside a clause (:meth:`LexiconSlotRules.turkish_noun`). Each rule returns
the refusal note's reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.conjugation_tr import tr_aorist_nominal, tr_bare_aorist
from fbagent.checks.lemmas import _simplemma_knows, _simplemma_word
from fbagent.checks.lexicon_hunspell import (
    ADJECTIVE,
    NOUN,
    is_adjective,
    is_name,
    plural_noun,
    word_classes,
)
from fbagent.checks.verb_sentence import SentenceFacts

#: endings of a participle used as an attributive adjective (Swedish: stekt, kokt, lagad, lagat, målade)
_PARTICIPLE_ADJECTIVE = ("d", "t", "ad", "at", "da", "ta")


@dataclass
class LexiconSlotRules(SentenceFacts):
    """The rules of the module doc over one sentence (mixed into :class:`SentenceContext` through the closed-class
    rules)."""

    def lexicon_noun_slot(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a spelling match of ``lemma``, is a noun here (see the module doc), as the note's
        reason; None where the language has no ``lexicon_nouns`` or no ``verb_second`` order (Swedish), the form has
        no noun reading, or no noun-phrase word stands before it."""
        m, toks, clause = self.m, self.tokens, self.clause
        if not (m.lexicon_nouns and m.verb_second) or i == 0 or clause[i - 1] != clause[i]:
            return None
        text, prev = toks[i].text, toks[i - 1].text
        if NOUN not in word_classes(self.code, text):
            return None
        if prev in m.quantifiers and (prev not in m.plural_quantifiers or plural_noun(self.code, text)) \
                and not (text == lemma and self._modal_adverb(i - 1)):
            return f"follows the quantifier '{prev}' and is read as the noun '{text}'"   # not "Alla lever": a pronoun
        if text == lemma and self._dictionary_verb(i - 1):
            return None   # "försökte springa": an infinitive after a verb
        if self._attributive_adjective(i - 1):
            return f"follows the adjective '{prev}' and is read as the noun '{text}'"
        if self._genitive(i - 1):
            return f"follows the genitive '{prev}' and is read as the noun '{text}'"
        if text != lemma and self._full_verb_other(i - 1, lemma):
            return f"follows the verb '{prev}' (one finite verb a clause) and is read as its object, the noun '{text}'"
        return None

    def swedish_homograph(self, i: int, lemma: str) -> str | None:
        """Swedish (``lexicon_nouns`` and ``verb_second``): why token ``i``, a form of ``lemma``, is another word by
        verb-second order and the dictionary (Teleman et al., *Svenska Akademiens grammatik* 4, Huvudsatser): a
        clause-initial form the dictionary knows as a name right before a finite verb ("Bo flyttade till Kiruna": no
        imperative stands before a finite verb, an infinitive only fronted before a modal: "Klara kan man alltid
        mer"); a clause-initial strong past that is another -a verb's
        imperative stem (its present in -er has that verb for its lemma: "sköter" -> sköta; "låger" is none) with no
        subject after it outside a question ("Sköt om dig!": sköta; a declarative's fronted
        verb has its subject next, "Sköt han?"); the infinitive the dictionary also reads as an adjective after a
        ``predicative_verbs`` word (a copula or a verb of posture) and degree adverbs ("satt helt tysta": the
        predicative adjective; not after a verb that takes an infinitive: "försökte snabbt lugna barnen"); a finite form after another verb's finite form and one adverb of manner in -t ("skrattade gott
        åt skämtet": the preposition, one finite verb a clause). None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        if not (m.lexicon_nouns and m.verb_second):
            return None
        text = toks[i].text
        initial = i == 0 or clause[i - 1] != clause[i]
        nxt = i + 1 if i + 1 < len(toks) and clause[i + 1] == clause[i] else None
        if initial and nxt is not None and text in (lemma, lemma[:-1]) and is_name(self.code, text) \
                and lemma not in self.lemmas[nxt] and (toks[nxt].text not in m.fronting_verbs or toks[nxt].text in m.copulas) \
                and (toks[nxt].text in m.copulas or self._dictionary_verb(nxt)):
            return f"opens its clause right before the verb '{toks[nxt].text}' and is read as the name '{toks[i].text.title()}'"
        other = text + "a"
        if initial and nxt is not None and other != lemma and text not in (lemma, lemma[:-1]) and not self.sentence.rstrip().endswith("?") \
                and toks[nxt].text not in m.inverted_subjects and toks[nxt].text not in m.verb_context \
                and _simplemma_knows(text + "er", self.code) and _simplemma_word(text + "er", self.code) == other:
            return f"opens its clause with no subject after it and is read as the imperative of '{other}'"
        if text == lemma and i >= 2 and (ADJECTIVE in word_classes(self.code, text) or is_adjective(text, self.code)):
            j = i - 1
            while j > 0 and clause[j] == clause[i] and (toks[j].text in m.degree_adverbs or toks[j].text in m.light_adverbs):
                j -= 1
            if j < i - 1 and clause[j] == clause[i] and toks[j].text in m.predicative_verbs:
                return f"follows '{toks[j].text} {toks[i - 1].text}' and is read as the adjective '{text}'"
        if text != lemma and i >= 3 and clause[i - 2] == clause[i] and clause[i - 3] == clause[i]:
            adverb = toks[i - 1].text
            if adverb.endswith("t") and not self._dictionary_verb(i - 1) and adverb not in m.quantifiers \
                    and adverb not in m.verb_context and adverb not in m.clause_links and adverb != m.infinitive_marker \
                    and self._full_verb_other(i - 2, lemma):
                return f"follows the verb '{toks[i - 2].text}' and the adverb '{adverb}' (one finite verb a clause)"
        return None

    def _modal_adverb(self, j: int) -> bool:
        """Whether token ``j``, a quantifier, is a ``modal_adverbs`` word ("allt", "nog") used as the adverb before
        a modal's infinitive: a modal (``fronting_verbs`` but no copula, perfect auxiliary or "gör") stands before it
        in its clause with only subject pronouns and ``light_adverbs`` between ("Nu får du allt skärpa dig": surely;
        "Du måste nog vila": probably; "Hon vill ha all skärpa" keeps the noun, "ha" is the modal's infinitive)."""
        m, toks, clause = self.m, self.tokens, self.clause
        if toks[j].text not in m.modal_adverbs:
            return False
        k = j - 1
        while k >= 0 and clause[k] == clause[j] and (toks[k].text in m.inverted_subjects or toks[k].text in m.light_adverbs):
            k -= 1
        if k < 0 or clause[k] != clause[j]:
            return False
        word = toks[k].text
        return word in m.fronting_verbs and word not in m.copulas and word not in m.perfect_auxiliaries \
            and word not in ("gör", "gjorde", "kom")

    def _full_verb_other(self, j: int, lemma: str) -> bool:
        """Whether token ``j`` is a finite form of a full verb other than ``lemma``: the dictionary or the
        language's ``irregular`` table says so ("åt" of äta), and it is no copula, auxiliary or modal (those take
        a predicative or an infinitive: ``copulas``, ``fronting_verbs``, ``perfect_auxiliaries``), nor ends as a
        non-finite form unless it also ends as a finite one ("lagade")."""
        m, word = self.m, self.tokens[j].text
        if word in m.copulas or word in m.fronting_verbs or word in m.perfect_auxiliaries or lemma in self.lemmas[j] \
                or word in m.inverted_subjects or word in m.verb_context:
            return False
        if any(word in forms and base != lemma for base, forms in m.irregular):
            return True   # a listed strong form ("åt"; its supine "ätit" takes the object too)
        if m.nonfinite_endings and word.endswith(m.nonfinite_endings) and not word.endswith(m.finite_endings or ("\0",)):
            return False
        return self._dictionary_verb(j)

    def _attributive_adjective(self, j: int) -> bool:
        """Whether token ``j`` is an attributive adjective before the next word (see the module doc)."""
        m, toks, clause = self.m, self.tokens, self.clause
        word = toks[j].text
        if word in m.determiners or word in m.verb_context or word in m.light_adverbs or word in m.copulas \
                or word in m.prepositions or word in m.no_finite_after:
            return False
        listed = word in m.attributive or word in m.prenominal or bool(m.adjective_endings) and word.endswith(m.adjective_endings)
        lexical = ADJECTIVE in word_classes(self.code, word)
        shaped = len(word) > 3 and word.endswith(_PARTICIPLE_ADJECTIVE) and not word_classes(self.code, word)
        if not (listed or lexical or shaped):
            return False
        if j == 0 or clause[j - 1] != clause[j]:   # clause-initial: verb second puts the finite verb next
            nxt = j + 2
            return not (nxt < len(toks) and clause[nxt] == clause[j] and toks[nxt].text in m.inverted_subjects)
        before = toks[j - 1].text
        if before in m.verb_context or before in m.inverted_subjects:   # "att han tydligt talar": an adverb ...
            k = j - 2   # ... unless the pronoun is the subject inverted after the clause's verb ("blev det kokt stek")
            return k >= 0 and clause[k] == clause[j] and (toks[k].text in m.copulas or toks[k].text in m.fronting_verbs
                                                          or self._dictionary_verb(k))
        return before not in m.clause_links and before != m.infinitive_marker

    def _genitive(self, j: int) -> bool:
        """Whether token ``j`` is a genitive attribute: it ends in -s and it, or it without the -s, has a noun
        reading and no verb reading (the s-passive "talas" is a verb)."""
        word = self.tokens[j].text
        if len(word) < 4 or not word.endswith("s") or word in self.m.determiners or self._dictionary_verb(j):
            return False
        return NOUN in word_classes(self.code, word[:-1]) or NOUN in word_classes(self.code, word)

    def stem_after_subject(self, i: int, lemma: str) -> str | None:
        """Swedish: why token ``i``, the bare stem of ``lemma`` (an -a verb's imperative: "såg" of såga), is no form
        of it: it follows a subject pronoun (``inverted_subjects``), which an imperative never does ("Vi såg en
        älg": se's past). None otherwise."""
        toks = self.tokens
        if not (self.m.lexicon_nouns and self.m.verb_second) or not lemma.endswith("a") or toks[i].text != lemma[:-1] or i == 0 \
                or self.clause[i - 1] != self.clause[i] or toks[i - 1].text not in self.m.inverted_subjects | {"de"} \
                or lemma in self.lemmas[i] or not self._dictionary_verb(i):
            return None   # "Han bär", "hon vet": the stem is the lemma's own present or past by the dictionary
        return f"follows the subject '{toks[i - 1].text}', after which no imperative stands, and is read as another verb's form"

    def quantifier_homograph(self, i: int) -> str | None:
        """Swedish: why token ``i`` is a quantifier spelled as a verb form (a ``quantifier_homographs`` word: "få",
        few / get): after a copula, a determiner ("de få"), a preposition, a degree adverb or an existential verb
        (``quantifier_after``; ``light_adverbs`` may stand between: "finns bara få platser"), or at its clause's
        start, where a noun follows it ("Få människor vet"); before "som" after any word but an auxiliary, "att" or a
        subject ("Det var få som kom"; "ska få som han vill" is the verb). The verb "få"
        stands after an auxiliary, "att" or its subject ("Kan jag få vatten?", "hoppas få svar"). None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        text = toks[i].text
        if not m.lexicon_nouns or text not in m.quantifier_homographs:
            return None
        j = i - 1
        while j >= 0 and clause[j] == clause[i] and toks[j].text in m.light_adverbs and toks[j].text not in m.quantifier_after:
            j -= 1
        prev = toks[j].text if j >= 0 and clause[j] == clause[i] else ""
        nxt = toks[i + 1].text if i + 1 < len(toks) and clause[i + 1] == clause[i] else ""
        noun_next = NOUN in word_classes(self.code, nxt) and nxt not in m.determiners and nxt not in m.infinitives \
            and not self._dictionary_verb(i + 1)
        if prev in m.copulas or prev in m.determiners or prev in m.no_finite_after:
            return f"follows '{prev}' and is read as the quantifier '{text}'"
        if nxt == "som" and (prev in m.quantifier_after or prev not in m.fronting_verbs) and prev not in m.inverted_subjects and prev != m.infinitive_marker:
            return f"stands before 'som' and is read as the quantifier '{text}'"   # not "ska få som han vill"
        if noun_next and (not prev or prev in m.quantifier_after):
            return f"stands before '{nxt}' and is read as the quantifier '{text}'"
        return None

    def clause_noun(self, i: int, lemma: str) -> str | None:
        """Latvian (a language with ``clause_links``: free word order, one finite verb a clause): why token ``i``, a
        finite-looking form of ``lemma`` (not its infinitive nor a participle) that the dictionary also reads as a
        noun, is that noun: its clause has another verb's finite form (by the dictionary: "rādīja" -> rādīt, or the
        ``irregular`` table with a prefix: "nopirka"; a word the dictionary does not know with a past ending of
        ``finite_endings``: "pazaudēja") and no
        ``clause_links`` word between them ("Viņš rādīja mums ceļu": celt's 1st person and ceļš's accusative; the
        clause's verb is rādīja); right after a preposition (``no_finite_after``) the noun too, a participle-shaped
        one included ("no rīta": the morning's). None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        text = toks[i].text
        if not (m.lexicon_nouns and m.clause_links) or text == lemma or NOUN not in word_classes(self.code, text):
            return None
        if i > 0 and clause[i - 1] == clause[i] and toks[i - 1].text in m.no_finite_after:
            return f"follows the preposition '{toks[i - 1].text}' and is read as the noun '{text}'"   # "no rīta"
        if text.endswith(m.nonfinite_endings or ("\0",)) or any(x in text[-7:] for x in m.participle_infixes):
            return None   # a participle, declined ones too ("kritušos"): no finite verb
        for side in (range(i - 1, -1, -1), range(i + 1, len(toks))):
            for k in side:
                other = toks[k].text
                if clause[k] != clause[i] or other in m.clause_links:
                    break
                if other != text and lemma not in self.lemmas[k] and not other.endswith(m.nonfinite_endings or ("\0",)) \
                        and (other in m.copulas or self._dictionary_verb(k) or self._listed_verb(other, lemma)
                             or bool(m.finite_endings) and other.endswith(m.finite_endings) and not self.known[k]):
                    return f"is read as the noun '{text}' (the clause's verb is '{other}')"
        return None

    def adverb_homograph(self, i: int) -> str | None:
        """Why token ``i``, an ``adverb_homographs`` word spelled as an infinitive (Latvian "rīt": tomorrow / to
        swallow; "klāt": present / to lay), is the adverb: it opens its clause ("Rīt no rīta būs sanāksme"; an
        infinitive depends on a verb before it) or follows a copula, ``light_adverbs`` between ("ir klāt": no
        infinitive follows a copula). None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        if toks[i].text not in m.adverb_homographs:
            return None
        j = i - 1
        while j >= 0 and clause[j] == clause[i] and toks[j].text in m.light_adverbs:
            j -= 1
        if i == 0 or clause[i - 1] != clause[i]:
            return "opens its clause and is read as the adverb spelled alike"
        if j >= 0 and clause[j] == clause[i] and toks[j].text in m.copulas:
            return f"follows the copula '{toks[j].text}' and is read as the adverb spelled alike"
        return None

    def _listed_verb(self, word: str, lemma: str) -> bool:
        """Whether ``word`` is a form of a verb other than ``lemma`` in the language's ``irregular`` table, itself
        or after one of its ``verb_prefixes`` (Latvian "nopirka": no- + pirkt's past "pirka")."""
        m = self.m
        cuts = [word] + [word[len(p):] for p in m.verb_prefixes if word.startswith(p) and len(word) - len(p) >= 3]
        return any(cut in forms and base != lemma and not lemma.endswith(base) for cut in cuts for base, forms in m.irregular)

    def turkish_noun(self, i: int, lemma: str) -> str | None:
        """Turkish (no dictionary; verb-final clauses): why token ``i``, a form of ``lemma``, is a noun spelled from
        the verb. The aorist with a suffix no finite aorist takes (:func:`tr_aorist_nominal`: "giderleri",
        "yazarın": the agent or result noun); the aorist, bare or plural, before a ``noun_postpositions`` word
        ("Yazarlar için": "için" takes a noun or an infinitive, never a finite verb); the aorist with -Im (1st person or "my") or the bare -mA form (the
        negative imperative or the verbal noun: "çalışma") inside its clause, after its first word and not before
        a ``bare_stem_links`` or ``verb_context`` word or a question particle: a finite verb ends its clause, the noun
        does not ("Aylık gelirim kiramı karşılıyor", "Bu bilimsel çalışma üç yıl sürdü"). None otherwise."""
        toks, clause, m = self.tokens, self.clause, self.m
        if self.code != "tr" or not lemma.endswith(("mak", "mek")):
            return None
        text = toks[i].text
        if nominal := tr_aorist_nominal(text, lemma):
            return f"is the noun spelled like the aorist with the suffix '-{nominal}' (no finite aorist takes it)"
        plural = text[-3:] in ("lar", "ler") and tr_bare_aorist(text[:-3], lemma)
        if (plural or tr_bare_aorist(text, lemma)) and i + 1 < len(toks) and clause[i + 1] == clause[i] \
                and toks[i + 1].text in m.noun_postpositions:
            return f"stands before the postposition '{toks[i + 1].text}' and is read as its noun (a finite verb takes none)"
        first_person = text[-2:] in ("ım", "im", "um", "üm") and tr_bare_aorist(text[:-2], lemma)
        if not (first_person or text == lemma[:-1]) or i == 0 or clause[i - 1] != clause[i] or i + 1 >= len(toks) \
                or clause[i + 1] != clause[i]:
            return None
        nxt = toks[i + 1].text
        if nxt in m.bare_stem_links or nxt in m.verb_context or nxt.startswith(("mı", "mi", "mu", "mü")):
            return None
        return "stands inside its clause and is read as a noun (a finite verb ends its Turkish clause)"

    def question_preposition(self, j: int, head: int) -> bool:
        """Swedish: whether token ``j``, a particle of the LU whose verb is token ``head`` (``tycka om``), is a
        preposition here: it is one (``question_prepositions``), a word of its clause follows it, and the clause opens with
        a ``question_openers`` word whose answer is that phrase's content ("Vad tycker du om filmen?": what do you
        think about the film; "Tycker du om filmen?" and "Vad tycker du om?" keep the particle verb)."""
        m, toks, clause = self.m, self.tokens, self.clause
        if not m.question_openers or toks[j].text not in m.question_prepositions or j + 1 >= len(toks) \
                or clause[j + 1] != clause[j]:
            return False
        start = head
        while start > 0 and clause[start - 1] == clause[head]:
            start -= 1
        return toks[start].text in m.question_openers and start < head

    def deponent(self, i: int, lemma: str) -> str | None:
        """Why token ``i`` is a form of a deponent verb of its own (``deponent_forms`` of ``lemma``: "hoppas" is
        hoppas, to hope, not hoppa's s-passive); None otherwise."""
        for base, forms in self.m.deponent_forms:
            if base == lemma and self.tokens[i].text in forms:
                return f"is a form of the deponent verb '{min(forms, key=len)}' (a verb of its own), not the passive of '{lemma}'"
        return None
