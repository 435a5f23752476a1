"""Adjudicate mode: one disputed entry per page for the lead (``fbagent annotate --mode adjudicate``).

The page shows the question, the four sentences (S_A, S_B, S_A', S_B': the lead sees which frame each
evokes), every annotator's judgments anonymised (``annotator 1..n``, stable for the session), the votes
against the filter and the decision so far. ``k`` keep, ``d`` drop, ``r`` send to a second round: the
reason field opens; Enter stores the decision with the reason (an empty reason is refused), Escape
cancels; ←/→ move; ``q`` quits. State lives in reactive attributes (``index``, ``pending``,
``message``); the widgets follow them (``watch_*``), as the other screens do after issue 44.
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input, Static

from fbagent.errors import FbagentError
from fbagent.tui.adjudicate_session import DECISION_LABELS, AdjudicateSession

SENTENCES = (("S_A", "sentence_a"), ("S_B", "sentence_b"), ("S_A'", "sentence_a_prime"), ("S_B'", "sentence_b_prime"))
KEYS = "k keep · d drop · r 2nd round · Enter save · Esc cancel · ←/→ move · q quit"
#: the decision each key picks (also in BINDINGS, for the help screen)
KEY_DECISIONS = {"k": "keep", "d": "drop", "r": "second_round"}


class AdjudicateScreen(Screen):
    """The adjudicate-mode page; decisions are stored by the :class:`AdjudicateSession`."""

    CSS_PATH = Path(__file__).parent / "adjudicate_screen.tcss"
    BINDINGS = [
        Binding("k", "pick('keep')", "Keep", show=False),
        Binding("d", "pick('drop')", "Drop", show=False),
        Binding("r", "pick('second_round')", "Second round", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("right", "move(1)", "Next", show=False),
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    #: the entry on screen (index into the session's walk)
    index: reactive[int] = reactive(0, init=False)
    #: the decision picked and waiting for its reason ("" when none)
    pending: reactive[str] = reactive("", init=False)
    #: the status line
    message: reactive[str] = reactive("", init=False)

    def __init__(self, session: AdjudicateSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with VerticalScroll(id="body"):
            yield Static(id="question")
            yield Static(id="sentences")
            yield Static(id="judgments")
            yield Static(id="decision")
        yield Input(placeholder="reason (Enter saves, Esc cancels)", id="reason", classes="hidden")
        yield Static(id="status")
        yield Static(KEYS, id="keys")

    def on_mount(self) -> None:
        self.index = self.session.index
        self.render_entry()

    def watch_index(self, index: int) -> None:
        self.session.index = index
        self.pending = ""
        self.render_entry()

    def watch_pending(self, pending: str) -> None:
        box = self.query_one("#reason", Input)
        box.set_class(not pending, "hidden")
        if pending:
            box.value = ""
            # at once, not box.focus() (Textual defers that to the message queue): a reason typed right after the
            # decision key, as over a slow link where keys arrive together, must land in the box, not be lost
            self.set_focus(box)
        else:
            self.set_focus(None)
        self.render_entry()

    def watch_message(self, message: str) -> None:
        self.query_one("#status", Static).update(message)

    def render_entry(self) -> None:
        """Draw the entry on screen from the session."""
        s, e = self.session, self.session.entry
        item = s.item()
        self.query_one("#header", Static).update(
            f"{s.annotator} · adjudicate · entry {s.index + 1}/{s.total} · decided {s.n_decided}/{s.total}")
        self.query_one("#question", Static).update(item.get("question_four_choice") or item.get("question") or "")
        self.query_one("#sentences", Static).update("\n".join(f"{label}: {item.get(f) or ''}" for label, f in SENTENCES))
        lines = [f"{j['annotator']}: {'correct' if j['correct'] else 'wrong'}, "
                 f"{'acceptable' if j['acceptable'] else 'not acceptable'} · base {j['answers']['base']}"
                 f" · extended {j['answers']['extended']}" for j in s.judgments()]
        lines.append(f"votes: {e.n_correct} correct, {e.n_acceptable} acceptable of {len(e.scores)}; filter needs "
                     f">= {s.min_correct} and >= {s.min_acceptable}: {'kept' if e.vote_kept else 'dropped'}")
        self.query_one("#judgments", Static).update("\n".join(lines))
        d = e.adjudication
        decided = ("not decided yet" if d is None else
                   f"decided: {DECISION_LABELS[d['decision']]} ({d['reason']}) -> {'kept' if e.kept else 'dropped'}")
        if d is None and e.set_aside is not None:
            decided = (f"earlier {DECISION_LABELS[e.set_aside['decision']]} set aside: revised "
                       f"{', '.join(e.set_aside['revised']) or 'since'}; not decided for this text")
        picked = f" · picked: {DECISION_LABELS[self.pending]}, type the reason" if self.pending else ""
        self.query_one("#decision", Static).update(decided + picked)

    def on_key(self, event: events.Key) -> None:
        """Decision keys and the reason's keys in the order they arrive. Textual routes a key to the widget that has
        the focus when the key arrives and runs bindings only after it has bubbled up, so keys that come in one burst
        (as over a slow link) would reach the screen before a binding opened the reason box: the decision key is
        taken here, a reason character the box did not get goes into it, Enter saves the box (stopped here, so
        the box's own Enter binding does not save it twice)."""
        box = self.query_one("#reason", Input)
        if not self.pending:
            if event.key in KEY_DECISIONS and self.focused is not box:
                event.stop()
                self.action_pick(KEY_DECISIONS[event.key])
            return
        if event.key == "enter":
            event.stop()
            self.post_message(Input.Submitted(box, box.value))
        elif event.is_printable and event.character:
            event.stop()
            box.insert_text_at_cursor(event.character)

    def action_pick(self, decision: str) -> None:
        """Pick a decision; the reason field opens."""
        self.pending = decision

    def action_cancel(self) -> None:
        """Close the reason field without storing anything."""
        self.pending = ""
        self.message = "cancelled"

    def action_move(self, step: int) -> None:
        """Show another entry."""
        self.message = ""
        self.index = max(0, min(self.session.total - 1, self.index + step))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Store the picked decision with the typed reason and go on."""
        decision = self.pending
        if not decision:
            return
        try:
            self.session.decide(decision, event.value)
        except FbagentError as err:
            self.message = f"{err.problem}: {err.fix}"
            return
        self.message = f"stored: {DECISION_LABELS[decision]}"
        self.pending = ""
        if self.session.index != self.index:
            self.index = self.session.index
        else:
            self.render_entry()
