"""Conjugation tables of the verb check: Spanish, Portuguese, Italian and Swedish.

simplemma gives one lemma per word, so a verb form that is also a noun ("llama", "cocina", "vino",
"canto") or that two verbs share ("fue": ser and ir) is lost, and a noun form it ties to a verb
("resan") passes. For the languages whose ``prompts/verbs/morphology.toml`` entry has conjugation
data (:attr:`fbagent.checks.morphology.Morphology.tables`) a token is the verb ``lemma`` when it,
or one of its variants, is in the lemma's paradigm:

- :func:`paradigm`: the regular forms generated from the entry's ``conjugation`` endings (every
  person, tense, mood, gerund and participle with its agreement forms; spelling changes before
  ``e``/``i``: "busqué", "cerchi"; stressed stems e->ie, o->ue, e->i where ``stem_changes``), the
  Swedish weak groups (``-ar``, ``-er``/``-de``/``-te``, short verbs ``-dde``) with the s-passive, and
  the entry's ``irregular`` forms (forms simplemma gives to another lemma: "fue" is ser and ir,
  "vimos" is ver and vir) and ``strong_participles`` with their agreement forms ("aperti", "hechas");
- simplemma's dictionary: the token, or a ``probes`` variant of it (a strong preterite "vino" ->
  "vinieron", an agreeing participle "messi" -> "messo", a passive "skrevs" -> "skrev"), maps to
  the lemma; in Swedish not for a token with a definite or plural noun ending (``noun_suffixes``:
  "resan", "frågan"), which no verb form has;
- the same after stripping attached clitic pronouns (``attached_clitics``: "dámelo" -> "da",
  "siéntate" -> "sienta", "dimmi" -> "di", "dagli" -> "da"), the stress accent they force removed.

A reflexive infinitive LU ("sentarse", "alzarsi") is matched by its verb ("sentar", "alzare").
Whether the token is read as a verb where it stands (not after an article: "la llama de la vela")
is decided by :mod:`fbagent.checks.verb_match`. No table is downloaded: the endings are data in
``morphology.toml`` and the dictionary is simplemma's. Offline conjugators (``verbecc``,
``mlconjug3``) were considered: both pin numpy / scikit-learn versions that conflict with
fbagent's other dependencies.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from fbagent.checks.conjugation_lv import lv_classes, lv_forms, lv_participle, lv_root_pattern
from fbagent.checks.conjugation_tr import tr_form_of, tr_normalise, tr_other_lemma
from fbagent.checks.lemmas import _simplemma_knows, _simplemma_word
from fbagent.checks.morphology import Morphology, morphology

_STRESS = str.maketrans("áéíóú", "aeiou")
_VOWELS = "aeiouáéíóúàèìòùâêôãõ"


def verb_lemma(lemma: str, lang: str) -> str:
    """The verb of a reflexive infinitive LU: ``sentarse`` -> ``sentar``, ``alzarsi`` -> ``alzare``;
    other lemmas unchanged (lower case)."""
    lemma = lemma.lower()
    suffix = morphology(lang).reflexive_suffix
    if not suffix or not lemma.endswith(suffix) or len(lemma) < len(suffix) + 3:
        return lemma
    base = lemma[: -len(suffix)].rstrip("-")
    if suffix == "si" and base.endswith(("ar", "er", "ir")):
        return base + "e"  # alzarsi -> alzare
    return base if base.endswith(("ar", "er", "ir", "ír", "re")) else lemma


def _stems(stem: str, m: Morphology) -> set[str]:
    out = {stem}
    if m.stem_changes:
        for old, new in (("e", "ie"), ("e", "i"), ("o", "ue")):
            k = stem.rfind(old)
            if k >= 0 and all(ch not in _VOWELS for ch in stem[k + 1:]):
                out.add(stem[:k] + new + stem[k + 1:])
    return out


def _spellings(stem: str, ending: str, code: str) -> set[str]:
    """``stem + ending`` and its spelling before a front vowel (es/pt: c->qu, g->gu, z/ç->c; it: c->ch, g->gh)
    and before a back vowel (es/pt: g->j, c->z / ç, gu->g: escojo, venzo, conheço, sigo); Portuguese writes
    a stressed ``i`` after a stem vowel with an accent (construído, saímos, caía)."""
    raw = stem + ending
    if not ending or not stem:
        return {raw}
    front = ending[0] in "eéêiíì"
    if code in ("es", "pt", "ca") and ending[0] in "eéê":
        swap = {"c": "qu", "g": "gu", "z": "c", "ç": "c"}.get(stem[-1])
        if swap:
            return {raw, stem[:-1] + swap + ending}
    if code == "pt" and ending[0] == "i" and stem[-1] in "aou":  # hiatus: construído, saímos, caía
        return {raw, stem + "í" + ending[1:]}
    if code in ("es", "pt") and ending[0] in "aáoó":  # escojo, dirijo; venzo, conheço; sigo, distingo
        if stem.endswith("gu"):
            return {raw, stem[:-1] + ending}
        swap = {"g": "j", "c": "z" if code == "es" else "ç"}.get(stem[-1])
        if swap:
            return {raw, stem[:-1] + swap + ending}
    if code == "it" and front:
        if stem.endswith(("ci", "gi")) and ending[0] in "iì":
            return {raw, stem[:-1] + ending}
        if stem[-1] in "cg":
            return {raw, stem + "h" + ending}
    return {raw}


#: Swedish strong verbs: the vowel of the infinitive -> the vowels of the preterite and the supine
#: (Holmes & Hinchliffe 2013, *Swedish: A Comprehensive Grammar*, § 8.4: i-a-u vinna, i-e-i skriva,
#: y/ju-ö-u flyga, sjunga, a-o-a fara, ä-a-u bära/bar, i-å-e ligga/låg)
_SV_ABLAUT = {"i": (("a", "u"), ("e", "i"), ("å", "e")), "y": (("ö", "u"),), "ju": (("jö", "ju"), ("ö", "u")),
              "a": (("o", "a"),), "ä": (("a", "u"),), "u": (("ö", "u"),)}


def _swedish_strong(lemma: str) -> set[str]:
    """Candidate strong preterites and supines of the Swedish verb ``lemma`` by its stem vowel (vann,
    vunnit; skrev, skrivit; flög, flugit; satt, suttit; låg, legat): only compared with tokens."""
    stem = lemma[:-1]
    for vowel in ("ju", "i", "y", "a", "ä", "u"):
        k = stem.rfind(vowel)
        if k < 0 or any(ch in "aeiouyåäö" for ch in stem[k + len(vowel):]):
            continue
        head, tail = stem[:k], stem[k + len(vowel):]
        out = set()
        for past, supine in _SV_ABLAUT[vowel]:
            short = tail[:-1] if len(tail) >= 2 and tail[-1] == tail[-2] else tail
            short = short[:-1] if short.endswith("g") and len(short) >= 2 and short[-2] == "g" else short
            out |= {head + past + tail, head + past + short, head + past + short + "s"}
            out |= {head + supine + tail + "it", head + supine + tail + "its", head + supine + tail + "en",
                    head + supine + tail + "na"}
        return out
    return set()


def _swedish(lemma: str) -> set[str]:
    """The weak forms of a Swedish verb (all groups generated: non-words are only compared with tokens),
    its strong-vowel candidates, and for a verb in -s (deponent or reciprocal: hoppas, träffas, minnas)
    the forms of the verb without it with -s added (hoppades, träffades, kändes)."""
    if lemma.endswith("s") and len(lemma) > 3:
        base = lemma[:-2] if lemma.endswith("ss") else lemma[:-1]
        return {f + "s" for f in _swedish(base) if not f.endswith("s")} | {lemma}
    if not lemma.endswith("a"):  # short verbs: bo, tro, se
        return {lemma + e for e in ("r", "dde", "tt", "s", "ddes", "tts", "dd", "tt", "ende")}
    stem = lemma[:-1]
    forms = {lemma + e for e in ("r", "de", "t", "s", "des", "ts", "d", "nde", "des")}
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouyåäö":  # känna: kände, känt
        forms |= {stem[:-1] + e for e in ("de", "des", "t", "ts", "da")}
    forms |= {stem + e for e in ("", "er", "de", "te", "t", "s", "es", "des", "tes", "ts", "d", "da", "ande")}
    return forms | _swedish_strong(lemma)


@lru_cache(maxsize=8192)
def paradigm(lemma: str, lang: str) -> frozenset[str]:
    """The generated and listed forms of the verb ``lemma`` (see the module doc), lower case, the lemma
    included; empty of generated forms for a language without conjugation data."""
    m = morphology(lang)
    lemma = verb_lemma(lemma, lang)
    forms: set[str] = {lemma}
    for ending, endings in sorted(m.conjugation, key=lambda r: len(r[0]), reverse=True):
        if lemma.endswith(ending) and len(lemma) > len(ending) + 1:
            for stem in _stems(lemma[: -len(ending)], m):
                for e in endings:
                    forms |= _spellings(stem, e, m.lang)
            break
    if m.swedish_weak:
        forms |= _swedish(lemma)
    if m.paradigm_rules == "lv":
        forms |= lv_forms(lemma, m.irregular, m.verb_prefixes,
                          lv_classes(lemma, lambda w: _simplemma_word(w, "lv"), lambda w: _simplemma_knows(w, "lv")))
    for verb, listed in m.irregular:
        if verb == lemma:
            forms |= listed
    forms |= _strong_participles(lemma, m)
    return frozenset(forms)


def _strong_participles(lemma: str, m: Morphology) -> set[str]:
    """The listed participle whose infinitive ending ``lemma`` has (riaprire -> riaperto) and its agreement forms;
    in Italian also the strong (sigmatic) preterite that goes with a participle in -so, -sto, -nto, -lto
    (chiesto: chiesi, chiese, chiesero; preso: presi; vinto: vinsi; scelto: scelsi; Maiden & Robustelli 2013,
    *A Reference Grammar of Modern Italian*, § 15.32)."""
    out = _participle_forms(lemma, m)
    if m.lang == "it" and out:
        p = min(out, key=lambda w: (not w.endswith("o"), len(w)))
        if p.endswith("o"):
            out |= {_sigmatic_stem(p) + e for e in ("i", "e", "ero")} - {"i", "e", "ero"}
    return out


def _participle_forms(lemma: str, m: Morphology) -> set[str]:
    """The listed strong participle of ``lemma`` (first ``strong_participles`` ending that matches) and its agreement
    forms (-a and -i/-e in Italian, -a, -os, -as in Spanish and Portuguese); empty where none is listed."""
    for ending, participle in m.strong_participles:
        if lemma.endswith(ending):
            p = lemma[: len(lemma) - len(ending)] + participle
            if not p.endswith("o"):
                return {p}
            plural = ("i", "e") if m.lang == "it" else ("os", "as")
            return {p, p[:-1] + "a"} | {p[:-1] + e for e in plural}
    return set()


def strong_participles(lemma: str, lang: str) -> frozenset[str]:
    """The strong past participles of the verb ``lemma`` in ``lang`` with their agreement forms (``strong_participles``
    of ``prompts/verbs/morphology.toml`` by the infinitive's ending: "hecho", "hechas"; "morto", "morti"), without
    the preterites that :func:`paradigm` adds beside them; empty where none is listed."""
    return frozenset(_participle_forms(verb_lemma(lemma, lang), morphology(lang)))


def _sigmatic_stem(participle: str) -> str:
    """The stem of the Italian strong preterite of a participle (chiesto -> chies, preso -> pres, vinto -> vins); ""."""
    if participle.endswith("sto") or participle.endswith("sso"):
        return participle[:-2] if participle.endswith("sto") else participle[:-1]
    if participle.endswith("so"):
        return participle[:-1]
    if participle.endswith(("nto", "lto")):
        return participle[:-2] + "s"
    return ""


def _unstressed(word: str) -> str:
    return word.translate(_STRESS)


def clitic_hosts(token: str, lang: str) -> list[str]:
    """``token`` without its attached clitic pronouns, longest strip last: ``dámelo`` -> ``[dáme, dame, dá, da]``;
    Italian doubled consonants after a one-syllable imperative: ``dimmi`` -> ``[dim, di]``; an Italian infinitive
    cut before its clitic gets its ending back: ``distrarmi`` -> ``[distrar, distrare, distrarre]``. Empty when none."""
    m = morphology(lang)
    out: list[str] = []
    word = token
    for _ in range(3):
        clitic = next((c for c in m.attached_clitics if word.endswith(c) and len(word) - len(c) >= 2), None)
        if clitic is None:
            break
        word = word[: -len(clitic)]
        out += [word, _unstressed(word)]
        if m.lang == "it" and len(word) >= 3 and word[-1] == clitic[0] and word[-1] not in _VOWELS:
            out.append(word[:-1])  # the consonant doubled after a one-syllable imperative: dimmi -> di, fallo -> fa
        if m.lang == "it" and word.endswith("r"):
            out += [word + "e", word + "re"]  # the infinitive cut before a clitic: mangiarlo, distrarmi, porlo
    return list(dict.fromkeys(out))


def _probes(word: str, m: Morphology) -> list[str]:
    return [word[: len(word) - len(a)] + b for a, b in m.probes if word.endswith(a) and len(word) - len(a) >= 2]


def _infinitive_probes(word: str, m: Morphology) -> list[str]:
    """The ``probes`` variants of ``word`` that give back a dropped infinitive ending (Portuguese "resolvê" ->
    "resolver" before -lo); not the probes that strip an ending (Swedish "hoppas" -> "hoppa" is no infinitive)."""
    if not m.infinitive_endings:
        return []
    return [word[: len(word) - len(a)] + b for a, b in m.probes
            if word.endswith(a) and len(b) > len(a) and b.endswith(m.infinitive_endings) and len(word) - len(a) >= 2]


def table_method(token: str, lemma: str, lang: str, lemmatize: Callable[[str], str]) -> str | None:
    """How ``token`` (lower case) is a form of the verb ``lemma`` by the tables, or None.

    ``lemmatize(word) -> str`` is simplemma's lemma of a word. Returns ``"conjugation"`` (in
    :func:`paradigm`), ``"conjugation:dictionary"`` (simplemma, directly or through a probe) or
    ``"conjugation:clitic"`` (either, after stripping attached clitics), ``"conjugation:prefix"`` (either,
    after stripping a ``negative_prefixes`` word: Latvian ``ne-`` and the debitive ``jā-``). Turkish
    (``paradigm_rules = "tr"``): ``"conjugation"`` when the token is the lemma's stem plus a verbal suffix
    chain (:func:`fbagent.checks.conjugation_tr.tr_form_of`), else the dictionary as above.
    """
    m = morphology(lang)
    if m.paradigm_rules == "tr":
        return _turkish_method(token, lemma, lemmatize)
    verb = verb_lemma(lemma, lang)
    forms = paradigm(lemma, lang)
    words = [(token, "conjugation"), *((w, "conjugation:clitic") for w in clitic_hosts(token, lang))]
    words += [(token[len(p):], "conjugation:prefix") for p in m.negative_prefixes
              if token.startswith(p) and len(token) - len(p) >= 3]
    words += [(token[len(p) + len(q):], "conjugation:prefix") for p in m.negative_prefixes for q in m.negative_prefixes
              if p != q and token.startswith(p + q) and len(token) - len(p + q) >= 3]  # ne + jā: nejāiet
    for word, how in words:
        if word in forms:
            if how == "conjugation" and _dictionary_verb(word, verb, m, lemmatize):
                return None  # "siento": sentir's by the dictionary, only generated for sentar
            return how
        if m.noun_suffixes and word.endswith(m.noun_suffixes):
            continue  # resan, frågan: a noun form the dictionary ties to the verb
        for probe in [word, *_probes(word, m)]:
            if probe in forms or lemmatize(probe) == verb:
                return how if how != "conjugation" else "conjugation:dictionary"
    if m.paradigm_rules == "lv":
        if any(lv_participle(word, forms) for word, _ in words):
            return "conjugation"
        return _latvian_root(token, verb, m, lemmatize)
    if m.swedish_weak and _deponent_past(token, verb, lemmatize):
        return "conjugation:dictionary"
    return None


def _latvian_root(token: str, verb: str, m: Morphology, lemmatize: Callable[[str], str]) -> str | None:
    """``"conjugation:root"`` when ``token`` (or it without ``ne-`` / ``jā-``) is a form of the Latvian ``verb``
    whose root alternates (:func:`fbagent.checks.conjugation_lv.lv_root_pattern`: cieta, samaļ, izlēmām)
    and simplemma's dictionary does not give it to a word that is no verb (an adjective "cieta" -> "ciets",
    "slims" -> "slims": a word the dictionary knows as its own headword is that word, not a guessed verb form)."""
    pattern = lv_root_pattern(verb)
    if pattern is None:
        return None
    for word in [token, *(token[len(p):] for p in m.negative_prefixes if token.startswith(p))]:
        if pattern.fullmatch(word):
            other = lemmatize(word)
            if other == verb or other.endswith(("t", "ties")) or (other == word and not _simplemma_knows(word, "lv")):
                return "conjugation:root"
    return None



def _turkish_method(token: str, lemma: str, lemmatize: Callable[[str], str]) -> str | None:
    """How ``token`` is a form of the Turkish verb ``lemma``: its suffix chain, unless simplemma's dictionary
    gives the word to a longer lexicalised word (:func:`fbagent.checks.conjugation_tr.tr_other_lemma`), else
    simplemma's lemma."""
    if tr_form_of(token, lemma):
        if tr_other_lemma(token, lemma, lambda w: _simplemma_word(w, "tr"), lambda w: _simplemma_knows(w, "tr")):
            return None
        return "conjugation"
    word = tr_normalise(token)
    return "conjugation:dictionary" if len(word) > 2 and lemmatize(word) == tr_normalise(lemma) else None


