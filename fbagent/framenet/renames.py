"""Frames renamed between Berkeley FrameNet 1.5 and 1.7, and the canonical name of a frame across lexicons.

FrameNet frame IDs persist across releases; 46 frames of FrameNet 1.5 carry another name in 1.7 under the same
ID (:data:`RENAMES`, computed from FrameNet 1.5's ``frameIndex.xml`` and FrameNet 1.7's frame IDs as the Korean
FrameNet 1.2 ships them in ``resource/info/FN17_frame2id.json``: every 1.5 ID whose 1.7 name differs). Three
1.5 names are names of other frames in 1.7 (``Becoming``, ``Quantity``, ``Relational_quantity``: 1.5's
``Becoming``, ID 1070, is 1.7's ``Transition_to_state``, and 1.7's ``Becoming`` is a new frame), so a name alone
is ambiguous there: :func:`framenet_version` tells the release a lexicon's names follow, and
:func:`canonical_names` maps a 1.5-named lexicon's frames to their 1.7 names.

Lexicons of other languages name Berkeley frames (Korean FrameNet: 1.7; ASFALDA: 1.5), so a frame pair is
compared across languages by its canonical (1.7) names: :func:`frame_pair_key` (``"FrameA|FrameB"``, sorted).
"""

from __future__ import annotations

from collections.abc import Iterable

#: (frame ID, FrameNet 1.5 name, FrameNet 1.7 name), by 1.5 name
RENAMES: tuple[tuple[int, str, str], ...] = (
    (76, "Adorning", "Distributed_position"),
    (385, "Altered_phase", "Substance_by_phase"),
    (67, "Appearance", "Give_impression"),
    (1683, "Attempting_scenario", "Attempting_and_resolving_scenario"),
    (1800, "Be_in_control", "Being_in_control"),
    (731, "Become_silent", "Becoming_silent"),
    (1070, "Becoming", "Transition_to_state"),
    (2061, "Being_strong", "Level_of_force_resistance"),
    (281, "Birth", "Giving_birth"),
    (186, "Change_of_state_endstate", "Event_endstate"),
    (185, "Change_of_state_initial_state", "Event_initial_state"),
    (184, "Change_of_state_scenario", "Dynamic_situation_scenario"),
    (1562, "Clarity_of_resolution", "Margin_of_resolution"),
    (1174, "Containment", "Containment_scenario"),
    (1176, "Containment_relation_IS", "Being_contained_within"),
    (1330, "Defend", "Defending"),
    (520, "Deny_permission", "Deny_or_grant_permission"),
    (79, "Duration_attribute", "Duration_description"),
    (1061, "Employee's_scenario", "Employee_scenario"),
    (1062, "Employer's_scenario", "Employer_scenario"),
    (1563, "Exertive_force", "Level_of_force_exertion"),
    (2220, "Exhaust_resource", "Expend_resource"),
    (37, "Hear", "Hearsay"),
    (422, "Import_export", "Import_export_scenario"),
    (1178, "In", "Interior_profile_relation"),
    (306, "Inchoative_attaching", "Becoming_attached"),
    (797, "Inchoative_change_of_temperature", "Change_of_temperature"),
    (2180, "Long_or_short_selling", "Short_selling"),
    (119, "Observable_body_parts", "Body_parts"),
    (1542, "Place_weight_on", "Emphasizing"),
    (1931, "Possibilities", "Alternatives"),
    (2056, "Prevent_from_having", "Prevent_or_allow_possession"),
    (516, "Preventing", "Preventing_or_letting"),
    (1340, "Progress", "Progression"),
    (521, "Prohibiting", "Prohibiting_or_licensing"),
    (189, "Quantity", "Quantified_mass"),
    (279, "Reading", "Reading_perception"),
    (226, "Reciprocality_focus", "Asymmetric_reciprocality"),
    (227, "Reciprocality_subordinate_event", "Symmetrical_collective_reciprocality"),
    (1923, "Relational_quantity", "Proportional_quantity"),
    (1682, "Resolve_attempt_scenario", "Result_of_attempt_scenario"),
    (2076, "Ruling_legally", "Legal_rulings"),
    (966, "Speed", "Speed_description"),
    (531, "Suspiciousness", "Being_questionable"),
    (1160, "Trajector-Landmark", "Basis_for_attribute"),
    (1892, "Working_on", "Work"),
)
OLD_TO_NEW: dict[str, str] = {old: new for _, old, new in RENAMES}
NEW_NAMES: frozenset[str] = frozenset(new for _, _, new in RENAMES)
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
