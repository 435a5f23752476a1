"""Turkish verb forms for the verb check: a verb stem and a chain of verbal suffixes, by rule.

Turkish verbs are agglutinative: ``gitmek`` (to go) is the stem ``git`` plus the infinitive ``-mek``,
and every form is that stem plus a chain of suffixes in a fixed order (Göksel & Kerslake 2005,
*Turkish: A Comprehensive Grammar*, ch. 8 and 13; Lewis 2000, *Turkish Grammar*, ch. VIII):

    stem + voice* + (negation | ability) + tense/aspect/mood + copula + person
    stem + voice* + negation + subordinator (verbal noun, participle, converb) + plural/possessive/case

so ``gidemeyeceklerini`` is ``gid + eme + yecek + ler + i + ni``. :func:`tr_form_of` says whether a
token is such a form of a lemma; it is the whole grammar a word needs to pass, and it asks no
dictionary (no Turkish analyser is on PyPI under a licence fbagent can depend on: Starlang's
``nlptoolkit-morphologicalanalysis`` is GPL-3.0, as is the Turkish FrameNet itself).

- Vowel harmony: each suffix vowel is written as its class (``A`` = a/e, ``I`` = ı/i/u/ü) and every
  member is accepted (a non-word costs nothing: the token is only compared).
- Consonant alternation: ``D`` = d/t (``gitti``, ``geldi``), ``C`` = c/ç, ``k``/``ğ`` before a vowel
  (``gideceğim``); the stem-final ``t`` of ``gitmek``, ``etmek`` and the ``-etmek`` compounds voices
  before a vowel (``gidiyor``, ``kaybedildi``), and ``demek`` / ``yemek`` raise their vowel (``diyor``,
  ``yiyecek``).
- The progressive ``-Iyor`` raises a stem-final ``a``/``e`` (``bekle`` -> ``bekliyor``).
- Voice (Göksel & Kerslake 2005, § 8.2.1): passive, reflexive (-(I)n), reciprocal (-(I)ş) and causative
  (-DIr, -t, -Ir, -Ar, -It), one or two of them, then the chain: ``yıkandı``, ``yıkattı``, ``ezberletti``,
  ``giyiniyor``, ``öpüştüler``, ``yaptırıldı`` are forms of the lemma (fbagent's convention: a native speaker
  reads them as the verb in another voice). A voice stem listed in ``lexical_voice``
  (``prompts/verbs/morphology.toml``: ``bulun``, ``görün``, ``tanış``, ``çalış``, ``düşün``, ...) is a verb of its
  own with its own meaning, so its forms are not the base verb's.
- A stem standing alone is the 2nd person imperative (``gel!``, ``at!``); the clitic ``de`` ("too") is never
  demek's. Whether a bare stem is the imperative or a noun or adjective spelled alike (``kuru``, ``kaç``, ``çek``,
  ``dik``) is decided by its place in the sentence
  (:meth:`fbagent.checks.verb_context.SentenceContext.finite_blocker`: an imperative ends its clause).
- The action noun in -(y)Iş without a possessive (``giriş`` "entrance", ``çıkış`` "exit", ``yürüyüş``) is no
  form of the verb: a word, not a subordinate clause; with one it is a nominalised clause ("şarkıyı söyleyişi").

A token spelled like the lemma's stem plus a noun suffix (``yazı``, ``yazın``: the noun *yaz*,
summer) passes only where that chain is also a verb form (``yazın`` is the plural imperative);
Turkish has no articles, so no context rule refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from fbagent.checks.morphology import morphology

_A, _I, _D = "[ae]", "[ıiuü]", "[dt]"
#: the passive: -n after a vowel, -In after l, -Il after any other consonant (Göksel & Kerslake 2005, § 8.2.1.1)
_PASSIVE = {"vowel": "n", "l": f"{_I}n", "consonant": f"{_I}l"}
#: voice, one or two suffixes (§ 8.2.1): causative -DIr / -t / -Ir / -Ar / -It, reciprocal -(I)ş, reflexive and
#: passive -(I)n, passive -Il; a second one is a causative or a passive (yap-tır-ıl-dı, yıka-t-tır-dı)
_VOICE = rf"(?:{_D}{_I}r|{_I}r|{_A}r|{_I}t|t|{_I}ş|ş|{_I}n|n|{_I}l)(?:{_D}{_I}r|t|{_I}l|{_I}n|n)?"
#: compound verbs alone: the imperative of -(y)Iver "suddenly, just" and the others (oturuver!)
_COMPOUND = rf"(?:y?{_I}ver|y?{_A}yaz|y?{_A}dur|y?{_A}kal|y?{_A}gel|y?{_A}koy)"
#: compound verbs (-(y)Iver "suddenly", -(y)Adur, -(y)Akal, -(y)Agel, -(y)Ayaz, -(y)Akoy), then negation -mA,
#: ability -(y)Abil, impossibility -(y)AmA, and their combination (-mAyAbil)
_MODAL = rf"{_COMPOUND}?(?:m{_A}y{_A}bil|y?{_A}m{_A}|y?{_A}bil|m{_A})?"
#: person after -mIş, -Iyor, -Ar, -AcAk, -mAlI (type 1) and after -DI, -sA (type 2)
_PERSON1 = rf"(?:y?{_I}m|s{_I}n|y?{_I}z|s{_I}n{_I}z|l{_A}r|{_D}{_I}r)"
_PERSON2 = rf"(?:m|n|k|n{_I}z|l{_A}r)"
#: tenses that take type-1 persons: evidential, progressive, future, necessitative, aorist (+ negative)
_TENSE1 = rf"(?:m{_I}ş|{_I}?yor|(?:y?{_A})?m{_I}yor|y?{_A}c{_A}[kğ]|m{_A}l{_I}|{_A}?r|{_I}r|z|m{_A}z|m)"
#: tenses that take type-2 persons: past, conditional
_TENSE2 = rf"(?:{_D}{_I}|s{_A})"
#: copula after a tense: past, evidential, conditional, "while", and the generalising -DIr
_COPULA = rf"(?:y?{_D}{_I}|y?m{_I}ş|y?s{_A}|y?k{_A}n|{_D}{_I}r)"
#: subordinators: infinitive, verbal nouns, participles, converbs
_NONFINITE = (rf"(?:m{_A}k(?:t{_A}(?:n|d{_I}r)?|l{_A}|s{_I}z{_I}n|s{_I}z)?|m{_A}|y?{_A}n|{_D}{_I}[kğ]|"
              rf"y?{_A}c{_A}[kğ]|y?{_I}p|y?{_A}r{_A}k|y?{_I}nc{_A}|m{_A}d{_A}n|{_D}{_I}kç{_A}|y?{_A}l{_I}|"
              rf"m{_A}ks{_I}z{_I}n|{_A}?r|m{_A}z|m{_I}ş|d{_A}n)")
#: the action noun -(y)Iş with a possessive is a nominalised clause ("şarkıyı söyleyişi": her singing of the song);
#: without one it is a noun (giriş, çıkış), and simplemma's headword refuses a lexicalised one with a possessive
_ACTION = rf"y?{_I}ş(?:l{_A}r)?(?:{_I}m{_I}z|{_I}n{_I}z|{_I}m|{_I}n|{_I}|s{_I}|l{_A}r{_I})(?:n?{_D}{_A}n|n?{_D}{_A}|n?{_I}n|n?{_I}|n?{_A}|yl{_A})?"
#: what may follow a subordinator: plural, possessive, case (and the copula -DIr)
_NOMINAL = (rf"(?:l{_A}r)?(?:{_I}m{_I}z|{_I}n{_I}z|{_I}m|{_I}n|s{_I}|{_I}|l{_A}r{_I})?"
            rf"(?:n?{_D}{_A}n|n?{_D}{_A}|n?{_I}n|[ny]?{_I}|[ny]?{_A}|yl{_A}|l{_A}|c{_A}|k{_I}|{_D}{_I}r)?")
#: imperative and optative endings (the bare optative -(y)A only after a plain stem: after a voice suffix it is
#: the dative of an action noun, "girişe")
_IMPERATIVE_VOICED = rf"(?:y?{_I}n{_I}z|y?{_I}n|s{_I}nl{_A}r|s{_I}n|y?{_A}y{_I}m|y?{_A}l{_I}m|y?{_A}s{_I}n)"
_IMPERATIVE = rf"(?:{_IMPERATIVE_VOICED}|y?{_A})"

_FINITE = rf"(?:{_TENSE1}(?:l{_A}r)?(?:{_COPULA})?(?:{_PERSON1}|{_PERSON2})?|{_TENSE2}(?:{_COPULA})?{_PERSON2}?)"
_CHAIN = rf"(?:{_MODAL}(?:{_FINITE}|{_NONFINITE}{_NOMINAL}|{_IMPERATIVE}|{_ACTION})|{_COMPOUND})"
_FINITE_ONLY = re.compile(rf"{_MODAL}{_FINITE}")
_CHAINS = {k: re.compile(rf"(?:{v})?{_CHAIN}") for k, v in _PASSIVE.items()}
_VOICED_CHAIN = re.compile(rf"(?P<voice>{_VOICE}){_MODAL}(?:{_FINITE}|{_NONFINITE}{_NOMINAL}|{_IMPERATIVE_VOICED})")
_VOICE_ONLY = re.compile(_VOICE)
#: the clitic de / da ("too", "and") is spelled as demek's stem: never its imperative
_CLITICS = frozenset({"de", "da"})
_INFINITIVE = ("mak", "mek")
_VOWELS = "aeıioöuü"


def tr_normalise(word: str) -> str:
    """``word`` lower-cased the Turkish way: the dotted capital İ lowers to ``i`` (Python gives ``i̇``)."""
    return word.replace("İ", "i").replace("I", "ı").lower().replace("\u0307", "")


@lru_cache(maxsize=8192)
def tr_stems(lemma: str) -> tuple[tuple[str, str], ...]:
    """The stems of the Turkish infinitive ``lemma`` with their kind: ``stem`` (``gitmek`` -> ``git``),
    ``voiced`` (``gid``: before a vowel), ``raised`` (``di``, ``yi`` of ``demek``, ``yemek``) and
    ``clipped`` (``bekl``: only before the progressive -Iyor); ``()`` when ``lemma`` is not an
    infinitive in -mak / -mek."""
    lemma = tr_normalise(lemma.strip())
    if not lemma.endswith(_INFINITIVE) or len(lemma) < 4:
        return ()
    stem = lemma[:-3]
    out = [(stem, "stem")]
    if stem.endswith("t") and stem[-2:-1] in tuple(_VOWELS):
        out.append((stem[:-1] + "d", "voiced"))      # gid-iyor, ed-er, kaybed-ildi
    if stem in ("de", "ye"):
        out.append((stem[0] + "i", "raised"))        # di-yor, yi-yecek
    elif stem[-1] in "ae" and len(stem) > 2:
        out.append((stem[:-1], "clipped"))           # bekl-iyor, anl-ıyor
    return tuple(out)


def tr_form_of(token: str, lemma: str) -> bool:
    """Whether ``token`` is a form of the Turkish verb ``lemma`` (an infinitive in -mak / -mek): one of
    its stems followed by a verbal suffix chain (see the module doc). False for any other lemma."""
    token = tr_normalise(token)
    for stem, kind in tr_stems(lemma):
        if not token.startswith(stem):
            continue
        rest = token[len(stem):]
        if not rest:
            if kind == "stem" and stem not in _CLITICS:
                return True       # the imperative: gel! (its place decides: SentenceContext.finite_blocker)
            continue
        if kind == "voiced" and rest[0] not in _VOWELS:
            continue
        if kind == "clipped" and not rest.startswith(("ıyor", "iyor", "uyor", "üyor")):
            continue
        last = stem[-1]
        chain = _CHAINS["vowel" if last in _VOWELS else "l" if last == "l" else "consonant"]
        if chain.fullmatch(rest):
            return True
        if kind in ("stem", "voiced") and (voiced := _VOICED_CHAIN.fullmatch(rest)) \
                and stem + voiced.group("voice") not in _lexical_voice():
            return True
    return False


def tr_bare_aorist(token: str, lemma: str) -> bool:
    """Whether ``token`` is the Turkish ``lemma``'s stem plus the bare aorist -(A/I)r and nothing after it
    (``gelir``, ``yazar``, ``okur``: Göksel & Kerslake 2005, § 8.2.3.4), the form many agent and result nouns
    are spelled as (*gelir* "income", *yazar* "writer", *okur* "reader")."""
    token = tr_normalise(token)
    for stem, kind in tr_stems(lemma):
        rest = token[len(stem):] if token.startswith(stem) and kind in ("stem", "voiced") else None
        if rest and re.fullmatch(r"r" if stem[-1] in _VOWELS else rf"{_A}r|{_I}r", rest) \
                and (kind == "stem" or rest[0] in _VOWELS):
            return True
    return False


#: what a finite aorist takes after its -(A/I)r: a copula (-DI, -mIş, -sA, -DIr, -ken) and a person ending (Göksel &
#: Kerslake 2005, § 8.3-8.4); anything else after the aorist is a nominal suffix of the agent / result noun spelled
#: like it (gider "expense": giderleri, gelir "income": gelirimiz)
_AORIST_VERBAL = re.compile(rf"(?:{_D}{_I}|m{_I}ş|s{_A}|{_D}{_I}r|ken)?(?:{_I}m|s{_I}n|{_I}z|s{_I}n{_I}z|l{_A}r|m|n|k|n{_I}z)?"
                            rf"(?:{_D}{_I}|m{_I}ş|s{_A})?")


def tr_aorist_nominal(token: str, lemma: str) -> str:
    """What ``token``, the Turkish ``lemma``'s stem plus the aorist -(A/I)r, carries after the aorist when that is no
    finite verb's (see ``_AORIST_VERBAL``) but a chain of ``_NOMINAL`` suffixes: a plural, possessive or case suffix of the noun spelled like the
    aorist ("giderleri" -> "leri", "gelirimiz" -> "imiz"); ``"m"`` style ambiguity is the caller's: the 1st person
    -Im ("gelirim": I come / my income) counts as verbal here. ``""`` where the token is no such form."""
    token = tr_normalise(token)
    for stem, kind in tr_stems(lemma):
        if not token.startswith(stem) or kind not in ("stem", "voiced"):
            continue
        rest = token[len(stem):]
        aorist = re.match(r"r" if stem[-1] in _VOWELS else rf"{_A}r|{_I}r", rest)
        if aorist is None or (kind == "voiced" and rest[0] not in _VOWELS):
            continue
        after = rest[aorist.end():]
        if after and not _AORIST_VERBAL.fullmatch(after) and re.fullmatch(_NOMINAL, after):
            return after   # a plural, possessive or case chain, not a converb ("koşarak") or a causative ("yatırıldı")
    return ""


def tr_lexical_voice(token: str, lemma: str) -> str:
    """The ``lexical_voice`` verb stem (a verb of its own, ``prompts/verbs/morphology.toml``) that ``token``, a
    voice form of ``lemma``'s stem, is a form of (``çalıştı`` of çalmak -> ``çalış``), or ``""``."""
    token = tr_normalise(token)
    for stem, kind in tr_stems(lemma):
        if kind in ("stem", "voiced") and token.startswith(stem) \
                and (voiced := _VOICED_CHAIN.fullmatch(token[len(stem):])) \
                and stem + voiced.group("voice") in _lexical_voice():
            return stem + voiced.group("voice")
    return ""


