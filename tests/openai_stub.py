"""A scripted OpenAI-compatible (and Gemini-compatible) HTTP server on 127.0.0.1 for tests and benchmarks.

Start it, point a client at ``stub.base_url`` and decide per request what it
answers::

    from openai_stub import OpenAIStub, Reply, ok, error   # tests/ on sys.path (pytest does this)

    with OpenAIStub(lambda req: ok({"definition": "to go away"})) as stub:
        client = make_client("openai", db=db, base_url=stub.base_url, model="stub")
        ...
        assert stub.request_count == 1

Endpoints: ``POST /v1/chat/completions``, ``GET /v1/models`` (OpenAI shape)
and ``POST /v1beta/models/{model}:generateContent`` (google-genai shape).

What it answers, per request, in this order:

1. the next :class:`Reply` queued with :meth:`OpenAIStub.script` (one per request);
2. else ``responder(request_json)``: the full parsed request body (messages,
   ``response_format``, ``tools``, ``seed``...; for Gemini requests the
   genai body), returning a :class:`Reply`, a ``str`` (answer text), a ``dict``
   or pydantic object (sent as JSON text), or ``None`` (HTTP 500);
3. else HTTP 500 "no scripted reply".

The answer text goes into ``choices[0].message.content`` (JSON modes), or into
a ``tool_calls`` entry when the request has ``tools`` (instructor's TOOLS mode),
or into ``candidates[0].content.parts[0].text`` for Gemini. Every answer has a
usage block (tokens: whitespace-separated words, at least 1, unless scripted).

Counters: ``request_count`` (POSTs answered, errors included), ``requests``
(the parsed bodies, in order), ``in_flight`` and ``max_in_flight`` (concurrent
requests seen). ``latency_s`` adds a fixed delay to every answer (benchmarks).
Helpers :func:`by_schema`, :func:`by_text`, :func:`request_text` and
:func:`schema_name` build responders that answer "by task".
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pydantic import BaseModel

__all__ = [
    "OpenAIStub", "Reply", "ok", "error", "malformed", "slow", "raw",
    "by_schema", "by_text", "request_text", "schema_name",
]


@dataclass
class Reply:
    """One scripted answer.

    ``content``: the answer text (str), or a dict / pydantic object sent as JSON
    text. ``status``: HTTP status; for status >= 400 an OpenAI-style error body
    ``{"error": {"message", "type", "code"}}`` is sent unless ``body`` is given.
    ``body``: a raw body (dict as JSON, str as is) that replaces the whole
    response. ``delay_s``: seconds to wait before answering (longer than the
    client's timeout = a timeout). ``headers``: extra response headers (e.g.
    ``{"Retry-After": "0"}``). ``finish_reason``: ``stop`` or ``length``.
    ``prompt_tokens``/``completion_tokens``: usage numbers (default: word counts).
    """

    content: str | dict[str, Any] | BaseModel | None = None
    status: int = 200
    body: dict[str, Any] | str | None = None
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def text(self) -> str:
        """The answer text as sent."""
        if isinstance(self.content, BaseModel):
            return self.content.model_dump_json()
        if isinstance(self.content, dict | list):
            return json.dumps(self.content, ensure_ascii=False)
        return "" if self.content is None else str(self.content)


def ok(content: str | dict[str, Any] | BaseModel, **kw: Any) -> Reply:
    """A 200 answer whose text is ``content`` (dict / pydantic object -> JSON)."""
    return Reply(content=content, **kw)


def error(status: int, message: str = "scripted error", *, retry_after: float | None = None, **kw: Any) -> Reply:
    """An HTTP error (e.g. 429, 500, 400) with an OpenAI-style error body and optional Retry-After."""
    headers = dict(kw.pop("headers", {}))
    if retry_after is not None:
        headers["Retry-After"] = f"{retry_after:g}"
    return Reply(status=status, content=message, headers=headers, **kw)


def malformed(text: str = '{"definition": "to leave', **kw: Any) -> Reply:
    """A 200 answer whose text is not valid JSON for the schema (default: cut-off JSON)."""
    return Reply(content=text, **kw)


def slow(delay_s: float, content: Any = "{}", **kw: Any) -> Reply:
    """An answer sent after ``delay_s`` seconds (use a delay above the client timeout for a timeout)."""
    return Reply(content=content, delay_s=delay_s, **kw)


def raw(body: dict[str, Any] | str, status: int = 200, **kw: Any) -> Reply:
    """Send ``body`` verbatim (e.g. a response without ``choices``)."""
    return Reply(body=body, status=status, **kw)


Responder = Callable[[dict[str, Any]], "Reply | str | dict[str, Any] | BaseModel | None"]


def request_text(request: dict[str, Any]) -> str:
    """All message text of an OpenAI chat request or a Gemini generateContent request, joined by newlines."""
    parts: list[str] = []
    for message in request.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
    system = request.get("systemInstruction") or request.get("system_instruction")
    contents = ([system] if isinstance(system, dict) else []) + list(request.get("contents") or [])
    for content in contents:
        for part in content.get("parts") or []:
            if isinstance(part, dict) and "text" in part:
                parts.append(str(part["text"]))
    return "\n".join(parts)


def schema_name(request: dict[str, Any]) -> str | None:
    """The name of the response model asked for: ``response_format.json_schema.name``,
    the forced tool's name, or the ``title`` of a Gemini response schema."""
    fmt = request.get("response_format") or {}
    if isinstance(fmt, dict) and isinstance(fmt.get("json_schema"), dict):
        return fmt["json_schema"].get("name")
    tool_choice = request.get("tool_choice")
    if isinstance(tool_choice, dict):
        return (tool_choice.get("function") or {}).get("name")
    tools = request.get("tools") or []
    if tools and isinstance(tools[0], dict):
        return (tools[0].get("function") or {}).get("name")
    config = request.get("generationConfig") or {}
    for key in ("responseJsonSchema", "responseSchema", "response_json_schema", "response_schema"):
        if isinstance(config.get(key), dict):
            return config[key].get("title")
    return None


