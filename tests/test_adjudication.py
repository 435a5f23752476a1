"""Done-when of issue 45: three annotators validate in the real Textual app (pilot key presses) with planted
disagreements, the lead adjudicates in the adjudicate screen (keys and a typed reason), one entry goes to a
second round that a fourth annotator judges (keys); `validate report` and the exports' judgments (fbagent JSONL,
HF folder) give the numbers computed here from what the test planted."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from factories import make_db
from test_reliability import nominal_alpha
from test_validation import AUX_WRONG, PAIRS, SCRIPT, E, label, scripted_answers
from textual.widgets import Static
from typer.testing import CliRunner

from fbagent.cli import app as cli_app
from fbagent.errors import FbagentError
from fbagent.publish.export import export_entries
from fbagent.store import adjudications
from fbagent.tui.adjudicate_session import AdjudicateSession
from fbagent.tui.app import AnnotateApp
from fbagent.tui.help_screen import HelpScreen
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


KEYS = {"A": "1", "B": "2", "both": "3", "neither": "4"}
#: the pilot's statuses: E2 verified but dropped by the lead, E3 flagged but kept by the lead (E6 rejected: out of scope)
PILOT_STATUSES = ("verified", "verified", "flagged", "flagged", "verified", "rejected")


def planted(annotator: str, task) -> tuple[str, bool]:
    """The shown label ``annotator`` means to choose on ``task`` and whether they rate it Natural (English:
    only Natural is acceptable; Acceptable is not), as test_validation's SCRIPT and AUX_WRONG plant them."""
    if task.pair in ("base", "extended"):
        bc, ba, xc, xa = SCRIPT[task.item_id][annotator] if annotator in SCRIPT[task.item_id] else (1, 1, 1, 1)
        ok, natural = (bc, ba) if task.pair == "base" else (xc, xa)
        wrong = {"sentence_b"} if task.pair == "base" else {"sentence_b_prime"}
        return label(task, set(PAIRS[task.pair][2]) if ok else wrong), bool(natural)
    if (annotator, task.item_id, task.pair) in AUX_WRONG:
        return ("both" if task.pair == "neither_correct" else "A"), True
    return label(task, set(PAIRS[task.pair][2])), True


async def validate_with_keys(db, annotator: str, only: tuple[str, ...] = ()) -> int:
    """``annotator`` opens the validate screen (as `fbagent annotate --annotator NAME [--second-round]`) and answers
    every task with key presses: 1-4 for the answer, n (Natural) or a (Acceptable), Enter. Returns the tasks answered."""
    session = ValidateSession.open(db, annotator, Selection(only=only) if only else Selection())
    app = AnnotateApp(session)
    answered = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HelpScreen):
            await pilot.press("escape")
        while not session.finished and answered < session.total:
            choice, natural = planted(annotator, session.current)
            await pilot.press(KEYS[choice], "n" if natural else "a", "enter")
            answered += 1
        assert session.finished and f"All {session.total} tasks are answered" in " ".join(
            text(app, "#question").split())
        await pilot.press("q")
    return answered


def planted_code(annotator: str, item: str, pair: str) -> float:
    """The canonical answer code (reliability.ANSWERS) the test planted, from the selected sentences alone."""
    bc, _, xc, _ = SCRIPT[item][annotator] if annotator in SCRIPT[item] else (1, 1, 1, 1)
    ok = bc if pair == "base" else xc
    sel = set(PAIRS[pair][2]) if ok else ({"sentence_b"} if pair == "base" else {"sentence_b_prime"})
    first, second = PAIRS[pair][:2]
    return float(("neither", "first", "second", "both").index(
        "both" if {first, second} <= sel else "first" if first in sel else "second" if second in sel else "neither"))


def cohen(x: list[float], y: list[float]) -> float:
    """Unweighted Cohen's kappa by its definition: (p_o - p_e) / (1 - p_e)."""
    n = len(x)
    p_o = sum(a == b for a, b in zip(x, y, strict=True)) / n
    p_e = sum((x.count(c) / n) * (y.count(c) / n) for c in set(x) | set(y))
    return (p_o - p_e) / (1 - p_e)


