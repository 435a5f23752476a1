"""OpenAI-compatible chat completions over aiohttp: one ``POST {base}/chat/completions``, JSON in, JSON out.

The wire protocol is OpenAI's Chat Completions API (``POST /v1/chat/completions``,
``Authorization: Bearer KEY``), which vLLM ``serve``, llama.cpp ``llama-server``,
Ollama and OpenAI all speak. This client sends the body it is given as it is
and returns the answer as the parsed JSON object; it adds nothing and
transforms nothing, so the request is the one the openai SDK sends for the
same keyword arguments (``tests/test_chat_http.py`` compares the two on the
wire).

Why not the SDK: measured against a constant-time server on 127.0.0.1
(``benchmarks/bench_generate.py``), one request costs the openai SDK over
httpx about 1.1-1.7 ms of CPU and aiohttp about 0.15 ms; ``import openai``
costs 0.6-0.9 s of start-up. fbagent sends tens of thousands of small
requests, so it uses aiohttp (a C HTTP parser, pooled keep-alive connections)
for the plain JSON exchange and keeps the SDK for what needs it
(``FBAGENT_OPENAI_TRANSPORT=sdk``, instructor's other modes).

Errors keep the shapes :mod:`fbagent.providers.errors` classifies: an HTTP
error status is a :class:`ChatHTTPStatusError` (``status_code``, ``message``
as the SDK words it, ``response.headers`` for ``Retry-After``); timeouts are
``TimeoutError`` subclasses and refused connections aiohttp's
``ClientConnectorError``, both transient.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import orjson
from aiohttp.helpers import get_env_proxy_for_url
from yarl import URL

from fbagent import __version__
from fbagent.errors import FbagentError
from fbagent.providers.clients import LoopClients
from fbagent.providers.names import host_and_port

DEFAULT_BASE_URL = "https://api.openai.com/v1"
MAX_ANSWER_BYTES = 32 * 1024 * 1024   # a larger answer is refused (a chat answer is kilobytes)

#: environment variables the openai SDK also reads, sent as its headers
_ENV_HEADERS = (("OPENAI_ORG_ID", "OpenAI-Organization"), ("OPENAI_PROJECT_ID", "OpenAI-Project"))


class ChatHTTPStatusError(Exception):
    """The server's final answer has a status outside 2xx (an error; or a redirect without a target).

    ``status_code``: the status; ``body``: the parsed JSON error body, or its
    text; ``message``: ``"Error code: 401 - {body}"`` (the openai SDK's wording);
    ``response.headers``: the response headers (``Retry-After``).
    """

    def __init__(self, status_code: int, body: Any, headers: Any) -> None:
        self.status_code = status_code
        self.body = body
        self.message = f"Error code: {status_code}" + (f" - {body}" if body not in (None, "") else "")
        self.response = SimpleNamespace(status_code=status_code, headers=headers)
        super().__init__(self.message)


class ChatResponseError(ValueError):
    """A 2xx answer that is not a chat completion: not JSON (an HTML page: usually a wrong ``--base-url``),
    JSON that is not an object, an object without ``choices``, or larger than :data:`MAX_ANSWER_BYTES`.
    Not worth another try, unless ``transient``: an empty body or JSON cut off before its end (a server
    or proxy that dropped the rest), which :func:`fbagent.providers.is_transient` retries."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


def _cut_off(raw: bytes, err: ValueError) -> bool:
    """Whether ``raw`` is JSON that stops before its end (``err``: the decode error): a cut-off answer."""
    text = raw.strip()
    unterminated = str(getattr(err, "msg", "")).startswith("Unterminated string")
    return text[:1] in (b"{", b"[") and (text[-1:] not in (b"}", b"]") or unterminated)


def _start(raw: bytes) -> str:
    return raw[:120].decode("utf-8", "replace").strip()


def completions_url(base_url: str | None) -> str:
    """``{base_url}/chat/completions`` with the base URL's query kept and its user info removed.

    ``base_url``: e.g. ``http://localhost:8000/v1`` (``None``: OpenAI's). User
    info (``http://user:pass@host``) is not sent as Basic auth: the API key is
    the one credential, as with the SDK's ``Authorization`` header.
    """
    parts = urlsplit(base_url or DEFAULT_BASE_URL)
    return urlunsplit((parts.scheme, host_and_port(parts), parts.path.rstrip("/") + "/chat/completions",
                       parts.query, ""))


@dataclass(frozen=True)
class Answer:
    """The parts of a parsed chat completion fbagent reads: the first choice's text ``content`` (``None``
    when absent or not a string), its ``finish_reason``, its ``message`` and the ``usage`` object (empty
    dicts when absent or not objects)."""

    content: str | None
    finish_reason: Any
    message: dict[str, Any]
    usage: dict[str, Any]


def answer_of(completion: Any) -> Answer:
    """The :class:`Answer` of ``completion`` (a parsed chat completion); odd types count as absent, never raise."""
    if not isinstance(completion, dict):
        return Answer(None, None, {}, {})
    choices = completion.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message: dict[str, Any] = choice["message"] if isinstance(choice.get("message"), dict) else {}
    content = message.get("content") if isinstance(message.get("content"), str) else None
    usage: dict[str, Any] = completion["usage"] if isinstance(completion.get("usage"), dict) else {}
    return Answer(content, choice.get("finish_reason"), message, usage)


def token_count(usage: Any, key: str) -> int | None:
    """``usage[key]`` when it is a whole number of tokens (0 or more), else ``None``."""
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def request_headers(api_key: str | None) -> dict[str, str]:
    """Headers of every request: JSON content, the bearer key when there is one, organisation/project from env."""

    headers = {"Content-Type": "application/json", "Accept": "application/json",
               "User-Agent": f"fbagent/{__version__}"}
    if api_key and any(ord(c) < 32 or ord(c) == 127 for c in api_key):
        raise FbagentError("the API key contains a control character (a newline?)",
                           "set OPENAI_API_KEY (or --api-key) to the key alone, e.g. export OPENAI_API_KEY=\"$(echo $OPENAI_API_KEY)\"")
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    for var, name in _ENV_HEADERS:
        if os.environ.get(var):
            headers[name] = os.environ[var]
    return headers


def env_proxy(url: str) -> tuple[Any, Any]:
    """``(proxy URL, proxy auth)`` for ``url`` from ``HTTP(S)_PROXY`` / ``NO_PROXY``, or ``(None, None)``.

    Looked up once per client, not per request (aiohttp's ``trust_env`` would
    also read ``~/.netrc`` in a worker thread on every request).
    """
    try:
        return get_env_proxy_for_url(URL(url))
    except LookupError:
        return None, None


class ChatCompletionsHTTP:
    """``POST /chat/completions`` to an OpenAI-compatible server, one aiohttp session per event loop.

    ``base_url``: the server (``None``: OpenAI); ``api_key``: sent as
    ``Authorization: Bearer`` (empty: no header); ``timeout_s``: per request,
    seconds, connect to last byte. Concurrency is the caller's to bound (the
    connection pool is unlimited). Proxies follow ``HTTP(S)_PROXY`` /
    ``NO_PROXY`` as with the SDK (:func:`env_proxy`). Call :meth:`aclose` inside each loop that
    used the client before it ends.
    """

    def __init__(self, *, base_url: str | None, api_key: str | None, timeout_s: float) -> None:
        self.url = completions_url(base_url)
        self.timeout_s = timeout_s
        self._headers = request_headers(api_key)
        self._proxy: tuple[Any, Any] | None = None  # (proxy URL, its auth) from the environment, looked up once
        self._proxies: dict[str, tuple[Any, Any]] = {}  # the same for the other servers' URLs (create(url=...))
        #: the aiohttp sessions, one per event loop (``aclose`` / ``close_all`` close them)
        self.sessions: LoopClients[Any] = LoopClients(self._session, self._close)

    def _session(self) -> Any:
        if self._proxy is None:
            self._proxy = env_proxy(self.url)
        return aiohttp.ClientSession(
            headers=self._headers, timeout=aiohttp.ClientTimeout(total=self.timeout_s),
            connector=aiohttp.TCPConnector(limit=0),
        )

    @staticmethod
    async def _close(session: Any) -> None:
        await session.close()

    async def create(self, body: dict[str, Any], url: str | None = None) -> dict[str, Any]:
        """Send ``body`` (a Chat Completions request: ``model``, ``messages``, ...) and return the parsed answer.
        ``url``: another server's ``/chat/completions`` URL on the same sessions (default: this client's;
        :class:`fbagent.providers.endpoints.EndpointPool`).

        Redirects are followed, as the SDK follows them (a 301/302/303 turns the
        POST into a GET, which a chat endpoint refuses; 307/308 keep it).
        Raises :class:`ChatHTTPStatusError` for a final status outside 2xx,
        :class:`ChatResponseError` for a 2xx answer that is not a chat completion
        (see there), and
        aiohttp's ``ClientError`` / ``TimeoutError`` for connection problems
        and timeouts. ``TypeError`` when ``body`` is not JSON-serialisable.
        """
        # a ready payload: aiohttp's payload-type lookup for plain bytes costs a fifth of a request's CPU; the body
        # as compact UTF-8 JSON by orjson (the same JSON value as json.dumps gives, in about a fifth of its CPU:
        # the request's JSON encoding was 2% of the event loop thread; the cache key and the stored request keep
        # json's text, so cache keys and rows are unchanged)
        data = aiohttp.BytesPayload(orjson.dumps(body), content_type="application/json")
        session = self.sessions.get()
        if url is None:
            proxy, proxy_auth = self._proxy or (None, None)
        else:
            if url not in self._proxies:
                self._proxies[url] = env_proxy(url)
            proxy, proxy_auth = self._proxies[url]
        async with session.post(url or self.url, data=data, proxy=proxy, proxy_auth=proxy_auth) as response:
            buffer = bytearray()
            async for chunk in response.content.iter_chunked(1 << 16):
                buffer += chunk
                if len(buffer) > MAX_ANSWER_BYTES:
                    raise ChatResponseError(f"the server's answer is larger than {MAX_ANSWER_BYTES >> 20} MiB "
                                            f"(starts with {_start(bytes(buffer))!r})")
            raw = bytes(buffer)
            if not 200 <= response.status < 300:
                text = raw.decode("utf-8", "replace").strip()
                try:
                    parsed: Any = json.loads(text)
                except ValueError:
                    parsed = text[:2000]
                raise ChatHTTPStatusError(response.status, parsed, response.headers)
        if not raw.strip():
            raise ChatResponseError(f"the server's {response.status} answer is empty", transient=True)
        try:
            answer = json.loads(raw)
        except ValueError as err:
            if _cut_off(raw, err):
                raise ChatResponseError(f"the server's answer was cut off after {len(raw):,} bytes "
                                        f"(ends with {raw[-40:].decode('utf-8', 'replace')!r})", transient=True) from None
            raise ChatResponseError(f"the server's answer is not JSON (starts with {_start(raw)!r})") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("choices"), list) or not answer["choices"]:
            raise ChatResponseError(f"the server's answer is not a chat completion (no choices): {_start(raw)!r}")
        return answer

    async def aclose(self) -> None:
        """Close the running loop's session (its pooled connections)."""
        await self.sessions.aclose()

    def close_all(self) -> None:
        """Close sessions left by loops that ended without :meth:`aclose`."""
        self.sessions.close_all()
