"""Three scripted annotators over a small generated set: Table 2, kappa, agreement, filter, human accuracy.

Every expected number below is computed by hand in the comments.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from factories import make_db

from fbagent.publish.jsonl import export_records
from fbagent.store.revisions import set_unfixable
from fbagent.tui.scales import THREE_LEVEL
from fbagent.tui.session import Selection, ValidateSession
from fbagent.validation.aggregate import fleiss, report, tables
from fbagent.validation.assignment import PAIRS

E = ["run1:1:0", "run1:2:0", "run1:3:0", "run1:4:0", "run1:5:0"]

# Per entry and annotator: (base correct, base acceptable, extended correct, extended acceptable).
# Entry score = min over base and extended (FrameBench 3.2).
SCRIPT = {
    #            alice         bob           carol          -> entry (c, a) per annotator
    E[0]: {"alice": (1, 1, 1, 1), "bob": (1, 1, 1, 1), "carol": (1, 1, 1, 1)},  # (1,1) (1,1) (1,1): 3 correct, 3 acceptable
    E[1]: {"alice": (1, 1, 0, 1), "bob": (1, 1, 1, 1), "carol": (1, 0, 1, 1)},  # (0,1) (1,1) (1,0): 2 correct, 2 acceptable
    E[2]: {"alice": (1, 1, 1, 1), "bob": (0, 0, 1, 1), "carol": (1, 1, 0, 1)},  # (1,1) (0,0) (0,1): 1 correct, 2 acceptable
    E[3]: {"alice": (1, 0, 1, 0), "bob": (1, 0, 1, 1), "carol": (1, 1, 1, 0)},  # (1,0) (1,0) (1,0): 3 correct, 0 acceptable
    E[4]: {"alice": (0, 0, 0, 0), "bob": (0, 0, 0, 0), "carol": (0, 1, 1, 1)},  # (0,0) (0,0) (0,1): 0 correct, 1 acceptable
}
# Attention checks: alice misses neither_correct on E5; carol misses both_correct on E1 and E2; bob misses none.
AUX_WRONG = {("alice", E[4], "neither_correct"), ("carol", E[0], "both_correct"), ("carol", E[1], "both_correct")}


def label(task, selected: set[str]) -> str:
    """The shown label that selects the item fields ``selected`` (the annotator reads the screen)."""
    first, second = task.shown_first in selected, task.shown_second in selected
    return "both" if first and second else "A" if first else "B" if second else "neither"


def scripted_answers(db, annotator: str) -> None:
    """Answer every task of ``annotator`` through the app's session, as the script says."""
    session = ValidateSession.open(db, annotator, Selection())
    natural, acceptable = THREE_LEVEL.by_name("natural"), THREE_LEVEL.by_name("acceptable")
    while not session.finished:
        t = session.current
        if t.pair in ("base", "extended"):
            bc, ba, xc, xa = SCRIPT[t.item_id][annotator]
            ok, acc = (bc, ba) if t.pair == "base" else (xc, xa)
            right = set(PAIRS[t.pair][2])
            wrong = {"sentence_b"} if t.pair == "base" else {"sentence_b_prime"}
            session.choose(label(t, right if ok else wrong))
            session.rate(natural if acc else acceptable)  # English: only Natural is positive
        else:
            ok = (annotator, t.item_id, t.pair) not in AUX_WRONG
            right = set(PAIRS[t.pair][2])
            session.choose(label(t, right) if ok else ("both" if t.pair == "neither_correct" else "A"))
            session.rate(natural)
        session.next()
    session.close()


@pytest.fixture
def annotated(tmp_path):
    # E6 is rejected by generation: out of scope by default.
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    return db, path


