"""Issue 45, Build item 3: every export publishes annotators as ``annotator_1..n`` (numbered once per database
in the order the annotators started, the mapping never written), names only with ``--annotator-names``;
agreement recomputed from the anonymised JSONL equals the report's."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from factories import make_db
from test_reliability import nominal_alpha
from test_validation import PAIRS, E, scripted_answers

from fbagent.publish.export import export_entries
from fbagent.publish.jsonl import export_records
from fbagent.publish.options import HfOptions, Scope
from fbagent.store import adjudications
from fbagent.tui.scales import THREE_LEVEL
from fbagent.tui.session import Selection, ValidateSession
from fbagent.validation.aggregate import report_with_entries
from fbagent.validation.reliability import ANSWERS, reliability_report

STATUSES = ("verified", "flagged", "verified", "flagged", "verified", "rejected")
#: the order the annotators start in (not name order): carol is annotator_1, alice 2, bob 3, dave 4
STARTED = ("carol", "alice", "bob")
NAMES = ("alice", "bob", "carol", "dave", "leadperson")
NUMBER = {"carol": 1, "alice": 2, "bob": 3, "dave": 4}


def judge_correct(db, annotator: str, only: tuple[str, ...]) -> None:
    """``annotator`` answers the tasks of ``only`` correctly, Natural (session code: this module tests exports)."""
    session = ValidateSession.open(db, annotator, Selection(only=only))
    while not session.finished:
        t = session.current
        right = set(PAIRS[t.pair][2])
        first, second = t.shown_first in right, t.shown_second in right
        session.choose("both" if first and second else "A" if first else "B" if second else "neither")
        session.rate(THREE_LEVEL.by_name("natural"))
        session.next()
    session.close()


@pytest.fixture
def team(tmp_path):
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=STATUSES)
    for name in STARTED:
        scripted_answers(db, name)
    adjudications.record(db, E[4], "leadperson", "second_round", "split vote", {})
    judge_correct(db, "dave", (E[4],))
    return db, path


def every_file_bytes(folder) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_no_export_file_names_an_annotator(team, tmp_path):
    db, _ = team
    out = tmp_path / "out"
    out.mkdir()
    for fmt, target in (("fbagent", out / "all.jsonl"), ("framebench", out / "fb.jsonl"), ("hf", out / "hf"),
                        ("lm-eval", out / "lm")):
        export_entries(db, target, fmt)
    export_entries(db, out / "kept.jsonl", "fbagent", Scope(validated=True))
    blob = every_file_bytes(out)
    # Parquet pages may be compressed: read the rows back too, every string of every column
    rows = [r for p in sorted((out / "hf").rglob("*.parquet")) for r in pq.read_table(p).to_pylist()]
    text = blob.decode("utf-8", "replace") + json.dumps(rows)
    assert [n for n in NAMES if n in text] == []
    assert "annotator_4" in text and len(rows) == 5

    # the same person has the same number in every export: the whole JSONL, the validated one, the HF rows
    whole = {r["id"]: r for r in map(json.loads, (out / "all.jsonl").read_text().splitlines())}
    kept = {r["id"]: r for r in map(json.loads, (out / "kept.jsonl").read_text().splitlines())}
    named = {r["id"]: r for r in export_records(db)}
    for eid, rec in kept.items():
        assert rec["human"] == whole[eid]["human"]
    for eid, rec in whole.items():
        h, n = rec["human"], named[eid]["human"]
        assert h["entry_scores"] == {f"annotator_{NUMBER[k]}": v for k, v in n["entry_scores"].items()}
        assert list(h["entry_scores"]) == sorted(h["entry_scores"], key=lambda a: int(a.split("_")[1]))
    assert whole[E[4]]["human"]["adjudication"]["second_round"] == ["annotator_4"]
    hf_e5 = next(r for r in rows if r["id"] == E[4])
    assert hf_e5["human"]["annotators"] == ["annotator_1", "annotator_2", "annotator_3", "annotator_4"]
    # annotator i of the authors' columns is annotator_i: carol (1) judged E5's extended pair correct
    assert hf_e5["match_answer_annotator1_prime"] is True and hf_e5["match_answer_annotator2_prime"] is False

    # a later annotator (alphabetically first) does not move anyone's number
    judge_correct(db, "aaron", (E[0],))
    export_entries(db, out / "later.jsonl", "fbagent")
    later = {r["id"]: r for r in map(json.loads, (out / "later.jsonl").read_text().splitlines())}
    assert later[E[0]]["human"]["annotators"] == [f"annotator_{i}" for i in (1, 2, 3, 5)]
    assert later[E[4]]["human"] == whole[E[4]]["human"]


def test_agreement_from_the_jsonl_equals_the_report(team, tmp_path):
    db, _ = team
    export_entries(db, tmp_path / "e.jsonl", "fbagent")
    records = [json.loads(x) for x in (tmp_path / "e.jsonl").read_text().splitlines()]
    _, entries = report_with_entries(db)
    rel = reliability_report(entries, resamples=20)

    def code(pair: str, j: dict) -> float:
        first, second = PAIRS[pair][:2]
        sel = set(j["selected"])
        return float(ANSWERS.index("both" if {first, second} <= sel else "first" if first in sel else
                                   "second" if second in sel else "neither"))

    units = [(r["id"], p) for r in records for p in ("base", "extended")]
    published = sorted({a for r in records for a in r["human"]["annotators"]})
    data = [[code(p, r["human"]["pairs"][p][a]) if a in r["human"]["pairs"].get(p, {}) else math.nan
             for r in records for p in ("base", "extended")] for a in published]
    assert len(units) == 10 and published == ["annotator_1", "annotator_2", "annotator_3", "annotator_4"]
    alpha = {row["judgment"]: row["value"] for row in rel["alpha"]}
    assert nominal_alpha(data) == pytest.approx(alpha["answer (4 choices)"])

    # Cohen's kappa of alice and bob in the report = kappa of annotator_2 and annotator_3 in the JSONL
    from sklearn.metrics import cohen_kappa_score

    a2, a3 = data[published.index("annotator_2")], data[published.index("annotator_3")]
    both = [(x, y) for x, y in zip(a2, a3, strict=True) if not (math.isnan(x) or math.isnan(y))]
    row = next(k for k in rel["kappa"] if k["annotators"] == ["alice", "bob"])
    assert cohen_kappa_score([x for x, _ in both], [y for _, y in both]) == pytest.approx(row["answer"]["value"])
    # the filter too: every record's kept from its own votes and adjudication
    for r in records:
        h = r["human"]
        if h["adjudication"] is None:
            assert h["kept"] == (h["n_correct"] >= h["min_correct"] and h["n_acceptable"] >= h["min_acceptable"])
        else:
            assert h["adjudication"]["second_round"] == ["annotator_4"]
            assert h["kept"] == all(h["entry_scores"][a]["correct"] and h["entry_scores"][a]["acceptable"]
                                    for a in h["adjudication"]["second_round"])


def test_names_only_when_asked(team, tmp_path):
    db, path = team
    out = tmp_path / "named.jsonl"
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "export", str(out), "--db", str(path),
                          "--annotator-names"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    rec = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}[E[4]]
    assert rec["human"]["annotators"] == ["carol", "alice", "bob", "dave"]   # number order: who started first
    assert rec["human"]["adjudication"]["second_round"] == ["dave"]
    # the HF card says whether names were published
    pytest.importorskip("datasets")
    export_entries(db, tmp_path / "hf", "hf", hf=HfOptions(annotator_names=True))
    card = (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")
    assert "`fbagent export --annotator-names`" in card
    export_entries(db, tmp_path / "anon", "hf")
    card = (tmp_path / "anon" / "README.md").read_text(encoding="utf-8")
    assert "`annotator_1..4` (numbered once per database" in card and "--annotator-names" not in card