#: infinitive endings of the conjugation-table languages: a dictionary lemma with one is a verb
_INFINITIVES = {"es": ("ar", "er", "ir", "ír"), "pt": ("ar", "er", "ir", "or"), "it": ("are", "ere", "ire", "rre")}


def _dictionary_verb(word: str, verb: str, m: Morphology, lemmatize: Callable[[str], str]) -> str:
    """The other verb simplemma's dictionary gives ``word`` to, where ``word`` is only a generated form of
    ``verb`` (not one of its listed irregular forms) and also a generated form of that other verb: the
    dictionary's reading outranks the generated one ("siento" is sentir's, though sentar's stem change makes
    it too); "" when there is none."""
    endings = _INFINITIVES.get(m.lang)
    if not endings:
        return ""
    other = lemmatize(word)
    if other == verb or not other.endswith(endings) or any(word in listed for v, listed in m.irregular if v == verb):
        return ""
    if word in _unchanged_stem_forms(verb, m):
        return ""  # a regular form with only a spelling change ("empecemos": z -> c) stays the target's
    return other if word in paradigm(other, m.lang) else ""


@lru_cache(maxsize=4096)
def _unchanged_stem_forms(verb: str, m: Morphology) -> frozenset[str]:
    """The forms of ``verb`` from its ``conjugation`` endings with the stem as written (spelling changes
    before a vowel included, stem-vowel changes not): "empecemos" is empezar's whatever else the dictionary
    says, while "siento" (e -> ie) may be sentir's."""
    for ending, endings in sorted(m.conjugation, key=lambda r: len(r[0]), reverse=True):
        if verb.endswith(ending) and len(verb) > len(ending) + 1:
            stem = verb[: -len(ending)]
            return frozenset(f for e in endings for f in _spellings(stem, e, m.lang))
    return frozenset()