def test_hand_computed_report(annotated):
    db, _ = annotated
    rep = report(db)
    assert rep["entries"] == {"in_scope": 5, "judged": 5, "annotators_per_entry": {"3": 5}, "kept": 2, "unfixable": 0}
    # Table 2 (rows: # correct, columns: # acceptable): E1 (3,3), E2 (2,2), E3 (1,2), E4 (3,0), E5 (0,1)
    assert rep["table2"]["counts"] == [
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 1, 0],
        [1, 0, 0, 1],
    ]
    per = {a["annotator"]: a for a in rep["annotators"]}
    # entry-level correct: alice 1,0,1,1,0 = 3/5; bob 1,1,0,1,0 = 3/5; carol 1,1,0,1,0 = 3/5
    # entry-level acceptable: alice 1,1,1,0,0 = 3/5; bob 1,1,0,0,0 = 2/5; carol 1,0,1,0,1 = 3/5
    assert [per[n]["correct_rate"] for n in ("alice", "bob", "carol")] == [0.6, 0.6, 0.6]
    assert [per[n]["acceptable_rate"] for n in ("alice", "bob", "carol")] == [0.6, 0.4, 0.6]
    # attention checks: alice neither 4/5, carol both 3/5, everything else 5/5
    assert per["alice"]["neither_correct_accuracy"] == 0.8 and per["alice"]["both_correct_accuracy"] == 1.0
    assert per["carol"]["both_correct_accuracy"] == 0.6 and per["carol"]["neither_correct_accuracy"] == 1.0
    assert per["bob"]["both_correct_accuracy"] == per["bob"]["neither_correct_accuracy"] == 1.0
    # base accuracy: alice 4/5 (E5 wrong), bob 3/5 (E3, E5), carol 4/5 (E5)
    assert [per[n]["base_accuracy"] for n in ("alice", "bob", "carol")] == [0.8, 0.6, 0.8]

    ag = {(g["judgment"], g["level"]): g for g in rep["agreement"]}
    # Correctness per entry, counts [neg, pos]: [0,3] [1,2] [2,1] [0,3] [3,0]
    #   P_i = (sum n_ij^2 - 3) / 6 = 1, 1/3, 1/3, 1, 1 -> P_bar = 11/15; p_pos = 9/15 -> P_e = .36 + .16 = .52
    #   kappa = (11/15 - 13/25) / (1 - 13/25) = (16/75) / (12/25) = 4/9; 3/3 agreement: E1, E4, E5 = 3/5
    assert ag[("correctness", "entry")]["fleiss_kappa"] == pytest.approx(4 / 9)
    assert ag[("correctness", "entry")]["full_agreement"] == 0.6
    assert ag[("correctness", "entry")]["subjects"] == 5 and ag[("correctness", "entry")]["raters"] == 3
    # Acceptability per entry: [0,3] [1,2] [1,2] [3,0] [2,1] -> P_bar = 3/5; p_pos = 8/15
    #   P_e = (64 + 49) / 225 = 113/225; kappa = (135 - 113) / (225 - 113) = 22/112 = 11/56; 3/3: E1, E4 = 2/5
    assert ag[("acceptability", "entry")]["fleiss_kappa"] == pytest.approx(11 / 56)
    assert ag[("acceptability", "entry")]["full_agreement"] == 0.4
    # Base-pair correctness: [0,3] [0,3] [1,2] [0,3] [3,0] -> P_bar = 13/15, p_pos = 11/15, P_e = 137/225
    #   kappa = (195 - 137) / (225 - 137) = 58/88 = 29/44
    assert ag[("correctness", "base")]["fleiss_kappa"] == pytest.approx(29 / 44)

    # Human accuracy on the kept entries E1, E2 (base + extended answers):
    #   alice 3/4 (E2 extended wrong), bob 4/4, carol 4/4 -> mean 11/12; base 1.0; extended (1/2 + 1 + 1)/3 = 5/6
    h = rep["human_accuracy"]
    assert h["entries"] == 2
    assert h["mean"] == pytest.approx(11 / 12)
    assert h["base"] == pytest.approx(1.0) and h["extended"] == pytest.approx(5 / 6)
    assert h["per_annotator"]["alice"]["all"] == 0.75


def test_thresholds_and_unfixable(annotated):
    db, _ = annotated
    # >= 3 correct, any acceptability: E1 (3,3) and E4 (3,0)
    assert report(db, min_correct=3, min_acceptable=0)["entries"]["kept"] == 2
    # >= 1 correct and >= 2 acceptable: E1, E2, E3
    assert report(db, min_correct=1, min_acceptable=2)["entries"]["kept"] == 3
    kept = [r["id"] for r in export_records(db, validated=True)]
    assert kept == [E[0], E[1]]
    set_unfixable(db, E[1], True, "lead")
    assert report(db)["entries"]["kept"] == 1
    assert [r["id"] for r in export_records(db, validated=True)] == [E[0]]