def _call(answer: Any, request: dict[str, Any]) -> Any:
    return answer(request) if callable(answer) else answer


def by_schema(mapping: dict[str, Any], default: Any = None) -> Responder:
    """Responder answering by response model name (``BasePair``, ``Definition``...).

    Values are replies (anything a responder may return) or callables
    ``request_json -> reply``; ``default`` for names not in ``mapping``.
    """

    def responder(request: dict[str, Any]) -> Any:
        return _call(mapping.get(schema_name(request) or "", default), request)

    return responder


def by_text(rules: Iterable[tuple[str, Any]], default: Any = None) -> Responder:
    """Responder answering with the first rule whose substring occurs in the request's message text."""
    rules = list(rules)

    def responder(request: dict[str, Any]) -> Any:
        text = request_text(request)
        for needle, answer in rules:
            if needle in text:
                return _call(answer, request)
        return _call(default, request)

    return responder


def _words(text: str) -> int:
    return max(1, len(text.split()))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once (no 40 ms delayed-ACK stalls)
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence access logs
        pass

    def _send(self, status: int, body: dict[str, Any] | str, headers: dict[str, str] | None = None) -> None:
        data = (body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True  # the client gave up (timeout test)

    def _routed(self, method: str, raw_body: bytes) -> bool:
        """Answer from ``stub.routes(method, path, headers, body)`` (tests/batch_stub.py) when it returns one."""
        stub = self.server.stub
        if stub.routes is None:
            return False
        answer = stub.routes(method, self.path.split("?", 1)[0], dict(self.headers), raw_body)
        if answer is None:
            return False
        self._send(*answer)
        return True

    def do_GET(self) -> None:  # noqa: N802
        stub = self.server.stub
        if self._routed("GET", b""):
            return
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [
                {"id": stub.model, "object": "model", "created": 0, "owned_by": "stub"}]})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found", "code": 404}})

    def do_POST(self) -> None:  # noqa: N802
        stub = self.server.stub
        length = int(self.headers.get("Content-Length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        if self._routed("POST", raw_body):
            return
        try:
            request = json.loads(raw_body or b"{}")
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "request body is not JSON", "type": "invalid_request_error"}})
            return
        path = self.path.split("?", 1)[0]
        gemini = ":generateContent" in path
        if not gemini and not path.endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {path}", "type": "not_found", "code": 404}})
            return
        stub._enter(request, path)
        try:
            reply = stub._reply_for(request)
            delay = reply.delay_s + stub.latency_s
            if delay > 0:
                stub._stopping.wait(delay)
            status, body = (stub._gemini_body if gemini else stub._openai_body)(request, reply)
            self._send(status, body, reply.headers)
        finally:
            stub._leave()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256
    stub: OpenAIStub


