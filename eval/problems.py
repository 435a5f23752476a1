"""FrameBench evaluation problems: two pairs per entry, two sentence orders, shuffled option numbers.

Protocol (FrameBench, Yano and Sasano 2026, section 4 and appendix B):

- base pair (S_A, S_B): presented as Sentence A = S_A, Sentence B = S_B, so
  the gold answer is "Sentence A" ("A only");
- extended pair (S_B', S_A'): presented as Sentence A = S_B', Sentence B = S_A',
  so the gold answer is "Sentence B" ("B only"); the frame-A sentence S_A' is
  the correct one in both cases;
- each pair is also asked with its two sentences swapped (``order="swapped"``),
  which moves the correct sentence to the other position;
- the four option labels (Sentence A, Sentence B, Both sentences, Neither
  sentence) are numbered 1-4 by a shuffle seeded with ``(seed, problem id)``
  and recorded with every prediction.

``correct_position`` is where the frame-A sentence is shown (1 = first, 2 =
second): base/canonical 1, base/swapped 2, extended/canonical 2,
extended/swapped 1. An answer is scored as ``correct``, ``both``,
``neither`` or ``opposite`` (the frame-B sentence only).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fbagent.eval.choices import ORDERS
from fbagent.eval.dataset import Entry

LABELS = ("sentence_a", "sentence_b", "both", "neither")
KINDS = ("base", "extended")
OUTCOMES = ("correct", "both", "neither", "opposite")


@dataclass(frozen=True)
class Problem:
    """One four-choice question shown to a model.

    ``first``/``second``: the sentences shown as Sentence A and Sentence B;
    ``roles``: which entry fields they are (e.g. ``("sentence_b_prime",
    "sentence_a_prime")``); ``gold``: the gold label (``"sentence_a"`` or
    ``"sentence_b"``); ``mapping``: option number (``"1".."4"``) -> label.
    """

    problem_id: str
    entry_id: str
    kind: str
    order: str
    question: str
    verb: str
    language: str
    first: str
    second: str
    roles: tuple[str, str]
    correct_position: int
    gold: str
    mapping: dict[str, str]
    lu: str = ""

    @property
    def gold_choice(self) -> str:
        """The option number of the gold label."""
        return next(n for n, label in self.mapping.items() if label == self.gold)

    def label_of(self, choice: str | None) -> str | None:
        """Option number -> label (``None`` for a failed answer)."""
        return self.mapping.get(choice) if choice is not None else None

    def outcome(self, choice: str | None) -> str | None:
        """``correct`` / ``both`` / ``neither`` / ``opposite``, or ``None`` for a failed answer."""
        label = self.label_of(choice)
        if label is None:
            return None
        if label == self.gold:
            return "correct"
        if label in ("both", "neither"):
            return label
        return "opposite"


def option_mapping(seed: int, problem_id: str, labels: tuple[str, ...] = LABELS) -> dict[str, str]:
    """Seeded shuffle of ``labels`` numbered from ``"1"``: ``{"1": label, ...}``.

    Deterministic for a given ``(seed, problem_id)`` across runs and platforms
    (``random.Random`` seeded with a string uses its SHA-512).
    """
    order = list(labels)
    random.Random(f"{seed}|{problem_id}").shuffle(order)
    return {str(i + 1): label for i, label in enumerate(order)}


def problems_for_entry(entry: Entry, seed: int) -> list[Problem]:
    """The four problems of one entry: (base, extended) x (canonical, swapped), in that order."""
    pairs = {
        "base": (("sentence_a", "sentence_b"), 1),
        "extended": (("sentence_b_prime", "sentence_a_prime"), 2),
    }
    out = []
    for kind in KINDS:
        (r1, r2), pos = pairs[kind]
        for order in ORDERS:
            roles = (r1, r2) if order == "canonical" else (r2, r1)
            correct_position = pos if order == "canonical" else 3 - pos
            pid = f"{entry.id}|{kind}|{order}"
            out.append(Problem(
                problem_id=pid, entry_id=entry.id, kind=kind, order=order, question=entry.question,
                verb=entry.verb, language=entry.language,
                first=getattr(entry, roles[0]), second=getattr(entry, roles[1]), roles=roles,
                correct_position=correct_position,
                gold="sentence_a" if correct_position == 1 else "sentence_b",
                mapping=option_mapping(seed, pid), lu=entry.lu,
            ))
    return out


def build_problems(entries: list[Entry], seed: int, orders: tuple[str, ...] = ORDERS) -> list[Problem]:
    """All problems of ``entries`` (4 per entry, or 2 with ``orders=("canonical",)``), in entry order.

    ``orders``: which sentence orders are asked; the authors' evaluator asks each
    pair in the canonical order only unless told to swap the statements.
    """
    return [p for e in entries for p in problems_for_entry(e, seed) if p.order in orders]
