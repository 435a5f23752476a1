"""fbagent.providers.structured: instructor's JSON-schema protocol without instructor on the hot path.

The request and the re-ask messages are compared with what instructor itself
builds; whole calls through both transports (``FBAGENT_OPENAI_TRANSPORT``
``direct`` and ``sdk``) against the scripted server on 127.0.0.1 send the same
bodies and store the same ``llm_calls`` rows.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from openai.types.chat import ChatCompletion
from pydantic import ValidationError

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import get_call  # noqa: E402
from openai_stub import OpenAIStub, malformed, ok  # noqa: E402

from fbagent import schemas  # noqa: E402
from fbagent.llm import make_client  # noqa: E402
from fbagent.providers.fastpath import instructor_model  # noqa: E402
from fbagent.providers.structured import reask_messages, response_format  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402

MODELS = [schemas.BasePair, schemas.ExtendedSentence, schemas.Definition, schemas.PairScreening,
          schemas.FourChoiceAnswer]
MESSAGES = [{"role": "system", "content": "You are an expert lexicographer."},
            {"role": "user", "content": 'Define "leave" as used in: She left the room.'}]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_the_response_format_is_the_one_instructor_sends(model):
    from instructor.v2.providers.openai.handlers import OpenAIJSONSchemaHandler

    _model, kwargs = OpenAIJSONSchemaHandler().prepare_request(instructor_model(model), {"messages": MESSAGES})
    assert response_format(model) == kwargs["response_format"]


def test_the_reask_messages_are_the_ones_instructor_appends():
    from instructor.v2.providers.openai.handlers import reask_md_json

    content = '{"definition": 3}'
    try:
        schemas.Definition.model_validate_json(content)
    except ValidationError as exc:
        error = exc
    completion = ChatCompletion.model_validate({
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]})
    theirs = reask_md_json({"messages": list(MESSAGES)}, completion, error)["messages"][len(MESSAGES):]
    assert reask_messages(content, error) == theirs


def _calls_through(transport: str, monkeypatch, tmp_path, replies, model=schemas.Definition, max_tokens=512):
    """One ``complete`` per transport against a fresh stub: (bodies the server got, stored rows, result)."""
    monkeypatch.setenv("FBAGENT_OPENAI_TRANSPORT", transport)
    db = open_db(tmp_path / f"{transport}.db")
    with OpenAIStub() as stub:
        stub.script(*replies)

        async def main():
            client = make_client("openai", db=db, base_url=stub.base_url, model="stub-model", backoff_s=0.01)
            try:
                return await client.complete(task="define", messages=MESSAGES, response_model=model, seed=5,
                                             max_tokens=max_tokens)
            finally:
                await client.aclose()

        result = asyncio.run(main())
        bodies, url = stub.requests, stub.base_url
    rows = [get_call(db, r["id"]) for r in db.query("SELECT id FROM llm_calls ORDER BY id")]
    keep = ("task", "backend", "model", "cache_key", "request", "response", "input_tokens", "output_tokens",
            "attempts", "error")
    kept = [{k: row[k] for k in keep} for row in rows]
    for row in kept:
        assert row["request"].pop("base_url") == url  # one stub per transport: ports differ
    return bodies, kept, result


@pytest.mark.parametrize("case", ["valid", "reasked", "failed", "truncated"])
def test_both_transports_send_the_same_requests_and_store_the_same_rows(case, monkeypatch, tmp_path):
    replies = {
        "valid": [ok({"definition": "to go away from a place"})],
        "reasked": [malformed(), ok({"definition": "to go away"})],
        "failed": [malformed()] * 4,
        "truncated": [ok('{"definition": "to go', finish_reason="length")],
    }[case]
    direct = _calls_through("direct", monkeypatch, tmp_path, replies)
    sdk = _calls_through("sdk", monkeypatch, tmp_path, replies)
    assert direct[0] == sdk[0]                      # the bodies on the wire, every attempt
    assert direct[1] == sdk[1]                      # the stored rows (ids, times, latency aside)
    assert (direct[2].value, direct[2].error, direct[2].attempts) == (sdk[2].value, sdk[2].error, sdk[2].attempts)
    row = direct[1][0]
    if case == "valid":
        assert direct[2].value == schemas.Definition(definition="to go away from a place")
        assert type(direct[2].value) is schemas.Definition
    elif case == "reasked":
        assert row["attempts"] == 2 and len(row["request"]["reasks"]) == 1
        assert direct[0][1]["messages"][-1]["content"].startswith("Correct your JSON ONLY RESPONSE")
    elif case == "failed":
        assert row["attempts"] == 4 and direct[2].error.startswith("answer failed validation for Definition")
    else:
        assert direct[2].error.startswith("answer truncated at max_tokens")
        assert row["request"]["last_output"] == '{"definition": "to go'
    assert json.dumps(row["request"])  # stored as JSON
