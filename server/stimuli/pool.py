"""The stimulus pool in Redis: least-collected first, leased per dialog, never over target.

``stim:load`` counts dialogs completed or running per stimulus; ``stim:open`` holds only
stimuli under their target, scored by load, so pairing picks from its front.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.models import Dialog, Stimulus
from server.keys import Keys

# Lua fragment: give back one lease of stimulus `s` (expects prefix and default_target).
RELEASE_SNIPPET = """
local load = redis.call('HINCRBY', prefix .. ':stim:load', s, -1)
if load < 0 then redis.call('HSET', prefix .. ':stim:load', s, 0); load = 0 end
local target = tonumber(redis.call('HGET', prefix .. ':stim:target', s)) or default_target
if load < target then redis.call('ZADD', prefix .. ':stim:open', load, s) end
"""

RELEASE_LUA = (
    """
local prefix = ARGV[1]
local s = ARGV[2]
local default_target = tonumber(ARGV[3])
if redis.call('HEXISTS', prefix .. ':stim:load', s) == 0 then return 0 end
"""
    + RELEASE_SNIPPET
    + "\nreturn 1\n"
)

# Re-opens or closes a stimulus after its target changed.
RETARGET_LUA = """
local prefix = ARGV[1]
local s = ARGV[2]
local target = tonumber(ARGV[3])
redis.call('HSET', prefix .. ':stim:target', s, target)
local load = tonumber(redis.call('HGET', prefix .. ':stim:load', s)) or 0
if load < target then redis.call('ZADD', prefix .. ':stim:open', load, s)
else redis.call('ZREM', prefix .. ':stim:open', s) end
return load
"""


class StimulusPool:
    def __init__(self, redis: aioredis.Redis, keys: Keys, default_target: int) -> None:
        self.redis = redis
        self.keys = keys
        self.default_target = default_target
        self._release = redis.register_script(RELEASE_LUA)
        self._retarget = redis.register_script(RETARGET_LUA)

    async def add(self, stimulus_id: str, load: int = 0, target: int | None = None) -> None:
        """Make a stimulus available; an existing load (leases in flight) is kept."""
        if await self.redis.hsetnx(self.keys.stim_load, stimulus_id, load):
            effective = target or self.default_target
            if target:
                await self.redis.hset(self.keys.stim_target, stimulus_id, target)
            if load < effective:
                await self.redis.zadd(self.keys.stim_open, {stimulus_id: load})

    async def release(self, stimulus_id: str) -> None:
        await self._release(args=[self.keys.prefix, stimulus_id, self.default_target])

    async def set_target(self, stimulus_id: str, target: int) -> int:
        return int(await self._retarget(args=[self.keys.prefix, stimulus_id, target]))

    async def sync_from_db(self, sessions: async_sessionmaker, study: str) -> int:
        """Load every stimulus into the pool with its collected count (first process wins)."""
        async with sessions() as db:
            counts = dict(
                (
                    await db.execute(
                        select(Dialog.stimulus_id, func.count())
                        .where(Dialog.study == study)
                        .where(Dialog.status.in_(["complete", "in_progress"]))
                        .group_by(Dialog.stimulus_id)
                    )
                ).all()
            )
            rows = (
                await db.execute(select(Stimulus.id, Stimulus.target_dialogs).where(Stimulus.study == study))
            ).all()
        for stimulus_id, target in rows:
            await self.add(stimulus_id, counts.get(stimulus_id, 0), target)
        return len(rows)

    async def progress(self) -> dict[str, int]:
        """Stimuli by collection progress: open (under target) and full."""
        total = await self.redis.hlen(self.keys.stim_load)
        open_ = await self.redis.zcard(self.keys.stim_open)
        return {"total": total, "open": open_, "full": total - open_}
