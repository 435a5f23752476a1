"""`fbagent verifier calibrate --from-annotations`: the margin set from the annotators' judgments, stored as a
calibration on exemplars is (hand-computed margin table)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from factories import make_db
from test_validation import E, scripted_answers

from fbagent.store.calibrations import latest_calibration

# d = sim_own - sim_other of every sentence of an entry; kept by the humans: E1, E2 (test_validation.SCRIPT)
D = {E[0]: 0.30, E[1]: 0.195, E[2]: 0.10, E[3]: 0.245, E[4]: 0.05}


def test_margin_from_annotations(tmp_path):
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for item, d in D.items():
        v = json.loads(db["items"].get(item)["verifier"])
        for s in v["sentences"].values():
            s["sim_own"], s["sim_other"] = 0.6, round(0.6 - d, 6)
        db["items"].update(item, {"verifier": json.dumps(v)})
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    db.conn.commit()
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "verifier", "calibrate", "--from-annotations",
                          "--signal", "roundtrip", "--margin", "0", "--n-boot", "200", "--db", str(path), "--json"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    # at margin 0 every entry passes: precision 2/5, recall 1; at 0.20 E1, E4 pass (1/2); from 0.25 only E1 (1/1)
    assert out["precision"] == pytest.approx(0.4) and out["recall"] == 1.0 and out["n_pairs"] == 5
    table = {round(r["margin"], 2): r for r in out["by_margin"]}
    assert table[0.2]["precision"] == 0.5 and table[0.25]["precision"] == 1.0 and table[0.25]["recall"] == 0.5
    assert out["margins"] == {"0.8": 0.25, "0.9": 0.25, "0.95": 0.25}
    # stored the way a calibration on exemplars is: the latest of the lexicon gives generate --margin auto
    lex_id = db.execute("SELECT id FROM lexicons WHERE name = 'fn-test'").fetchone()[0]
    run = latest_calibration(db, lex_id, "roundtrip")
    assert run is not None and run["options"]["calibration"]["source"] == "annotations"
    assert run["options"]["result"]["margins"]["0.9"] == 0.25 and len(run["options"]["sentences"]) == 5
