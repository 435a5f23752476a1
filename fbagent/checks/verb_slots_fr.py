"""French slot rules of issue 41k: nouns and adjectives spelled as a form of the verb that the words around them
settle (mixed into :class:`fbagent.checks.verb_slots.SlotRules`); each returns the refusal's reason or None.

- a finite-looking form after a preposition and the elided article l' ("dans l'est", "à l'est"): a noun, since the
  object clitic l' stands after a preposition only before an infinitive ("pour l'aider"; Grevisse & Goosse,
  *Le bon usage*, § 682: the clitic pronoun goes before the verb that governs it);
- a form after a determiner and a prenominal adjective, with "de" and a bare noun after it ("La vieille porte d'entrée",
  "le grand livre de cuisine"; not before an adverbial "de long en large"): the head noun of a noun phrase with its complement; the verb takes an article or
  partitive after "de" ("La vieille porte de l'eau": the old woman carries water; issue 41r session 16);
- a form other than a participle or the infinitive right after a copula (être, sembler, paraître, devenir,
  rester, demeurer): an attribute adjective ("Le public semblait content du spectacle":
  two finite verbs do not follow each other in one clause).

And two French verb uses the tagger misses (issue 41r):

- the future and conditional of the verbs with an irregular future stem (``future_stems``: savoir -> saur-, venir ->
  viendr-; Grevisse & Goosse, *Le bon usage*, § 811-812) and of the -re verbs (the infinitive minus its e:
  "prendrais", "boirez"): "Sauriez-vous";
- a present participle that opens its clause before the article, determiner or pronoun of its object ("Fuyant la
  guerre, ...", "Sachant que ..."): a participial clause, the verb; the -ant form is the participle of the verb whose
  "nous" form is its stem + "ons" (fuyons, sachons). Not the prepositions spelled so (``function_homographs``:
  "Durant la nuit", "Suivant les règles").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.morphology import _data
from fbagent.checks.verb_sentence import SentenceFacts

#: the lemmas of the French copulas (verbes attributifs): what follows them is an attribute
FR_COPULAS = frozenset({"être", "sembler", "paraître", "devenir", "rester", "demeurer"})
#: the endings of the future and conditional after the future stem
_FUTURE_ENDINGS = ("ai", "as", "a", "ons", "ez", "ont", "ais", "ait", "ions", "iez", "aient")
#: words that open the object of a clause-opening present participle ("Fuyant la guerre", "Sachant que")
_OBJECT_OPENERS = frozenset({"le", "la", "les", "l", "un", "une", "des", "du", "de", "d", "ce", "cet", "cette", "ces",
                             "son", "sa", "ses", "leur", "leurs", "mon", "ma", "mes", "notre", "nos", "votre", "vos",
                             "que", "qu", "cela", "ça", "tout", "toute", "tous", "toutes", "chaque", "plusieurs"})


@lru_cache(maxsize=1)
def future_stems() -> tuple[tuple[str, str], ...]:
    """The ``[languages.fr.future_stems]`` table (infinitive ending -> future stem ending), longest ending first."""
    table = _data().get("languages", {}).get("fr", {}).get("future_stems", {})
    return tuple(sorted(((str(k), str(v)) for k, v in table.items()), key=lambda row: len(row[0]), reverse=True))


def french_future_stem(lemma: str) -> str | None:
    """The future stem of the French verb ``lemma``: by the longest listed ending (savoir -> saur, devenir ->
    deviendr), else the infinitive minus its e for an -re verb (prendre -> prendr); None for the others (the -er and
    -ir futures are generated with their paradigms)."""
    for ending, stem in future_stems():
        if lemma.endswith(ending):
            return lemma[: len(lemma) - len(ending)] + stem
    return lemma[:-1] if lemma.endswith("re") and len(lemma) > 3 else None


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
        return self._after_elided_article(i, lemma) or self._noun_with_complement(i) \
            or self._copula_attribute(i, lemma, participles)

    def _noun_with_complement(self, i: int) -> str | None:
        """Why token ``i`` is the noun of "déterminant + adjectif + N + de + nom sans article" (see the module doc)."""
        toks, readings = self.tokens, self.readings
        if readings is None or not all(self._fr_same(j, i) for j in (i - 2, i - 1, i + 1, i + 2)):
            return None
        adj, det = readings[i - 1], readings[i - 2]
        if det is None or det.pos != "determiner" or not (toks[i - 1].text in self.m.prenominal
                                                          or adj is not None and adj.pos == "adjective"):
            return None
        if toks[i + 1].text not in ("de", "d") or toks[i + 2].text in _OBJECT_OPENERS \
                or (bare := readings[i + 2]) is None or bare.pos != "noun":
            return None   # "Le vieux marche de long en large": an adverbial after de, the verb
        return f"stands between the adjective '{toks[i - 1].text}' and 'de' + a bare noun and is read as a noun"

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

    def french_future(self, text: str, lemma: str) -> bool:
        """Whether ``text`` is a future or conditional of the French ``lemma`` by its future stem
        (:func:`french_future_stem`): "sauriez" of savoir, "prendrais" of prendre."""
        if self.code != "fr" or (stem := french_future_stem(lemma)) is None:
            return False
        return text.startswith(stem) and text[len(stem):] in _FUTURE_ENDINGS

    def opening_participle(self, i: int, lemma: str) -> bool:
        """Whether token ``i`` is ``lemma``'s present participle opening its clause before its object (see the
        module doc): "Fuyant la guerre", "Sachant que"."""
        toks, text = self.tokens, self.tokens[i].text
        if self.code != "fr" or not text.endswith("ant") or len(text) < 5 or text in self.m.function_homographs:
            return False
        if (i > 0 and self.clause[i - 1] == self.clause[i]) or not self._fr_same(i + 1, i):
            return False
        if toks[i + 1].text not in _OBJECT_OPENERS:
            return False
        return bool(self._spelling_method(text[:-3] + "ons", lemma, None, stem=False))
