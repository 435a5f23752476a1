"""The benchmark's constant-time stub (benchmarks/const_stub.py) answers fbagent's real prompts.

If a prompt's wording loses a marker the stub keys on, the benchmark would
refuse to report (misses); this test says so first. The stub runs in its own
process, as in the benchmark; fbagent runs in process on the embedded sample
lexicon with a hashed bag-of-words encoder.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import urllib.request
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_generate import prepare  # noqa: E402
from factories import generate_options  # noqa: E402
from rich.console import Console  # noqa: E402

from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.generation import generate  # noqa: E402


class BagOfWords:
    name = "bag-of-words"

    def encode(self, texts):
        out = np.zeros((len(texts), 256), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.encode()) % 256] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


async def test_the_constant_stub_answers_every_request_of_a_run_and_the_load_client(tmp_path):
    template, lexicon = prepare(tmp_path)
    table = json.loads(lexicon.read_text())
    assert table and all(len(frames) >= 2 for frames in table.values())
    stub = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "const_stub.py"), "serve", "--lexicon",
                             str(lexicon)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        url = stub.stdout.readline().strip()
        shutil.copy(template, tmp_path / "fb.db")
        opts = generate_options(pairs=3, per_pair=2, generator="openai", base_url=url, model="stub-model",
                               concurrency=4, backoff_s=0.01)
        summary = await generate(tmp_path / "fb.db", opts, encoder=BagOfWords(), command="test",
                                 on_event=GenerateView(Console(file=io.StringIO())))
        stats = json.loads(urllib.request.urlopen(url.removesuffix("/v1") + "/stats", timeout=10).read())
        load = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "const_stub.py"), "load", "--url", url,
                               "--lexicon", str(lexicon), "--concurrency", "4", "--seconds", "0.3"],
                              capture_output=True, text=True, check=True, timeout=60)
    finally:
        stub.stdin.close()
        stub.wait(timeout=10)
    assert stats["misses"] == 0, stats["miss_examples"]
    assert stats["by_schema"] == {"PairScreening": 3, "BasePair": 6, "ExtendedSentence": 12, "Definition": 24}
    assert summary.counts == {"verified": 6, "flagged": 0, "rejected": 0, "failed": 0}
    alone = json.loads(load.stdout.strip().splitlines()[-1])
    assert alone["requests"] > 0 and alone["errors"] == 0 and alone["concurrency"] == 4
