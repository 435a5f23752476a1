"""The sentence encoder in a process of its own, so that torch never shares the event loop's interpreter.

Loading MiniLM costs about 4-5 s of CPU (importing sentence-transformers pulls in torch, transformers and
scikit-learn) and encoding 4-7 ms a text. In ``fbagent generate``'s process both compete with the event loop
for the GIL: while the model loaded in a background thread, the LLM requests of the entries in flight were
answered late (``benchmarks/bench_generate.py``, MiniLM rows). :class:`EncoderProcess` runs the model in a
child interpreter (``python -m fbagent.verifier.encoder_process NAME``) instead: the parent only sends texts
and receives rows over a pipe (blocking in the :class:`~fbagent.verifier.encoder_batch.BatchEncoder`'s worker
thread, which releases the GIL while it waits), and on a machine with a second core the load runs beside the
first LLM requests.

The protocol is length-prefixed pickle frames over the child's stdin/stdout (the child is ours; nothing
else reads or writes them): ``("encode", texts)`` / ``("targets", texts, spans)`` -> ``("ok", rows,
cpu_s)``; the child's first frame is ``("ready", cpu_s)`` or ``("error", problem, fix)``. The child
prints nothing (its stdout is the protocol: whatever a library prints goes to ``/dev/null``), ignores
Ctrl-C (the parent decides) and exits when its stdin closes or its parent is gone (a lifeline, :func:`fbagent.crash.die_with_parent`: a
watchdog process kills it within milliseconds, also while it loads); a run that ends before the model is ready kills it (:func:`stop_loading`).

``FBAGENT_ENCODER_PROCESS=0`` loads the encoder in the command's own process instead
(:func:`fbagent.verifier.startup.load_encoder`).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
import weakref
from typing import IO, TYPE_CHECKING, Any

from fbagent import crash
from fbagent.errors import FbagentError
from fbagent.verifier.encoder import DEFAULT_ENCODER, ENCODER_FIX
from fbagent.verifier.encoder_check import Span
from fbagent.verifier.verify import SentenceEncoder

if TYPE_CHECKING:
    from numpy import ndarray

_HEADER = struct.Struct("!I")   # frame length, bytes


def _write(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    """The next frame, or ``None`` at the end of the stream."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)  # noqa: S301 - frames come from our own child process


