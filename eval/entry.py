"""One benchmark entry as evaluation reads it (:class:`Entry`), shared by every dataset reader.

The JSONL readers (:mod:`fbagent.eval.dataset`: fbagent's export format, the FrameBench authors'
columns) and the Hugging Face folder reader (:mod:`fbagent.eval.hf_folder`) all build entries
with these helpers, so neither reader imports the other's module for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fbagent.errors import FbagentError
from fbagent.text import first_unsafe

SENTENCE_FIELDS = ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime")


@dataclass(frozen=True)
class Entry:
    """One benchmark entry (FrameBench, Yano and Sasano 2026, section 3).

    ``sentence_a``/``sentence_a_prime`` evoke frame A and answer ``question``;
    ``sentence_b``/``sentence_b_prime`` evoke frame B and do not.
    ``human_correct``: per annotator, correctness on the base and extended
    pair (``{name: (base_correct, extended_correct)}``), empty when unknown.
    ``pair_votes``: from the authors' annotator columns, per pair
    (``"base"``, ``"extended"``) the number of annotators who matched the
    gold answer and who rated the pair acceptable, and how many annotators
    have columns: ``{"base": {"matched": 3, "acceptable": 2, "annotators": 3}, ...}``;
    empty without such columns. ``human_filter``: for an fbagent export, whether the entry passed the export's
    human filter and the filter (``(kept, min_correct, min_acceptable)`` of its ``human`` block); ``None``
    otherwise.
    """

    id: str
    question: str
    sentence_a: str
    sentence_b: str
    sentence_a_prime: str
    sentence_b_prime: str
    verb: str
    language: str
    lu: str = ""
    frame_a: str = ""
    frame_b: str = ""
    source_format: str = "fbagent"
    human_correct: dict[str, tuple[bool, bool]] = field(default_factory=dict)
    pair_votes: dict[str, dict[str, int]] = field(default_factory=dict)
    human_filter: tuple[bool, int, int] | None = None


def _text(obj: dict, key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise FbagentError(f"{where}: field {key!r} is missing or empty",
                           "export the entries again with `fbagent export --validated`, or fix that line")
    bad = first_unsafe(value)
    if bad is not None:
        raise FbagentError(f"{where}: field {key!r} contains the control character {bad} (an escape sequence, "
                           "a bell...), which a model would read and a terminal would run",
                           "remove it from that line (fbagent annotate --mode revise can fix the entry), then "
                           "export again")
    return value.strip()


def sentences(obj: dict, where: str) -> dict[str, Any]:
    """The four sentences of ``obj`` (:data:`SENTENCE_FIELDS`), each checked by :func:`_text` (raises
    :class:`FbagentError` for a missing, empty or unsafe one; ``where`` names the line)."""
    return {k: _text(obj, k, where) for k in SENTENCE_FIELDS}


def check_pairs_differ(entry: Entry, where: str) -> None:
    """Raise :class:`FbagentError` when the two sentences of the base pair (S_A, S_B) or of the extended
    pair (S_A', S_B') are the same text (whitespace and case aside): the gold answer ("only the frame-A
    sentence") could not be told apart from its opposite, so the problem has no single answer."""
    for first, second, pair in (("sentence_a", "sentence_b", "base"),
                                ("sentence_a_prime", "sentence_b_prime", "extended")):
        a, b = (" ".join(getattr(entry, k).split()).casefold() for k in (first, second))
        if a == b:
            raise FbagentError(f"{where}: {first} and {second} are the same text, so the {pair} problem has no "
                               "single answer", "revise one of the two sentences (fbagent annotate --mode revise) "
                               "and export again, or remove that line")
