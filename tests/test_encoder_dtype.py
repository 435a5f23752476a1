"""Similarities are float32 whatever the encoder's dtype (an fp16 encoder once stored a cosine of 1.0009765625)."""

from __future__ import annotations

import asyncio

import numpy as np

from fbagent.verifier.encoder import unit_float32
from fbagent.verifier.verify import BatchEncoder


class HalfEncoder:
    """A stand-in encoder that answers in float16, rows normalised in float16 (as an fp16 model does)."""

    def __init__(self) -> None:
        self.vectors: dict[str, np.ndarray] = {}
        self._rng = np.random.default_rng(3)

    def encode(self, texts):
        rows = []
        for t in texts:
            if t not in self.vectors:
                v = self._rng.normal(size=384).astype(np.float16)
                self.vectors[t] = (v / np.linalg.norm(v.astype(np.float32))).astype(np.float16)
            rows.append(self.vectors[t])
        return np.stack(rows)


def test_fp16_rows_become_unit_float32():
    enc = HalfEncoder()
    raw = enc.encode(["a", "b"])
    fixed = unit_float32(raw)
    assert fixed.dtype == np.float32
    assert abs(float(fixed[0] @ fixed[0]) - 1.0) < 1e-6
    assert abs(float(fixed[0] @ fixed[1])) <= 1.0
    assert unit_float32(np.zeros((1, 4), dtype=np.float16)).tolist() == [[0.0, 0.0, 0.0, 0.0]]


def test_batch_encoder_hands_out_float32():
    async def main():
        batch = BatchEncoder(HalfEncoder())
        try:
            return await batch.encode(["She left.", "to go away"])
        finally:
            batch.close()

    rows = asyncio.run(main())
    assert rows.dtype == np.float32 and np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-6)
