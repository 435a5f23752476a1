"""German and Dutch slot rules of issue 41k (mixed into :class:`fbagent.checks.verb_slots.SlotRules`): a word HanTa
reads as an adjective right after a finite full verb is an adverbial adjective ("Sie lächelte verlegen", "Er schaute
betroffen zur Seite", "Hij keek verlegen weg"), not the infinitive or participle it is spelled as: an infinitive or
participle next to a finite verb needs an auxiliary, a modal or one of the few verbs that take a bare infinitive or a
participle (lassen, gehen, kommen, bleiben, sehen, hören ...; Duden, *Die Grammatik*, 2016, § 594-602 on the
verbal complex; Haeseryn et al., *ANS*, § 18.5.2). Dutch: an infinitive right after "het" that opens its clause is a
nominalised infinitive ("Het lopen doet hem goed"; :meth:`GermanSlotRules.het_infinitive`).
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.verb_sentence import SentenceFacts

#: the lemmas (HanTa's, lower-cased) of the verbs that take a bare infinitive or a participle next to them: auxiliaries,
#: modals, copulas and the verbs of the verbal complex
VERBAL_COMPLEX_HEADS = frozenset({
    "haben", "sein", "werden", "können", "müssen", "dürfen", "sollen", "wollen", "mögen", "möchten", "lassen",
    "gehen", "kommen", "bleiben", "sehen", "hören", "fühlen", "helfen", "lernen", "lehren", "fahren", "heißen",
    "brauchen", "tun", "scheinen", "finden", "legen", "schicken", "spüren",
    "hebben", "zijn", "worden", "kunnen", "moeten", "mogen", "willen", "zullen", "laten", "gaan", "komen", "blijven",
    "zien", "horen", "voelen", "helpen", "leren", "doen", "lijken", "schijnen", "vinden", "staan", "zitten", "liggen",
    "hoeven", "durven", "proberen", "beginnen",
})


@dataclass
class GermanSlotRules(SentenceFacts):
    """The German / Dutch slot rule above over one sentence."""

    def adverbial_adjective(self, i: int) -> str | None:
        """Why token ``i`` is an adverbial adjective (see the module doc): HanTa reads it as an adjective and the word
        before it in its clause is a finite verb outside :data:`VERBAL_COMPLEX_HEADS`; None otherwise."""
        readings, toks = self.readings, self.tokens
        if self.code not in ("de", "nl") or readings is None or i == 0 or self.clause[i - 1] != self.clause[i]:
            return None
        r, prev = readings[i], readings[i - 1]
        if r is None or r.pos != "adjective" or prev is None or not (prev.verb and prev.finite) \
                or prev.lemma in VERBAL_COMPLEX_HEADS:
            return None
        return f"follows the verb '{toks[i - 1].text}' and is read as an adverbial adjective"

    def het_infinitive(self, i: int, lemma: str) -> str | None:
        """Dutch: token ``i``, the infinitive ``lemma``, right after "het" that opens its clause: a nominalised
        infinitive, the subject ("Het lopen doet hem goed"); as a finite verb it would need the singular -t after the
        singular pronoun het (Haeseryn et al., *ANS*, § 2.3.1.3 and 18.4). None otherwise."""
        toks = self.tokens
        if self.code != "nl" or i == 0 or toks[i].text != lemma or not lemma.endswith("en") or toks[i - 1].text != "het" \
                or self.clause[i - 1] != self.clause[i] or (i >= 2 and self.clause[i - 2] == self.clause[i]):
            return None
        return "follows 'het' that opens its clause and is read as a nominalised infinitive"

