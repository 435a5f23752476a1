"""LLM layer against the scripted server: the real openai + instructor (+ google-genai) stack on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import get_call  # noqa: E402
from openai_stub import OpenAIStub, Reply, by_schema, by_text, error, malformed, ok, slow  # noqa: E402

from fbagent.errors import FbagentError  # noqa: E402
from fbagent.llm import make_client  # noqa: E402
from fbagent.schemas import BasePair, Definition, PairScreening  # noqa: E402
from fbagent.store import runs  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402

DEFINE = [
    {"role": "system", "content": "You are an expert lexicographer."},
    {"role": "user", "content": "Define the verb 'leave' as used in: She left the room."},
]
GOOD = {"definition": "to go away from a place"}


@pytest.fixture
def db(tmp_path):
    database = open_db(tmp_path / "llm.db")
    yield database
    database.conn.close()


@pytest.fixture
def stub():
    with OpenAIStub() as server:
        yield server


_OPEN: list = []


def client_for(stub, db, **kw):
    """An openai-backend client on the stub; closed after the test by the ``_close_clients`` fixture."""
    kw.setdefault("backoff_s", 0.01)
    kw.setdefault("model", "stub-model")
    client = make_client("openai", db=db, base_url=stub.base_url, **kw)
    _OPEN.append(client)
    return client


@pytest.fixture(autouse=True)
async def _close_clients():
    yield
    while _OPEN:
        await _OPEN.pop().aclose()


def rows(db):
    return [get_call(db, r["id"]) for r in db.query("SELECT id FROM llm_calls ORDER BY id")]


async def test_valid_answer_is_stored_with_tokens(stub, db):
    db["runs"].insert({"id": 7, "name": "r7", "command": "fbagent generate", "created_at": "t", "updated_at": "t"})
    stub.script(ok(GOOD, prompt_tokens=42, completion_tokens=9))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition, run_id=7,
                                   item_id="r7:1:0", prompt_version="define/en@1", seed=3)
    await client.aclose()
    assert result.error is None and not result.cached
    assert result.value == Definition(definition="to go away from a place")
    assert (result.input_tokens, result.output_tokens, result.attempts) == (42, 9, 1)
    [row] = rows(db)
    assert row["id"] == result.call_id
    assert (row["run_id"], row["item_id"], row["task"], row["prompt_version"]) == (7, "r7:1:0", "define", "define/en@1")
    assert (row["backend"], row["model"]) == ("openai", "stub-model")
    assert row["response"] == GOOD and row["error"] is None
    assert (row["input_tokens"], row["output_tokens"], row["attempts"]) == (42, 9, 1)
    assert row["latency_ms"] > 0 and len(row["cache_key"]) == 64
    assert row["request"]["messages"] == DEFINE
    assert row["request"]["params"] == {"temperature": 0.0, "max_tokens": 512, "seed": 3}
    # what reached the server: JSON-schema structured output, our params, no SDK retries
    sent = stub.requests[0]
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["name"] == "Definition"
    assert (sent["seed"], sent["max_tokens"], sent["temperature"]) == (3, 512, 0.0)
    assert client.stats.calls == 1 and client.stats.input_tokens == 42 and client.stats.output_tokens == 9
    assert runs.usage(db, 7)["calls"] == 1 and runs.usage(db, 7)["input_tokens"] == 42


async def test_malformed_json_is_reasked_then_succeeds(stub, db):
    stub.script(malformed('{"definition": "to go'), ok(GOOD))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(**GOOD) and result.attempts == 2
    assert stub.request_count == 2
    reask = stub.requests[1]["messages"]
    assert reask[: len(DEFINE)] == DEFINE
    assert reask[-2] == {"role": "assistant", "content": '{"definition": "to go'}
    assert "Correct your JSON" in reask[-1]["content"] and "json_invalid" in reask[-1]["content"]
    [row] = rows(db)
    assert row["attempts"] == 2 and row["error"] is None
    assert row["request"]["reasks"][0]["output"] == '{"definition": "to go'
    # tokens are summed over both exchanges (the stub counts words)
    assert row["output_tokens"] == len('{"definition": "to go'.split()) + len(json.dumps(GOOD).split())


async def test_schema_violation_is_reasked_with_the_validation_error(stub, db):
    stub.script(ok({"definition": "   "}), ok(GOOD))  # blank fails the model's validator
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(**GOOD) and result.attempts == 2
    assert "must not be empty" in stub.requests[1]["messages"][-1]["content"]


async def test_always_malformed_is_a_recorded_failure(stub, db):
    stub.responder = lambda request: malformed("I think the definition is: to go away")
    client = client_for(stub, db, max_retries=2)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value is None and result.attempts == 3 and stub.request_count == 3
    assert result.error.startswith("answer failed validation for Definition") and "\n" not in result.error
    [row] = rows(db)
    assert row["error"] == result.error and row["response"] is None and row["attempts"] == 3
    assert len(row["request"]["reasks"]) == 3
    assert client.stats.failures == 1 and client.stats.calls == 1
    # a failure is not a cache entry: asking again sends again
    again = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert not again.cached and stub.request_count == 6


async def test_rate_limit_then_success_is_retried(stub, db):
    stub.script(error(429, "slow down", retry_after=0), ok(GOOD))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(**GOOD) and result.attempts == 2 and stub.request_count == 2
    [row] = rows(db)
    assert row["attempts"] == 2 and row["error"] is None
    assert row["request"]["transport_errors"][0].startswith("HTTP 429 from openai")


async def test_server_errors_exhaust_retries_into_a_failure_row(stub, db):
    stub.responder = lambda request: error(500, "boom")
    client = client_for(stub, db, max_retries=2)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value is None and result.attempts == 3 and stub.request_count == 3
    assert result.error.startswith("HTTP 500 from openai")
    [row] = rows(db)
    assert row["error"] == result.error and row["attempts"] == 3 and row["response"] is None


async def test_other_4xx_fail_at_once(stub, db):
    stub.responder = lambda request: error(400, "bad request: unknown parameter")
    client = client_for(stub, db, max_retries=3)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value is None and stub.request_count == 1 and result.attempts == 1
    assert result.error.startswith("HTTP 400 from openai") and "unknown parameter" in result.error


async def test_timeout_is_retried_then_recorded(stub, db):
    stub.script(slow(3.0, GOOD), ok(GOOD))
    client = client_for(stub, db, timeout_s=0.3, max_retries=1)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(**GOOD) and result.attempts == 2
    assert rows(db)[0]["request"]["transport_errors"] == [f"request to {stub.base_url} timed out after 0.3 s"]

    stub.responder = lambda request: slow(3.0, GOOD)
    failed = await client.complete(task="define", messages=DEFINE, response_model=Definition, seed=1)
    assert failed.value is None and failed.attempts == 2
    assert failed.error == f"request to {stub.base_url} timed out after 0.3 s"
    assert rows(db)[-1]["error"] == failed.error


async def test_truncated_answer_is_a_failure_naming_max_tokens(stub, db):
    stub.script(ok('{"definition": "to go', finish_reason="length"))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition, max_tokens=5)
    assert result.value is None and "max_tokens" in result.error and stub.request_count == 1


async def test_identical_request_is_answered_from_the_cache(stub, db):
    stub.responder = lambda request: ok(GOOD)
    client = client_for(stub, db)
    first = await client.complete(task="define", messages=DEFINE, response_model=Definition, run_id=None)
    second = await client.complete(task="define", messages=DEFINE, response_model=Definition, item_id="other")
    assert stub.request_count == 1
    assert second.cached and second.value == first.value and second.call_id == first.call_id
    assert (second.attempts, second.input_tokens, second.output_tokens) == (0, 0, 0)
    assert client.stats.cache_hits == 1 and client.stats.calls == 1
    assert db["llm_calls"].count == 1  # a cache hit adds no row
    # any change of seed, temperature, max_tokens, model or schema is a new request
    await client.complete(task="define", messages=DEFINE, response_model=Definition, seed=2)
    await client.complete(task="define", messages=DEFINE, response_model=Definition, temperature=0.7)
    await client.complete(task="define", messages=DEFINE, response_model=Definition, max_tokens=100)
    assert stub.request_count == 4
    await client.aclose()
    # a rerun (new client, same database) makes zero new requests
    rerun = client_for(stub, db)
    again = await rerun.complete(task="define", messages=DEFINE, response_model=Definition)
    assert again.cached and stub.request_count == 4 and rerun.stats.cache_hits == 1
    # a different model is a different cache entry
    other = client_for(stub, db, model="other-model")
    fresh = await other.complete(task="define", messages=DEFINE, response_model=Definition)
    assert not fresh.cached and stub.request_count == 5
    # use_cache=False forces a request
    forced = await rerun.complete(task="define", messages=DEFINE, response_model=Definition, use_cache=False)
    assert not forced.cached and stub.request_count == 6


async def test_concurrency_bound_is_respected(stub, db):
    stub.latency_s = 0.15
    stub.responder = lambda request: ok({"definition": "sense " + request["messages"][-1]["content"]})
    client = client_for(stub, db, concurrency=3)
    results = await asyncio.gather(*[
        client.complete(task="define", messages=[{"role": "user", "content": f"word {i}"}], response_model=Definition)
        for i in range(10)
    ])
    assert all(r.error is None for r in results)
    assert stub.request_count == 10 and stub.max_in_flight == 3
    assert [r.value.definition for r in results] == [f"sense word {i}" for i in range(10)]


async def test_identical_concurrent_requests_are_sent_once(stub, db):
    stub.latency_s = 0.1
    stub.responder = lambda request: ok(GOOD)
    client = client_for(stub, db, concurrency=4)
    results = await asyncio.gather(*[
        client.complete(task="define", messages=DEFINE, response_model=Definition) for _ in range(5)
    ])
    assert stub.request_count == 1 and db["llm_calls"].count == 1
    assert sum(r.cached for r in results) == 4 and {r.call_id for r in results} == {results[0].call_id}


async def test_responders_by_schema_and_by_text(stub, db):
    pair = {"condition": "the person physically moved away", "question": "Which sentence implies that the person physically moved away?",
            "sentence_a": "She left the office at five.", "sentence_b": "She left her job at five.",
            "verb_form_a": "left", "verb_form_b": "left"}
    stub.responder = by_schema({
        "BasePair": ok(pair),
        "Definition": by_text([("office", ok({"definition": "to go away"}))], default=ok({"definition": "to quit"})),
    }, default=error(400, "unexpected schema"))
    client = client_for(stub, db)
    base = await client.complete(task="generate_base", messages=[{"role": "user", "content": "make a pair"}], response_model=BasePair)
    d1 = await client.complete(task="define", messages=[{"role": "user", "content": "She left the office."}], response_model=Definition)
    d2 = await client.complete(task="define", messages=[{"role": "user", "content": "She left her job."}], response_model=Definition)
    screen = await client.complete(task="screen", messages=[{"role": "user", "content": "x"}], response_model=PairScreening)
    assert base.value == BasePair(**pair)
    assert (d1.value.definition, d2.value.definition) == ("to go away", "to quit")
    assert screen.value is None and "unexpected schema" in screen.error


async def test_model_defaults_to_the_servers_first_model(stub, db):
    client = make_client("openai", db=db, base_url=stub.base_url)
    _OPEN.append(client)
    assert client.model == "stub-model" and client.backend == "openai"


async def test_secrets_are_never_stored(stub, db):
    secret = "sk-proj-ABCDEFGH1234567890secret"
    stub.responder = lambda request: error(401, f"Incorrect API key provided: {secret}.")
    client = make_client("openai", db=db, base_url=stub.base_url, api_key=secret, model="m", backoff_s=0.01)
    _OPEN.append(client)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value is None and stub.request_count == 1 and "HTTP 401" in result.error
    dump = json.dumps(list(db.query("SELECT * FROM llm_calls")))
    assert "ABCDEFGH" not in dump and "secret" not in dump and "***" in dump
    assert secret not in result.error


def test_missing_openai_key_names_the_fix(db, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(FbagentError) as err:
        make_client("openai", db=db)
    assert "OPENAI_API_KEY" in str(err.value) and "Fix: export OPENAI_API_KEY" in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_gemini_key_names_the_fix(db, monkeypatch):
    pytest.importorskip("google.genai")
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with pytest.raises(FbagentError, match="GEMINI_API_KEY") as err:
        make_client("gemini", db=db)
    assert "Fix: export GEMINI_API_KEY" in str(err.value)


def test_missing_packages_name_the_pip_command(db, monkeypatch):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import fails as if not installed
    with pytest.raises(FbagentError, match="llama-cpp-python") as err:
        make_client("llamacpp", db=db)
    assert "pip install 'fbagent[llama]'" in str(err.value)
    monkeypatch.setitem(sys.modules, "llguidance", None)
    with pytest.raises(FbagentError, match="llguidance") as err:
        make_client("local", db=db)
    assert "pip install 'fbagent[local]'" in str(err.value)
    monkeypatch.setitem(sys.modules, "google.genai", None)
    with pytest.raises(FbagentError, match="google-genai") as err:
        make_client("gemini", db=db, api_key="x")
    assert "pip install 'fbagent[gemini]'" in str(err.value)


def test_unknown_backend_and_bad_model_path(db):
    with pytest.raises(FbagentError, match="unknown LLM backend 'claude'") as err:
        make_client("claude", db=db)
    assert "openai, gemini, local, llamacpp" in str(err.value)
    with pytest.raises(FbagentError, match="does not exist"):
        make_client("local", db=db, model_path="/nonexistent/model.gguf")
    pytest.importorskip("llama_cpp", reason="the llama extra (llama-cpp-python) is not installed")
    with pytest.raises(FbagentError, match="does not exist"):
        make_client("llamacpp", db=db, model_path="/nonexistent/model.gguf")


async def test_gemini_backend_through_google_genai(stub, db):
    pytest.importorskip("google.genai")
    pytest.importorskip("jsonref")
    stub.script(error(429, "quota", retry_after=0), malformed("{"), ok(GOOD, prompt_tokens=11, completion_tokens=4))
    client = make_client("gemini", db=db, api_key="AIzaFAKEKEY0123456789", base_url=stub.root_url,
                         model="gemini-test", backoff_s=0.01)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    await client.aclose()
    assert result.value == Definition(**GOOD), result.error
    assert result.attempts == 3 and stub.request_count == 3
    assert all(p.endswith("/models/gemini-test:generateContent") for p in stub.paths)
    sent = stub.requests[-1]
    assert sent["generationConfig"]["responseMimeType"] == "application/json"
    assert (sent["generationConfig"]["maxOutputTokens"], sent["generationConfig"]["temperature"]) == (512, 0.0)
    assert "expert lexicographer" in json.dumps(sent)
    [row] = rows(db)
    assert row["backend"] == "gemini" and row["output_tokens"] >= 4 and row["input_tokens"] >= 11
    assert "AIzaFAKE" not in json.dumps(row)


def test_stub_answers_tools_mode(stub):
    """The stub also speaks instructor's TOOLS mode (tool_calls), for clients that use it."""
    import instructor
    import openai

    stub.responder = lambda request: ok(GOOD)
    raw = openai.OpenAI(base_url=stub.base_url, api_key="x", max_retries=0)
    client = instructor.from_openai(raw, mode=instructor.Mode.TOOLS)
    value = client.create(model="m", response_model=Definition, messages=DEFINE)
    assert value.definition == GOOD["definition"]
    assert stub.requests[0]["tool_choice"]["function"]["name"] == "Definition"
    stub.script(Reply(status=200, body={"nonsense": True}))
    with pytest.raises(Exception):  # noqa: B017 - any client-side error is fine here
        client.create(model="m", response_model=Definition, messages=DEFINE, max_retries=0)
    raw.close()


