"""Layout of validate and revise mode at 80x24 and 60x20, English and Japanese entries (issue 10).

Checked on what the terminal shows (the rendered screen lines): no control
split from its label, no header or key line cut, the answer controls visible
without scrolling in validate mode, and in revise mode every judgment
reachable by scrolling.
"""

from __future__ import annotations

import pytest
from annotate_factories import add_japanese_run
from factories import make_db
from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Static

from fbagent.store import open_db
from fbagent.store.revisions import set_unfixable
from fbagent.tui.app import AnnotateApp
from fbagent.tui.help_screen import HelpScreen
from fbagent.tui.session import ReviseSession, Selection, ValidateSession
from fbagent.validation.assignment import PAIRS

SIZES = [(80, 24), (60, 20)]


def screen_lines(app: AnnotateApp) -> list[str]:
    """The rows of the terminal as drawn (trailing blanks stripped)."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def widget_lines(app: AnnotateApp, selector: str) -> list[str]:
    content = app.screen.query_one(selector, Static).content
    return (content.plain if isinstance(content, Content) else str(content)).splitlines()


@pytest.fixture(scope="module")
def mixed_db(tmp_path_factory):
    """English and Japanese entries, judged by three annotators (one comment), one entry marked unfixable."""
    path = tmp_path_factory.mktemp("layout") / "mixed.db"
    make_db(path, n=1)
    add_japanese_run(path, n=1)
    db = open_db(path)
    for name in ("alice", "bob", "carol"):
        s = ValidateSession.open(db, name, Selection())
        while not s.finished:
            t = s.current
            s.choose("A" if t.shown_first in PAIRS[t.pair][2] else "B")
            s.rate(s.scale(t).levels[-1])
            if name == "bob" and t.pair == "base":
                s.comment("会議を持つ is stiff; 開いた reads better" if t.item_id.startswith("run-ja") else "fine")
            s.next()
        s.close()
    set_unfixable(db, "run-ja:2:0", True, "lead")
    return path


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_validate_layout(mixed_db, tmp_path, size, lang):
    import sqlite3

    path = tmp_path / "copy.db"
    src, dst = sqlite3.connect(mixed_db), sqlite3.connect(path)
    src.backup(dst)  # a consistent copy, WAL included
    src.close()
    dst.close()
    session = ValidateSession.open(open_db(path), "dana", Selection(language=lang))
    app = AnnotateApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HelpScreen):
            help_lines = screen_lines(app)
            assert any("Press any key to close this help" in ln for ln in help_lines) or size == (60, 20)
            await pilot.press("escape")
        await pilot.press("2")  # one answer given, so a selected control is drawn too
        await pilot.pause()
        width, height = size
        rows = screen_lines(app)
        assert len(rows) == height and all(cell_len(r) <= width for r in rows)
        drawn = "\n".join(rows)
        # every control whole on one row
        scale = session.scale()
        controls = ["1 ○ Sentence A", "2 ● Sentence B", "3 ○ Both", "4 ○ Neither",
                    *[f"{lv.key} ○ {lv.label}" for lv in scale.levels], f"({scale.counts_note()})"]
        for control in controls:
            assert any(control in r for r in rows), (control, drawn)
        # the header and the key help are drawn in full (packed at chunk boundaries, never cut)
        for selector in ("#header", "#keys"):
            for line in widget_lines(app, selector):
                assert line.strip() in drawn, (selector, line)
        assert "q quit" in drawn and f"task {session.index + 1}/{session.total}" in drawn
        # everything of the task is visible without scrolling, above the status line and the keys
        body = app.screen.query_one("#body")
        assert body.max_scroll_y == 0, drawn
        order = [app.screen.query_one(s).region for s in ("#header", "#progress", "#body", "#status", "#keys")]
        assert all(a.bottom <= b.y for a, b in zip(order, order[1:], strict=False)) and order[-1].bottom == height
        for selector in ("#question", "#sentence-a", "#sentence-b", "#choices", "#acceptability", "#comment"):
            region = app.screen.query_one(selector).region
            assert region.height >= 1 and region.bottom <= order[3].y, (selector, drawn)
        await pilot.press("q")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_revise_layout(mixed_db, size, lang):
    session = ReviseSession.open(open_db(mixed_db), "lead2", Selection(language=lang))
    app = AnnotateApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        width, height = size
        rows = screen_lines(app)
        drawn = "\n".join(rows)
        assert len(rows) == height and all(cell_len(r) <= width for r in rows)
        header = " ".join(" ".join(widget_lines(app, "#header")).split())
        assert header.startswith(f"lead2 · revise · entry 1/1 · {session.item_id} · status verified")
        assert "3/3 correct, 3/3 acceptable" in header
        if lang == "ja":
            assert header.endswith("CANNOT BE FIXED (not exported)")
        for line in [*widget_lines(app, "#header"), *widget_lines(app, "#keys")]:
            assert line.strip() in drawn, line  # not cut
        assert app.screen.query_one("#keys").region.bottom == height
        # the details scroll: at the end, every annotator's judgment of the neither_correct pair is on screen
        await pilot.press("end")
        await pilot.pause()
        drawn = "\n".join(screen_lines(app))
        assert "neither_correct (S_B | S_B')" in drawn
        for name in ("alice", "bob", "carol"):
            assert name in drawn.split("neither_correct")[-1]
        await pilot.press("home")
        await pilot.pause()
        assert "Frame A:" in "\n".join(screen_lines(app))
        await pilot.press("q")