def _deponent_past(token: str, verb: str, lemmatize: Callable[[str], str]) -> bool:
    """Swedish verbs in -s (deponent, reciprocal: slåss, hoppas, träffas): the token minus its -s is a form the
    dictionary gives to the verb without its -s ("slogs" -> "slog" -> slå: slåss's strong past)."""
    if not (verb.endswith("s") and token.endswith("s") and len(token) > 3):
        return False
    base = verb[:-2] if verb.endswith("ss") else verb[:-1]
    return lemmatize(token[:-1]) == base


def nonfinite_form(token: str, lemma: str, lang: str) -> bool:
    """Whether ``token`` (lower case), or it without its attached clitics ("decírselo" -> "decír"), is a
    non-finite form of the verb ``lemma``: the infinitive, a form with one of the language's
    ``nonfinite_endings`` (gerund, participle: "corriendo", "construída", "inställt"), one of the lemma's
    strong participles ("hecho", "aperti") or a ``probes`` variant that is the infinitive (Portuguese "resolvê" of
    "resolvê-lo"). A finite form is what a copula, a degree adverb, a preposition
    or another finite verb of the clause rules out (:meth:`fbagent.checks.verb_context.SentenceContext.finite_blocker`)."""
    m = morphology(lang)
    verb = verb_lemma(lemma, lang)
    participles = _strong_participles(verb, m)
    finite = _finite_forms(verb, lang)
    for word in (token, *clitic_hosts(token, lang)):
        if word == verb or word == lemma or word in participles or verb in _infinitive_probes(word, m) \
                or (m.nonfinite_endings and word.endswith(m.nonfinite_endings) and word not in finite) \
                or (m.nonfinite_prefixes and word.startswith(m.nonfinite_prefixes)):
            return True
    return False


