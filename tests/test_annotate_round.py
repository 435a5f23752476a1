"""The whole validation round with a revision in the middle (FrameBench 3.3, "Manual Revision"), through the real app.

Three annotators judge three entries in Textual pilots pressing real keys;
the lead revises S_A' of E1 and revises-then-reverts S_B of E2 in revise
mode; the report shows E1 pending (its judgments of the pairs with S_A' are
stale) and E2 current; the annotators reopen, get the two revised pairs of E1
first, judge them again, and the report and the validated export then use
the new judgments. Every expected number is worked out in the comments.
"""

from __future__ import annotations

import json
import subprocess
import sys

from factories import make_db
from textual.content import Content
from textual.widgets import Static

from fbagent.publish.jsonl import export_records
from fbagent.store import open_db
from fbagent.tui.app import AnnotateApp
from fbagent.tui.edit_screen import EditScreen
from fbagent.tui.help_screen import HelpScreen
from fbagent.tui.session import ReviseSession, Selection, ValidateSession
from fbagent.validation.aggregate import report
from fbagent.validation.assignment import PAIRS

E1, E2, E3 = "run1:1:0", "run1:2:0", "run1:3:0"
NEW_A_PRIME = "After the long argument, the guests left the house quickly."
S_B_E2 = "Tom ran the bakery in Boston."  # the generated S_B of E2 (tests/factories.py)
KEYS = {"A": "1", "B": "2", "both": "3", "neither": "4"}


def plain(app: AnnotateApp, selector: str) -> str:
    """The text of a widget with the app's line breaks undone (words joined by one space)."""
    content = app.screen.query_one(selector, Static).content
    return " ".join((content.plain if isinstance(content, Content) else str(content)).split())


def key_for(task, selected: set[str]) -> str:
    """The key that selects the item fields ``selected`` in this task's shown order (the annotator reads the screen)."""
    first, second = task.shown_first in selected, task.shown_second in selected
    return KEYS["both" if first and second else "A" if first else "B" if second else "neither"]


async def judge(path, name: str, wrong: set[tuple[str, str]] = frozenset()) -> tuple[ValidateSession, list[tuple]]:
    """Open the app as ``name`` and answer every open task: 1-4, then n (Natural), then Enter.

    Pairs in ``wrong`` ((item, pair)) get the frame-B sentence only. Returns the
    session and, per task shown, (item, pair, marked revised in the header).
    """
    session = ValidateSession.open(open_db(path), name, Selection())
    app = AnnotateApp(session)
    shown = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HelpScreen):
            await pilot.press("escape")
        while not session.finished:
            t = session.current
            shown.append((t.item_id, t.pair, "REVISED" in plain(app, "#header")))
            right = set(PAIRS[t.pair][2])
            if (t.item_id, t.pair) in wrong:
                right = {"sentence_b_prime"} if t.pair == "extended" else {"sentence_b"}
            await pilot.press(key_for(t, right), "n", "enter")
        assert "All 12 tasks are answered" in plain(app, "#question")
        await pilot.press("q")
    return session, shown


async def edit(pilot, app, key: str, text: str) -> str:
    """Open field ``key`` in revise mode, replace its text, Ctrl+S; returns the status line."""
    await pilot.press(key)
    assert isinstance(app.screen, EditScreen)
    await pilot.press("ctrl+u", *text, "ctrl+s")
    assert not isinstance(app.screen, EditScreen)
    return plain(app, "#status")


