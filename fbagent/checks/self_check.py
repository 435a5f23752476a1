"""Self-checks of generated items (no LLM): FrameBench steps 1-2 quality gates.

Used by the entry graph (:mod:`fbagent.agents.entry_graph`): ``self_check`` after
``generate_base`` and the extension checks after ``extend``. Every check returns
plain data (JSON-ready dicts) so the item row keeps every value and reason.

Lexical similarity (base pair, verb masked)
-------------------------------------------
FrameBench (Yano and Sasano 2026, sec. 3.1) asks that S_A and S_B share their
content words as far as possible, so that only the frame of the verb tells
them apart. We measure this as a normalized edit similarity over units::

    sim(S_A, S_B) = 1 - lev(u(S_A), u(S_B)) / max(|u(S_A)|, |u(S_B)|)

where ``lev`` is the Levenshtein distance over *sequences of units* (insert,
delete and substitute cost 1), and ``u(S)`` is:

- for languages written with spaces: the word tokens of S (Unicode ``\\w+``) as
  lemmas where simplemma has a dictionary, a German or Dutch compound noun as its
  parts (HanTa), Korean as Kiwi's morphemes; every token of the target verb (found
  by lemma match, below) replaced by one mask unit ``<V>``;
- for Chinese and Japanese: the words of jieba / fugashi; for the other languages
  written without spaces (``th``, ``lo``, ``km``, ``my``, and zh / ja without their
  segmenter): the characters of S without whitespace and punctuation; the verb's
  span is one mask unit (:mod:`fbagent.checks.similarity_units`).

``sim`` lies in [0, 1]; 1 means identical apart from the verb's inflection,
0 means no unit in common in order. Two empty sequences give 1. The base pair
passes when ``sim >= --similarity-threshold`` (default 0.5). An extended
sentence S_x' must *not* be a near-copy of S_x: ``sim(S_x', S_x) <
near_copy_threshold`` (default 0.7).

Verb presence (lemma match, not substring)
------------------------------------------
:func:`find_verb` (from :mod:`fbagent.checks.verb_match`, which documents every
method): a token counts as the verb when it is the lemma, when the language's
lemmatiser maps it to the lemma (lemminflect and simplemma for English,
simplemma for 50+ languages, fugashi/UniDic for Japanese when installed), or
when it is a generated form of the lemma (weak-verb rules for Dutch and
German); separable verbs (Dutch, German) also match split ("vat ... samen");
multi-word LUs (``lead (to)``, ``take off``) need every required part, in
order, in one clause. Where a part-of-speech analyser serves the language
(HanTa for de/nl/en, spaCy for fr, fugashi for ja: :mod:`fbagent.checks.analysers`)
a noun spelled like the verb never counts. A language without a lemmatiser
falls back to the generator's declared ``verb_form`` (:func:`lemmatizer_note`
says so).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from fbagent.checks.defaults import DEFAULT_NEAR_COPY_THRESHOLD, DEFAULT_SIMILARITY_THRESHOLD
from fbagent.checks.similarity_units import MASK, similarity_units
from fbagent.checks.verb_match import (
    NO_SPACE_LANGS,
    Token,
    VerbMatch,
    find_verb,
    lemmatizer_note,
    token_is_lemma,
    token_lemmas,
    tokenize,
    written_without_spaces,
)
from fbagent.languages import base_lang
from fbagent.prompting.patterns import question_pattern

QUESTION_MARKS = ("?", "？", "؟", ";", "՞")

_WORD_RE = re.compile(r"\w+", re.UNICODE)

__all__ = [
    "MASK", "NO_SPACE_LANGS", "Token", "VerbMatch", "find_verb", "lemmatizer_note", "token_is_lemma", "token_lemmas",
    "tokenize", "written_without_spaces",
]


# --------------------------------------------------------------------------- units


def levenshtein(a: Sequence[str], b: Sequence[str]) -> int:
    """Edit distance between two sequences (unit cost insert/delete/substitute).

    The common prefix and suffix are dropped first (they never change the distance; a base pair shares
    most of its words), then the usual two-row dynamic programme runs on what is left.
    """
    lo, hi_a, hi_b = 0, len(a), len(b)
    while lo < hi_a and lo < hi_b and a[lo] == b[lo]:
        lo += 1
    while hi_a > lo and hi_b > lo and a[hi_a - 1] == b[hi_b - 1]:
        hi_a -= 1
        hi_b -= 1
    a, b = a[lo:hi_a], b[lo:hi_b]
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        left = i
        for j, y in enumerate(b):
            best = previous[j] + (x != y)       # substitute (or keep)
            if previous[j + 1] + 1 < best:      # delete
                best = previous[j + 1] + 1
            if left + 1 < best:                 # insert
                best = left + 1
            current.append(best)
            left = best
        previous = current
    return previous[-1]


def normalized_similarity(a: list[str], b: list[str]) -> float:
    """``1 - lev(a, b) / max(len(a), len(b))`` in [0, 1]; 1.0 for two empty sequences."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    return 1.0 - levenshtein(a, b) / longest