def test_export_human_block_and_framebench_columns(annotated):
    db, _ = annotated
    fb = {r["id"]: r for r in export_records(db, validated=True)}
    h = fb[E[1]]["human"]
    assert h["annotators"] == ["alice", "bob", "carol"]
    assert h["n_correct"] == 2 and h["n_acceptable"] == 2 and h["kept"] is True
    assert h["entry_scores"]["alice"] == {"correct": False, "acceptable": True}
    assert h["pairs"]["extended"]["alice"]["selected"] == ["sentence_b_prime"]
    assert h["pairs"]["base"]["bob"]["selected"] == ["sentence_a"] and h["pairs"]["base"]["bob"]["correct"] is True
    assert h["pairs"]["both_correct"]["carol"]["correct"] is False

    rows = {r["original_qa_id"]: r for r in export_records(db, validated=True, fmt="framebench")}
    r = rows[E[1]]  # annotators by name: 1 = alice, 2 = bob, 3 = carol
    assert (r["match_answer_annotator1_ab"], r["match_answer_annotator1_prime"]) == (True, False)
    assert (r["quality_annotator3_ab"], r["quality_annotator3_prime"]) == (False, True)
    assert all(r[f"match_answer_annotator2_{p}"] for p in ("ab", "prime"))
    # the authors' filter (sum of int(...) >= 2 per problem) keeps both problems of E2
    assert sum(int(r[f"match_answer_annotator{i}_ab"]) for i in (1, 2, 3)) == 3
    assert sum(int(r[f"quality_annotator{i}_prime"]) for i in (1, 2, 3)) == 3


def test_fleiss_undefined_when_one_category():
    assert fleiss([[True, True, True], [True, True, True]]) is None
    assert fleiss([]) is None
    # two subjects, perfect agreement on both categories -> kappa 1
    assert fleiss([[True, True], [False, False]]) == pytest.approx(1.0)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=120)


def test_report_cli_formats(annotated, tmp_path):
    _, path = annotated
    res = run_cli("validate", "report", "--db", str(path), "--format", "json")
    assert res.returncode == 0, res.stderr
    rep = json.loads(res.stdout)
    assert rep["entries"]["kept"] == 2 and rep["table2"]["counts"][3][3] == 1
    res = run_cli("validate", "report", "--db", str(path), "--format", "md", "--min-correct", "3", "--min-acceptable", "0")
    assert res.returncode == 0, res.stderr
    assert "| 3 correct | 1 | 0 | 0 | 1 | 2 |" in res.stdout
    out = tmp_path / "r.csv"
    res = run_cli("validate", "report", "--db", str(path), "--format", "csv", "--out", str(out))
    assert res.returncode == 0, res.stderr
    cells = list(csv.DictReader(io.StringIO(out.read_text())))
    kappa = [c for c in cells if c["row"] == "correctness" and c["column"] == "Fleiss' kappa"]
    assert kappa[0]["value"] == "0.444"
    res = run_cli("validate", "report", "--db", str(path))
    assert res.returncode == 0 and "Table 2" in res.stdout and "Human (mean)" in res.stdout


def test_eval_reader_reads_both_export_formats(annotated, tmp_path):
    """`fbagent eval` reads our exports unchanged; its Human row equals the report's (11/12, see above)."""
    dataset = pytest.importorskip("fbagent.eval.dataset", reason="the eval feature is not in this checkout")
    from fbagent.publish.jsonl import export

    db, _ = annotated
    export(db, tmp_path / "a.jsonl", validated=True)
    export(db, tmp_path / "b.jsonl", validated=True, fmt="framebench")
    a = dataset.read_entries(tmp_path / "a.jsonl")
    b = dataset.read_entries(tmp_path / "b.jsonl")
    assert [e.id for e in a] == [e.id for e in b] == [E[0], E[1]]
    assert a[1].question == b[1].question == "Select all sentences where someone moved quickly on foot."
    assert dataset.human_accuracy(a) == pytest.approx(11 / 12)
    assert dataset.human_accuracy(b) == pytest.approx(11 / 12)


def test_one_annotator_report_has_no_warning(tmp_path):
    """Kappa is undefined with one rater per entry: reported n/a, and statsmodels' RuntimeWarning is not printed."""
    path = tmp_path / "one.db"
    db = make_db(path, n=5)
    scripted_answers(db, "alice")
    res = run_cli("validate", "report", "--db", str(path))
    assert res.returncode == 0, res.stderr
    assert res.stderr.startswith("hint: the filter wants >= 2") and "Warning" not in res.stderr  # the hint only
    assert "n/a" in res.stdout
    rep = json.loads(run_cli("validate", "report", "--db", str(path), "--format", "json").stdout)
    assert all(g["fleiss_kappa"] is None for g in rep["agreement"])


def test_no_matching_entries_hint_names_only_report_options(tmp_path):
    path = tmp_path / "rej.db"
    make_db(path, n=2, statuses=("rejected",))
    res = run_cli("validate", "report", "--db", str(path))
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    # new user (session 12): the fix names only the options given (none here), and the statuses there are
    assert "(2 entries in the database: 2 rejected). Fix: widen --status (e.g." in res.stderr, res.stderr
    assert "--run" not in res.stderr and "--lang" not in res.stderr