def test_one_client_serves_several_event_loops(stub, db):
    """A command may call asyncio.run more than once: the client rebinds its HTTP pool to the new loop."""
    stub.responder = lambda request: ok(GOOD)
    client = make_client("openai", db=db, base_url=stub.base_url, model="m", max_retries=0)

    async def ask(word: str):
        return await client.complete(task="define", messages=[{"role": "user", "content": word}], response_model=Definition)

    assert asyncio.run(ask("first")).error is None
    assert asyncio.run(ask("second")).error is None
    assert asyncio.run(ask("first")).cached
    assert stub.request_count == 2
    asyncio.run(client.aclose())


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_connection_refused_is_retried_then_recorded(db):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    client = make_client("openai", db=db, base_url=url, model="m", max_retries=2, backoff_s=0.01)
    _OPEN.append(client)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value is None and result.attempts == 3
    assert result.error == f"cannot connect to {url} (connection refused)"
    assert client.stats.errors == {result.error: 1}
    [row] = rows(db)
    assert row["error"] == result.error and len(row["request"]["transport_errors"]) == 2


def test_model_discovery_failure_names_the_fix(db):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    with pytest.raises(FbagentError, match="did not answer") as err:
        make_client("openai", db=db, base_url=url)
    assert "Fix: pass --model NAME" in str(err.value)


