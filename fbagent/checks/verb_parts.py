"""Matchers of the verb check over a :class:`fbagent.checks.verb_context.SentenceContext`: the parts of a
multi-word LU in order, separable verbs (particle far after the base, before it, glued to it), another
separable verb's particle, and reflexive pronouns (see :mod:`fbagent.checks.verb_match` for the rules).

A candidate is ``(head token, masked tokens, method)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from fbagent.checks.analysers import Reading
from fbagent.checks.lemmas import _simplemma_knows, _simplemma_word
from fbagent.checks.morphology import Morphology, morphology
from fbagent.checks.paradigms import separable_splits
from fbagent.checks.verb_context import SentenceContext
from fbagent.framenet.lu_names import LemmaPart, lemma_parts

Candidate = tuple[int, list[int], str]  # (head token, masked tokens, method)


def separable_candidates(ctx: SentenceContext, particle: str, base: str) -> list[Candidate]:
    m = ctx.m
    out: list[Candidate] = []
    marker = m.infinitive_marker
    for i, t in enumerate(ctx.tokens):
        if t.text.startswith(particle) and len(t.text) > len(particle):
            rest = t.text[len(particle):]
            rests = [rest] + ([rest[len(marker):]] if marker and rest.startswith(marker) else [])
            verb = ctx.verb_reading(i) if ctx.config.pos else None
            real = verb is True or ctx.known[i] or ctx.readings is None or not ctx.config.pos
            adjective = ctx.config.pos and ctx.degree_modified(i) is not None   # "war sehr aufgeregt"
            refused = ctx.config.pos and ctx.slot_refusal(i, particle + base, "separable") is not None   # "De deur is open"
            if verb is not False and real and not adjective and not refused \
                    and any(ctx.word_method(r, base, None, stem=False) for r in rests):
                out.append((i, [i], "separable:joined"))
                continue
        if not ctx.word_method(t.text, base, i, stem=False):
            continue
        j = _particle_after(ctx, i, particle, m.after_particle)
        if j is None:
            j = _particle_before(ctx, i, particle, m.cluster_words | {marker})
        if j is not None:
            out.append((i, [i, j], "separable"))
    return out


def _particle_after(ctx: SentenceContext, i: int, particle: str, after: frozenset[str]) -> int | None:
    """The separated particle later in token ``i``'s clause ("Hij vat het verhaal samen."): clause-final,
    before a word of ``after``, or read as a particle by the analyser; an occurrence that is none of these
    (a preposition: "op de krant") is passed over. With an analyser the clause ends at a conjunction or
    relative pronoun followed by a finite verb; without one the particle must be within the window."""
    toks = ctx.tokens
    readings = ctx.readings if ctx.readings is not None and ctx.config.pos else None
    tagged = readings is not None
    opened = False  # a conjunction or relative pronoun since token i: its finite verb starts another clause
    for j in range(i + 1, len(toks)):
        if ctx.clause[j] != ctx.clause[i] or (not tagged and j - i > ctx.window):
            return None
        r = readings[j] if readings is not None else None
        if r is not None and r.pos == "conjunction":
            opened = True
        elif r is not None and opened and r.verb and r.finite:
            return None
        if toks[j].text == particle and _is_particle(ctx, j, after, r):
            return j
    return None


#: parts of speech a separated particle never has: "Er nahm ein Stück", "over de weg", "ging weg" (a verb)
_NEVER_PARTICLE = frozenset({"determiner", "noun", "verb", "conjunction"})


def _is_particle(ctx: SentenceContext, j: int, after: frozenset[str], r: Reading | None) -> bool:
    """Whether token ``j``, spelled like a particle, is the separated particle (see :func:`_particle_after`).

    With an analyser: at the clause end any word but a conjunction or the noun of a noun phrase
    ("over de weg"); before it never an article, noun, verb or conjunction ("Er nahm ein Stück"),
    an adverb or adjective neither ("spielt wieder Fußball", "dat de deur open was"), a particle by
    part of speech always, another word before a word of ``after`` or before an adposition ("belde
    haar op vanuit Parijs"). Without one: the clause end or before a word of ``after``."""
    toks = ctx.tokens
    last = j + 1 >= len(toks) or ctx.clause[j + 1] != ctx.clause[j] or _run_in(ctx, j + 1)
    if j > 0 and toks[j - 1].text in ctx.m.degree_adverbs and ctx.clause[j - 1] == ctx.clause[j] \
            and r is not None and r.pos in ("adjective", "adverb") and toks[j].text not in ctx.m.ungradable_particles \
            and toks[j - 1].text not in ctx.m.quantity_adverbs:
        return False  # "sprang so hoch", "schreien viel zu laut": an adverb of degree modifies an adjective, never a particle
    nxt = ctx.readings[j + 1] if ctx.readings is not None and not last else None
    if toks[j].text in ctx.m.degree_adverbs and nxt is not None and (nxt.pos in ("adjective", "adverb")
                                                                     or toks[j + 1].text in ctx.m.degree_adverbs):
        return False  # "hängt zu tief", "arbeitet zu viel": "zu" is the adverb of degree of the word after it
    if not last and toks[j].text == ctx.slots.complementizer and toks[j + 1].text == ctx.m.infinitive_marker:
        return False  # "komen ... om te beginnen", "kam, um zu helfen": the infinitive clause's complementiser
    nxt_reading = ctx.readings[j + 1] if ctx.readings is not None and not last else None
    if toks[j].text == ctx.m.infinitive_marker and ctx.slots.complementizer and nxt_reading is not None and nxt_reading.verb:
        return False  # "fährt nach Berlin, um zu arbeiten": "zu" before a verb is the infinitive marker
    if r is None:
        return last or toks[j + 1].text in after
    if r.pos == "noun" and toks[j].text in ctx.m.ungradable_particles and not _noun_phrase_before(ctx, j):
        nxt = nxt_reading   # "neemt deel aan", "Neemt u gerust plaats,": a noun particle
        return last or toks[j + 1].text in after or (nxt is not None and nxt.pos == "adposition")
    if last:  # no article or verb ends a clause after its verb: HanTa, seeing no final punctuation, may say so
        before = ctx.readings[j - 1] if ctx.readings is not None and j > 0 else None
        noun_phrase = r.pos == "noun" and (ctx.determiner_before(j) is not None or (
            before is not None and before.pos in ("determiner", "adjective", "adposition")))
        if before is not None and before.pos == "adposition" and ctx.clause[j - 1] == ctx.clause[j]:
            return False   # "sehen wir von fern": a preposition's object, never a particle
        return not noun_phrase and r.pos != "conjunction"  # "over de weg" is a noun phrase
    if r.pos in _NEVER_PARTICLE or _name_start(ctx, j + 1):
        return False  # _name_start: "stelde zijn vertrouwen in Van Gaal", a preposition before a name
    if r.pos == "particle":
        return True
    if r.pos in ("adverb", "adjective"):
        # "zitten nog vast en zullen ...": before a coordinator whose conjunct opens with its own finite verb the
        # clause ends ("los en vast zat" joins two adjectives: no particle)
        return toks[j + 1].text in ctx.slots.coordinators and toks[j + 1].text in after and _own_verb(ctx, j + 1)
    nxt = ctx.readings[j + 1] if ctx.readings is not None else None
    return toks[j + 1].text in after or r.pos == "other" or (nxt is not None and nxt.pos == "adposition")


def _noun_phrase_before(ctx: SentenceContext, j: int) -> bool:
    """Whether token ``j`` ends a noun phrase: a determiner or preposition right before it or before the adjectives
    before it ("het grootste deel", "een groot deel"), or an inflected adjective (-e) right before it ("grote
    plaats"); an adverbial adjective alone ("gerust plaats", "actief deel") makes none."""
    readings = ctx.readings
    if readings is None or ctx.determiner_before(j) is not None:
        return readings is not None
    k = j - 1
    while k >= 0 and ctx.clause[k] == ctx.clause[j] and (r := readings[k]) is not None and r.pos == "adjective":
        k -= 1
    if k >= 0 and ctx.clause[k] == ctx.clause[j] and (r := readings[k]) is not None and r.pos in ("adposition", "determiner"):
        return True
    return k < j - 1 and ctx.tokens[j - 1].text.endswith("e")
#: parts of speech that open a sentence but no name (a name starts with a noun, "De Vries", or "Van Gaal")
_SENTENCE_OPENERS = frozenset({"numeral", "other", "adverb", "conjunction"})


def _capitalised(ctx: SentenceContext, k: int) -> bool:
    """Whether token ``k`` is written with a capital and then lower case ("Twee", not "MH17" or "twee")."""
    t = ctx.tokens[k]
    word = ctx.sentence[t.start:t.end]
    return word[:1].isupper() and (len(word) == 1 or word[1:].islower())


def _run_in(ctx: SentenceContext, k: int) -> bool:
    """Whether token ``k`` opens a sentence run into the one before without its full stop (a headline before
    its text: "Leger haalde drone neer Twee soldaten raakten gewond"), so the clause before it ends there
    (issue 40): a capitalised word that is not the sentence's first, read as a numeral, pronoun, adverb or
    conjunction (never a noun, determiner or adposition, which may start a name: "aan Marieke", "aan De
    Vries"), with a verb after it. Only with an analyser; False otherwise."""
    readings = ctx.readings
    if readings is None or not 0 < k < len(ctx.tokens) or not _capitalised(ctx, k):
        return False
    r = readings[k]
    return r is not None and r.pos in _SENTENCE_OPENERS \
        and any(x is not None and x.verb for x in readings[k + 1:])


def _name_start(ctx: SentenceContext, k: int) -> bool:
    """Whether token ``k`` starts a name inside the sentence: a capitalised adposition or determiner before
    another capitalised word ("in Van Gaal", "aan De Vries"): the word before it is a preposition, not a particle."""
    readings = ctx.readings
    if readings is None or not 0 < k < len(ctx.tokens) - 1 or not _capitalised(ctx, k) or not _capitalised(ctx, k + 1):
        return False
    r = readings[k]
    return r is not None and r.pos in ("adposition", "determiner")


def _own_verb(ctx: SentenceContext, k: int) -> bool:
    """Whether the conjunct that coordinator ``k`` opens has a finite verb of its own in the clause and does not
    begin with an adjective or adverb ("vast en we moesten", "dicht en liep"; not "los en vast zat": two adjectives)."""
    readings = ctx.readings
    if readings is None or k + 1 >= len(ctx.tokens) or ctx.clause[k + 1] != ctx.clause[k]:
        return False
    first = readings[k + 1]
    if first is not None and first.pos in ("adjective", "adverb"):
        return False
    return any((r := readings[x]) is not None and r.verb and r.finite
               for x in range(k + 1, min(len(ctx.tokens), k + 4)) if ctx.clause[x] == ctx.clause[k])


def _particle_before(ctx: SentenceContext, i: int, particle: str, between: frozenset[str]) -> int | None:
    """The particle just before the base, only cluster words between ("samen te vatten", "samen wil vatten")."""
    for j in ctx.near(i, back=True):
        if ctx.clause[j] != ctx.clause[i] or i - j > 3:
            return None
        if ctx.tokens[j].text == particle:
            return j
        if ctx.tokens[j].text not in between:
            return None
    return None


def other_separable(ctx: SentenceContext, i: int, lemma: str, particles: tuple[str, ...], after: frozenset[str]) -> bool:
    """True when token ``i`` has a separated particle of its own ("Er zog die Jacke an." is anziehen, not ziehen); never
    for ``lemma``'s present participle, which does not split (the particle is the finite verb's: "Al fluitend liep hij
    de trap af"); never for a finite form of German "sein" (``slots.perfect_sein``): "da sein", "zurück sein", "weg
    sein" are no particle verbs, written apart (Amtliche Regelung der deutschen Rechtschreibung, 2006, § 35: "Bin
    gleich wieder da" is sein)."""
    own = {p for p, _ in separable_splits(lemma, ctx.code)}
    if ctx.present_participle(ctx.tokens[i].text, lemma):
        return False   # "Al fluitend liep hij de trap af": a participle never leaves a particle behind; it is liep's
    if ctx.tokens[i].text in ctx.slots.perfect_sein:
        return False   # "Ich bin gleich wieder da": sein forms no particle verb
    return any(p not in own and _particle_after(ctx, i, p, after) is not None and _real_verb(ctx, i, p)
               for p in particles if p in {t.text for t in ctx.tokens[i + 1:]})


def _real_verb(ctx: SentenceContext, i: int, particle: str) -> bool:
    """Whether ``particle`` + a lemma of token ``i`` is a verb of the language (simplemma's lexicon knows it
    as its own lemma): "anziehen" for "zog ... an"; "wiederspielen" for "spielt ... wieder" is none. Also when the
    particle joined to the written form is a form the lexicon knows of a verb spelled with that particle ("over" +
    "staken" = "overstaken", oversteken's past: "staken ... de straat over"), where the lexicon lemmatises the
    particle verb's infinitive itself to a noun ("oversteken" -> "oversteek")."""
    for lemma in ctx.lemmas[i]:
        verb = particle + lemma
        if verb.endswith("n") and _simplemma_knows(verb, ctx.code) \
                and _simplemma_word(verb, ctx.code).replace("_", "") == verb:
            return True
    joined = particle + ctx.tokens[i].text
    if not _simplemma_knows(joined, ctx.code):
        return False
    owner = _simplemma_word(joined, ctx.code).replace("_", "")
    return owner != joined and owner.startswith(particle) and owner.endswith("en") and owner[len(particle):] in ctx.lemmas[i]


def _alt_at(ctx: SentenceContext, j: int, alt: tuple[str, ...], head: bool, verb_later: bool = False
            ) -> tuple[list[int], str] | None:
    """Token indices of alternative ``alt`` starting at token ``j`` and how its first word matched, or None.
    ``verb_later``: the lemma's verb is a later part (Turkish "formül bulmak"), so the head is matched as a plain
    word, as the other parts are, and not weighed as a verb form against its context ("bir formül bulmuştu": the
    noun after "bir" is the lemma's noun, not a verb read as a noun)."""
    idx = list(range(j, j + len(alt)))
    if idx[-1] >= len(ctx.tokens) or any(ctx.clause[k] != ctx.clause[j] for k in idx):
        return None
    method = "exact"
    for k, word in zip(idx, alt, strict=True):
        tok = ctx.tokens[k].text
        if head and k == j and not verb_later:
            found = ctx.word_method(tok, word, k)
            if not found:
                return None
            method = found
        elif tok != word and word not in ctx.lemmas[k] and not (ctx.m.tables and ctx.word_method(tok, word, k, stem=False)):
            return None  # a later part may be the verb itself where the verb comes last (Turkish "izin vermek")
    return idx, method


def parts_in_order(ctx: SentenceContext, parts: Sequence[LemmaPart]) -> tuple[list[Candidate], int | None]:
    """Occurrences of all required parts in order (optional ones masked when near); and a head without its parts."""
    first = next(k for k, p in enumerate(parts) if not p.optional)
    head_part, rest = parts[first], parts[first + 1:]
    several = sum(not p.optional for p in parts) > 1
    found: list[Candidate] = []
    partial = None
    for i in range(len(ctx.tokens)):
        for alt in head_part.alternatives:
            head = _alt_at(ctx, i, alt, head=True, verb_later=several and ctx.m.multiword_verb_last)
            if head is None:
                continue
            mask, pos, ok = list(head[0]), head[0][-1], True
            for part in rest:
                hit = None
                for j in ctx.near(pos):
                    if ctx.clause[j] != ctx.clause[i] or ctx.finite_verb_between(pos, j):
                        break
                    hit = next((h for a in part.alternatives if (h := _alt_at(ctx, j, a, head=False))), None)
                    if hit and ctx.config.pos and ctx.question_preposition(j, i):
                        hit = None   # "Vad tycker du om filmen?": om is the preposition (verb_lexicon_slots)
                    if hit:
                        break
                hit = hit or _final_particle(ctx, i, pos, part)
                if hit:
                    mask += hit[0]
                    if not part.optional:
                        pos = hit[0][-1]
                elif not part.optional:
                    ok = False
                    break
            if ok:
                found.append((i, mask, "multiword" if several else head[1]))
                break
            if partial is None:
                partial = i
    return found, partial


def _final_particle(ctx: SentenceContext, i: int, pos: int, part: LemmaPart) -> tuple[list[int], str] | None:
    """A one-word ``part`` beyond the window that ends head ``i``'s clause, read as a particle, adverb or
    adposition (no object follows it there), with no conjunction or coordinator between (a relative clause may
    stand between): "Please turn the music in the living room down"."""
    last = pos
    while last + 1 < len(ctx.tokens) and ctx.clause[last + 1] == ctx.clause[i]:
        last += 1
    readings = ctx.readings if ctx.config.pos else None
    if readings is not None and ctx.code == "en" and (mid := _particle_before_adverbial(ctx, pos, last, part)) is not None:
        last = mid   # "picked all the ripe strawberries from the lawn up before lunch"
    reading = readings[last] if readings is not None else None
    if readings is None or last - pos <= ctx.window or reading is None \
            or reading.pos not in ("particle", "adverb", "adposition"):
        return None
    if any((r := readings[k]) is not None and r.pos == "conjunction" for k in range(pos + 1, last)) \
            or any(ctx.tokens[k].text in ctx.slots.coordinators for k in range(pos + 1, last)):
        return None   # "turned to the people and walked down": the particle is the second verb's
    words = {a[0] for a in part.alternatives if len(a) == 1}
    return ([last], "exact") if ctx.tokens[last].text in words else None


def _particle_before_adverbial(ctx: SentenceContext, pos: int, last: int, part: LemmaPart) -> int | None:
    """English: the token between ``pos`` and the clause's last word ``last`` that is spelled as the one-word ``part``,
    read as an adverbial particle (HanTa ``AVP``) and followed by a preposition that is also a subordinator (the
    slots table's ``subordinators``: before, after, until, since), opening a closing adverbial of time ("picked the
    strawberries from the lawn up before lunch": the particle ends the verb phrase; Quirk et al. 1985, § 16.2 on
    the particle after a long object); "up in the attic" (a place phrase led by the particle) is none. None
    otherwise."""
    readings = ctx.readings
    words = {a[0] for a in part.alternatives if len(a) == 1}
    for j in range(last - 1, pos + ctx.window, -1):
        r, nxt = readings[j] if readings else None, readings[j + 1] if readings else None
        if ctx.tokens[j].text in words and r is not None and r.pos == "particle" and nxt is not None \
                and nxt.pos == "adposition" and ctx.tokens[j + 1].text in ctx.slots.subordinators:
            return j
    return None


@lru_cache(maxsize=4096)
def effective_parts(lemma: str, code: str) -> tuple[LemmaPart, ...]:
    m = morphology(code)
    parts = lemma_parts(lemma)
    out = [
        LemmaPart(p.alternatives, p.optional or all(len(a) == 1 and a[0] in m.optional_words for a in p.alternatives))
        for p in parts
    ]
    if out and all(p.optional for p in out):  # "(x)" alone, or only optional words: keep them required
        out = [LemmaPart(p.alternatives, False) for p in parts]
    return tuple(out)


def reflexive_part(parts: Sequence[LemmaPart], m: Morphology) -> bool:
    """True when the LU starts with a reflexive pronoun that the language requires (French ``se souvenir``)."""
    return (bool(m.reflexive_clitics) and len(parts) > 1 and not parts[0].optional
            and all(len(a) == 1 and a[0] in m.reflexive_clitics for a in parts[0].alternatives))


def reflexive_at(ctx: SentenceContext, i: int) -> int | None:
    """The reflexive pronoun of the verb at token ``i``: before it with only ``between_auxiliary`` words and
    auxiliaries between ("nous nous sommes souvenus", "ne s'en souvient"), or joined after it by a hyphen
    ("Réveille-toi"). A ``nous`` / ``vous`` just before a finite verb is its subject, not a reflexive, unless
    another ``nous`` / ``vous`` precedes it."""
    m, toks = ctx.m, ctx.tokens
    if i + 1 < len(toks) and toks[i + 1].text in m.reflexive_clitics and toks[i + 1].start == toks[i].end + 1 \
            and ctx.sentence[toks[i].end] in "-\u2011":
        return i + 1
    for j in range(i - 1, max(-1, i - 6), -1):
        if ctx.clause[j] != ctx.clause[i]:
            return None
        text = toks[j].text
        if text in m.reflexive_clitics:
            if text not in ("nous", "vous"):
                return None if _other_person_subject(ctx, j) else j
            subject_only = j == 0 or toks[j - 1].text != text
            reading = ctx.readings[i] if ctx.readings is not None else None
            finite = reading is not None and reading.finite
            if not (subject_only and finite and j == i - 1):
                return j
        if text not in m.between_auxiliary and text not in m.auxiliaries:
            return None
    return None


def _other_person_subject(ctx: SentenceContext, j: int) -> bool:
    """Whether the clitic at token ``j`` follows a subject pronoun of another person (``reflexive_persons``,
    only ``between_auxiliary`` words between): then it is an object pronoun, not a reflexive ("Il m'a rendu
    mon livre" is not "se rendre"; "Je me rends" is)."""
    persons = dict(ctx.m.reflexive_persons).get(ctx.tokens[j].text)
    if not persons:
        return False
    for k in range(j - 1, -1, -1):
        text = ctx.tokens[k].text
        if ctx.clause[k] != ctx.clause[j]:
            return False
        if text in ctx.m.subject_pronouns:
            return text not in persons
        if text not in ctx.m.between_auxiliary:
            return False
    return False


def single_word(parts: Sequence[LemmaPart]) -> str | None:
    required = [p for p in parts if not p.optional]
    if len(required) == 1 and len(required[0].alternatives) == 1 and len(required[0].alternatives[0]) == 1:
        return required[0].alternatives[0][0]
    return None


def fused_particle_candidates(ctx: SentenceContext, required: Sequence[LemmaPart]) -> list[Candidate]:
    """Swedish particle verbs written as one word (``fused_particles`` in ``morphology.toml``): the LU "ställa in"
    as a token that is the particle followed by a form of the verb ("Mötet blev inställt", "inställdes": the
    participles and the s-passive of a particle verb take the particle in front, in its written form where
    ``particle_spellings`` lists one: "lägga ner" -> "nedlagd"; Holmes & Hinchliffe 2013,
    *Swedish: A Comprehensive Grammar*, § 9.4). ``required``: the LU's required parts, the verb then the
    particle; [] for any other shape."""
    if not ctx.m.fused_particles or len(required) != 2 \
            or any(len(p.alternatives) != 1 or len(p.alternatives[0]) != 1 for p in required):
        return []
    verb, particle = required[0].alternatives[0][0], required[1].alternatives[0][0]
    if particle not in ctx.m.fused_particles:
        return []
    spellings = (particle, *dict(ctx.m.particle_spellings).get(particle, ()))
    out: list[Candidate] = []
    for i, t in enumerate(ctx.tokens):
        for written in spellings:
            rest = t.text[len(written):]
            if t.text.startswith(written) and len(rest) >= 3 and (method := ctx.word_method(rest, verb, None)):
                out.append((i, [i], f"fused-particle:{method}"))
                break
    return out
