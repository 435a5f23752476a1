"""Keystroke cases of `fbagent annotate` (issue 10): nothing typed is lost, Enter checks, resume, scales, timer.

Textual pilots press real keys on the real app over a real SQLite file; the
slow-link case feeds bytes through Textual's own terminal parser
(``XTermParser``) with a real 200 ms gap.
"""

from __future__ import annotations

import asyncio
import time

from annotate_factories import add_japanese_run
from factories import make_db
from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.content import Content
from textual.widgets import Input, Static, TextArea

from fbagent.store import open_db
from fbagent.tui.app import ESCAPE_DELAY_MS, AnnotateApp, tune_escape_delay
from fbagent.tui.comment_screen import CommentScreen
from fbagent.tui.edit_screen import EditScreen
from fbagent.tui.help_screen import HelpScreen
from fbagent.tui.scales import BINARY, SCALES, THREE_LEVEL, check_scales
from fbagent.tui.session import ReviseSession, Selection, ValidateSession
from fbagent.tui.unsaved_screen import UnsavedScreen
from fbagent.validation.assignment import PAIRS

KEYS = {"A": "1", "B": "2", "both": "3", "neither": "4"}


def text(app: AnnotateApp, selector: str, screen=None) -> str:
    """A widget's text with line breaks undone."""
    content = (screen or app.screen).query_one(selector, Static).content
    return " ".join((content.plain if isinstance(content, Content) else str(content)).split())


def gold_key(task) -> str:
    first, second = task.shown_first in PAIRS[task.pair][2], task.shown_second in PAIRS[task.pair][2]
    return KEYS["both" if first and second else "A" if first else "B" if second else "neither"]


async def started(pilot, app) -> None:
    await pilot.pause()
    if isinstance(app.screen, HelpScreen):
        await pilot.press("escape")


# --------------------------------------------------------------------------- nothing typed is lost


