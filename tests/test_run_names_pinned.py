"""Run names and stored options pinned across the split of the generate options into groups (issue 32).

Every name and dict below was computed on main before the split (1ecdeab, flat ``GenerateOptions`` /
``CalibrateOptions`` fields): the same options must give the same run name, so that the same command
resumes the same run, and a run stored with the flat keys must continue.
"""

from __future__ import annotations

import pytest
from factories import calibrate_options, generate_options
from typer.testing import CliRunner

from fbagent.errors import FbagentError
from fbagent.generation.options import check_compatible, default_run_name, validate_options

#: case -> (flat options, run name on lexicon "sample-en")
BY_OPTIONS = {
    "default": ({}, "sample-en-local-s0-9a7e331b"),
    "screen": ({"screen": True}, "sample-en-local-s0-4564b40a"),
    "margin": ({"margin": 0.1}, "sample-en-local-s0-fb44d344"),
    "verb_check_llm": ({"verb_check": "llm"}, "sample-en-local-s0-23a812b3"),
    "surface_verb_match": ({"surface_verb_match": True}, "sample-en-local-s0-e6c5cd0d"),
    "signal_encoder": ({"verifier": "encoder", "encoder": "paraphrase-multilingual-MiniLM-L12-v2"},
                       "sample-en-local-s0-e6dabe28"),
    "signal_both_judge": ({"verifier": "both", "judge": True}, "sample-en-local-s0-779eb64c"),
    "eligibility": ({"min_examples": 2, "require_core_fe": False, "exclude_related": False, "protocol": "framebench"},
                    "sample-en-local-s0-4678f2f4"),
    "no_definition": ({"require_definition": False}, "sample-en-local-s0-692e0260"),
    "verifier_backend": ({"generator": "openai", "model": "small", "verifier_generator": "gemini",
                          "verifier_model": "big"}, "sample-en-openai-s0-7ed9be27"),
    "verifier_model_only": ({"generator": "openai", "model": "small", "verifier_model": "big"},
                            "sample-en-openai-s0-6cbfbf2a"),
    "verifier_same_backend": ({"generator": "openai", "model": "small", "verifier_generator": "openai",
                               "verifier_model": "big"}, "sample-en-openai-s0-46066139"),
    "verifier_redundant": ({"generator": "openai", "model": "small", "verifier_generator": "openai"},
                           "sample-en-openai-s0-d6ee2d3f"),
    "verifier_model_redundant": ({"generator": "openai", "model": "small", "verifier_model": "small"},
                                 "sample-en-openai-s0-04cbb236"),
    "verifier_url_only": ({"generator": "openai", "model": "small", "verifier_base_url": "http://localhost:9/v1"},
                          "sample-en-openai-s0-f9f91737"),
    "prompt_style": ({"prompt_style": "fewshot"}, "sample-en-local-s0-d7517170"),
    "prompt_style_chat": ({"prompt_style": "chat"}, "sample-en-local-s0-049456f9"),
    "sizes": ({"pairs": 40, "per_pair": 3, "seed": 7, "max_per_verb": 2, "max_retries": 4, "similarity_threshold": 0.4,
               "near_copy_threshold": 0.6, "variant_temperature": 0.5, "max_tokens": 256},
              "sample-en-local-s7-e40401d0"),
    "not_hashed": ({"concurrency": 9, "llm_retries": 1, "timeout_s": 5.0, "backoff_s": 0.01, "base_url": "http://x:1/v1",
                    "durability": "exit", "dry_run": True, "target_precision": 0.8}, "sample-en-local-s0-9a7e331b"),
}

#: case -> (`fbagent generate --pairs 12` arguments, run name of the validated options)
BY_COMMAND = {
    "default": ([], "sample-en-local-s0-9b5a094a"),
    "margin": (["--margin", "0.1"], "sample-en-local-s0-bd705fac"),
    "verb_check": (["--verb-check", "llm"], "sample-en-local-s0-4bc66f09"),
    "surface": (["--surface-verb-match"], "sample-en-local-s0-1545bf1f"),
    "signal": (["--signal", "encoder", "--encoder", "paraphrase-multilingual-MiniLM-L12-v2"],
               "sample-en-local-s0-40d43d77"),
    "old_verifier_spelling": (["--verifier", "both", "--judge"], "sample-en-local-s0-684f0294"),
    "eligibility": (["--min-examples", "2", "--no-require-core-fe", "--no-exclude-related", "--max-per-verb", "3"],
                    "sample-en-local-s0-f4447e19"),
    "framebench": (["--protocol", "framebench"], "sample-en-local-s0-b19b4193"),
    "framebench_no_def": (["--protocol", "framebench", "--no-require-definition"], "sample-en-local-s0-ed93d84f"),
    "verifier_backend": (["--generator", "openai", "--model", "small", "--verifier-generator", "gemini",
                          "--verifier-model", "big"], "sample-en-openai-s0-117a7a24"),
    "verifier_same_backend": (["--generator", "openai", "--model", "small", "--verifier-generator", "openai",
                               "--verifier-model", "big"], "sample-en-openai-s0-bcb39ffc"),
    "verifier_model_only": (["--generator", "openai", "--model", "small", "--verifier-model", "big"],
                            "sample-en-openai-s0-f24306da"),
    # llama.cpp is its own provider since issue 42 (`local` is the wheel-only engine): its aliases name it
    "alias": (["--generator", "llama.cpp", "--verifier-generator", "LLAMA-CPP"], "sample-en-llamacpp-s0-d57cb2c8"),
    "prompt_style": (["--prompt-style", "fewshot"], "sample-en-local-s0-cf8e58c9"),
    "run_knobs": (["-k", "3", "--seed", "7", "--max-retries", "4", "--similarity-threshold", "0.4",
                   "--near-copy-threshold", "0.6", "--no-screen", "-c", "9", "--timeout", "5", "--llm-retries", "1"],
                  "sample-en-local-s7-14dba8c4"),
}

