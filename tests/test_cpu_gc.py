"""fbagent.generation.workers.young_generation_threshold: a higher gen-0 threshold while entries run,
the previous thresholds back afterwards (also after an error)."""

from __future__ import annotations

import gc

import pytest

from fbagent.generation.workers import YOUNG_GC_THRESHOLD, young_generation_threshold


def test_the_young_generation_threshold_is_raised_for_the_body_and_restored():
    before = gc.get_threshold()
    with young_generation_threshold():
        inside = gc.get_threshold()
    assert inside == (max(before[0], YOUNG_GC_THRESHOLD), *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), young_generation_threshold(50_000):
        assert gc.get_threshold()[0] == max(before[0], 50_000)
        raise RuntimeError
    assert gc.get_threshold() == before
