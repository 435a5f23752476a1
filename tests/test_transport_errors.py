"""Transport faults named as what they are and retried like any transient error (issue 30 item 3): a
connection reset in the middle of an answer's body, an empty 200 answer, a 200 answer cut off before its
end. A raw socket server on 127.0.0.1 sends exactly the bytes of each fault to the real aiohttp client of
fbagent.providers.chat_http; the retry loop is fbagent.providers.call_with_retries."""

from __future__ import annotations

import asyncio
import json
import socket
import threading

import pytest

from fbagent.providers import RetryPolicy, call_with_retries, describe_error, is_transient
from fbagent.providers.chat_http import ChatCompletionsHTTP, ChatResponseError

GOOD = json.dumps({"id": "x", "object": "chat.completion", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}]}).encode()


def _http(body: bytes, length: int | None = None) -> bytes:
    n = len(body) if length is None else length
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + str(n).encode()
            + b"\r\nConnection: close\r\n\r\n" + body)


class RawServer:
    """Answers the n-th request with ``replies[n]`` (raw bytes; the last one repeats), then closes."""

    def __init__(self, *replies: bytes) -> None:
        self.replies, self.count = list(replies), 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, rest = data.partition(b"\r\n\r\n")
                length = int(next(h.split(b":")[1] for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")))
                while len(rest) < length:
                    rest += conn.recv(65536)
                reply = self.replies[min(self.count, len(self.replies) - 1)]
                self.count += 1
                conn.sendall(reply)
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST

    def close(self) -> None:
        self.sock.close()


def _send(server: RawServer, retries: int = 2):
    client = ChatCompletionsHTTP(base_url=server.url, api_key=None, timeout_s=5)

    async def go():
        try:
            return await call_with_retries(lambda: client.create({"model": "m", "messages": []}),
                                           RetryPolicy(retries=retries, backoff_s=0.01, max_backoff_s=0.01))
        finally:
            await client.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize(("fault", "named"), [
    (_http(GOOD[:20], length=len(GOOD)), "was reset before the answer was complete"),   # body cut, socket reset
    (_http(b""), "answer is empty"),
    (_http(GOOD[:-7]), "answer was cut off after"),
])
def test_a_fault_mid_answer_is_named_and_retried(fault, named):
    server = RawServer(fault, _http(GOOD))
    try:
        assert _send(server)["choices"][0]["message"]["content"] == "{}"   # the retry got the answer
        assert server.count == 2
        failing = RawServer(fault)
        with pytest.raises(Exception) as err:
            _send(failing, retries=0)
        failing.close()
    finally:
        server.close()
    assert is_transient(err.value)
    line = describe_error(err.value, provider_name="openai", endpoint_url="http://h/v1")
    assert named in line and "cannot connect" not in line, line


def test_a_page_that_is_not_json_is_still_permanent():
    err = ChatResponseError("the server's answer is not JSON (starts with '<html>')")
    assert not is_transient(err)
    assert "is it the /v1 URL" in describe_error(err, provider_name="openai", endpoint_url="http://h/v1")
