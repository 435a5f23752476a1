"""The verb gate's dev-set floor, shared by the issue-41 test files (tests/test_verb_gate_issue41*.py).

A dev set (``tests/data/verb_sentences_<name>.jsonl``, one sentence a line: lang, lemma, sentence, verb_form,
present, kind, set) was tuned on, so its score is a floor against regressions, not a fresh measure. Each test file
states only its set and its floors: ``{lang: (found, refused)}``, a number the least count of verbs found (present
rows) or non-uses refused (absent rows), ``ALL`` every one of them. :func:`assert_floor` scores one language with
:func:`fbagent.checks.verb_match.find_verb` and skips, naming the package, where the language's segmenter is missing.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

import pytest

from fbagent.checks.verb_match import find_verb

DATA = Path(__file__).resolve().parent / "data"
#: the segmenting analysers of the languages written without spaces (their extras may be absent)
SEGMENTERS = {"zh": "jieba", "ja": "fugashi", "ko": "kiwipiepy"}
#: a floor that asks for every row of its kind
ALL = -1


class VerbRow(TypedDict):
    """One dev-set sentence (the JSONL line)."""

    lang: str
    lemma: str
    sentence: str
    verb_form: str
    present: bool
    kind: str
    set: str


@lru_cache(maxsize=32)
def dev_rows(name: str) -> tuple[VerbRow, ...]:
    """The rows of ``tests/data/verb_sentences_<name>.jsonl`` (``name``: ``issue41d_dev``), blank lines skipped."""
    text = (DATA / f"verb_sentences_{name}.jsonl").read_text("utf-8")
    return tuple(VerbRow(**json.loads(line)) for line in text.splitlines() if line.strip())


def installed(lang: str) -> bool:
    """Whether ``lang``'s segmenter (jieba, fugashi, kiwipiepy) imports; True for the languages that need none."""
    if lang not in SEGMENTERS:
        return True
    try:
        __import__(SEGMENTERS[lang])
    except ImportError:
        return False
    return True


def score(name: str, lang: str, *, declared_form: bool = True) -> tuple[int, int, int, int]:
    """``(found, present, refused, absent)`` for ``lang`` on dev set ``name``: verbs found of the present rows and
    non-uses refused of the absent rows; ``declared_form``: pass each row's ``verb_form`` to ``find_verb``."""
    rows = [r for r in dev_rows(name) if r["lang"] == lang]
    found = present = refused = absent = 0
    for r in rows:
        hit = find_verb(r["sentence"], r["lemma"], lang, r["verb_form"] if declared_form else None).found
        if r["present"]:
            present, found = present + 1, found + hit
        else:
            absent, refused = absent + 1, refused + (not hit)
    return found, present, refused, absent


def assert_floor(name: str, lang: str, floor: tuple[int, int], *, declared_form: bool = True) -> None:
    """Assert that ``lang`` on dev set ``name`` finds at least ``floor[0]`` verbs and refuses at least ``floor[1]``
    non-uses (:data:`ALL`: every one); skip naming the package where ``lang``'s segmenter is not installed."""
    if not installed(lang):
        pytest.skip(f"the analyser of {lang!r} ({SEGMENTERS[lang]}) is not installed")
    found, present, refused, absent = score(name, lang, declared_form=declared_form)
    need_found = present if floor[0] == ALL else floor[0]
    need_refused = absent if floor[1] == ALL else floor[1]
    assert present > 0 or absent > 0, f"{name} has no {lang} rows"
    assert found >= need_found and refused >= need_refused, \
        f"{name} {lang}: found {found}/{present} (floor {need_found}), refused {refused}/{absent} (floor {need_refused})"


def assert_kind(sentence: str, lemma: str, lang: str, present: bool, why: str, surface: str) -> None:
    """Assert the gate's answer on one hand-written ``sentence``: found or not as ``present``, the note containing
    ``why`` and the matched ``surface`` ("" when none); skip naming the package where ``lang``'s segmenter is not
    installed."""
    if not installed(lang):
        pytest.skip(f"the analyser of {lang!r} ({SEGMENTERS[lang]}) is not installed")
    m = find_verb(sentence, lemma, lang)
    assert m.found == present, m
    assert why in m.note, m.note
    assert (m.surface or "") == surface, m
