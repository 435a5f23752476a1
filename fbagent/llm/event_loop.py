"""The event loop ``fbagent generate`` runs on: uvloop's where it is installed, else asyncio's.

uvloop (MIT / Apache-2.0; a dependency except on Windows, which has no build) is asyncio's event loop on libuv, in Cython:
the same interface, less CPU per callback, socket read and timer. ``fbagent generate`` spends about a
quarter of its event loop thread's CPU in the loop itself and in aiohttp's transports
(``benchmarks/bench_generate.py``, docs/backends.md "Generation at the concurrency bound"), which uvloop cuts. Set
``FBAGENT_EVENT_LOOP=asyncio`` to run on asyncio's own loop (e.g. to compare, or when debugging with
asyncio's debug mode).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import TypeVar

T = TypeVar("T")

#: FBAGENT_EVENT_LOOP values: ``uvloop`` (the default where installed) or ``asyncio``
LOOP_ENV = "FBAGENT_EVENT_LOOP"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's ``new_event_loop`` when uvloop is installed and :data:`LOOP_ENV` is not ``asyncio``, else
    ``None`` (asyncio's default loop)."""
    if os.environ.get(LOOP_ENV, "").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(coro: Coroutine[object, object, T]) -> T:
    """``asyncio.run(coro)`` on the loop of :func:`loop_factory`: its result, or what it raised
    (``KeyboardInterrupt`` on Ctrl-C after the main task was cancelled, as ``asyncio.run`` does)."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(coro)
