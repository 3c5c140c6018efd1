"""The server's stall watch (server/stalls.py) sees what holds its event loop: a collector pass,
and a synchronous call, each with when it happened and how much CPU it took."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from server.stalls import StallWatch


async def test_a_blocked_loop_and_a_collection_are_recorded():
    reported = []
    watch = StallWatch(lag_min=0.1, gc_min=0.0, interval=0.01, report=reported.append)
    watch.start()
    try:
        await asyncio.sleep(0.05)  # the timer runs
        before = time.monotonic()
        time.sleep(0.3)  # a synchronous call holding the loop
        await asyncio.sleep(0.05)
        gc.collect()
    finally:
        await watch.stop()
    loop = [s for s in watch.stalls if s.kind == "loop"]
    assert loop and loop[0].ms >= 100 and loop[0].at >= before - 0.05, watch.stalls
    full = [s for s in watch.stalls if s.kind == "gc" and s.gen == 2]
    assert full and watch.pauses.count[2] >= 1
    assert reported == list(watch.stalls)
    assert "event loop held" in loop[0].describe() and "gc generation 2" in full[0].describe()
    count = watch.pauses.count[2]
    gc.collect()  # stopped: the collector is no longer watched
    assert watch.pauses.count[2] == count and gc.callbacks.count(watch._on_gc) == 0


async def test_the_server_serves_with_its_collector_settings(settings_factory):
    """The thresholds and the pause logged from (settings ``gc_thresholds``, ``stall_gc_ms``; by
    default ``GC_THRESHOLDS``) hold while the server serves, and the previous ones after."""
    from server.app import GC_THRESHOLDS, create_app

    before = gc.get_threshold()
    try:
        for given, expected in (((5_000, 2, 20), (5_000, 2, 20)), (None, GC_THRESHOLDS)):
            app = create_app(settings_factory(gc_thresholds=given, stall_gc_ms=7))
            async with app.router.lifespan_context(app):
                assert gc.get_threshold() == expected
                assert app.state.stalls.gc_min == pytest.approx(0.007)
            assert gc.get_threshold() == before
    finally:
        gc.unfreeze()  # the server froze this test process's heap


def test_young_passes_are_short_and_the_middle_generation_keeps_its_cadence():
    """Under a paced load nearly every object a message leaves outlives the next young pass, so a
    young pass's length follows its threshold: small, so that no pass holds the loop long (a pass
    of the old 10,000 took 9-18 ms of CPU at 500 pairs), and as many young passes to a middle one
    as keep the middle (and full) passes as rare as before (every 100,000 allocations net of frees:
    docs/benchmarks.md, sessions 8 and 17)."""
    from server.app import GC_THRESHOLDS

    young, middle, old = GC_THRESHOLDS
    assert young <= 2_000
    assert young * middle == 100_000 and old == 10
