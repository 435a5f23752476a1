"""The event loop of `fbagent generate` (fbagent/llm/event_loop.py): uvloop's where installed, asyncio's with
FBAGENT_EVENT_LOOP=asyncio; a coroutine's result and its exception come back as asyncio.run gives them."""

from __future__ import annotations

import asyncio

import pytest

from fbagent.llm import event_loop


async def _loop_class() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__


async def _fails() -> None:
    raise ValueError("inside the loop")


def test_asyncio_loop_on_request(monkeypatch):
    monkeypatch.setenv(event_loop.LOOP_ENV, "asyncio")
    assert event_loop.loop_factory() is None
    assert event_loop.run(_loop_class()).startswith("asyncio")
    with pytest.raises(ValueError, match="inside the loop"):
        event_loop.run(_fails())


def test_uvloop_by_default_where_installed(monkeypatch):
    uvloop = pytest.importorskip("uvloop", reason="uvloop is not installed here (pip install uvloop)")
    monkeypatch.delenv(event_loop.LOOP_ENV, raising=False)
    assert event_loop.loop_factory() is uvloop.new_event_loop
    assert event_loop.run(_loop_class()).startswith("uvloop")
