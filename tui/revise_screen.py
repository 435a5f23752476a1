"""Revise mode (the authors' correction pass): frames, definitions, verifier results, judgments, edits.

Shows one entry at a time with everything validate mode hides: frame and LU
names with definitions, the generation status and reasons, the verifier's
definition and similarities for every sentence, and, per pair, every
annotator's choice, correctness, acceptability and comment, so the lead sees
why an entry needs fixing (stale judgments, given on an older text, are
marked). Keys 1-6 open the question (two-choice, four-choice) or a sentence
in a TextArea dialog; each save is an ``item_revisions`` row (old, new, who,
when), the original stays in ``items``, and the judgments of the pairs that
show the field become pending again (FrameBench 3.3). ``x`` toggles the
"cannot be fixed" mark, which removes the entry from export. The details
scroll (↑/↓, PgUp/PgDn), so a long (e.g. Japanese) entry fits 60x20 too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from fbagent.tui.edit_screen import EditScreen
from fbagent.tui.layout import pack, wrap
from fbagent.tui.scales import scale_for
from fbagent.tui.session import ReviseSession
from fbagent.tui.validate_screen import highlight
from fbagent.validation.assignment import PAIRS, selected_fields

if TYPE_CHECKING:
    from fbagent.validation.aggregate import EntryScore

#: key -> (item field, label)
FIELDS = {
    "1": ("question", "Question (two-choice)"),
    "2": ("question_four_choice", "Question (four-choice)"),
    "3": ("sentence_a", "S_A  (frame A)"),
    "4": ("sentence_b", "S_B  (frame B)"),
    "5": ("sentence_a_prime", "S_A' (frame A)"),
    "6": ("sentence_b_prime", "S_B' (frame B)"),
}
#: a piece of styled text: plain, (text, style) or Textual content
Part: TypeAlias = "Content | str | tuple[str, str]"
SHORT = {"sentence_a": "S_A", "sentence_b": "S_B", "sentence_a_prime": "S_A'", "sentence_b_prime": "S_B'"}


def _verifier_line(verifier: object, field: str) -> str:
    """One line of verifier results for ``field``: pass/FAIL, sim_own, sim_other, the definition.

    Reads the generation verifier's ``{"sentences": {field: {...}}}`` layout
    (see :func:`fbagent.verifier.verify.verify_item`), or a flat ``{field: {...}}``.
    """
    if isinstance(verifier, dict) and isinstance(verifier.get("sentences"), dict):
        verifier = verifier["sentences"]
    if not isinstance(verifier, dict) or not isinstance(verifier.get(field), dict):
        return ""
    v = verifier[field]
    parts = []
    if "pass" in v:
        parts.append("pass" if v["pass"] else "FAIL")
    if isinstance(v.get("sim_own"), int | float) and isinstance(v.get("sim_other"), int | float):
        parts.append(f"own {v['sim_own']:.2f} / other {v['sim_other']:.2f}")
    if v.get("definition"):
        parts.append(f"“{v['definition']}”")
    return "verifier: " + " · ".join(parts) if parts else ""


def choice_text(choice: str, shown_first: str, shown_second: str) -> str:
    """An answer in item terms (the shown order differs per annotator): ``S_A``, ``S_A + S_A'``, ``neither``."""
    fields = selected_fields(choice, shown_first, shown_second)
    return " + ".join(SHORT[f] for f in sorted(fields, key=list(SHORT).index)) if fields else "neither"


