"""Turkish homographs that zeyrek's analyses and the clause decide (issue 41; :mod:`fbagent.checks.analyser_tr`).

A spelling match of the target verb, found by the conjugation tables, is no use of it where zeyrek gives the word a
reading of another dictionary item that the words around it select (Göksel & Kerslake, *Turkish: A Comprehensive
Grammar*, 2005: the existential 12.1.1.2, compound nouns 10.2, attributive adjectives 15.2, the optative 21.4.3):

- the **existential** ``existentials`` word with the copula ("Masada eski bir kitap vardı": there was) and no goal
  in the dative in its clause (varmak, arrive, takes one: "Eve geç vardı");
- a **compound noun's head**: the lexicon's noun with the 3rd person compound marker right after a bare noun
  ("biber dolması", stuffed peppers: "dolma" + -sI), where every reading of the target verb is a verbal noun;
- a clause-initial **adjective or adverb** spelled like the bare imperative or the infinitive ("Dik bir yokuştan
  ... tırmandık", "Kuru ekmeği ... verdik", "Demek sen de ... okudun") in a clause that ends in another verb's
  finite form: an imperative clause ends in its own verb, or the object follows it ("Aç kapıyı!");
- the 3rd person **optative** (archaic, not reduplicated: "koşa koşa" is the converb) of a word the lexicon also
  knows as a noun ("Hafta sonu kıra pikniğe gittik": the countryside, dative).

Each rule returns the refusal note's reason; none runs without zeyrek (``fbagent[tr]``).
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.analyser_tr import TrReading, tr_readings
from fbagent.checks.verb_sentence import SentenceFacts

_PERSONS = frozenset({"A1sg", "A2sg", "A3sg", "A1pl", "A2pl", "A3pl"})
_NOMINAL = frozenset({"Noun", "Adj", "Adv", "Postp", "Pron", "Det", "Conj", "Ques", "Num"})


def _finite(r: TrReading) -> bool:
    """Whether ``r`` is a finite verb reading other than an imperative (a person marker on a Verb)."""
    return r.verb_item and r.pos == "Verb" and bool(_PERSONS & set(r.morphemes)) and "Imp" not in r.morphemes


@dataclass
class TurkishReadingRules(SentenceFacts):
    """The rules of the module doc over one sentence (mixed into :class:`SentenceContext` through the closed-class
    rules)."""

    def turkish_reading(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a spelling match of ``lemma``, is another dictionary item's word here (see the module
        doc), as the note's reason; None where the language is not Turkish, zeyrek is missing or no rule fires."""
        if self.code != "tr":
            return None
        readings = tr_readings(self.tokens[i].text)
        own = [r for r in readings if r.verb_item and r.lemma == lemma]
        other = [r for r in readings if r.item_pos in _NOMINAL]
        if not own or not other:
            return None
        if (word := self._existential(i, other)) is not None:
            return f"is read as the existential '{word}' with the copula (no goal in the dative for '{lemma}')"
        if all(r.pos != "Verb" for r in own) and (noun := self._compound_head(i, other)) is not None:
            return f"follows the bare noun '{self.tokens[i - 1].text}' and is read as the compound's noun '{noun}'"
        if self._initial_modifier(i, own, other):
            return f"opens a clause that ends in another verb and is read as the {other[0].item_pos.lower()} " \
                   f"'{other[0].lemma}'"
        if all(r.morphemes[1:] == ("Opt", "A3sg") for r in own) and any(r.item_pos == "Noun" for r in other) \
                and not self._reduplicated(i):
            return f"is read as the noun '{other[0].lemma}' (the 3rd person optative is archaic)"
        return None

    def _same_clause(self, i: int) -> range:
        """Token indices of token ``i``'s clause."""
        start, end = i, i
        while start > 0 and self.clause[start - 1] == self.clause[i]:
            start -= 1
        while end + 1 < len(self.tokens) and self.clause[end + 1] == self.clause[i]:
            end += 1
        return range(start, end + 1)

    def _existential(self, i: int, other: list[TrReading]) -> str | None:
        """The ``existentials`` word token ``i`` is with the copula, where no word of its clause is only a dative."""
        word = next((r.lemma for r in other if r.lemma in self.m.existentials and "Zero" in r.morphemes), None)
        if word is None:
            return None
        toks = self.tokens
        for k in self._same_clause(i):
            form = toks[k].text
            if k > 0 and toks[k].start > 0 and self.sentence[toks[k].start - 1] in "'\u2019":
                form = toks[k - 1].text + form   # a name's case suffix after an apostrophe: "İstanbul'a"
            rs = tr_readings(form)
            if k != i and rs and all(r.morphemes[-1:] == ("Dat",) for r in rs):
                return None   # "Eve geç vardı": the goal of varmak
        return word

    def _compound_head(self, i: int, other: list[TrReading]) -> str | None:
        """The lexicon's noun token ``i`` is as a compound's head: a Noun item + P3sg reading, right after a word of
        the clause with a bare-noun reading (Noun + A3sg, no case) and no verb reading."""
        noun = next((r.lemma for r in other if r.item_pos == "Noun" and r.morphemes[-1:] == ("P3sg",)), None)
        if noun is None or i == 0 or self.clause[i - 1] != self.clause[i]:
            return None
        before = tr_readings(self.tokens[i - 1].text)
        if any(r.morphemes == ("Noun", "A3sg") for r in before) and not any(r.verb_item for r in before):
            return noun
        return None

    def _initial_modifier(self, i: int, own: list[TrReading], other: list[TrReading]) -> bool:
        """Whether token ``i`` opens its clause as an adjective or adverb (an Adj/Adv item reading) while the
        target's readings are only the bare imperative or the infinitive, and the clause's last word is another
        verb's finite form (not an imperative)."""
        span = self._same_clause(i)
        if i != span[0] or len(span) < 3 or not any(r.item_pos in ("Adj", "Adv") for r in other):
            return False
        if not all(r.morphemes[1:] in (("Imp", "A2sg"), ("Inf1", "Noun", "A3sg")) for r in own):
            return False
        last = tr_readings(self.tokens[span[-1]].text)
        return any(_finite(r) and r.lemma != own[0].lemma for r in last)

    def _reduplicated(self, i: int) -> bool:
        """Whether token ``i`` repeats a neighbour of its clause ("koşa koşa": the converb)."""
        toks, clause = self.tokens, self.clause
        return any(0 <= k < len(toks) and clause[k] == clause[i] and toks[k].text == toks[i].text for k in (i - 1, i + 1))
