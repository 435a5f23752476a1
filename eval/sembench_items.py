"""The SemBench data model: an instance (word, target sense, distractors), a k-shot example, a sampled set.

Shared by :mod:`fbagent.eval.sembench` (sampling from a dictionary, the run) and
:mod:`fbagent.eval.sembench_sets` (SemBench's own test-set files), which both build them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fbagent.eval.wordnet import Sense


@dataclass
class Instance:
    """One SemBench item: a word, its target sense, the example shown (mode ``ex``) and four distractors."""

    instance_id: str
    word: str
    pos: str
    target: Sense
    example: str | None
    distractors: dict[str, Sense]
    distractor_similarity: dict[str, float]


@dataclass
class Shot:
    """A solved example for k-shot prompts (gold dictionary data of another word)."""

    word: str
    pos: str
    definition: str
    example: str


@dataclass
class SemBenchData:
    """Sampled instances, shot pool and dictionary description (for the manifest)."""

    instances: list[Instance]
    shots: list[Shot] = field(default_factory=list)
    dictionary: dict = field(default_factory=dict)
