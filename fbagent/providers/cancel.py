"""Calls to an in-process engine that a cancelled caller stops within milliseconds (Ctrl-C).

An engine such as llama.cpp runs one call at a time in a worker thread (``asyncio.to_thread``).
Cancelling the awaiting coroutine (Ctrl-C cancels every task of ``asyncio.run``) does not stop that
thread, and ``asyncio.run`` then waits for it: a long completion, and every call already queued on the
engine's lock, ran to the end (56 s and more from Ctrl-C to the prompt with Gemma 270M on 2 cores).

:class:`CallGate` gives every call a cancel flag (a :class:`threading.Event`), set when its caller is
cancelled. The engine asks :meth:`CallGate.aborted` between steps, llama.cpp through its abort
callback, checked between the graph nodes of every decode (prompt batches and single tokens alike,
see :func:`fbagent.providers.llamacpp.install_abort`); a call still waiting for the lock when its flag
is set never starts. What the engine does on an abort (llama.cpp: ``llama_decode`` returns 2 and
llama-cpp-python raises ``RuntimeError``) reaches nobody: the caller is gone.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class CallCancelled(Exception):
    """A call whose caller was cancelled before it started (never seen by that caller)."""


class CallGate:
    """One engine's calls, serialised by one lock, each run in a worker thread and abortable."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # held while a call runs (close the engine under it)
        self._current: threading.Event | None = None

    def aborted(self) -> bool:
        """Whether the call running now has been cancelled (cheap; safe from any thread)."""
        current = self._current
        return current is not None and current.is_set()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread under the lock; cancelling the awaiting task sets the call's
        flag, so the engine stops at its next check (:meth:`aborted`), and the task's ``CancelledError``
        goes on at once. Raises whatever ``fn`` raises."""
        flag = threading.Event()
        try:
            return await asyncio.to_thread(self.run, flag, fn, *args)
        except asyncio.CancelledError:
            flag.set()
            raise

    def run(self, flag: threading.Event, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` under the lock as the current call with cancel ``flag``; raises
        :class:`CallCancelled` when the flag was set while the call waited for the lock."""
        with self.lock:
            if flag.is_set():
                raise CallCancelled("the caller was cancelled before the call started")
            self._current = flag
            try:
                return fn(*args)
            finally:
                self._current = None
