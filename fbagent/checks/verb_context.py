"""The verb check's rules of context (:mod:`fbagent.checks.verb_match`): when a spelling match of the target
lemma is no use of the verb where it stands.

:class:`SentenceContext` adds to :class:`fbagent.checks.verb_sentence.SentenceFacts` the questions that need the
target lemma: is the token another verb's form here (the analyser's lemma in context outranks a form generated
from the target's paradigm; a form two verbs share, decided by its neighbours; an English base form that a
subject, an auxiliary or a word of past time makes another verb's past), an adjective after a degree adverb or
after be/have/get, or, where a language has no tagger, a noun or adjective by the closed-class words around it
(:meth:`SentenceContext.finite_blocker`). :meth:`SentenceContext.word_method` combines them into the one answer
the matchers use.
"""

from __future__ import annotations

from dataclasses import dataclass

from fbagent.checks.conjugation import (
    first_singular,
    nonfinite_form,
    paradigm,
    shared_form_owner,
    verb_lemma,
)
from fbagent.checks.conjugation_tr import tr_bare_aorist
from fbagent.checks.morphology import morphology
from fbagent.checks.paradigms import english_participles, past_participles
from fbagent.checks.verb_closed_class import ClosedClassRules
from fbagent.checks.verb_homographs import HomographSlots
from fbagent.checks.verb_sentence import sentence_analysis
from fbagent.checks.verb_tokens import MatchConfig
from fbagent.languages import base_lang

#: English adverbs that may stand between an auxiliary and what follows it ("is still warm", "was not open")
_BETWEEN_AUXILIARY_EN = frozenset({"not", "never", "still", "already", "always", "also", "just", "now", "all", "t"})


