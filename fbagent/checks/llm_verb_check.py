"""``--verb-check llm``: the verifier's model confirms the target verb in each sentence.

For a language fbagent has no grammar for (:mod:`fbagent.checks.coverage`), the verb check asks the
verifier's model, once per sentence, "is V used as a verb here, and in which form" (prompt
``prompts/verbs/verb_use.txt``, answer :class:`fbagent.schemas.VerbUse`). The call goes through
the run's :class:`fbagent.llm.client.LLMClient`, so it is a row of ``llm_calls`` (audit log and
cache: a rerun asks nothing again) tagged ``task="verb_check"``. The answer becomes a
:class:`fbagent.checks.verb_match.VerbMatch` with ``method="llm"``: found only when the model says
yes and the form it names stands in the sentence (its span is the match); a failed call is a
refusal whose note says the call failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from fbagent.checks.verb_match import VerbMatch
from fbagent.languages import language_name
from fbagent.prompting.files import PromptTemplate, load_prompt
from fbagent.schemas import VerbUse

if TYPE_CHECKING:
    from fbagent.llm.client import LLMClient

PROMPT = "verbs/verb_use.txt"
TASK = "verb_check"


def verb_use_prompt() -> PromptTemplate:
    """The prompt file of the LLM verb check (``prompts/verbs/verb_use.txt``)."""
    return load_prompt(PROMPT)


def verb_use_messages(sentence: str, lemma: str, lang: str, prompt: PromptTemplate | None = None) -> list[dict[str, str]]:
    """The one user message asking whether ``lemma`` is used as a verb in ``sentence`` (``lang``: its language code)."""
    prompt = prompt or verb_use_prompt()
    return [{"role": "user", "content": prompt.render(language=language_name(lang), verb=lemma, sentence=sentence)}]


def match_from_answer(sentence: str, answer: VerbUse) -> VerbMatch:
    """The :class:`VerbMatch` of a model's answer: found when it says yes and its form is in ``sentence``
    (case-insensitively; the span of the first occurrence, or of each part for a form in parts)."""
    if not answer.used_as_verb:
        return VerbMatch(False, method="llm", note="the verifier's model says the verb is not used as a verb here")
    low = sentence.lower()
    spans: list[tuple[int, int]] = []
    pos = 0
    for part in answer.form.split():
        start = low.find(part.lower(), pos)
        if start < 0:
            return VerbMatch(False, method="llm",
                             note=f"the verifier's model names the form '{answer.form}', which is not in the sentence")
        spans.append((start, start + len(part)))
        pos = start + len(part)
    if not spans:
        return VerbMatch(False, method="llm", note="the verifier's model names no form of the verb")
    head = spans[0]
    return VerbMatch(True, head, spans, sentence[head[0]:head[1]], "llm")


async def confirm_verb(client: LLMClient, sentence: str, lemma: str, lang: str, *, run_id: int | None = None,
                       item_id: str | None = None, prompt: PromptTemplate | None = None) -> VerbMatch:
    """Ask ``client`` (an :class:`fbagent.llm.client.LLMClient`, the verifier's) whether ``lemma`` is used as a
    verb in ``sentence``: one cached structured call (``task="verb_check"``). Returns a :class:`VerbMatch`
    (``method="llm"``); a failed call is not found, with the error in ``note``."""
    prompt = prompt or verb_use_prompt()
    result = await client.complete(task=TASK, messages=verb_use_messages(sentence, lemma, lang, prompt),
                                   response_model=VerbUse, run_id=run_id, item_id=item_id,
                                   prompt_version=prompt.version, temperature=0.0, max_tokens=128)
    if result.error or result.value is None:
        return VerbMatch(False, method="llm", note=f"the verb check call failed ({result.error})")
    return match_from_answer(sentence, cast(VerbUse, result.value))   # complete() returns response_model's instance
