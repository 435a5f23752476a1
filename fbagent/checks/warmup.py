"""The lemma tables of the verb check, loaded in a background thread while a run starts.

The verb check (:func:`fbagent.checks.verb_match.find_verb`) reads lemminflect's and simplemma's
tables on first use (about 0.7 s of CPU for English), which would otherwise stall the event loop in
the first ``self_check``. :func:`fbagent.verifier.startup.start_backends` starts a :class:`Warmup`
once the first LLM call is back; ``self_check`` waits for it only if it gets there first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures

from fbagent.checks import self_check as checks
from fbagent.providers.cancel import Deferred


class Warmup:
    """The lemma tables of the verb check, loaded in a background thread (see the module doc).

    Nothing runs before :meth:`start` (or the first :meth:`ready`). ``done`` resolves
    (to ``None``, never to an exception) when the tables of ``lang`` are loaded or
    failed to load; a failure is left for the real check to report on the event loop thread.
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.load = Deferred(warm_checks, lang, name="fbagent-warmup")
        self.done: concurrent.futures.Future[None] = self.load.future

    def start(self) -> None:
        """Start loading (no-op once started)."""
        self.load.start()

    @property
    def started(self) -> bool:
        """Whether the load has started (it may be done)."""
        return self.load.started

    def ready(self) -> asyncio.Future[None]:
        """An asyncio future of the running loop for :attr:`done` (starts the load if it has not started)."""
        self.start()
        return asyncio.wrap_future(self.done)


def warm_checks(lang: str) -> None:
    """Load what the verb check of ``lang`` reads on first use (lemmatiser tables, inflections); never raises."""
    try:
        checks.find_verb("warm up", "warm", lang)
    except Exception:  # noqa: BLE001 - e.g. a missing lemmatiser: the real check says so, on the loop thread
        pass
