"""Noun slots of Spanish, Portuguese and Italian (issue 41r): where a form of the verb stands as a noun or a pronoun.

These languages have no tagger in fbagent, so a spelling match of the target is weighed by the word class its slot
selects. Each rule reads the language's ``[languages.<code>.noun_slots]`` table of ``prompts/verbs/morphology.toml``
(a language without the table has none of them) and runs only where no analyser reads the sentence. Mixed into
:class:`fbagent.checks.verb_slots.SlotRules`; each refusal returns its note's reason.

- A past participle right after a preposition (``prepositions``, ``no_finite_after``) is a noun or adjective:
  the Romance participle is verbal only after an auxiliary or as an absolute clause opener, never as the object of
  a preposition ("decine di morti", "biglietto di andata", "Gosto de gelado", "con cuidado"); words listed in
  ``participle_prepositions_verbal`` are left out (Italian colloquial "dopo mangiato").
- A past participle right after a ``clitic_articles`` word is that article's noun ("Faccio la spesa", "lo hecho"):
  an object clitic stands before a finite verb or an auxiliary, never right before the participle
  (Maiden & Robustelli 2013, *A Reference Grammar of Modern Italian*, § 7.5; RAE, *Nueva gramática*, § 16.11).
- A past participle right after a form of a ``participle_object_verbs`` verb (hacer, fazer, fare: the causative
  takes an infinitive, never a participle) is its object noun ("Isso não faz sentido").
- The infinitive right after a ``infinitive_noun_after`` quantifier ("Todo ser humano", "ningún deber", "qualquer
  poder") is a noun: a quantifier determines a noun phrase, and the nominal infinitive is masculine and singular
  (*Nueva gramática*, § 26.5; Cunha & Cintra, *Nova gramática do português contemporâneo*, ch. 13).
- A ``pronoun_homographs`` word (Spanish and Portuguese "consigo": with oneself, or conseguir's 1st person) is
  the pronoun after a word that is no subject or negation (``verb_context``) when its clause ends after it or
  ``pronoun_followers`` (mismo, próprio, a preposition) follow: the verb takes an infinitive or an object; not after
  an adverb (``pronoun_not_after``, -mente: "Ahora sí consigo").
- A finite-looking form right after another verb's finite form in its clause is that verb's object, an adjective
  or a function word: a clause has one finite verb, and two stand side by side only with a link word between
  ("Ha comprato pesca e uva", "El gato duerme bajo la mesa"); not after a noun subject (a determiner before it), nor
  after a ``que_drop_verbs`` verb, whose complement clause may drop che / que ("Credo sia vero", "Temo piova", "Le
  ruego envíe": Maiden & Robustelli 2013, § 15.4; RAE, *Nueva gramática*, § 43.2e).
- An infinitive after an adjective that follows a preposition ("con grande piacere") is a noun; so is an
  ``infinitive_nouns`` word (a lexicalised infinitive noun: dever, piacere, placer) between a copula and a preposition
  ("É dever de todos"; Cunha & Cintra, ch. 13, the substantivised infinitive).
- Portuguese aspectual periphrases (``a_infinitive_verbs``: estar a, andar a, começar a ...; Cunha & Cintra,
  ch. 13, "verbos auxiliares"): the ``infinitive_preposition`` "a" after a form of one of them, before the
  infinitive, is the preposition, not the article ("Estávamos a jantar": the nominal infinitive is masculine,
  "o jantar").
- A form two verbs share (``[[languages.<code>.homograph_owners]]``, issue 41r session 16) is the other verb's where
  the words around it settle it: Spanish clause-opening "Sé" before anything saber takes (a clause, an object, an
  infinitive) is ser's imperative ("Sé paciente"; RAE, *Nueva gramática*, § 42.2: saber's "sé" takes a complement),
  clause-opening "Ve" before a goal is ir's ("Ve a la farmacia"); Portuguese "sente" after its subject with no
  subjunctive trigger in the clause is sentir's indicative ("Ela sente falta"; sentar's "sente" is subjunctive or
  imperative: Cunha & Cintra, ch. 13); French clause-opening "Suis" is suivre's imperative (être's is "sois"), "suis" +
  a determiner + a noun one follows ("Je suis ce cours"), "vit" / "vis" before a place or a manner are suivre's and
  vivre's. Each entry lists the form, the other verb, and when it is the other verb's: ``initial`` (opens its clause,
  a word after it), ``after_subject`` (a word before it in its clause, none of ``not_after`` there), ``before`` (the
  next word or two), ``nouns`` (the next word, after at most one
  determiner or ``articles`` word), ``not_before`` (the next word or two, or
  an infinitive: then the form stays ambiguous and both verbs keep it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.conjugation import (
    first_singular,
    nonfinite_form,
    strong_participles,
    verb_lemma,
)
from fbagent.checks.morphology import _data
from fbagent.checks.verb_sentence import SentenceFacts
from fbagent.languages import base_lang


@dataclass(frozen=True)
class NounSlotWords:
    """One language's ``noun_slots`` table (see the module doc); every field empty where the language has none."""

    participle_endings: tuple[str, ...] = ()   # regular past participle endings with agreement ("ado", "ata", ...)
    participle_prepositions_verbal: frozenset[str] = frozenset()  # it "dopo": a participle after it is verbal
    infinitive_noun_after: frozenset[str] = frozenset()  # quantifiers: "todo", "ningún", "qualquer"
    participle_object_verbs: frozenset[str] = frozenset()  # lemmas that take no participle: hacer, fazer, fare
    pronoun_homographs: frozenset[str] = frozenset()  # "consigo"
    pronoun_followers: frozenset[str] = frozenset()   # "mismo", "próprio": words after the pronoun
    a_infinitive_verbs: frozenset[str] = frozenset()  # pt lemmas of the aspectual verbs taking "a" + infinitive
    infinitive_preposition: str = ""                  # pt "a"
    que_drop_verbs: frozenset[str] = frozenset()      # it credere, sperare; es rogar: a finite verb may follow bare
    pronoun_not_after: frozenset[str] = frozenset()   # adverbs after which "consigo" is the verb ("Ahora sí consigo")
    infinitive_nouns: frozenset[str] = frozenset()    # lexicalised infinitive nouns: dever, piacere, placer
    adverb_adjectives: frozenset[str] = frozenset()   # prenominal words that are adverbs before a verb: mejor, meglio


