"""fbagent.providers.fastpath: the same request as the SDKs send, without their per-call repetition.

Real openai SDK against the scripted server (tests/openai_stub.py) and the
header-echoing server (tests/auth_echo.py) on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import openai
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from auth_echo import AuthEcho  # noqa: E402
from openai_stub import OpenAIStub, ok  # noqa: E402

from fbagent.providers.fastpath import direct_chat_create, instructor_model  # noqa: E402
from fbagent.schemas import BasePair, Definition  # noqa: E402

KWARGS = {
    "model": "stub-model", "messages": [{"role": "system", "content": "You are a lexicographer."},
                                        {"role": "user", "content": 'Define "leave" in: She left.'}],
    "temperature": 0.0, "max_tokens": 64, "seed": 7,
    "response_format": {"type": "json_schema", "json_schema": {"name": "Definition",
                                                               "schema": Definition.model_json_schema()}},
}


def test_the_direct_create_sends_the_body_the_sdk_sends_and_returns_the_same_completion():
    with OpenAIStub(lambda request: ok({"definition": "to go away"})) as stub:
        async def main():
            client = openai.AsyncOpenAI(base_url=stub.base_url, api_key="sk-test", max_retries=0)
            sdk = await client.chat.completions.create(**KWARGS)
            direct = await direct_chat_create(client)(**KWARGS)
            extra = await direct_chat_create(client)(**KWARGS, metadata={"run": "1"})  # not plain: the SDK's path
            await client.close()
            return sdk, direct, extra

        sdk, direct, extra = asyncio.run(main())
        first, second, third = stub.requests
    assert second == first
    assert third == {**first, "metadata": {"run": "1"}}
    assert type(direct) is type(sdk)
    assert direct.choices[0].message.content == sdk.choices[0].message.content == '{"definition": "to go away"}'
    assert direct.usage.completion_tokens == sdk.usage.completion_tokens


def test_the_direct_create_sends_the_api_key_and_raises_the_sdk_errors():
    with AuthEcho(status=401) as server:
        async def main():
            client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="sk-test-123", max_retries=0)
            try:
                with pytest.raises(openai.AuthenticationError) as err:
                    await direct_chat_create(client)(**KWARGS)
                return str(err.value)
            finally:
                await client.close()

        message = asyncio.run(main())
    assert "Authorization: Bearer sk-test-123" in message   # the header reached the server


def test_instructor_model_is_built_once_and_keeps_the_model():
    from instructor.v2.core.function_calls import ResponseSchema

    wrapped = instructor_model(BasePair)
    assert instructor_model(BasePair) is wrapped
    assert issubclass(wrapped, BasePair) and issubclass(wrapped, ResponseSchema)
    assert wrapped.__name__ == "BasePair"
    assert wrapped.model_json_schema()["properties"] == BasePair.model_json_schema()["properties"]
    assert instructor_model(wrapped) is wrapped
    with pytest.raises(ValueError):   # the validators come along: a blank definition is still refused
        instructor_model(Definition).model_validate({"definition": "   "})
