"""A constant-time OpenAI-compatible server for ``benchmarks/bench_generate.py``, in its own process.

``tests/openai_stub.py`` is a threaded server whose responder parses every prompt
with regular expressions in Python; under load it costs as much CPU as the
client it serves, so a benchmark against it measures the stub as much as
fbagent. This one answers from precomputed bytes:

- at start it reads a lexicon table (``{verb: {frame: definition}}``, JSON,
  written by the benchmark from the lexicon it generates on);
- at start (for a table of up to 200 verbs, else on the first request naming
  the verb) it builds *all* answers of each verb (every ordered frame pair x
  the 32 nouns that an entry's seed picks, FrameResponder's sentences from
  ``tests/gen_responder.py``): the complete HTTP responses of ``BasePair``, and
  per generated sentence its ``ExtendedSentence``, ``Definition`` and
  ``FourChoiceAnswer`` responses. (With a large table, screening, one
  ``PairScreening`` request per pair before any entry, touches every verb
  first.) During the entry phase every request is a dict lookup;
- per request: one ``json.loads`` of the body (orjson when installed), the
  schema name, two or three ``str.find`` calls for the lookup key, one
  ``transport.write`` of prebuilt bytes. No regular expression, no answer built.

The server is one asyncio event loop with a minimal HTTP/1.1 parser
(keep-alive, ``Content-Length`` bodies; what httpx and the openai SDK send).
``latency_ms`` delays every answer with ``loop.call_later`` (no task, no thread
per request), so the stub holds any number of requests in flight at no cost.

Endpoints: ``POST /v1/chat/completions``, ``GET /v1/models``; control:
``GET /stats`` (JSON: ``requests``, ``misses``, ``first_t``/``last_t`` as
``time.time()`` of the first/last chat request, ``max_in_flight``,
``by_schema``, ``latency_ms``, ``miss_examples``), ``POST /reset``,
``POST /latency/<ms>``. A request it cannot answer (a prompt whose wording no
longer has the markers of :data:`MARKERS`) is an HTTP 500 and counts as a miss:
the benchmark refuses to report a run with misses.

Command line::

    python benchmarks/const_stub.py serve --lexicon TABLE.json [--latency-ms 100]
        # prints the base URL (http://127.0.0.1:PORT/v1) on stdout, serves until stdin closes
    python benchmarks/const_stub.py load --url URL --lexicon TABLE.json --concurrency 64 --seconds 2
        # the stub alone: one JSON line {"requests", "seconds", "requests_per_s", "errors"}

The ``load`` client sends the request mix of one entry (1 ``BasePair``,
2 ``ExtendedSentence``, 4 ``Definition``, bodies of the real prompts' sizes) on
``concurrency`` keep-alive connections, from its own process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
import threading
import time
import zlib
from typing import Any

try:
    import orjson

    def _loads(data: bytes) -> Any:
        return orjson.loads(data)

    def _dumps(obj: Any) -> bytes:
        return orjson.dumps(obj)
except ImportError:  # orjson comes with langgraph; plain json works the same, slower
    import json

    def _loads(data: bytes) -> Any:
        return json.loads(data)

    def _dumps(obj: Any) -> bytes:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()

MODEL = "stub-model"
#: the noun of an entry's sentences, picked by ``(seed // 1000) % 32`` (k-th entry: seed + 1000 k + attempt): the
#: first 8 are FrameResponder's (tests/gen_responder.py); 32 so that up to 32 entries of a pair get sentences of
#: their own (``bench_generate.py`` runs 31 per pair at c64): a repeated sentence would be a cache hit of its
#: ``Definition`` requests, fewer requests than a real model's entries send
NOUNS = ("box", "letter", "garden", "ticket", "bridge", "lamp", "river", "song", "chair", "window", "basket",
         "coat", "wagon", "bottle", "fence", "ladder", "mirror", "pillow", "candle", "blanket", "kettle", "hammer",
         "bucket", "carpet", "barrel", "anchor", "saddle", "lantern", "cabinet", "trumpet", "helmet", "compass")
#: where the lookup key sits in fbagent's prompts (prompts/generate, prompts/roundtrip, prompts/verify)
MARKERS = {
    "verb": 'verb "',                       # generate_base, extend, screen: the verb "X"
    "frame": "Frame name: ",                 # generate_base: frame A's block, then frame B's
    "sentence": "\nSentence: ",              # extend: the base sentence
    "example": "example sentence:\n\n",     # define: the sentence to define the verb in
    "sentence_1": "Sentence 1: ",            # judge
}
DEFINITION_WORDS = 12   # dictionary-length definitions: the first words of the frame definition


def _word(frame: str) -> str:
    """A frame name as one lower-case word (``FR_Statement-manner`` -> ``frstatementmanner``)."""
    return re.sub(r"\W|_", "", frame.lower())


def http_response(status: int, body: bytes) -> bytes:
    """The complete HTTP/1.1 response bytes (keep-alive, JSON body)."""
    reason = {200: "OK", 404: "Not Found", 500: "Internal Server Error"}.get(status, "Error")
    head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    return head + body


def completion(content: dict[str, Any], prompt_tokens: int = 400) -> bytes:
    """A prebuilt ``chat.completion`` response whose message content is ``content`` as JSON text."""
    text = _dumps(content).decode()
    out_tokens = max(1, len(text.split()))
    body = _dumps({
        "id": "chatcmpl-const", "object": "chat.completion", "created": 0, "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop",
                     "logprobs": None}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": out_tokens,
                  "total_tokens": prompt_tokens + out_tokens},
    })
    return http_response(200, body)


def error_response(status: int, message: str) -> bytes:
    """An OpenAI-style error response."""
    return http_response(status, _dumps({"error": {"message": message, "type": "server_error", "code": status}}))


def _between(text: str, start: str, end: str, offset: int = 0) -> tuple[str | None, int]:
    i = text.find(start, offset)
    if i < 0:
        return None, -1
    i += len(start)
    j = text.find(end, i)
    return (text[i:j] if j >= 0 else None), j


class Answers:
    """Every answer as prebuilt HTTP response bytes, built per verb on first use (see module doc).

    ``lexicon``: ``{verb: {frame name: frame definition}}``. Sentences are those of
    ``tests/gen_responder.FrameResponder`` (which pass fbagent's checks: the verb in
    both, one-word differences, a well-formed question), with S_B ending in
    "tonight" so that no S_A of one frame order equals an S_B of the other.
    """

    SCREEN = completion({"evokes_both": True, "distinguishable": True, "reason": "both senses are common and distinct"})
    EVAL = completion({"answer": "1"}, prompt_tokens=200)
    EAGER_VERBS = 200   # a table this small is built at start; a larger one verb by verb, on first use

    def __init__(self, lexicon: dict[str, dict[str, str]], unique_definitions: bool = False) -> None:
        self.lexicon = lexicon
        # False: one definition per frame (a verifier at temperature 0 often answers so); True: a definition of
        # its own for every sentence, so that a sentence encoder cannot answer from rows it already has
        self.unique_definitions = unique_definitions
        self.base: dict[tuple[str, str, str, str], bytes] = {}
        self.extend: dict[str, bytes] = {}      # base sentence -> ExtendedSentence response
        self.define: dict[str, bytes] = {}      # any generated sentence -> Definition response
        self.judge: dict[str, bytes] = {}       # sentence 1 -> FourChoiceAnswer response
        self.built: set[str] = set()
        if len(lexicon) <= self.EAGER_VERBS:
            for verb in lexicon:
                self.build(verb)

    def build(self, verb: str) -> None:
        """Build every answer of ``verb`` (no-op after the first call, or for an unknown verb)."""
        if verb in self.built:
            return
        self.built.add(verb)
        frames = self.lexicon.get(verb) or {}
        definition = {f: completion({"definition": " ".join(d.split()[:DEFINITION_WORDS]) or f}) for f, d in frames.items()}
        for fa in frames:
            for fb in frames:
                if fa == fb:
                    continue
                wa, wb = _word(fa), _word(fb)
                for noun in NOUNS:
                    a = f"They {verb} the {wa} {noun} near the {wb} today."
                    b = f"They {verb} the {wb} {noun} near the {wa} tonight."
                    self.base[(verb, fa, fb, noun)] = completion({
                        "condition": f"something was done to a {noun}",
                        "question": f"Which sentence implies that something was done to a {noun}?",
                        "sentence_a": a, "sentence_b": b, "verb_form_a": verb, "verb_form_b": verb})
                    for s, frame, side in ((a, fa, "1"), (b, fb, "2")):
                        ext = (f"Last winter several {_word(frame)} workers wanted to {verb} a {noun} "
                               f"near pier {zlib.crc32(s.encode()) % 1000}.")
                        self.extend[s] = completion({"sentence": ext, "verb_form": verb})
                        self.define[s] = self.define[ext] = definition[frame]
                        if self.unique_definitions:
                            words = " ".join(frames[frame].split()[:DEFINITION_WORDS]) or frame
                            self.define[s] = completion({"definition": f"{words}, as of the {noun} ({zlib.crc32(s.encode())})"})
                            self.define[ext] = completion({"definition": f"{words}, as of a {noun} ({zlib.crc32(ext.encode())})"})
                        self.judge[s] = self.judge[ext] = completion({"answer": side}, prompt_tokens=200)

    def answer(self, request: dict[str, Any]) -> tuple[str, bytes | None]:
        """``(schema name, response bytes)``; ``None`` bytes when the request cannot be answered."""
        try:
            schema = request["response_format"]["json_schema"]["name"]
        except (KeyError, TypeError):
            return "", None
        if schema == "four_choice_answer":          # fbagent eval run --backend openai
            return schema, self.EVAL
        if schema == "PairScreening":
            verb, _ = _between(self._text(request), MARKERS["verb"], '"')
            if verb is not None:
                self.build(verb)
            return schema, self.SCREEN
        text = self._text(request)
        if schema == "BasePair":
            verb, _ = _between(text, MARKERS["verb"], '"')
            fa, end = _between(text, MARKERS["frame"], "\n")
            fb, _ = _between(text, MARKERS["frame"], "\n", end if end >= 0 else 0)
            if verb is None or fa is None or fb is None:
                return schema, None
            self.build(verb)
            noun = NOUNS[(int(request.get("seed") or 0) // 1000) % len(NOUNS)]
            return schema, self.base.get((verb, fa, fb, noun))
        table, marker, end = {
            "ExtendedSentence": (self.extend, MARKERS["sentence"], "\n"),
            "Definition": (self.define, MARKERS["example"], "\n\n"),
            "FourChoiceAnswer": (self.judge, MARKERS["sentence_1"], "\n"),
        }.get(schema, (None, "", ""))
        if table is None:
            return schema, None
        key, _ = _between(text, marker, end)
        return schema, table.get(key) if key is not None else None

    @staticmethod
    def _text(request: dict[str, Any]) -> str:
        messages = request.get("messages") or []
        if len(messages) == 1:
            return messages[0].get("content") or ""
        return "\n".join(m.get("content") or "" for m in messages if isinstance(m.get("content"), str))


class Stats:
    """Counters of one stub process (read with ``GET /stats``)."""

    def __init__(self, latency_ms: float) -> None:
        self.latency_ms = latency_ms
        self.reset()

    def reset(self) -> None:
        """Zero every counter (``POST /reset``); the latency stays."""
        self.requests = self.misses = self.in_flight = self.max_in_flight = 0
        self.first_t: float | None = None
        self.last_t: float | None = None
        self.by_schema: dict[str, int] = {}
        self.miss_examples: list[str] = []

    def as_json(self) -> bytes:
        """The counters as a JSON body (``GET /stats``; times are ``time.time()`` seconds)."""
        return _dumps({"requests": self.requests, "misses": self.misses, "first_t": self.first_t,
                       "last_t": self.last_t, "max_in_flight": self.max_in_flight, "by_schema": self.by_schema,
                       "latency_ms": self.latency_ms, "miss_examples": self.miss_examples})


MODELS = http_response(200, _dumps({"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0,
                                                                "owned_by": "stub"}]}))
OK = http_response(200, b"{}")
NOT_FOUND = error_response(404, "no such route")


class StubProtocol(asyncio.Protocol):
    """One keep-alive connection: parse requests as they arrive, answer each after the latency."""

    def __init__(self, answers: Answers, stats: Stats) -> None:
        self.answers, self.stats = answers, stats
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            head_end = self.buffer.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buffer[:head_end]
            length = 0
            lower = head.lower()
            i = lower.find(b"content-length:")
            if i >= 0:
                j = lower.find(b"\r\n", i)
                length = int(lower[i + 15:j if j >= 0 else len(lower)])
            total = head_end + 4 + length
            if len(self.buffer) < total:
                return
            body = self.buffer[head_end + 4:total]
            self.buffer = self.buffer[total:]
            line = head[:head.find(b"\r\n")] if b"\r\n" in head else head
            method, _, rest = line.partition(b" ")
            self.handle(method, rest.partition(b" ")[0], body)

    def handle(self, method: bytes, path: bytes, body: bytes) -> None:
        stats = self.stats
        if method == b"POST" and path.endswith(b"/chat/completions"):
            now = time.time()
            if stats.first_t is None:
                stats.first_t = now
            stats.last_t = now
            stats.requests += 1
            try:
                schema, response = self.answers.answer(_loads(body))
            except ValueError:
                schema, response = "", None
            stats.by_schema[schema] = stats.by_schema.get(schema, 0) + 1
            if response is None:
                stats.misses += 1
                if len(stats.miss_examples) < 3:
                    stats.miss_examples.append(body[:300].decode("utf-8", "replace"))
                response = error_response(500, f"the constant stub has no answer for this {schema or 'request'}")
            stats.in_flight += 1
            stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
            if stats.latency_ms > 0:
                self.loop.call_later(stats.latency_ms / 1000.0, self._send, response)
            else:
                self._send(response)
        elif method == b"GET" and path.endswith(b"/models"):
            self._write(MODELS)
        elif method == b"GET" and path == b"/stats":
            self._write(http_response(200, stats.as_json()))
        elif method == b"POST" and path == b"/reset":
            stats.reset()
            self._write(OK)
        elif method == b"POST" and path.startswith(b"/latency/"):
            stats.latency_ms = float(path.rsplit(b"/", 1)[1])
            self._write(OK)
        else:
            self._write(NOT_FOUND)

    def _send(self, response: bytes) -> None:
        self.stats.in_flight -= 1
        self._write(response)

    def _write(self, response: bytes) -> None:
        if self.transport is not None:
            self.transport.write(response)


async def serve(lexicon: dict[str, dict[str, str]], latency_ms: float, port: int = 0,
                unique_definitions: bool = False) -> None:
    """Serve on 127.0.0.1 (``port`` 0: a free one), print the base URL, stop when stdin closes;
    ``unique_definitions``: see :class:`Answers`."""
    import socket

    loop = asyncio.get_running_loop()
    answers, stats = Answers(lexicon, unique_definitions), Stats(latency_ms)
    server = await loop.create_server(lambda: StubProtocol(answers, stats), "127.0.0.1", port, backlog=1024)
    for sock in server.sockets:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    bound = server.sockets[0].getsockname()[1]
    print(f"http://127.0.0.1:{bound}/v1", flush=True)
    closed = loop.create_future()

    def wait_for_stdin() -> None:  # a thread: stdin may be a pipe, a file or /dev/null
        sys.stdin.buffer.read()
        loop.call_soon_threadsafe(lambda: closed.done() or closed.set_result(None))

    threading.Thread(target=wait_for_stdin, daemon=True).start()
    try:
        await closed
    finally:
        server.close()


# --------------------------------------------------------------------------- the stub alone


def load_requests(lexicon: dict[str, dict[str, str]]) -> list[bytes]:
    """The HTTP requests of one entry (1 BasePair, 2 ExtendedSentence, 4 Definition), with prompts padded to
    the sizes of fbagent's real ones (about 4 KB, 2.5 KB and 0.6 KB), for a verb of ``lexicon`` with 2 frames."""
    verb, frames = next((v, fs) for v, fs in sorted(lexicon.items()) if len(fs) >= 2)
    (fa, da), (fb, db) = list(frames.items())[:2]
    wa, wb = _word(fa), _word(fb)
    a = f"They {verb} the {wa} box near the {wb} today."
    b = f"They {verb} the {wb} box near the {wa} tonight."
    pad = "Core frame elements and examples. " * 30

    def request(schema: str, text: str) -> bytes:
        body = _dumps({"model": MODEL, "messages": [{"role": "user", "content": text}], "temperature": 0.0,
                       "max_tokens": 512, "seed": 0,
                       "response_format": {"type": "json_schema", "json_schema": {"name": schema, "schema": {
                           "type": "object", "properties": {"x": {"type": "string"}}}}}})
        return (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)

    base = request("BasePair", f'The English verb "{verb}" can evoke two frames.\n\nFRAME A\nFrame name: {fa}\n'
                               f"Definition: {da}\n{pad}\nFRAME B\nFrame name: {fb}\nDefinition: {db}\n{pad * 2}")
    ext = [request("ExtendedSentence", f'the English verb "{verb}" evokes this frame:\n\nFrame name: {f}\n{pad}\n'
                                       f"\nSentence: {s}\nQuestion about it: Which?\n{pad}") for f, s in ((fa, a), (fb, b))]
    defs = [request("Definition", f'Write a dictionary definition of the word "{verb}" as it is used in this '
                                  f"example sentence:\n\n{s}\n\nGive just the definition.") for s in (a, b, a, b)]
    return [base, *ext, *defs]