def judgment_lines(review: EntryScore, language: str | None) -> list[Part]:
    """Content parts of the judgments block: a summary line, then per pair one line per annotator.

    ``review`` is the entry's :class:`fbagent.validation.aggregate.EntryScore`.
    """
    scale = scale_for(language)
    parts: list[Part] = []
    n = len(review.scores)
    total = sum(len(p) for p in review.states.values())
    score = (f"{review.n_correct}/{n} correct · {review.n_acceptable}/{n} acceptable" if n
             else "no entry score on the current text yet")
    summary = (
        f"Judgments: {score} ({'kept' if review.kept else 'not kept'}) · tasks: {review.count('current')} current,"
        f" {review.count('stale')} stale, {review.count('pending')} pending"
    ) if total else "Judgments: nobody has judged this entry yet."
    parts.append((summary + "\n", "bold"))
    names = sorted(review.states)
    for pair, (first, second, _) in PAIRS.items():
        if not any(pair in review.states[nm] for nm in names):
            continue
        parts.append((f"{pair} ({SHORT[first]} | {SHORT[second]})\n", "bold"))
        for name in names:
            state = review.states[name].get(pair)
            if state is None:
                continue
            j = review.pairs.get(name, {}).get(pair) or review.stale.get(name, {}).get(pair)
            comment = review.comments.get(name, {}).get(pair)
            line = f"  {name:<8} "
            if j is None:
                line += "not judged yet"
            else:
                lv = scale.by_name(j.acceptability)
                label = lv.label if lv else j.acceptability
                line += (f"{choice_text(j.choice, j.shown_first, j.shown_second):<11} "
                         f"{'correct' if j.correct else 'WRONG':<8} {label} {'✓' if j.acceptable else '✗'}")
            if comment:
                line += f"  “{comment}”"
            style = "dim" if state == "stale" else ""
            parts.append((line + (" (stale: judged an older text)" if state == "stale" else "") + "\n", style))
    return parts


