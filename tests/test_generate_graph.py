"""`fbagent generate` end to end in process: real openai + instructor + LangGraph + encoder, scripted server.

The scripted server (tests/openai_stub.py) answers on 127.0.0.1; the
frame-aware responder (tests/gen_responder.py) reads fbagent's real prompts.
The lexicon is the embedded sample (imported into an empty database), the
encoder the offline all-MiniLM-L6-v2. Every test asserts stored values.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub, by_schema, error, malformed, schema_name, slow  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.generation import generate  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402
from fbagent.store.items import run_items  # noqa: E402
from fbagent.store.runs import get_run, sessions, usage  # noqa: E402

CALLS_PER_ENTRY = 1 + 2 + 4  # generate_base, extend x2, define x4


def options(stub: OpenAIStub, **kw) -> Any:
    kw.setdefault("pairs", 3)
    return generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                           concurrency=4, **kw)


async def run(db_path: Path, opts: Any):
    """Run generate() with the CLI's renderer on a captured console: (summary, printed text)."""
    out = io.StringIO()
    view = GenerateView(Console(file=out, width=160))
    summary = await generate(db_path, opts, on_event=view, command="fbagent generate (test)")
    return summary, out.getvalue()


def schemas_seen(stub: OpenAIStub) -> list[str]:
    return [schema_name(r) for r in stub.requests]


async def test_valid_answers_give_verified_items_with_every_value_stored(tmp_path, monkeypatch):
    import fbagent.verifier.startup as backends

    loads = []
    real_load = backends.load_encoder
    monkeypatch.setattr(backends, "load_encoder", lambda name: loads.append(name) or real_load(name))
    responder = FrameResponder()
    with OpenAIStub(responder) as stub:
        summary, out = await run(tmp_path / "fb.db", options(stub))
    assert "embedded English sample lexicon 'sample-en'" in out
    assert f"fbagent runs show {summary.run_name}" in out
    assert loads == [None], "the encoder is loaded once per run"
    assert summary.counts == {"verified": 3, "flagged": 0, "rejected": 0, "failed": 0}
    assert stub.request_count == 3 + 3 * CALLS_PER_ENTRY  # 3 screening calls + 7 per entry
    db = open_db(tmp_path / "fb.db")
    run_row = get_run(db, summary.run_name)
    assert run_row["status"] == "finished" and run_row["generator"] == "openai" and run_row["model"] == "stub-model"
    assert run_row["prompt_versions"]["generate_base"] == "generate_base/en@1"
    assert run_row["options"]["pairs"] == 3 and run_row["options"]["screening_done"] is True
    items = run_items(db, run_row["id"])
    assert len(items) == 3
    for item in items:
        assert item["status"] == "verified" and item["reasons"] == [] and item["attempts"] == 1
        assert item["question"] == "Which sentence implies that something was done to a box?"
        assert item["question_four_choice"] == "Select all sentences where something was done to a box."
        assert item["condition"] == "something was done to a box"
        verb = item["verb"]
        assert f" {verb} " in item["sentence_a"] and f" {verb} " in item["sentence_b"]
        s, e = item["target_spans"]["sentence_a"]
        assert item["sentence_a"][s:e] == verb == item["verb_form_a"]
        s, e = item["target_spans"]["sentence_b_prime"]
        assert item["sentence_b_prime"][s:e] == verb
        # [they, <V>, the, <frame A>, box, near, the, <frame B>, today] and A/B swapped: 2 substitutions in 9 units
        assert item["lexical_similarity"] == pytest.approx(7 / 9)
        assert item["checks"]["self_check"]["lexical_similarity"]["value"] == pytest.approx(0.7778)
        assert item["checks"]["extension"]["sentence_a_prime"]["reasons"] == []
        ver = item["verifier"]
        assert set(ver["sentences"]) == {"sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime"}
        for key, sent in ver["sentences"].items():
            assert sent["pass"] is True
            assert sent["sim_own"] == pytest.approx(1.0, abs=1e-4)  # the definition is the frame's own definition
            assert sent["sim_other"] < sent["sim_own"]
            assert sent["frame"] == (item["frame_a"] if key.startswith("sentence_a") else item["frame_b"])
            assert sent["definition"]
    use = usage(db, run_row["id"])
    assert use["calls"] == stub.request_count and use["failures"] == 0
    assert use["by_task"]["define"]["calls"] == 12 and use["by_task"]["screen"]["calls"] == 3
    assert use["input_tokens"] == summary.input_tokens > 0


