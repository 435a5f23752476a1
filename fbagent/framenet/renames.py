"""Frames that Berkeley FrameNet renamed between releases 1.5 and 1.7 (same frame id, new name).

Derived from the releases themselves: the frames whose ``ID`` in FrameNet 1.5's ``frameIndex.xml`` is the id of a
frame with another name in FrameNet 1.7 (the frame-to-id table the Korean FrameNet ships as
``resource/info/FN17_frame2id.json``, taken from 1.7's ``frameIndex.xml``): 46 frames. Frame ids are stable across
releases, so a lexicon that names 1.7 frames (Korean, Latvian, Turkish) finds its frames in an imported 1.5 by id
where it has ids, and by this table where it has only names.
"""

from __future__ import annotations

#: (FrameNet 1.5 name, FrameNet 1.7 name, frame id), by 1.5 name
RENAMES_15_17: tuple[tuple[str, str, int], ...] = (
    ('Adorning', 'Distributed_position', 76),
    ('Altered_phase', 'Substance_by_phase', 385),
    ('Appearance', 'Give_impression', 67),
    ('Attempting_scenario', 'Attempting_and_resolving_scenario', 1683),
    ('Be_in_control', 'Being_in_control', 1800),
    ('Become_silent', 'Becoming_silent', 731),
    ('Becoming', 'Transition_to_state', 1070),
    ('Being_strong', 'Level_of_force_resistance', 2061),
    ('Birth', 'Giving_birth', 281),
    ('Change_of_state_endstate', 'Event_endstate', 186),
    ('Change_of_state_initial_state', 'Event_initial_state', 185),
    ('Change_of_state_scenario', 'Dynamic_situation_scenario', 184),
    ('Clarity_of_resolution', 'Margin_of_resolution', 1562),
    ('Containment', 'Containment_scenario', 1174),
    ('Containment_relation_IS', 'Being_contained_within', 1176),
    ('Defend', 'Defending', 1330),
    ('Deny_permission', 'Deny_or_grant_permission', 520),
    ('Duration_attribute', 'Duration_description', 79),
    ("Employee's_scenario", 'Employee_scenario', 1061),
    ("Employer's_scenario", 'Employer_scenario', 1062),
    ('Exertive_force', 'Level_of_force_exertion', 1563),
    ('Exhaust_resource', 'Expend_resource', 2220),
    ('Hear', 'Hearsay', 37),
    ('Import_export', 'Import_export_scenario', 422),
    ('In', 'Interior_profile_relation', 1178),
    ('Inchoative_attaching', 'Becoming_attached', 306),
    ('Inchoative_change_of_temperature', 'Change_of_temperature', 797),
    ('Long_or_short_selling', 'Short_selling', 2180),
    ('Observable_body_parts', 'Body_parts', 119),
    ('Place_weight_on', 'Emphasizing', 1542),
    ('Possibilities', 'Alternatives', 1931),
    ('Prevent_from_having', 'Prevent_or_allow_possession', 2056),
    ('Preventing', 'Preventing_or_letting', 516),
    ('Progress', 'Progression', 1340),
    ('Prohibiting', 'Prohibiting_or_licensing', 521),
    ('Quantity', 'Quantified_mass', 189),
    ('Reading', 'Reading_perception', 279),
    ('Reciprocality_focus', 'Asymmetric_reciprocality', 226),
    ('Reciprocality_subordinate_event', 'Symmetrical_collective_reciprocality', 227),
    ('Relational_quantity', 'Proportional_quantity', 1923),
    ('Resolve_attempt_scenario', 'Result_of_attempt_scenario', 1682),
    ('Ruling_legally', 'Legal_rulings', 2076),
    ('Speed', 'Speed_description', 966),
    ('Suspiciousness', 'Being_questionable', 531),
    ('Trajector-Landmark', 'Basis_for_attribute', 1160),
    ('Working_on', 'Work', 1892),
)

#: 1.7 name -> 1.5 name, and 1.5 name -> 1.7 name
OLD_NAME = {new: old for old, new, _ in RENAMES_15_17}
NEW_NAME = {old: new for old, new, _ in RENAMES_15_17}


def other_names(name: str) -> list[str]:
    """The names ``name`` had or has in the other release (``Hearsay`` -> ``["Hear"]``; no rename: ``[]``)."""
    return [n for n in (OLD_NAME.get(name), NEW_NAME.get(name)) if n]