class ReviseScreen(Screen):
    """The revise-mode page; the entries and revisions live in the :class:`ReviseSession`, and the page follows
    three reactive attributes (Textual's idiom): ``index`` (which entry is shown), ``revision`` (bumped when the
    shown entry changed in the store: a saved revision, the "cannot be fixed" mark) and ``message`` (the
    status line). ``watch_index`` / ``watch_revision`` draw the entry, ``watch_message`` the status line."""

    #: the session's entry index shown (:meth:`watch_index` draws it)
    index: var[int] = var(-1, init=False)
    #: how many times the shown entry changed in the store since the page opened (:meth:`watch_revision`)
    revision: var[int] = var(0, init=False)
    #: the status line's note (:meth:`watch_message`)
    message: var[str] = var("", init=False)

    CSS_PATH = Path(__file__).parent / "revise_screen.tcss"  # absolute: subclasses elsewhere keep it
    BINDINGS = [
        *[Binding(key, f"edit('{key}')", show=False) for key in FIELDS],
        Binding("x", "unfixable", "Cannot be fixed", show=False),
        Binding("right,enter", "next", "Next", show=False, priority=True),
        Binding("left", "previous", "Previous", show=False, priority=True),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def __init__(self, session: ReviseSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        """Header, the scrollable details (frames, text, judgments), status line, key help."""
        yield Static(id="header", classes="header")
        with VerticalScroll(id="details"):
            yield Static(id="frames")
            yield Static(id="entry")
            yield Static(id="judgments")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        """Focus the details (so ↑/↓ scroll) and draw the entry."""
        self.query_one("#details").focus()
        self.index = self.session.index   # draws the entry (watch_index)

    def watch_index(self, _index: int) -> None:
        """Another entry: draw it."""
        self.render_entry()

    def watch_revision(self, _revision: int) -> None:
        """The shown entry changed in the store: draw it again."""
        self.render_entry()

    def watch_message(self, _message: str) -> None:
        """A new note: draw the status line."""
        if self.index >= 0:
            self.render_status()

    def render_status(self) -> None:
        """The status line: :attr:`message`."""
        self.query_one("#status", Static).update(wrap(self.message, max(20, self.app.size.width - 4)))

    def on_resize(self, event: events.Resize) -> None:
        """Lay the entry out again for the new width."""
        self.render_entry()

    def render_entry(self) -> None:
        """Draw the entry on screen."""
        s = self.session
        item = s.item()
        chunks: list[Part] = [s.annotator, "revise", f"entry {s.index + 1}/{s.total}", str(item.get("id")),
                             f"status {item.get('status')}"]
        if s.order != "stable":
            chunks.append(f"order {s.order}")
        review = item.get("review")
        if review is not None and review.scores:
            n = len(review.scores)
            chunks.append(f"{review.n_correct}/{n} correct, {review.n_acceptable}/{n} acceptable")
        if review is not None and review.count("stale"):
            chunks.append((f"{review.count('stale')} stale", "bold"))
        if item.get("unfixable"):
            chunks.append(("CANNOT BE FIXED (not exported)", "bold"))
        self.query_one("#header", Static).update(pack(chunks, self.app.size.width - 2, indent=0, sep=" · "))
        spans = item.get("target_spans") or {}
        verifier = item.get("verifier")
        if isinstance(verifier, str):
            try:
                verifier = json.loads(verifier)
            except ValueError:
                verifier = None
        revised = set(item.get("revised_fields") or [])
        parts: list[Part] = []
        for key, (field, label) in FIELDS.items():
            tag = " (revised)" if field in revised else ""
            parts.append((f"{key} {label}{tag}: ", "bold"))
            text = item.get(field) or ""
            parts.append(highlight(text, spans.get(field)) if field.startswith("sentence") else text)
            parts.append("\n")
            line = _verifier_line(verifier, field)
            if line:
                note = " (on the original text)" if field in revised else ""
                parts.append((f"    {line}{note}\n", "dim"))
        width = max(20, self.app.size.width - 4)
        self.query_one("#entry", Static).update(wrap(Content.assemble(*parts).rstrip(), width, hang=4))
        ctx = item.get("context") or {}
        parts = []
        for side in ("a", "b"):
            info = ctx.get(f"frame_{side}") or {}
            parts.append((f"Frame {side.upper()}: {info.get('name')}", "bold"))
            parts.append(f" ({info.get('lu')}): {info.get('definition') or '(no definition in this database)'}\n")
            if info.get("lu_definition"):
                parts.append((f"  LU: {info['lu_definition']}\n", "dim"))
        reasons = item.get("reasons")
        try:
            reasons = json.loads(reasons) if isinstance(reasons, str) else reasons
        except ValueError:
            pass
        if reasons:
            parts.append(("Reasons: ", "bold"))
            parts.append("; ".join(map(str, reasons)) if isinstance(reasons, list) else str(reasons))
            parts.append("\n")
        self.query_one("#frames", Static).update(wrap(Content.assemble(*parts).rstrip(), width, hang=2))
        judged = Content.assemble(*judgment_lines(review, item.get("language"))).rstrip() if review else Content("")
        judged = wrap(judged, width, hang=11)
        self.query_one("#judgments", Static).update(judged)
        self.render_status()
        keys = ["1-6 edit", "x cannot be fixed", "←/→ entry", "↑/↓ scroll", "q quit"]
        self.query_one("#keys", Static).update(pack(keys, max(20, self.app.size.width - 2), indent=0, sep=" · "))

    def action_edit(self, key: str) -> None:
        """Open the field bound to ``key`` in the edit dialog; a changed text is saved as a revision."""
        field, label = FIELDS[key]
        item = self.session.item()
        session = self.session

        def save(text: str) -> str:
            if not text.strip():
                return "Not saved: the text is empty."
            rid = session.save(field, text.strip())
            if not rid:
                return "Unchanged."
            message = f"Saved revision #{rid} of {field}."
            after = session.item()
            stale = after["review"].count("stale") if after.get("review") else 0
            if stale:
                message += f" {stale} judgment(s) of this entry wait for a re-judgment."
            if field.startswith("sentence") and not (after.get("target_spans") or {}).get(field):
                message += f" Warning: the verb {item.get('verb')!r} is not found in the new text."
            return message

        def done(message: str | None) -> None:
            self.message = message or ""
            self.revision += 1

        self.app.push_screen(EditScreen(f"{label} of {item.get('id')}", item.get(field) or "", save), done)

    def action_unfixable(self) -> None:
        """x: toggle the "cannot be fixed" mark."""
        state = self.session.toggle_unfixable()
        self.message = "Marked: cannot be fixed (left out of export)." if state else "Mark removed."
        self.revision += 1

    def action_next(self) -> None:
        """→ / Enter: the next entry, details scrolled to the top."""
        self.session.go(self.session.index + 1)
        self._moved()

    def action_previous(self) -> None:
        """←: the previous entry, details scrolled to the top."""
        self.session.go(self.session.index - 1)
        self._moved()

    def _moved(self) -> None:
        """After ←/→: no note, the session's entry shown (drawn again at the ends), details scrolled to the top."""
        self.message = ""
        if self.index == self.session.index:
            self.revision += 1     # the same entry (first or last): drawn again, as a move draws
        self.index = self.session.index
        self.query_one("#details", VerticalScroll).scroll_home(animate=False)
