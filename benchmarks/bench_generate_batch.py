"""What `generate --batch` costs in this process: waves, jobs, lines, and CPU per entry against a direct run.

Usage: python benchmarks/bench_generate_batch.py [--pairs 40] [--per-pair 1] [--json]

Runs :func:`fbagent.generation.generate` twice on the embedded sample lexicon against the scripted
OpenAI-compatible server of ``tests/openai_stub.py`` (the frame-aware generator of ``tests/gen_responder.py``,
no latency) with a hashed bag-of-words encoder: once directly, once with ``--batch`` against the Batch API stub
of ``tests/batch_stub.py`` (jobs finish at the first poll, ``FBAGENT_BATCH_POLL_S=0``). Prints, per run: the
entries, the chat requests the server answered directly, the batch jobs and their lines, the waves, the process
CPU seconds per entry (``time.process_time``: the passes that carry every pending entry through the entry graph
again after each wave are the batch run's own cost; the stub answers in this process too, so both runs include its
work) and whether the items are equal. Record ``uptime`` with
the numbers: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from batch_stub import BatchStub  # noqa: E402
from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402

FIELDS = ("id", "status", "sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime", "reasons")


class BagOfWords:
    """Hashed bag of words, 256-d, L2-normalised rows."""

    name = "bag-of-words"

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 256), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.encode()) % 256] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


async def one(db_path: Path, pairs: int, per_pair: int, batch: bool) -> dict[str, Any]:
    """One run; returns its numbers."""
    from fbagent.generation import generate
    from fbagent.store.db import open_db

    with OpenAIStub(FrameResponder()) as stub:
        batches = BatchStub(stub, polls=0).install() if batch else None
        opts = generate_options(generator="openai", base_url=stub.base_url, model="stub-model", pairs=pairs,
                                per_pair=per_pair, screen=False, run="bench", concurrency=8, batch=batch)
        cpu = time.process_time()
        wall = time.perf_counter()
        summary = await generate(db_path, opts, encoder=BagOfWords(), command="bench")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        direct = stub.request_count
    db = open_db(db_path)
    items = [{k: r[k] for k in FIELDS} for r in db.query("SELECT * FROM items ORDER BY id")]
    jobs = list(db.query("SELECT wave, lines FROM batch_jobs ORDER BY id"))
    n = max(1, summary.entries_done)
    return {"batch": batch, "entries": summary.entries_done, "direct_requests": direct,
            "jobs": len(batches.created) if batches else 0, "lines": sum(j["lines"] for j in jobs),
            "waves": summary.batch_waves, "cpu_s": round(cpu, 2), "cpu_ms_per_entry": round(1000 * cpu / n, 1),
            "wall_s": round(wall, 2), "items": items}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--per-pair", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ["FBAGENT_BATCH_POLL_S"] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        direct = asyncio.run(one(Path(tmp) / "direct.db", args.pairs, args.per_pair, False))
        batch = asyncio.run(one(Path(tmp) / "batch.db", args.pairs, args.per_pair, True))
    equal = direct.pop("items") == batch.pop("items")
    ratio = round(batch["cpu_ms_per_entry"] / max(direct["cpu_ms_per_entry"], 1e-9), 2)
    if args.json:
        print(json.dumps({"direct": direct, "batch": batch, "items_equal": equal, "cpu_ratio": ratio}))
        return
    for row in (direct, batch):
        print(f"{'batch ' if row['batch'] else 'direct'}: {row['entries']} entries, {row['direct_requests']} direct "
              f"requests, {row['jobs']} jobs / {row['lines']} lines in {row['waves']} waves, CPU {row['cpu_s']} s "
              f"({row['cpu_ms_per_entry']} ms/entry), wall {row['wall_s']} s")
    print(f"items equal: {equal}; CPU per entry batch/direct: {ratio}")


if __name__ == "__main__":
    main()