@lru_cache(maxsize=64)
def noun_slot_words(lang: str) -> NounSlotWords:
    """The ``[languages.<code>.noun_slots]`` table of ``prompts/verbs/morphology.toml`` for ``lang``'s base language
    (an empty :class:`NounSlotWords` where there is none)."""
    entry = _data().get("languages", {}).get(base_lang(lang), {}).get("noun_slots", {})

    def words(key: str) -> frozenset[str]:
        return frozenset(str(x).lower() for x in entry.get(key, []))

    return NounSlotWords(
        participle_endings=tuple(str(x) for x in entry.get("participle_endings", [])),
        participle_prepositions_verbal=words("participle_prepositions_verbal"),
        infinitive_noun_after=words("infinitive_noun_after"),
        participle_object_verbs=words("participle_object_verbs"),
        pronoun_homographs=words("pronoun_homographs"),
        pronoun_followers=words("pronoun_followers"),
        a_infinitive_verbs=words("a_infinitive_verbs"),
        infinitive_preposition=str(entry.get("infinitive_preposition", "")),
        que_drop_verbs=words("que_drop_verbs"), pronoun_not_after=words("pronoun_not_after"),
        infinitive_nouns=words("infinitive_nouns"), adverb_adjectives=words("adverb_adjectives"),
    )


@dataclass(frozen=True)
class HomographOwner:
    """One ``homograph_owners`` entry (see the module doc): ``form`` is ``verb``'s where the conditions hold."""

    form: str
    verb: str
    initial: bool = False
    after_subject: bool = False
    before: frozenset[str] = frozenset()
    nouns: frozenset[str] = frozenset()
    not_before: frozenset[str] = frozenset()
    not_after: frozenset[str] = frozenset()
    articles: frozenset[str] = frozenset()   # words that may stand before ``nouns`` besides the ``determiners``


@lru_cache(maxsize=64)
def homograph_owners(lang: str) -> dict[str, tuple[HomographOwner, ...]]:
    """The ``[[languages.<code>.homograph_owners]]`` entries of ``prompts/verbs/morphology.toml`` for ``lang``'s base
    language by form (lower case); empty where there are none."""
    out: dict[str, list[HomographOwner]] = {}
    for entry in _data().get("languages", {}).get(base_lang(lang), {}).get("homograph_owners", []):
        def words(key: str, e: dict[str, object] = entry) -> frozenset[str]:
            value = e.get(key, [])
            return frozenset(str(x).lower() for x in value) if isinstance(value, list) else frozenset()
        form = str(entry["form"]).lower()
        out.setdefault(form, []).append(HomographOwner(
            form=form, verb=str(entry["verb"]), initial=bool(entry.get("initial", False)),
            after_subject=bool(entry.get("after_subject", False)), before=words("before"), nouns=words("nouns"),
            not_before=words("not_before"), not_after=words("not_after"),
            articles=words("articles")))
    return {k: tuple(v) for k, v in out.items()}