def masked_units(sentence: str, lang: str, match: VerbMatch) -> list[str]:
    """Units of ``sentence`` with the verb's masked spans replaced by one ``<V>`` each: language-aware
    (lemmas, compound parts, segmenter words; :func:`fbagent.checks.similarity_units.similarity_units`)."""
    return similarity_units(sentence, lang, match)


def lexical_similarity(s1: str, s2: str, lemma: str, lang: str) -> float:
    """Normalized edit similarity of two sentences with the verb masked (formula in the module doc)."""
    m1, m2 = find_verb(s1, lemma, lang), find_verb(s2, lemma, lang)
    return normalized_similarity(masked_units(s1, lang, m1), masked_units(s2, lang, m2))


# --------------------------------------------------------------------------- questions
_PLACEHOLDER = re.compile(r"[\[{]\s*condition\s*[\]}]", re.IGNORECASE)


def _name_variants(name: str) -> set[str]:
    return {name, name.replace("_", " "), name.replace("_", "-")}


@lru_cache(maxsize=4096)
def _whole_word(text: str, flags: int) -> re.Pattern[str]:
    """``text`` as a whole word (no word character on either side), compiled once per (text, flags)."""
    return re.compile(r"(?<!\w)" + re.escape(text) + r"(?!\w)", flags)


def check_question(question: str, lang: str, frame_names: list[str], fe_names: list[str]) -> dict[str, Any]:
    """Check that the question follows the language's pattern and names no frame or FE.

    Returns ``{"passed", "condition", "question_four_choice", "reasons"}``. Frame names
    (also with ``_`` as space) count case-insensitively as whole words; FE names only
    as written (capitalised, e.g. ``Goal``), so that ordinary words stay allowed.
    """
    reasons: list[str] = []
    question = (question or "").strip()
    pattern = question_pattern(lang)
    condition: str | None = None
    regex = pattern.regex()
    if not question:
        reasons.append("the question is empty")
    elif _PLACEHOLDER.search(question):
        reasons.append("the question still holds the placeholder [condition]: write the actual condition")
    elif regex is not None:
        m = regex.match(question)
        if m and m.group("condition").strip():
            condition = m.group("condition").strip()
        else:
            reasons.append(f"the question does not follow the pattern {pattern.question!r}")
    elif not question.endswith(QUESTION_MARKS):
        reasons.append("the question does not end with a question mark")
    else:
        condition = question
    for name in frame_names:
        for variant in _name_variants(name):
            if _whole_word(variant, re.IGNORECASE).search(question):
                reasons.append(f"the question names the frame {name!r}")
                break
    for name in fe_names:
        for variant in _name_variants(name):
            if len(variant) > 2 and _whole_word(variant, 0).search(question):
                reasons.append(f"the question names the frame element {name!r}")
                break
    four = pattern.four_choice.format(condition=condition) if (condition and pattern.four_choice and regex) else None
    return {"passed": not reasons, "condition": condition, "question_four_choice": four, "reasons": reasons}


# --------------------------------------------------------------------------- step checks


def _normalized(sentence: str) -> str:
    return " ".join(_WORD_RE.findall(sentence.lower()))


def self_check(
    base: dict[str, Any],
    *,
    lemma: str,
    lang: str,
    frame_names: list[str],
    fe_names: list[str],
    similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD,
    verb_matches: dict[str, VerbMatch] | None = None,
) -> dict[str, Any]:
    """Self-check of a base pair (FrameBench step 1 output; no LLM).

    ``verb_matches``: the verb of ``sentence_a`` / ``sentence_b`` as another check found it
    (``--verb-check llm``: :mod:`fbagent.checks.llm_verb_check`), used instead of :func:`find_verb`.

    ``base`` has the :class:`fbagent.schemas.BasePair` fields. Checks: verb present in
    S_A and S_B (lemma match), sentences differ, lexical similarity (verb masked)
    >= ``similarity_threshold``, question well formed and naming no frame/FE; for
    Japanese the verb is sentence-final and perfective (:func:`japanese_final_perfective`).

    Returns ``{"passed", "reasons": [str], "checks": {name: {...}}, "lexical_similarity",
    "condition", "question_four_choice", "target_spans": {"sentence_a": [s, e], ...},
    "verb_forms": {...}}``.
    """
    reasons: list[str] = []
    checks: dict[str, Any] = {}
    spans: dict[str, list[int] | None] = {}
    forms: dict[str, str | None] = {}
    matches = {}
    for key, form_key in (("sentence_a", "verb_form_a"), ("sentence_b", "verb_form_b")):
        sentence = base.get(key) or ""
        match = (verb_matches or {}).get(key) or find_verb(sentence, lemma, lang, base.get(form_key))
        matches[key] = match
        spans[key] = list(match.span) if match.found and match.span else None
        forms[key] = _verb_form(sentence, base.get(form_key), match)
        checks[f"verb_present_{key}"] = {"passed": match.found, "method": match.method, "surface": match.surface}
        if not match.found:
            reasons.append(_missing_verb(key, lemma, match))
        if base_lang(lang) == "ja" and match.found:
            form_ok, why = japanese_final_perfective(sentence, match)
            checks[f"final_perfective_{key}"] = {"passed": form_ok}
            if not form_ok:
                reasons.append(f"{key}: {why}")
    differ = _normalized(base.get("sentence_a", "")) != _normalized(base.get("sentence_b", ""))
    checks["sentences_differ"] = {"passed": differ}
    if not differ:
        reasons.append("sentence_a and sentence_b are the same sentence")
    sim = normalized_similarity(
        masked_units(base.get("sentence_a", ""), lang, matches["sentence_a"]),
        masked_units(base.get("sentence_b", ""), lang, matches["sentence_b"]),
    )
    sim_ok = sim >= similarity_threshold
    checks["lexical_similarity"] = {"passed": sim_ok, "value": round(sim, 4), "threshold": similarity_threshold}
    if not sim_ok:
        reasons.append(
            f"sentence_a and sentence_b share too few words besides the verb (similarity {sim:.2f} < {similarity_threshold}); "
            "keep the other words as similar as possible"
        )
    q = check_question(base.get("question", ""), lang, frame_names, fe_names)
    checks["question"] = {"passed": q["passed"], "reasons": q["reasons"]}
    reasons.extend(q["reasons"])
    return {
        "passed": not reasons,
        "reasons": reasons,
        "checks": checks,
        "lexical_similarity": sim,
        "condition": q["condition"] or (base.get("condition") or None),
        "question_four_choice": q["question_four_choice"],
        "target_spans": spans,
        "verb_forms": forms,
    }