async def test_a_cached_answer_that_no_longer_validates_is_asked_again(stub, db):
    stub.responder = lambda request: ok(GOOD)
    client = client_for(stub, db)
    first = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    db.execute("UPDATE llm_calls SET response = ? WHERE id = ?", ['{"definition": "  "}', first.call_id])
    db.conn.commit()
    second = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert not second.cached and second.value == Definition(**GOOD) and stub.request_count == 2
    third = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert third.cached and third.call_id == second.call_id and stub.request_count == 2


async def test_openai_mode_can_be_switched_to_tools(stub, db, monkeypatch):
    monkeypatch.setenv("FBAGENT_OPENAI_MODE", "tools")
    stub.script(ok(GOOD))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(**GOOD)
    assert stub.requests[0]["tool_choice"]["function"]["name"] == "Definition"
    assert "response_format" not in stub.requests[0]
    assert rows(db)[0]["request"]["mode"] == "tools"
    monkeypatch.setenv("FBAGENT_OPENAI_MODE", "yaml")
    with pytest.raises(FbagentError, match="FBAGENT_OPENAI_MODE='yaml'"):
        client_for(stub, db)


def test_local_answers_with_raw_control_characters_become_valid_json():
    """llama.cpp's grammar allows raw newlines/tabs inside JSON strings; they must not cost re-asks."""
    import json

    from fbagent.providers.local import _json_safe
    from fbagent.schemas import Definition

    raw = '{"definition": "to go away\nfrom a place\t(physically)"}'
    try:
        json.loads(raw, strict=True)
        raise AssertionError("raw control characters should be invalid JSON")
    except json.JSONDecodeError:
        pass
    assert Definition.model_validate_json(_json_safe(raw)).definition == "to go away from a place (physically)"


