"""`annotate --mode baseline`: the independent human baseline, through the real Textual app.

Six entries; alice and bob validate all of them, answering every pair task correctly and rating it
Natural, so all six pass the filter (2 of 2 correct and acceptable) and the paper-style human score
is 100%. alice is refused the baseline (she judged the final entries). carol judged none: she gets a
seeded sample of 4 entries = 8 problems (base and extended pair each) and answers the first 6
correctly and the last 2 with "Both" (wrong), so her independent accuracy is 6/8 = 75.0%.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from factories import make_db
from typer.testing import CliRunner

from fbagent.cli import app as cli_app
from fbagent.errors import FbagentError
from fbagent.tui.app import AnnotateApp
from fbagent.tui.baseline_session import BaselineSession
from fbagent.tui.scales import THREE_LEVEL
from fbagent.tui.session import Selection, ValidateSession
from fbagent.validation.assignment import PAIRS
from fbagent.validation.baseline import BaselineOptions, independent_accuracy


def validate_all_correct(db, annotator: str) -> None:
    """Answer every pair task of ``annotator`` correctly and rate it Natural (the app's session)."""
    session = ValidateSession.open(db, annotator, Selection())
    natural = THREE_LEVEL.by_name("natural")
    while not session.finished:
        t = session.current
        right = set(PAIRS[t.pair][2])
        first, second = t.shown_first in right, t.shown_second in right
        session.choose("both" if first and second else "A" if first else "B" if second else "neither")
        session.rate(natural)
        session.next()
    session.close()


@pytest.fixture
def validated(tmp_path):
    path = tmp_path / "b.db"
    db = make_db(path, n=6)
    for name in ("alice", "bob"):
        validate_all_correct(db, name)
    return db, path


def test_a_validating_annotator_is_refused_in_one_line(validated):
    db, path = validated
    with pytest.raises(FbagentError, match="alice validated 6 of the 6 final entries"):
        BaselineSession.open(db, "alice", BaselineOptions(sample=4, seed=1))
    env = {**os.environ, "FBAGENT_DB": str(path)}
    out = subprocess.run([sys.executable, "-m", "fbagent.cli", "annotate", "--mode", "baseline", "--annotator", "bob",
                          "--db", str(path)], capture_output=True, text=True, env=env)
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0
    assert "bob validated 6 of the 6 final entries" in out.stderr
    for extra, msg in ((["--range", "0:2"], "--range splits validation work"),
                       (["--share", "1/2"], "--share/--overlap split validation work"),
                       (["--serve"], "--mode baseline runs in this terminal")):
        bad = subprocess.run([sys.executable, "-m", "fbagent.cli", "annotate", "--mode", "baseline", "--db", str(path),
                              *(["--annotator", "carol"] if extra != ["--serve"] else []), *extra],
                             capture_output=True, text=True, env=env)
        assert bad.returncode == 2 and msg in bad.stderr and bad.stderr.strip().count("\n") == 0, bad.stderr
    assert db.execute("SELECT COUNT(*) FROM baseline_tasks").fetchone()[0] == 0


async def test_two_annotators_and_validate_report_shows_both_human_scores(validated):
    db, path = validated
    session = BaselineSession.open(db, "carol", BaselineOptions(sample=4, seed=1))
    assert session.total == 8 and {t["pair"] for t in session.tasks} == {"base", "extended"}
    assert len({t["item_id"] for t in session.tasks}) == 4
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "independent baseline" in shown and "Sentence A:" in shown
        assert "Departing" not in shown and "Natural" not in shown   # blind: no frame, no acceptability
        for i in range(8):
            t = session.current()
            key = ("1" if t["gold"] == "sentence_a" else "2") if i < 6 else "3"
            await pilot.press(key)
        await pilot.pause()
        assert session.finished and "All problems answered" in str(app.screen.query_one("#status").render())
        await pilot.press("q")
    stored = [r["correct"] for r in db.query("SELECT correct FROM baseline_tasks ORDER BY position")]
    assert stored == [1, 1, 1, 1, 1, 1, 0, 0]
    ind = independent_accuracy(db)
    assert ind["accuracy"] == 0.75 and ind["answers"] == 8 and ind["entries"] == 4 and ind["annotators"] == 1
    assert 0.0 <= ind["low"] <= 0.75 <= ind["high"] <= 1.0
    # reopening resumes the same sample (no second draw)
    assert [t["id"] for t in BaselineSession.open(db, "carol", BaselineOptions(sample=2, seed=9)).tasks] == \
        [t["id"] for t in session.tasks]
    runner = CliRunner()
    table = runner.invoke(cli_app, ["validate", "report", "--db", str(path)], terminal_width=80)
    assert table.exit_code == 0, table.output
    text = " ".join(table.output.split())
    assert "paper-style (filter) 100.0%" in text and "independent (baseline) 75.0%" in text
    assert "biased upward by construction" in text and "percentile bootstrap over entries" in text
    rep = json.loads(runner.invoke(cli_app, ["validate", "report", "--db", str(path), "--format", "json"]).output)
    paper, independent = rep["human_scores"]
    assert paper["accuracy"] == 1.0 and paper["annotators"] == 2 and paper["entries"] == 6
    assert independent["accuracy"] == 0.75 and independent["annotators"] == 1 and independent["entries"] == 4
    # eval report and the card take the independent score when there is one, and say so
    from fbagent.eval.report import human_score_from_report
    from fbagent.publish.human_baseline import independent_human

    saved = path.with_name("report.json")
    saved.write_text(json.dumps(rep), "utf-8")
    value, which = human_score_from_report(saved)
    assert value == 0.75 and which.startswith("independent human baseline (1 annotator(s), 4 entries")
    ids = [r["id"] for r in db.query("SELECT id FROM items")]
    section = independent_human(db, [{"id": i} for i in ids], {"validation": {"human_accuracy": {"mean": 1.0}}})
    assert section.startswith("## Independent human baseline") and "Human accuracy 75.0%" in section
    assert "replaces the paper-style human score of the validation section (100.0%)" in section
    assert independent_human(db, [{"id": "run1:9:9"}], {}) is None
