"""One annotate app process per browser tab: textual-serve's :class:`AppService`, started without a shell and stopped with a deadline.

textual-serve starts ``command`` through a shell and waits for the app to quit
without a limit. Here the process is ``python -m fbagent.serve.child JSON``
started with an argument list (the annotator's name never meets a shell), and
:meth:`AnnotatorAppService.stop` asks the app to quit (textual-serve's
``quit`` packet: the app exits and the child closes the session), then
sends SIGTERM and at last SIGKILL if it has not exited after ``timeout_s``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import sys
from asyncio.subprocess import Process
from typing import Any

from textual_serve.app_service import AppService


def child_argv(launch_json: dict) -> list[str]:
    """The argument list of the app process for one annotator (:meth:`AppLaunch.as_json`)."""
    return [sys.executable, "-m", "fbagent.serve.child", json.dumps(launch_json)]


class AnnotatorAppService(AppService):
    """textual-serve's app service for ``argv`` (no shell), with a bounded :meth:`stop`; ``exit_code`` after it."""

    def __init__(self, argv: list[str], *, timeout_s: float = 10.0, **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self.timeout_s = timeout_s
        self.exit_code: int | None = None
        self._stop_task: asyncio.Task | None = None

    @property
    def pid(self) -> int | None:
        """The app process id once started."""
        return None if self._process is None else self._process.pid

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def stopping(self) -> asyncio.Task:
        """The one task that stops the app (started on first call); it runs to its end even if a waiter is cancelled."""
        if self._stop_task is None:
            self._stop_task = asyncio.ensure_future(self._stop())
        return self._stop_task

    async def stop(self) -> None:
        """Ask the app to quit; after ``timeout_s`` SIGTERM, then SIGKILL; wait for the process (idempotent, shielded)."""
        await asyncio.shield(self.stopping())

    async def _stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(super().stop(), self.timeout_s)
        process = self._process
        if process is None:
            return
        for signal_it in (process.terminate, process.kill):
            try:
                self.exit_code = await asyncio.wait_for(process.wait(), self.timeout_s)
                return
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    signal_it()
        self.exit_code = await process.wait()
