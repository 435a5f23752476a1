"""One async API client per event loop, closed before its loop ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class LoopClients(Generic[T]):
    """One async API client per event loop (pooled HTTP connections cannot move between loops).

    ``make()`` builds a client; ``close(client)`` awaits its shutdown. :meth:`get`
    returns the running loop's client, creating it on first use; :meth:`aclose`
    closes the running loop's client (call it before the loop ends);
    :meth:`close_all` closes what is left from outside any loop.
    """

    def __init__(self, make: Callable[[], T], close: Callable[[T], Coroutine[Any, Any, None]]) -> None:
        self._make, self._close = make, close
        self._clients: dict[asyncio.AbstractEventLoop, T] = {}

    def get(self) -> T:
        """The client of the running event loop. Raises ``RuntimeError`` outside a loop."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._clients[loop] = self._make()
        return client

    async def aclose(self) -> None:
        """Close the running loop's client (no-op when it has none)."""
        client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await self._close(client)

    def close_all(self) -> None:
        """Close clients left by loops that ended without :meth:`aclose` (each in a short new loop)."""
        leftovers, self._clients = list(self._clients.values()), {}
        for client in leftovers:
            try:
                asyncio.run(self._close(client))
            except RuntimeError:  # its transports belonged to a closed loop: nothing is left to release
                pass
