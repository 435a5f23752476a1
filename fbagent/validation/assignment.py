"""Which entries an annotator gets, and the four pair tasks built from each entry.

FrameBench (Yano and Sasano 2026, section 3.2) validates an entry through
four pair tasks, each a two-sentence, four-choice judgment
("Sentence A / Sentence B / Both / Neither") plus acceptability:

==================  ==========================  ========================
pair                sentences (canonical order)  correct sentences
==================  ==========================  ========================
``base``            S_A, S_B                     S_A only
``extended``        S_B', S_A'                   S_A' only
``both_correct``    S_A, S_A'                    both
``neither_correct`` S_B, S_B'                    neither
==================  ==========================  ========================

The two auxiliary pairs are attention checks. Each annotator's tasks are
shuffled with the annotator's recorded seed, and the sentence order of each
task is randomized with the same seed. Both come from
``random.Random(f"{seed}:{item_id}:{pair}")``, one generator per task, so the
order is reproducible and stable when entries are added later (a task's place
in the queue does not depend on which other tasks exist).

Work split (``--range``, ``--share``, ``--overlap``) works on the stable
entry order (run id, pair id, k): ``--range A:B`` keeps entries A..B-1
(0-based, Python slice), ``--share N/M`` with ``--overlap K`` keeps the entries
whose index i satisfies ``(N - 1 - i) mod M < K``: each entry goes to K of
the M annotators (K consecutive shares). ``--overlap all`` (the default)
gives every entry to everyone, as in the paper (three annotators per entry);
``--share`` without ``--overlap`` splits the entries disjointly (K = 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fbagent.errors import FbagentError

#: pair -> (canonical first field, canonical second field, correct fields)
PAIRS: dict[str, tuple[str, str, frozenset[str]]] = {
    "base": ("sentence_a", "sentence_b", frozenset({"sentence_a"})),
    "extended": ("sentence_b_prime", "sentence_a_prime", frozenset({"sentence_a_prime"})),
    "both_correct": ("sentence_a", "sentence_a_prime", frozenset({"sentence_a", "sentence_a_prime"})),
    "neither_correct": ("sentence_b", "sentence_b_prime", frozenset()),
}

#: Pairs whose judgments decide the entry (paper 3.2: entry score = min over these).
SCORED_PAIRS = ("base", "extended")
#: Attention-check pairs, reported separately.
AUXILIARY_PAIRS = ("both_correct", "neither_correct")


def gold_label(pair: str, shown_first: str, shown_second: str) -> str:
    """Correct choice in the labels the annotator sees: ``A``, ``B``, ``both`` or ``neither``.

    ``shown_first`` is the item field shown as "Sentence A". Raises KeyError for an unknown pair.
    """
    correct = PAIRS[pair][2]
    first, second = shown_first in correct, shown_second in correct
    if first and second:
        return "both"
    if first:
        return "A"
    if second:
        return "B"
    return "neither"


def selected_fields(choice: str, shown_first: str, shown_second: str) -> list[str]:
    """The item fields an answer selects (``"both"`` -> both fields, ``"neither"`` -> [])."""
    return {
        "A": [shown_first],
        "B": [shown_second],
        "both": [shown_first, shown_second],
        "neither": [],
    }[choice]


def build_tasks(
    annotator: str,
    seed: int,
    item_ids: Sequence[str],
    session_id: int | None = None,
    present: dict[str, set[str]] | None = None,
) -> list[dict[str, Any]]:
    """Four pair-task rows per entry for ``annotator``, with seeded queue position and sentence order.

    ``present`` ({item id: sentence fields with text}) leaves out the pairs
    whose sentences are missing (e.g. a rejected entry without extended
    sentences); they are built on a later open once the text exists.
    Returns dicts with annotator, item_id, pair, sort_key (float in [0, 1):
    queue order ascending), shown_first, shown_second, gold, session_id;
    ready for :func:`fbagent.store.annotations.insert_tasks`.
    """
    rows = []
    for item_id in item_ids:
        for pair, (first, second, _) in PAIRS.items():
            if present is not None and not {first, second} <= present.get(item_id, set()):
                continue
            rng = random.Random(f"{seed}:{item_id}:{pair}")
            sort_key = rng.random()
            if rng.random() < 0.5:
                first, second = second, first
            rows.append(
                {
                    "annotator": annotator,
                    "item_id": item_id,
                    "pair": pair,
                    "sort_key": sort_key,
                    "shown_first": first,
                    "shown_second": second,
                    "gold": gold_label(pair, first, second),
                    "session_id": session_id,
                }
            )
    return rows


# --------------------------------------------------------------------------- work split


@dataclass(frozen=True)
class Split:
    """A parsed work split: ``range`` (start, stop) slice, ``share`` (n, m), ``overlap`` (K or None = all)."""

    range: tuple[int | None, int | None] | None = None
    share: tuple[int, int] | None = None
    overlap: int | None = None

    def as_options(self) -> dict[str, Any]:
        """JSON-friendly form recorded with the annotation session."""
        return {
            "range": None if self.range is None else list(self.range),
            "share": None if self.share is None else list(self.share),
            "overlap": "all" if self.overlap is None else self.overlap,
        }


def parse_range(text: str | None) -> tuple[int | None, int | None] | None:
    """Parse ``--range A:B`` (0-based, B exclusive, either side may be empty). Raises FbagentError."""
    if text is None:
        return None
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        start = int(parts[0]) if parts[0].strip() else None
        stop = int(parts[1]) if parts[1].strip() else None
    except ValueError:
        raise FbagentError(f"--range {text!r} is not A:B", "pass --range START:STOP, e.g. --range 0:100 (0-based, STOP excluded)") from None
    if (start is not None and start < 0) or (stop is not None and stop < 0):
        raise FbagentError(f"--range {text!r} has a negative bound", "use bounds >= 0, e.g. --range 100:200")
    if start is not None and stop is not None and stop <= start:
        raise FbagentError(f"--range {text!r} is empty (STOP <= START)", "pass a STOP larger than START, e.g. --range 0:100")
    return start, stop


def parse_share(text: str | None) -> tuple[int, int] | None:
    """Parse ``--share N/M`` (1 <= N <= M). Raises FbagentError (e.g. for ``3/2``)."""
    if text is None:
        return None
    try:
        n_text, m_text = text.split("/")
        n, m = int(n_text), int(m_text)
    except ValueError:
        raise FbagentError(f"--share {text!r} is not N/M", "pass --share N/M, e.g. --share 1/3 for the first of three annotators") from None
    if not 1 <= n <= m:
        raise FbagentError(f"--share {text!r} is out of range (need 1 <= N <= M)", f"pass --share N/{max(m, 1)} with N between 1 and {max(m, 1)}")
    return n, m


def parse_overlap(text: str | None, share: tuple[int, int] | None) -> int | None:
    """Parse ``--overlap K|all``; None means every entry for everyone.

    Without ``--share`` only ``all`` makes sense. With ``--share N/M`` and no
    ``--overlap``, K = 1 (disjoint split). Raises FbagentError.
    """
    if text is None:
        return None if share is None else 1
    if text.strip().lower() == "all":
        return None
    try:
        k = int(text)
    except ValueError:
        raise FbagentError(f"--overlap {text!r} is not a number or 'all'", "pass --overlap K (annotators per entry) or --overlap all") from None
    if share is None:
        raise FbagentError(f"--overlap {k} needs --share N/M", "add --share N/M (e.g. --share 1/5 --overlap 3), or drop --overlap")
    if not 1 <= k <= share[1]:
        raise FbagentError(f"--overlap {k} is out of range for --share {share[0]}/{share[1]}", f"pass --overlap between 1 and {share[1]}")
    return k


def parse_split(range_text: str | None, share_text: str | None, overlap_text: str | None) -> Split:
    """Parse the three work-split options together. Raises FbagentError on bad input."""
    share = parse_share(share_text)
    return Split(range=parse_range(range_text), share=share, overlap=parse_overlap(overlap_text, share))


def select_entries(item_ids: Sequence[str], split: Split) -> list[str]:
    """The entries (in the given stable order) that ``split`` assigns to this annotator.

    ``--range`` applies first (indices into ``item_ids``), then ``--share``
    with ``--overlap`` on the indices within the range.
    """
    ids = list(item_ids)
    if split.range is not None:
        start, stop = split.range
        ids = ids[start:stop]
    if split.share is not None:
        n, m = split.share
        k = m if split.overlap is None else split.overlap
        ids = [x for i, x in enumerate(ids) if (n - 1 - i) % m < k]
    return ids
