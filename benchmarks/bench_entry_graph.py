"""Benchmark: what the entry graph costs per entry without HTTP, and what its checkpointer costs per node.

Usage: python benchmarks/bench_entry_graph.py [--entries 200] [--concurrency 16] [--json]

The real entry graph (:mod:`fbagent.agents.entry_graph`: generate (base pair, self-check, extension,
their retries) -> verify; a rejected or failed entry ends in generate) runs ``--entries`` entries of the
embedded sample lexicon with ``2 x concurrency`` entries in flight, but the LLM
clients answer at once from precomputed objects (the constant stub's answers,
``benchmarks/const_stub.py``, without HTTP, instructor or openai) and the
encoder is the stand-in (hashed bag of words). What remains is fbagent's own
work per entry: LangGraph, the checks, the verifier's scoring, ``build_item``
and the checkpointer. Each variant runs in this process after a warm-up
(lemma tables, imports):

- ``none``: no checkpointer;
- ``memory``: LangGraph's ``InMemorySaver`` (the serializer, no SQLite);
- ``sqlite sync`` / ``sqlite async`` / ``sqlite exit``: ``AsyncSqliteSaver`` in
  a WAL file with ``synchronous=NORMAL``, as ``fbagent generate`` opens it,
  with LangGraph's three durability modes (``sync``: each step's checkpoint is
  written before the next step starts), LangGraph's own saver through aiosqlite;
- ``loop sqlite sync``: :class:`fbagent.generation.checkpoints.LoopSqliteSaver`,
  the same saver and file writing on the event loop thread (what
  ``fbagent generate`` uses), durability ``sync``.

Printed per variant: process CPU ms per entry (all threads: aiosqlite's thread
too), wall ms per entry, and the checkpointer's cost per node = (CPU - CPU of
``none``) / checkpoints written per entry. Also the CPU of the checks alone.
Prints numbers, asserts nothing; the machine's load is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from const_stub import NOUNS, Answers  # noqa: E402
from generate_child import HashEncoder  # noqa: E402


class InstantClient:
    """An ``LLMClient`` stand-in that answers every request at once with the constant stub's answer."""

    backend, model = "instant", "instant"

    def __init__(self, answers: Answers) -> None:
        from fbagent.llm.client import UsageStats

        self.answers, self.stats = answers, UsageStats()
        self._values: dict[bytes, Any] = {}

    async def complete(self, *, messages: list[dict[str, Any]], response_model: Any, seed: int | None = None,
                       **_: Any) -> Any:
        from fbagent.llm.client import CallResult

        request = {"messages": messages, "seed": seed,
                   "response_format": {"json_schema": {"name": response_model.__name__}}}
        _, response = self.answers.answer(request)
        if response is None:
            return CallResult(None, "no answer", False, 0, 0, 0.0, 1, 0)
        value = self._values.get(response)
        if value is None:
            body = json.loads(response.split(b"\r\n\r\n", 1)[1])
            value = self._values[response] = json.loads(body["choices"][0]["message"]["content"])
        self.stats.calls += 1
        return CallResult(response_model.model_validate(value), None, False, 0, 0, 0.0, 1, 0)


async def _sync_cm(cm: Any) -> Any:
    with cm as value:
        yield value


def setup(folder: Path) -> tuple[Any, dict[str, Any], list[dict[str, Any]], Answers]:
    """The sample lexicon in a fresh database, its candidate pairs as entry states, and the stub's answers."""
    from fbagent.lexicon.importer import resolve_lexicon
    from fbagent.store.db import open_db
    from fbagent.store.lexicon import frame_reference_texts, verb_frames

    db = open_db(folder / "bench.db")
    lexicon = dict(resolve_lexicon(db, None, notify=lambda note: None))
    table = {v: {f: frame_reference_texts(db, lexicon["id"], f, v)[0] for f in fs}
             for v, fs in verb_frames(db, lexicon["id"]).items() if len(fs) >= 2}
    pairs = [{"id": i, "verb": v, "frame_a": fs[0], "frame_b": fs[1], "lu_a": f"{v}.v", "lu_b": f"{v}.v"}
             for i, (v, fs) in enumerate((v, list(fs)) for v, fs in table.items())]
    return db, lexicon, pairs, Answers(table)


