"""The server's stall watch (server/stalls.py) sees what holds its event loop: a collector pass,
and a synchronous call, each with when it happened and how much CPU it took."""

from __future__ import annotations

import asyncio
import gc
import time

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
