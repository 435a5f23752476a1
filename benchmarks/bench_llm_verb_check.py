"""Benchmark: ``--verb-check llm`` over a sentence set, through the real client against a local stub model.

Usage: python benchmarks/bench_llm_verb_check.py [--data tests/data/verb_sentences_sealed_2026_12.jsonl ...]

Issue 41, item 3: the LLM verb check (:func:`fbagent.checks.llm_verb_check.confirm_verb`) measured on a sealed
set. Every sentence is asked once through :class:`fbagent.llm.client.LLMClient` (the openai provider, instructor,
a real SQLite ``llm_calls`` cache) of an OpenAI-compatible stub on 127.0.0.1 (``tests/openai_stub.py``) that
answers from the set's labels in two ways:

- ``right``: the model a user hopes for: ``used_as_verb`` = the label, ``form`` = the sentence's ``verb_form``;
- ``wrong``: the opposite answer for every sentence (used where the verb is absent, and the other way round; an
  absent sentence's ``form`` is its look-alike word, so it stands in the sentence).

Printed per language: found / present and refused / absent for each stub, the stored method (``llm`` on every
row), the calls made (one per sentence, ``task="verb_check"`` in ``llm_calls``) and the calls a second pass
makes (0: every answer comes from the cache). With the right stub every line should be decided as labelled
(a miss means the answer's form could not be placed in the sentence: printed); with the wrong stub no present
verb is found, and an absent one is refused anyway when the form the model names is not in the sentence. The
entry's fate (verified or rejected after R + 1 self-checks) is asserted by tests/test_verb_gate_issue41.py.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from openai_stub import OpenAIStub, schema_name  # noqa: E402

from fbagent.checks.llm_verb_check import confirm_verb, verb_use_messages  # noqa: E402
from fbagent.llm.factory import make_client  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402

DEFAULT_DATA = [str(ROOT / "tests" / "data" / "verb_sentences_sealed_2026_12.jsonl")]


class LabelResponder:
    """Answers the verb-use question of each sentence from its label (``right``) or against it (``wrong``)."""

    def __init__(self, rows: list[dict[str, Any]], *, wrong: bool) -> None:
        self.by_question = {verb_use_messages(r["sentence"], r["lemma"], r["lang"])[-1]["content"]: r for r in rows}
        self.wrong = wrong
        self.calls = 0

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        assert schema_name(request) == "VerbUse", schema_name(request)
        row = self.by_question[request["messages"][-1]["content"]]
        self.calls += 1
        used = row["present"] != self.wrong
        return {"used_as_verb": used, "form": row["verb_form"] if used else ""}


async def _pass(rows: list[dict[str, Any]], base_url: str, db_path: Path) -> list[tuple[dict[str, Any], Any]]:
    db = open_db(db_path)
    client = make_client("openai", db=db, base_url=base_url, model="stub-model", concurrency=16, backoff_s=0.01)
    try:
        matches = await asyncio.gather(*(confirm_verb(client, r["sentence"], r["lemma"], r["lang"]) for r in rows))
    finally:
        await client.aclose()
        db.close()
    return list(zip(rows, matches, strict=True))


def _measure(rows: list[dict[str, Any]], *, wrong: bool) -> tuple[dict[str, list[int]], Counter[str], int, int, list[str]]:
    cells: dict[str, list[int]] = {}
    methods: Counter[str] = Counter()
    misses: list[str] = []
    responder = LabelResponder(rows, wrong=wrong)
    with tempfile.TemporaryDirectory() as tmp, OpenAIStub(responder) as stub:
        db_path = Path(tmp) / "bench.db"
        for row, m in asyncio.run(_pass(rows, stub.base_url, db_path)):
            cell = cells.setdefault(row["lang"], [0, 0, 0, 0])
            cell[0 if row["present"] else 2] += m.found == row["present"]
            cell[1 if row["present"] else 3] += 1
            methods[m.method] += 1
            if not wrong and m.found != row["present"]:
                misses.append(f"{row['lang']} {row['lemma']} | {row['sentence']} [{m.note}]")
        first = responder.calls
        asyncio.run(_pass(rows, stub.base_url, db_path))
        second = responder.calls - first
        stored = open_db(db_path).execute("select count(*) from llm_calls where task = 'verb_check'").fetchone()[0]
    assert stored >= len({(r["sentence"], r["lemma"]) for r in rows}), stored
    return cells, methods, first, second, misses


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", default=None, help="JSONL sentence set (repeatable)")
    args = ap.parse_args()
    rows = [json.loads(line) for path in (args.data or DEFAULT_DATA)
            for line in Path(path).read_text("utf-8").splitlines() if line.strip()]
    seen: set[tuple[str, str]] = set()
    rows = [r for r in rows if (r["sentence"], r["lemma"]) not in seen and not seen.add((r["sentence"], r["lemma"]))]
    print(f"{len(rows)} sentences ({sum(r['present'] for r in rows)} with the verb), "
          f"{len({r['lang'] for r in rows})} languages")
    results = {name: _measure(rows, wrong=name == "wrong") for name in ("right", "wrong")}
    print(f"\n{'lang':<5}{'right: found':>15}{'refused':>10}{'wrong: found':>15}{'refused':>10}")
    for lang in sorted({r["lang"] for r in rows}):
        r, w = results["right"][0][lang], results["wrong"][0][lang]
        print(f"{lang:<5}{f'{r[0]}/{r[1]}':>15}{f'{r[2]}/{r[3]}':>10}{f'{w[0]}/{w[1]}':>15}{f'{w[2]}/{w[3]}':>10}")
    for name, (_, methods, first, second, misses) in results.items():
        print(f"\n{name} stub: methods stored {dict(methods)}; calls {first} (one per sentence), "
              f"second pass {second} (from the llm_calls cache)")
        for line in misses:
            print("  miss: " + re.sub(r"\s+", " ", line))


if __name__ == "__main__":
    main()
