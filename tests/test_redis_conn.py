"""The Redis client every process uses: its pool opens connections ahead of a burst."""

from __future__ import annotations

import uuid

from server.redis_conn import connect, warm


async def test_warm_opens_idle_connections_that_commands_then_reuse(redis_url: str):
    name = f"warm-{uuid.uuid4().hex[:8]}"
    redis = connect(redis_url)
    try:
        assert await warm(redis, 6) == 6
        pool = redis.connection_pool
        assert len(pool._available_connections) == 6 and not pool._in_use_connections
        for conn in pool._available_connections:  # opened, not just created
            assert conn.is_connected
            await conn.send_command("CLIENT", "SETNAME", name)
            assert await conn.read_response() == "OK"
        assert sum(c["name"] == name for c in await redis.client_list()) == 6
        assert await redis.ping()
        assert len(pool._available_connections) + len(pool._in_use_connections) == 6  # no new one
    finally:
        await redis.aclose()