def test_worst_first_order_for_the_revise_pass(annotated):
    """Lowest correctness first, then lowest acceptability (entry level, current judgments).

    From the script: E1 (3 correct, 3 acceptable), E2 (2, 2), E3 (1, 2), E4 (3, 0), E5 (0, 1)
    -> E5 (0/3), E3 (1/3), E2 (2/3), then E4 and E1 with 3/3 correct: E4 (0/3 acceptable) before E1 (3/3).
    """
    from fbagent.tui.session import ReviseSession
    from fbagent.validation.aggregate import score_entries, worst_first

    db, _ = annotated
    assert worst_first(score_entries(db, E)) == [E[4], E[2], E[1], E[3], E[0]]
    lead = ReviseSession.open(db, "lead", Selection(), order="worst-first")
    assert lead.item_ids == [E[4], E[2], E[1], E[3], E[0]] and lead.item_id == E[4]
    # the revise screen's data: every annotator's judgment of every pair, with the comment
    review = lead.item()["review"]
    assert review.n_correct == 0 and review.n_acceptable == 1 and review.state == "current"
    assert review.pairs["carol"]["extended"].correct is True and review.pairs["alice"]["base"].correct is False


def test_report_judgments_per_entry_counts_current_stale_pending(annotated):
    from fbagent.store.revisions import save_revision

    db, _ = annotated
    rep = report(db)
    assert rep["judgments"]["counts"] == {"current": 60, "stale": 0, "pending": 0}  # 5 entries x 4 pairs x 3
    save_revision(db, E[0], "sentence_b", "She left the office in a terrible mess.", "lead")
    rep = report(db)
    # S_B is shown in the base and the neither_correct pair: 2 pairs x 3 annotators are stale
    per = {r["entry"]: r for r in rep["judgments"]["per_entry"]}
    assert per[E[0]] == {"entry": E[0], "state": "pending", "current": 6, "stale": 6, "pending": 0, "kept": False}
    assert rep["judgments"]["entries"] == {"current": 4, "pending": 1, "unassigned": 0}
    # E1 lost its entry scores (base pair stale): 4 judged, E2 the only kept one
    assert rep["entries"]["judged"] == 4 and rep["entries"]["kept"] == 1
    assert [r["id"] for r in export_records(db, validated=True)] == [E[1]]
    rows = {r[0]: r for r in next(t for t in tables(rep)
                                  if t[0].startswith("Judgments per entry"))[2]}
    assert rows[E[0]] == [E[0], "pending", "6", "6", "0", "no"]
    assert rows["total"] == ["total", "4 current, 1 pending", "54", "6", "0", "1"]


