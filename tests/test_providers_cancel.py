"""CallGate: a cancelled caller's call stops at the engine's next check; a queued call never starts."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from fbagent.providers.cancel import CallCancelled, CallGate


async def test_cancelling_the_caller_sets_the_running_calls_flag_and_skips_the_queued_one():
    gate = CallGate()
    started, ran = threading.Event(), []

    def engine(name: str, steps: int = 500) -> str:  # an engine that asks gate.aborted() between its steps
        ran.append(name)
        started.set()
        for _ in range(steps):
            if gate.aborted():
                return "aborted"
            time.sleep(0.01)
        return "finished"

    first = asyncio.ensure_future(gate.call(engine, "first"))
    second = asyncio.ensure_future(gate.call(engine, "second"))
    await asyncio.to_thread(started.wait, 2)
    t0 = time.perf_counter()
    first.cancel()
    second.cancel()
    for task in (first, second):
        with pytest.raises(asyncio.CancelledError):
            await task
    assert await asyncio.to_thread(gate.lock.acquire, True, 2.0)
    assert time.perf_counter() - t0 < 1.0
    gate.lock.release()
    assert ran == ["first"] and not gate.aborted()
    assert await gate.call(engine, "third", 3) == "finished"  # a fresh call runs to its end
    assert ran == ["first", "third"]


def test_a_call_whose_flag_is_set_before_it_starts_raises():
    gate, flag = CallGate(), threading.Event()
    flag.set()
    with pytest.raises(CallCancelled):
        gate.run(flag, lambda: "never")
    assert gate.run(threading.Event(), lambda: "ran") == "ran"
