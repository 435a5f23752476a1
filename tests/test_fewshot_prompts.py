"""Few-shot completion prompts for base models (``--prompt-style fewshot``): files, slots, messages, run identity."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest
from factories import generate_options

from fbagent.errors import FbagentError
from fbagent.generation.options import (
    default_run_name,
    default_screen,
    prompt_styles,
    style_note,
    validate_options,
)
from fbagent.llm.cache import cache_key
from fbagent.pairs.screening import NO_OWN_REASON, own_reason
from fbagent.prompting.fewshot import load_fewshot, meaning, pick_use, short_use, verb_key
from fbagent.prompting.messages import load_prompts
from fbagent.schemas import BasePair, Definition, ExtendedSentence, FourChoiceAnswer, PairScreening

FILES = {
    "generate/en/fewshot_base.toml": BasePair, "generate/generic/fewshot_base.toml": BasePair,
    "generate/en/fewshot_extend.toml": ExtendedSentence, "generate/generic/fewshot_extend.toml": ExtendedSentence,
    "roundtrip/en/fewshot_define.toml": Definition, "roundtrip/generic/fewshot_define.toml": Definition,
    "verify/en/fewshot_judge.toml": FourChoiceAnswer, "verify/generic/fewshot_judge.toml": FourChoiceAnswer,
    "select/fewshot_screen.toml": PairScreening,
}
SAMPLE_VERBS = {"hold", "address", "stand", "observe", "charge", "draw", "run", "break", "leave", "fire", "raise",
                "cover", "strike", "claim", "bear"}

# frame_context() output for two frames of "hold" (the embedded sample's wording)
MANIPULATION = {
    "frame": "Manipulation", "definition": "An Agent keeps an Entity in or touches it with a body part. More text.",
    "lu_definition": "have something in one's hands or arms", "core_fes": [],
    "examples": [
        {"text": "Can you hold my bag for a minute?", "target_start": 8, "target_end": 12, "source": "exemplar"},
        {"text": "She held the cup with both hands.", "target_start": 4, "target_end": 8, "source": "exemplar"},
        {"text": "He gripped the rail.", "target_start": 3, "target_end": 10, "source": "frame"},
    ],
}
OPINION = {
    "frame": "Opinion", "definition": "A Cognizer has an Opinion, a belief. They may say so.", "lu_definition": "",
    "core_fes": [], "examples": [
        {"text": "She holds strong views on education.", "target_start": 4, "target_end": 9, "source": "exemplar"},
    ],
}


def test_every_fewshot_file_has_valid_answers_in_the_response_models_field_order():
    for path, model in FILES.items():
        prompt = load_fewshot(path)
        assert prompt.version.startswith("fewshot/") and prompt.version.endswith("@1"), path
        assert len(prompt.examples) > prompt.shots >= 3, path   # a spare example for the pair's own verb
        for ex in prompt.examples:
            assert list(ex["answer"]) == list(model.model_fields), path
            model.model_validate(ex["answer"])
        # the worked examples are for verbs outside the embedded sample
        assert not {verb_key(ex["verb"]) for ex in prompt.examples} & SAMPLE_VERBS, path


def test_worked_examples_skip_the_current_verb_and_the_prompt_ends_open():
    prompt = load_fewshot("generate/en/fewshot_base.toml")
    assert [ex["verb"] for ex in prompt.examples_for("hold")] == ["catch", "open", "lose"]
    assert [ex["verb"] for ex in prompt.examples_for("Open.v")] == ["catch", "lose", "pass"]
    text = prompt.render("hold", verb="hold", meaning_a="A", use_a="a.", meaning_b="B", use_b="b.")
    assert text.endswith("Verb: hold\nMeaning A: A\nUse A: a.\nMeaning B: B\nUse B: b.\nAnswer: ")
    assert text.count("Answer: {") == 3 and "Verb: pass" not in text
    first = text.split("\n\n")[0]
    assert first.splitlines()[-1] == "Answer: " + json.dumps(prompt.examples[0]["answer"])


def test_slots_from_the_lexicon():
    assert short_use(MANIPULATION["examples"][1]) == "She held the cup."          # cut at "with"
    assert short_use(MANIPULATION["examples"][0]) == "Can you hold my bag."       # cut at "for"
    assert short_use({"text": "A guard stood at the gate all night.", "target_start": 8,
                      "target_end": 13}) == "A guard stood at the gate."         # a first word may be a preposition
    assert short_use({"text": "No span here, sorry.", "target_start": None, "target_end": None}) == "No span here, sorry."
    assert pick_use(MANIPULATION) == "She held the cup."                 # the shortest of the LU's own exemplars
    assert pick_use(MANIPULATION, 1) == "Can you hold my bag."          # a retry: the next one
    assert pick_use(MANIPULATION, 5) == "Can you hold my bag."          # past the end: the last
    assert pick_use(MANIPULATION, whole=True, avoid="She held the cup with both hands.") == (
        "Can you hold my bag for a minute?")
    assert pick_use({"examples": []}) == ""
    assert meaning(MANIPULATION) == "have something in one's hands or arms"
    assert meaning(OPINION) == "A Cognizer has an Opinion, a belief"   # first sentence, no final period


def test_fewshot_messages_for_each_task():
    prompts = load_prompts("en", "fewshot")
    (base,) = prompts.base_messages("hold", MANIPULATION, OPINION)
    assert base["role"] == "user"
    assert base["content"].endswith("Verb: hold\nMeaning A: have something in one's hands or arms\n"
                                    "Use A: She held the cup.\nMeaning B: A Cognizer has an Opinion, a belief\n"
                                    "Use B: She holds strong views.\nAnswer: ")
    retry = prompts.base_messages("hold", MANIPULATION, OPINION, {"sentence_a": "x"}, ["the same sentence"])
    assert "Use A: Can you hold my bag.\n" in retry[0]["content"] and "the same sentence" not in retry[0]["content"]
    # the longest whole exemplar (both are 33 characters: the first in alphabetical order)
    (ext,) = prompts.extend_messages("hold", MANIPULATION, "She held the cup.", "Q?", "cond", True)
    assert ext["content"].endswith("Verb: hold\nMeaning: have something in one's hands or arms\n"
                                   "Another use: Can you hold my bag for a minute?\nSentence: She held the cup.\n"
                                   "New sentence with other words: ")
    (define,) = prompts.define_messages("hold", "She held the cup.")
    assert define["content"].endswith("Word: hold\nSentence: She held the cup.\n"
                                      "Dictionary definition of the word in this sentence: ")
    (screen,) = prompts.screen_messages("hold", "Manipulation", MANIPULATION["definition"], "Opinion",
                                        OPINION["definition"])
    assert screen["content"].endswith("Language: English\nVerb: hold\nMeaning A: An Agent keeps an Entity in or "
                                      "touches it with a body part.\nMeaning B: A Cognizer has an Opinion, a belief.\n"
                                      "Answer: ")
    assert "Manipulation" not in screen["content"]
    (judge,) = prompts.judge_messages("Select all sentences where x.", "S1.", "S2.")
    assert judge["content"].startswith("Options: 1 = sentence 1 only")
    assert judge["content"].endswith("Sentence 1: S1.\nSentence 2: S2.\nQuestion: Select all sentences where x.\nAnswer: ")


def test_styles_are_recorded_and_chat_versions_stay_as_they_were():
    assert load_prompts("en").versions == {
        "generate_base": "generate_base/en@1", "generate_feedback": "generate/feedback/en@1", "extend": "extend/en@1",
        "extend_feedback": "extend/feedback/en@1", "frame_info": "generate/frame_info/en@1",
        "define": "roundtrip/define_from_example/en@1", "judge": "verify/judge/en@1", "screen": "select/screen@1",
        "patterns": "patterns@1",
    }
    assert load_prompts("en", "fewshot").versions == {
        "generate_base": "fewshot/generate_base/en@1", "extend": "fewshot/extend/en@1",
        "define": "fewshot/roundtrip/define_from_example/en@1", "judge": "fewshot/verify/judge/en@1",
        "screen": "fewshot/select/screen@1", "patterns": "patterns@1", "prompt_style": "fewshot",
        "verifier_prompt_style": "fewshot",
    }
    mixed = load_prompts("en", "fewshot", "chat")   # a base-model generator, a chat-model verifier
    assert mixed.versions["define"] == "roundtrip/define_from_example/en@1"
    assert mixed.versions["generate_base"] == "fewshot/generate_base/en@1"
    assert mixed.versions["verifier_prompt_style"] == "chat"
    fr = load_prompts("fr", "fewshot")   # no French few-shot files: the generic ones, with the language named
    assert fr.versions["generate_base"] == "fewshot/generate_base/generic@1"
    assert "Language: French\nVerb: tenir" in fr.base_messages("tenir", MANIPULATION, OPINION)[0]["content"]
    with pytest.raises(FbagentError, match="unknown prompt style 'completion'"):
        load_prompts("en", "completion")


def test_the_cache_key_changes_with_the_prompt_style():
    def key(style: str) -> str:
        messages = load_prompts("en", style).define_messages("hold", "She held the cup.")
        return cache_key(backend="local", model="m.gguf", messages=messages, response_model=Definition,
                         temperature=0.0, max_tokens=128, seed=0)

    assert key("chat") != key("fewshot") and key("fewshot") == key("fewshot")


def test_fewshot_files_are_package_data():
    node = resources.files("fbagent.prompts").joinpath("generate", "en", "fewshot_base.toml")
    assert node.is_file()


# --------------------------------------------------------------------------- run options


def test_prompt_style_joins_the_run_name_only_when_not_auto():
    # pinned names of runs made before --prompt-style existed
    assert default_run_name("sample-en", generate_options(screen=True)) == "sample-en-local-s0-4564b40a"
    assert default_run_name("sample-en", generate_options()) == "sample-en-local-s0-9a7e331b"
    assert "prompt_style" not in generate_options().result_options()
    for style in ("chat", "fewshot"):
        opts = generate_options(prompt_style=style)
        assert opts.result_options()["prompt_style"] == style
        assert default_run_name("sample-en", opts) != default_run_name("sample-en", generate_options())


def test_styles_per_model_and_the_screening_default():
    api = generate_options(generator="openai", model="m")
    assert prompt_styles(api.models) == ("chat", "chat")
    assert prompt_styles(generate_options(generator="openai", prompt_style="fewshot").models) == ("fewshot", "fewshot")
    mixed = generate_options(generator="openai", model="m", verifier_generator="gemini", prompt_style="chat")
    assert prompt_styles(mixed.models) == ("chat", "chat")
    assert default_screen("chat") is True and default_screen("fewshot") is False
    assert style_note(api, "chat") is None
    note = style_note(generate_options(), "fewshot")
    assert note.startswith("note: the generator's GGUF has no chat template (a base model)")
    assert "LLM screening is off by default for a base model (pass --screen" in note and "\n" not in note
    assert "screening" not in style_note(generate_options(screen=True, prompt_style="fewshot"), "fewshot")


def test_a_bad_prompt_style_is_one_error_line(tmp_path):
    with pytest.raises(FbagentError, match=r"unknown prompt style 'base'\. Fix: pass --prompt-style auto \| chat"):
        validate_options(generate_options(prompt_style="base"))
    result = subprocess.run([sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--prompt-style", "base",
                             "--db", str(tmp_path / "fb.db")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip() == ("error: unknown prompt style 'base'. "
                                     "Fix: pass --prompt-style auto | chat | fewshot")
    assert not (tmp_path / "fb.db").exists()


# --------------------------------------------------------------------------- screening reasons


def test_a_screening_reason_that_repeats_the_prompt_is_not_stored():
    prompt = load_prompts("en").screen_messages("leave", "Giving", "A Donor transfers a Theme to a Recipient.",
                                                 "Quitting", "An Employee stops working for an Employer.")[0]["content"]
    assert own_reason("(one sentence explaining your decision)", prompt) is None
    assert own_reason("A Donor transfers a Theme to a Recipient.", prompt) is None
    assert own_reason("", prompt) is None
    assert own_reason("Leaving money in a will and leaving a job are different. ", prompt) == (
        "Leaving money in a will and leaving a job are different.")
    fewshot = load_prompts("en", "fewshot").screen_messages("leave", "Giving", "A Donor gives.", "Quitting",
                                                            "An Employee stops.")[0]["content"]
    assert own_reason("catching a ball and catching a cold are both common and clearly different", fewshot) is None
    assert NO_OWN_REASON == "no reason of its own: the model's reason repeated its prompt"


async def test_screening_stores_no_reason_that_repeats_the_prompt(tmp_db):
    """screen_node with a scripted screening client: an echoed reason is not stored, an own one is."""
    from types import SimpleNamespace

    from fbagent.lexicon.importer import resolve_lexicon
    from fbagent.pairs.screening import screen_pairs
    from fbagent.pairs.select import SelectionOptions

    answers = iter([
        PairScreening(evokes_both=False, distinguishable=True, reason="(one sentence explaining your decision)"),
        PairScreening(evokes_both=True, distinguishable=True, reason="Holding a cup is not holding a view."),
    ])

    class Client:
        async def complete(self, **kwargs):
            return SimpleNamespace(error=None, value=next(answers, PairScreening(
                evokes_both=True, distinguishable=True, reason="A reason of its own.")), call_id=1)

    lexicon = resolve_lexicon(tmp_db, None, notify=lambda _: None)
    out = await screen_pairs(tmp_db, lexicon, SelectionOptions(pairs=2, seed=0), screen_client=Client(),
                             prompts=load_prompts("en"))   # the chat prompt, whose instructions Gemma echoed
    first, second = (out["screened"][p] for p in sorted(out["screened"])[:2])
    assert first == {"kept": False, "evokes_both": False, "distinguishable": True, "reason": None,
                     "reason_repeated_prompt": True}
    assert second["reason"] == "Holding a cup is not holding a view." and second["kept"]
    (dropped,) = out["screened_out"]
    assert dropped["reason"] == ("screening: the verb does not truly evoke both frames "
                                 "(no reason of its own: the model's reason repeated its prompt)")