def test_one_annotator_gets_a_hint_naming_the_filter_and_the_thresholds_that_fit(tmp_path):
    """alice alone (entry scores by hand from SCRIPT: E1 (1,1), E2 (0,1), E3 (1,1), E4 (1,0), E5 (0,0)):
    the default 2-of-3 filter keeps 0 of 5; --min-correct 1 --min-acceptable 1 keeps E1 and E3."""
    path = tmp_path / "one.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    scripted_answers(db, "alice")
    expected = ("the filter wants >= 2 annotators judging an entry correct and >= 2 acceptable (--min-correct 2 "
                "--min-acceptable 2), which keeps 0 of 5 judged entries; judgments come from 1 annotator (alice), "
                "at most 1 per entry: --min-correct 1 --min-acceptable 1 keeps 2")
    rep = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--db", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert rep.returncode == 0, rep.stderr
    assert f"hint: {expected}" in " ".join(rep.stderr.split())
    hint = rep.stderr[rep.stderr.index("hint:"):].splitlines()   # a pipe: wrapped at 80 columns (issue 42)
    assert len(hint) == 4 and max(len(line) for line in hint) <= 80 and all(ln.startswith("      ") for ln in hint[1:])
    assert "--min-correct 2 --min-acceptable 2" in rep.stderr and "--min-correct 1 --min-acceptable 1" in rep.stderr
    out = tmp_path / "v.jsonl"
    exp = subprocess.run([sys.executable, "-m", "fbagent.cli", "export", "--validated", str(out), "--db", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert exp.returncode == 0 and "wrote 0 validated entries" in exp.stdout, exp.stderr
    assert f"hint: {expected}" in " ".join(exp.stderr.split())
    assert max(len(line) for line in exp.stderr.splitlines()) <= 80
    fitted = subprocess.run([sys.executable, "-m", "fbagent.cli", "export", "--validated", str(out), "--db", str(path),
                             "--min-correct", "1", "--min-acceptable", "1"], capture_output=True, text=True, timeout=120)
    assert "wrote 2 validated entries" in fitted.stdout and "hint" not in fitted.stderr
    assert len(out.read_text().splitlines()) == 2


def test_three_annotators_and_a_fitting_filter_get_no_hint(annotated):
    db, _ = annotated
    assert report(db)["filter_hint"] is None  # 2-of-3 keeps E1 and E2
    strict = report(db, min_correct=3, min_acceptable=3)["filter_hint"]  # keeps E1 only: fits, no hint
    assert strict is None
    # E1 (3,3) marked "cannot be fixed": 3-of-3 keeps nothing. By hand, the other entries score E2 (2,2),
    # E3 (1,2), E4 (3,0), E5 (0,1): (2,2) and (2,1) keep E2; (1,2) and (1,1) keep E2 and E3.
    set_unfixable(db, E[0], True, "lead")
    assert report(db, min_correct=3, min_acceptable=3)["filter_hint"] == (
        "the filter wants >= 3 annotators judging an entry correct and >= 3 acceptable (--min-correct 3 "
        "--min-acceptable 3), which keeps 0 of 5 judged entries; judgments come from 3 annotators (alice, bob, carol), "
        "at most 3 per entry: --min-correct 2 --min-acceptable 2 keeps 1; --min-correct 2 --min-acceptable 1 keeps 1; "
        "--min-correct 1 --min-acceptable 2 keeps 2; --min-correct 1 --min-acceptable 1 keeps 2")


def test_the_hint_says_why_no_threshold_keeps_an_entry():
    from types import SimpleNamespace

    from fbagent.validation.thresholds import filter_hint

    def entry(correct, acceptable):  # one annotator's judgment of one entry
        return SimpleNamespace(scores={"me": object()}, n_correct=correct, n_acceptable=acceptable, kept=False,
                               unfixable=False)

    # three entries judged: one judged correct (not acceptable), one acceptable (not correct), one neither
    hint = filter_hint([entry(1, 0), entry(0, 1), entry(0, 0)], 1, 1)
    assert "no threshold keeps any entry yet: 1 of 3 judged entries have a 'correct' judgment and 1 an " \
           "'acceptable' one, none both" in hint
    assert "judge more entries (fbagent annotate)" in hint and "without --validated" in hint
    hint = filter_hint([entry(0, 1)], 2, 2)
    assert "0 of 1 judged entries have a 'correct' judgment and 1 an 'acceptable' one, and an entry needs both" in hint


def answer_items(db, annotator: str, items: set[str]) -> None:
    """Answer, as :data:`SCRIPT` says, only the tasks of ``items`` (the rest stays open)."""
    session = ValidateSession.open(db, annotator, Selection())
    natural, acceptable = THREE_LEVEL.by_name("natural"), THREE_LEVEL.by_name("acceptable")
    for index in range(session.total):
        session.go(index)
        t = session.current
        if t is None or t.item_id not in items:
            continue
        if t.pair in ("base", "extended"):
            bc, ba, xc, xa = SCRIPT[t.item_id][annotator]
            ok, acc = (bc, ba) if t.pair == "base" else (xc, xa)
            wrong = {"sentence_b"} if t.pair == "base" else {"sentence_b_prime"}
            session.choose(label(t, set(PAIRS[t.pair][2]) if ok else wrong))
            session.rate(natural if acc else acceptable)
        else:
            session.choose(label(t, set(PAIRS[t.pair][2])))
            session.rate(natural)
    session.close()


def test_table8_agreement_needs_two_raters(tmp_path):
    """Full agreement of one rater is not 100%: Table 8 takes the usual panel of the entries judged by two or
    more (new user, session 13: 6 entries by 1 annotator and 1 by 2 printed 'raters 1, full agreement 100.0%')."""
    db = make_db(tmp_path / "t8.db", n=5)
    answer_items(db, "alice", set(E))
    answer_items(db, "bob", {E[0], E[1]})
    ag = {(g["judgment"], g["level"]): g for g in report(db)["agreement"]}
    # E1: alice (1,1), bob (1,1); E2: alice (0,1), bob (1,1) -> correctness agrees on 1 of 2, acceptability on 2 of 2
    assert ag[("correctness", "entry")]["subjects"] == 2 and ag[("correctness", "entry")]["raters"] == 2
    assert ag[("correctness", "entry")]["full_agreement"] == 0.5
    assert ag[("acceptability", "entry")]["full_agreement"] == 1.0
    one = make_db(tmp_path / "one.db", n=5)
    answer_items(one, "alice", set(E))
    for g in report(one)["agreement"]:
        assert g["raters"] == 1 and g["full_agreement"] is None and g["fleiss_kappa"] is None
