"""Instructions for annotators (validate mode), opened with ``?``; any key but the scroll keys closes them.

The acceptability part lists every scale in the annotator's queue (an
annotator with English and Japanese entries sees both), with the level that
counts as acceptable for the filter (FrameBench appendix A.2: on the
English three-level scale only Natural does).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from fbagent.tui.closing import on_top
from fbagent.tui.layout import wrap
from fbagent.tui.scales import Scale

INSTRUCTIONS = """\
How to annotate

Each task shows a question and two sentences, A and B. The verb that the question is about is highlighted in both.

1. Correctness: which sentences fit the question?
   1 = only Sentence A   2 = only Sentence B   3 = both   4 = neither
2. Acceptability: how natural is the LESS natural of the two sentences?
{scales}

Every key is saved at once. Enter goes on to the next open task once both are given (it says what is missing); → and ← move without checks; o jumps to the next open task; s skips a task (it comes back after the last open one); c adds a comment; q quits. Reopening continues at the first open task; tasks revised since you judged them come first, marked REVISED.

Press any key to close this help, or tap it (↑/↓ scroll)."""
"""One logical line per line; :meth:`HelpScreen.render_help` wraps them to the dialog width."""

SCROLL_KEYS = ("up", "down", "pageup", "pagedown", "home", "end")


def positive_note(scale: Scale) -> str:
    """A help line (newline first) naming middle levels that count as NOT acceptable; "" when none.

    On the English three-level scale only Natural is positive (FrameBench,
    Yano and Sasano 2026, section 3.2 and appendix A.2), so ``a`` (Acceptable)
    counts as not acceptable in the filter and the report.
    """
    positive = [lv.label for lv in scale.levels if lv.positive]
    middle = [lv.label for lv in scale.levels[1:] if not lv.positive]
    if not middle:
        return ""
    return f"\n      Note: {', '.join(middle)} counts as NOT acceptable (only {' / '.join(positive)} does)."


def scale_lines(scales: Sequence[tuple[Scale, Sequence[str]]]) -> str:
    """One block per scale: its languages, keys and labels, and the level(s) that count as acceptable."""
    out = []
    for scale, languages in scales:
        levels = "   ".join(f"{lv.key}\u00a0=\u00a0{lv.label}" for lv in scale.levels)  # never split at a narrow width
        out.append(f"   {', '.join(languages)} ({scale.title or scale.name}): {levels}")
        out.append(f"      {scale.counts_note().replace('counts:', 'counts as acceptable:')}.{positive_note(scale)}")
    return "\n".join(out)


class HelpScreen(ModalScreen[None]):
    """The instructions; any key but ↑/↓/PgUp/PgDn/Home/End closes them."""

    CSS_PATH = Path(__file__).parent / "help_screen.tcss"

    def __init__(self, scales: Scale | Sequence[tuple[Scale, Sequence[str]]]) -> None:
        super().__init__()
        self.scales = [(scales, ["this task"])] if isinstance(scales, Scale) else list(scales)

    def compose(self) -> ComposeResult:
        """A scrollable box with the instructions."""
        with VerticalScroll(id="dialog"):
            yield Static(id="help-text")

    def on_mount(self) -> None:
        """Wrap the instructions to the dialog."""
        self.render_help()

    def on_resize(self, event: events.Resize) -> None:
        """Wrap them again for the new width."""
        self.render_help()

    def render_help(self) -> None:
        """The instructions wrapped to the dialog (78 columns, or the terminal width less the border)."""
        width = min(78, self.app.size.width) - 5  # border, padding, scrollbar
        lines = []
        for line in INSTRUCTIONS.format(scales=scale_lines(self.scales)).splitlines():
            indent = len(line) - len(line.lstrip(" "))
            lines.append(wrap(line, width, hang=indent + (3 if line.lstrip()[:2] in ("1.", "2.") else 0)))
        self.query_one("#help-text", Static).update(Content("\n").join(lines))

    def on_click(self, event: events.Click) -> None:
        """A click or tap closes the help (a phone has no key to press)."""
        event.stop()
        if on_top(self):   # a second tap of a double tap: the help is already closing
            self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        """Scroll keys scroll; any other key closes the help."""
        event.stop()
        if event.key in SCROLL_KEYS:
            scroll = self.query_one("#dialog", VerticalScroll)
            {"up": scroll.scroll_up, "down": scroll.scroll_down, "pageup": scroll.scroll_page_up,
             "pagedown": scroll.scroll_page_down, "home": scroll.scroll_home, "end": scroll.scroll_end}[event.key]()
            return
        if on_top(self):   # keys queued before the app started: the first closes the help, the rest are dropped
            self.dismiss(None)
