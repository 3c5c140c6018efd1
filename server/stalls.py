"""Watch a process's event loop for stalls and time the collector pauses behind them.

One event loop serves every dialog of a server process, so anything that holds it (a pass of
Python's cyclic collector over a large heap, a slow synchronous call) delays every message in
flight by as long; in a load test a stall shows only as a jump in the latency tail. The chat
server logs each stall (app.py), and the bench's load generator records its own
(bench/loadgen.py: a stall of the generator delays the receipt it times, too). Times are
``time.monotonic()``, one clock for every process of the machine. Costs: a timer every
``interval`` seconds and four clock reads per collection (the young generation's run every
~10,000 allocations under the server's thresholds).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Stall:
    """``kind`` "gc" (a collection of generation ``gen``) or "loop" (the loop timer fired late)."""

    kind: str
    at: float  # time.monotonic(): the collection's start, or when the late timer was due
    ms: float  # wall-clock length
    cpu_ms: float  # CPU time of the thread (gc) or the process (loop) meanwhile; far below ms: starved
    gen: int = -1

    def describe(self) -> str:
        what = f"gc generation {self.gen}" if self.kind == "gc" else "event loop held"
        return f"stall: {what} {self.ms:.0f} ms ({self.cpu_ms:.0f} ms of CPU) at monotonic {self.at:.3f}"


@dataclass
class GcPauses:
    """Collections seen per generation: how many, total and longest pause (seconds)."""

    count: list[int] = field(default_factory=lambda: [0, 0, 0])
    total: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    longest: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])


class StallWatch:
    """Records collector pauses of at least ``gc_min`` s and loop stalls of at least ``lag_min`` s
    (the loop's timer firing that much later than asked) in :attr:`stalls` (the latest 1,000),
    and hands each to ``report`` (the server logs them)."""

    def __init__(
        self,
        lag_min: float = 0.1,
        gc_min: float = 0.05,
        interval: float = 0.05,
        report: Callable[[Stall], None] | None = None,
    ) -> None:
        self.lag_min, self.gc_min, self.interval, self.report = lag_min, gc_min, interval, report
        self.pauses = GcPauses()
        self.stalls: collections.deque[Stall] = collections.deque(maxlen=1000)
        self._gc_started = (0.0, 0.0, 0.0)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Hook the collector and start the loop timer (call from the running loop)."""
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _record(self, stall: Stall) -> None:
        self.stalls.append(stall)
        if self.report is not None:
            self.report(stall)

    def _on_gc(self, phase: str, info: dict) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if phase == "start":
            self._gc_started = (now, cpu, time.monotonic())
            return
        took, gen = now - self._gc_started[0], info["generation"]
        pauses = self.pauses
        pauses.count[gen] += 1
        pauses.total[gen] += took
        pauses.longest[gen] = max(pauses.longest[gen], took)
        if took >= self.gc_min:
            cpu_ms = (cpu - self._gc_started[1]) * 1000
            self._record(Stall("gc", self._gc_started[2], took * 1000, cpu_ms, gen))

    async def _watch(self) -> None:
        while True:
            asked, cpu = time.monotonic() + self.interval, time.process_time()
            await asyncio.sleep(self.interval)
            lag = time.monotonic() - asked
            if lag >= self.lag_min:
                cpu_ms = (time.process_time() - cpu) * 1000
                self._record(Stall("loop", asked, lag * 1000, cpu_ms))


def log_stall(stall: Stall) -> None:
    """The server's ``report``: one warning a stall."""
    log.warning(stall.describe())
