"""Done-when of issue 45: three annotators judge with planted disagreements, the lead adjudicates in the
real Textual screen (pilot: keys and a typed reason), one entry goes to a second round that a fourth
annotator judges; `validate report` and the HF export's judgments give the numbers computed here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from factories import make_db
from test_reliability import nominal_alpha
from test_validation import PAIRS, E, label, scripted_answers
from textual.widgets import Static

from fbagent.errors import FbagentError
from fbagent.store import adjudications
from fbagent.tui.adjudicate_session import AdjudicateSession
from fbagent.tui.app import AnnotateApp
from fbagent.tui.scales import THREE_LEVEL
from fbagent.tui.session import Selection, ValidateSession
from fbagent.validation.aggregate import score_entries

STATUSES = ("verified", "flagged", "verified", "flagged", "verified", "rejected")


def judge_all_correct(db, annotator: str, only: tuple[str, ...]) -> None:
    """``annotator`` answers every task of ``only`` correctly and rates it Natural."""
    session = ValidateSession.open(db, annotator, Selection(only=only))
    natural = THREE_LEVEL.by_name("natural")
    while not session.finished:
        t = session.current
        session.choose(label(t, set(PAIRS[t.pair][2])))
        session.rate(natural)
        session.next()
    session.close()


def text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@pytest.fixture
def three(tmp_path):
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=STATUSES)
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    return db, path


def test_no_adjudication_gives_the_vote_filter(three):
    db, _ = three
    # SCRIPT: E1 (3 correct, 3 acceptable), E2 (2, 2), E3 (1, 2), E4 (3, 0), E5 (0, 1): 2 of 3 keeps E1, E2
    entries = score_entries(db, E)
    assert [entries[e].kept for e in E] == [True, True, False, False, False]
    assert all(entries[e].outcome == "votes" and entries[e].kept == entries[e].vote_kept for e in E)


async def test_pilot_adjudication_second_round_report_and_export(three, tmp_path):
    db, path = three
    session = AdjudicateSession.open(db, "lead", Selection())
    # disputed: E2 (2/2: one vote from failing), E3 and E5 (disagreeing); E1 and E4 are unanimous and clear
    assert session.item_ids == [E[1], E[2], E[4]]
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = text(app, "#judgments")
        assert "annotator 1" in shown and "alice" not in shown and "votes: 2 correct, 2 acceptable of 3" in shown
        await pilot.press("d")
        await pilot.press(*"weak S_A'", "enter")          # E2: drop
        assert text(app, "#header").startswith("lead · adjudicate · entry 2/3")
        await pilot.press("k", "enter")                      # an empty reason is refused
        assert "needs a reason" in text(app, "#status") and session.n_decided == 1
        await pilot.press(*"fine", "enter")                  # E3: keep
        await pilot.press("r", *"split vote", "enter")       # E5: second round
        await pilot.pause()
        assert session.n_decided == 3
    decided = adjudications.latest(db)
    assert {e: (d["decision"], d["reason"]) for e, d in decided.items()} == {
        E[1]: ("drop", "weak S_A'"), E[2]: ("keep", "fine"), E[4]: ("second_round", "split vote")}

    # the second round: only dave, who has not seen E5, gets it; he judges it correct and natural
    assert adjudications.second_round_for(db, "alice") == [] and adjudications.second_round_for(db, "dave") == [E[4]]
    judge_all_correct(db, "dave", (E[4],))

    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--db", str(path), "--format",
                          "json", "--resamples", "200"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    rep = json.loads(res.stdout)
    # outcomes: E1 votes (kept), E2 adjudicated drop, E3 adjudicated keep, E4 votes (dropped), E5 second round
    # (dave alone: correct and acceptable -> kept)
    assert rep["entries"]["kept"] == 3
    assert rep["adjudication"]["outcomes"]["second round"] == 1
    assert [(r["entry"], r["kept"], r["outcome"]) for r in rep["adjudication"]["entries"]] == [
        (E[1], False, "adjudicated drop"), (E[2], True, "adjudicated keep"), (E[4], True, "second round")]
    # verifier vs humans: verified E1, E3, E5 are all kept (tp 3, fp 0); flagged E2, E4 dropped (tn 2)
    everything = rep["verifier_vs_human"]["rows"][0]
    assert (everything["tp"], everything["fp"], everything["fn"], everything["tn"]) == (3, 0, 0, 2)
    assert everything["precision"] == 1.0 and everything["recall"] == 1.0

    # alpha of the answers, computed here: units = (entry, base|extended); dave answered E5 only
    entries = score_entries(db, E[:5])
    from fbagent.validation.reliability import ANSWERS, canonical_answer

    names = ["alice", "bob", "carol", "dave"]
    units = [(e, p) for e in E[:5] for p in ("base", "extended")]
    data = [[float(ANSWERS.index(canonical_answer(p, entries[e].pairs[n][p]))) if n in entries[e].pairs
             else float("nan") for e, p in units] for n in names]
    alpha = {r["judgment"]: r["value"] for r in rep["reliability"]["alpha"]}
    assert alpha["answer (4 choices)"] == pytest.approx(nominal_alpha(data))
    assert [k["annotators"] for k in rep["reliability"]["kappa"]][:3] == [["alice", "bob"], ["alice", "carol"],
                                                                           ["alice", "dave"]]
    per = {a["annotator"]: a for a in rep["reliability"]["annotators"]}
    assert per["dave"]["judgments"] == 4 and per["dave"]["attention_accuracy"] == 1.0
    assert per["alice"]["attention_accuracy"] == 0.9   # misses neither_correct on E5 (test_validation)

    # the terminal report shows the new tables within 80 columns
    table = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--db", str(path),
                            "--resamples", "50"], capture_output=True, text=True, timeout=300,
                           env={**__import__("os").environ, "COLUMNS": "80"})
    assert "Krippendorff's alpha" in table.stdout and "Cohen's kappa per pair" in table.stdout
    assert "Adjudicated entries" in table.stdout
    assert max(len(line) for line in table.stdout.splitlines()) <= 80

    # the HF export reproduces alpha and the filter from its own rows (the real datasets library)
    datasets = pytest.importorskip("datasets")
    from fbagent.publish.hf import export_hf

    out = tmp_path / "hf"
    export_hf(db, out)
    rows = list(datasets.load_dataset(str(out), split="test"))
    by_alias: dict[str, dict[tuple[str, str], float]] = {}
    for row in rows:
        for j in row["human"]["judgments"]:
            if j["pair"] in ("base", "extended"):
                first, second = PAIRS[j["pair"]][:2]
                sel = set(j["selected"])
                code = "both" if {first, second} <= sel else "first" if first in sel else (
                    "second" if second in sel else "neither")
                by_alias.setdefault(j["annotator"], {})[(row["id"], j["pair"])] = float(ANSWERS.index(code))
    published = [[by_alias[a].get(u, float("nan")) for u in units] for a in sorted(by_alias)]
    assert nominal_alpha(published) == pytest.approx(alpha["answer (4 choices)"])
    for row in rows:
        h = row["human"]
        votes = sum(1 for a in h["annotators"] for j in h["judgments"] if j["annotator"] == a) > 0
        a = h["adjudication"]
        if a is None:
            assert h["kept"] == (h["n_correct"] >= h["min_correct"] and h["n_acceptable"] >= h["min_acceptable"])
        elif a["decision"] == "second_round":
            second = [j for j in h["judgments"] if j["annotator"] in a["second_round"] and j["pair"] in ("base", "extended")]
            ok = all(j["correct"] and j["acceptable"] for j in second)
            assert votes and a["second_round"] == ["annotator_4"] and h["kept"] == ok
        else:
            assert h["kept"] == (a["decision"] == "keep")
    assert {r["id"]: r["human"]["kept"] for r in rows} == {E[0]: True, E[1]: False, E[2]: True, E[3]: False,
                                                          E[4]: True}
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "## Human filter, adjudication and agreement" in card and "| second round | 1 | 1 |" in card


def test_team_status_and_the_lead_line(three):
    db, path = three
    adjudications.record(db, E[4], "lead", "second_round", "split vote", {})
    from fbagent.validation.team import status_line, team_status

    team = team_status(db)
    # 5 entries x 4 pair tasks each for alice, bob, carol, all judged; disputed E2, E3, E5 (E5 decided)
    assert [(a["annotator"], a["judged"], a["tasks"], a["left"]) for a in team["annotators"]] == [
        ("alice", 20, 20, 0), ("bob", 20, 20, 0), ("carol", 20, 20, 0)]
    assert (team["judged"], team["full_panel"], team["disputed"], team["decided"], team["second_round_pending"]) == (
        5, 5, 3, 1, 1)
    assert status_line(team) == ("status: alice 20/20, bob 20/20, carol 20/20 pair tasks judged; 5/5 entries judged "
                                 "(5 by 3); 1/3 disputed decided; 1 waiting for a second round")
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "annotators", "status", "--db", str(path)],
                         capture_output=True, text=True, timeout=300, env={**__import__("os").environ, "COLUMNS": "80"})
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert max(len(x) for x in lines) <= 80
    # majority agreement of alice: 6 of 7 units with a strict majority of bob and carol (see test_reliability)
    assert any(x.split()[:6] == ["alice", "20/20", "0", "5", "85.7%", "90.0%"] for x in lines)
    assert "1/3 disputed entries decided" in res.stdout


def test_nothing_disputed_and_bad_options(tmp_path):
    path = tmp_path / "one.db"
    db = make_db(path, n=1)
    for name in ("alice", "bob", "carol"):
        judge_all_correct(db, name, (E[0],))   # unanimous: 3 correct, 3 acceptable, not within one vote
    with pytest.raises(FbagentError) as err:
        AdjudicateSession.open(db, "lead", Selection())
    assert "no disputed entry among the 1 selected (1 judged)" in str(err.value)
    with pytest.raises(FbagentError) as err:
        adjudications.record(db, E[0], "lead", "maybe", "x", {})
    assert "is not a decision" in str(err.value)
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "annotate", "--mode", "revise", "--annotator", "x",
                          "--second-round", "--db", str(path)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "--second-round" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "annotate", "--mode", "adjudicate", "--serve",
                          "--db", str(path)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "adjudicate" in res.stderr