def majority(names: list[str], data: dict[str, list[float]], who: str) -> float:
    """Share of ``who``'s units whose answer equals the strict majority of the others' (ties, none: skipped)."""
    hits = []
    for u, mine in enumerate(data[who]):
        others = [data[n][u] for n in names if n != who and not math.isnan(data[n][u])]
        if math.isnan(mine) or not others:
            continue
        top = max(set(others), key=others.count)
        if sum(1 for o in set(others) if others.count(o) == others.count(top)) > 1:
            continue
        hits.append(mine == top)
    return sum(hits) / len(hits)


async def test_pilot_adjudication_second_round_report_and_export(tmp_path):
    """Done-when of issue 45, every person through the real Textual app pressing keys (80x24)."""
    path = tmp_path / "pilot.db"
    db = make_db(path, n=6, statuses=PILOT_STATUSES)
    for name in ("alice", "bob", "carol"):     # 5 entries x 4 pair tasks each, disagreements planted (SCRIPT)
        assert await validate_with_keys(db, name) == 20
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

    # the second round: only dave, who has not seen E5, gets it (as `annotate --second-round` selects); he
    # judges its four pairs correct and Natural with keys
    assert adjudications.second_round_for(db, "alice") == []
    second = tuple(adjudications.second_round_for(db, "dave"))
    assert second == (E[4],) and await validate_with_keys(db, "dave", second) == 4

    res = CliRunner().invoke(cli_app, ["validate", "report", "--db", str(path), "--format", "json",
                                       "--resamples", "200"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    # outcomes: E1 votes (3/3 kept), E2 adjudicated drop, E3 adjudicated keep, E4 votes (0 acceptable: dropped),
    # E5 second round (dave alone: correct and acceptable -> kept)
    kept = {E[0]: True, E[1]: False, E[2]: True, E[3]: False, E[4]: True}
    assert rep["entries"]["kept"] == sum(kept.values()) == 3
    assert [(r["entry"], r["kept"], r["outcome"]) for r in rep["adjudication"]["entries"]] == [
        (E[1], False, "adjudicated drop"), (E[2], True, "adjudicated keep"), (E[4], True, "second round")]

    # the verifier against the humans, computed here from the statuses and the outcomes
    verified = {e: s == "verified" for e, s in zip(E, PILOT_STATUSES, strict=False)}
    tp = sum(verified[e] and kept[e] for e in E)
    fp = sum(verified[e] and not kept[e] for e in E)
    fn = sum(kept[e] and not verified[e] for e in E)
    tn = sum(not kept[e] and not verified[e] for e in E)
    everything = rep["verifier_vs_human"]["rows"][0]
    assert (everything["tp"], everything["fp"], everything["fn"], everything["tn"]) == (tp, fp, fn, tn) == (2, 1, 1, 1)
    assert everything["precision"] == pytest.approx(tp / (tp + fp)) == pytest.approx(2 / 3)
    assert everything["recall"] == pytest.approx(tp / (tp + fn)) == pytest.approx(2 / 3)

    # alpha, kappa and per-annotator lines computed here from what the test planted (not from the database)
    names = ["alice", "bob", "carol", "dave"]
    units = [(e, p) for e in E[:5] for p in ("base", "extended")]
    data = {n: [planted_code(n, e, p) if n != "dave" or e == E[4] else math.nan for e, p in units] for n in names}
    alpha = {r["judgment"]: r["value"] for r in rep["reliability"]["alpha"]}
    assert alpha["answer (4 choices)"] == pytest.approx(nominal_alpha([data[n] for n in names]))
    kappas = {tuple(k["annotators"]): k["answer"]["value"] for k in rep["reliability"]["kappa"]}
    assert list(kappas)[:3] == [("alice", "bob"), ("alice", "carol"), ("alice", "dave")] and len(kappas) == 6
    for a, b in (("alice", "bob"), ("alice", "carol"), ("bob", "carol")):
        assert kappas[(a, b)] == pytest.approx(cohen(data[a], data[b]))
    per = {a["annotator"]: a for a in rep["reliability"]["annotators"]}
    # attention checks (10 per first-round annotator): alice misses 1, carol 2, bob none; dave 2 of 2
    assert {n: (per[n]["judgments"], per[n]["attention_accuracy"]) for n in names} == {
        "alice": (20, 0.9), "bob": (20, 1.0), "carol": (20, 0.8), "dave": (4, 1.0)}
    for n in names:
        assert per[n]["majority_agreement"] == pytest.approx(majority(names, data, n))

    # the terminal report shows the tables within 80 columns
    table = CliRunner().invoke(cli_app, ["validate", "report", "--db", str(path), "--resamples", "50"],
                               terminal_width=80, env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.output
    for heading in ("Krippendorff's alpha", "Cohen's kappa per pair", "Adjudicated entries"):
        assert heading in table.stdout
    assert max(len(line) for line in table.stdout.splitlines()) <= 80

    # the exports reproduce alpha and the filter from their own judgments: the fbagent JSONL and the HF folder
    export_entries(db, tmp_path / "e.jsonl", "fbagent")
    records = [json.loads(x) for x in (tmp_path / "e.jsonl").read_text(encoding="utf-8").splitlines()]
    assert "alice" not in (tmp_path / "e.jsonl").read_text(encoding="utf-8")
    from_jsonl: dict[str, dict[tuple[str, str], float]] = {}
    for r in records:
        for p in ("base", "extended"):
            for a, j in r["human"]["pairs"].get(p, {}).items():
                from_jsonl.setdefault(a, {})[(r["id"], p)] = code_of(p, j["selected"])
    assert nominal_alpha([[from_jsonl[a].get(u, math.nan) for u in units] for a in sorted(from_jsonl)]) == \
        pytest.approx(alpha["answer (4 choices)"])
    assert {r["id"]: r["human"]["kept"] for r in records} == kept

    datasets = pytest.importorskip("datasets")
    out = tmp_path / "hf"
    export_entries(db, out, "hf")
    rows = list(datasets.load_dataset(str(out), split="test"))
    by_alias: dict[str, dict[tuple[str, str], float]] = {}
    for row in rows:
        for j in row["human"]["judgments"]:
            if j["pair"] in ("base", "extended"):
                by_alias.setdefault(j["annotator"], {})[(row["id"], j["pair"])] = code_of(j["pair"], j["selected"])
    published = [[by_alias[a].get(u, math.nan) for u in units] for a in sorted(by_alias)]
    assert nominal_alpha(published) == pytest.approx(alpha["answer (4 choices)"])
    for row in rows:
        h = row["human"]
        a = h["adjudication"]
        if a is None:
            assert h["kept"] == (h["n_correct"] >= h["min_correct"] and h["n_acceptable"] >= h["min_acceptable"])
        elif a["decision"] == "second_round":
            second_j = [j for j in h["judgments"] if j["annotator"] in a["second_round"] and j["pair"] in ("base", "extended")]
            assert a["second_round"] == ["annotator_4"] and h["kept"] == all(j["correct"] and j["acceptable"]
                                                                              for j in second_j)
        else:
            assert h["kept"] == (a["decision"] == "keep")
    assert {r["id"]: r["human"]["kept"] for r in rows} == kept
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "## Human filter, adjudication and agreement" in card and "| second round | 1 | 1 |" in card


def code_of(pair: str, selected: list[str]) -> float:
    """The canonical answer code of an exported judgment's ``selected`` sentences."""
    first, second = PAIRS[pair][:2]
    sel = set(selected)
    return float(("neither", "first", "second", "both").index(
        "both" if {first, second} <= sel else "first" if first in sel else "second" if second in sel else "neither"))


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
    res = CliRunner().invoke(cli_app, ["annotators", "status", "--db", str(path)], terminal_width=80,
                             env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
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
    # the browser's adjudicate mode is refused before the server starts when nothing is disputed
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "annotate", "--mode", "adjudicate", "--serve",
                          "--db", str(path)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "no disputed entry" in res.stderr and len(res.stderr.strip().splitlines()) == 1


async def test_a_reason_typed_in_one_burst_with_its_decision_key_is_kept_whole(tmp_path):
    """Keys that arrive together, as a slow link delivers them (issue 45's adjudicate screen over `--serve`): the
    reason's first letters, typed right after the decision key, land in the reason box that the key opens
    (the focus moves at once, not after the queued keys). Before: "split" was stored as "plit"."""
    from textual import events

    db = make_db(tmp_path / "burst.db", n=6, statuses=("verified", "flagged", "verified", "flagged", "verified",
                                                       "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)   # E2, E3, E5 disputed
    session = AdjudicateSession.open(db, "lead", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for burst in ("rsplit", "dweak k"):   # a reason may hold a decision key: it is a letter of the reason
            for key in burst:
                app.post_message(events.Key("space" if key == " " else key, key))   # all queued at once
            app.post_message(events.Key("enter", "\r"))
            for _ in range(5):
                await pilot.pause()
        assert session.n_decided == 2
    assert {e: (d["decision"], d["reason"]) for e, d in adjudications.latest(db).items()} == {
        E[1]: ("second_round", "split"), E[2]: ("drop", "weak k")}


def test_status_majority_is_na_until_an_entry_has_two_annotators(tmp_path):
    """New user (session 13): `annotators status` showed bob's majority 100%, then 0% when carol joined, while no
    entry had two annotators: the figure rested on the one pair task alice and bob happened to share."""
    from fbagent.validation import reliability_report

    path = tmp_path / "m.db"
    db = make_db(path, n=4)
    natural = THREE_LEVEL.by_name("natural")
    for name in ("alice", "bob"):   # three pair tasks each, in each annotator's own order: one task in common
        session = ValidateSession.open(db, name, Selection())
        for _ in range(3):
            t = session.current
            session.choose(label(t, set(PAIRS[t.pair][2])))
            session.rate(natural)
            session.next()
        session.close()
    entries = score_entries(db, [r["id"] for r in db.query("SELECT id FROM items")])
    shared = {a["annotator"]: (a["majority_units"], a["majority_agreement"])
              for a in reliability_report(entries, resamples=1)["annotators"]}
    assert shared == {"alice": (1, 1.0), "bob": (1, 1.0)}   # what was shown as 100.0%
    runner = CliRunner()
    res = runner.invoke(cli_app, ["annotators", "status", "--db", str(path)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    rows = [ln.split() for ln in res.stdout.splitlines() if ln.split()[:1] in (["alice"], ["bob"])]
    assert [r[:5] for r in rows] == [["alice", "3/16", "13", "0", "n/a"], ["bob", "3/16", "13", "0", "n/a"]]
    flat = " ".join(res.stdout.split())
    assert "majority: agreement with the majority of the others (n/a: no entry has two annotators yet)" in flat
    assert "0/4 entries judged; 0/0 disputed" in flat   # no "(0 by 0 annotators)"
    for name in ("alice", "bob"):
        judge_all_correct(db, name, tuple(E[:4]))
    res = runner.invoke(cli_app, ["annotators", "status", "--db", str(path)], env={"COLUMNS": "80"})
    rows = [ln.split() for ln in res.stdout.splitlines() if ln.split()[:1] in (["alice"], ["bob"])]
    assert [r[:5] for r in rows] == [["alice", "16/16", "0", "4", "100.0%"], ["bob", "16/16", "0", "4", "100.0%"]]
    assert "no entry has two annotators" not in res.stdout and "4/4 entries judged (4 by 2 annotators)" in res.stdout