class OpenAIStub:
    """The scripted server (see module docstring). Use as a context manager or call start()/stop().

    ``responder``: ``request_json -> reply`` for requests with no queued reply.
    ``latency_s``: fixed extra delay per POST, seconds. ``model``: the id that
    ``GET /v1/models`` lists and answers carry.
    """

    def __init__(self, responder: Responder | None = None, *, latency_s: float = 0.0, model: str = "stub-model") -> None:
        self.responder = responder
        self.latency_s = latency_s
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.request_count = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._ids = 0
        #: ``(method, path, headers, body) -> (status, body) | None``: extra endpoints (tests/batch_stub.py)
        self.routes: Callable[[str, str, dict[str, str], bytes], tuple[int, dict[str, Any] | str] | None] | None = None

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> OpenAIStub:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.stub = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="openai-stub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; delayed answers still pending are released at once."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> OpenAIStub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "stub not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """OpenAI base URL, e.g. ``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root_url(self) -> str:
        """Server root (for google-genai ``HttpOptions(base_url=...)``)."""
        return f"http://127.0.0.1:{self.port}"

    # -- scripting ---------------------------------------------------------
    def script(self, *replies: Reply | str | dict[str, Any] | BaseModel) -> OpenAIStub:
        """Queue replies, one per coming request, before the responder is used."""
        with self._lock:
            self._queue.extend(self._as_reply(r) for r in replies)
        return self

    def reset_counts(self) -> None:
        """Forget received requests and in-flight maxima (queued replies stay)."""
        with self._lock:
            self.requests.clear()
            self.paths.clear()
            self.request_count = 0
            self.max_in_flight = self.in_flight

    # -- internals ---------------------------------------------------------
    @staticmethod
    def _as_reply(answer: Any) -> Reply:
        if isinstance(answer, Reply):
            return answer
        if answer is None:
            return Reply(status=500, content="no scripted reply for this request")
        return Reply(content=answer)

    def _enter(self, request: dict[str, Any], path: str) -> None:
        with self._lock:
            self.requests.append(request)
            self.paths.append(path)
            self.request_count += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _reply_for(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            queued = self._queue.popleft() if self._queue else None
        if queued is not None:
            return queued
        if self.responder is None:
            return self._as_reply(None)
        try:
            return self._as_reply(self.responder(request))
        except Exception as exc:  # noqa: BLE001 - a broken responder is a 500, visible in the test
            return Reply(status=500, content=f"responder raised {type(exc).__name__}: {exc}")

    def _next_id(self) -> int:
        with self._lock:
            self._ids += 1
            return self._ids

    def _usage(self, request: dict[str, Any], reply: Reply, text: str) -> tuple[int, int]:
        n_in = reply.prompt_tokens if reply.prompt_tokens is not None else _words(request_text(request))
        n_out = reply.completion_tokens if reply.completion_tokens is not None else _words(text)
        return n_in, n_out

    def _openai_body(self, request: dict[str, Any], reply: Reply) -> tuple[int, dict[str, Any] | str]:
        if reply.body is not None:
            return reply.status, reply.body
        if reply.status >= 400:
            kind = {429: "rate_limit_exceeded", 400: "invalid_request_error", 401: "invalid_api_key"}.get(
                reply.status, "server_error")
            return reply.status, {"error": {"message": reply.text(), "type": kind, "code": reply.status}}
        text = reply.text()
        n_in, n_out = self._usage(request, reply, text)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        tools = request.get("tools") or []
        if tools:
            name = schema_name(request) or "answer"
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{self._next_id()}", "type": "function",
                "function": {"name": name, "arguments": text}}]}
        finish = reply.finish_reason if not (tools and reply.finish_reason == "stop") else "tool_calls"
        return 200, {
            "id": f"chatcmpl-stub-{self._next_id()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model") or self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": n_in, "completion_tokens": n_out, "total_tokens": n_in + n_out},
        }

    def _gemini_body(self, request: dict[str, Any], reply: Reply) -> tuple[int, dict[str, Any] | str]:
        if reply.body is not None:
            return reply.status, reply.body
        if reply.status >= 400:
            status = {429: "RESOURCE_EXHAUSTED", 400: "INVALID_ARGUMENT", 503: "UNAVAILABLE"}.get(reply.status, "INTERNAL")
            return reply.status, {"error": {"code": reply.status, "message": reply.text(), "status": status}}
        text = reply.text()
        n_in, n_out = self._usage(request, reply, text)
        finish = "MAX_TOKENS" if reply.finish_reason == "length" else "STOP"
        return 200, {
            "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": finish, "index": 0}],
            "usageMetadata": {"promptTokenCount": n_in, "candidatesTokenCount": n_out, "totalTokenCount": n_in + n_out},
            "modelVersion": self.model,
        }
