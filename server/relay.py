"""Frames to workers wherever their socket is: this process directly, others via pub/sub.

Each process pattern-subscribes to the study's worker channels once and forwards frames
for the sockets it holds, so a dialog can span processes and a worker may reconnect to any.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from server.keys import Keys
from server.redis_conn import FailureStreak, cancel_and_wait
from server.script_batch import ScriptBatch

log = logging.getLogger(__name__)
RESUBSCRIBE_SECONDS = 0.1  # first wait before resubscribing; doubled per failure up to 2 s
Sender = Callable[[str], Awaitable[None]]
# PUBLISH as a script, so that concurrent frames for other processes share one pipeline
# (server/script_batch.py): a lone redis-py PUBLISH costs ~70-80 us of CPU, one in a batch ~20 us
PUBLISH_LUA = "return redis.call('PUBLISH', KEYS[1], ARGV[1])"


class Hub:
    def __init__(self, redis: aioredis.Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self.local: dict[str, Sender] = {}
        self._task: asyncio.Task[None] | None = None
        self._pubsub: aioredis.client.PubSub | None = None
        self._channel_prefix = keys.channel("")
        self._publish = ScriptBatch(redis, redis.register_script(PUBLISH_LUA))

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.psubscribe(self._channel_prefix + "*")
        self._task = asyncio.create_task(self._forward())

    async def stop(self) -> None:
        if self._task:
            await cancel_and_wait(self._task)
        if self._pubsub:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    def attach(self, worker: str, sender: Sender) -> None:
        self.local[worker] = sender

    def detach(self, worker: str, sender: Sender) -> None:
        if self.local.get(worker) is sender:
            del self.local[worker]

    async def send(self, worker: str, frame: str) -> None:
        sender = self.local.get(worker)
        if sender is not None:
            await sender(frame)
        else:
            await self._publish(keys=[self.keys.channel(worker)], args=[frame])

    async def send_many(self, frames: list[tuple[str, str]]) -> None:
        """(worker, frame) pairs: local sockets directly, the others' frames published in one
        pipeline (one round trip for a whole pairing step's frames, not one per frame)."""
        remote = []
        for worker, frame in frames:
            sender = self.local.get(worker)
            if sender is not None:
                await sender(frame)
            else:
                remote.append((worker, frame))
        if remote:
            async with self.redis.pipeline(transaction=False) as pipe:
                for worker, frame in remote:
                    pipe.publish(self.keys.channel(worker), frame)
                await pipe.execute()

    async def _forward(self) -> None:
        """Forward the frames published for this process's sockets. When the subscription fails
        (Redis away or restarted), resubscribe with the sweeper's back-off: a retry soon after a
        blip, at most every 2 s during an outage, one traceback per outage rather than per try."""
        assert self._pubsub is not None
        streak = FailureStreak("relay listener", log, RESUBSCRIBE_SECONDS)
        while True:
            try:
                if streak.failures:  # the connection broke: subscribe again on a new one
                    await self._pubsub.psubscribe(self._channel_prefix + "*")
                    streak.succeeded()
                async for msg in self._pubsub.listen():
                    if msg.get("type") != "pmessage":
                        continue
                    worker = msg["channel"][len(self._channel_prefix) :]
                    sender = self.local.get(worker)
                    if sender is not None:
                        await sender(msg["data"])
                # ``listen`` only returns once nothing is subscribed; without this the loop spins
                raise aioredis.ConnectionError("relay subscription lost")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                await asyncio.sleep(streak.failed(exc))