@lru_cache(maxsize=4096)
def _finite_forms(verb: str, lang: str) -> frozenset[str]:
    """The regular forms of ``verb``'s conjugation class that end as no non-finite ending of the class does (Italian
    "canto", "lotta" of cantare, lottare: a 1st and 3rd person, though "-nto" and "-tta" end strong participles
    elsewhere), less the verb's regular and strong non-finite forms; empty for a language without ``conjugation``."""
    m = morphology(lang)
    for ending, endings in sorted(m.conjugation, key=lambda r: len(r[0]), reverse=True):
        if verb.endswith(ending) and len(verb) > len(ending) + 1:
            stem = verb[: -len(ending)]
            nonfinite = {e for e in endings if e.endswith(m.nonfinite_endings or ("\0",))
                         and (e == ending or e.endswith(("ndo", "to", "ta", "ti", "te", "do", "da", "dos", "das")))}
            regular = {stem + e for e in endings if e not in nonfinite}
            return frozenset(regular - {stem + e for e in nonfinite} - _strong_participles(verb, m) - {verb})
    return frozenset()


def shared_form_owner(token: str, lemma: str, lang: str, following: str | None, before: str | None = None) -> str | None:
    """The other verb that owns ``token`` here, where ``token`` is a listed irregular form of both ``lemma`` and
    another verb and the language's ``shared_forms`` entry decides between them by the next word of the clause
    or the next two (``following``: "a", or "en tren"; None at the clause's end): Spanish and Portuguese "fue" / "foi" is ``ir`` before a word of
    motion ("fue a la farmacia", "foi ao mercado") or at the clause's end ("se fue."), ``ser`` otherwise ("fui
    muy feliz", "foi uma excelente professora"); first, a ``shared_forms_after`` word before it (``before``) makes
    it that verb's ("se fue"). None when the form is ``lemma``'s here or not shared."""
    m = morphology(lang)
    verb = verb_lemma(lemma, lang)
    owners = [v for v, listed in m.irregular if token in listed]
    if verb not in owners or len(owners) < 2:
        return None
    for decided, words in m.shared_forms_after:  # the word before decides first: "se fue" is irse
        if decided in owners and before is not None and before in words:
            return None if decided == verb else decided
    for decided, words in m.shared_forms:
        if decided not in owners:
            continue
        is_decided = following is None or following.split(" ")[0] in words or following in words
        if verb == decided and not is_decided:
            return next(v for v in owners if v != decided)
        if verb != decided and is_decided:
            return decided
    return None