async def test_gemini_truncation_is_final_and_keeps_the_text(stub, db):
    """A MAX_TOKENS answer is not re-asked with the same limit: one request, the truncation message, the text kept."""
    pytest.importorskip("google.genai")
    pytest.importorskip("jsonref")
    stub.script(ok('{"definition": "to go aw', finish_reason="length", completion_tokens=5))
    client = make_client("gemini", db=db, api_key="AIzaFAKEKEY0123456789", base_url=stub.root_url,
                         model="gemini-test", backoff_s=0.01)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition, max_tokens=5)
    await client.aclose()
    assert stub.request_count == 1 and result.attempts == 1
    assert result.value is None and result.error.startswith("answer truncated at max_tokens")
    [row] = rows(db)
    request = row["request"]
    assert request["last_output"] == '{"definition": "to go aw' and row["output_tokens"] == 5


async def test_openai_truncation_after_reasks_keeps_the_truncated_text(stub, db):
    stub.script(malformed('{"definition": '), ok('{"definition": "to go aw', finish_reason="length"))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition, max_tokens=5)
    assert stub.request_count == 2 and "max_tokens" in result.error
    request = rows(db)[-1]["request"]
    assert request["reasks"][0]["output"] == '{"definition": '
    assert request["last_output"] == '{"definition": "to go aw'


