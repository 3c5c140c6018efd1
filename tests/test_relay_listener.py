"""The relay's pub/sub listener when Redis drops its connection or goes away: it subscribes again,
backing off like the sweeper, and logs one traceback per outage rather than one per try.

Each test runs its own redis-server (the embedded one), since it kills connections or the server."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from unittest import mock

import pytest

from server.keys import Keys
from server.redis_conn import EmbeddedRedis, connect
from server.relay import Hub


@pytest.fixture
async def hub(tmp_path: Path) -> AsyncIterator[tuple[Hub, EmbeddedRedis]]:
    embedded = EmbeddedRedis(tmp_path / "redis")
    redis = connect(embedded.url)
    hub = Hub(redis, Keys("t" + uuid.uuid4().hex[:10]))
    await hub.start()
    try:
        yield hub, embedded
    finally:
        await hub.stop()
        await redis.aclose()
        embedded.close()


def listener_records(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "server.relay" and r.levelno == level]


async def delivered(hub: Hub, worker: str, frames: asyncio.Queue[str], text: str, within: float) -> bool:
    """Publish ``text`` to the worker's channel until the local socket gets it (frames published
    while the listener is not subscribed are lost, as with any pub/sub)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        await hub.redis.publish(hub.keys.channel(worker), text)
        try:
            if await asyncio.wait_for(frames.get(), 0.3) == text:
                return True
        except TimeoutError:
            pass
    return False


async def test_the_listener_subscribes_again_after_its_connection_is_killed(hub, caplog):
    hub, _ = hub
    frames: asyncio.Queue[str] = asyncio.Queue()
    hub.attach("w1", frames.put)
    caplog.set_level(logging.WARNING, logger="server.relay")
    assert await delivered(hub, "w1", frames, "before", within=10)

    assert await hub.redis.client_kill_filter(_type="pubsub") == 1  # this Redis serves this hub alone
    assert await delivered(hub, "w1", frames, "after", within=20)

    [failed] = listener_records(caplog, logging.ERROR)
    assert failed.exc_info, "the first failure of an outage is logged with its traceback"
    assert any("recovered" in r.getMessage() for r in listener_records(caplog, logging.WARNING))


async def test_the_listener_backs_off_while_redis_is_away(hub, caplog):
    """With Redis gone every try fails at once: the waits between tries double from 0.1 s, so in 4 s
    there are about four (0.2, 0.6, 1.4, 3.0 s), not one per half second, and one traceback."""
    hub, embedded = hub
    caplog.set_level(logging.WARNING, logger="server.relay")
    with mock.patch.object(hub._pubsub, "psubscribe", wraps=hub._pubsub.psubscribe) as tries:
        embedded.close()
        await asyncio.sleep(4)
        assert not hub._task.done(), "the listener gave up"
    assert 2 <= tries.call_count <= 6, tries.call_count
    assert len(listener_records(caplog, logging.ERROR)) == 1
