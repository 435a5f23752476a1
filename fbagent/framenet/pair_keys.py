"""The canonical name of a frame across lexicons, and the key of a frame pair common to every language.

Frame IDs persist across Berkeley FrameNet releases; 46 frames of 1.5 carry another name in 1.7 under the same ID
(:data:`fbagent.framenet.renames.RENAMES_15_17`). Three 1.5 names are names of other frames in 1.7
(``Becoming``, ``Quantity``, ``Relational_quantity``: 1.5's ``Becoming``, ID 1070, is 1.7's
``Transition_to_state``, and 1.7's ``Becoming`` is a new frame), so a name alone is ambiguous there:
:func:`framenet_version` tells the release a lexicon's names follow, and :func:`canonical_names` maps a 1.5-named
lexicon's frames to their 1.7 names.

Lexicons of other languages name Berkeley frames (Korean FrameNet: 1.7; ASFALDA: 1.5), so a frame pair is
compared across languages by its canonical (1.7) names: :func:`frame_pair_key` (``"FrameA|FrameB"``, sorted).
"""

from __future__ import annotations

from collections.abc import Iterable

from fbagent.framenet.renames import NEW_NAME

OLD_TO_NEW: dict[str, str] = dict(NEW_NAME)
NEW_NAMES: frozenset[str] = frozenset(NEW_NAME.values())
#: 1.5 names that name no frame in 1.7 (a lexicon using one follows 1.5)
OLD_ONLY: frozenset[str] = frozenset(OLD_TO_NEW) - NEW_NAMES - {"Becoming", "Quantity", "Relational_quantity"}
#: 1.7 names of renamed frames that no 1.5 frame has (a lexicon using one follows 1.7)
NEW_ONLY: frozenset[str] = NEW_NAMES - frozenset(OLD_TO_NEW)
PAIR_SEPARATOR = "|"


def framenet_version(names: Iterable[str]) -> str:
    """``"1.5"`` when a lexicon's frame ``names`` hold more names only FrameNet 1.5 has (``Adorning``,
    ``Birth``, ...) than names only 1.7 has (``Distributed_position``, ``Giving_birth``, ...), else ``"1.7"``
    (also when it holds neither: its names are then the same in both releases, but for the three ambiguous ones,
    read as 1.7's)."""
    old = new = 0
    for n in names:
        old += n in OLD_ONLY
        new += n in NEW_ONLY
    return "1.5" if old > new else "1.7"


def canonical_names(names: Iterable[str]) -> dict[str, str]:
    """``{name: canonical name}`` of one lexicon's frames: the FrameNet 1.7 name of each frame (a 1.5-named
    lexicon's renamed frames mapped by :data:`RENAMES`; every other name unchanged)."""
    names = list(names)
    if framenet_version(names) == "1.5":
        return {n: OLD_TO_NEW.get(n, n) for n in names}
    return {n: n for n in names}


def frame_pair_key(frame_a: str, frame_b: str, canonical: dict[str, str] | None = None) -> str:
    """The key of a frame pair common to every language: the two frames' canonical names (``canonical``: from
    :func:`canonical_names`; None: the names as given), sorted, joined by ``|``: ``"Departing|Quitting"``."""
    a, b = ((canonical or {}).get(frame_a, frame_a), (canonical or {}).get(frame_b, frame_b))
    return PAIR_SEPARATOR.join(sorted((a, b)))


def guessed_pair_key(frame_a: str, frame_b: str) -> str:
    """:func:`frame_pair_key` of two frame names without their lexicon (an entry exported before ``frame_pair``
    existed): a name only FrameNet 1.5 has is mapped to its 1.7 name, the others kept; ``""`` when a name is
    missing."""
    if not frame_a or not frame_b:
        return ""
    return frame_pair_key(frame_a, frame_b, {n: OLD_TO_NEW[n] for n in (frame_a, frame_b) if n in OLD_ONLY})
