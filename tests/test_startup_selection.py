"""The first screening requests of ``fbagent generate`` go out before LangGraph is imported.

:func:`fbagent.generation.selection.prepare_selection` stores a new selection as ``fbagent pairs
select`` does (:func:`fbagent.pairs.select.select_pairs`, the same rows as the selection graph's nodes),
and :func:`fbagent.pairs.screening.screen_pairs` starts the first round of screening calls
before it builds the graph, whose LangGraph import then runs behind them.
"""

from __future__ import annotations

import json
import subprocess
import sys

# Run in a fresh interpreter: LangGraph must not be imported yet when the first screening call starts.
FIRST_CALL_PROBE = r"""
import asyncio, json, sys
from types import SimpleNamespace

from fbagent.prompting.messages import load_prompts
from fbagent.generation.events import GenerationSummary
from fbagent.generation.options import GenerateOptions, RunOptions
from fbagent.pairs.select import SelectionOptions
from fbagent.generation.selection import prepare_selection
from fbagent.lexicon.importer import resolve_lexicon
from fbagent.schemas import PairScreening
from fbagent.store import runs as runs_store
from fbagent.store.db import open_db

seen = []

class Client:
    async def complete(self, **kwargs):
        seen.append("langgraph.graph" in sys.modules)
        await asyncio.sleep(0.01)
        return SimpleNamespace(error=None, call_id=1, value=PairScreening(
            evokes_both=True, distinguishable=True, reason="Everyday uses differ."))

async def main():
    db = open_db(sys.argv[1])
    lexicon = dict(resolve_lexicon(db, None, notify=None))
    before = "langgraph.graph" in sys.modules
    opts = GenerateOptions(selection=SelectionOptions(pairs=3), run=RunOptions(screen=True))
    run = runs_store.create_run(db, name="probe", command="probe", lexicon_id=lexicon["id"], generator="openai",
                                model="m", verifier_generator="openai", verifier_model="m", encoder="e", seed=0,
                                options={}, prompt_versions={})
    pairs = await prepare_selection(db, lexicon, opts, run, screen_client=Client(), prompts=load_prompts("en"),
                                    summary=GenerationSummary(run_name="probe", run_id=run["id"], db_path=sys.argv[1]),
                                    emit=lambda event: None)
    print(json.dumps({"before": before, "seen": seen, "pairs": len(pairs),
                      "after": "langgraph.graph" in sys.modules}))

asyncio.run(main())
"""


def test_first_screening_calls_start_before_langgraph_is_imported(tmp_path):
    """A new run's selection is made and its screening calls started without LangGraph; the graph then
    loads and screens with those calls."""
    out = subprocess.run([sys.executable, "-c", FIRST_CALL_PROBE, str(tmp_path / "probe.db")], capture_output=True,
                         text=True, timeout=120, check=True)
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["before"] is False
    assert probe["seen"] and probe["seen"] == [False] * len(probe["seen"])   # every first-round call
    assert probe["pairs"] == 3 and probe["after"] is True


def _selection_rows(db, selection_id):
    sel = next(db.query("SELECT lexicon_id, seed, options, counts FROM selections WHERE id = ?", [selection_id]))
    pairs = list(db.query("SELECT verb, frame_a, frame_b, lu_a, lu_b, rank, status, per_pair FROM frame_pairs "
                          "WHERE selection_id = ? ORDER BY id", [selection_id]))
    return sel, pairs


async def test_new_selection_stores_what_the_selection_graph_stores(tmp_path):
    """``prepare_selection`` stores a new selection with :func:`fbagent.pairs.select.select_pairs` instead of the
    graph's nodes: the same ``selections`` and ``frame_pairs`` rows."""
    from factories import generate_options

    from fbagent.lexicon.importer import resolve_lexicon
    from fbagent.pairs.screening import screen_pairs as graph_select
    from fbagent.pairs.select import select_pairs as direct_select
    from fbagent.store.db import open_db

    options = generate_options(pairs=6, per_pair=2, seed=3, max_per_verb=2).selection
    rows = []
    for name, select in (("graph", graph_select), ("direct", direct_select)):
        db = open_db(tmp_path / f"{name}.db")
        lexicon = dict(resolve_lexicon(db, None, notify=None))
        made = select(db, lexicon, options)
        made = await made if name == "graph" else made
        rows.append(_selection_rows(db, made["selection_id"]))
    (graph_sel, graph_pairs), (direct_sel, direct_pairs) = rows
    assert graph_sel == direct_sel and graph_pairs == direct_pairs and len(graph_pairs) > 6


async def test_a_failing_graph_cancels_the_started_screening_calls(tmp_path, monkeypatch):
    """Calls started before the graph do not outlive a graph that fails to build."""
    import asyncio

    from fbagent.lexicon.importer import resolve_lexicon
    from fbagent.pairs import screening as selection_graph
    from fbagent.pairs.select import SelectionOptions
    from fbagent.pairs.select import select_pairs as direct_select
    from fbagent.prompting.messages import load_prompts
    from fbagent.store.db import open_db

    db = open_db(tmp_path / "f.db")
    lexicon = dict(resolve_lexicon(db, None, notify=None))
    made = direct_select(db, lexicon, SelectionOptions(pairs=2, seed=0))
    calls = []

    class Client:
        async def complete(self, **kwargs):
            calls.append(asyncio.current_task())
            await asyncio.sleep(30)

    def broken():
        raise RuntimeError("no graph")

    monkeypatch.setattr(selection_graph, "build_selection_graph", broken)
    try:
        await selection_graph.screen_pairs(db, lexicon, SelectionOptions(pairs=2, seed=0), screen_client=Client(),
                                           prompts=load_prompts("en"), selection_id=made["selection_id"])
    except RuntimeError as err:
        assert str(err) == "no graph"
    else:
        raise AssertionError("the graph's error was swallowed")
    await asyncio.sleep(0)
    assert len(calls) == 2 and all(task.cancelled() for task in calls)