def japanese_final_perfective(sentence: str, match: VerbMatch) -> tuple[bool, str]:
    """FrameBench's Japanese form: the verb ends the sentence, in the perfective (``…た`` / ``…だ``).

    Trailing punctuation and whitespace are ignored; the verb's span may be followed by
    at most 3 more characters (auxiliaries such as ``ました``). Returns ``(ok, reason)``.
    """
    body = sentence.rstrip()
    while body and unicodedata.category(body[-1]).startswith("P"):
        body = body[:-1].rstrip()
    if not match.span or len(body) - match.span[1] > 3:
        return False, "the verb must come at the end of the sentence"
    if not body.endswith(("た", "だ")):
        return False, "the verb must be in the perfective (past) form, ending in た or だ"
    return True, ""


def _missing_verb(key: str, lemma: str, match: VerbMatch) -> str:
    """The reason (and the generator's feedback) for a sentence without the verb: what was seen and why refused."""
    why = f": {match.note}" if match.note else ""
    return f"{key} does not contain the verb '{lemma}' (any inflected form){why}"


def _verb_form(sentence: str, claimed: str | None, match: VerbMatch) -> str | None:
    if claimed and claimed.strip() and claimed.strip() in sentence:
        return claimed.strip()
    return match.surface


def extension_check(
    extended: str,
    original: str,
    *,
    key: str,
    lemma: str,
    lang: str,
    verb_form: str | None = None,
    near_copy_threshold: float = DEFAULT_NEAR_COPY_THRESHOLD,
    others: list[str] | None = None,
    verb_match: VerbMatch | None = None,
) -> dict[str, Any]:
    """Check one extended sentence S_x' against its base sentence S_x (FrameBench step 2).

    ``verb_match``: the verb of ``extended`` as another check found it (``--verb-check llm``), used
    instead of :func:`find_verb`.

    Checks: verb present (lemma match); not a near-copy (``lexical_similarity(S_x', S_x) <
    near_copy_threshold``); differs from every sentence in ``others``.
    Returns ``{"passed", "reasons", "checks", "similarity_to_base", "target_span", "verb_form"}``.
    """
    reasons: list[str] = []
    match = verb_match or find_verb(extended, lemma, lang, verb_form)
    if not match.found:
        reasons.append(_missing_verb(key, lemma, match))
    base_match = find_verb(original, lemma, lang)
    sim = normalized_similarity(masked_units(extended, lang, match), masked_units(original, lang, base_match))
    if sim >= near_copy_threshold:
        reasons.append(
            f"{key} is a near-copy of its base sentence (similarity {sim:.2f} >= {near_copy_threshold}); "
            "use different content words and structure"
        )
    for other in others or []:
        if _normalized(other) == _normalized(extended):
            reasons.append(f"{key} repeats another sentence of the item")
            break
    return {
        "passed": not reasons,
        "reasons": reasons,
        "checks": {
            "verb_present": {"passed": match.found, "method": match.method, "surface": match.surface},
            "not_near_copy": {"passed": sim < near_copy_threshold, "value": round(sim, 4), "threshold": near_copy_threshold},
        },
        "similarity_to_base": sim,
        "target_span": list(match.span) if match.found and match.span else None,
        "verb_form": _verb_form(extended, verb_form, match),
    }
