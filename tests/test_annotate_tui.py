"""Textual pilot tests of `fbagent annotate`: real key presses on the real app, real SQLite files."""

from __future__ import annotations

import json

from factories import make_db
from textual.content import Content
from textual.widgets import ProgressBar, Static, TextArea

from fbagent.publish.jsonl import export_records
from fbagent.store import open_db
from fbagent.tui.app import AnnotateApp
from fbagent.tui.edit_screen import EditScreen
from fbagent.tui.help_screen import HelpScreen
from fbagent.tui.session import ReviseSession, Selection, ValidateSession
from fbagent.tui.validate_screen import HIGHLIGHT


def plain(app: AnnotateApp, selector: str) -> str:
    content = app.screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Content) else str(content)


async def test_no_default_choice_and_verb_highlight(tmp_path):
    db = make_db(tmp_path / "a.db", n=2)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)  # first time: the instructions come first
        await pilot.press("1")  # any key closes them; it does not answer
        assert not isinstance(app.screen, HelpScreen)
        task = session.current
        assert task.choice is None and task.acceptability is None
        choices = plain(app, "#choices")
        assert "●" not in choices and choices.count("○") == 4
        assert "●" not in plain(app, "#acceptability")
        assert app.screen.query_one("#progress", ProgressBar).progress == 0
        item = session.item(task)
        for selector, field in (("#sentence-a", task.shown_first), ("#sentence-b", task.shown_second)):
            content = app.screen.query_one(selector, Static).content
            assert isinstance(content, Content)
            form = item[f"verb_form_{field.split('_', 1)[1]}"]
            spans = [(s.start, s.end) for s in content.spans if s.style == HIGHLIGHT]
            assert len(spans) == 1
            start, end = spans[0]
            assert content.plain[start:end] == form
            assert content.plain.endswith(item[field])
        # blind: no frame names, no gold, no verifier scores on screen
        screen_text = " ".join(plain(app, s) for s in ("#question", "#sentence-a", "#sentence-b", "#choices", "#acceptability", "#status"))
        for hidden in (item["frame_a"], item["frame_b"], "sim_own", "verifier", "gold"):
            assert hidden not in screen_text


async def test_answer_quit_reopen_resumes(tmp_path):
    path = tmp_path / "a.db"
    db = make_db(path, n=3)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")  # close the first-time instructions
        first = session.current
        await pilot.press("2", "n")  # Sentence B, Natural
        assert first.done and session.n_done == 1
        assert "●" in plain(app, "#choices")
        await pilot.press("enter")
        second = session.current
        assert second.id != first.id
        await pilot.press("3")  # only the correctness choice: task stays open
        await pilot.press("q")

    # committed at once: a new connection sees both answers
    fresh = open_db(path)
    rows = {r["id"]: r for r in fresh.query("SELECT * FROM annotation_tasks WHERE annotator = 'alice'")}
    assert len(rows) == 12  # 3 entries x 4 pair tasks
    assert rows[first.id]["choice"] == "B" and rows[first.id]["acceptability"] == "natural"
    assert rows[first.id]["acceptable"] == 1 and rows[first.id]["answered_at"] is not None
    assert rows[first.id]["correct"] == int(rows[first.id]["gold"] == "B")
    assert rows[second.id]["choice"] == "both" and rows[second.id]["acceptability"] is None

    # reopen: resumes at the first task not yet done = the half-answered second one
    session2 = ValidateSession.open(fresh, "alice", Selection())
    assert session2.index == 1 and session2.current.id == second.id and session2.n_done == 1
    app2 = AnnotateApp(session2)
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        item = session2.item()
        assert plain(app2, "#sentence-a").endswith(item[second.shown_first])
        assert "task 2/12" in plain(app2, "#header") and "done 1/12" in plain(app2, "#header")
        assert "● Both" in plain(app2, "#choices")
        await pilot.press("a")  # acceptable -> now done
        await pilot.press("left")  # back to the first task, change its answer
        assert session2.current.id == first.id
        await pilot.press("1")
        await pilot.press("q")
    history = list(fresh.query("SELECT field, old, new FROM annotation_history WHERE task_id = ?", [first.id]))
    assert history == [{"field": "choice", "old": "B", "new": "A"}]
    row = next(fresh.query("SELECT choice, correct, gold FROM annotation_tasks WHERE id = ?", [first.id]))
    assert row["choice"] == "A" and row["correct"] == int(row["gold"] == "A")
    # the queue order is the same on every reopen (recorded seed)
    assert [t.id for t in ValidateSession.open(fresh, "alice", Selection()).tasks] == [t.id for t in session.tasks]


