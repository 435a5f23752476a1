"""French slot rules of issue 41k: nouns and adjectives spelled as a form of the verb that the words around them
settle (mixed into :class:`fbagent.checks.verb_slots.SlotRules`); each returns the refusal's reason or None.

- a finite-looking form after a preposition and the elided article l' ("dans l'est", "à l'est"): a noun, since the
  object clitic l' stands after a preposition only before an infinitive ("pour l'aider"; Grevisse & Goosse,
  *Le bon usage*, § 682: the clitic pronoun goes before the verb that governs it);
- a form other than a participle or the infinitive right after a copula (être, sembler, paraître, devenir,
  rester, demeurer): an attribute adjective ("Le public semblait content du spectacle":
  two finite verbs do not follow each other in one clause).
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.verb_sentence import SentenceFacts

#: the lemmas of the French copulas (verbes attributifs): what follows them is an attribute
FR_COPULAS = frozenset({"être", "sembler", "paraître", "devenir", "rester", "demeurer"})


@dataclass
class FrenchSlotRules(SentenceFacts):
    """The French slot rules above over one sentence."""

    def _fr_same(self, j: int, i: int) -> bool:
        return 0 <= j < len(self.tokens) and self.clause[j] == self.clause[i]

    def french_refusal(self, i: int, lemma: str, participles: frozenset[str]) -> str | None:
        """Why token ``i``, a form of ``lemma``, is a French noun or adjective here (see the module doc); None
        otherwise or for another language. ``participles``: ``lemma``'s past participles (verbal after a copula)."""
        if self.code != "fr" or self.readings is None:
            return None
        return self._after_elided_article(i, lemma) or self._copula_attribute(i, lemma, participles)

    def _after_elided_article(self, i: int, lemma: str) -> str | None:
        toks, readings = self.tokens, self.readings
        if toks[i].text == lemma or not self._fr_same(i - 2, i) or toks[i - 1].text != "l" or readings is None:
            return None
        before = readings[i - 2]
        if before is None or before.pos != "adposition":
            return None
        return f"follows '{toks[i - 2].text} l'' (an article after a preposition) and is read as a noun"

    def _copula_attribute(self, i: int, lemma: str, participles: frozenset[str]) -> str | None:
        toks, readings = self.tokens, self.readings
        text = toks[i].text
        if text == lemma or text in participles or readings is None:
            return None
        j = i - 1   # right after the copula: after a degree adverb the degree rule names the reason ("est très fière")
        if not self._fr_same(j, i) or (r := readings[j]) is None or not r.verb or r.lemma not in FR_COPULAS:
            return None
        if self.tokens[j].text in ("est", "sont", "était", "étaient") and i == j + 1 and self._fr_same(j - 1, i) \
                and toks[j - 1].text in ("c", "ce", "qu", "que"):
            return None   # "c'est", "ce que": the copula of a cleft, not of an attribute
        return f"follows the copula '{toks[j].text}' and is read as an attribute adjective"
