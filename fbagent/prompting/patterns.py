"""The fixed question forms of each language (``prompts/generate/patterns.toml``).

FrameBench's questions follow one pattern per language ("Which sentence implies that {condition}?",
Yano and Sasano 2026, sec. 3.1), with a four-choice form ("Select all sentences where {condition}.").
The pattern is prompt data: the generation prompts show it (:mod:`fbagent.prompting.messages`) and
the self-check holds a generated question against it (:func:`fbagent.checks.self_check.check_question`).
A language without an entry gets an empty pattern (the generic check: a question mark at the end).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from fbagent.languages import base_lang


@dataclass(frozen=True)
class QuestionPattern:
    """The fixed question forms of one language (``prompts/generate/patterns.toml``)."""

    lang: str
    question: str | None  # e.g. "Which sentence implies that {condition}?"
    four_choice: str | None  # e.g. "Select all sentences where {condition}."
    question_regex: str | None = None

    def regex(self) -> re.Pattern[str] | None:
        """Compiled regex with a named group ``condition``; None when the language has no pattern (built once
        per pattern)."""
        return _pattern_regex(self.question, self.question_regex)


@lru_cache(maxsize=256)
def _pattern_regex(question: str | None, question_regex: str | None) -> re.Pattern[str] | None:
    if question_regex:
        return re.compile(question_regex, re.IGNORECASE | re.DOTALL)
    if not question:
        return None
    before, _, after = question.partition("{condition}")
    return re.compile(
        "^\\s*" + _loose(before) + "(?P<condition>.+?)" + _loose(after) + "\\s*$", re.IGNORECASE | re.DOTALL
    )


def _loose(text: str) -> str:
    out = []
    for ch in text:
        if ch.isspace():
            out.append("\\s*")
        elif ch in "?？":
            out.append("[?？]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


@lru_cache(maxsize=1)
def _patterns_file() -> dict[str, Any]:
    node = resources.files("fbagent.prompts").joinpath("generate", "patterns.toml")
    return tomllib.loads(node.read_text(encoding="utf-8"))


def patterns_version() -> str:
    """The ``version`` of ``prompts/generate/patterns.toml`` (recorded with each run)."""
    return str(_patterns_file().get("version", "unversioned"))


@lru_cache(maxsize=256)
def question_pattern(lang: str) -> QuestionPattern:
    """The question forms for ``lang``; languages without an entry get an empty pattern (generic check).
    Cached per ``lang`` (the patterns file is read once)."""
    entry = _patterns_file().get("languages", {}).get(base_lang(lang), {})
    return QuestionPattern(
        lang=base_lang(lang),
        question=entry.get("question"),
        four_choice=entry.get("four_choice"),
        question_regex=entry.get("question_regex"),
    )