async def test_skip_comment_and_all_done_page(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "bob", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")  # close the first-time instructions
        skipped = session.current
        await pilot.press("s")
        assert session.index == 1 and skipped.skipped == 1
        await pilot.press("c", *"unclear verb", "enter")
        assert session.current.comment == "unclear verb"
        assert "unclear verb" in plain(app, "#comment")
        for _ in range(3):
            await pilot.press("4", "u", "enter")
        # past the last task: straight on to the skipped one, same session
        assert session.current is skipped and session.n_done == 3
        await pilot.press("s")  # skip it again: no other task is open -> end page
        assert session.finished
        assert "1 task(s) still open (1 skipped)" in plain(app, "#question")
        assert "end of queue" in plain(app, "#header")
        await pilot.press("q")
    # reopen: the skipped task is the only open one
    again = ValidateSession.open(db, "bob", Selection())
    assert again.current.id == skipped.id and again.n_done == 3


async def test_skipped_task_comes_back_in_the_same_session(tmp_path):
    """Skip one task, answer the rest; Enter then lands on the skipped task, which can be answered."""
    path = tmp_path / "a.db"
    db = make_db(path, n=2)  # 8 pair tasks
    session = ValidateSession.open(db, "dana", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")  # close the first-time instructions
        await pilot.press("right")  # task 1 left open (walked past; issue 10: Enter now refuses an incomplete task)
        skipped = session.current
        await pilot.press("s")  # task 2 skipped
        assert skipped.skipped == 1 and session.index == 2
        for _ in range(session.total - 2):
            await pilot.press("1", "n", "enter")
        # after the last task: the open tasks in queue order (task 1, then the skipped task 2)
        assert not session.finished and session.index == 0 and "task 1/8" in plain(app, "#header")
        await pilot.press("2", "a", "enter")
        assert session.current is skipped and "task 2/8" in plain(app, "#header")
        assert session.n_done == 7
        await pilot.press("3", "u", "enter")
        assert session.finished and session.n_done == 8
        assert "All 8 tasks are answered" in plain(app, "#question")
        assert "all done" in plain(app, "#header")
        await pilot.press("enter")  # nothing open: stays on the all-done page
        assert session.finished
        await pilot.press("q")
    row = next(open_db(path).query("SELECT choice, acceptability, skipped FROM annotation_tasks WHERE id = ?", [skipped.id]))
    assert row == {"choice": "both", "acceptability": "unacceptable", "skipped": 0}


async def test_end_page_enter_goes_to_open_tasks(tmp_path):
    """On the end page with open tasks, Enter/→ goes to the first open one (no quit and reopen)."""
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "erin", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        await pilot.press("s", "s")  # tasks 1 and 2 skipped
        await pilot.press("1", "u", "enter")  # task 3 answered
        await pilot.press("s")  # last task skipped: on to the first open one
        assert session.index == 0 and session.revisiting
        await pilot.press("s", "s", "s")  # 1 -> 2 -> 4 -> 1: skipping cycles the open tasks
        assert session.index == 0
        await pilot.press("1", "u", "enter", "1", "u", "enter")  # tasks 1 and 2 answered
        assert session.index == 3
        await pilot.press("s")  # the only open task skipped: end page
        assert session.finished and "1 task(s) still open (1 skipped)" in plain(app, "#question")
        assert "Enter" in plain(app, "#keys")
        await pilot.press("right")
        assert session.index == 3 and not session.finished
        await pilot.press("q")


async def test_help_says_acceptable_is_not_positive_in_english(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "fay", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one(Static).content)
        assert "Acceptable counts as NOT acceptable (only Natural does)" in text
        await pilot.press("q")


async def test_revise_sentence_then_export_and_validate_view(tmp_path):
    path = tmp_path / "a.db"
    db = make_db(path, n=2)
    item_id = "run1:1:0"
    session = ReviseSession.open(db, "lead", Selection())
    app = AnnotateApp(session)
    new_text = "She quit the office at noon and left for home."
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert session.item_id == item_id
        entry = plain(app, "#entry") + plain(app, "#frames")
        assert "Departing" in entry and "Causation" in entry  # revise mode shows frames
        assert "verifier: pass · own 0.62 / other 0.31" in entry
        await pilot.press("3")  # edit S_A
        assert isinstance(app.screen, EditScreen)
        await pilot.press("ctrl+u", *new_text, "ctrl+s")
        assert not isinstance(app.screen, EditScreen)
        assert new_text in plain(app, "#entry") and "(revised)" in plain(app, "#entry")
        await pilot.press("right", "x")  # second entry: cannot be fixed
        assert "CANNOT BE FIXED" in plain(app, "#header")
        await pilot.press("q")

    fresh = open_db(path)
    revs = list(fresh.query("SELECT item_id, field, old, new, annotator FROM item_revisions ORDER BY id"))
    assert revs[0] == {"item_id": item_id, "field": "sentence_a", "old": "She left the office at noon.", "new": new_text, "annotator": "lead"}
    assert revs[1]["field"] == "unfixable" and revs[1]["new"] == "1" and revs[1]["item_id"] == "run1:2:0"
    original = next(fresh.query("SELECT sentence_a FROM items WHERE id = ?", [item_id]))["sentence_a"]
    assert original == "She left the office at noon."  # generated text kept

    records = export_records(fresh)
    assert [r["id"] for r in records] == [item_id]  # the unfixable entry is not exported
    rec = records[0]
    assert rec["sentence_a"] == new_text and rec["revised"] is True and rec["revised_fields"] == ["sentence_a"]
    assert rec["original"] == {"sentence_a": "She left the office at noon."}
    start, end = rec["target_spans"]["sentence_a"]
    assert new_text[start:end] == "left"  # verb found again in the revised text
    assert json.dumps(rec, ensure_ascii=False)

    # later annotators see the revised text, with the verb highlighted
    vs = ValidateSession.open(fresh, "carol", Selection())
    task = next(t for t in vs.tasks if "sentence_a" in (t.shown_first, t.shown_second) and t.item_id == item_id)
    vs.go(vs.tasks.index(task))
    app2 = AnnotateApp(vs)
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")  # first-time instructions
        selector = "#sentence-a" if task.shown_first == "sentence_a" else "#sentence-b"
        content = app2.screen.query_one(selector, Static).content
        assert content.plain.endswith(new_text)
        (span,) = [s for s in content.spans if s.style == HIGHLIGHT]
        assert content.plain[span.start:span.end] == "left"


async def test_edit_cancel_writes_nothing(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ReviseSession.open(db, "lead", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        editor = app.screen.query_one("#editor", TextArea)
        assert editor.text == "Which sentence implies that someone physically went away from a place?"
        await pilot.press("x", "y", "escape")  # issue 10: changed text -> asked first (save / discard / keep)
        await pilot.press("d")
        assert "discarded" in plain(app, "#status")
    assert db["item_revisions"].count == 0


async def test_binary_acceptability_for_other_languages(tmp_path):
    db = make_db(tmp_path / "fr.db", n=1, language="fr")
    session = ValidateSession.open(db, "zoe", Selection(language="fr"))
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        line = plain(app, "#acceptability")
        # issue 10: the binary scale is Unnatural / Natural (n positive as in English, u negative; no `a`)
        assert "Unnatural" in line and "Natural" in line and "Acceptable" not in line
        assert "(counts: Natural)" in line  # the positive level is named on the task screen
        await pilot.press("a")  # not a key of the binary scale: ignored, and the status line says so
        assert session.current.acceptability is None
        assert "'a' is not on this task's scale" in plain(app, "#status")
        await pilot.press("n")
        assert session.current.acceptability == "natural" and session.current.acceptable == 1
        assert "u/n rate" in plain(app, "#keys")


async def test_keys_queued_before_the_app_has_started_never_pop_a_closing_screen(tmp_path):
    """Issue 43 item 1: three keys that reach the first-time help before it handled the first (typed while a new
    annotator's app starts, a phone's double tap) crashed the app with `ScreenStackError: Can't pop screen`
    (each dismissed the app's top screen). Now the first closes the help, the others are dropped."""
    from textual import events

    db = make_db(tmp_path / "a.db", n=2)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        for key in ("x", "y", "z"):   # queued at once, before the help has handled one
            help_screen.post_message(events.Key(key, key))
        help_screen.post_message(events.Click(help_screen, 1, 1, 0, 0, 1, False, False, False))  # and a tap
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert app.screen.__class__.__name__ == "ValidateScreen" and len(app.screen_stack) == 2
        await pilot.press("1")    # the task screen answers
        assert session.current.choice is not None
    assert app.return_code in (None, 0)
