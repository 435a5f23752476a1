"""Pydantic models for every structured LLM output (one module, used through instructor).

A response that fails validation is re-asked by instructor with the validation
error; after the last attempt the call is recorded as a failure (never a crash).
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


def _non_blank(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("must not be empty")
    return value


class BasePair(BaseModel):
    """FrameBench step 1 output: the question and the base pair (S_A evokes frame A, S_B frame B)."""

    condition: str = Field(
        description="The implicit but essential difference, phrased to fill the question pattern, "
        "e.g. 'the speaker physically moved away' (no frame or frame element names)."
    )
    question: str = Field(description="The two-choice question in the language's fixed pattern.")
    sentence_a: str = Field(description="Sentence using the verb in frame A; answers the question.")
    sentence_b: str = Field(description="Sentence using the verb in frame B; does not answer it.")
    verb_form_a: str = Field(description="The verb exactly as it appears in sentence_a.")
    verb_form_b: str = Field(description="The verb exactly as it appears in sentence_b.")

    _strip = field_validator("condition", "question", "sentence_a", "sentence_b", "verb_form_a", "verb_form_b")(
        _non_blank
    )


class ExtendedSentence(BaseModel):
    """FrameBench step 2 output: one extended sentence (S_A' or S_B') in the same frame, new content."""

    sentence: str = Field(description="New sentence using the same verb in the same frame.")
    verb_form: str = Field(description="The verb exactly as it appears in the sentence.")

    _strip = field_validator("sentence", "verb_form")(_non_blank)


class Definition(BaseModel):
    """SemBench 'from example' output: a short dictionary definition of the target word as used."""

    definition: str = Field(description="A short dictionary-style definition, nothing else.")

    _strip = field_validator("definition")(_non_blank)


class PairScreening(BaseModel):
    """Frame-pair screening: does the verb truly evoke both frames, and are they told apart in use?"""

    evokes_both: bool = Field(description="The verb has common uses in both frames.")
    distinguishable: bool = Field(description="Everyday uses of the verb in the two frames are clearly different.")
    reason: str = Field(description="One sentence explaining the decision.")


class VerbUse(BaseModel):
    """The verifier's answer to "is the verb used as a verb in this sentence, and in which form"
    (``--verb-check llm``, :mod:`fbagent.checks.llm_verb_check`)."""

    used_as_verb: bool = Field(description="True when the target verb is used as a verb in the sentence.")
    form: str = Field(default="", description="The verb exactly as written in the sentence; empty when not used.")


class FourChoiceAnswer(BaseModel):
    """A judge's answer to a four-choice question: option number '1'..'4'."""

    answer: str = Field(pattern=r"^[1-4]$", description="The number of the chosen option.")
