"""German and Dutch word-class slots of issue 41 (builder 41g), mixed into :class:`fbagent.checks.verb_slots.SlotRules`:
a form of the target that HanTa's lexicon also knows as an adjective or adverb, standing where the clause selects that
reading.

- **One finite verb a main clause** (verb second; Duden, *Die Grammatik*, 2016, § 1339-1346; Haeseryn et al., *ANS*,
  § 21.1): a form that can only be finite (not the infinitive, no participle) and that HanTa's lexicon also knows
  as another class (a noun, adjective, adverb, particle or preposition) after the clause's finite verb, with no
  conjunction, relative or interrogative word anywhere before it in the clause, is no second finite verb: it is the
  adverb, particle, noun or adjective spelled so ("Komm mal her": the particle, not malen; "had ze vooral rust nodig":
  the noun, not rusten) (:meth:`WordClassSlots.second_finite`).
- **An attributive adjective of its own**: HanTa reads the word as an attributive adjective (``ADJ(A)``,
  ``ADJ(prenom,...)``) before a noun and its morphological analysis (HanTa, ``taglevel=3``) has no verbal morpheme (a
  stem tagged ``VV``/``WW``, a participle or present-participle suffix): a lexical adjective spelled as a verb form
  ("Die weise Entscheidung", "Liebe Frau Schmidt"), not a participle used attributively ("die spielenden Kinder",
  "der reparierte Wagen" stay verbs) (:meth:`WordClassSlots.attributive_adjective`).

- **The verb-second place after a subject pronoun**: a form of the target right after a clause-opening subject
  pronoun is the verb ("Ik slaap slecht") (:meth:`WordClassSlots.pronoun_v2_slot`).
- **The clitic "du"**: a 2nd person singular in -st with "du" fused to it as "-e" ("Haste", "Kannste") is the verb
  (:meth:`WordClassSlots.enclitic_du`).
- **A nominalised infinitive**: the infinitive right after a word HanTa reads as a determiner ("Mijn lezen")
  (:meth:`WordClassSlots.determiner_infinitive`).
- **A homograph the lexicon knows only as another verb**: HanTa reads the word in context as another verb's form and
  its lexicon has no reading of it as the target ("We zagen een ree": zien) (:meth:`WordClassSlots.lexicon_other_verb`).

All read the analyser's own knowledge (its tags in context and its lexicon's analysis), no word lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.analysers import hanta_sentence, hanta_tagger
from fbagent.checks.verb_sentence import SentenceFacts

#: HanTa's morpheme tags (German STTS model, Dutch CGN model) that mark a word as built on a verb
_VERBAL_MORPHEMES = ("VV", "VA", "VM", "WW", "PREF_PP", "SUF_PP", "PRESPART", "PREF_VD", "SUF_VD", "SUF_OD")
#: the attributive-adjective tags of HanTa's German and Dutch models
_ATTRIBUTIVE = {"de": ("ADJ(A)",), "nl": ("ADJ(prenom",)}
#: determiners spelled as personal pronouns: after one an infinitive may be the pronoun's verb ("Wil je zwemmen?"), or
#: belong to a construction ("aan het koken": the progressive; clause-initial "Het lopen" is het_infinitive's)
_PRONOUN_DETERMINERS = frozenset({"je", "haar", "hun", "ons", "jullie", "het", "ihr", "ihre", "sie", "es", "zijn", "sein"})
#: German subject pronouns (HanTa tags them PPER with the object pronouns)
_DE_SUBJECT_PRONOUNS = frozenset({"ich", "du", "er", "sie", "es", "wir", "ihr"})
#: words that open a clause inside a clause without a comma: their verb may come before the clause's own
_OPENER_POS = frozenset({"conjunction"})


@lru_cache(maxsize=4096)
def verbal_morphology(word: str, tag: str, code: str) -> bool:
    """Whether HanTa's morphological analysis of ``word`` under ``tag`` (``taglevel=3``) has a verbal morpheme
    (:data:`_VERBAL_MORPHEMES`): "reparierte" -> reparier/VVnp + t/SUF_PP + e/SUF_ADJ is True; "weise" ->
    weis/ADJ + e/SUF_ADJ is False. ``code``: ``de`` or ``nl``. Memoised (a pure function of the loaded model)."""
    _, morphemes, _ = hanta_tagger(code).analyze(word, pos=tag, taglevel=3)
    return any(str(t).startswith(_VERBAL_MORPHEMES) for _, t in morphemes)


@lru_cache(maxsize=4096)
def _tags_of(word: str, code: str) -> tuple[bool, bool]:
    """What HanTa's lexicon knows of ``word`` as written, out of context (its tags within 6 log units of the best):
    (a non-finite verb tag: an infinitive or participle; a tag of another class than verb: a noun, adjective,
    adverb, particle or preposition). Memoised."""
    nonfinite = other = False
    for tag, _ in hanta_tagger(code).tag_word(word, cutoff=6):
        if tag.startswith(("VV", "VA", "VM", "WW")):
            nonfinite |= not ("(FIN)" in tag or "(IMP)" in tag or tag.startswith("WW(pv"))
        else:
            other |= tag.startswith(("NN", "N(", "ADJ", "ADV", "BW", "PTK", "VZ", "APP"))
    return nonfinite, other


@lru_cache(maxsize=4096)
def _lemmas_of(word: str, code: str) -> frozenset[str]:
    """The lemmas (lower case) HanTa's lexicon gives ``word`` as written under each of its tags within 6 log units of
    the best, out of context. Memoised."""
    tagger = hanta_tagger(code)
    return frozenset(str(tagger.analyze(word, pos=tag, taglevel=1)[0]).lower() for tag, _ in tagger.tag_word(word, cutoff=6))


@dataclass
class WordClassSlots(SentenceFacts):
    """The German / Dutch word-class slot rules above over one sentence."""

    def _tags(self) -> tuple[str, ...]:
        """HanTa's tag of each token (the same cached tagging the readings come from)."""
        words = tuple(self.sentence[t.start:t.end] for t in self.tokens)
        return tuple(tag for _, tag in hanta_sentence(words, self.code))

    def _verbal_word(self, i: int) -> bool:
        """Whether token ``i`` is built on a verb by HanTa's morphology under its tag in context (:func:`verbal_morphology`:
        "verschlossen" yes, Dutch "open" no); True where HanTa does not serve the language."""
        if self.code not in _ATTRIBUTIVE or self.readings is None:
            return True
        return verbal_morphology(self.sentence[self.tokens[i].start:self.tokens[i].end], self._tags()[i], self.code)

    def _finite_only(self, i: int, lemma: str) -> bool:
        """Whether token ``i`` is spelled as none of ``lemma``'s non-finite forms: not the infinitive nor an
        infinitive with a particle or "zu" glued before it, not the present participle, not a participle (``ge``-, the
        -t / -et participle of an -ieren verb or of a verb with an ``inseparable_prefixes`` prefix), and HanTa's lexicon
        gives the written word no non-finite verb tag."""
        text = self.tokens[i].text
        if text == lemma or text.endswith(lemma) or text.startswith("ge") or text.endswith(("end", "ende", "enden")):
            return False
        stem = lemma[:-2] if lemma.endswith("en") else lemma[:-1]
        if (lemma.endswith("ieren") or lemma.startswith(self.m.inseparable_prefixes)) and text.startswith(stem):
            return False
        return not _tags_of(self.sentence[self.tokens[i].start:self.tokens[i].end], self.code)[0]

    def second_finite(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a finite-only form of ``lemma`` (:meth:`_finite_only`), is no verb: an earlier word of its
        clause is read as a finite verb and nothing before token ``i`` in the clause opens another clause (a word
        read as a conjunction, relative or interrogative pronoun). None otherwise, and for languages other than
        German and Dutch."""
        readings = self.readings
        if self.code not in ("de", "nl") or readings is None or not self._finite_only(i, lemma) \
                or not _tags_of(self.sentence[self.tokens[i].start:self.tokens[i].end], self.code)[1]:
            return None
        verb = None
        for j in range(i - 1, -1, -1):
            if self.clause[j] != self.clause[i]:
                break
            r = readings[j]
            if r is not None and r.pos in _OPENER_POS:
                return None
            if r is not None and r.verb and r.finite and verb is None:
                verb = j
        if verb is None:
            return None
        return (f"follows '{self.tokens[verb].text}', the finite verb of its clause (one finite verb a main clause), "
                f"and is read as another word")

    def pronoun_v2_slot(self, i: int) -> bool:
        """German / Dutch: token ``i`` (a form of the target by its spelling: the caller asks only then) stands second in
        its clause right after a subject pronoun (HanTa: ``PPER`` in the nominative, ``VNW(pers,pron,nomin...)``), not
        capitalised in German (a noun in apposition: "Wir Studenten"): the verb-second place, which only the finite verb
        fills ("Ik slaap slecht", "Ich liebe Musik"), whatever the tagger reads in context."""
        if self.code not in ("de", "nl") or self.readings is None or i == 0 or self.clause[i - 1] != self.clause[i] \
                or i >= 2 and self.clause[i - 2] == self.clause[i]:
            return False
        tag = self._tags()[i - 1]
        pronoun = tag.startswith("VNW(pers,pron,nomin") if self.code == "nl" else \
            tag == "PPER" and self.tokens[i - 1].text in _DE_SUBJECT_PRONOUNS
        word = self.sentence[self.tokens[i].start:self.tokens[i].end]
        return pronoun and not (self.code == "de" and word[:1].isupper())

    def enclitic_du(self, i: int, lemma: str) -> bool:
        """German: token ``i`` is a 2nd person singular in -st of ``lemma`` with the subject "du" reduced to "-e" and
        fused to it, as spoken and written informally ("Haste mal 'nen Euro?", "Kannste mir helfen?", "Weißte was?";
        Duden, *Die Grammatik*, 2016, § 1662 on the clitic forms of du). The form without the "-e" must be a form of
        ``lemma`` by its spelling (the lemmatiser or the generated forms), and the word is not read as an adjective nor
        follows a determiner, preposition, numeral or adjective (a superlative: "die lauteste Band")."""
        text, readings = self.tokens[i].text, self.readings
        if self.code != "de" or not text.endswith("ste") or len(text) < 5 or readings is None \
                or (r := readings[i]) is not None and r.pos == "adjective":
            return False   # "die lauteste Band": a superlative, not "lautest" + du
        if i > 0 and self.clause[i - 1] == self.clause[i] and (b := readings[i - 1]) is not None \
                and b.pos in ("determiner", "adposition", "numeral", "adjective"):
            return False
        return self._spelling_method(text[:-1], lemma, None, stem=False) is not None

    def determiner_infinitive(self, i: int, lemma: str) -> str | None:
        """German / Dutch: token ``i`` is the infinitive ``lemma`` right after a word HanTa reads as a determiner (an
        article, a possessive or demonstrative determiner), not one of :data:`_PRONOUN_DETERMINERS` (spelled as a
        personal pronoun too: "Wil je zwemmen?"): a nominalised infinitive ("Mijn lezen gaat vooruit", "dit eeuwige
        wachten"; Haeseryn et al., *ANS*, § 2.3.1.3 on the infinitive as a noun). None otherwise."""
        readings = self.readings
        if self.code not in _ATTRIBUTIVE or readings is None or i == 0 or self.tokens[i].text != lemma \
                or self.clause[i - 1] != self.clause[i] or (b := readings[i - 1]) is None or b.pos != "determiner" \
                or self.tokens[i - 1].text in _PRONOUN_DETERMINERS:
            return None
        return f"follows the determiner '{self.tokens[i - 1].text}' and is read as a nominalised infinitive"

    def lexicon_other_verb(self, i: int, lemma: str) -> str | None:
        """The other verb token ``i``, spelled as ``lemma`` itself, is here: HanTa reads it in context as a form of
        another verb and its lexicon gives the word no reading as ``lemma`` at all (tags within 6 log units of the
        best: Dutch "zagen" is only zien's past, "We zagen een ree"; English "found" keeps its reading as the verb
        found, so the context must decide there), and it does not stand where only an infinitive can (last in its
        clause after a modal or auxiliary, after "te" / "zu": "Ze moeten de boom zagen"). German, Dutch, English; None
        otherwise."""
        readings = self.readings
        if self.code not in ("de", "nl", "en") or readings is None or (r := readings[i]) is None or not r.verb \
                or self.tokens[i].text != lemma or not r.lemma.isalpha() or r.lemma == lemma:
            return None
        if lemma in _lemmas_of(self.sentence[self.tokens[i].start:self.tokens[i].end], self.code):
            return None
        if self.final_infinitive(i) or i > 0 and self.tokens[i - 1].text == self.m.infinitive_marker:
            return None   # "Ze moeten de boom zagen", "te zagen": the slot takes only the infinitive, the target's
        return f"is read as a form of '{r.lemma}' (the only reading the tagger's lexicon has for it)"

    def attributive_adjective(self, i: int) -> str | None:
        """Why token ``i`` is an adjective of its own before a noun (see the module doc): HanTa's tag is attributive,
        the next word of the clause is read as a noun or adjective, the word's analysis has no verbal morpheme, and it
        opens its clause, follows a determiner, preposition, numeral, adjective or adverb, or its clause has another
        finite verb. None otherwise."""
        readings = self.readings
        if self.code not in _ATTRIBUTIVE or readings is None or (r := readings[i]) is None or r.pos != "adjective":
            return None
        tag = self._tags()[i]
        nxt = readings[i + 1] if i + 1 < len(self.tokens) and self.clause[i + 1] == self.clause[i] else None
        if not tag.startswith(_ATTRIBUTIVE[self.code]) or nxt is None or nxt.pos not in ("noun", "adjective"):
            return None
        if verbal_morphology(self.sentence[self.tokens[i].start:self.tokens[i].end], tag, self.code):
            return None
        prev = readings[i - 1] if i > 0 and self.clause[i - 1] == self.clause[i] else None
        opens = i == 0 or self.clause[i - 1] != self.clause[i]
        other = any((o := readings[k]) is not None and o.verb and o.finite and self.clause[k] == self.clause[i]
                    for k in range(len(self.tokens)) if k != i)
        if not (opens or other or prev is not None and prev.pos in ("determiner", "adposition", "numeral", "adjective",
                                                                     "adverb")):
            return None
        noun = self.sentence[self.tokens[i + 1].start:self.tokens[i + 1].end]
        return f"is read as an adjective of its own before the noun '{noun}'"
