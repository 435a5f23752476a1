"""`fbagent generate --generator local`: the offline Gemma 3 270M GGUF (the embedded engine: transformers +
llguidance on the CPU), end to end.

The run is README command 1's (``fbagent generate --pairs 3 --generator local``, tests/conftest.py's
``readme_command_1``, run once per session and checked for its exit code by tests/test_native_crash.py): one
generation with the embedded engine proves both. Skipped without the `local` extra. The 270M base model rarely
passes the self-check; the test asserts that every entry ends in a final status with its reasons and that every
call is stored with the engine that made it, not that the model writes good items.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from fbagent.store.db import open_db
from fbagent.store.items import run_items

if TYPE_CHECKING:
    from conftest import ReadmeRun

pytestmark = pytest.mark.slow


def test_local_gemma_entries_end_final_with_every_call_stored(readme_command_1: ReadmeRun) -> None:
    proc = readme_command_1.proc
    assert proc.returncode == 0, proc.stderr[-3000:]
    db = open_db(readme_command_1.folder / "framebench.db", read_only=True)
    (run,) = db.query("SELECT * FROM runs")
    assert run["generator"] == "local" and run["model"].endswith(".gguf") and run["status"] == "finished"
    items = run_items(db, run["id"])
    assert len(items) == 3
    for item in items:
        assert item["status"] in ("verified", "flagged", "rejected", "failed")
        if item["status"] != "verified":
            assert item["reasons"]
    rows = list(db.query("SELECT task, backend, input_tokens, output_tokens FROM llm_calls ORDER BY id"))
    assert rows and {r["backend"] for r in rows} == {"local"}
    base = [r for r in rows if r["task"] == "generate_base"]
    assert base and base[0]["input_tokens"] > 100 and base[0]["output_tokens"] > 0
    assert f"fbagent generate: run {run['name']}" in " ".join(proc.stdout.split())