def first_singular(token: str, lemma: str, lang: str) -> bool:
    """Whether ``token`` is the regular 1st person singular present of ``lemma`` (the first ending after the
    infinitive in its ``conjugation`` row: es/pt/it "-o": "corto", "cego", "calmo"; stem changes and spelling
    changes included). A noun phrase before it is its subject or object, and neither goes with a 1st person
    without a pronoun or clitic between: "el pelo corto", "o senhor cego" are adjectives."""
    return _regular_present(token, lemma, lang, 1)


def third_singular(token: str, lemma: str, lang: str) -> bool:
    """Whether ``token`` is the regular 3rd person singular present indicative of ``lemma`` (the fourth ending of its
    ``conjugation`` row, after the infinitive and the 1st and 2nd person: es/pt "-a" / "-e", it "-a" / "-e"; stem
    changes included): the only finite form a bare noun subject takes among the forms spelled as a function word
    ("El policía para", "Mi hija nada"; not the subjunctive "entre" of entrar, nor the 1st person "como" of comer).
    False for a language without ``conjugation`` rows."""
    return _regular_present(token, lemma, lang, 3)


def _regular_present(token: str, lemma: str, lang: str, slot: int) -> bool:
    """Whether ``token`` is ``lemma``'s regular form in column ``slot`` of its ``conjugation`` row (stem and spelling
    changes included); False where the row has no such column or the language has no rows."""
    m = morphology(lang)
    verb = verb_lemma(lemma, lang)
    for ending, endings in sorted(m.conjugation, key=lambda r: len(r[0]), reverse=True):
        if verb.endswith(ending) and len(verb) > len(ending) + 1 and len(endings) > slot:
            return any(token in _spellings(stem, endings[slot], m.lang) for stem in _stems(verb[: -len(ending)], m))
    return False
