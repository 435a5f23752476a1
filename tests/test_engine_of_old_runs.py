"""A database made by older fbagent, whose provider ``local`` ran llama.cpp, meets the embedded engine
(transformers + llguidance, issue 42) under the same run name: it refuses in one line with the fix instead of
continuing llama.cpp's entries with another engine's answers, ``--generator llamacpp`` continues the run, and
llama.cpp's stored answers are never served from the LLM-call cache to the embedded engine.

The stored options below are those of a real run: `fbagent generate --pairs 3 --generator local` at 111d47b^ (the
last commit on which ``local`` was llama-cpp-python 0.3.36), run name sample-en-local-s0-71043d5d, the same name the
embedded engine's run of the same command gets.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from factories import generate_options, make_db
from pydantic import BaseModel

from fbagent.errors import FbagentError
from fbagent.generation.options import check_compatible
from fbagent.llm.client import LLMClient
from fbagent.providers.names import EMBEDDED_ENGINE

#: runs.options of the llama.cpp run (older fbagent): no "engine"
OLD_OPTIONS = {"base_url": None, "concurrency": 4, "encoder": None, "generator": "local", "judge": False,
               "lexicon": "sample-en", "llm_retries": 3, "margin": 0.0, "max_per_verb": None, "max_retries": 2,
               "max_tokens": 512, "model": None, "near_copy_threshold": 0.7, "pairs": 3, "per_pair": 1,
               "prompt_styles": {"generator": "fewshot", "verifier": "fewshot"}, "screen": False, "seed": 0,
               "similarity_threshold": 0.5, "timeout_s": 60.0, "variant_temperature": 0.8,
               "verifier_generator": None, "verifier_model": None}
NAME = "sample-en-local-s0-71043d5d"


def _run(options: dict[str, object]) -> dict[str, object]:
    return {"name": NAME, "kind": "generate", "lexicon_id": 1, "generator": "local", "seed": 0, "options": options}


def test_the_embedded_engine_refuses_to_continue_a_llama_cpp_run_with_the_fix():
    opts = generate_options(pairs=3, screen=False)
    with pytest.raises(FbagentError) as caught:
        check_compatible(_run(OLD_OPTIONS), {"id": 1}, opts)
    assert str(caught.value.problem).startswith(f"run '{NAME}' was made by provider 'local' before it ran on "
                                                "transformers+llguidance")
    assert caught.value.fix == ("pass --run NEW_NAME for a new run on the embedded engine, or resume this one on "
                                f"llama.cpp: pip install -e '.[llama]', then add --generator llamacpp --run {NAME}")


def test_llama_cpp_continues_it_and_the_embedded_engine_continues_its_own_runs():
    check_compatible(_run(OLD_OPTIONS), {"id": 1}, generate_options(pairs=3, screen=False, generator="llamacpp"))
    check_compatible(_run({**OLD_OPTIONS, "engine": EMBEDDED_ENGINE}), {"id": 1}, generate_options(pairs=3, screen=False))
    with pytest.raises(FbagentError, match=r"other options \(pairs: 3 -> 4\)"):   # the other checks still apply
        check_compatible(_run(OLD_OPTIONS), {"id": 1}, generate_options(pairs=4, screen=False, generator="llamacpp"))


def test_the_cli_refuses_in_one_line_and_changes_nothing(tmp_path):
    db = make_db(tmp_path / "fb.db", n=2, run_name=NAME, lexicon="sample-en")
    db.conn.execute("UPDATE runs SET generator = 'local', options = ? WHERE name = ?", [json.dumps(OLD_OPTIONS), NAME])
    db.conn.commit()
    before = db.conn.execute("SELECT status, options, (SELECT COUNT(*) FROM items) FROM runs").fetchall()
    db.conn.close()
    result = subprocess.run([sys.executable, "-m", "fbagent.cli", "generate", "--db", str(tmp_path / "fb.db"), "--run",
                             NAME, "--pairs", "3", "--generator", "local", "--lexicon", "sample-en"],
                            capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "was made by provider 'local' before it ran on transformers+llguidance" in lines[0]
    assert "Fix: pass --run NEW_NAME" in " ".join(result.stderr.split())
    db = make_db.__globals__["open_db"](tmp_path / "fb.db")
    assert db.conn.execute("SELECT status, options, (SELECT COUNT(*) FROM items) FROM runs").fetchall() == before


class Answer(BaseModel):
    answer: str


class _Adapter:
    """The two identities an LLM client reads from a provider (no model behind it: only cache keys are asked)."""

    def __init__(self, name: str, cache_backend: str | None) -> None:
        self.name, self.model = name, "gemma-3-270m-q4_k_m.gguf"
        if cache_backend is not None:
            self.cache_backend = cache_backend


def test_llama_cpps_cached_answers_are_not_the_embedded_engines(tmp_path):
    from fbagent.llm.cache import cache_key
    from fbagent.providers.embedded import EmbeddedBackend

    assert EmbeddedBackend.cache_backend == "local/transformers+llguidance"
    db = make_db(tmp_path / "fb.db", n=1)
    old = LLMClient(_Adapter("local", None), db=db)                         # llama.cpp's `local` of older fbagent
    new = LLMClient(_Adapter("local", EmbeddedBackend.cache_backend), db=db)
    assert (old.backend, old.cache_backend) == ("local", "local")
    assert (new.backend, new.cache_backend) == ("local", "local/transformers+llguidance")
    request = {"model": "gemma-3-270m-q4_k_m.gguf", "messages": [{"role": "user", "content": "x"}],
               "response_model": Answer, "temperature": 0.0, "max_tokens": 8, "seed": 0}
    assert cache_key(backend=old.cache_backend, **request) != cache_key(backend=new.cache_backend, **request)
