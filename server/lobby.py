"""The lobby: who is waiting, atomic pairing, the join handshake, and the lobby limit.

All decisions run as Lua scripts inside Redis, so any number of server processes can
pair workers at the same time without two of them taking the same worker or stimulus.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass

import redis.asyncio as aioredis

from server.keys import Keys
from server.settings import Settings
from server.stimuli.pool import RELEASE_SNIPPET

# Pairs the oldest present, compatible workers and leases the least-collected stimulus
# neither has seen. Writes the pending match and its handshake deadline in the same step.
PAIR_LUA = """
local prefix = ARGV[1]
local now = tonumber(ARGV[2])
local scan = tonumber(ARGV[3])
local avoid = ARGV[4] == '1'
local since = tonumber(ARGV[5])
local match_id = ARGV[6]
local coin = tonumber(ARGV[7])
local hs_at = ARGV[8]
local default_target = tonumber(ARGV[9])
local qkey = prefix .. ':lobby:queue'
local open = prefix .. ':stim:open'
if redis.call('EXISTS', prefix .. ':lobby:paused') == 1 then return {'paused'} end
if redis.call('ZCARD', open) == 0 then return {'no_stimuli'} end
-- the oldest `scan` present workers; absent ones keep their place but must not block those behind
local present, score = {}, {}
local offset = 0
while #present < scan and offset < scan * 32 do
  local waiting = redis.call('ZRANGE', qkey, offset, offset + scan - 1, 'WITHSCORES')
  if #waiting == 0 then break end
  for i = 1, #waiting, 2 do
    local w = waiting[i]
    if #present < scan and redis.call('EXISTS', prefix .. ':presence:' .. w) == 1 then
      table.insert(present, w)
      score[w] = waiting[i + 1]
    end
  end
  offset = offset + scan
end
if #present < 2 then return {'waiting'} end
local function pick(a, b)
  local seen_a = prefix .. ':worker:' .. a .. ':seen'
  local seen_b = prefix .. ':worker:' .. b .. ':seen'
  local start = 0
  while start < 2000 do
    local batch = redis.call('ZRANGE', open, start, start + 99)
    if #batch == 0 then return nil end
    for _, s in ipairs(batch) do
      if redis.call('SISMEMBER', seen_a, s) == 0 and redis.call('SISMEMBER', seen_b, s) == 0 then
        return s
      end
    end
    start = start + 100
  end
  return nil
end
local function balance(w)
  local h = redis.call('HMGET', prefix .. ':worker:' .. w .. ':roles', 'questioner', 'answerer')
  return (tonumber(h[1]) or 0) - (tonumber(h[2]) or 0)
end
for i = 1, #present do
  local a = present[i]
  for j = i + 1, #present do
    local b = present[j]
    local ok = true
    if avoid then
      local t = redis.call('ZSCORE', prefix .. ':worker:' .. a .. ':partners', b)
      if t and tonumber(t) >= since then ok = false end
    end
    local s = ok and pick(a, b)
    if s then
      local ba, bb = balance(a), balance(b)
      local q, an = a, b
      if ba > bb or (ba == bb and coin == 1) then q, an = b, a end
      local load = redis.call('HINCRBY', prefix .. ':stim:load', s, 1)
      local target = tonumber(redis.call('HGET', prefix .. ':stim:target', s)) or default_target
      if load >= target then redis.call('ZREM', open, s) else redis.call('ZADD', open, load, s) end
      redis.call('ZREM', qkey, a, b)
      local mk = prefix .. ':match:' .. match_id
      redis.call('HSET', mk, 'questioner', q, 'answerer', an, 'stimulus', s,
        'q_joined', score[q], 'a_joined', score[an], 'created', now, 'hs_at', hs_at)
      redis.call('EXPIRE', mk, 86400)
      redis.call('HSET', prefix .. ':worker:' .. q, 'state', 'matched', 'match', match_id)
      redis.call('HSET', prefix .. ':worker:' .. an, 'state', 'matched', 'match', match_id)
      redis.call('ZADD', prefix .. ':deadlines', hs_at, 'handshake|' .. match_id .. '|-|' .. hs_at)
      return {'matched', q, an, s}
    end
  end
end
return {'waiting'}
"""

# Marks one side ready; exactly one caller (the second to arrive) gets 'start'.
READY_LUA = """
local mk = ARGV[1] .. ':match:' .. ARGV[2]
if redis.call('EXISTS', mk) == 0 then return 'gone' end
local q = redis.call('HGET', mk, 'questioner')
local a = redis.call('HGET', mk, 'answerer')
if ARGV[3] == q then redis.call('HSET', mk, 'ready_q', '1')
elseif ARGV[3] == a then redis.call('HSET', mk, 'ready_a', '1')
else return 'forbidden' end
local r = redis.call('HMGET', mk, 'ready_q', 'ready_a')
if r[1] == '1' and r[2] == '1' and redis.call('HSETNX', mk, 'started', '1') == 1 then
  return 'start'
end
return 'ready'
"""

# A handshake that did not complete in time: both workers go back to the front of the
# queue with their original join time, and the stimulus lease is returned.
HANDSHAKE_FAIL_LUA = (
    """