#: the result options a run made before the split stored (flat keys), and the options that made it
STORED = {"pairs": 10, "per_pair": 1, "seed": 0, "generator": "openai", "model": "small", "verifier_generator": "openai",
          "verifier_model": "big", "encoder": None, "max_retries": 2, "similarity_threshold": 0.5,
          "near_copy_threshold": 0.7, "margin": 0.05, "max_per_verb": None, "screen": True, "judge": False,
          "variant_temperature": 0.8, "max_tokens": 512, "min_examples": 2, "require_core_fe": False,
          "protocol": "framebench", "verifier": "both", "verb_check": "llm"}
STORED_BY = {"generator": "openai", "model": "small", "verifier_generator": "openai", "verifier_model": "big",
             "min_examples": 2, "require_core_fe": False, "protocol": "framebench", "screen": True,
             "verb_check": "llm", "verifier": "both", "margin": 0.05}


@pytest.mark.parametrize("case", sorted(BY_OPTIONS))
def test_run_names_of_options_are_those_before_the_groups(case):
    flat, name = BY_OPTIONS[case]
    assert default_run_name("sample-en", generate_options(**flat)) == name


@pytest.mark.parametrize("case", sorted(BY_COMMAND))
def test_run_names_of_commands_are_those_before_the_groups(case, monkeypatch):
    import fbagent.commands.generate as generate_command
    from fbagent.cli import app

    got = []
    monkeypatch.setattr(generate_command, "run_generation", lambda db, opts: got.append(opts))
    args, name = BY_COMMAND[case]
    res = CliRunner().invoke(app, ["generate", "--pairs", "12", *args],
                             env={"OPENAI_API_KEY": "x", "GEMINI_API_KEY": "x"})
    assert res.exit_code == 0, res.output
    assert default_run_name("sample-en", validate_options(got[0])) == name


def test_a_run_stored_with_flat_keys_continues_and_names_what_changed():
    opts = generate_options(**STORED_BY)
    assert opts.result_options() == STORED
    assert default_run_name("sample-en", opts) == "sample-en-openai-s0-32ae086d"
    run = {"name": "old", "kind": "generate", "lexicon_id": 1, "generator": "openai", "seed": 0, "options": STORED}
    check_compatible(run, {"id": 1}, opts)   # continues
    with pytest.raises(FbagentError, match=r"\(verifier_model: 'big' -> 'other', margin: 0.05 -> 0.1\)"):
        check_compatible(run, {"id": 1}, generate_options(**{**STORED_BY, "margin": 0.1, "verifier_model": "other"}))


def test_calibration_options_are_stored_under_the_flat_keys():
    opts = calibrate_options(generator="openai", verifier_generator="openai", verifier_base_url="http://u:p@h:1/v1",
                             signal="both", surface_verb_match=True, lexicons=["a"])
    assert opts.to_json() == {
        "generator": "openai", "model": None, "base_url": None, "model_path": None, "verifier_generator": "openai",
        "verifier_model": None, "verifier_base_url": "http://h:1/v1", "encoder": None, "concurrency": 4,
        "llm_retries": 3, "timeout_s": 60.0, "backoff_s": 1.0, "prompt_style": "auto", "margin": 0.0,
        "surface_verb_match": True, "verb_check": "auto", "lexicons": ["a"], "selection": None, "pairs": 200,
        "seed": 0, "signal": "both", "min_exemplars": 3, "max_references": 10, "n_boot": 1000, "holdout": 2}


def test_every_options_group_is_frozen():
    from dataclasses import FrozenInstanceError

    opts = generate_options(margin=0.1, protocol="framebench")
    for group, field in ((opts, "run"), (opts.models, "encoder"), (opts.models.generator, "backend"),
                         (opts.models.verifier, "model"), (opts.verifier, "margin"), (opts.selection, "pairs"),
                         (opts.run, "screen"), (calibrate_options(), "pairs")):
        with pytest.raises(FrozenInstanceError):
            setattr(group, field, None)
    # the framebench protocol applies no filter, and the options keep what was asked (the run's name hashes it)
    assert opts.selection.require_definition is True and opts.selection.applied().require_definition is False