class EncoderProcess:
    """A :class:`~fbagent.verifier.verify.TextEncoder` whose model runs in a child process (see the module doc).

    The constructor starts the child and returns at once; :meth:`wait_ready` blocks until the model is loaded.
    :meth:`encode` / :meth:`encode_targets` (one caller at a time: a lock serialises them) return what
    :class:`~fbagent.verifier.verify.SentenceEncoder` returns, float32 arrays of shape (len(texts), dim).
    ``load_cpu_s``: the child's CPU seconds to load the model; ``cpu_s``: its CPU seconds so far (both as of
    its last answer). Raises :class:`FbagentError` for a model that cannot load (the child's one line) and
    for a child that died (its exit code). Call :meth:`close` at the end.
    """

    def __init__(self, name: str | None) -> None:
        self.name = name or DEFAULT_ENCODER
        self._lock = threading.Lock()
        self.load_cpu_s: float | None = None
        self.cpu_s = 0.0
        # the child ends with this process, even a kill -9'd one: a watchdog process (not a thread: loading torch
        # holds the child's interpreter lock for seconds; a thread that checked the parent every 0.2 s let the
        # encoder outlive a kill -9'd parent by 15-35 s), taken before the child imports anything
        line_env, line_fds = crash.lifeline(signal.SIGKILL, 0.0, "process")
        self._proc = subprocess.Popen(
            crash.lifeline_argv("fbagent.verifier.encoder_process", name or ""),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=False, close_fds=True, pass_fds=line_fds, env={**os.environ, **line_env})
        _LOADING.add(self)

    def wait_ready(self) -> EncoderProcess:
        """Block until the child's model is loaded; returns ``self``. Raises :class:`FbagentError` (see the class)."""
        try:
            with self._lock:
                reply = self._receive()
            if reply[0] != "ready":
                raise FbagentError(reply[1], reply[2])
        except FbagentError:
            self.close()
            raise
        finally:
            _LOADING.discard(self)
        self.load_cpu_s = self.cpu_s = reply[1]
        return self

    def encode(self, texts: list[str]) -> ndarray:
        """L2-normalised float32 embeddings, shape (len(texts), dim)."""
        return self._ask(("encode", list(texts)))

    def encode_targets(self, texts: list[str], spans: list[Span]) -> ndarray:
        """Target vectors of the verifier's encoder check, shape (len(texts), dim)
        (:meth:`fbagent.verifier.verify.SentenceEncoder.encode_targets`)."""
        return self._ask(("targets", list(texts), [tuple(s) if s else None for s in spans]))

    def _ask(self, message: tuple[Any, ...]) -> Any:
        with self._lock:
            stdin = self._proc.stdin
            if stdin is None or stdin.closed:
                raise FbagentError("the sentence encoder's process was closed", "rerun the command")
            try:
                _write(stdin, message)
            except (BrokenPipeError, OSError):
                pass   # the child is gone: _receive names its exit code
            reply = self._receive()
        if reply[0] != "ok":
            raise FbagentError(reply[1], reply[2])
        self.cpu_s = reply[2]
        return reply[1]

    def _receive(self) -> Any:
        reply = _read(self._proc.stdout) if self._proc.stdout is not None else None
        if reply is None:
            code = self._proc.wait()
            raise FbagentError(f"the sentence encoder's process ended unexpectedly (exit code {code})",
                               "rerun the command; FBAGENT_ENCODER_PROCESS=0 loads the encoder in the command's "
                               "own process, where its error shows")
        return reply

    def kill(self) -> None:
        """Stop the child at once (SIGKILL): a load that is no longer wanted. :meth:`wait_ready` then raises."""
        with contextlib.suppress(OSError):
            self._proc.kill()

    def close(self) -> None:
        """End the child (its stdin closes; it exits) and wait for it, 5 s at most, then kill it. Safe twice."""
        _LOADING.discard(self)
        with contextlib.suppress(OSError):
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


#: the encoder processes started and not ready yet (their models load)
_LOADING: weakref.WeakSet[EncoderProcess] = weakref.WeakSet()


def stop_loading() -> int:
    """Kill every encoder process of this command whose model is still loading (a run that ends or is
    interrupted before the encoder is ready does not wait for it); returns how many. Their
    :meth:`EncoderProcess.wait_ready` raises."""
    children = list(_LOADING)
    for child in children:
        child.kill()
    return len(children)


def _serve(name: str | None, requests: IO[bytes], replies: IO[bytes]) -> None:
    """The child's loop: load the model, answer ``ready`` (or the load's error), then one reply per request
    until ``requests`` ends."""
    try:
        encoder = SentenceEncoder(name)
    except FbagentError as err:
        _write(replies, ("error", err.problem, err.fix))
        return
    except Exception as err:  # noqa: BLE001 - any load failure becomes the parent's one line
        _write(replies, ("error", f"cannot load sentence encoder {name!r} ({type(err).__name__}: {err})", ENCODER_FIX))
        return
    _write(replies, ("ready", time.process_time()))
    while (message := _read(requests)) is not None:
        kind, *args = message
        try:
            rows = encoder.encode(*args) if kind == "encode" else encoder.encode_targets(*args)
        except Exception as err:  # noqa: BLE001 - the parent raises it as one line
            _write(replies, ("error", f"the sentence encoder failed ({type(err).__name__}: {err})",
                             "rerun the command; FBAGENT_ENCODER_PROCESS=0 shows the full error"))
            continue
        _write(replies, ("ok", rows, time.process_time()))


def main(argv: list[str]) -> None:
    """``python -m fbagent.verifier.encoder_process NAME`` (``""``: the default encoder): the child's entry point."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle; stdin's end stops us
    crash.die_with_parent()   # started as `python -m`: the lifeline now (with lifeline_argv it is taken already)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())   # what libraries print must not corrupt the frames
    with contextlib.suppress(BrokenPipeError):
        _serve(argv[0] or None if argv else None, sys.stdin.buffer, replies)
    # every reply is flushed and nothing else is open: skip the interpreter's teardown of torch (about a second
    # and a half), which the parent would otherwise wait for on its way out (after Ctrl-C too)
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