class _LoadClient(asyncio.Protocol):
    def __init__(self, requests: list[bytes], done: asyncio.Future[None], deadline: float, counts: dict[str, int],
                 offset: int) -> None:
        self.requests, self.done, self.deadline, self.counts = requests, done, deadline, counts
        self.i = offset
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self._next()

    def _next(self) -> None:
        assert self.transport is not None
        if time.perf_counter() >= self.deadline:
            self.transport.close()
            if not self.done.done():
                self.done.set_result(None)
            return
        self.transport.write(self.requests[self.i % len(self.requests)])
        self.i += 1

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        head_end = self.buffer.find(b"\r\n\r\n")
        if head_end < 0:
            return
        lower = self.buffer[:head_end].lower()
        i = lower.find(b"content-length:")
        j = lower.find(b"\r\n", i)
        total = head_end + 4 + int(lower[i + 15:j if j >= 0 else len(lower)])
        if len(self.buffer) < total:
            return
        status_ok = self.buffer.startswith(b"HTTP/1.1 200")
        self.buffer = self.buffer[total:]
        self.counts["requests" if status_ok else "errors"] += 1
        self._next()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def load(url: str, lexicon: dict[str, dict[str, str]], concurrency: int, seconds: float) -> dict[str, Any]:
    """Measure the stub alone: ``concurrency`` connections, each sending the next request as soon as the last
    answer arrived, for ``seconds``. Returns ``{"requests", "errors", "seconds", "requests_per_s", "concurrency"}``."""
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    requests = load_requests(lexicon)
    loop = asyncio.get_running_loop()
    counts = {"requests": 0, "errors": 0}
    # warm-up: build the verb's answers (the first request of a verb does that)
    warm = loop.create_future()
    await loop.create_connection(lambda: _LoadClient(requests[:1], warm, time.perf_counter() + 0.05, counts, 0),
                                 host, int(port))
    await warm
    counts.update(requests=0, errors=0)
    started = time.perf_counter()
    deadline = started + seconds
    futures = []
    for c in range(concurrency):
        fut = loop.create_future()
        futures.append(fut)
        await loop.create_connection(lambda f=fut, c=c: _LoadClient(requests, f, deadline, counts, c), host, int(port))
    await asyncio.gather(*futures)
    elapsed = time.perf_counter() - started
    return {"requests": counts["requests"], "errors": counts["errors"], "seconds": round(elapsed, 3),
            "requests_per_s": round(counts["requests"] / elapsed, 1), "concurrency": concurrency}


def main(argv: list[str] | None = None) -> None:
    """Command line: ``serve`` or ``load`` (see the module doc)."""
    import json

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--lexicon", required=True, help="JSON {verb: {frame: definition}}")
    s.add_argument("--latency-ms", type=float, default=0.0)
    s.add_argument("--port", type=int, default=0)
    s.add_argument("--unique-definitions", action="store_true", help="a definition of its own for every sentence")
    ld = sub.add_parser("load")
    ld.add_argument("--url", required=True)
    ld.add_argument("--lexicon", required=True)
    ld.add_argument("--concurrency", type=int, default=16)
    ld.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args(argv)
    with open(args.lexicon, encoding="utf-8") as fh:
        lexicon = json.load(fh)
    if args.command == "serve":
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(lexicon, args.latency_ms, args.port, args.unique_definitions))
    else:
        print(json.dumps(asyncio.run(load(args.url, lexicon, args.concurrency, args.seconds))), flush=True)


if __name__ == "__main__":
    main()
