"""Acceptability scales per language: levels, keys, labels, and which levels count as positive.

FrameBench (Yano and Sasano 2026, section 3.2) rates English entries on a
three-level scale (Unacceptable / Acceptable / Natural) and binarizes it with
Natural = positive for the filter; other languages use a binary scale.
Add a language by adding an entry to :data:`SCALES` (keys must not clash
with the app's other keys: 1-4, s, c, q, enter, arrows).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One acceptability level: the key that selects it, its stored name, its label, and its binarized value."""

    key: str
    name: str
    label: str
    positive: bool


@dataclass(frozen=True)
class Scale:
    """An ordered acceptability scale (worst first)."""

    name: str
    levels: tuple[Level, ...]

    def by_key(self, key: str) -> Level | None:
        """The level bound to ``key``, or None."""
        return next((lv for lv in self.levels if lv.key == key), None)

    def by_name(self, name: str | None) -> Level | None:
        """The level stored as ``name``, or None."""
        return next((lv for lv in self.levels if lv.name == name), None)


THREE_LEVEL = Scale(
    "three-level",
    (
        Level("u", "unacceptable", "Unacceptable", False),
        Level("a", "acceptable", "Acceptable", False),
        Level("n", "natural", "Natural", True),
    ),
)
BINARY = Scale(
    "binary",
    (
        Level("u", "unacceptable", "Unacceptable", False),
        Level("a", "acceptable", "Acceptable", True),
    ),
)

#: Language code -> scale. Languages not listed use :data:`DEFAULT_SCALE`.
SCALES: dict[str, Scale] = {"en": THREE_LEVEL}
DEFAULT_SCALE = BINARY


def scale_for(language: str | None) -> Scale:
    """The acceptability scale of ``language`` (ISO code such as ``en``, ``ja``, ``fr``)."""
    if not language:
        return DEFAULT_SCALE
    return SCALES.get(language.lower().split("-")[0], DEFAULT_SCALE)
