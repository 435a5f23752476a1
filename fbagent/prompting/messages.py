"""Build the chat messages of every generation task from the prompt files under ``prompts/``.

No prompt text lives here: every sentence the model reads comes from a
versioned file (``prompts/generate/<lang>/*.txt``, ``prompts/roundtrip/...``,
``prompts/select/screen.txt``, ``prompts/verify/<lang>/judge.txt``). Small
sub-templates (one line per frame element, the feedback lines...) are header
fields of those files. Languages: ``en`` and ``ja`` have their own prompts
(FrameBench's languages); every other language uses ``generic`` with the
language's name filled in, and the question pattern of
``prompts/generate/patterns.toml`` when that file has one for the language.

Prompt styles (``--prompt-style``, :mod:`fbagent.providers.prompt_style`): ``chat``
prompts (the files above) for chat models; ``fewshot`` completion prompts with
worked examples (``prompts/**/fewshot_*.toml``, :mod:`fbagent.prompting.fewshot`)
for base models. The generator's style applies to ``generate_base``, ``extend``
and screening, the verifier's to the round-trip definitions and the judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fbagent.errors import FbagentError
from fbagent.languages import base_lang, language_name
from fbagent.prompting.fewshot import FewShotPrompt, first_sentence, load_fewshot, meaning, pick_use
from fbagent.prompting.files import PromptTemplate, load_prompt, prompt_exists
from fbagent.prompting.patterns import patterns_version, question_pattern
from fbagent.store.rows import FrameContext

OWN_PROMPT_LANGS = ("en", "ja")
PROMPT_STYLES = ("chat", "fewshot")   # resolved styles; ``auto`` is resolved by fbagent.providers.prompt_style


def mark_target(text: str, start: int | None, end: int | None, open_: str = "[", close: str = "]") -> str:
    """``text`` with the target span ``[start, end)`` wrapped in ``open_``/``close``."""
    if start is None or end is None or not (0 <= start < end <= len(text)):
        return text
    return f"{text[:start]}{open_}{text[start:end]}{close}{text[end:]}"


@dataclass
class Prompts:
    """The prompt files for one language (``folder`` = ``en`` | ``ja`` | ``generic``).

    ``style``: the generator's prompt style (``chat`` | ``fewshot``; ``base``, ``extend`` and
    ``screen`` are then :class:`FewShotPrompt` files); ``verifier_style``: the verifier's
    (``define``, ``judge``). ``versions`` maps task -> version string of every file used and
    ``prompt_style`` / ``verifier_prompt_style`` -> the styles (recorded in the run).
    """

    lang: str
    folder: str
    language: str
    base: PromptTemplate | FewShotPrompt
    feedback: PromptTemplate
    extend: PromptTemplate | FewShotPrompt
    extend_feedback: PromptTemplate
    frame_info: PromptTemplate
    define: PromptTemplate | FewShotPrompt
    judge: PromptTemplate | FewShotPrompt
    screen: PromptTemplate | FewShotPrompt
    versions: dict[str, str] = field(default_factory=dict)
    style: str = "chat"
    verifier_style: str = "chat"

    # -- shared pieces ---------------------------------------------------------
    def render_frame_info(self, frame: FrameContext) -> str:
        """One frame's block: name, definition, core FEs, LU definition, examples with the target marked.

        ``frame`` is :func:`fbagent.store.lexicon.frame_context` output.
        """
        meta = self.frame_info.meta
        fes = "\n".join(
            meta["fe_line"].format(name=fe.get("name", ""), definition=fe.get("definition", "") or "")
            for fe in frame.get("core_fes") or []
        )
        examples = "\n".join(
            meta["example_line"].format(
                text=mark_target(ex.get("text", ""), ex.get("target_start"), ex.get("target_end"),
                                 meta.get("target_open", "["), meta.get("target_close", "]"))
            )
            for ex in frame.get("examples") or []
        )
        return self.frame_info.render(
            name=frame.get("frame") or frame.get("name", ""),
            definition=frame.get("definition", "") or "",
            core_fes=fes or meta.get("no_core_fes", ""),
            lu_definition=frame.get("lu_definition") or meta.get("no_lu_definition", ""),
            examples=examples or meta.get("no_examples", ""),
        ).rstrip("\n")

    def _slots(self) -> dict[str, str]:
        return {"language": self.language}

    # -- tasks -------------------------------------------------------------------
    def base_messages(self, verb: str, frame_a: FrameContext, frame_b: FrameContext,
                      previous: dict[str, Any] | None = None, reasons: list[str] | None = None) -> list[dict[str, str]]:
        """``generate_base`` messages (FrameBench step 1); with the previous answer and reasons as feedback.

        Few-shot style: one completion prompt (worked examples, then the two frames' meanings and
        uses); a retry (``previous`` given) shows other uses from the lexicon instead of feedback,
        which a base model cannot follow (the retry is also sampled, see the entry graph).
        """
        if isinstance(self.base, FewShotPrompt):
            rank = 0 if previous is None else 1
            text = self.base.render(
                verb, verb=verb, language=self.language, meaning_a=meaning(frame_a), use_a=pick_use(frame_a, rank),
                meaning_b=meaning(frame_b), use_b=pick_use(frame_b, rank),
            )
            return [{"role": "user", "content": text}]
        feedback = ""
        if previous is not None and reasons:
            line = self.feedback.meta["reason_line"]
            feedback = self.feedback.render(
                reasons="\n".join(line.format(reason=r) for r in reasons),
                question=previous.get("question", ""),
                sentence_a=previous.get("sentence_a", ""),
                sentence_b=previous.get("sentence_b", ""),
            )
        slots = self._slots()
        if self.folder == "generic":
            pattern = question_pattern(self.lang)
            if pattern.question:
                slots["question_rule"] = self.base.meta["question_fixed"].format(pattern=pattern.question, **slots)
            else:
                slots["question_rule"] = self.base.meta["question_free"].format(**slots)
        text = self.base.render(
            verb=verb, frame_a_info=self.render_frame_info(frame_a), frame_b_info=self.render_frame_info(frame_b),
            feedback=feedback, **slots,
        )
        return [{"role": "user", "content": text}]

    def extend_messages(self, verb: str, frame: FrameContext, sentence: str, question: str, condition: str,
                        answers: bool, previous: str | None = None, reasons: list[str] | None = None) -> list[dict[str, str]]:
        """``extend`` messages (FrameBench step 2) for one side; ``answers`` is True for frame A.

        Few-shot style: the frame's meaning, another use of the verb in it and the base sentence,
        then the new sentence (a retry shows another use); ``question``, ``condition`` and the
        feedback are not shown to a base model.
        """
        if isinstance(self.extend, FewShotPrompt):
            use = pick_use(frame, 0 if previous is None else 1, whole=True, avoid=" ".join(sentence.split()))
            text = self.extend.render(verb, verb=verb, language=self.language, meaning=meaning(frame), use=use,
                                      sentence=sentence)
            return [{"role": "user", "content": text}]
        rule = self.extend.meta["answer_yes" if answers else "answer_no"].format(condition=condition)
        feedback = ""
        if previous is not None and reasons:
            line = self.extend_feedback.meta["reason_line"]
            feedback = self.extend_feedback.render(
                previous=previous, reasons="\n".join(line.format(reason=r) for r in reasons)
            )
        text = self.extend.render(
            verb=verb, frame_info=self.render_frame_info(frame), sentence=sentence, question=question,
            answer_rule=rule, feedback=feedback, **self._slots(),
        )
        return [{"role": "user", "content": text}]

    def define_messages(self, word: str, example: str) -> list[dict[str, str]]:
        """SemBench "from example" definition request for ``word`` as used in ``example``."""
        if isinstance(self.define, FewShotPrompt):
            return [{"role": "user", "content": self.define.render(word, word=word, example=example,
                                                                   language=self.language)}]
        return [{"role": "user", "content": self.define.render(word=word, example=example, **self._slots())}]

    def judge_messages(self, question: str, sentence_1: str, sentence_2: str) -> list[dict[str, str]]:
        """Four-choice judge request (options 1: sentence 1 only, 2: sentence 2 only, 3: both, 4: neither)."""
        if isinstance(self.judge, FewShotPrompt):
            return [{"role": "user", "content": self.judge.render(
                None, question=question, sentence_1=sentence_1, sentence_2=sentence_2, language=self.language)}]
        return [{"role": "user", "content": self.judge.render(
            question=question, sentence_1=sentence_1, sentence_2=sentence_2, **self._slots())}]

    def screen_messages(self, verb: str, frame_a: str, definition_a: str, frame_b: str,
                        definition_b: str) -> list[dict[str, str]]:
        """Frame-pair screening request (does the verb evoke both frames; are they told apart).

        Few-shot style: the first sentence of each definition, no frame names."""
        if isinstance(self.screen, FewShotPrompt):
            return [{"role": "user", "content": self.screen.render(
                verb, verb=verb, definition_a=first_sentence(definition_a), definition_b=first_sentence(definition_b),
                language=self.language)}]
        return [{"role": "user", "content": self.screen.render(
            verb=verb, frame_a=frame_a, definition_a=definition_a, frame_b=frame_b,
            definition_b=definition_b, **self._slots())}]


def _pick(task_dir: str, lang: str, name: str) -> PromptTemplate:
    own = f"{task_dir}/{lang}/{name}"
    return load_prompt(own if prompt_exists(own) else f"{task_dir}/generic/{name}")


def _pick_fewshot(task_dir: str, lang: str, name: str) -> FewShotPrompt:
    own = f"{task_dir}/{lang}/{name}"
    return load_fewshot(own if prompt_exists(own) else f"{task_dir}/generic/{name}")


def check_style(style: str, what: str = "prompt style") -> str:
    """``style`` if it is a resolved prompt style (``chat`` | ``fewshot``); else :class:`FbagentError`."""
    if style not in PROMPT_STYLES:
        raise FbagentError(f"unknown {what} {style!r}", f"use one of: {', '.join(PROMPT_STYLES)}")
    return style


def load_prompts(lang: str, style: str = "chat", verifier_style: str | None = None) -> Prompts:
    """Load every prompt for language code ``lang`` (own folder for en/ja, else ``generic``).

    ``style``: the generator's prompt style, ``chat`` (instruction prompts) or ``fewshot``
    (completion prompts with worked examples, for base models; own files for ``en``, else
    ``generic``); ``verifier_style``: the verifier's (default: ``style``).
    Raises :class:`fbagent.errors.FbagentError` when a prompt file is missing or a style is unknown.
    """
    check_style(style)
    verifier_style = check_style(verifier_style or style, "verifier prompt style")
    code = base_lang(lang)
    folder = code if code in OWN_PROMPT_LANGS and prompt_exists(f"generate/{code}/generate_base.txt") else "generic"
    fewshot, fewshot_verifier = style == "fewshot", verifier_style == "fewshot"
    prompts = Prompts(
        lang=code,
        folder=folder,
        language=language_name(code),
        base=_pick_fewshot("generate", code, "fewshot_base.toml") if fewshot
        else load_prompt(f"generate/{folder}/generate_base.txt"),
        feedback=load_prompt(f"generate/{folder}/feedback.txt"),
        extend=_pick_fewshot("generate", code, "fewshot_extend.toml") if fewshot
        else load_prompt(f"generate/{folder}/extend.txt"),
        extend_feedback=load_prompt(f"generate/{folder}/extend_feedback.txt"),
        frame_info=load_prompt(f"generate/{folder}/frame_info.txt"),
        define=_pick_fewshot("roundtrip", code, "fewshot_define.toml") if fewshot_verifier
        else _pick("roundtrip", code, "define_from_example.txt"),
        judge=_pick_fewshot("verify", code, "fewshot_judge.toml") if fewshot_verifier
        else _pick("verify", code, "judge.txt"),
        screen=load_fewshot("select/fewshot_screen.toml") if fewshot else load_prompt("select/screen.txt"),
        style=style,
        verifier_style=verifier_style,
    )
    versions = {"generate_base": prompts.base.version}
    if not fewshot:  # a base model gets no feedback text and no frame blocks
        versions.update(generate_feedback=prompts.feedback.version)
    versions["extend"] = prompts.extend.version
    if not fewshot:
        versions.update(extend_feedback=prompts.extend_feedback.version, frame_info=prompts.frame_info.version)
    versions.update(define=prompts.define.version, judge=prompts.judge.version, screen=prompts.screen.version,
                    patterns=patterns_version())
    if fewshot or fewshot_verifier:  # runs in the chat style keep the versions they always had
        versions.update(prompt_style=style, verifier_prompt_style=verifier_style)
    prompts.versions = versions
    return prompts
