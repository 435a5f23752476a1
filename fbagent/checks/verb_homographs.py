"""Homographs of a verb form that the tagged sentence's syntax decides (German, Dutch, English; issue 41, builder 41g,
session 16), mixed into :class:`fbagent.checks.verb_context.SentenceContext`. Each rule reads HanTa's tags in context
and a slot of the clause, never a word list:

- **A noun coordinated with a noun at the start of the sentence**: the sentence's first word, a form of the target
  that the tagger reads as a noun, joined by the language's coordinator to a word the tagger reads as a noun (German:
  capitalised, so a noun wherever it stands; Dutch: a word HanTa's lexicon knows as no verb at all), with a finite
  verb after them in the clause: coordination joins words of one class (Duden, *Die Grammatik*, 2016, § 1655 on
  coordinated phrases), so both are the subject's nouns ("Fliegen und Mücken machten die Nacht unerträglich",
  "Vliegen en muggen maakten ..."); a verb after the coordinator keeps the verb ("Kochen und backen Sie gern?")
  (:meth:`HomographSlots.coordinated_noun`).
- **The head of a noun phrase after an inflected attributive adjective**: the target's infinitive right after an
  adjective HanTa tags attributive (``ADJ(A)``, ``ADJ(prenom...``) and spelled inflected (-e, -en, -er, -es, -em),
  which opens its clause or follows a determiner, numeral or preposition: an inflected adjective modifies a noun,
  never a verb (adverbial adjectives are uninflected; Haeseryn et al., *ANS*, § 6.2; Duden § 480), so the
  infinitive is the nominalised one or a plural noun ("Dat eeuwige klagen van hem", "Met twee slimme zetten won
  hij") (:meth:`HomographSlots.adjective_head`).
- **An adverb before the clause's inverted finite verb**: a form of the target opening its clause that HanTa reads
  as an adverb, right before a word it reads as a finite verb with a subject pronoun after it (the imperative or
  question with inversion): the finite verb's place is taken, one finite verb a clause (Duden § 1339-1346), so the
  word is the adverb ("Bitte schließen Sie das Fenster": bitte, not bitten) (:meth:`HomographSlots.adverb_before_verb`).
- **Another verb's base form in a base-form slot**: a form of the target that is not its base form ("bore" of bear)
  after a modal or do-support, where only a bare infinitive stands (Quirk et al. 1985, § 3.21): it is the other
  verb's base form ("Please don't bore me": bore, not bear) (:meth:`HomographSlots.past_in_base_slot`).
- **A past form right after its subject**: an English past form of the target (not its base form) that the tagger
  reads as a noun, right after a subject pronoun or a plural noun that follows a determiner, before a preposition,
  determiner or adverb, in a clause with no other finite verb: the subject's verb ("The swimmers dove into the
  pool": a variant preterite of dive, not the bird) (:meth:`HomographSlots.past_after_subject`).
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.analysers import hanta_tagger
from fbagent.checks.verb_slots import SlotRules

#: HanTa tags of a noun in context (German STTS incl. nominalised infinitives ``NNI``; Dutch CGN)
_NOUN_TAGS = {"de": ("NN",), "nl": ("N(",)}
#: HanTa's attributive-adjective tags (German STTS model, Dutch CGN model)
_ATTRIBUTIVE = {"de": ("ADJ(A)",), "nl": ("ADJ(prenom",)}
#: the endings of an inflected attributive adjective (German strong/weak/mixed endings; Dutch -e)
_INFLECTED = {"de": ("e", "en", "er", "es", "em"), "nl": ("e",)}


@dataclass
class HomographSlots(SlotRules):
    """The rules of the module doc over one sentence."""

    def homograph_refusal(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a spelling match of ``lemma``, is another word here by the rules of the module doc (the
        note's reason), or None; None for other languages and without a tagger."""
        return self.coordinated_noun(i) or self.adjective_head(i, lemma) or self.past_in_base_slot(i, lemma) \
            or self.adverb_before_verb(i)

    def _tag(self, i: int) -> str:
        """HanTa's tag of token ``i`` in context ("" where HanTa does not serve the language)."""
        return self._tags()[i] if self.code in _NOUN_TAGS and self.readings is not None else ""

    def coordinated_noun(self, i: int) -> str | None:
        """German / Dutch: why token ``i``, the sentence's first word, read as a noun, is the noun coordinated with the
        noun after the coordinator (see the module doc); None otherwise."""
        readings = self.readings
        if self.code not in _NOUN_TAGS or readings is None or i != 0 or len(self.tokens) < 4 \
                or self.tokens[1].text not in self.slots.coordinators or self.clause[2] != self.clause[0] \
                or not self._tag(0).startswith(_NOUN_TAGS[self.code]) or not self._tag(2).startswith(_NOUN_TAGS[self.code]):
            return None
        other = self.sentence[self.tokens[2].start:self.tokens[2].end]
        if self.code == "de" and not (other[:1].isupper() and self.tokens[2].text != "sie"):
            return None
        if self.code == "nl" and any(t.startswith("WW") for t, _ in self._lexicon_tags(other)):
            return None
        if not any((r := readings[k]) is not None and r.verb and r.finite
                   for k in range(3, len(self.tokens)) if self.clause[k] == self.clause[0]):
            return None
        return f"is coordinated with the noun '{other}' before the clause's finite verb and is read as a noun"

    def _lexicon_tags(self, word: str) -> list[tuple[str, float]]:
        """HanTa's tags of ``word`` out of context (within 6 log units of the best)."""
        return list(hanta_tagger(self.code).tag_word(word, cutoff=6))

    def adjective_head(self, i: int, lemma: str) -> str | None:
        """German / Dutch: why token ``i``, the infinitive ``lemma``, is the head noun after an inflected attributive
        adjective (see the module doc); None otherwise."""
        readings = self.readings
        if self.code not in _ATTRIBUTIVE or readings is None or i == 0 or self.tokens[i].text != lemma \
                or self.clause[i - 1] != self.clause[i]:
            return None
        j = i - 1
        adjective = self.tokens[j].text
        if not self._tag(j).startswith(_ATTRIBUTIVE[self.code]) or not adjective.endswith(_INFLECTED[self.code]) \
                or self.tokens[j].text == lemma:
            return None
        while j > 0 and self.clause[j - 1] == self.clause[i] and self._tag(j - 1).startswith(_ATTRIBUTIVE[self.code]):
            j -= 1
        opens = j == 0 or self.clause[j - 1] != self.clause[i]
        before = readings[j - 1] if not opens else None
        if not opens and (before is None or before.pos not in ("determiner", "numeral", "adposition")) \
                and not (j == 1 and before is not None and before.pos == "conjunction"):
            return None   # "We moeten andere zoeken": after a verb the -e word is a pronoun, the infinitive a verb
        return f"follows the inflected attributive adjective '{adjective}' and is read as the head noun of its phrase"

    def past_in_base_slot(self, i: int, lemma: str) -> str | None:
        """English: why token ``i``, a form of ``lemma`` other than its base form, is another verb's base form: it
        stands where only a bare infinitive stands (:meth:`modal_base`: after a modal or do-support), so it is
        the base form of the verb spelled so ("Please don't bore me": bore, not bear's past). None otherwise."""
        text = self.tokens[i].text
        if self.code != "en" or self.readings is None or text == lemma or not self.slots.base_slot \
                or self.fused_form(text, lemma):
            return None
        toks = self.tokens
        negated = i >= 2 and toks[i - 1].text == "t" and self.clause[i - 2] == self.clause[i] \
            and toks[i - 2].text in self.slots.base_slot   # "don't", "can't": the tagger may read "don" as a noun
        if not negated and not self.modal_base(i, self.slots.base_slot):
            return None
        return "stands where only a base form stands (after a modal or do-support), so it is another verb's base form"

    def past_after_subject(self, i: int, lemma: str) -> bool:
        """English: whether token ``i``, a past form of ``lemma`` read as a noun, is the verb of the subject before it
        (see the module doc)."""
        readings, toks = self.readings, self.tokens
        if self.code != "en" or readings is None or i < 1 or i + 1 >= len(toks) or toks[i].text == lemma \
                or toks[i].text.endswith(("s", "ing")) or (r := readings[i]) is None or r.pos != "noun" \
                or self.clause[i - 1] != self.clause[i] or self.clause[i + 1] != self.clause[i]:
            return False
        before, nxt = readings[i - 1], readings[i + 1]
        subject = toks[i - 1].text in self.m.subject_pronouns or (
            before is not None and before.pos == "noun" and before.number == "pl" and i >= 2
            and (d := readings[i - 2]) is not None and d.pos == "determiner")
        if not subject or nxt is None or nxt.pos not in ("adposition", "determiner", "adverb"):
            return False
        return not any((o := readings[k]) is not None and o.verb and o.finite
                       for k in range(len(toks)) if k != i and self.clause[k] == self.clause[i])

    def adverb_before_verb(self, i: int) -> str | None:
        """German / Dutch: why token ``i``, opening its clause and read as an adverb, is no verb: the next word is read
        as a finite verb and a subject pronoun follows that (see the module doc); None otherwise."""
        readings, toks = self.readings, self.tokens
        if self.code not in _NOUN_TAGS or readings is None or i + 2 >= len(toks) or (r := readings[i]) is None \
                or r.pos != "adverb" or (i > 0 and self.clause[i - 1] == self.clause[i]) \
                or self.clause[i + 2] != self.clause[i] or (v := readings[i + 1]) is None or not (v.verb and v.finite):
            return None
        subject = self._tag(i + 2)
        if not (subject == "PPER" or subject.startswith("VNW(pers,pron,nomin")):
            return None
        return f"is read as an adverb before '{toks[i + 1].text}', the finite verb of its clause with its subject after it"
