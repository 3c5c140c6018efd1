"""Concurrent calls of one Lua script, sent as pipelines: each caller gets its own reply."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.redis_conn import connect
from server.script_batch import ScriptBatch, pack
from tests.conftest import free_port

# a fresh comment gives the script a SHA that no Redis has loaded yet (the NOSCRIPT path)
SCRIPT = """-- {tag}
if ARGV[1] == 'boom' then return redis.error_reply('asked to fail') end
local n = redis.call('INCR', KEYS[1])
return {{ARGV[1], n}}
"""


@pytest.fixture
async def redis_key(redis_url: str) -> AsyncIterator[tuple[Redis, str]]:
    """A client and a fresh key, deleted afterwards."""
    redis = connect(redis_url)
    key = f"test:batch:{uuid.uuid4().hex}"
    try:
        yield redis, key
    finally:
        await redis.delete(key)
        await redis.aclose()


def fresh_batch(redis: Redis, max_batch: int = 512) -> ScriptBatch:
    return ScriptBatch(redis, redis.register_script(SCRIPT.format(tag=uuid.uuid4().hex)), max_batch)


async def test_concurrent_calls_each_get_their_own_reply(redis_key):
    redis, key = redis_key
    batch = fresh_batch(redis, max_batch=64)
    replies = await asyncio.gather(*(batch(keys=[key], args=[f"call-{i}"]) for i in range(300)))
    assert [r[0] for r in replies] == [f"call-{i}" for i in range(300)]
    assert sorted(r[1] for r in replies) == list(range(1, 301))  # every call ran exactly once
    assert int(await redis.get(key)) == 300
    assert await batch(keys=[key], args=["alone"]) == ["alone", 301]  # a lone call, loaded now


async def test_a_failing_call_fails_alone(redis_key):
    redis, key = redis_key
    batch = fresh_batch(redis)
    args = ["a", "boom", "b"]
    replies = await asyncio.gather(*(batch(keys=[key], args=[a]) for a in args), return_exceptions=True)
    assert replies[0] == ["a", 1] and replies[2] == ["b", 2]
    assert isinstance(replies[1], ResponseError) and "asked to fail" in str(replies[1])


async def test_every_caller_hears_of_a_dead_connection():
    redis = connect(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    try:
        batch = fresh_batch(redis)
        replies = await asyncio.gather(
            *(batch(keys=["k"], args=[str(i)]) for i in range(5)), return_exceptions=True
        )
        assert all(isinstance(r, RedisConnectionError) for r in replies)
    finally:
        await redis.aclose()


async def test_a_silent_redis_times_out():
    """One deadline (the socket timeout) covers the batch's write and replies."""
    silent = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = silent.sockets[0].getsockname()[1]
    redis = connect(f"redis://127.0.0.1:{port}/0?socket_timeout=0.2")
    try:
        batch = fresh_batch(redis)
        with pytest.raises(RedisTimeoutError):
            await asyncio.wait_for(batch(keys=["k"], args=["x"]), 10)
    finally:
        await redis.aclose()
        silent.close()


async def test_calls_made_one_after_another_each_go_out(redis_key):
    """A call made when nothing else waits goes out at the next turn of the event loop."""
    redis, key = redis_key
    batch = fresh_batch(redis)
    for i in range(3):
        assert (await asyncio.wait_for(batch(keys=[key], args=["x"]), 5))[1] == i + 1


def test_commands_are_packed_as_redis_py_packs_them():
    from redis.asyncio.connection import Connection

    conn = Connection()
    sha = "a" * 40
    head = b"$7\r\nEVALSHA\r\n$40\r\n" + sha.encode() + b"\r\n"
    keys = ["k:1", "k:\u00e9"]
    args = ["x" * 7000, 0, 12, -3, 1764124865.123456, "", b"\x00raw", "\u2603 snow"]
    assert pack(head, keys, args) == b"".join(conn.pack_command("EVALSHA", sha, len(keys), *keys, *args))
    with pytest.raises(DataError):
        pack(head, keys, [None])
