"""Syntactic slots that decide a tagged language's reading of a word (English, German, Dutch, French; issue 41).

The analysers (HanTa, spaCy) read each word in context, but a few constructions defeat them in a way the words
around the target settle whatever the word is. :class:`SlotRules` answers those questions for
:class:`fbagent.checks.verb_context.SentenceContext`, from the ``[languages.<code>.slots]`` table of
``prompts/verbs/morphology.toml`` (a language without the table has none of these rules):

Verb uses the tagger reads as another class (:meth:`SlotRules.verb_slot`):

- a present participle, attributive or adverbial ("die spielenden Kinder", "de huilende baby", French gérondif
  "en courant"): the verb's own form, not a nominalised infinitive (those keep their determiner rule, "het
  neerhalen van");
- an infinitive after the infinitive marker ("bereid te getuigen", "om te rellen", "zu schwimmen");
- a participle that ends its clause after an auxiliary ("heb jij ... gezien?", not the adposition "gezien de");
- a finite form in a clause with no other finite verb (a headline: "Koenders ontbiedt Russische ambassadeur"),
  or right after a coordinating conjunction whose first conjunct has a finite verb of the same ending
  ("plunderden winkels en bekogelden de politie": coordinated verbs share tense and number);
- English bare infinitive after a causative or perception verb and its object pronoun ("made her cry", "let
  them go": "her" is the object, not a possessive there).

Forms of the target that are no use of it (:meth:`SlotRules.slot_refusal`):

- English base-form slots (a modal, infinitival "to", do-support, "please"): only a base form stands there, so a
  form spelled otherwise is another verb's base form or a noun ("will found a company" is found, not find;
  "Please lay the towels" is lay, not lie);
- English: an exact base form after an inverted "be" and its subject ("Are your socks dry?": the verb there would
  be a participle or an -ing form); a word listed after its governing verbs ("turn left": a direction);
- a word the analyser reads as a determiner ("Sein Bruder", "zijn fiets": the possessive);
- a finite-looking form read as an adjective after a copula ("Die Wand ist weiß gestrichen"), or read as a
  finite verb right after a degree adverb where the clause already has its finite verb ("left me somewhat
  confused", "zag er erg bleek uit": an adjective; a clause has one finite verb).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.analysers import hanta_tagger
from fbagent.checks.paradigms import english_participles, past_participles
from fbagent.checks.slot_words import SlotWords, slot_words
from fbagent.checks.verb_slots_de import GermanSlotRules
from fbagent.checks.verb_slots_en import SLOT_ADVERBS, WH_WORDS, EnglishSlotRules
from fbagent.checks.verb_slots_fr import FrenchSlotRules
from fbagent.checks.verb_slots_romance import RomanceSlotRules
from fbagent.checks.verb_slots_v2 import WordClassSlots


@dataclass
class SlotRules(EnglishSlotRules, FrenchSlotRules, GermanSlotRules, WordClassSlots, RomanceSlotRules):
    """The slot rules over one sentence (see the module doc); mixed into
    :class:`fbagent.checks.verb_context.SentenceContext`."""

    @property
    def slots(self) -> SlotWords:
        return slot_words(self.code)

    def _same(self, j: int, i: int) -> bool:
        return 0 <= j < len(self.tokens) and self.clause[j] == self.clause[i]

    def present_participle(self, text: str, lemma: str) -> bool:
        """Whether ``text`` is the present participle of ``lemma`` (de/nl: infinitive + "d" + an adjective
        ending: "spielenden", "huilende"; French: the ``nous`` stem + "ant", tested by the caller)."""
        ends = self.slots.present_participle
        return bool(ends) and lemma.endswith("n") and text.startswith(lemma + "d") and text[len(lemma) + 1:] in ends

    def irregular_present(self, text: str, lemma: str) -> bool:
        """French third-group verbs: whether ``text`` is a singular present of ``lemma`` by the longest
        ``present_singular`` ending of the infinitive ("boire" -> "bois", "boit"; "partir" -> "pars", "part";
        "prendre" -> "prends", "prend"). Generated: it counts, as every generated form, only where the analyser
        or a construction (a subject pronoun before it: "tu bois") reads a verb or a lexicon knows the word."""
        for ending, endings in self.slots.present_singular:
            if lemma.endswith(ending) and len(lemma) > len(ending):
                return text in {lemma[: len(lemma) - len(ending)] + e for e in endings} or self.french_future(text, lemma)
        return self.french_future(text, lemma)

    def participle_method(self, i: int, lemma: str) -> str | None:
        """``present-participle`` when token ``i`` is ``lemma``'s present participle used as one: not a noun of
        its own (a determiner before it and no noun or adjective after: "de stervenden"); for French only after
        the ``gerund_marker`` ("en courant"); None otherwise."""
        s, text = self.slots, self.tokens[i].text
        if s.gerund_marker:
            if i == 0 or self.tokens[i - 1].text != s.gerund_marker or not text.endswith("ant") or len(text) < 6:
                return "present-participle" if self.opening_participle(i, lemma) else None
            return "present-participle" if self._spelling_method(text[:-3] + "ons", lemma, None, stem=False) else None
        if not self.present_participle(text, lemma):
            return None
        reading = self.readings[i] if self.readings is not None else None
        if reading is not None and reading.pos in ("adposition", "conjunction"):
            return None   # "Während der Fahrt", "betreffende uw bestelling"
        nxt = self.readings[i + 1] if self.readings is not None and self._same(i + 1, i) else None
        if self.determiner_before(i) is not None and (nxt is None or nxt.pos not in ("noun", "adjective")):
            return None
        j = i - 1
        while self._same(j, i) and self.tokens[j].text in self.m.degree_adverbs:
            j -= 1
        if j < i - 1 or (self._same(j, i) and self.tokens[j].text in s.copulas):
            return None   # "eine äußerst spannende Geschichte", "De les was vervelend": an adjective of its own
        return "present-participle"

    def verb_slot(self, i: int, lemma: str, method: str) -> bool:
        """Whether token ``i``, a spelling of ``lemma`` by ``method``, stands where only a verb can (see the
        module doc): the infinitive marker before the infinitive, a clause-final participle after an
        auxiliary, a finite form in a clause without another finite verb or coordinated with one, an English
        bare infinitive after a causative and its object pronoun."""
        s, toks, text = self.slots, self.tokens, self.tokens[i].text
        prev = toks[i - 1].text if self._same(i - 1, i) else None
        if prev is not None and prev == self.m.infinitive_marker and method == "exact" and text.endswith("n"):
            return True    # "te getuigen", "zu schwimmen"
        if prev in s.object_pronouns and method == "exact" and self._same(i - 2, i) and toks[i - 2].text in s.causatives:
            return True    # "made her cry", "let them go"
        if self._final_participle(i, lemma) or self._subclause_final(i, lemma, method):
            return True
        if s.base_slot and method == "exact" and text == lemma and self.modal_base(i, s.base_slot):
            return True    # "I will text you", "Can you text me", "Let's order pizza": a base form after a modal
        if s.gerund_verbs and text.endswith("ing") and (self._after_gerund_verb(i) or self.gerund_with_object(i)):
            return True    # "She enjoys cooking for friends": the gerund complement of a catenative verb
        if self.pronoun_v2_slot(i):
            return True    # "Ik slaap slecht": the verb-second place after a subject pronoun (verb_slots_v2)
        return bool(s.finite_endings) and self._lone_finite(i, lemma, method)

    def _after_gerund_verb(self, i: int) -> bool:
        """English: a ``gerund_verbs`` word (enjoy, stop, keep, avoid ...: Quirk et al. 1985, *A Comprehensive
        Grammar*, § 16.39, verbs with an -ing complement) stands before token ``i`` in its clause, at most one adverb
        between ("kept quietly working")."""
        j = i - 1
        if self._same(j, i) and self._adverb(j) and self.tokens[j].text not in self.slots.gerund_verbs:
            j -= 1
        return self._same(j, i) and self.tokens[j].text in self.slots.gerund_verbs

    def _final_participle(self, i: int, lemma: str) -> bool:
        """Dutch/German: token ``i`` is ``lemma``'s ge- participle, ends its clause, and a ``verbal_auxiliaries``
        or ``cluster_words`` word stands earlier in the clause ("Heb jij mijn sleutels ergens gezien?")."""
        text = self.tokens[i].text
        if not self.slots.finite_endings or not text.startswith("ge") or text == lemma or self._same(i + 1, i):
            return False
        if not (text.endswith(("d", "t", "n")) and self._spelling_method(text, lemma, i, stem=False)):
            return False
        words = self.m.verbal_auxiliaries | self.m.cluster_words
        return any(self.tokens[j].text in words for j in range(i) if self.clause[j] == self.clause[i])

    def _lone_finite(self, i: int, lemma: str, method: str) -> bool:
        """Dutch/German/French: token ``i`` is a finite-looking form of ``lemma`` (not the infinitive, not a
        participle, ending as ``finite_endings``), no determiner or article before it, and either no other word of the
        sentence is read as a finite verb and a noun or pronoun (its subject) stands right before it (a headline:
        "Koenders ontbiedt ambassadeur", "Le train part à huit heures") or it follows a coordinating conjunction and a finite
        verb with the same ending stands earlier in the clause ("plunderden winkels en bekogelden")."""
        text, s, readings = self.tokens[i].text, self.slots, self.readings
        if readings is None or method not in ("lemma", "inflection") or text == lemma or text.startswith("ge") \
                or not text.endswith(s.finite_endings) or self.determiner_before(i) is not None \
                or text in past_participles(lemma, self.code) or (i > 0 and self.tokens[i - 1].text in s.articles):
            return False   # "La part du lion": an article before it
        word = self.sentence[self.tokens[i].start:self.tokens[i].end]
        if self.code == "de" and word[:1].isupper():
            return False   # a capitalised German word is a noun ("in einem kurzen Schnitt")
        finite = [j for j in range(len(self.tokens)) if j != i and (r := readings[j]) is not None and r.verb and r.finite]
        if not finite:   # a headline: its subject (a noun or pronoun) right before it ("Koenders ontbiedt")
            before = readings[i - 1] if i > 0 else None
            return before is not None and before.pos in ("noun", "other") and self._same(i - 1, i)
        others = [j for j in finite if self.clause[j] == self.clause[i]]
        prev = self.tokens[i - 1].text if self._same(i - 1, i) else ""
        return prev in s.coordinators and any(j < i - 1 and self.tokens[j].text[-3:] == text[-3:] for j in others)

    def slot_refusal(self, i: int, lemma: str, method: str) -> str | None:
        """Why token ``i``, a spelling of ``lemma`` by ``method``, is no use of it where it stands (see the module
        doc), as the refusal note's reason; None when no slot rule refuses it."""
        toks, text, s = self.tokens, self.tokens[i].text, self.slots
        reading = self.readings[i] if self.readings is not None else None
        if reading is not None and reading.pos == "determiner":
            return "is read as a determiner (a possessive or article) here"
        if (other := self._ge_verb(i, lemma)) is not None:
            return other
        if (owner := self.first_person_owner(i)) is not None and owner != lemma:
            return f"is read as a form of '{owner}' here (by its subject and what follows)"
        prev = toks[i - 1].text if self._same(i - 1, i) else None
        for word, before in s.direction_after:
            if text == word and prev in before:
                return f"follows '{prev}' and is read as a direction (an adverb)"
        nxt = toks[i + 1].text if self._same(i + 1, i) else None
        for word, after in s.adjective_before:
            if text == word and nxt in after:
                return f"before '{nxt}' is the adjective '{word} {nxt}'"
        if s.base_slot and text != lemma and not text.endswith("ing"):
            j = i - 1
            while self._same(j, i) and toks[j].text in SLOT_ADVERBS:
                j -= 1
            slot = self.readings[j] if self.readings is not None and self._same(j, i) else None
            if slot is not None and toks[j].text in s.base_slot and (slot.verb or slot.pos in ("other", "adverb")):
                # a modal or "do" read as a verb, "to", "please"; not the noun "the will found in his desk"
                return f"follows '{toks[j].text}', after which only a base form stands ('{lemma}' would be spelled so)"
        if method == "exact" and self._inverted_subject(i, s.inverted_copulas) and lemma not in english_participles(lemma):
            return "follows an inverted 'be' and its subject and is read as an adjective"
        if s.base_slot and text != lemma and not text.endswith("ing") and self._inverted_subject(i, s.base_slot):
            return "follows an inverted auxiliary and its subject, where only a base form stands"
        if reading is not None and reading.pos == "adjective" and text != lemma \
                and text not in past_participles(lemma, self.code) and not text.startswith("ge") \
                and not text.endswith(("t", "d")) and not (text.endswith("en") and self._verbal_word(i)):
            # a participle after a copula is verbal ("ist verschlossen"); an -en word HanTa builds on no verb is none ("is open")
            j = i - 1
            while self._same(j, i) and (toks[j].text in self.m.degree_adverbs or self._adverb(j)):
                j -= 1
            if self._same(j, i) and toks[j].text in s.copulas:
                return f"follows the copula '{toks[j].text}' and is read as an adjective"
        if (last := self._subclause_verb_after(i)) is not None:
            return f"stands before '{last}', the finite verb that ends its subordinate clause, and is read as a noun"
        return self._degree_finite(i) or self._subject_head(i, method) or self._noun_phrase_opening(i, lemma) \
            or self.particle_after_verb(i, s.causatives | s.base_slot | s.inverted_copulas) or self.prepositional_noun(i) \
            or (self.object_head(i, s.causatives | s.base_slot | s.inverted_copulas) if method == "exact" else None) \
            or self.french_refusal(i, lemma, frozenset(past_participles(lemma, self.code)) if self.code == "fr" else frozenset()) \
            or self.adverbial_adjective(i) or self.het_infinitive(i, lemma) or self.attributive_adjective(i) \
            or self.second_finite(i, lemma) or self.lexicon_other_verb(i, lemma) or self.compound_modifier(i) \
            or self.finite_neighbour(i) or self.determiner_infinitive(i, lemma) or self.romance_refusal(i, lemma)

    def _noun_phrase_opening(self, i: int, lemma: str) -> str | None:
        """French: why token ``i`` belongs to the noun phrase that opens its clause: an ``opening_articles`` word (le,
        la, les: also object clitics, which need a subject before them) opens the clause right before it ("Le devoir
        de mathématiques", "Le boucher vend"); or, where ``participle_after_noun``, it is ``lemma``'s participle after a
        determiner and a noun with the finite verb right after it ("La porte ouverte laissait entrer": an adjective;
        "ouverte par le vent" keeps its agent and stays verbal). None otherwise."""
        s, toks, readings = self.slots, self.tokens, self.readings
        if s.opening_articles and i > 0 and toks[i - 1].text in s.opening_articles and self._same(i - 1, i) \
                and not self._same(i - 2, i - 1) and not self.hyphen_enclitic(i):   # "Le voyez-vous ?": clitic, inversion
            return f"follows the article '{toks[i - 1].text}' that opens its clause and is read as a noun"
        if not s.participle_after_noun or readings is None or i < 2 or not self._same(i - 2, i) or not self._same(i + 1, i) \
                or toks[i].text not in past_participles(lemma, self.code):
            return None
        det, noun, nxt = readings[i - 2], readings[i - 1], readings[i + 1]
        if det is not None and det.pos == "determiner" and noun is not None and noun.pos == "noun" \
                and nxt is not None and nxt.verb and nxt.finite:
            return f"follows the noun '{toks[i - 1].text}' before the verb '{toks[i + 1].text}' and is read as an adjective"
        return None

    def _subject_head(self, i: int, method: str) -> str | None:
        """English: token ``i``, spelled as the base form (``method`` ``exact``), after a determiner and a noun
        ("The morning run", "Our evening walk"), with a finite verb later in its clause and no ``subordinators`` word
        or conjunction between: the head noun of a compound subject ("The morning run along the canal clears my
        head"); a verb there would be the clause's only finite verb ("The kids run along the canal"). None otherwise."""
        toks, readings, s = self.tokens, self.readings, self.slots
        if method != "exact" or not s.subordinators or readings is None or i < 2 or not self._same(i - 2, i):
            return None
        noun, det = readings[i - 1], readings[i - 2]
        if noun is None or noun.pos != "noun" or not (toks[i - 2].text in self.m.determiners
                                                      or det is not None and det.pos == "determiner"):
            return None
        for j in range(i + 1, len(toks)):
            r = readings[j]
            if not self._same(j, i) or toks[j].text in s.subordinators or toks[j].text in s.coordinators \
                    or (r is not None and r.pos == "conjunction"):
                return None
            if r is not None and r.verb and r.finite:
                return (f"follows '{toks[i - 2].text} {toks[i - 1].text}' and is read as the head noun of the subject "
                        f"(its clause's finite verb is '{toks[j].text}')")
        return None

    def _ge_verb(self, i: int, lemma: str) -> str | None:
        """German: token ``i`` is ``lemma``'s participle spelled "ge" + ``lemma`` ("gefallen", "geraten"), which is
        also a verb of its own ("gefallen": to please; "geraten": to get into). The clause decides: a finite reading
        with no auxiliary ("Sie geraten in Streit": a participle is never finite), or the perfect auxiliary the
        target does not take (``sein_perfect``: "hat mir gefallen" is gefallen, fallen takes sein; "ist in Streit
        geraten" is geraten, raten takes haben) make it the other verb. None otherwise."""
        s, text = self.slots, self.tokens[i].text
        if not s.perfect_sein or text != "ge" + lemma or "ge" + lemma not in self.lemmas[i] | {text}:
            return None
        words = [self.tokens[j].text for j in range(len(self.tokens)) if j != i and self.clause[j] == self.clause[i]]
        haben, sein = any(w in s.perfect_haben for w in words), any(w in s.perfect_sein for w in words)
        reading = self.readings[i] if self.readings is not None else None
        if reading is not None and reading.finite and not (haben or sein or set(words) & self.m.verbal_auxiliaries):
            return f"is read as a finite form of '{text}' (a participle of '{lemma}' is never finite)"
        wrong = haben and not sein if lemma in s.sein_perfect else sein and not haben
        return f"is read as '{text}': '{lemma}' forms its perfect with the other auxiliary" if wrong else None

    def first_person_owner(self, i: int) -> str | None:
        """Dutch "was" (zijn's past, wassen's 1st person present) after "ik": the verb whose form token ``i`` is.
        An adjective or a participle later in the clause is zijn's predicate ("Ik was mijn sleutels kwijt", "Ik was
        het vergeten"); else a possessive not governed by a preposition is wassen's object ("Ik was elke avond mijn
        handen"; "Ik was met mijn moeder in Parijs" decides nothing). None where the rule does not apply."""
        s, toks, readings = self.slots, self.tokens, self.readings
        owner = dict(s.first_person).get(toks[i].text)
        if owner is None or readings is None or not self._same(i - 1, i) or toks[i - 1].text != s.first_person_subject:
            return None
        after: list[int] = []
        for j in range(i + 1, len(toks)):
            if self.clause[j] != self.clause[i] or ((r := readings[j]) is not None and r.pos == "conjunction"):
                break   # "Ik was al thuis toen je belde": the next clause's words decide nothing
            after.append(j)
        in_pp = {j for j in after if any((r := readings[k]) is not None and r.pos == "adposition"
                                         for k in range(max(i + 1, j - 2), j))}
        if any((r := readings[j]) is not None and (r.pos == "adjective" and j not in in_pp or (r.verb and not r.finite))
               for j in after):   # a predicate; an adjective inside a prepositional phrase ("met een milde shampoo") is none
            return next(iter(self.lemmas[i] - {owner, toks[i].text}), None)
        if any(toks[j].text in s.possessives and (r := readings[j - 1]) is not None and r.pos != "adposition"
               for j in after):
            return owner
        return owner if self._washed_object(after, in_pp) else None

    def _washed_object(self, after: list[int], in_pp: set[int]) -> bool:
        """Dutch "ik was" with no predicate after it: an object noun phrase (determiner + noun outside a
        prepositional phrase) that is plural ("Ik was de ramen": zijn does not take a plural predicate after "ik")
        or follows a ``schedule_words`` adverbial ("Ik was elke zondag de auto": a routine)."""
        s, toks, readings = self.slots, self.tokens, self.readings
        if readings is None:
            return False
        routine = any(toks[j].text in s.schedule_words for j in after)
        for j in after:
            r, det = readings[j], readings[j - 1]
            if r is None or r.pos != "noun" or det is None or det.pos != "determiner" or j in in_pp \
                    or toks[j - 1].text in s.schedule_words:
                continue
            if routine or (s.plural_endings and toks[j].text != r.lemma and toks[j].text.endswith(s.plural_endings)):
                return True
        return False

    def _adverb(self, j: int) -> bool:
        """Whether token ``j`` is read as an adverb (or an adverbial adjective: German "langsam")."""
        reading = self.readings[j] if self.readings is not None else None
        return reading is not None and reading.pos in ("adverb", "adjective")

    def _inverted_subject(self, i: int, openers: frozenset[str]) -> bool:
        """English: the clause opens with an ``openers`` word (an inverted "be", a modal or "do"; after at most a
        wh-word) and only its subject (pronouns, determiners, nouns, adjectives) stands between it and token ``i``
        ("Are your socks dry?", "Did the hens lay eggs?")."""
        if not openers or self.readings is None:
            return False
        j = i - 1
        while self._same(j, i) and self.tokens[j].text not in openers:
            r = self.readings[j]
            if r is None or r.verb or r.pos not in ("noun", "determiner", "adjective", "other"):
                return False
            j -= 1
        opens = j == 0 or not self._same(j - 1, i) or (self.tokens[j - 1].text in WH_WORDS
                                                       and (j == 1 or not self._same(j - 2, i)))
        return self._same(j, i) and j < i - 1 and opens

    def _degree_finite(self, i: int) -> str | None:
        """A token read as a finite verb right after a ``degree_adverbs`` word, where another finite verb stands
        earlier in its clause with no conjunction between: an adjective ("left me somewhat confused")."""
        reading = self.readings[i] if self.readings is not None else None
        if reading is None or not (reading.verb and reading.finite) or not self._same(i - 1, i) \
                or self.tokens[i - 1].text not in self.m.degree_adverbs or not self.slots.coordinators \
                or self.tokens[i - 1].text == self.m.infinitive_marker and self.tokens[i].text.endswith("en"):
            return None   # "probeert de plank recht te zagen": Dutch "te" before an infinitive is its marker
        for j in range(i - 2, -1, -1):
            r = self.readings[j] if self.readings is not None else None
            if not self._same(j, i) or (r is not None and r.pos == "conjunction"):
                return None
            if r is not None and r.verb and r.finite:
                return f"follows the degree adverb '{self.tokens[i - 1].text}' after the clause's verb " \
                       f"'{self.tokens[j].text}' and is read as an adjective"
        return None

    def _subordinate_clause(self, i: int) -> list[int]:
        """Dutch (``verb_final_openers``): the tokens of token ``i``'s clause when it opens with a subordinating
        conjunction ("omdat", "toen", "nadat") and its subject (a pronoun, determiner or noun) follows; else []."""
        s, readings = self.slots, self.readings
        if not s.verb_final_openers or readings is None:
            return []
        words = [j for j in range(len(self.tokens)) if self.clause[j] == self.clause[i]]
        subject = readings[words[1]] if len(words) > 2 else None
        if self.tokens[words[0]].text not in s.verb_final_openers or subject is None \
                or subject.pos not in ("other", "determiner", "noun"):
            return []
        return words

    def _subclause_position(self, i: int) -> bool:
        """Whether token ``i`` ends a subordinate clause (:meth:`_subordinate_clause`) of at least four words in
        which no other word is read as a verb, after no article, preposition or possessive: the place of the
        clause's finite verb (Dutch subordinate clauses put it last)."""
        words, readings = self._subordinate_clause(i), self.readings
        if not words or words[-1] != i or i - words[0] < 3 or readings is None or self.determiner_before(i) is not None:
            return False
        before = readings[i - 1]
        if before is None or before.pos in ("determiner", "adposition") or self.tokens[i - 1].text in self.slots.possessives:
            return False   # "met hun gaven", "in de sloten": a noun phrase ends the clause
        return not any((r := readings[j]) is not None and r.verb for j in words if j != i)

    def subclause_verb_lemmas(self, i: int) -> frozenset[str]:
        """Dutch: the lemmas HanTa gives token ``i`` as a finite verb (tags ``WW(pv,...)``, read out of context)
        where it stands in a finite verb's place (:meth:`_subclause_position`): "gaven" -> geven, which HanTa
        in context reads as the noun "gifts"; empty elsewhere. Issue 40."""
        if not self.slots.verb_final_openers or not self._subclause_position(i):
            return frozenset()
        return _finite_verb_lemmas(self.tokens[i].text, self.code)

    def _subclause_final(self, i: int, lemma: str, method: str) -> bool:
        """Dutch: token ``i``, a form of ``lemma`` that is no participle, ends a subordinate clause
        (:meth:`_subordinate_clause`) in which no other word is read as a verb: a subordinate clause puts its
        finite verb last ("Omdat ze geen antwoord gaven ,", "Nadat de agenten in de lucht schoten ,"), so it
        is that verb whatever the tagger says ("gaven": gifts; "schoten": shots). Issue 40."""
        return method != "stem" and self.tokens[i].text not in past_participles(lemma, self.code) \
            and self._subclause_position(i)

    def _subclause_verb_after(self, i: int) -> str | None:
        """Dutch: the word after token ``i`` when it ends ``i``'s subordinate clause and both are read as finite
        verbs, the last not spelled as an infinitive: a subordinate clause has one finite verb, last ("omdat er
        schoten klonken": "schoten" is the subject, shots); None otherwise. Issue 40."""
        words = self._subordinate_clause(i)
        readings = self.readings
        if not words or readings is None or words[-1] != i + 1 or self.tokens[i].text in self.m.cluster_words:
            return None
        mine, last = readings[i], readings[i + 1]
        if mine is None or last is None or not (mine.verb and mine.finite and last.verb and last.finite) \
                or last.lemma == self.tokens[i + 1].text:
            return None
        return self.sentence[self.tokens[i + 1].start:self.tokens[i + 1].end]


@lru_cache(maxsize=4096)
def _finite_verb_lemmas(word: str, code: str) -> frozenset[str]:
    """The lemmas of ``word`` under each finite-verb tag HanTa's Dutch model gives it out of context
    (``WW(pv,...)``: "gaven" -> {"geven"}); empty for another language."""
    if code != "nl":
        return frozenset()
    tagger = hanta_tagger(code)
    out = set()
    for tag, _ in tagger.tag_word(word, cutoff=10):
        if tag.startswith("WW(pv"):
            lemma, _tag = tagger.analyze(word, pos=tag, taglevel=1)
            out.add(str(lemma).lower())
    return frozenset(out)
