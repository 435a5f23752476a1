"""Shortcut baselines: each picks one of a problem's two sentences without reading it for meaning.

A problem (:class:`fbagent.eval.problems.Problem`) shows a question and two sentences; exactly one
is correct (gold "Sentence A only" or "Sentence B only"). A baseline scores both sentences and
picks the higher (``1`` = the first shown, ``2`` = the second, ``0`` = a tie). Chance for a
baseline is 50% (it picks one of the two sentences; the four-choice chance of a model is 25%).

- ``word_overlap``: more question tokens match the sentence (:func:`fbagent.audit.text.overlap`);
- ``length``: the longer sentence (characters);
- ``verb_form``: the sentence whose verb form (the token that lemmatises to the verb, else the
  token sharing the verb's first three letters) is more often the correct one in the *other*
  entries (leave-one-entry-out rate, Laplace-smoothed), the hypothesis-only idea of Poliak et al.
  2018 applied to the verb;
- ``encoder_similarity``: the sentence whose embedding is closer to the question's (cosine; the
  sentence encoder of the verifier);
- ``frame_overlap``: the question shares more tokens with frame A's name and definition than with
  frame B's (so it names part of the gold frame); it picks the gold sentence when that holds, the
  other when the reverse holds, and ties otherwise (the same pick for the entry's every problem).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from fbagent.audit.text import lemma_set, overlap, tokens
from fbagent.eval.entry import Entry
from fbagent.eval.problems import Problem

Picks = list[int]   # per problem: 1 (first shown), 2 (second shown), 0 (tie)


if TYPE_CHECKING:
    import numpy as np

#: texts -> unit-length float rows, shape (len(texts), dim): the sentence encoder of the encoder baseline
Embed: TypeAlias = "Callable[[list[str]], np.ndarray]"


@dataclass
class Context:
    """What the baselines may read besides the problems: ``entries`` by id, frame ``definitions``
    by frame name (empty when unknown), and ``embed`` (texts -> unit-length rows; ``None``: no encoder)."""

    entries: dict[str, Entry]
    definitions: dict[str, str] = field(default_factory=dict)
    embed: Embed | None = None


@dataclass(frozen=True)
class Baseline:
    """One baseline: ``name``, what it picks (``rule``) and its scorer ``pick(problems, ctx) -> Picks``
    (``None`` when the data lack what it needs, with ``needs`` saying what)."""

    name: str
    rule: str
    needs: str
    pick: Callable[[Sequence[Problem], Context], Picks | None]


def _higher(a: float, b: float) -> int:
    return 1 if a > b else 2 if b > a else 0


def word_overlap(problems: Sequence[Problem], ctx: Context) -> Picks:
    """More question tokens (lemmas) found in the sentence."""
    return [_higher(overlap(p.question, p.first, p.language), overlap(p.question, p.second, p.language))
            for p in problems]


def length(problems: Sequence[Problem], ctx: Context) -> Picks:
    """The longer sentence, in characters."""
    return [_higher(len(p.first), len(p.second)) for p in problems]


def verb_form_of(sentence: str, verb: str, lang: str) -> str:
    """The verb's surface form in ``sentence`` (lower case): the first token whose lemmas include the
    verb's, else the first sharing its first three letters, else ``""`` (not found)."""
    words = tokens(sentence, lang)
    lemmas = lemma_set(verb, lang) if verb else frozenset()
    for tok in words:
        if lemma_set(tok, lang) & lemmas:
            return tok
    stem = verb.lower()[:3]
    return next((tok for tok in words if stem and tok.startswith(stem)), "")


def verb_form(problems: Sequence[Problem], ctx: Context) -> Picks:
    """The form more often correct in the other entries (leave-one-entry-out, (correct + 1) / (shown + 2))."""
    forms = {}
    shown: Counter[str] = Counter()
    right: Counter[str] = Counter()
    own: dict[str, tuple[Counter[str], Counter[str]]] = {}
    for p in problems:
        pair = (verb_form_of(p.first, p.verb, p.language), verb_form_of(p.second, p.verb, p.language))
        forms[p.problem_id] = pair
        o_shown, o_right = own.setdefault(p.entry_id, (Counter(), Counter()))
        for pos, form in enumerate(pair, start=1):
            shown[form] += 1
            o_shown[form] += 1
            if pos == p.correct_position:
                right[form] += 1
                o_right[form] += 1

    def rate(form: str, entry_id: str) -> float:
        o_shown, o_right = own[entry_id]
        return (right[form] - o_right[form] + 1) / (shown[form] - o_shown[form] + 2)

    return [_higher(rate(forms[p.problem_id][0], p.entry_id), rate(forms[p.problem_id][1], p.entry_id))
            for p in problems]


def encoder_similarity(problems: Sequence[Problem], ctx: Context) -> Picks | None:
    """The sentence closer to the question by cosine of the encoder's unit-length embeddings."""
    if ctx.embed is None:
        return None
    texts = sorted({t for p in problems for t in (p.question, p.first, p.second)})
    rows = ctx.embed(texts)
    vec = {t: rows[i] for i, t in enumerate(texts)}
    return [_higher(float(vec[p.question] @ vec[p.first]), float(vec[p.question] @ vec[p.second]))
            for p in problems]


def frame_text(name: str, definitions: dict[str, str]) -> str:
    """A frame's name (``_`` as spaces) and its definition where known."""
    return f"{name.replace('_', ' ')} {definitions.get(name, '')}".strip()


def frame_overlap(problems: Sequence[Problem], ctx: Context) -> Picks | None:
    """Gold when the question overlaps frame A's name + definition more than frame B's."""
    if not all(ctx.entries[p.entry_id].frame_a and ctx.entries[p.entry_id].frame_b for p in problems):
        return None
    out = []
    for p in problems:
        e = ctx.entries[p.entry_id]
        a = overlap(p.question, frame_text(e.frame_a, ctx.definitions), p.language)
        b = overlap(p.question, frame_text(e.frame_b, ctx.definitions), p.language)
        lean = _higher(a, b)   # 1: frame A, 2: frame B
        out.append(0 if lean == 0 else p.correct_position if lean == 1 else 3 - p.correct_position)
    return out


BASELINES: tuple[Baseline, ...] = (
    Baseline("word_overlap", "more question words (lemmas) in the sentence", "", word_overlap),
    Baseline("length", "the longer sentence (characters)", "", length),
    Baseline("verb_form", "the verb form more often correct in the other entries", "", verb_form),
    Baseline("encoder_similarity", "the sentence closer to the question (encoder cosine)",
             "the sentence encoder (not loaded: --no-encoder, or the card of an export)", encoder_similarity),
    Baseline("frame_overlap", "question overlaps frame A's name/definition more than B's",
             "frame names (fbagent export or --run)", frame_overlap),
)