@dataclass
class SentenceContext(ClosedClassRules, HomographSlots):
    """A sentence being searched for one target lemma's forms (:class:`SentenceFacts` plus the rules of context, the
    slot rules of :mod:`fbagent.checks.verb_slots` and the closed-class rules of
    :mod:`fbagent.checks.verb_closed_class`)."""

    def word_method(self, text: str, lemma: str, i: int | None, *, stem: bool = True) -> str | None:
        """How ``text`` (token ``i``, or a piece of a word when None) is a form of the one-word ``lemma``,
        given the token's part of speech (see the module doc)."""
        method = self._spelling_method(text, lemma, i, stem=stem)
        if method is None and i is not None and self.config.pos and self.fused_form(text, lemma):
            return "contraction"   # "Wanna come with us?": want to (verb_slots_en)
        if method is None and i is not None and self.config.pos and self.homograph_owner(i) == verb_lemma(lemma, self.code) \
                and text in paradigm(lemma, self.code):
            method = "conjugation"   # "Me siento en la fila": sentar's, though the dictionary gives siento to sentir
        if method is None and i is not None and self.config.pos and self.contracted_be(i, lemma):
            return "contraction"   # "It's freezing", "They're late" (verb_slots)
        if i is not None and self.config.pos and (participle := self.participle_method(i, lemma)):
            return participle   # "die spielenden Kinder", "en courant" (verb_slots)
        if method is None and i is not None and self.config.pos and self.irregular_present(text, lemma):
            method = "inflection"   # French "tu bois", "il part" (verb_slots)
        if method is None and i is not None and self.config.pos and lemma in self.subclause_verb_lemmas(i):
            method = "lemma"   # Dutch verb-final subordinate clause: "omdat ze geen antwoord gaven" (verb_slots, issue 40)
        if method is None and i is not None and self.config.pos and self.enclitic_du(i, lemma):
            return "lemma"   # German "Haste mal 'nen Euro?": hast + du (verb_slots_v2)
        if method is None or i is None or not self.config.pos:
            return method
        verb = self.verb_reading(i)
        if verb is False and self.determiner_before(i) is None and self._noun_or_unread(i) \
                and (self.imperative(i) or (method == "exact" and self.final_infinitive(i))):
            verb = True
        if verb is not True and (self.verb_slot(i, lemma, method) or self.past_after_subject(i, lemma)):
            verb = True   # past_after_subject: "The swimmers dove into the pool" (verb_homographs)
        if self.slot_refusal(i, lemma, method) is not None:
            return None
        mine = self.first_person_owner(i) == lemma   # "Ik was mijn handen": wassen, whatever the analyser's lemma
        mine = mine or self.homograph_owner(i) == verb_lemma(lemma, self.code)   # "Suis-moi", "Je suis ce cours": suivre (verb_slots_romance)
        if verb is False or (self.other_verb(i, lemma, method) is not None and not mine) \
                or self.hyphen_compound(i) is not None \
                or self.function_word(i, lemma) or self.shared_owner(i, lemma) is not None \
                or (self.m.tables and self.finite_blocker(i, lemma) is not None) \
                or self.closed_class_refusal(i, lemma) is not None \
                or self.degree_modified(i) is not None \
                or self.past_of_other(i, lemma, method) is not None or self.base_after_auxiliary(i, lemma, method) \
                or self.homograph_refusal(i, lemma) is not None:
            return None
        if method in ("inflection", "stem") and verb is not True and not (method == "inflection" and self.known[i]):
            return None  # a generated form the analyser does not read as a verb and no lexicon knows
        return method

    def finite_blocker(self, i: int, lemma: str) -> str | None:
        """Why token ``i``, a form of ``lemma``, is no finite verb where it stands, for a language without a
        tagger (each rule runs only where the language has its data): right after a ``no_finite_after`` word
        (a preposition: "in porto", "med låg röst"; where ``verb_second``, the infinitive
        too: "utom fara", a preposition takes "att" before a verb), a ``degree_adverbs`` word ("muy corto", "mycket känd"; a
        participle after the adverb is a verb after a ``perfect_auxiliaries`` word: "ho molto apprezzato"), a
        ``modifier_suffixes`` word, an ``attributive`` adjective (Swedish "stark vilja", "små fiskar") or a
        ``prenominal`` adjective where ``prenominal_alone`` (Turkish "sevdiğim
        yazar", "kırmızı gül"; not a reduplicated one, which is an adverb of manner: "küçük küçük doğrayın",
        Göksel & Kerslake, *Turkish: A Comprehensive Grammar*, 16.5); a finite-looking form after a ``copulas`` word with only ``light_adverbs``
        between ("está libre", "è già sveglio"; a participle or gerund there is a verb: "foi construída");
        a form other than the infinitive that opens its clause right before another verb's finite form where
        ``verb_second`` (Swedish "Var ligger apoteket?": the clause has one finite verb, in second place; a next
        word with a noun ending, "resan", "blommor", is no verb: :meth:`_noun_form`); a
        ``function_after`` word after one of its listed words (Italian "tre anni fa": ago); a regular 1st person
        singular right after a determiner and a noun ("el pelo corto", "o senhor cego": no 1st person follows
        a noun phrase without a pronoun between); a finite form right after a ``perfect_auxiliaries`` word and
        a participle ("ho comprato sei uova", "har plockat bär": the perfect's object);
        with ``clause_links``, a finite-looking form in a clause that has another verb's finite form and no
        link word between (Latvian "Mēs meklējām pareizo ceļu"); any form inside a ``function_phrases`` phrase
        ("a pesar de", "visto che", "ara sıra"). Returns the note's reason or None."""
        m, toks, clause = self.m, self.tokens, self.clause
        if self.readings is not None:
            return None
        text = toks[i].text
        nonfinite = nonfinite_form(text, lemma, self.code)
        prev = toks[i - 1].text if i > 0 and clause[i - 1] == clause[i] else None
        if m.function_phrases and (phrase := self.function_phrase(i)) is not None:
            return f"stands inside the fixed phrase '{phrase}' and is read as part of a function word"
        if prev is not None and prev in m.no_finite_after and (not nonfinite or m.verb_second and text == lemma):
            return f"follows the preposition '{prev}' and is read as a noun"
        if prev is not None and prev in m.degree_adverbs and (not nonfinite or i < 2 or clause[i - 2] != clause[i]
                                                              or toks[i - 2].text not in m.perfect_auxiliaries):
            return f"follows the degree adverb '{prev}' and is read as an adjective"
        if prev is not None and (m.prenominal_alone and prev in m.prenominal or prev in m.attributive
                                 or m.modifier_suffixes and prev.endswith(m.modifier_suffixes)) \
                and not (m.prenominal_alone and i >= 2 and clause[i - 2] == clause[i] and toks[i - 2].text == prev):
            return f"follows the modifier '{prev}' and is read as a noun"
        if m.bare_stem_links and (why := self._bare_stem(i, lemma)) is not None:
            return why
        if m.verb_second and (i == 0 or clause[i - 1] != clause[i]) and i + 1 < len(toks) and text != lemma \
                and clause[i + 1] == clause[i] and self._dictionary_finite(i + 1) and not self._noun_form(i + 1) \
                and not self._fronted_participle(i):
            return f"opens its clause before the verb '{toks[i + 1].text}' (verb second) and is read as another word"
        if m.verb_second and (why := self._swedish_order(i, lemma, nonfinite)) is not None:
            return why
        if m.clause_links and nonfinite and (why := self._latvian_noun(i, nonfinite)) is not None:
            return why
        if nonfinite:
            return None
        if i >= 2 and m.infinitive_endings and clause[i - 2] == clause[i] and toks[i - 2].text in m.perfect_auxiliaries \
                and prev is not None and prev.endswith(m.nonfinite_endings) and prev not in m.perfect_auxiliaries:
            return f"follows the perfect '{toks[i - 2].text} {prev}' and is read as its object"
        if prev is not None and any(text == word and prev in before for word, before in m.function_after):
            return f"follows '{prev}' and is read as a function word"
        if self._object_noun_phrase(i) and first_singular(text, lemma, self.code):
            return f"follows the noun phrase '{toks[i - 2].text} {prev}' and is read as an adjective"
        j = i - 1
        while j >= 0 and clause[j] == clause[i] and toks[j].text in m.light_adverbs and j > i - 3:
            j -= 1
        if j >= 0 and clause[j] == clause[i] and toks[j].text in m.copulas:
            return f"follows the copula '{toks[j].text}' and is read as an adjective"
        if m.clause_links:
            return self._other_finite(i, verb_lemma(lemma, self.code)) or self._latvian_noun(i, nonfinite)
        return None

    def _fronted_participle(self, i: int) -> bool:
        """Whether token ``i`` is a present participle (-ande, -ende) fronted before a finite verb and an
        ``inverted_subjects`` pronoun: an adverbial in first place ("Gråtande sprang hon ut"), not a noun
        ("Leende är viktigt")."""
        toks = self.tokens
        return bool(self.m.inverted_subjects) and toks[i].text.endswith(("ande", "ende")) and i + 2 < len(toks) \
            and self.clause[i + 2] == self.clause[i] and toks[i + 2].text in self.m.inverted_subjects

    def _swedish_order(self, i: int, lemma: str, nonfinite: bool) -> str | None:
        """Verb-second word order (``verb_second``): why token ``i``, a form of ``lemma``, is no verb here. The
        infinitive right after a ``perfect_auxiliaries`` word (only ``light_adverbs`` between) would be the
        supine there ("har bara få gäster": the quantifier, "har fått" is the verb); a finite form right after
        another verb's finite form is a second finite verb in one clause, which verb-second order does not
        allow: it is that verb's object ("Vi plockade bär": berries; the clause's first word may be a question word
        spelled as a verb: "Var bor du?"), except the s-passive infinitive after a ``fronting_verbs`` modal or
        auxiliary ("Hyran ska betalas", "Det kan ses"). None otherwise."""
        toks, clause, m = self.tokens, self.clause, self.m
        text = toks[i].text
        j = i - 1
        while j >= 0 and clause[j] == clause[i] and toks[j].text in m.light_adverbs and j > i - 3:
            j -= 1
        if j < 0 or clause[j] != clause[i]:
            return None
        if text == lemma and toks[j].text in m.perfect_auxiliaries:
            return f"follows '{toks[j].text}', after which the verb would be its supine, and is read as another word"
        passive_infinitive = text == f"{lemma}s" and toks[j].text in m.fronting_verbs  # "ska betalas", "kan ses"
        if not nonfinite and not passive_infinitive and j == i - 1 and j > 0 and clause[j - 1] == clause[j] \
                and toks[j].text not in m.copulas and toks[j].text not in m.verb_context \
                and lemma not in self.lemmas[j] and self._dictionary_finite(j) and not self._noun_form(j):
            return f"follows the finite verb '{toks[j].text}' (one finite verb a clause) and is read as a noun"
        return None

    def _latvian_noun(self, i: int, nonfinite: bool) -> str | None:
        """Free word order with one finite verb a clause (``clause_links``): why token ``i`` is a noun or adjective
        here. A finite-looking form right before a ``copulas`` word is its subject ("Ceļa mala bija slidena",
        "mazā sēta ir"); one after a preposition and a word ending as a modifier does (``modifier_endings``) is
        the preposition's noun ("uz mazu salu"; a passive participle too, ``passive_endings``: "uz vecās sētas"); a
        participle after a copula and a ``participle_degree`` adverb is an adjective ("ir ļoti izglītots"); an -u
        form after a ``genitive_quantifiers`` word is its genitive plural ("daudz ceļu"; not with "es" in the
        clause: "es daudz strādāju"); then :meth:`_genitive_head`. None otherwise."""
        toks, clause, m = self.tokens, self.clause, self.m
        text = toks[i].text
        if i > 0 and clause[i - 1] == clause[i] and toks[i - 1].text in m.genitive_quantifiers \
                and text.endswith("u") and not any(toks[k].text == "es" and clause[k] == clause[i] for k in range(len(toks))):
            return f"follows the quantifier '{toks[i - 1].text}' and is read as its genitive plural noun"
        passive = nonfinite and text.endswith(m.passive_endings or ("\0",))
        if nonfinite and i >= 2 and clause[i - 2] == clause[i] and toks[i - 1].text in m.participle_degree \
                and toks[i - 2].text in m.copulas:
            return f"follows '{toks[i - 2].text} {toks[i - 1].text}' and is read as an adjective"
        if nonfinite and not passive:
            return None
        if not passive and i > 0 and i + 1 < len(toks) and clause[i + 1] == clause[i] and clause[i - 1] == clause[i] \
                and toks[i + 1].text in m.copulas:
            return f"stands right before the copula '{toks[i + 1].text}' and is read as its subject noun"
        if i >= 2 and clause[i - 2] == clause[i] and toks[i - 2].text in m.no_finite_after \
                and toks[i - 1].text.endswith(m.modifier_endings) and not self._dictionary_verb(i - 1):
            return f"follows the preposition '{toks[i - 2].text}' and a modifier and is read as a noun"
        return self._genitive_head(i)

    def _genitive_head(self, i: int) -> str | None:
        """Latvian: why token ``i`` is the head noun of a noun phrase whose modifier stands right before it, a
        declined word (its dictionary lemma is a noun or adjective, not the word itself nor an infinitive) ending as
        a genitive or an agreeing adjective does (``genitive_endings``: "Pavasara sēja", "Lauku sēta", "rīta sēdi",
        "ļoti stipra griba"), not after a preposition (that phrase ends there: "pēc darba strādāju"), in a clause
        with another verb's finite form (:meth:`_dictionary_finite`; no ``clause_links`` word between): with one
        finite verb a clause, the word after a modifier is its noun ("Es grāmatu lasu": the only verb is the
        target's). None otherwise."""
        toks, clause, m = self.tokens, self.clause, self.m
        if not m.genitive_endings or i == 0 or clause[i - 1] != clause[i]:
            return None
        prev = toks[i - 1].text
        if not prev.endswith(m.genitive_endings) or prev in m.determiners or prev in m.verb_context \
                or self._dictionary_verb(i - 1) or (i >= 2 and clause[i - 2] == clause[i] and toks[i - 2].text in m.no_finite_after):
            return None
        if not any(x != prev and not x.endswith(m.infinitive_endings) for x in self.lemmas[i - 1]):
            return None
        target = toks[i].text
        for side in (range(i - 2, -1, -1), range(i + 1, len(toks))):
            for k in side:
                if clause[k] != clause[i] or toks[k].text in m.clause_links:
                    break
                if toks[k].text != target and (toks[k].text in m.copulas or self._dictionary_finite(k)):
                    return f"follows the modifier '{prev}' and is read as its noun (the clause's verb is '{toks[k].text}')"
        return None

    def finite_verb_between(self, start: int, j: int) -> bool:
        """:meth:`SentenceFacts.finite_verb_between`; where the language has no tagger and ``verb_second`` word
        order, a dictionary finite verb between (:meth:`_dictionary_finite`, no noun ending): "gav henne en bok
        och gick upp" is not "ge upp"."""
        if self.readings is None and self.config.pos and self.m.verb_second:
            return any(self._dictionary_finite(k) and not self._noun_form(k) for k in range(start + 1, j))
        return super().finite_verb_between(start, j)

    def _bare_stem(self, i: int, lemma: str) -> str | None:
        """Turkish: why token ``i``, a form of ``lemma``, is a noun or adjective: before a ``nominal_postpositions``
        word ("gelecek hakkında"); a bare aorist inside its clause (:meth:`_aorist_inside`). The bare stem of ``lemma`` (``kuru`` of kurumak), is no imperative here: it
        follows a ``bare_stem_modifiers`` word (a degree adverb or demonstrative: "çok dik", "bu yaz"), or stands
        inside its clause (not last, nor before a ``bare_stem_links`` word) after its first word: the verb-final
        imperative ends its clause ("Kutuyu çöpe at."), a noun or adjective does not ("hava çok kuru geçti",
        "çek olarak aldım"). None where it may be the imperative."""
        m, toks, clause = self.m, self.tokens, self.clause
        if i + 1 < len(toks) and clause[i + 1] == clause[i] and toks[i + 1].text in m.nominal_postpositions:
            return f"stands before the postposition '{toks[i + 1].text}' and is read as its noun"
        if tr_bare_aorist(toks[i].text, lemma):
            return self._aorist_inside(i)
        if not lemma.endswith(("mak", "mek")) or toks[i].text != lemma[:-3]:
            return None
        if i > 0 and clause[i - 1] == clause[i] and toks[i - 1].text in m.bare_stem_modifiers:
            return f"follows '{toks[i - 1].text}' and is read as a noun or adjective (a bare stem)"
        if i == 0 or i + 1 >= len(toks) or clause[i + 1] != clause[i] or toks[i + 1].text in m.bare_stem_links:
            return None
        return "stands inside its clause and is read as a noun or adjective (a bare imperative ends its clause)"

    def _aorist_inside(self, i: int) -> str | None:
        """Turkish: why token ``i``, a bare aorist (:func:`tr_bare_aorist`), is a noun or adjective here: it stands
        inside its clause, not before a ``bare_stem_links`` word, a question particle (mı, mi, mu, mü ...) or a
        negative aorist (-mAz: "gelir gelmez"). The finite verb ends its clause ("Her gün kitap okur."); a
        word spelled so before others is the noun ("Gelir vergisi", "Yazar kitabını imzaladı"). None otherwise."""
        toks, clause = self.tokens, self.clause
        if i + 1 >= len(toks) or clause[i + 1] != clause[i]:
            return None
        nxt = toks[i + 1].text
        if nxt in self.m.bare_stem_links or nxt.startswith(("mı", "mi", "mu", "mü")) or nxt.endswith(("maz", "mez")):
            return None
        return "stands inside its clause and is read as a noun or adjective (a finite aorist ends its clause)"

    def _dictionary_finite(self, k: int) -> bool:
        """:meth:`_dictionary_verb` or a ``finite_endings`` word the dictionary does not know (Latvian past
        "-āja", "-ēju": "uzbūvēja"; a known word such as "skolotāja" is a noun), and the word does not end as a
        non-finite form does, unless it is a dictionary verb form with a ``finite_endings`` ending too (Swedish
        "hittade": a past, though "-ade" is also a plural participle)."""
        text, m = self.tokens[k].text, self.m
        if m.nonfinite_endings and text.endswith(m.nonfinite_endings) \
                and not (m.finite_endings and text.endswith(m.finite_endings) and self._dictionary_verb(k)):
            return False
        return self._dictionary_verb(k) or bool(m.finite_endings and text.endswith(m.finite_endings)
                                                 and not self.known[k] and text not in m.determiners)

    def _noun_form(self, k: int) -> bool:
        """Whether token ``k`` ends as a noun form does (``noun_suffixes``: "resan", "blommor", "veckor"), where
        the dictionary's verb for it is no short verb (``infinitives``: "bor", "tror" are presents) and the
        ending is not also a present's ("-ar", "-er": "ligger", "hoppar")."""
        text, m = self.tokens[k].text, self.m
        suffixes = tuple(x for x in m.noun_suffixes if not x.endswith(("ar", "er")))
        return bool(suffixes) and text.endswith(suffixes) and not (self.lemmas[k] & m.infinitives)

    def _object_noun_phrase(self, i: int) -> bool:
        """Whether a determiner (or an article after a verb form or a preposition) and a noun stand right before
        token ``i`` inside its clause, after a word that is neither a preposition nor a ``verb_context`` word
        (a clause-initial "Cada día venzo", "por la tarde salgo", "yo este año viajo" are adverbials before a
        verb; "lleva el pelo corto", "ajuda o senhor cego" are not)."""
        m, toks, clause = self.m, self.tokens, self.clause
        if not (m.infinitive_endings and m.conjugation) or i < 3 or clause[i - 3] != clause[i]:
            return False
        det, noun, before = toks[i - 2].text, toks[i - 1].text, toks[i - 3].text
        if noun in m.determiners or noun in m.prepositions or before in m.prepositions or before in m.verb_context:
            return False
        return det in m.determiners or (det in m.clitic_articles and self.finite_other(i - 3))

    def _other_finite(self, i: int, lemma: str) -> str | None:
        """The note for a finite-looking token ``i`` that follows a word ending as a noun's modifier does
        (``modifier_endings``: an adjective or a genitive, itself no verb form) in a clause that already has
        another verb's finite form before it (:meth:`_dictionary_finite`) and no ``clause_links`` word
        between: "Mēs meklējām pareizo ceļu"; None otherwise."""
        m, toks, clause = self.m, self.tokens, self.clause
        if i == 0 or clause[i - 1] != clause[i] or not toks[i - 1].text.endswith(m.modifier_endings or ("\0",)) \
                or self._dictionary_verb(i - 1) or toks[i - 1].text in m.verb_context or toks[i - 1].text in m.light_adverbs:
            return None
        j = i - 1
        while j > 0 and i - j <= 2 and clause[j - 1] == clause[i] and (toks[j].text.endswith(m.modifier_endings)
                                                                      or toks[j].text.endswith(m.adjective_endings)):
            j -= 1
        # a determiner and modifiers before it, a finite verb after it: the noun of the subject ("Šī mazā sala ir")
        ahead = range(i + 1, len(toks)) if toks[j].text in m.determiners and j < i - 1 else range(0)
        for side in (range(i - 2, -1, -1), ahead):
            for k in side:
                if clause[k] != clause[i] or toks[k].text in m.clause_links:
                    break
                if lemma not in self.lemmas[k] and self._dictionary_finite(k):
                    return f"is read as a noun (its clause already has the verb '{toks[k].text}')"
        return None

    def shared_owner(self, i: int, lemma: str) -> str | None:
        """The other verb whose form token ``i`` is here, by the word before it and the next words
        (:func:`fbagent.checks.conjugation.shared_form_owner`: "fue a la farmacia", "se fue" are ir's); None otherwise."""
        if not self.m.shared_forms:
            return None
        toks, clause = self.tokens, self.clause
        nxt = toks[i + 1].text if i + 1 < len(toks) and clause[i + 1] == clause[i] else None
        if nxt is not None and i + 2 < len(toks) and clause[i + 2] == clause[i]:
            nxt += " " + toks[i + 2].text
        prev = toks[i - 1].text if i > 0 and clause[i - 1] == clause[i] else None
        owner = shared_form_owner(toks[i].text, lemma, self.code, nxt, prev)
        return owner

    def degree_modified(self, i: int) -> str | None:
        """The adverb of degree (``degree_adverbs``) right before token ``i`` in its clause when the analyser reads
        the token as an adjective, or as a non-finite verb form with no ``verbal_auxiliaries`` word (have, a
        modal, werden) earlier in the clause: "very tired", "so bored", "sehr verlegen", "war sehr überrascht",
        "heel verbaasd" are adjectives, not verb forms; "hat mich sehr überrascht" is the verb, and so is an infinitive
        where a ``participles`` table tells it from the participle (French: read as a verb whose lemma is the word
        itself, "aimeraient bien oublier"; Dutch "zeer ontspannen" is both). None otherwise."""
        if i == 0 or self.clause[i - 1] != self.clause[i] or self.tokens[i - 1].text not in self.m.degree_adverbs:
            return None
        reading = self.readings[i] if self.readings is not None else None
        if reading is None or not (reading.pos == "adjective" or (reading.verb and not reading.finite)):
            return None
        if reading.verb and reading.lemma == self.tokens[i].text and self.m.participles \
                and self.tokens[i].text not in past_participles(reading.lemma, self.code):
            return None   # the infinitive, never an adjective: "aimeraient bien oublier" (not "zeer ontspannen")
        j = i - 2   # "l'a vraiment fatigué", "a enfin bien dormi": the auxiliary's participle, whatever the tag
        while j >= 0 and self.clause[j] == self.clause[i] and (self.tokens[j].text in self.m.degree_adverbs or (
                (before := self.readings[j] if self.readings is not None else None) is not None and before.pos == "adverb")):
            j -= 1
        if j >= 0 and self.clause[j] == self.clause[i] and self.tokens[j].text in self.m.verbal_auxiliaries:
            return None
        if reading.verb and self.tokens[i - 1].text == self.m.infinitive_marker:
            return None   # "te schamen", "zu verlegen": the infinitive marker, not the degree adverb
        if reading.verb and any(self.tokens[j].text in self.m.verbal_auxiliaries and self.clause[j] == self.clause[i]
                                for j in range(i - 1)):
            return None
        return self.tokens[i - 1].text

    def base_after_auxiliary(self, i: int, lemma: str, method: str) -> str | None:
        """English: the ``participle_auxiliaries`` word (be, have, get) right before token ``i``, which is spelled
        as ``lemma`` itself (``method`` ``exact``), only adverbs (-ly, degree, "not", "still") between, where
        ``lemma``'s past participle is spelled otherwise: "The door was open", "The shop is close to the
        station" are adjectives ("was opened" would be the verb; "was cut" is). None otherwise."""
        m = self.m
        if method != "exact" or not m.participle_auxiliaries:
            return None
        j = i - 1
        while j >= 0 and self.clause[j] == self.clause[i] and (self.tokens[j].text in _BETWEEN_AUXILIARY_EN
                                                                or self.tokens[j].text in m.degree_adverbs
                                                                or self.tokens[j].text.endswith("ly")):
            j -= 1
        if j < 0 or self.clause[j] != self.clause[i] or self.tokens[j].text not in m.participle_auxiliaries:
            return None
        return None if lemma in english_participles(lemma) else self.tokens[j].text

    def past_of_other(self, i: int, lemma: str, method: str) -> tuple[str, str] | None:
        """English: token ``i`` is spelled as ``lemma`` itself (``method`` ``exact``), the analyser reads it as a
        form of another verb ("found" of find, "fell" of fall, "lay" of lie), and the words before it exclude the
        base form: a singular subject (``singular_subjects``, or a noun the analyser reads as singular: the
        present would end in -s, "she founds") or a perfect or passive auxiliary (``participle_auxiliaries``:
        the participle would be "founded"), with only adverbs between, or any subject with a word of past time
        in the clause (``past_time_words``: "I saw your brother yesterday"). Returns (other verb, the word that
        excludes the base form), else None."""
        m = self.m
        readings = self.readings
        reading = readings[i] if readings is not None else None
        if readings is None or method != "exact" or not (m.singular_subjects or m.participle_auxiliaries) \
                or reading is None or not reading.verb or not reading.lemma.isalpha() \
                or reading.lemma in (lemma, self.tokens[i].text):
            return None
        for j in range(i - 1, -1, -1):
            if self.clause[j] != self.clause[i]:
                return None
            before = readings[j]
            text = self.tokens[j].text
            if text in m.participle_auxiliaries or text in m.singular_subjects:
                return reading.lemma, text
            if before is not None and before.pos == "noun" and before.number == "sg" and reading.finite:
                return reading.lemma, text
            if reading.finite and (text in m.subject_pronouns or before is not None and before.pos == "noun"):
                past = next((t.text for t, c in zip(self.tokens, self.clause, strict=True)
                             if c == self.clause[i] and t.text in m.past_time_words), None)
                return (reading.lemma, past) if past is not None else None   # "I saw him yesterday"
            if before is None or before.pos != "adverb":
                return None
        return None

    def other_verb(self, i: int, lemma: str, method: str) -> str | None:
        """The other verb the analyser reads token ``i`` as, in context, where that outranks a spelling
        match of ``lemma`` (Dutch "was" of zijn, not of wassen; French "suis" of être, not of suivre): the
        token is a verb form the analyser lemmatises to a different verb, and only a form generated from
        ``lemma``'s paradigm (``method`` ``inflection`` or ``stem``) ties it to ``lemma``. None otherwise."""
        reading = self.readings[i] if self.readings is not None else None
        if reading is None or not reading.verb or not reading.lemma.isalpha():
            return None
        other = reading.lemma
        if other == lemma or other == self.tokens[i].text or other in self.lemmas_for_lemma(lemma):
            return None
        if method == "lemma" and reading.finite and self._prefixed_finite(self.tokens[i].text, lemma, other):
            return other
        return other if method in ("inflection", "stem") else None

    def _prefixed_finite(self, text: str, lemma: str, other: str) -> bool:
        """Whether finite ``text`` begins with an ``inseparable_prefixes`` prefix that ``lemma`` lacks and the
        analyser's verb ``other`` has: a participle is never finite, so "Wem gehört der Schirm?" is gehören,
        not a participle of hören."""
        return any(text.startswith(p) and other.startswith(p) and not lemma.startswith(p)
                   for p in self.m.inseparable_prefixes)


def sentence_context(sentence: str, lang: str, config: MatchConfig, declared: frozenset[str] = frozenset()
                     ) -> SentenceContext:
    """The :class:`SentenceContext` of ``sentence`` in ``lang`` under ``config`` (the analysis cached per sentence,
    base language and configuration); ``declared``: the words (lower case) the generator declared as the verb,
    for method 5."""
    code = base_lang(lang)
    tokens, clause, lemmas, known, tagged, has_lemmatizer = sentence_analysis(sentence, code, config)
    return SentenceContext(sentence, tokens, clause, lemmas, known, tagged, code, config, morphology(code), has_lemmatizer,
                           declared)