@lru_cache(maxsize=1)
def _lexical_voice() -> frozenset[str]:
    """The ``lexical_voice`` stems of Turkish (``prompts/verbs/morphology.toml``)."""
    return morphology("tr").lexical_voice


def tr_other_lemma(token: str, lemma: str, lemmatize: Callable[[str], str], known: Callable[[str], bool]) -> str:
    """The dictionary word a suffix-chain form ``token`` of ``lemma`` belongs to instead, or ``""``.

    ``lemmatize`` / ``known`` are a dictionary's (simplemma's Turkish: it gives verb stems, ``yazdı`` -> ``yaz``).
    Where the dictionary knows ``token`` and gives it a lemma longer than the verb's stem that begins with
    it, the word is that lexicalised noun, adjective or longer verb (``girişte`` -> ``giriş``, ``okuldan`` ->
    ``okul``, ``dondurma`` -> ``dondurma``, ``bulunuyor`` -> ``bulun``): this is how fbagent decides when a
    root + suffix is a separate lemma, consistently: exactly when the dictionary lists it. Kept as the verb: a
    headword that is the lemma's stem plus voice suffixes and not listed in ``lexical_voice`` (``içirdi`` ->
    ``içir``: the causative of içmek, fbagent's voice convention; ``bulun`` is listed, a verb of its own);
    a lemma that is itself a finite form of the verb (``gelecek``, ``gelir``: future and aorist, also nouns;
    the context is not read).
    """
    word = tr_normalise(token)
    if not known(word):
        return ""
    other = tr_normalise(lemmatize(word))
    stems = tr_stems(lemma)
    if other in {stem for stem, _kind in stems}:
        return ""
    if other != word and other not in _lexical_voice() and any(other.startswith(stem) and _VOICE_ONLY.fullmatch(other[len(stem):])
                                             for stem, kind in stems if kind in ("stem", "voiced")):
        return ""   # simplemma's headword is the lemma in another voice (içir, giyin, öpüş): the lemma's form
    for stem, _kind in stems:
        if len(other) > len(stem) and other.startswith(stem) and other != tr_normalise(lemma):
            if other == word and _FINITE_ONLY.fullmatch(other[len(stem):]):
                return ""
            return other
    return ""