async def test_rerun_of_a_finished_run_makes_no_request(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        first, _ = await run(tmp_path / "fb.db", options(stub))
        n = stub.request_count
        again, out = await run(tmp_path / "fb.db", options(stub))
        assert stub.request_count == n, "a finished run is not redone"
        assert again.run_name == first.run_name and again.entries_skipped == 3 and again.entries_done == 0
        assert again.calls == 0
        assert "all 3 entries already finished; nothing to do" in " ".join(out.split())
        # items gone (e.g. deleted by hand): every request is answered from the llm_calls cache
        db = open_db(tmp_path / "fb.db")
        db.execute("DELETE FROM items")
        db.conn.commit()
        third, _ = await run(tmp_path / "fb.db", options(stub))
        assert stub.request_count == n
        assert third.calls == 0 and third.cache_hits == 3 * CALLS_PER_ENTRY and third.entries_done == 3
        assert third.counts["verified"] == 3
    db = open_db(tmp_path / "fb.db")
    assert [s["status"] for s in sessions(db, get_run(db, first.run_name)["id"])] == ["finished"] * 3


async def test_verbless_sentence_triggers_the_self_check_loop(tmp_path):
    responder = FrameResponder(verbless_attempts=1)
    with OpenAIStub(responder) as stub:
        summary, _ = await run(tmp_path / "fb.db", options(stub, pairs=2, screen=False))
        base_requests = [r for r in stub.requests if schema_name(r) == "BasePair"]
    assert summary.counts["verified"] == 2
    assert len(base_requests) == 4  # every entry: first attempt + one retry with feedback
    retry_text = base_requests[-1]["messages"][-1]["content"]
    assert "rejected by the automatic checks" in retry_text
    assert "does not contain the verb" in retry_text
    db = open_db(tmp_path / "fb.db")
    for item in run_items(db, get_run(db, summary.run_name)["id"]):
        assert item["attempts"] == 2 and item["status"] == "verified"
        first, second = item["checks"]["self_check_attempts"]
        assert first["passed"] is False and second["passed"] is True
        assert f"sentence_b does not contain the verb '{item['verb']}' (any inflected form)" in first["reasons"]
        assert " moved " in first["base"]["sentence_b"]


async def test_self_check_failing_r_plus_one_times_is_rejected(tmp_path):
    responder = FrameResponder(verbless_attempts=99)
    with OpenAIStub(responder) as stub:
        summary, _ = await run(tmp_path / "fb.db", options(stub, pairs=2, screen=False, max_retries=2))
        assert schemas_seen(stub).count("BasePair") == 2 * 3  # R = 2: three attempts per entry
        assert "ExtendedSentence" not in schemas_seen(stub) and "Definition" not in schemas_seen(stub)
    assert summary.counts["rejected"] == 2
    db = open_db(tmp_path / "fb.db")
    for item in run_items(db, get_run(db, summary.run_name)["id"]):
        assert item["status"] == "rejected" and item["attempts"] == 3
        assert len(item["checks"]["self_check_attempts"]) == 3
        assert any("does not contain the verb" in r for r in item["reasons"])
        assert item["reasons"][0].startswith("self-check (attempt 3): ")
        assert item["verifier"] is None and item["sentence_a_prime"] is None
        assert item["sentence_a"] is not None  # the last attempt is kept for humans


async def test_malformed_json_is_reasked_then_recorded_as_failure(tmp_path):
    responder = FrameResponder()
    bad_once = {"n": 0}

    def base_pair(request):
        bad_once["n"] += 1
        return malformed('{"question": "Which sentence') if bad_once["n"] == 1 else responder(request)

    with OpenAIStub(by_schema({"BasePair": base_pair}, default=responder)) as stub:
        summary, _ = await run(tmp_path / "fb.db", options(stub, pairs=1, screen=False))
    assert summary.counts["verified"] == 1
    db = open_db(tmp_path / "fb.db")
    row = next(db.query("SELECT attempts, error, request FROM llm_calls WHERE task = 'generate_base'"))
    assert row["attempts"] == 2 and row["error"] is None
    assert json.loads(row["request"])["reasks"][0]["output"].startswith('{"question": "Which sentence')

    # always malformed: the entry fails with the error, nothing crashes; the next run redoes it
    with OpenAIStub(by_schema({"BasePair": malformed("not json at all")}, default=responder)) as stub:
        summary, _ = await run(tmp_path / "f2.db", options(stub, pairs=1, screen=False, llm_retries=1))
    assert summary.counts["failed"] == 1
    db = open_db(tmp_path / "f2.db")
    (item,) = run_items(db, get_run(db, summary.run_name)["id"])
    assert item["status"] == "failed" and item["reasons"][0].startswith("generate_base: ")
    assert "JSON" in item["reasons"][0] or "validation" in item["reasons"][0]
    with OpenAIStub(responder) as stub:
        again, _ = await run(tmp_path / "f2.db", options(stub, pairs=1, screen=False, llm_retries=1))
    assert again.entries_skipped == 0 and again.counts["verified"] == 1
    (item,) = run_items(db, get_run(db, summary.run_name)["id"])
    assert item["status"] == "verified"


async def test_rate_limit_429_then_success(tmp_path):
    responder = FrameResponder()
    with OpenAIStub(responder) as stub:
        stub.script(error(429, "slow down", retry_after=0))  # the very first request (screening)
        summary, _ = await run(tmp_path / "fb.db", options(stub, pairs=1))
        assert stub.request_count == 1 + 1 + CALLS_PER_ENTRY
    assert summary.counts["verified"] == 1
    db = open_db(tmp_path / "fb.db")
    row = next(db.query("SELECT attempts, error, request FROM llm_calls WHERE task = 'screen'"))
    assert row["attempts"] == 2 and row["error"] is None
    assert "HTTP 429" in json.loads(row["request"])["transport_errors"][0]


async def test_timeout_fails_the_entry_with_the_error(tmp_path):
    responder = FrameResponder()
    with OpenAIStub(by_schema({"Definition": slow(3.0, {"definition": "late"})}, default=responder)) as stub:
        summary, _ = await run(tmp_path / "fb.db", options(stub, pairs=1, screen=False, timeout_s=0.3, llm_retries=1))
        url = stub.base_url
    assert summary.counts["failed"] == 1
    db = open_db(tmp_path / "fb.db")
    (item,) = run_items(db, get_run(db, summary.run_name)["id"])
    assert item["status"] == "failed"
    assert item["reasons"] == [f"verify: define: request to {url} timed out after 0.3 s"]
    assert item["sentence_a_prime"]  # everything before the failing step is kept
    rows = list(db.query("SELECT attempts, error FROM llm_calls WHERE task = 'define'"))
    timed_out = f"request to {url} timed out after 0.3 s"
    assert len(rows) == 4 and all(r["error"] == timed_out and r["attempts"] == 2 for r in rows)
    assert summary.session_failed.startswith("the one entry of this session failed")


async def test_judge_answers_both_pairs_in_both_orders(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        summary, _ = await run(tmp_path / "fb.db", options(stub, pairs=1, screen=False, judge=True))
        assert schemas_seen(stub).count("FourChoiceAnswer") == 4
    db = open_db(tmp_path / "fb.db")
    (item,) = run_items(db, get_run(db, summary.run_name)["id"])
    judge = item["verifier"]["judge"]
    assert [(j["pair"], j["order"], j["gold"], j["correct"]) for j in judge] == [
        ("base", "AB", "1", True), ("base", "BA", "2", True), ("extended", "AB", "1", True), ("extended", "BA", "2", True)]
    assert item["status"] == "verified"


async def test_screening_replaces_rejected_pairs_from_the_reserve(tmp_path):
    # find which verbs the seed-0 sample of 3 pairs holds, then reject the first one's verb
    with OpenAIStub(FrameResponder()) as stub:
        plain, _ = await run(tmp_path / "a.db", options(stub, pairs=3))
    db = open_db(tmp_path / "a.db")
    verbs = [i["verb"] for i in run_items(db, get_run(db, plain.run_name)["id"])]
    rejected_verb = verbs[0]
    with OpenAIStub(FrameResponder(reject_verbs={rejected_verb})) as stub:
        summary, out = await run(tmp_path / "b.db", options(stub, pairs=3))
    assert "screened out" in out
    db = open_db(tmp_path / "b.db")
    run_row = get_run(db, summary.run_name)
    pairs = list(db.query("SELECT verb, status, reason FROM frame_pairs WHERE selection_id = ?", [run_row["selection_id"]]))
    out_pairs = [p for p in pairs if p["status"] == "screened_out"]
    assert out_pairs and all(p["verb"] == rejected_verb for p in out_pairs)
    assert all(p["reason"].startswith("screening: the verb does not truly evoke both frames") for p in out_pairs)
    selected = [p for p in pairs if p["status"] == "selected"]
    assert len(selected) == 3 and rejected_verb not in {p["verb"] for p in selected}
    assert summary.entries_done == 3


async def test_dry_run_calls_nothing_and_stores_no_run(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        summary, out = await run(tmp_path / "fb.db", options(stub, pairs=5, judge=True, dry_run=True))
        assert stub.request_count == 0
    plan = summary.plan
    assert plan["entries"] == 5 and plan["entries_todo"] == 5 and plan["screen_calls"] == 5
    assert plan["calls_min"] == 5 * (CALLS_PER_ENTRY + 4) + 5
    assert plan["input_tokens"] > 1000 and plan["output_tokens"] > 0
    assert "Plan (--dry-run" in out
    db = open_db(tmp_path / "fb.db")
    assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM llm_calls").fetchone()[0] == 0


async def test_dry_run_counts_the_llm_verb_checks(tmp_path):
    # --verb-check llm asks the verifier once per sentence: S_A, S_B after the base pair, S_A', S_B' after the
    # extension, so 4 more calls per entry without retries and 4 x (max_retries + 1) with every retry.
    with OpenAIStub(FrameResponder()) as stub:
        plain, _ = await run(tmp_path / "a.db", options(stub, pairs=5, dry_run=True, max_retries=2))
        checked, out = await run(tmp_path / "b.db", options(stub, pairs=5, dry_run=True, max_retries=2,
                                                              verb_check="llm"))
        assert stub.request_count == 0
    before, after = plain.plan, checked.plan
    assert before["verb_check_calls"] == 0 and after["verb_check_calls"] == 5 * 4
    assert after["calls_min"] - before["calls_min"] == 5 * 4
    assert after["calls_max"] - before["calls_max"] == 5 * 4 * 3
    assert after["input_tokens"] > before["input_tokens"] and after["output_tokens"] == before["output_tokens"] + 5 * 4 * 20
    assert "verb check" in out
