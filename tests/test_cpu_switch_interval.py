"""fbagent.generation.workers.short_switch_interval: the GIL is handed over after 0.5 ms (not 5 ms) while entries
run, so that the checks' worker thread holds up the event loop thread for a tenth as long; the previous interval
back afterwards (also after an error); never raised above what the process set."""

from __future__ import annotations

import sys

import pytest

from fbagent.generation.workers import SWITCH_INTERVAL_S, short_switch_interval


def test_the_switch_interval_is_short_for_the_body_and_restored():
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)   # CPython's default
        with short_switch_interval():
            assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_S, abs=2e-6) == pytest.approx(0.0005, abs=2e-6)
        assert sys.getswitchinterval() == pytest.approx(0.005, abs=2e-6)
        with pytest.raises(RuntimeError), short_switch_interval(0.001):
            assert sys.getswitchinterval() == pytest.approx(0.001, abs=2e-6)
            raise RuntimeError
        assert sys.getswitchinterval() == pytest.approx(0.005, abs=2e-6)
        sys.setswitchinterval(0.0001)   # a process that chose a shorter one keeps it
        with short_switch_interval():
            assert sys.getswitchinterval() == pytest.approx(0.0001, abs=2e-6)
        assert sys.getswitchinterval() == pytest.approx(0.0001, abs=2e-6)
    finally:
        sys.setswitchinterval(before)