local prefix = ARGV[1]
local match_id = ARGV[2]
local default_target = tonumber(ARGV[3])
local mk = prefix .. ':match:' .. match_id
if redis.call('EXISTS', mk) == 0 then return {} end
if redis.call('EXISTS', prefix .. ':dialog:' .. match_id) == 1 then
  redis.call('DEL', mk)
  return {}
end
local m = redis.call('HMGET', mk, 'questioner', 'answerer', 'stimulus', 'q_joined', 'a_joined')
local s = m[3]
"""
    + RELEASE_SNIPPET
    + """
local back = {}
for i = 1, 2 do
  local w = m[i]
  local wk = prefix .. ':worker:' .. w
  if redis.call('HGET', wk, 'match') == match_id and redis.call('HGET', wk, 'state') == 'matched' then
    redis.call('ZADD', prefix .. ':lobby:queue', m[i + 3], w)
    redis.call('HSET', wk, 'state', 'lobby')
    table.insert(back, w)
    table.insert(back, m[i + 3])
  end
end
redis.call('DEL', mk)
return back
"""
)

# The lobby limit: only releases the worker if they are still waiting from that join.
LOBBY_EXPIRE_LUA = """
local prefix = ARGV[1]
local w = ARGV[2]
local score = redis.call('ZSCORE', prefix .. ':lobby:queue', w)
if not score or math.abs(tonumber(score) - tonumber(ARGV[3])) > 0.001 then return 0 end
redis.call('ZREM', prefix .. ':lobby:queue', w)
redis.call('HSET', prefix .. ':worker:' .. w, 'state', 'idle')
return 1
"""


@dataclass(frozen=True)
class Match:
    match_id: str
    questioner: str
    answerer: str
    stimulus_id: str
    handshake_deadline: float


class Lobby:
    def __init__(self, redis: aioredis.Redis, keys: Keys, settings: Settings) -> None:
        self.redis = redis
        self.keys = keys
        self.settings = settings
        self._pair = redis.register_script(PAIR_LUA)
        self._ready = redis.register_script(READY_LUA)
        self._handshake_fail = redis.register_script(HANDSHAKE_FAIL_LUA)
        self._expire = redis.register_script(LOBBY_EXPIRE_LUA)

    async def join(self, worker: str, now: float | None = None) -> float:
        """Put the worker at the back of the queue (or keep their place); returns join time."""
        now = time.time() if now is None else now
        existing = await self.redis.zscore(self.keys.queue, worker)
        if existing is not None:
            return float(existing)
        deadline = now + self.settings.lobby_max_wait_seconds
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(self.keys.queue, {worker: now})
            pipe.hset(self.keys.where(worker), mapping={"state": "lobby", "match": "", "dialog": ""})
            pipe.zadd(self.keys.deadlines, {f"lobby|{worker}|-|{now!r}": deadline})
            await pipe.execute()
        return now

    async def leave(self, worker: str) -> float | None:
        """Take the worker out of the queue; returns how long they waited, if they were in it."""
        joined = await self.redis.zscore(self.keys.queue, worker)
        removed = await self.redis.zrem(self.keys.queue, worker)
        if not removed:
            return None
        await self.redis.hset(self.keys.where(worker), "state", "idle")
        return time.time() - float(joined or time.time())

    async def pair_once(self, now: float | None = None) -> Match | None:
        now = time.time() if now is None else now
        s = self.settings
        match_id = uuid.uuid4().hex
        hs_at = now + s.handshake_seconds
        since = now - s.recent_partner_days * 86400
        result = await self._pair(
            args=[
                self.keys.prefix,
                repr(now),
                s.pairing_scan,
                "1" if s.avoid_recent_partners else "0",
                repr(since),
                match_id,
                random.randint(0, 1),
                repr(hs_at),
                s.dialogs_per_stimulus,
            ]
        )
        if not result or result[0] != "matched":
            return None
        return Match(match_id, result[1], result[2], result[3], hs_at)

    async def pair_all(self, limit: int = 1000) -> list[Match]:
        matches: list[Match] = []
        while len(matches) < limit:
            match = await self.pair_once()
            if match is None:
                break
            matches.append(match)
        return matches

    async def ready(self, match_id: str, worker: str) -> str:
        """'start' for the one caller that completes the handshake, else 'ready'/'gone'."""
        return await self._ready(args=[self.keys.prefix, match_id, worker])

    async def match_info(self, match_id: str) -> dict[str, str]:
        return await self.redis.hgetall(self.keys.match(match_id))

    async def handshake_failed(self, match_id: str) -> list[str]:
        """Requeue both workers of a stalled match; returns the workers put back."""
        back = await self._handshake_fail(
            args=[self.keys.prefix, match_id, self.settings.dialogs_per_stimulus]
        )
        workers = back[0::2]
        now = time.time()
        for worker, joined in zip(workers, back[1::2], strict=True):
            at = max(float(joined) + self.settings.lobby_max_wait_seconds, now + 30)
            await self.redis.zadd(self.keys.deadlines, {f"lobby|{worker}|-|{joined}": at})
        return workers

    async def expire(self, worker: str, joined: str) -> bool:
        return bool(await self._expire(args=[self.keys.prefix, worker, joined]))

    async def waiting(self) -> int:
        return await self.redis.zcard(self.keys.queue)
