"""English slot rules of issue 41k: contractions, modals, prepositions spelled as a verb form (mixed into
:class:`fbagent.checks.verb_slots.SlotRules`).

- a fused spelling of a verb and its complement the ``irregular`` table lists ("Wanna come?", "Gimme that";
  :meth:`EnglishSlotRules.fused_form`);
- the contracted "be" after a pronoun ("It's freezing", "They're late"; :meth:`EnglishSlotRules.contracted_be`);
- a base form after a modal, do-support or "let's", and after an inverted modal and its subject pronoun ("Can you
  text me?", "Let's order pizza"): a verb whatever the tagger says (:meth:`EnglishSlotRules.modal_base`);
- a word the tagger reads as a particle or adverb right after a finite lexical verb and before a determiner ("We
  walked round the lake"): a preposition (:meth:`EnglishSlotRules.particle_after_verb`);
- the last word of a noun phrase after a preposition with an adjective in it ("made of soft grey felt"): a noun
  (:meth:`EnglishSlotRules.prepositional_noun`);
- a base form after a determiner and a singular noun at the end of a clause that already has its finite verb ("She
  bought a chess set"): the head noun of a compound object (:meth:`EnglishSlotRules.object_head`);
- a word after a determiner and a hyphenated compound modifier ("a three-week run"): the noun phrase's head
  (:meth:`EnglishSlotRules.compound_modifier`);
- a base form HanTa's lexicon knows as a noun right after a finite lexical verb ("I need rest") or before a finite -s
  verb that follows it at the clause's start ("Hope springs eternal"): a noun, one finite verb a clause
  (:meth:`EnglishSlotRules.finite_neighbour`);
- an -ing form opening its clause before a determiner, an object pronoun or an -ly adverb ("Reading the news takes
  time"): a verbal gerund (:meth:`EnglishSlotRules.gerund_with_object`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.analysers import hanta_tagger
from fbagent.checks.verb_sentence import SentenceFacts

#: English words after which "'s" is the contracted is (or has), not the possessive
_CONTRACTING_S = frozenset({"it", "he", "she", "that", "there", "here", "what", "who", "where", "how", "this", "when",
                            "why", "everyone", "everybody", "everything", "nothing", "nobody", "someone", "something"})
#: English base-form slot words that also stand before nouns ("went to work", "please, the menu"): no verb slot alone
_NOT_MODALS = frozenset({"to", "please"})
#: English object pronouns after a verbal gerund ("Visiting them was fun")
_OBJECT_PRONOUNS = frozenset({"me", "him", "us", "them"})
#: English subject pronouns between an inverted modal and the verb ("Can you text me?")
_SUBJECT_PRONOUNS = frozenset({"i", "you", "we", "they", "he", "she", "it"})
SLOT_ADVERBS = frozenset({"not", "t", "never", "also", "just", "still", "really", "always", "ever", "soon", "then",
                           "only", "even", "probably", "certainly", "definitely", "surely", "all", "both"})
WH_WORDS = frozenset({"what", "where", "when", "why", "how", "who", "which", "whose"})


#: English verbs that take a bare infinitive right after them (Quirk et al. 1985, § 16.52: "help clean", "go get",
#: "come see", "let go", "make do", "dare say"), auxiliaries and modals by lemma
_BARE_VERB_HEADS = frozenset({"help", "go", "come", "let", "make", "dare", "be", "have", "do", "will", "would", "can",
                              "could", "shall", "should", "may", "might", "must", "need", "ought", "used", "try"})
#: auxiliary forms HanTa may lemmatise oddly ('s, 'd, 'll contracted; "does", "has")
_AUXILIARY_FORMS = frozenset({"is", "was", "are", "were", "am", "s", "d", "ll", "ve", "re", "m", "has", "does", "had",
                              "did", "do", "have", "be", "been"})


@lru_cache(maxsize=4096)
def _noun_reading(word: str) -> bool:
    """Whether HanTa's English lexicon gives ``word`` a common-noun tag (NN1, NN2, NN0) within 6 log units of its
    best tag, out of context. Memoised."""
    return any(tag.startswith("NN") for tag, _ in hanta_tagger("en").tag_word(word, cutoff=6))


@dataclass
class EnglishSlotRules(SentenceFacts):
    """The English slot rules above over one sentence."""

    def _same(self, j: int, i: int) -> bool:
        return 0 <= j < len(self.tokens) and self.clause[j] == self.clause[i]

    def contracted_be(self, i: int, lemma: str) -> bool:
        """English: token ``i`` is the contracted "be" after a pronoun: "'re" and "'m" always ("They're late", "I'm
        here"), "'s" after a pronoun or there / here / what / that ("It's freezing", "She's at home", "There's a
        problem") unless a verb form other than the -ing form follows it without a preposition after that ("She's
        finished her homework", "It's been a long day", "He's gone": has; "It's made of wood" stays be); "John's car"
        is a possessive. Quirk et al. 1985, § 3.23 (enclitic forms of the primary verbs)."""
        toks = self.tokens
        if lemma != "be" or self.code != "en" or toks[i].text not in ("s", "re", "m") or not self._same(i - 1, i) \
                or self.sentence[toks[i].start - 1:toks[i].start] not in ("'", "\u2019"):
            return False
        if toks[i].text != "s":
            return True
        if toks[i - 1].text not in _CONTRACTING_S:
            return False
        readings = self.readings
        nxt = readings[i + 1] if readings is not None and self._same(i + 1, i) else None
        if nxt is None or not nxt.verb or toks[i + 1].text.endswith("ing"):
            return True
        after = readings[i + 2] if readings is not None and self._same(i + 2, i) else None
        return after is not None and (after.pos == "adposition" or toks[i + 2].text in ("of", "by"))

    def fused_form(self, text: str, lemma: str) -> bool:
        """English: ``text`` is a fused spelling of ``lemma`` with its complement that the language's ``irregular``
        table lists ("wanna": want to, "gimme": give me, "lemme", "dunno"; Huddleston & Pullum, *The Cambridge
        Grammar of the English Language*, 2002, ch. 18 § 6.2): a verb wherever it stands, since the spelling has no
        other reading, whatever the tagger (which does not know it) says."""
        return self.code == "en" and any(verb == lemma and text in listed for verb, listed in self.m.irregular)

    def modal_base(self, i: int, base_slot: frozenset[str]) -> bool:
        """English: token ``i`` (a base form) follows a modal or "do" that the analyser reads as a verb (adverbs such
        as "not" between: "I will text you", "We didn't order"), a modal or "do" that opens the clause and a subject
        pronoun ("Can you text me?", "Could we order now?"), or "let's" ("Let's order pizza"): only a verb stands
        there (Quirk et al. 1985, § 3.21 and 3.52, the modal auxiliaries and the bare infinitive). "to" and "please"
        (also before nouns: "to work", "please, the menu") do not count; ``base_slot``: the slots table's words."""
        toks, readings = self.tokens, self.readings
        openers = base_slot - _NOT_MODALS
        j = i - 1
        while self._same(j, i) and toks[j].text in SLOT_ADVERBS:
            j -= 1
        if not self._same(j, i) or readings is None:
            return False
        if toks[j].text in openers and (r := readings[j]) is not None and (r.verb or r.pos in ("other", "adverb")):
            return True
        if toks[j].text == "s" and self._same(j - 1, i) and toks[j - 1].text == "let":
            return True
        return toks[j].text in _SUBJECT_PRONOUNS and self._same(j - 1, i) and toks[j - 1].text in openers \
            and (j == 1 or not self._same(j - 2, i) or toks[j - 2].text in WH_WORDS)

    def particle_after_verb(self, i: int, auxiliaries: frozenset[str]) -> str | None:
        """English: token ``i``, which the analyser reads as a particle or adverb (not a verb), stands right after a
        finite lexical verb (no auxiliary, modal or causative) and before a determiner: a preposition or adverb
        ("We walked round the lake", "He ran past the shop"); a verb there would need "and" or "to". None otherwise."""
        toks, readings = self.tokens, self.readings
        if self.code != "en" or readings is None or not self._same(i - 1, i) or not self._same(i + 1, i):
            return None
        r, prev, nxt = readings[i], readings[i - 1], readings[i + 1]
        if r is None or r.pos not in ("particle", "adverb") or prev is None or not (prev.verb and prev.finite) \
                or nxt is None or nxt.pos != "determiner" or toks[i - 1].text in auxiliaries:
            return None
        return f"follows the verb '{toks[i - 1].text}' before '{toks[i + 1].text}' and is read as a preposition or adverb"

    def prepositional_noun(self, i: int) -> str | None:
        """English: token ``i`` ends a noun phrase after a preposition with one to three adjectives or nouns between
        and no determiner ("made of soft grey felt", "made of grey felt"), in a clause whose finite verb stands before
        the preposition: its head noun, since a verb form cannot stand inside a prepositional phrase's noun phrase; the
        next word ends the clause or is a preposition or conjunction. Without a finite verb before the preposition the
        word may be the verb of a subject with a prepositional phrase ("The cup of hot tea spilled"). None otherwise."""
        toks, readings = self.tokens, self.readings
        if self.code != "en" or readings is None or toks[i].text.endswith("ing"):
            return None
        nxt = readings[i + 1] if self._same(i + 1, i) else None
        if nxt is not None and nxt.pos not in ("adposition", "conjunction"):
            return None
        j = i - 1
        while self._same(j, i) and (r := readings[j]) is not None and r.pos in ("adjective", "noun") and i - j <= 3:
            j -= 1
        head = readings[j] if self._same(j, i) else None
        if j == i - 1 or head is None or not (head.pos == "adposition" or toks[j].text == "of"):
            return None
        if not any((r := readings[k]) is not None and r.verb and r.finite for k in range(j) if self._same(k, i)):
            return None
        return f"ends the noun phrase after '{toks[j].text} {toks[j + 1].text}' and is read as a noun"

    def object_head(self, i: int, auxiliaries: frozenset[str]) -> str | None:
        """English: token ``i``, spelled as the base form ``lemma`` (``exact``), after a determiner and a singular noun,
        ending its clause (or before a preposition), where a finite verb outside ``auxiliaries`` (modals, causatives,
        be) stands earlier in the clause: the head noun of a compound object ("She bought a chess set", "He needs a
        tool kit"); a verb there would need its singular subject's -s ("I think the kid runs"). None otherwise."""
        toks, readings = self.tokens, self.readings
        if self.code != "en" or readings is None or i < 3 or not self._same(i - 2, i):
            return None
        nxt = readings[i + 1] if self._same(i + 1, i) else None
        det, noun = readings[i - 2], readings[i - 1]
        if nxt is not None and nxt.pos != "adposition" or noun is None or noun.pos != "noun" or noun.number != "sg" \
                or det is None or det.pos != "determiner":
            return None
        for j in range(i - 3, -1, -1):
            if not self._same(j, i):
                return None
            r = readings[j]
            if r is not None and r.verb and r.finite:
                if toks[j].text in auxiliaries:
                    return None
                return (f"follows '{toks[i - 2].text} {toks[i - 1].text}' after the verb '{toks[j].text}' and is read "
                        f"as the head noun of its object")
        return None

    def compound_modifier(self, i: int) -> str | None:
        """English: token ``i`` follows a hyphenated compound modifier after a determiner ("a three-week run", "the
        long-awaited return", "a well-made cut"): the compound's first part is read as a number, adjective or adverb,
        or its last part ends in -ed / -ing (a participle), and token ``i`` is not itself joined to it by a hyphen. A
        determiner + modifier before it make it the noun phrase's head (Quirk et al. 1985, § 17.109 on compound
        adjectives); a verb cannot stand there. None otherwise."""
        toks, readings, text = self.tokens, self.readings, self.sentence
        if self.code != "en" or readings is None or i < 3 or not self._same(i - 1, i) \
                or text[toks[i - 1].end:toks[i].start] != " ":
            return None
        j = i - 1
        while self._same(j - 1, i) and text[toks[j - 1].end:toks[j].start] in ("-", "\u2010", "\u2011"):
            j -= 1
        first = readings[j]
        det = readings[j - 1] if self._same(j - 1, i) else None
        if j == i - 1 or first is None or det is None or det.pos != "determiner":
            return None
        if first.pos not in ("numeral", "adjective", "adverb") and not toks[i - 1].text.endswith(("ed", "ing")):
            return None
        return f"follows the compound modifier '{text[toks[j].start:toks[i - 1].end]}' after '{toks[j - 1].text}' and is read as a noun"

    def finite_neighbour(self, i: int) -> str | None:
        """English: one finite verb a clause (Quirk et al. 1985, § 3.52-3.54 on the verb phrase). Token ``i``, a base or
        -s form that HanTa's lexicon also knows as a noun, stands right after a finite lexical verb (not an auxiliary, a
        modal or one of :data:`_BARE_VERB_HEADS`, which take a bare infinitive: "I need rest", "She lost hope"), or
        opens its clause right before a finite -s verb that is no auxiliary (an imperative is never followed by a
        finite verb: "Hope springs eternal"): a noun there. None otherwise."""
        toks, readings = self.tokens, self.readings
        if self.code != "en" or readings is None or toks[i].text.endswith(("ing", "ed")):
            return None
        word = self.sentence[toks[i].start:toks[i].end]
        if not _noun_reading(word.lower()):
            return None
        prev = readings[i - 1] if self._same(i - 1, i) else None
        if prev is not None and prev.verb and prev.finite and prev.lemma not in _BARE_VERB_HEADS \
                and toks[i - 1].text not in _AUXILIARY_FORMS and toks[i - 1].text not in self.m.imperative_openers:
            return f"follows the finite verb '{toks[i - 1].text}' (one finite verb a clause) and is read as a noun"
        nxt = readings[i + 1] if self._same(i + 1, i) else None
        opens = not self._same(i - 1, i)
        if opens and nxt is not None and nxt.verb and nxt.finite and toks[i + 1].text.endswith("s") \
                and toks[i + 1].text not in _AUXILIARY_FORMS:
            return f"opens its clause before the finite verb '{toks[i + 1].text}' and is read as its subject noun"
        return None

    def gerund_with_object(self, i: int) -> bool:
        """English: token ``i``, an -ing form, opens its clause and a determiner, an object pronoun or an -ly adverb
        follows it ("Reading the news takes time", "Visiting them was fun", "Driving slowly saves fuel"): a verbal
        gerund with its object or adverb (Quirk et al. 1985, § 17.54), which a noun modifier cannot precede ("Cooking
        classes are popular" stays a noun)."""
        toks, readings = self.tokens, self.readings
        if self.code != "en" or readings is None or not toks[i].text.endswith("ing") or self._same(i - 1, i) \
                or not self._same(i + 1, i):
            return False
        nxt, word = readings[i + 1], toks[i + 1].text
        return nxt is not None and nxt.pos == "determiner" or word in _OBJECT_PRONOUNS \
            or word.endswith("ly") and nxt is not None and nxt.pos == "adverb"