async def test_escape_with_an_unsaved_comment_asks_and_keeps_or_saves_it(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        task = session.current
        await pilot.press("c", *"odd verb")
        await pilot.press("escape")
        assert isinstance(app.screen, UnsavedScreen)  # asked, not dropped
        assert "unsaved changes" in text(app, "#unsaved-text")
        await pilot.press("x", "[", "D")  # keys that are not an answer do nothing
        assert isinstance(app.screen, UnsavedScreen)
        await pilot.press("k")  # keep editing: back in the dialog, text intact
        assert isinstance(app.screen, CommentScreen)
        assert app.screen.query_one(Input).value == "odd verb"
        await pilot.press(*" here", "escape", "s")  # save from the question
        assert not isinstance(app.screen, (CommentScreen, UnsavedScreen))
        assert task.comment == "odd verb here" and text(app, "#status") == "Comment saved."
        await pilot.press("c", "ctrl+u", *"something else", "escape", "d")  # discard
        assert task.comment == "odd verb here"
        assert text(app, "#status") == "Comment discarded; the stored comment is unchanged."
        await pilot.press("c", "escape")  # nothing typed: closes at once, and no stale "Comment saved."
        assert not isinstance(app.screen, (CommentScreen, UnsavedScreen))
        assert text(app, "#status") == "Comment unchanged."
        await pilot.press("q")
    row = next(open_db(tmp_path / "a.db").query("SELECT comment FROM annotation_tasks WHERE id = ?", [task.id]))
    assert row["comment"] == "odd verb here"


async def test_escape_in_the_editor_with_changes_asks_and_saves(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ReviseSession.open(db, "lead", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("3", "ctrl+u", *"She left the office at noon sharp.")
        await pilot.press("escape")
        assert isinstance(app.screen, UnsavedScreen)
        await pilot.press("escape")  # Escape on the question = keep editing (the safe answer)
        assert isinstance(app.screen, EditScreen)
        assert app.screen.query_one(TextArea).text == "She left the office at noon sharp."
        await pilot.press("escape", "enter")  # Enter = save
        assert text(app, "#status") == "Saved revision #1 of sentence_a."
        await pilot.press("4", "escape")  # no change: closes without a question
        assert text(app, "#status") == "Edit closed; nothing changed."
        await pilot.press("q")
    assert [r["new"] for r in db.query("SELECT new FROM item_revisions")] == ["She left the office at noon sharp."]


async def test_quit_with_unsaved_text_asks_and_saves_before_exiting(tmp_path):
    path = tmp_path / "a.db"
    db = make_db(path, n=1)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        task_id = session.current.id
        await pilot.press("c", *"typed before Ctrl+Q")
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, UnsavedScreen) and "about to quit" in text(app, "#unsaved-text")
        await pilot.press("s")
        await pilot.pause()
    assert app.return_code == 0
    row = next(open_db(path).query("SELECT comment FROM annotation_tasks WHERE id = ?", [task_id]))
    assert row["comment"] == "typed before Ctrl+Q"


def feed_slowly(parser: XTermParser, chunks: list[str], gap: float) -> list[events.Event]:
    """Feed ``chunks`` with ``gap`` seconds between them, ticking every 10 ms as Textual's input thread does."""
    out: list[events.Event] = []
    for i, chunk in enumerate(chunks):
        out.extend(parser.feed(chunk))
        if i < len(chunks) - 1:
            end = time.monotonic() + gap
            while time.monotonic() < end:
                out.extend(parser.tick())
                time.sleep(0.01)
    for _ in range(3):
        out.extend(parser.tick())
    return out


def test_textual_default_delay_turns_a_split_arrow_into_a_bare_escape(monkeypatch):
    """The problem: ESC, then ``[D`` 200 ms later, with Textual's default 100 ms delay."""
    monkeypatch.setattr(constants, "ESCAPE_DELAY", 0.1)
    keys = [e.key for e in feed_slowly(XTermParser(), ["\x1b", "[D"], 0.2) if isinstance(e, events.Key)]
    assert keys[0] == "escape"


async def test_split_escape_sequence_over_a_slow_link_is_an_arrow_not_escape(tmp_path, monkeypatch):
    """With the app's delay, ESC + 200 ms + ``[D`` through the real parser is ← in the comment dialog."""
    monkeypatch.delenv("ESCDELAY", raising=False)
    monkeypatch.setattr(constants, "ESCAPE_DELAY", 0.1)
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)  # tunes the delay
    assert constants.ESCAPE_DELAY == ESCAPE_DELAY_MS / 1000 == 0.5
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        await pilot.press("c", *"abc")
        field = app.screen.query_one(Input)
        assert field.cursor_position == 3
        parsed = await asyncio.to_thread(feed_slowly, XTermParser(), ["\x1b", "[D"], 0.2)
        assert [e.key for e in parsed if isinstance(e, events.Key)] == ["left"]
        for event in parsed:
            app._driver.process_message(event)  # as the driver's input thread delivers them
        await pilot.pause()
        assert isinstance(app.screen, CommentScreen)  # not closed, not asking
        assert field.cursor_position == 2 and field.value == "abc"
        await pilot.press("x", "enter")
        assert session.current.comment == "abxc"
    # ESCDELAY set by the user wins
    monkeypatch.setattr(constants, "ESCAPE_DELAY", 0.25)
    assert tune_escape_delay({"ESCDELAY": "250"}) == 0.25


# --------------------------------------------------------------------------- Enter, resume, next open task


async def test_enter_on_an_incomplete_task_says_what_is_missing_and_stays(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        await pilot.press("enter")
        assert session.index == 0
        assert text(app, "#status") == ("Not done yet: answer (1-4) and acceptability (u/a/n) missing. "
                                        "→ moves on and leaves it open.")
        await pilot.press("2", "enter")
        assert session.index == 0 and text(app, "#status").startswith("Not done yet: acceptability (u/a/n) missing.")
        await pilot.press("n")
        assert text(app, "#status") == "Saved. Press Enter for the next task."
        await pilot.press("enter")
        assert session.index == 1 and session.n_done == 1
        await pilot.press("q")


async def test_the_last_answer_says_every_task_is_answered_not_next_task(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)  # 4 pair tasks
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        for _ in range(3):
            await pilot.press("2", "n", "enter")
        assert session.index == 3 and session.n_done == 3
        await pilot.press("2", "n")
        assert session.n_done == 4
        assert text(app, "#status") == "Saved. Every task is answered: press Enter to finish, or q to quit."
        await pilot.press("q")


async def test_reopen_says_where_it_resumes_and_o_jumps_to_the_next_open_task(tmp_path):
    path = tmp_path / "a.db"
    make_db(path, n=3)  # 12 tasks
    session = ValidateSession.open(open_db(path), "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        for i in range(7):  # answer tasks 1-3 and 5-7; walk past task 4 with →
            if i == 3:
                await pilot.press("right")
                assert text(app, "#status") == "Task 4 left open; o jumps to the next open task."
                continue
            await pilot.press(gold_key(session.current), "n", "enter")
        assert session.index == 7  # on task 8 when alice quits
        await pilot.press("q")

    again = ValidateSession.open(open_db(path), "alice", Selection())
    assert again.index == 3 and again.n_done == 6
    app = AnnotateApp(again)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)  # not the first time
        assert text(app, "#status") == ("Resuming at task 4/12, the first task still open; you left off at task 8. "
                                        "o jumps to the next open task.")
        await pilot.press("o")  # tasks 5-7 are done: straight to task 8
        assert again.index == 7 and text(app, "#status") == "Next open task: task 8/12."
        await pilot.press("o")  # 9
        await pilot.press(gold_key(again.current), "n", "enter")  # Enter passes the done tasks too: task 10
        assert again.index == 9
        await pilot.press("left", "left", "left", "left", "left", "left")  # back to task 4 (open)
        assert again.index == 3
        await pilot.press(gold_key(again.current), "n", "enter")  # one Enter returns to the work: task 8
        assert again.index == 7
        for _ in range(4):  # 8, 10, 11, 12
            await pilot.press(gold_key(again.current), "n", "enter")
        assert again.finished and again.n_done == 12
        await pilot.press("o")
        assert again.finished
        await pilot.press("q")
    done = ValidateSession.open(open_db(path), "alice", Selection())
    assert done.resume_note == "Welcome back: all 12 tasks are answered. ←/→ browse them, q quits."


# --------------------------------------------------------------------------- scales


def test_no_key_or_level_name_has_opposite_meanings_on_two_scales():
    check_scales([*SCALES.values(), BINARY])
    meanings = {}
    for scale in (THREE_LEVEL, BINARY):
        for lv in scale.levels:
            assert meanings.setdefault(lv.key, lv.positive) == lv.positive
            assert meanings.setdefault(lv.name, lv.positive) == lv.positive
    assert meanings == {"u": False, "unacceptable": False, "a": False, "acceptable": False, "n": True, "natural": True,
                        "unnatural": False}
    try:
        check_scales([THREE_LEVEL, type(BINARY)("old", (BINARY.levels[0], type(BINARY.levels[1])("a", "x", "X", True)))])
    except ValueError as err:
        assert "key 'a' is positive on the old scale but negative on the three-level scale" in str(err)
    else:  # pragma: no cover
        raise AssertionError("a clash was not found")


async def test_both_scales_in_one_queue(tmp_path):
    path = tmp_path / "mixed.db"
    make_db(path, n=1)  # English
    add_japanese_run(path, n=1)
    db = open_db(path)
    session = ValidateSession.open(db, "mika", Selection())
    assert [(s.name, langs) for s, langs in session.scales_in_queue()] in (
        [("three-level", ["en"]), ("binary", ["ja"])], [("binary", ["ja"]), ("three-level", ["en"])])
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)  # the first help box lists every scale of the queue
        help_text = " ".join(str(app.screen.query_one("#help-text", Static).content).split())
        assert "en (three levels): u = Unacceptable a = Acceptable n = Natural" in help_text
        assert "counts as acceptable: Natural only. Note: Acceptable counts as NOT acceptable (only Natural does)." in help_text
        assert "ja (two levels): u = Unnatural n = Natural counts as acceptable: Natural." in help_text
        await pilot.press("escape")
        seen = set()
        while not session.finished:
            task = session.current
            lang = "ja" if task.item_id.startswith("run-ja") else "en"
            line = text(app, "#acceptability")
            if lang == "en":
                assert line.endswith("(counts: Natural only)") and "a ○ Acceptable" in line
                await pilot.press(gold_key(task), "a")  # English Acceptable: NOT positive
                assert task.acceptability == "acceptable" and task.acceptable == 0
            else:
                assert line == "Acceptability: u ○ Unnatural n ○ Natural (counts: Natural)"
                await pilot.press(gold_key(task), "a")  # no such key on the binary scale: says so, stores nothing
                assert task.acceptability is None
                assert text(app, "#status") == ("'a' is not on this task's scale (two levels: u = Unnatural, "
                                                "n = Natural). Nothing saved.")
                await pilot.press("n")
                assert task.acceptability == "natural" and task.acceptable == 1
            seen.add(lang)
            await pilot.press("enter")
        await pilot.press("q")
    assert seen == {"en", "ja"}
    # one database, both scales: every stored level name has one binarized value
    rows = db.execute("SELECT acceptability, group_concat(DISTINCT acceptable) FROM annotation_tasks"
                      " GROUP BY acceptability ORDER BY acceptability").fetchall()
    assert rows == [("acceptable", "0"), ("natural", "1")]


# --------------------------------------------------------------------------- timer, comment dialog placement


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_task_timer_stops_while_help_or_a_dialog_is_open(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "alice", Selection())
    clock = FakeClock()
    session.clock = clock
    session._shown_at = clock.now
    app = AnnotateApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and session.paused
        clock.now += 100  # reading the help for 100 s
        await pilot.press("escape")
        assert session.seconds_on_task() == 0
        clock.now += 7
        assert session.seconds_on_task() == 7
        await pilot.press("c")
        assert session.paused and "(paused)" in text(app, "#header", app.screen_stack[-2])
        clock.now += 50  # typing a comment
        await pilot.press(*"ok", "enter")
        clock.now += 3
        assert session.seconds_on_task() == 10
        await pilot.press("question_mark")
        clock.now += 30
        await pilot.press("x")  # any key closes help
        await pilot.press(gold_key(session.current), "n", "enter")
        await pilot.press("q")
    row = next(db.query("SELECT seconds FROM annotation_tasks WHERE comment = 'ok'"))
    assert row["seconds"] == 10.0


def frame(app: AnnotateApp) -> list[str]:
    """The terminal as drawn, dialogs and the (dimmed) screens behind them composed."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return ["".join(strip.text for strip in line) for line in update.strips]


async def test_the_comment_dialog_leaves_the_task_visible(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    for size in ((80, 24), (60, 20)):
        session = ValidateSession.open(db, "alice", Selection())
        app = AnnotateApp(session)
        async with app.run_test(size=size) as pilot:
            await started(pilot, app)
            base = app.screen
            item = session.item()
            await pilot.press("c")
            assert isinstance(app.screen, CommentScreen)
            dialog = app.screen.query_one("#dialog")
            for selector in ("#question", "#sentence-a", "#sentence-b"):
                assert base.query_one(selector).region.bottom <= dialog.region.y, (size, selector)
            assert dialog.region.bottom == size[1]
            drawn = " ".join(" ".join(frame(app)).split())
            for field in (session.current.shown_first, session.current.shown_second):
                assert item[field] in drawn, (size, drawn)  # drawn behind the translucent dialog, not blanked
            assert "Comment on task" in drawn
            await pilot.press("escape", "q")
