"""Build the chat messages of every generation task from the prompt files under ``prompts/``.

No prompt text lives here: every sentence the model reads comes from a
versioned file (``prompts/generate/<lang>/*.txt``, ``prompts/roundtrip/...``,
``prompts/select/screen.txt``, ``prompts/verify/<lang>/judge.txt``). Small
sub-templates (one line per frame element, the feedback lines...) are header
fields of those files. Languages: ``en`` and ``ja`` have their own prompts
(FrameBench's languages); every other language uses ``generic`` with the
language's name filled in, and the question pattern of
``prompts/generate/patterns.toml`` when that file has one for the language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fbagent.checks import question_pattern
from fbagent.languages import base_lang, language_name
from fbagent.prompt_files import PromptTemplate, load_prompt, prompt_exists

OWN_PROMPT_LANGS = ("en", "ja")


def mark_target(text: str, start: int | None, end: int | None, open_: str = "[", close: str = "]") -> str:
    """``text`` with the target span ``[start, end)`` wrapped in ``open_``/``close``."""
    if start is None or end is None or not (0 <= start < end <= len(text)):
        return text
    return f"{text[:start]}{open_}{text[start:end]}{close}{text[end:]}"


@dataclass
class Prompts:
    """The prompt files for one language (``folder`` = ``en`` | ``ja`` | ``generic``).

    ``versions`` maps task -> version string of every file used (recorded in the run).
    """

    lang: str
    folder: str
    language: str
    base: PromptTemplate
    feedback: PromptTemplate
    extend: PromptTemplate
    extend_feedback: PromptTemplate
    frame_info: PromptTemplate
    define: PromptTemplate
    judge: PromptTemplate
    screen: PromptTemplate
    versions: dict[str, str] = field(default_factory=dict)

    # -- shared pieces ---------------------------------------------------------
    def render_frame_info(self, frame: dict[str, Any]) -> str:
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
    def base_messages(self, verb: str, frame_a: dict[str, Any], frame_b: dict[str, Any],
                      previous: dict[str, Any] | None = None, reasons: list[str] | None = None) -> list[dict[str, str]]:
        """``generate_base`` messages (FrameBench step 1); with the previous answer and reasons as feedback."""
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

    def extend_messages(self, verb: str, frame: dict[str, Any], sentence: str, question: str, condition: str,
                        answers: bool, previous: str | None = None, reasons: list[str] | None = None) -> list[dict[str, str]]:
        """``extend`` messages (FrameBench step 2) for one side; ``answers`` is True for frame A."""
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
        return [{"role": "user", "content": self.define.render(word=word, example=example, **self._slots())}]

    def judge_messages(self, question: str, sentence_1: str, sentence_2: str) -> list[dict[str, str]]:
        """Four-choice judge request (options 1: sentence 1 only, 2: sentence 2 only, 3: both, 4: neither)."""
        return [{"role": "user", "content": self.judge.render(
            question=question, sentence_1=sentence_1, sentence_2=sentence_2, **self._slots())}]

    def screen_messages(self, verb: str, frame_a: str, definition_a: str, frame_b: str,
                        definition_b: str) -> list[dict[str, str]]:
        """Frame-pair screening request (does the verb evoke both frames; are they told apart)."""
        return [{"role": "user", "content": self.screen.render(
            verb=verb, frame_a=frame_a, definition_a=definition_a, frame_b=frame_b,
            definition_b=definition_b, **self._slots())}]


def _pick(task_dir: str, lang: str, name: str) -> PromptTemplate:
    own = f"{task_dir}/{lang}/{name}"
    return load_prompt(own if prompt_exists(own) else f"{task_dir}/generic/{name}")


def load_prompts(lang: str) -> Prompts:
    """Load every prompt for language code ``lang`` (own folder for en/ja, else ``generic``).

    Raises :class:`fbagent.errors.FbagentError` when a prompt file is missing.
    """
    code = base_lang(lang)
    folder = code if code in OWN_PROMPT_LANGS and prompt_exists(f"generate/{code}/generate_base.txt") else "generic"
    prompts = Prompts(
        lang=code,
        folder=folder,
        language=language_name(code),
        base=load_prompt(f"generate/{folder}/generate_base.txt"),
        feedback=load_prompt(f"generate/{folder}/feedback.txt"),
        extend=load_prompt(f"generate/{folder}/extend.txt"),
        extend_feedback=load_prompt(f"generate/{folder}/extend_feedback.txt"),
        frame_info=load_prompt(f"generate/{folder}/frame_info.txt"),
        define=_pick("roundtrip", code, "define_from_example.txt"),
        judge=_pick("verify", code, "judge.txt"),
        screen=load_prompt("select/screen.txt"),
    )
    from fbagent.checks import patterns_version

    prompts.versions = {
        "generate_base": prompts.base.version,
        "generate_feedback": prompts.feedback.version,
        "extend": prompts.extend.version,
        "extend_feedback": prompts.extend_feedback.version,
        "frame_info": prompts.frame_info.version,
        "define": prompts.define.version,
        "judge": prompts.judge.version,
        "screen": prompts.screen.version,
        "patterns": patterns_version(),
    }
    return prompts