def states(db: Any, lexicon: dict[str, Any], pairs: list[dict[str, Any]], n: int, tag: str) -> list[dict[str, Any]]:
    from fbagent.generation.workers import FrameInfoCache, initial_state

    infos = FrameInfoCache(db, lexicon["id"])
    run = {"id": 1, "name": tag}
    out = []
    for i in range(n):
        pair, k = pairs[i % len(pairs)], (i // len(pairs)) % len(NOUNS)
        out.append(initial_state(f"{tag}:{pair['id']}:{i}", run, pair, k, lexicon, infos))
    return out


async def run_variant(variant: str, db: Any, lexicon: dict[str, Any], pairs: list[dict[str, Any]], answers: Answers,
                      folder: Path, n: int, concurrency: int) -> dict[str, Any]:
    from fbagent.agents.entry_graph import EntryContext, compile_entry_graph
    from fbagent.generation.workers import run_entry
    from fbagent.prompting.messages import load_prompts
    from fbagent.store.lexicon import frame_reference_texts
    from fbagent.verifier.verify import BatchEncoder, ReferenceBank

    encoder = BatchEncoder(HashEncoder())
    client = InstantClient(answers)
    ctx = EntryContext(generator=client, verifier=client, prompts=load_prompts("en"), encoder=encoder,
                       references=ReferenceBank(encoder, lambda f, v: frame_reference_texts(db, lexicon["id"], f, v)),
                       encoder_name="stand-in")
    saver_cm = None
    durability = "sync"
    if variant == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        saver = InMemorySaver()
    elif variant.startswith("loop"):
        from fbagent.generation.checkpoints import open_checkpointer

        durability = variant.split()[-1]
        saver_cm = contextlib.asynccontextmanager(_sync_cm)(open_checkpointer(folder / f"loop-{durability}.db"))
        saver = await saver_cm.__aenter__()
        saver.skip_input_checkpoints = True   # as fbagent generate sets it
    elif variant.startswith("sqlite"):
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        durability = variant.split()[1]
        path = folder / f"checkpoints-{durability}.db"
        saver_cm = AsyncSqliteSaver.from_conn_string(str(path))
        saver = await saver_cm.__aenter__()
        await saver.setup()
        await saver.conn.execute("PRAGMA synchronous = NORMAL")
    else:
        saver = None
    graph = compile_entry_graph(saver)
    puts = {"aput": 0}
    if saver is not None:
        real_put = saver.aput

        async def counting_put(*args: Any, **kwargs: Any) -> Any:
            puts["aput"] += 1
            return await real_put(*args, **kwargs)

        saver.aput = counting_put  # type: ignore[method-assign]
    todo = states(db, lexicon, pairs, n, variant.replace(" ", "-"))
    queue = list(reversed(todo))
    statuses: dict[str, int] = {}

    async def worker() -> None:
        while queue:
            state = queue.pop()
            if saver is None:
                item = (await graph.ainvoke(state, context=ctx))["item"]
            else:
                item = await run_entry(graph, saver, ctx, state, durability)
                await saver.adelete_thread(state["item_id"])
            statuses[item["status"]] = statuses.get(item["status"], 0) + 1

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(2 * concurrency)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if saver_cm is not None:
        await saver_cm.__aexit__(None, None, None)
    encoder.close()
    return {"variant": variant, "entries": n, "statuses": statuses, "cpu_ms_per_entry": round(1000 * cpu / n, 2),
            "wall_ms_per_entry": round(1000 * wall / n, 2), "checkpoints_per_entry": round(puts["aput"] / n, 2)}


def checks_cpu(n: int) -> float:
    """CPU ms of one entry's checks (self_check on the base pair, extension_check on both sides), warm."""
    from fbagent.checks import self_check as checks

    base = {"condition": "something was done to a box", "question": "Which sentence implies that something was "
            "done to a box?", "sentence_a": "They leave the departing box near the placing today.",
            "sentence_b": "They leave the placing box near the departing tonight.", "verb_form_a": "leave",
            "verb_form_b": "leave"}
    ext = "Last winter several departing workers wanted to leave a box near pier 17."

    def once() -> None:
        checks.self_check(base, lemma="leave", lang="en", frame_names=["Departing", "Placing"],
                          fe_names=["Theme", "Source"], similarity_threshold=0.5)
        for side in ("sentence_a", "sentence_b"):
            checks.extension_check(ext, base[side], key=side + "_prime", lemma="leave", lang="en",
                                   verb_form="leave", near_copy_threshold=0.7, others=[])

    once()
    t = time.process_time()
    for _ in range(n):
        once()
    return 1000 * (time.process_time() - t) / n


def main() -> None:
    ap = argparse.ArgumentParser(description="the entry graph's own cost per entry and its checkpointer's per node")
    ap.add_argument("--entries", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fbgraph-"))
    try:
        db, lexicon, pairs, answers = setup(folder)
        asyncio.run(run_variant("none", db, lexicon, pairs, answers, folder, 16, args.concurrency))   # warm-up
        rows = [asyncio.run(run_variant(v, db, lexicon, pairs, answers, folder, args.entries, args.concurrency))
                for v in ("none", "memory", "sqlite sync", "sqlite async", "sqlite exit", "loop sqlite sync")]
        checks_ms = checks_cpu(50)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    base = rows[0]["cpu_ms_per_entry"]
    print(f"{args.entries} entries, {2 * args.concurrency} in flight, instant LLM, stand-in encoder; "
          f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("variant | CPU ms/entry | wall ms/entry | checkpoints/entry | checkpointer CPU ms/node")
    print("--- | --- | --- | --- | ---")
    for r in rows:
        per = r["checkpoints_per_entry"]
        r["checkpointer_ms_per_node"] = round((r["cpu_ms_per_entry"] - base) / per, 3) if per else None
        print(f"{r['variant']} | {r['cpu_ms_per_entry']:.2f} | {r['wall_ms_per_entry']:.2f} | {per:g} | "
              f"{r['checkpointer_ms_per_node'] if per else '-'}")
    print(f"checks alone (self_check + 2 x extension_check): {checks_ms:.2f} ms CPU per entry")
    if args.json:
        for r in rows:
            print(json.dumps(r))
        print(json.dumps({"checks_ms_per_entry": round(checks_ms, 3)}))


if __name__ == "__main__":
    main()