@dataclass
class RomanceSlotRules(SentenceFacts):
    """The noun-slot rules of the module doc over one sentence."""

    @property
    def noun_slots(self) -> NounSlotWords:
        return noun_slot_words(self.code)

    def _rom_same(self, j: int, i: int) -> bool:
        return 0 <= j < len(self.tokens) and self.clause[j] == self.clause[i]

    def romance_refusal(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a spelling match of ``lemma``, is a noun or pronoun here by the rules of the module doc;
        None otherwise, where an analyser reads the sentence, or where the language has no ``noun_slots`` table."""
        owner = self.homograph_owner(i)
        if owner is not None and owner != verb_lemma(lemma.lower(), self.code):   # sentarse: sentar
            return f"is read as a form of '{owner}' here (by the words around it)"
        s = self.noun_slots
        if self.readings is not None or not (s.participle_endings or s.pronoun_homographs):
            return None
        text = self.tokens[i].text
        prev = self.tokens[i - 1].text if self._rom_same(i - 1, i) else None
        if prev is not None and self.past_participle(text, lemma):
            if (prev in self.m.prepositions or prev in self.m.no_finite_after) \
                    and prev not in s.participle_prepositions_verbal:
                return f"is a participle right after the preposition '{prev}' and is read as a noun or adjective"
            if self.lemmas[i - 1] & s.participle_object_verbs and prev not in self.m.perfect_auxiliaries:
                return f"is a participle right after '{prev}', a verb that takes no participle, and is read as its object"
            if prev in self.m.clitic_articles:
                return f"is a participle right after '{prev}' (an object pronoun would need an auxiliary between) " \
                       f"and is read as its article's noun"
        if prev is not None and prev in s.infinitive_noun_after and text == lemma.lower() \
                and text.endswith(self.m.infinitive_endings or ("\0",)):
            return f"is the infinitive after the quantifier '{prev}' and is read as a noun"
        return self._pronoun_homograph(i) or self._nominal_infinitive(i, lemma) or self._after_finite(i, lemma)

    def _nominal_infinitive(self, i: int, lemma: str) -> str | None:
        """Why the infinitive token ``i`` is a noun: after an adjective (``m.prenominal``, not an
        ``adverb_adjectives`` word) that follows a preposition or a determiner ("con grande piacere", "por mero
        placer": an adjective modifies a noun), or, for an ``infinitive_nouns`` word, right after a copula with a
        preposition after it ("É dever de todos", "È dovere di tutti"); None otherwise."""
        s, m, toks, text = self.noun_slots, self.m, self.tokens, self.tokens[i].text
        if text != lemma.lower() or not text.endswith(m.infinitive_endings or ("\0",)) or not self._rom_same(i - 1, i):
            return None
        prev = toks[i - 1].text
        if prev in m.prenominal and prev not in s.adverb_adjectives and self._rom_same(i - 2, i) \
                and (toks[i - 2].text in m.prepositions or toks[i - 2].text in m.no_finite_after):
            return f"follows the adjective '{prev}' after '{toks[i - 2].text}' and is read as a noun"
        if text in s.infinitive_nouns and prev in m.copulas and self._rom_same(i + 1, i) \
                and toks[i + 1].text in m.prepositions | m.no_finite_after:
            return f"follows the copula '{prev}' before '{toks[i + 1].text}' and is read as a noun"
        return None

    def homograph_owner(self, i: int) -> str | None:
        """The verb whose form token ``i`` is by the first ``homograph_owners`` entry of its spelling whose conditions
        hold (see the module doc): "ser" for "Sé paciente", "sentir" for "Ela sente falta"; None where none holds."""
        entries = homograph_owners(self.code).get(self.tokens[i].text)
        if not entries:
            return None
        toks = self.tokens
        before = [toks[j].text for j in range(i) if self._rom_same(j, i)]
        after = [toks[j].text for j in range(i + 1, min(i + 3, len(toks))) if self._rom_same(j, i)]
        nexts = {" ".join(after[:1]), " ".join(after[:2])} - {""}
        infinitive = bool(after) and after[0] in self.lemmas[i + 1] \
            and after[0].endswith(self.m.infinitive_endings or ("\0",))
        for e in entries:
            if (e.initial and (before or not after)) or (e.after_subject and (not before or e.not_after & set(before))):
                continue
            if nexts & e.not_before or (e.not_before and infinitive):
                continue
            det = bool(after) and (after[0] in self.m.determiners or after[0] in self.m.clitic_articles
                                   or after[0] in e.articles)
            noun = after[1] if det and len(after) > 1 else (after[0] if after else None)
            if (e.before or e.nouns) and not (nexts & e.before or noun in e.nouns):
                continue
            return e.verb
        return None

    def _after_finite(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a finite-looking form of ``lemma``, is no verb right after another verb's finite form
        (:meth:`SentenceFacts.finite_other`: a dictionary verb form, not a name) in one clause: a clause has one finite
        verb, and two do not stand side by side without a link word, so the second is its object noun, an adjective
        or a function word ("Ha comprado pesca", "El gato duerme bajo la mesa"). Not after a word that itself follows
        a determiner or an article-clitic (a noun subject: "El vino llega tarde"), nor where that word is a form of
        ``lemma`` too. A capitalised first word counts as a verb before a 1st person singular, which no name takes as
        its verb ("Busco trabajo")."""
        toks, m, k = self.tokens, self.m, i - 1
        if not self.noun_slots.participle_endings or not self._rom_same(k, i) or nonfinite_form(toks[i].text, lemma,
                                                                                                 self.code):
            return None
        prev = toks[k].text
        if prev in m.verb_context or prev in m.light_adverbs or prev in m.clitic_articles or prev in m.copulas \
                or prev.endswith(m.nonfinite_endings or ("\0",)) or lemma in self.lemmas[k] \
                or self.lemmas[k] & self.noun_slots.que_drop_verbs:
            return None   # "Credo sia vero", "Le ruego envíe": the complement clause's verb without che / que
        if self._rom_same(k - 1, k) and (toks[k - 1].text in m.determiners or toks[k - 1].text in m.clitic_articles):
            return None
        if not self.finite_other(k) and not (k == 0 and self._dictionary_verb(k)
                                             and first_singular(toks[i].text, lemma, self.code)):
            return None   # a capitalised first word may be a name, but no name is the subject of a 1st person: "Busco trabajo"
        return f"follows the finite verb '{prev}' (no two finite verbs stand side by side in a clause) and is read " \
               f"as its object or a function word"

    def past_participle(self, text: str, lemma: str) -> bool:
        """Whether ``text`` (a spelling match of ``lemma``) ends as a past participle does (``participle_endings``)
        or is one of the lemma's strong participles (:func:`fbagent.checks.conjugation.strong_participles`); the
        infinitive and the gerund are not, nor a form with attached clitics."""
        if text == lemma or text.endswith("ndo"):
            return False
        return text.endswith(self.noun_slots.participle_endings) or text in strong_participles(lemma, self.code)

    def _pronoun_homograph(self, i: int) -> str | None:
        s, toks = self.noun_slots, self.tokens
        text = toks[i].text
        if text not in s.pronoun_homographs or not self._rom_same(i - 1, i) or toks[i - 1].text in self.m.verb_context:
            return None
        if toks[i - 1].text in s.pronoun_not_after or toks[i - 1].text.endswith("mente"):
            return None   # "Ahora sí consigo.", "Hoje finalmente consigo.": an adverb, not the verb or noun the pronoun follows
        if self._rom_same(i + 1, i):
            nxt = toks[i + 1].text
            if nxt not in s.pronoun_followers and nxt not in self.m.prepositions:
                return None
        return "follows a word that is no subject and has no object or infinitive after it: the pronoun"

    def determiner_before(self, i: int) -> str | None:
        """:meth:`SentenceFacts.determiner_before`, except for the Portuguese aspectual "a" + infinitive (see the
        module doc), where "a" is the preposition: None there."""
        if self._aspectual_infinitive(i):
            return None
        return super().determiner_before(i)

    def _aspectual_infinitive(self, i: int) -> bool:
        """Whether token ``i`` is an infinitive right after the ``infinitive_preposition`` and a form of an
        ``a_infinitive_verbs`` verb stands before that, at most two words between ("Estávamos todos a jantar")."""
        s, toks = self.noun_slots, self.tokens
        if not s.infinitive_preposition or i < 2 or toks[i - 1].text != s.infinitive_preposition \
                or not self._rom_same(i - 2, i) or not toks[i].text.endswith(self.m.infinitive_endings or ("\0",)):
            return False
        return any(self._rom_same(j, i) and self.lemmas[j] & s.a_infinitive_verbs for j in range(i - 2, i - 5, -1))
