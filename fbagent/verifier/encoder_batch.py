"""The sentence encoder's batching worker: one thread, requests of many entries in one ``encode`` call.

:class:`BatchEncoder` is the async front of a :class:`~fbagent.verifier.verify.TextEncoder` (MiniLM by
default) that the event loop awaits; the model runs only in its worker thread, never on the loop:

- **collection window**: the first request after an idle spell waits :data:`WINDOW_S` for others to join
  it, and every request that arrives while a batch is being encoded goes into the next one, so the
  entries in flight share one forward pass (MiniLM on one CPU thread: 6.3 ms of CPU a text in batches of
  4, 4.3 ms in batches of 64; the per-call cost is torch's and the tokenizer's);
- **by text**: identical texts of one batch are encoded once, and rows are kept by text (an LRU of
  :data:`CACHE_SIZE` rows, about 6 MB at 384 dimensions): a verifier answers the same definition for
  many sentences of one sense, and a resumed run asks for the reference texts again. The cache is a
  pure optimisation: a row is the encoder's output for that text, so every similarity is unchanged;
- every row leaves as L2-normalised float32 (:func:`fbagent.verifier.encoder.unit_float32`).

Counters (:attr:`BatchEncoder.batches`, ``encoded``, ``cache_hits``) say how it went (``--json`` summaries,
benchmarks).

**While the model loads** (seconds: torch and MiniLM, in the background): a request that would have to wait
for the load first calls the hook in :data:`ON_LOAD_WAIT`, once per request, so that the caller can give up what
it holds meanwhile (``fbagent generate``'s entry pool lends the entry's slot to the next entry: the LLM
requests of other entries keep the request slots busy instead of every entry waiting at ``verify``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any, cast

import numpy as np

from fbagent.verifier.encoder import unit_float32
from fbagent.verifier.encoder_check import Span, TargetEncoder, mark_target

WINDOW_S = 0.01        # the collection window after an idle spell (seconds)
CACHE_SIZE = 4096      # rows kept by text
MAX_BATCH = 256        # texts per encode call

Key = tuple[str, Any]  # (text, None) for a plain text; (text, ("target", span)) for a target vector

#: called (no arguments) by a request that must wait for the encoder's model to load, in the caller's context
#: (an asyncio task sets it for itself: :class:`fbagent.generation.workers.EntryPool`); ``None``: nothing to do
ON_LOAD_WAIT: ContextVar[Callable[[], None] | None] = ContextVar("fbagent_encoder_load_wait", default=None)


class BatchEncoder:
    """Async front of a :class:`~fbagent.verifier.verify.TextEncoder` (see the module doc).

    ``await encode(texts)`` -> rows for ``texts``; ``await encode_targets(texts, spans)`` -> target vectors
    (the encoder's ``encode_targets``; an encoder without one embeds the texts with the target bracketed).
    ``window_s``: the collection window (0: none); ``cache_size``: rows kept by text (0: none);
    ``max_batch``: texts per encode call. An encoder error reaches every request of its batch.
    Call :meth:`close` at the end.
    """

    def __init__(self, encoder: TargetEncoder, max_batch: int = MAX_BATCH, window_s: float = WINDOW_S,
                 cache_size: int = CACHE_SIZE) -> None:
        self.encoder = encoder
        self.max_batch = max_batch
        self.window_s = window_s
        self.cache_size = cache_size
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fbagent-encoder")
        self._pending: list[tuple[list[Key], asyncio.Future[np.ndarray]]] = []
        self._rows: OrderedDict[Key, np.ndarray] = OrderedDict()
        self._runner: asyncio.Task[None] | None = None
        self.batches = 0        # encode calls made
        self.encoded = 0        # texts that went through the encoder
        self.cache_hits = 0     # texts answered from the rows kept by text

    async def encode(self, texts: list[str]) -> np.ndarray:
        """Embeddings of ``texts``: float32, shape (len(texts), dim), L2-normalised rows."""
        return await self._submit([(t, None) for t in texts])

    async def encode_targets(self, texts: list[str], spans: list[Span]) -> np.ndarray:
        """Target vectors of ``texts`` (``spans[i]``: ``(start, end)`` characters of the target, or
        ``None``): float32, shape (len(texts), dim), L2-normalised rows."""
        return await self._submit([(t, ("target", tuple(s) if s else None)) for t, s in zip(texts, spans, strict=True)])

    async def _submit(self, keys: list[Key]) -> np.ndarray:
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        kept = [self._rows.get(k) for k in keys]
        if all(row is not None for row in kept):
            self.cache_hits += len(keys)
            for k in keys:
                self._rows.move_to_end(k)
            return np.stack(cast(list[np.ndarray], kept))
        if not self.loaded:
            hook = ON_LOAD_WAIT.get()
            if hook is not None:
                hook()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[np.ndarray] = loop.create_future()
        self._pending.append((keys, future))
        if self._runner is None or self._runner.done():
            self._runner = loop.create_task(self._drain())
        return await future

    @property
    def loaded(self) -> bool:
        """Whether the encoder's model is ready: an encoder that loads in the background
        (:class:`fbagent.verifier.startup.BackgroundEncoder`: a ``loaded`` future) is ready once its load is done."""
        future = getattr(self.encoder, "loaded", None)
        return future is None or future.done()

    async def _drain(self) -> None:
        if self.window_s > 0 and sum(len(k) for k, _ in self._pending) < self.max_batch:
            await asyncio.sleep(self.window_s)   # let the entries in flight join this batch
        while self._pending:
            batch: list[Any] = []
            size = 0
            while self._pending and (not batch or size + len(self._pending[0][0]) <= self.max_batch):
                keys, fut = self._pending.pop(0)
                batch.append((keys, fut))
                size += len(keys)
            try:
                rows = await self._rows_of([k for keys, _ in batch for k in keys])
            except BaseException as err:  # noqa: BLE001 - hand the error to every waiter
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(err)
                if isinstance(err, asyncio.CancelledError):
                    raise
                continue
            for keys, fut in batch:
                if not fut.done():
                    fut.set_result(np.stack([rows[k] for k in keys]))

    async def _rows_of(self, keys: list[Key]) -> dict[Key, np.ndarray]:
        """The row of every key: the kept ones from the rows kept by text, the distinct others encoded in
        the worker thread (plain texts and target vectors in one call each), then kept."""
        fresh: dict[Key, np.ndarray] = {k: self._rows[k] for k in keys if k in self._rows}
        self.cache_hits += sum(1 for k in keys if k in fresh)
        for k in fresh:
            self._rows.move_to_end(k)
        missing = list(dict.fromkeys(k for k in keys if k not in fresh))
        loop = asyncio.get_running_loop()
        plain = [k for k in missing if k[1] is None]
        targets = [k for k in missing if k[1] is not None]
        if plain:
            embs = await loop.run_in_executor(self._executor, self.encoder.encode, [t for t, _ in plain])
            fresh.update(zip(plain, unit_float32(embs), strict=True))
        if targets:
            embs = await loop.run_in_executor(self._executor, self._encode_targets, [t for t, _ in targets],
                                              [s for _, (_, s) in targets])
            fresh.update(zip(targets, unit_float32(embs), strict=True))
        if missing:
            self.batches += bool(plain) + bool(targets)
            self.encoded += len(missing)
        self._keep(fresh)
        return fresh

    def _keep(self, rows: dict[Key, np.ndarray]) -> None:
        if self.cache_size <= 0:
            return
        for key, row in rows.items():
            self._rows[key] = row
            self._rows.move_to_end(key)
        while len(self._rows) > self.cache_size:
            self._rows.popitem(last=False)

    def _encode_targets(self, texts: list[str], spans: list[Span]) -> np.ndarray:
        if hasattr(self.encoder, "encode_targets"):
            return self.encoder.encode_targets(texts, spans)

        return self.encoder.encode([mark_target(t, s) for t, s in zip(texts, spans, strict=True)])

    def close(self) -> None:
        """Close the encoder when it has a ``close`` (an encoder in a process of its own ends; one still loading
        is stopped, and a request waiting for its load gives up), then stop the worker thread (waits for a
        running encode, which no longer waits for a load)."""
        close = getattr(self.encoder, "close", None)
        if close is not None:
            close()
        self._executor.shutdown(wait=True)
