"""`pairs select --protocol framebench`: the FrameBench authors' selection rules on a small lexicon.

Lexicon (frames read sorted by name: Alpha, Beta, Delta, Gamma):
run.v in Alpha (3 annotated), Beta (2), Delta (1), Gamma (0: dropped); go.v in Alpha (1), Beta (1);
sit.v in Gamma only; walk.v in Alpha and Beta with 0 annotated (dropped); run.n in Alpha and Beta (a noun).
Pool, in the authors' order (LU groups by first appearance, then itertools.combinations):
0 run Alpha/Beta, 1 run Alpha/Delta, 2 run Beta/Delta, 3 go Alpha/Beta.
numpy RandomState(42).permutation(4) = [1, 3, 0, 2] (pandas' sample(frac=1, random_state=42) order).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.importer import import_lexicon
from fbagent.pairs import framebench
from fbagent.pairs.select import SelectionOptions, select_pairs
from fbagent.store.pairs import get_selection, selection_pairs


def _frame(name, lus):
    return {"frame": name, "definition": f"{name} happens.",
            "frame_elements": [{"name": "Agent", "core_type": "Core"}],
            "lexical_units": [{"name": lu, "n_annotated": n} for lu, n in lus]}


FRAMES = [
    _frame("Gamma", [("run.v", 0), ("sit.v", 5)]),
    _frame("Alpha", [("run.v", 3), ("go.v", 1), ("walk.v", 0), ("run.n", 4)]),
    _frame("Delta", [("run.v", 1)]),
    _frame("Beta", [("run.v", 2), ("go.v", 1), ("walk.v", 0), ("run.n", 2)]),
]
POOL = [("run", "Alpha", "Beta"), ("run", "Alpha", "Delta"), ("run", "Beta", "Delta"), ("go", "Alpha", "Beta")]


@pytest.fixture
def lexicon(tmp_db, tmp_path):
    path = tmp_path / "small.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in FRAMES), "utf-8")
    result = import_lexicon(tmp_db, path, lang="en", name="small")
    return tmp_db, {"id": result.lexicon_id, "name": result.name}


def key(pairs):
    return [(p["verb"], p["frame_a"], p["frame_b"]) for p in pairs]


def test_rules_unannotated_lus_out_every_combination_one_seeded_shuffle(lexicon):
    db, lex = lexicon
    made = select_pairs(db, lex, SelectionOptions(pairs=3, seed=42, protocol="framebench"))
    c = made["counts"]
    # 9 verb LUs read (run.v x4, go.v x2, walk.v x2, sit.v); run.v in Gamma and both walk.v have 0 annotated
    assert (c["verb_lus"], c["unannotated_lus"], c["lu_names"], c["polysemous_lus"]) == (9, 3, 3, 2)
    assert c["candidates"] == 4 and c["excluded"] == {}
    # permutation [1, 3, 0, 2]: the first three of the shuffled pool, the fourth kept as reserve
    assert key(made["pairs"]) == [POOL[1], POOL[3], POOL[0]]
    assert key(selection_pairs(db, made["selection_id"], "reserve")) == [POOL[2]]
    assert all(p["lu_a"] == p["lu_b"] for p in made["pairs"])
    assert (c["frame_pairs"], c["unique_lu_names"], c["unique_verbs"], c["unique_lus"]) == (3, 2, 2, 5)
    stored = get_selection(db, made["selection_id"])
    assert stored["protocol"] == "framebench" and stored["options"]["protocol"] == "framebench"
    assert stored["options"]["exclude_related"] is False and stored["options"]["require_core_fe"] is False


def test_n_at_least_the_pool_takes_every_pair_in_order_without_shuffle(lexicon):
    db, lex = lexicon
    made = select_pairs(db, lex, SelectionOptions(pairs=10, seed=42, protocol="framebench"))
    assert key(made["pairs"]) == POOL and made["counts"]["took_all"] and made["counts"]["reserve"] == 0


def test_same_options_reuse_the_stored_selection(lexicon):
    db, lex = lexicon
    first = select_pairs(db, lex, SelectionOptions(pairs=3, seed=42, protocol="framebench"))
    again = select_pairs(db, lex, SelectionOptions(pairs=3, seed=42, protocol="framebench"))
    other = select_pairs(db, lex, SelectionOptions(pairs=3, seed=7, protocol="framebench"))
    assert not first["reused"] and again["reused"] and again["selection_id"] == first["selection_id"]
    assert not other["reused"] and other["selection_id"] != first["selection_id"]
    # RandomState(7).permutation(4) = [2, 1, 0, 3]
    assert key(other["pairs"]) == [POOL[2], POOL[1], POOL[0]]
    assert db.execute("SELECT COUNT(*) FROM selections").fetchone()[0] == 2


def test_shuffle_is_pandas_sample_order():
    assert framebench.shuffled_order(4, 42) == [1, 3, 0, 2]
    pd = pytest.importorskip("pandas", reason="pandas (installed with datasets) gives the reference order")
    for n, seed in ((4, 42), (1301, 42), (800, 9)):
        frame = pd.DataFrame({"row": range(n)})
        assert framebench.shuffled_order(n, seed) == list(frame.sample(frac=1, random_state=seed).index)


def test_framebench_refuses_caps_and_seeds_numpy_cannot_take(lexicon):
    db, lex = lexicon
    for opts, msg in ((SelectionOptions(protocol="framebench", max_per_verb=1), "--max-per-verb is not part of"),
                      (SelectionOptions(protocol="framebench", seed=2**32), "too large for --protocol framebench"),
                      (SelectionOptions(protocol="nope"), "unknown pair-selection protocol 'nope'")):
        with pytest.raises(FbagentError, match=msg):
            select_pairs(db, lex, opts)
    assert db.execute("SELECT COUNT(*) FROM selections").fetchone()[0] == 0


def test_a_lexicon_without_annotation_counts_is_refused_with_the_reason(tmp_db, tmp_path):
    path = tmp_path / "bare.jsonl"
    path.write_text("".join(json.dumps(_frame(name, [("run.v", 0)])) + "\n" for name in ("Alpha", "Beta")), "utf-8")
    result = import_lexicon(tmp_db, path, lang="en", name="bare")
    with pytest.raises(FbagentError, match="none of its 2 verb lexical units has an annotated sentence"):
        select_pairs(tmp_db, {"id": result.lexicon_id, "name": "bare"}, SelectionOptions(protocol="framebench"))


def test_cli_prints_table1_and_says_when_it_reuses(lexicon, tmp_path):
    db, _lex = lexicon
    env = {**os.environ, "FBAGENT_DB": str(db.conn.execute("PRAGMA database_list").fetchone()[2]),
           "COLUMNS": "80"}
    args = [sys.executable, "-m", "fbagent.cli", "pairs", "select", "--protocol", "framebench", "--pairs", "3",
            "--lexicon", "small"]
    first = subprocess.run(args, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert "protocol framebench, seed 42" in first.stdout and "# unique LUs" in first.stdout
    assert "entries per pair" in first.stdout and "Stored as selection 1" in first.stdout
    again = subprocess.run(args, capture_output=True, text=True, env=env)
    said = " ".join(again.stdout.split())
    assert "Reused selection 1" in said and "(nothing new stored)" in said
    assert max(len(line) for line in first.stdout.splitlines()) <= 80


@pytest.mark.realdata
@pytest.mark.slow
def test_framenet_15_pool_and_table1_under_the_authors_rules(en_db):
    """FrameNet 1.5: 4,605 verb LUs, 1,341 without an annotated sentence, 611 LU names in 2+ frames, 1,301 pairs;
    seed 42 keeps 800 of them over 438 LU names (the paper, on its FrameNet: 800 pairs over 430 LUs)."""
    db, result = en_db
    made = select_pairs(db, {"id": result.lexicon_id, "name": result.name},
                        SelectionOptions(pairs=800, seed=42, protocol="framebench"))
    c = made["counts"]
    assert (c["verb_lus"], c["unannotated_lus"], c["polysemous_lus"], c["candidates"]) == (4605, 1341, 611, 1301)
    assert (c["frame_pairs"], c["unique_lu_names"], c["unique_verbs"]) == (800, 438, 438)
