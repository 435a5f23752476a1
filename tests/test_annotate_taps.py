"""Tap or click to annotate: the answers, ratings, skip, next and comment take a click as well as their key.

Textual's pilot clicks on the very cells where each control is drawn, at
80x24 and 60x20; the answers land in SQLite as with keys.
"""

from __future__ import annotations

import pytest
from factories import make_db
from textual.content import Content
from textual.widgets import Static

from fbagent.tui.app import AnnotateApp
from fbagent.tui.comment_screen import CommentScreen
from fbagent.tui.help_screen import HelpScreen
from fbagent.tui.session import Selection, ValidateSession


async def click_text(pilot, selector: str, text: str) -> None:
    """Click the middle of ``text`` where the Static ``selector`` draws it."""
    content = pilot.app.screen.query_one(selector, Static).content
    plain = content.plain if isinstance(content, Content) else str(content)
    for row, line in enumerate(plain.split("\n")):
        col = line.find(text)
        if col >= 0:
            await pilot.click(selector, offset=(col + len(text) // 2, row))
            await pilot.pause()
            return
    raise AssertionError(f"{text!r} is not in {selector}: {plain!r}")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_taps_answer_rate_skip_comment_and_go_on(tmp_path, size):
    db = make_db(tmp_path / "a.db", n=2)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.click("#dialog")  # a tap closes the first-time help
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        given = []
        for label, choice, level, name in [("Sentence B", "B", "Natural", "natural"), ("Neither", "neither", "Unacceptable", "unacceptable")]:
            first = session.current.id
            await click_text(pilot, "#choices", label)
            await click_text(pilot, "#acceptability", level)
            assert session.current.choice is not None and "●" in app.screen.query_one("#choices", Static).content.plain
            await click_text(pilot, "#keys", "Enter next")
            assert session.current.id != first
            given.append((first, choice, name))
        skipped = session.current.id
        await click_text(pilot, "#keys", "s skip")
        assert session.current.id != skipped
        await click_text(pilot, "#keys", "c comment")
        assert isinstance(app.screen, CommentScreen)
        await pilot.press("o", "k", "enter")
        commented = session.current.id
    rows = {r["id"]: r for r in db.query("SELECT id, choice, acceptability, skipped, comment FROM annotation_tasks")}
    assert [(rows[i]["choice"], rows[i]["acceptability"]) for i, _, _ in given] == [(c, n) for _, c, n in given]
    assert rows[skipped]["skipped"] == 1 and rows[commented]["comment"] == "ok"


async def test_bell_and_cr_lf_in_entry_text_keep_the_labels_in_place(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    hostile = "'Ring\x07 it.\r\nShe grasped it.'"
    db.execute(f"UPDATE items SET sentence_a = {hostile}, sentence_b = {hostile}, sentence_a_prime = {hostile},"
               f" sentence_b_prime = {hostile}, question_four_choice = 'Which\r\nsentences?'")
    db.conn.commit()
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("x")
        text = {s: app.screen.query_one(s, Static).content.plain for s in ("#question", "#sentence-a", "#sentence-b")}
    shown = text["#sentence-a"] + text["#sentence-b"]
    assert "\x07" not in shown and "\r" not in shown  # never raw to the terminal
    assert text["#question"] == "Question: Which sentences?"
    for selector, label in (("#sentence-a", "Sentence A: "), ("#sentence-b", "Sentence B: ")):
        lines = text[selector].split("\n")  # the label, then the text on one line (60 columns fit it)
        assert len(lines) == 1 and lines[0].startswith(label + "Ring") and lines[0].endswith("She grasped it."), lines


async def test_the_comment_dialog_saves_and_closes_on_taps(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    session = ValidateSession.open(db, "alice", Selection())
    app = AnnotateApp(session)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("x", "c")
        await pilot.press(*"odd verb")
        await click_text(pilot, "#comment-taps", "Save")
        assert not isinstance(app.screen, CommentScreen) and session.current.comment == "odd verb"
        await pilot.press("c")
        await click_text(pilot, "#comment-taps", "Close")  # nothing changed: it just closes
        assert not isinstance(app.screen, CommentScreen)


async def test_at_phone_width_the_help_keeps_each_key_with_its_label(tmp_path):
    db = make_db(tmp_path / "a.db", n=1)
    app = AnnotateApp(ValidateSession.open(db, "alice", Selection()))
    async with app.run_test(size=(40, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = app.screen.query_one("#help-text", Static).content.plain.split("\n")
    text = "\n".join(lines)
    for pair in ("u\u00a0=\u00a0Unacceptable", "a\u00a0=\u00a0Acceptable", "n\u00a0=\u00a0Natural", "4\u00a0=\u00a0neither"):
        assert pair in text, pair  # never split across lines
    assert not any(ln.strip().startswith("=") for ln in lines)
    assert max(len(ln) for ln in lines) <= 40
