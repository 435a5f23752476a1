"""The encoder's batching worker (fbagent.verifier.encoder_batch): concurrent requests of many entries share one
encode call in the worker thread, identical texts are encoded once, rows are kept by text, and every row equals
the encoder's own output for that text."""

from __future__ import annotations

import asyncio
import threading
import zlib

import numpy as np
import pytest

from fbagent.verifier.encoder_batch import BatchEncoder


class CountingEncoder:
    """Hashed bag of words (16-d) that records each call's texts and the thread it ran on."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.threads: set[str] = set()
        self.fail = fail

    def encode(self, texts):
        self.calls.append(list(texts))
        self.threads.add(threading.current_thread().name)
        if self.fail:
            raise RuntimeError("encoder broke")
        out = np.zeros((len(texts), 16), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.split():
                out[i, zlib.crc32(word.encode()) % 16] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def run(coro):
    return asyncio.run(coro)


def test_concurrent_requests_share_one_call_off_the_loop():
    enc = CountingEncoder()

    async def main():
        batch = BatchEncoder(enc, window_s=0.05)
        try:
            texts = [[f"to move thing {i}", f"to carry thing {i}"] for i in range(8)]   # 8 entries in flight
            rows = await asyncio.gather(*(batch.encode(t) for t in texts))
            return batch, texts, rows
        finally:
            batch.close()

    batch, texts, rows = run(main())
    assert len(enc.calls) == 1 and len(enc.calls[0]) == 16       # one call for the 8 requests' 16 texts
    assert enc.threads == {"fbagent-encoder_0"}                   # the worker thread, not the loop's
    for t, r in zip(texts, rows, strict=True):
        assert r.dtype == np.float32 and r.shape == (2, 16)
        assert np.allclose(r, CountingEncoder().encode(t), atol=1e-6)   # the encoder's own rows
    assert (batch.batches, batch.encoded, batch.cache_hits) == (1, 16, 0)


def test_identical_texts_encoded_once_and_kept_by_text():
    enc = CountingEncoder()

    async def main():
        batch = BatchEncoder(enc, window_s=0.05, cache_size=3)
        try:
            first = await asyncio.gather(batch.encode(["to go", "to leave"]), batch.encode(["to go", "to stay"]))
            again = await batch.encode(["to stay", "to go"])                  # both kept: no encoder call
            mixed = await batch.encode(["a", "b", "to go"])      # "to go" kept; a, b evict "to leave", "to stay"
            evicted = await batch.encode(["to stay"])
            return batch, first, again, mixed, evicted
        finally:
            batch.close()

    batch, first, again, mixed, evicted = run(main())
    assert enc.calls[0] == ["to go", "to leave", "to stay"]          # "to go" once in the first batch
    assert np.array_equal(first[0][0], first[1][0])
    assert np.array_equal(again[0], first[1][1]) and np.array_equal(again[1], first[0][0])
    assert enc.calls[1:] == [["a", "b"], ["to stay"]]                # cache of 3, least recently used out
    assert np.array_equal(mixed[2], first[0][0]) and np.allclose(evicted[0], first[1][1])
    assert (batch.batches, batch.encoded, batch.cache_hits) == (3, 6, 3)


def test_an_encoder_error_reaches_every_request_of_its_batch():
    async def main():
        batch = BatchEncoder(CountingEncoder(fail=True), window_s=0.05)
        try:
            return await asyncio.gather(batch.encode(["x"]), batch.encode(["y"]), return_exceptions=True)
        finally:
            batch.close()

    results = run(main())
    assert [str(r) for r in results] == ["encoder broke", "encoder broke"]


def test_target_vectors_and_plain_texts_are_kept_apart():
    class Targets(CountingEncoder):
        def encode_targets(self, texts, spans):
            return self.encode([f"[{t[s[0]:s[1]]}] {t}" for t, s in zip(texts, spans, strict=True)])

    enc = Targets()

    async def main():
        batch = BatchEncoder(enc, window_s=0.05)
        try:
            return await asyncio.gather(batch.encode(["She left."]), batch.encode_targets(["She left."], [(4, 8)]))
        finally:
            batch.close()

    plain, target = run(main())
    assert sorted(enc.calls) == [["She left."], ["[left] She left."]]
    assert not np.allclose(plain, target)


def test_empty_request():
    async def main():
        batch = BatchEncoder(CountingEncoder())
        try:
            return await batch.encode([])
        finally:
            batch.close()

    assert run(main()).shape == (0, 0)


@pytest.mark.parametrize("window_s", [0.0, 0.01])
def test_window_zero_or_short_still_answers_in_order(window_s):
    async def main():
        batch = BatchEncoder(CountingEncoder(), window_s=window_s)
        try:
            return await asyncio.gather(*(batch.encode([f"text {i}"]) for i in range(5)))
        finally:
            batch.close()

    rows = run(main())
    assert [np.allclose(r, CountingEncoder().encode([f"text {i}"])) for i, r in enumerate(rows)] == [True] * 5
