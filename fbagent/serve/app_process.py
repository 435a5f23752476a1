"""One annotate app process per browser tab: textual-serve's :class:`AppService`, started without a shell and stopped with a deadline.

textual-serve starts ``command`` through a shell and waits for the app to quit
without a limit. Here the process is ``python -m fbagent.serve.child JSON``
started with an argument list (the annotator's name never meets a shell), and
:meth:`AnnotatorAppService.stop` asks the app to quit (textual-serve's
``quit`` packet: the app exits and the child closes the session), then
sends SIGTERM and at last SIGKILL if it has not exited after ``timeout_s``.

The process ends with the server however the server ends (``kill -9`` included): it is started with the
server's lifeline (:func:`fbagent.crash.lifeline`). An app that ends by itself with an exit code other than 0
(a crash: Textual's traceback is in the file ``log``) is reported to ``on_crash(exit_code)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import signal
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable
from typing import Any

from textual_serve.app_service import AppService

from fbagent import crash


def child_argv(launch_json: dict) -> list[str]:
    """The argument list of the app process for one annotator (:meth:`AppLaunch.as_json`)."""
    return crash.lifeline_argv("fbagent.serve.child", json.dumps(launch_json))


class AnnotatorAppService(AppService):
    """textual-serve's app service for ``argv`` (no shell), with a bounded :meth:`stop`; ``exit_code`` after it."""

    def __init__(self, argv: list[str], *, timeout_s: float = 10.0,
                 on_crash: Callable[[int], Awaitable[None]] | None = None, **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self.timeout_s = timeout_s
        self.on_crash = on_crash
        self.exit_code: int | None = None
        self._exit_seen = False
        self._stop_task: asyncio.Task | None = None

    @property
    def pid(self) -> int | None:
        """The app process id once started."""
        return None if self._process is None else self._process.pid

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        # the app ends with the server, even a kill -9'd one: SIGTERM, SIGKILL half a second later, from a watchdog
        # process forked before the app imports anything (a thread of a busy app waited for its interpreter lock)
        line_env, line_fds = crash.lifeline(signal.SIGTERM, 0.5, "process")
        environment = {**self._build_environment(width=width, height=height), **line_env}
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            pass_fds=line_fds,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_meta(self, data: bytes) -> None:
        """textual-serve's meta packets, but the app's ``exit`` closes the tab only once the process has ended
        (:meth:`run`): a crashed app sends ``exit`` too, and its tab must hear that it crashed."""
        if json.loads(data).get("type") == "exit":
            self._exit_seen = True
            return
        await super().on_meta(data)

    async def run(self) -> None:
        """textual-serve's relay of the app's output; then, when the app ended by itself with an exit code other
        than 0 (not stopped by :meth:`stop`), ``on_crash(exit_code)``, else the tab is closed as the app asked."""
        await super().run()
        process, code = self._process, None
        if process is not None and self._stop_task is None:
            with contextlib.suppress(TimeoutError):   # output closed but the process lives on: stop() ends it
                code = await asyncio.wait_for(process.wait(), self.timeout_s)
        if code not in (None, 0) and self._stop_task is None and self.on_crash is not None:
            self.exit_code = code
            await self.on_crash(code)
        elif self._exit_seen:
            await self.remote_close()

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
