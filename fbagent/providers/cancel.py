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

import _thread
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import concurrent.futures

# asyncio and concurrent.futures (with ssl and logging: 20-40 ms) are imported where a call needs them: every
# command runs relay_swallowed_interrupts() at start-up, most never start an engine (tests/test_cli_lazy.py)

T = TypeVar("T")

RELAY_DELAY_S = 0.02  # a swallowed Ctrl-C is raised again this long after (seconds)


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
        import asyncio

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


def relay_swallowed_interrupts() -> None:
    """Make a Ctrl-C that Python would swallow reach the command (install once per process).

    Python raises ``KeyboardInterrupt`` wherever the main thread is when the signal is handled. When
    that is a callback called from native code (llama.cpp's log callback while a model loads, a
    ctypes callback), a ``__del__`` or a weakref callback, the exception cannot propagate: Python
    prints "Exception ignored ..." (or nothing, with the engine's output redirected) and goes on, so
    the command ran to its end after Ctrl-C. This hook (:data:`sys.unraisablehook`) turns such a
    swallowed ``KeyboardInterrupt`` into a fresh interrupt of the main thread
    (:func:`_thread.interrupt_main`, from a timer thread :data:`RELAY_DELAY_S` later, once the hook has
    returned), which Python's handler (or ``asyncio.run``'s) then raises where it can propagate; one
    that lands in a callback again is relayed again. Every other unraisable exception goes to the
    previous hook. Long native loads also run in a worker thread (:func:`in_worker_thread`), where no
    interrupt is ever raised.
    """
    previous = sys.unraisablehook
    if getattr(previous, "_fbagent_relay", False):
        return

    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            # not from here: Python would handle the new interrupt before this hook returns, inside it
            threading.Timer(RELAY_DELAY_S, _thread.interrupt_main).start()
            return
        previous(unraisable)

    hook._fbagent_relay = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


class Deferred(Generic[T]):
    """``fn(*args)`` run once in a new daemon thread, from :meth:`start` on; its result or exception lands in
    :attr:`future` (a ``concurrent.futures.Future``).

    A daemon thread, so that Ctrl-C during a load exits at once instead of waiting for torch
    to finish importing. :meth:`start` may be called any number of times, from any thread.
    """

    def __init__(self, fn: Callable[..., T], *args: Any, name: str) -> None:
        import concurrent.futures

        self.fn, self.args, self.name = fn, args, name
        self.future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._lock = threading.Lock()
        self.started = False

    def start(self) -> None:
        """Start the thread (no-op after the first call)."""
        with self._lock:
            if self.started:
                return
            self.started = True
            self.future.set_running_or_notify_cancel()   # running from now on: cancel() can no longer stop it
        threading.Thread(target=self._run, name=self.name, daemon=True).start()

    def _run(self) -> None:
        try:
            self.future.set_result(self.fn(*self.args))
        except BaseException as err:  # noqa: BLE001 - handed to whoever waits for the result
            self.future.set_exception(err)


def in_worker_thread(fn: Callable[[], T], *, name: str = "fbagent-load") -> T:
    """``fn()`` in a daemon thread (:class:`Deferred`) while the main thread waits, so that Ctrl-C
    always propagates.

    A native call that calls back into Python (llama.cpp logs through a ctypes callback while a model
    loads) swallows a ``KeyboardInterrupt`` raised in the callback. Run in a worker thread, the
    callbacks never see one (Python handles signals in the main thread only), and the main thread,
    waiting in 0.1 s steps, raises it at once; the abandoned load ends with the process. Called from
    any other thread, ``fn()`` runs inline. Raises whatever ``fn`` raises.
    """
    import concurrent.futures

    if threading.current_thread() is not threading.main_thread():
        return fn()
    work = Deferred(fn, name=name)
    work.start()
    while True:
        try:
            result: Any = work.future.result(timeout=0.1)
            return result
        except concurrent.futures.TimeoutError:
            continue
