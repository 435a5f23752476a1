"""`validate report`: the verifier-vs-human table, computed by hand on the scripted panel of test_validation.py."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from factories import make_db
from test_validation import scripted_answers

from fbagent.validation.aggregate import report, tables
from fbagent.verifier.agreement import cohens_kappa, confusion_row


@pytest.fixture
def annotated(tmp_path):
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    return db, path


def test_hand_computed_verifier_vs_human_table(annotated):
    db, _ = annotated
    rows = {r["scope"]: r for r in report(db)["verifier_vs_human"]["rows"]}
    assert list(rows) == ["all entries", "base pair", "extended pair", "signal roundtrip", "language en",
                          "model scripted-test-model"]
    # Entries: E1 verified+kept, E2 flagged+kept, E3 verified+dropped, E4 flagged+dropped, E5 verified+dropped
    # (kept: E1 (3 correct, 3 acceptable), E2 (2, 2); see test_validation.SCRIPT).
    e = rows["all entries"]
    assert (e["tp"], e["fp"], e["fn"], e["tn"]) == (1, 2, 1, 1)
    assert e["precision"] == pytest.approx(1 / 3) and e["recall"] == pytest.approx(1 / 2)
    assert e["agreement"] == pytest.approx(2 / 5)
    # kappa: po = 2/5; verifier positive 3/5, human 2/5 -> pe = 3/5*2/5 + 2/5*3/5 = 12/25; (0.4 - 0.48) / 0.52
    assert e["kappa"] == pytest.approx((0.4 - 0.48) / 0.52)
    assert e["judgments_saved"] == 9  # 3 verified entries x 3 annotators
    assert rows["model scripted-test-model"] == {**e, "scope": "model scripted-test-model"}
    assert rows["language en"] == {**e, "scope": "language en"}
    # intervals: seeded bootstrap over the 5 entries, around the point values
    lo, hi = e["precision_interval"]
    assert 0.0 <= lo <= 1 / 3 <= hi <= 1.0 and e["recall_interval"][0] <= 0.5 <= e["recall_interval"][1]
    # the round trip alone at the stored margin 0: every sentence has d = 0.62 - 0.31 > 0, so all 5 pass:
    # tp = the 2 kept, fp = the 3 dropped
    r = rows["signal roundtrip"]
    assert (r["tp"], r["fp"], r["fn"], r["tn"]) == (2, 3, 0, 0) and r["precision"] == pytest.approx(0.4)
    # Base pair: the verifier passes every base pair (only S_B' of flagged items fails).
    # Humans keep the base pair with >= 2 correct and >= 2 acceptable: E1 (3, 3), E2 (3, 2), E3 (2, 2); not E4
    # (3 correct, 1 acceptable), E5 (0 correct).
    b = rows["base pair"]
    assert (b["tp"], b["fp"], b["fn"], b["tn"]) == (3, 2, 0, 0)
    assert b["precision"] == pytest.approx(0.6) and b["recall"] == 1.0 and b["kappa"] == pytest.approx(0.0)
    assert b["judgments_saved"] == 15
    # Extended pair: passes for E1, E3, E5 (verified); humans keep E1 (3, 3), E2 (2, 3), E3 (2, 3);
    # drop E4 (3, 1) and E5 (1, 1) -> tp E1, E3; fp E5; fn E2; tn E4.
    x = rows["extended pair"]
    assert (x["tp"], x["fp"], x["fn"], x["tn"]) == (2, 1, 1, 1)
    assert x["precision"] == pytest.approx(2 / 3) and x["recall"] == pytest.approx(2 / 3)
    # po = 3/5; both raters 3/5 positive -> pe = 0.36 + 0.16 = 0.52; kappa = 0.08 / 0.48
    assert x["kappa"] == pytest.approx(0.08 / 0.48)


def test_the_table_is_in_every_report_format(annotated):
    db, path = annotated
    rendered = {t[0]: t for t in tables(report(db))}
    title = "Verifier vs human filter (judged entries; positive = verified / kept)"
    assert rendered[title][2][0][:6] == ["all entries", "5", "1", "2", "1", "1"]
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--db", str(path), "--format",
                          "json"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["verifier_vs_human"]["rows"][0]["tp"] == 1


def test_kappa_is_undefined_for_one_class():
    assert cohens_kappa([True, True], [True, True]) is None
    assert cohens_kappa([], []) is None
    assert confusion_row("x", [])["precision"] is None
