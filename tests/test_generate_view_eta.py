"""The generate ETA counts only entries that cost LLM calls (issue 22: one uncached entry 70 s, ETA 16 s)."""

from __future__ import annotations

from fbagent.commands.generate_view import UncachedRate
from fbagent.generation.events import Progress


def snap(done, calls, hits, total=10):
    return Progress(done=done, total=total, counts={}, calls=calls, tokens=0, cache_hits=hits)


def test_entries_served_by_the_cache_do_not_shorten_the_eta():
    clock = iter([0.0, 0.5, 1.0, 36.0, 71.0]).__next__
    rate = UncachedRate(clock)
    assert rate.update(snap(0, 0, 0)) is None
    assert rate.update(snap(4, 0, 40)) is None          # 4 entries from the cache in 0.5 s: left out
    assert rate.update(snap(5, 0, 50)) is None          # a fifth one: left out too
    assert rate.update(snap(5, 0, 50)) is None          # 35 s on an entry whose calls are still running
    # its 10 calls end at 71 s: 1 entry in 35 + 35 s of work (the two cache-only intervals left out),
    # 4 entries to go -> 280 s (a rate over all 6 entries would say 71 / 6 * 4 = 47 s)
    assert rate.update(snap(6, 10, 50)) == 70.0 * 4
