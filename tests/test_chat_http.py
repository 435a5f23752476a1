"""fbagent.providers.chat_http: the aiohttp Chat Completions client against real servers on 127.0.0.1.

The scripted server (tests/openai_stub.py) records every body it gets, so the
direct client and the real openai SDK are compared on the wire; the
header-echoing server (tests/auth_echo.py) shows what credentials and path
arrive; errors are classified and described as for the SDK.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

import openai
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from auth_echo import AuthEcho  # noqa: E402
from openai_stub import OpenAIStub, error, ok, slow  # noqa: E402

from fbagent import providers  # noqa: E402
from fbagent.providers.chat_http import ChatCompletionsHTTP, ChatHTTPStatusError, completions_url  # noqa: E402
from fbagent.schemas import Definition  # noqa: E402

BODY = {
    "model": "stub-model", "messages": [{"role": "system", "content": "Tu es lexicographe."},
                                        {"role": "user", "content": 'Définis « partir » dans : Elle est partie.'}],
    "temperature": 0.0, "max_tokens": 64, "seed": 7,
    "response_format": {"type": "json_schema", "json_schema": {"name": "Definition",
                                                               "schema": Definition.model_json_schema()}},
}


def _run(http: ChatCompletionsHTTP, body: dict) -> dict:
    async def main():
        try:
            return await http.create(body)
        finally:
            await http.aclose()

    return asyncio.run(main())


def test_the_body_on_the_wire_is_the_one_the_sdk_sends_and_the_answer_is_the_same():
    with OpenAIStub(lambda request: ok({"definition": "s'en aller"})) as stub:
        async def sdk():
            client = openai.AsyncOpenAI(base_url=stub.base_url, api_key="sk-test", max_retries=0)
            try:
                return (await client.chat.completions.create(**BODY)).model_dump(exclude_none=True)
            finally:
                await client.close()

        by_sdk = asyncio.run(sdk())
        direct = _run(ChatCompletionsHTTP(base_url=stub.base_url, api_key="sk-test", timeout_s=10), BODY)
        sent_by_sdk, sent_direct = stub.requests
    assert sent_direct == sent_by_sdk == BODY
    assert direct["choices"][0]["message"]["content"] == by_sdk["choices"][0]["message"]["content"]
    assert direct["usage"] == by_sdk["usage"]


def test_the_key_goes_as_a_bearer_header_user_info_is_not_sent_and_the_query_is_kept():
    with AuthEcho(status=401) as server:
        url = server.url.replace("http://", "http://user:URLPASS@") + "/v1?api-version=2"
        http = ChatCompletionsHTTP(base_url=url, api_key="sk-test-123456", timeout_s=10)
        with pytest.raises(ChatHTTPStatusError) as err:
            _run(http, BODY)
    exc = err.value
    assert exc.status_code == 401 and exc.message.startswith("Error code: 401 - ")
    assert "Bearer sk-test-123456" in exc.message        # what the server got (it echoes it)
    assert "/v1/chat/completions?api-version=2" in exc.message
    assert "URLPASS" not in exc.message and "Basic" not in exc.message
    line = providers.describe_error(exc, provider_name="openai", endpoint_url=providers.public_url(url))
    assert line.startswith("HTTP 401 from openai: ") and "sk-test-123456" not in line
    assert not providers.is_transient(exc)


def test_a_rate_limit_is_transient_and_its_retry_after_is_read():
    with OpenAIStub() as stub:
        stub.script(error(429, "slow down", retry_after=0.25))
        http = ChatCompletionsHTTP(base_url=stub.base_url, api_key=None, timeout_s=10)
        with pytest.raises(ChatHTTPStatusError) as err:
            _run(http, BODY)
        url = stub.base_url
    assert providers.is_transient(err.value)
    assert providers.retry_after_s(err.value) == pytest.approx(0.25)
    assert "slow down" in providers.describe_error(err.value, provider_name="openai", endpoint_url=url)


def test_retries_go_through_the_shared_retry_loop_and_then_succeed():
    with OpenAIStub(lambda request: ok({"definition": "to go"})) as stub:
        stub.script(error(503), error(500))
        http = ChatCompletionsHTTP(base_url=stub.base_url, api_key=None, timeout_s=10)
        seen: list[str] = []

        async def main():
            try:
                return await providers.call_with_retries(
                    lambda: http.create(BODY), providers.RetryPolicy(retries=3, backoff_s=0.01),
                    on_retry=lambda exc: seen.append(str(providers.status_of(exc))))
            finally:
                await http.aclose()

        answer = asyncio.run(main())
        assert stub.request_count == 3
    assert seen == ["503", "500"]
    assert answer["choices"][0]["message"]["content"] == '{"definition": "to go"}'


def test_a_refused_connection_and_a_timeout_read_as_one_line_each():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]       # closed again below: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    with pytest.raises(Exception) as refused:
        _run(ChatCompletionsHTTP(base_url=url, api_key=None, timeout_s=5), BODY)
    assert providers.is_transient(refused.value)
    assert providers.describe_error(refused.value, provider_name="openai", endpoint_url=url) == \
        f"cannot connect to {url} (connection refused)"

    with OpenAIStub() as stub:
        stub.script(slow(2.0, {"definition": "late"}))
        with pytest.raises(Exception) as late:
            _run(ChatCompletionsHTTP(base_url=stub.base_url, api_key=None, timeout_s=0.3), BODY)
        url = stub.base_url
    assert isinstance(late.value, TimeoutError) and providers.is_transient(late.value)
    assert providers.describe_error(late.value, provider_name="openai", endpoint_url=url,
                                    timeout_s=0.3) == f"request to {url} timed out after 0.3 s"


def test_completions_url():
    assert completions_url(None) == "https://api.openai.com/v1/chat/completions"
    assert completions_url("http://localhost:8000/v1/") == "http://localhost:8000/v1/chat/completions"
    assert completions_url("http://u:p@[::1]:8000/v1?key=1") == "http://[::1]:8000/v1/chat/completions?key=1"


@pytest.mark.parametrize("body", ["<!DOCTYPE html><html>login</html>", [1, 2], {"object": "list"}, {"choices": []}],
                         ids=["html", "list", "no-choices", "empty-choices"])
def test_an_answer_that_is_not_a_chat_completion_is_one_clear_permanent_error(body):
    from openai_stub import raw

    from fbagent.providers.chat_http import ChatResponseError

    with OpenAIStub() as stub:
        stub.script(raw(body))
        with pytest.raises(ChatResponseError) as err:
            _run(ChatCompletionsHTTP(base_url=stub.base_url, api_key=None, timeout_s=5), BODY)
        url = stub.base_url
    assert not providers.is_transient(err.value)
    line = providers.describe_error(err.value, provider_name="openai", endpoint_url=url)
    assert line.startswith("the server's answer is not") and f"(from {url}; is it the /v1 URL" in line


def test_a_body_cut_short_is_a_transient_network_error_not_an_http_status():
    """aiohttp's payload errors carry ``code = 400`` (its parser's); that is no HTTP status."""
    async def main():
        async def handle(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 315\r\n\r\n{\"choi")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"
        http = ChatCompletionsHTTP(base_url=url, api_key=None, timeout_s=5)
        try:
            await http.create(BODY)
        except Exception as exc:  # noqa: BLE001 - examined below
            return exc, url
        finally:
            await http.aclose()
            server.close()
        raise AssertionError("a cut body was accepted")

    exc, url = asyncio.run(main())
    assert providers.status_of(exc) is None and providers.is_transient(exc)
    # named as what happened (issue 30 item 3: it said "cannot connect to")
    assert providers.describe_error(exc, provider_name="openai", endpoint_url=url).startswith(
        f"the connection to {url} was reset before the answer was complete")


def test_retry_after_as_an_http_date():
    import email.utils
    import time

    later = email.utils.formatdate(time.time() + 20, usegmt=True)
    exc = ChatHTTPStatusError(429, "slow down", {"retry-after": later})
    assert 18 <= providers.retry_after_s(exc) <= 20
    vague = ChatHTTPStatusError(503, "busy", {"retry-after": "soon"})
    assert providers.retry_after_s(vague) is None


def test_a_key_with_a_control_character_is_refused_before_any_request():
    from fbagent.errors import FbagentError

    with pytest.raises(FbagentError, match="control character"):
        ChatCompletionsHTTP(base_url="http://127.0.0.1:9/v1", api_key="sk-abc\nX-Evil: 1", timeout_s=5)


def test_an_ipv6_url_keeps_its_brackets_where_it_is_shown():
    assert providers.public_url("http://u:p@[::1]:8000/v1?key=1") == "http://[::1]:8000/v1"