async def test_revision_makes_judgments_pending_until_judged_again(tmp_path):
    path = tmp_path / "round.db"
    make_db(path, n=3)

    # round 1: everyone judges every pair task correctly and rates Natural
    for name in ("alice", "bob", "carol"):
        session, shown = await judge(path, name)
        assert session.n_done == 12 and not any(r for _, _, r in shown)
    rep = report(open_db(path))
    assert rep["judgments"]["counts"] == {"current": 36, "stale": 0, "pending": 0}
    assert rep["entries"]["kept"] == 3

    # the lead: revise S_A' of E1; revise S_B of E2 and revert it
    lead = ReviseSession.open(open_db(path), "lead", Selection())
    app = AnnotateApp(lead)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert lead.item_id == E1
        assert "3/3 correct, 3/3 acceptable" in plain(app, "#header")
        status = await edit(pilot, app, "5", NEW_A_PRIME)
        # S_A' is shown in the extended and the both_correct pair: 2 pairs x 3 annotators
        assert "Saved revision #1 of sentence_a_prime. 6 judgment(s) of this entry wait for a re-judgment." in status
        judgments = plain(app, "#judgments")
        assert "tasks: 6 current, 6 stale, 0 pending" in judgments
        assert judgments.count("(stale: judged an older text)") == 6
        assert "6 stale" in plain(app, "#header")
        await pilot.press("right")
        assert lead.item_id == E2
        assert "6 judgment(s)" in await edit(pilot, app, "4", "Tom ran the big bakery in Boston.")
        status = await edit(pilot, app, "4", S_B_E2)  # reverted to the judged text
        assert status == "Saved revision #3 of sentence_b."  # nothing waits for a re-judgment
        assert "tasks: 12 current, 0 stale, 0 pending" in plain(app, "#judgments")
        await pilot.press("q")

    # the report: E1 pending (6 current, 6 stale), E2 current again, E3 untouched
    rep = report(open_db(path))
    per = {r["entry"]: r for r in rep["judgments"]["per_entry"]}
    assert per[E1] == {"entry": E1, "state": "pending", "current": 6, "stale": 6, "pending": 0, "kept": False}
    assert per[E2] == {"entry": E2, "state": "current", "current": 12, "stale": 0, "pending": 0, "kept": True}
    assert per[E3]["state"] == "current"
    # nobody has a current extended judgment of E1, so nobody has an entry score for it: Table 2 has E2, E3
    assert rep["entries"]["judged"] == 2 and rep["table2"]["counts"][3][3] == 2
    assert [r["id"] for r in export_records(open_db(path), validated=True)] == [E2, E3]
    md = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--db", str(path), "--format", "md"],
                        capture_output=True, text=True, timeout=120)
    assert md.returncode == 0, md.stderr
    assert f"| {E1} | pending | 6 | 6 | 0 | no |" in md.stdout
    assert f"| {E2} | current | 12 | 0 | 0 | yes |" in md.stdout

    # round 2: each annotator reopens; the two revised pairs of E1 come first, marked, and are judged again.
    # alice now answers the extended pair of E1 wrong (S_B' only).
    for name in ("alice", "bob", "carol"):
        session = ValidateSession.open(open_db(path), name, Selection())
        assert session.resume_note == ("Resuming at task 1/12: 2 task(s) were revised since you judged them; "
                                       "they come first, marked REVISED.")
        assert {(t.item_id, t.pair) for t in session.tasks[:2]} == {(E1, "extended"), (E1, "both_correct")}
        assert all(t.revised for t in session.tasks[:2]) and not any(t.revised for t in session.tasks[2:])
        assert session.index == 0 and session.n_done == 10
        session.close()
        wrong = {(E1, "extended")} if name == "alice" else set()
        session, shown = await judge(path, name, wrong)
        assert shown == [(item, pair, True) for item, pair, _ in shown] and len(shown) == 2
        assert {pair for _, pair, _ in shown} == {"extended", "both_correct"}

    # the report and the export use the new judgments: E1 current, correct for bob and carol only (2 of 3: kept)
    db = open_db(path)
    rep = report(db)
    per = {r["entry"]: r for r in rep["judgments"]["per_entry"]}
    assert per[E1] == {"entry": E1, "state": "current", "current": 12, "stale": 0, "pending": 0, "kept": True}
    assert rep["judgments"]["counts"] == {"current": 36, "stale": 0, "pending": 0}
    # Table 2: E1 has 2 correct, 3 acceptable; E2 and E3 3 and 3
    assert rep["table2"]["counts"][2][3] == 1 and rep["table2"]["counts"][3][3] == 2
    records = {r["id"]: r for r in export_records(db, validated=True)}
    assert list(records) == [E1, E2, E3]
    e1 = records[E1]
    assert e1["sentence_a_prime"] == NEW_A_PRIME and e1["revised_fields"] == ["sentence_a_prime"]
    assert e1["human"]["entry_scores"]["alice"] == {"correct": False, "acceptable": True}
    assert e1["human"]["pairs"]["extended"]["alice"]["selected"] == ["sentence_b_prime"]
    assert e1["human"]["n_correct"] == 2 and e1["human"]["kept"] is True
    fb = {r["original_qa_id"]: r for r in export_records(db, validated=True, fmt="framebench")}
    assert fb[E1]["match_answer_annotator1_prime"] is False and fb[E1]["match_answer_annotator2_prime"] is True
    assert json.dumps(e1, ensure_ascii=False)

    # history keeps every old answer: alice's extended task of E1 has the judgment of each text
    task_id = next(db.query("SELECT id FROM annotation_tasks WHERE annotator = 'alice' AND item_id = ? AND pair = 'extended'",
                            [E1]))["id"]
    judged = list(db.query("SELECT correct, fingerprint FROM annotation_judgments WHERE task_id = ? ORDER BY id", [task_id]))
    assert [j["correct"] for j in judged] == [1, 0] and judged[0]["fingerprint"] != judged[1]["fingerprint"]
    cleared = [(h["field"], h["new"]) for h in db.query(
        "SELECT field, new FROM annotation_history WHERE task_id = ? ORDER BY id", [task_id])]
    assert cleared == [("choice", None), ("acceptability", None)]  # the old answer left the row when re-judged