@pytest.mark.parametrize("answer", [
    '```json\n{"definition": "to go away"}\n```',
    'Sure! Here is the JSON: {"definition": "to go away"} Hope this helps.',
    '{"definition": "to go away"}',
])
async def test_json_mode_unwraps_fenced_and_prose_wrapped_json(stub, db, monkeypatch, answer):
    monkeypatch.setenv("FBAGENT_OPENAI_MODE", "json")
    stub.script(ok(answer))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(definition="to go away"), result.error
    assert stub.request_count == 1  # no re-ask


@pytest.mark.parametrize("transport", ["direct", "sdk"])
@pytest.mark.parametrize("answer", [
    '```json\n{"definition": "to go away"}\n```',
    'Sure! Here is the JSON: {"definition": "to go away"} Hope this helps.',
])
async def test_json_schema_mode_unwraps_fenced_and_prose_wrapped_json(stub, db, monkeypatch, answer, transport):
    """Servers that do not enforce the schema wrap the object; the default mode takes it out, no re-ask."""
    monkeypatch.delenv("FBAGENT_OPENAI_MODE", raising=False)
    monkeypatch.setenv("FBAGENT_OPENAI_TRANSPORT", transport)
    stub.script(ok(answer))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(definition="to go away"), result.error
    assert stub.request_count == 1


async def test_json_schema_mode_still_reasks_a_fenced_answer_that_fails_validation(stub, db):
    stub.script(ok('```json\n{"wrong": 1}\n```'), ok('{"definition": "to go away"}'))
    client = client_for(stub, db)
    result = await client.complete(task="define", messages=DEFINE, response_model=Definition)
    assert result.value == Definition(definition="to go away") and stub.request_count == 2


async def test_in_flight_counts_requests_sent_and_not_answered(stub, db):
    import asyncio

    stub.script(slow(1.0, GOOD), slow(1.0, GOOD))
    client = client_for(stub, db, concurrency=4)
    calls = [asyncio.create_task(client.complete(task="define", messages=m, response_model=Definition, seed=s))
             for s, m in ((1, DEFINE), (2, DEFINE))]
    for _ in range(100):
        if stub.request_count == 2:
            break
        await asyncio.sleep(0.02)
    assert client.in_flight == 2            # both sent, neither answered: generate's bar shows "calls 0+2"
    results = await asyncio.gather(*calls)
    assert client.in_flight == 0 and all(r.error is None for r in results) and client.stats.calls == 2
