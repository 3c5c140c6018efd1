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

# Puts a worker at the back of the queue, or keeps their place (a second join from a reload is
# the same entry), with the lobby deadline; returns the join time. Shared by both join paths.
ENQUEUE_SNIPPET = """
local function enqueue(prefix, w, now, deadline)
  local qkey = prefix .. ':lobby:queue'
  local joined = redis.call('ZSCORE', qkey, w)
  if joined then return joined end
  redis.call('ZADD', qkey, now, w)
  redis.call('HSET', prefix .. ':worker:' .. w, 'state', 'lobby', 'match', '', 'dialog', '')
  redis.call('ZADD', prefix .. ':deadlines', deadline, 'lobby|' .. w .. '|-|' .. now)
  return now
end
"""

# One pairing step. First the workers' own joins batched into it: refused while the worker
# is matched or in a dialog, or while new dialogs are paused; otherwise enqueued. Then a
# pass that pairs the oldest present, compatible workers, up to ARGV[10] pairs, each exactly
# as one attempt would on the queue the previous pairs left (FIFO by join time): the first
# pair (i < j) among the oldest `scan` present workers that is not the same worker, not
# recent partners and has an open stimulus neither has seen, which is leased (least
# collected first). Writes each pending match and its handshake deadline in the same step.
# What cannot change inside one script is looked up once: presence, pairs found
# incompatible, and the front of the open stimuli until a lease reorders it.
PAIR_LUA = (
    ENQUEUE_SNIPPET
    + """
local prefix = ARGV[1]
local now = tonumber(ARGV[2])
local scan = tonumber(ARGV[3])
local avoid = ARGV[4] == '1'
local since = tonumber(ARGV[5])
local id_base = ARGV[6]
local coins = ARGV[7]
local hs_at = ARGV[8]
local default_target = tonumber(ARGV[9])
local limit = tonumber(ARGV[10])
local qkey = prefix .. ':lobby:queue'
local open = prefix .. ':stim:open'
local paused = redis.call('EXISTS', prefix .. ':lobby:paused') == 1
-- first the joins batched into this pass: ARGV[11] of them, as (worker, now, deadline)
local joins = {}
for i = 12, 11 + 3 * tonumber(ARGV[11]), 3 do
  local w, at = ARGV[i], ARGV[i + 1]
  local wk = prefix .. ':worker:' .. w
  local state = redis.call('HGET', wk, 'state')
  if state == 'matched' or state == 'dialog' then
    table.insert(joins, 'busy'); table.insert(joins, ''); table.insert(joins, 0)
  elseif paused then
    table.insert(joins, 'paused'); table.insert(joins, ''); table.insert(joins, 0)
  else
    local joined = enqueue(prefix, w, at, ARGV[i + 2])
    table.insert(joins, 'joined'); table.insert(joins, joined); table.insert(joins, redis.call('ZCARD', qkey))
  end
end
local function reply(status, matches)
  local out = {status, #joins / 3}
  for _, v in ipairs(joins) do table.insert(out, v) end
  for _, v in ipairs(matches or {}) do table.insert(out, v) end
  return out
end
if paused then return reply('paused') end
if redis.call('ZCARD', open) == 0 then return reply('no_stimuli') end
local is_present = {}
local function present_now(w)
  local p = is_present[w]
  if p == nil then
    p = redis.call('EXISTS', prefix .. ':presence:' .. w) == 1
    is_present[w] = p
  end
  return p
end
-- the oldest `scan` present workers; absent ones keep their place but must not block those behind
local function window()
  local present, score = {}, {}
  local offset = 0
  while #present < scan and offset < scan * 32 do
    local waiting = redis.call('ZRANGE', qkey, offset, offset + scan - 1, 'WITHSCORES')
    if #waiting == 0 then break end
    for i = 1, #waiting, 2 do
      local w = waiting[i]
      if #present < scan and present_now(w) then
        table.insert(present, w)
        score[w] = waiting[i + 1]
      end
    end
    offset = offset + scan
  end
  return present, score
end
local front = nil  -- the first open stimuli by load, until a lease changes the order
local function open_batch(start)
  if start == 0 then
    if front == nil then front = redis.call('ZRANGE', open, 0, 99) end
    return front
  end
  return redis.call('ZRANGE', open, start, start + 99)
end
local function pick(a, b)
  local seen_a = prefix .. ':worker:' .. a .. ':seen'
  local seen_b = prefix .. ':worker:' .. b .. ':seen'
  local start = 0
  while start < 2000 do
    local batch = open_batch(start)
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
-- pairs with no stimulus or recent partners stay so within this pass (leases only close or
-- reorder open stimuli; with more than the 2,000 that `pick` reads, reordering could matter)
local exact = redis.call('ZCARD', open) <= 2000
local failed = {}
local function find(present)
  for i = 1, #present do
    local a = present[i]
    for j = i + 1, #present do
      local b = present[j]
      local key = a .. '|' .. b
      if not failed[key] then
        local ok = true
        if avoid then
          local t = redis.call('ZSCORE', prefix .. ':worker:' .. a .. ':partners', b)
          if t and tonumber(t) >= since then ok = false end
        end
        local s = ok and pick(a, b)
        if s then return a, b, s end
        if exact then failed[key] = true end
      end
    end
  end
  return nil
end
local out = {}
for n = 1, limit do
  local present, score = window()
  if #present < 2 then break end
  local a, b, s = find(present)
  if not a then break end
  local ba, bb = balance(a), balance(b)
  local q, an = a, b
  if ba > bb or (ba == bb and string.sub(coins, n, n) == '1') then q, an = b, a end
  local load = redis.call('HINCRBY', prefix .. ':stim:load', s, 1)
  local target = tonumber(redis.call('HGET', prefix .. ':stim:target', s)) or default_target
  if load >= target then redis.call('ZREM', open, s) else redis.call('ZADD', open, load, s) end
  front = nil
  redis.call('ZREM', qkey, a, b)
  local match_id = id_base .. string.format('%08x', n)
  local mk = prefix .. ':match:' .. match_id
  redis.call('HSET', mk, 'questioner', q, 'answerer', an, 'stimulus', s,
    'q_joined', score[q], 'a_joined', score[an], 'created', now, 'hs_at', hs_at)
  redis.call('EXPIRE', mk, 86400)
  redis.call('HSET', prefix .. ':worker:' .. q, 'state', 'matched', 'match', match_id)
  redis.call('HSET', prefix .. ':worker:' .. an, 'state', 'matched', 'match', match_id)
  redis.call('ZADD', prefix .. ':deadlines', hs_at, 'handshake|' .. match_id .. '|-|' .. hs_at)
  table.insert(out, match_id)
  table.insert(out, q)
  table.insert(out, an)
  table.insert(out, s)
end
if #out == 0 then return reply('waiting') end
return reply('matched', out)
"""
)

# Marks one side ready; exactly one caller (the second to arrive) gets 'start', with the
# match (questioner, answerer, stimulus, handshake deadline) so the start need not read it.
READY_LUA = """
local mk = ARGV[1] .. ':match:' .. ARGV[2]
if redis.call('EXISTS', mk) == 0 then return {'gone'} end
local m = redis.call('HMGET', mk, 'questioner', 'answerer', 'stimulus', 'hs_at')
if ARGV[3] == m[1] then redis.call('HSET', mk, 'ready_q', '1')
elseif ARGV[3] == m[2] then redis.call('HSET', mk, 'ready_a', '1')
else return {'forbidden'} end
local r = redis.call('HMGET', mk, 'ready_q', 'ready_a')
if r[1] == '1' and r[2] == '1' and redis.call('HSETNX', mk, 'started', '1') == 1 then
  return {'start', m[1], m[2], m[3], m[4] or ''}
end
return {'ready'}
"""

# The end of the handshake: seats both workers in the new dialog, records what pairing reads
# next time (roles, partners, stimuli seen) and the dialog's first deadlines -- only if the
# match still exists (its handshake deadline may have fired meanwhile: then both are queued
# again and the dialog must not start). KEYS: match, dialog, meta, active dialogs,
# deadlines, then questioner's and answerer's where, roles, seen, partners.
# ARGV: match id, questioner, answerer, stimulus, state, meta, now, handshake deadline ('' if
# none), then (score, member) pairs of deadlines to add.
SEAT_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local id, q, a, s, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[7]
redis.call('SET', KEYS[2], ARGV[5])
redis.call('SET', KEYS[3], ARGV[6])
redis.call('ZADD', KEYS[4], now, id)
redis.call('HSET', KEYS[6], 'state', 'dialog', 'dialog', id, 'role', 'questioner')
redis.call('HSET', KEYS[7], 'state', 'dialog', 'dialog', id, 'role', 'answerer')
redis.call('HINCRBY', KEYS[8], 'questioner', 1)
redis.call('HINCRBY', KEYS[9], 'answerer', 1)
redis.call('SADD', KEYS[10], s)
redis.call('SADD', KEYS[11], s)
redis.call('ZADD', KEYS[12], now, a)
redis.call('ZADD', KEYS[13], now, q)
redis.call('DEL', KEYS[1])
if ARGV[8] ~= '' then redis.call('ZREM', KEYS[5], 'handshake|' .. id .. '|-|' .. ARGV[8]) end
for i = 9, #ARGV, 2 do redis.call('ZADD', KEYS[5], ARGV[i], ARGV[i + 1]) end
return 1
"""

# A join in one step (tests enter workers this way; a worker's own join goes through
# PAIR_LUA, which also refuses it while they are paired or new dialogs are paused).
JOIN_LUA = (
    ENQUEUE_SNIPPET
    + """
return enqueue(ARGV[1], ARGV[2], ARGV[3], ARGV[4])
"""
)

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


@dataclass(frozen=True)
class Joined:
    """The answer to a worker's own join: 'joined' (with the join time and how many are then
    waiting), 'busy' (paired or in a dialog) or 'paused' (no new dialogs)."""

    status: str
    joined_at: float = 0.0
    waiting: int = 0


@dataclass(frozen=True)
class Handshake:
    """The answer to a ``ready``: 'start' for the one caller that completes the handshake (with
    the match, so the start needs no read), else 'ready', 'gone' or 'forbidden'."""

    status: str
    info: dict[str, str] | None = None


@dataclass(frozen=True)
class Step:
    """What one pairing step did: the batched joins' answers (in order) and the pairs made;
    ``more`` when it stopped at its limit, so another pass may find more."""

    joined: list[Joined]
    matches: list[Match]
    more: bool


class Lobby:
    # pairs one pairing script makes at most: a burst of joins is paired a batch per round trip.
    # A pair costs Redis about 0.06-0.12 ms (pairing_scan 8-64), so a full pass holds it for
    # 8-15 ms; 32 per pass left a burst of 1,000 joins waiting twice as long (docs/benchmarks.md)
    PASS_PAIRS = 128

    def __init__(self, redis: aioredis.Redis, keys: Keys, settings: Settings) -> None:
        self.redis = redis
        self.keys = keys
        self.settings = settings
        self._pair = redis.register_script(PAIR_LUA)
        self._ready = redis.register_script(READY_LUA)
        self._seat = redis.register_script(SEAT_LUA)
        self._join = redis.register_script(JOIN_LUA)
        self._handshake_fail = redis.register_script(HANDSHAKE_FAIL_LUA)
        self._expire = redis.register_script(LOBBY_EXPIRE_LUA)

    async def join(self, worker: str, now: float | None = None) -> float:
        """Put the worker at the back of the queue (or keep their place); returns join time."""
        now = time.time() if now is None else now
        deadline = now + self.settings.lobby_max_wait_seconds
        return float(await self._join(args=[self.keys.prefix, worker, repr(now), repr(deadline)]))

    async def leave(self, worker: str) -> float | None:
        """Take the worker out of the queue; returns how long they waited, if they were in it."""
        joined = await self.redis.zscore(self.keys.queue, worker)
        removed = await self.redis.zrem(self.keys.queue, worker)
        if not removed:
            return None
        await self.redis.hset(self.keys.where(worker), "state", "idle")
        return time.time() - float(joined or time.time())

    async def pair_once(self, now: float | None = None) -> Match | None:
        """One pair, or None if nobody can be paired now."""
        matches = await self.pair_pass(1, now)
        return matches[0] if matches else None

    async def pair_pass(self, limit: int, now: float | None = None) -> list[Match]:
        """Up to ``limit`` pairs in one atomic step, in the order single attempts would make them."""
        return (await self.step([], limit, now)).matches

    async def step(self, joins: list[str], limit: int, now: float | None = None) -> Step:
        """Workers' own joins (checked as :meth:`enter` checks them), then a pairing pass of up
        to ``limit`` pairs: one round trip and one atomic step for a whole batch."""
        now = time.time() if now is None else now
        s = self.settings
        hs_at = now + s.handshake_seconds
        since = now - s.recent_partner_days * 86400
        args: list[str | int] = [
            self.keys.prefix,
            repr(now),
            s.pairing_scan,
            "1" if s.avoid_recent_partners else "0",
            repr(since),
            uuid.uuid4().hex[:24],  # + an 8-digit counter: 32 hex digits, like a uuid
            "".join(random.choice("01") for _ in range(limit)),
            repr(hs_at),
            s.dialogs_per_stimulus,
            limit,
            len(joins),
        ]
        deadline = repr(now + s.lobby_max_wait_seconds)
        for worker in joins:
            args += [worker, repr(now), deadline]
        reply = await self._pair(args=args)
        n = int(reply[1])
        rows = reply[2 : 2 + 3 * n]
        joined = [
            Joined(st, float(at), int(waiting)) if st == "joined" else Joined(st)
            for st, at, waiting in zip(rows[0::3], rows[1::3], rows[2::3], strict=True)
        ]
        found = reply[2 + 3 * n :]
        matches = [Match(*found[i : i + 4], hs_at) for i in range(0, len(found), 4)]
        return Step(joined, matches, more=len(matches) == limit)

    async def pair_all(self, limit: int = 1000) -> list[Match]:
        """Everyone who can be paired now, a pass of up to :attr:`PASS_PAIRS` per round trip."""
        matches: list[Match] = []
        while len(matches) < limit:
            wanted = min(self.PASS_PAIRS, limit - len(matches))
            made = await self.pair_pass(wanted)
            matches += made
            if len(made) < wanted:
                break
        return matches

    async def ready(self, match_id: str, worker: str) -> str:
        """'start' for the one caller that completes the handshake, else 'ready'/'gone'/'forbidden'."""
        return (await self.handshake(match_id, worker)).status

    async def handshake(self, match_id: str, worker: str) -> Handshake:
        reply = await self._ready(args=[self.keys.prefix, match_id, worker])
        if reply[0] != "start":
            return Handshake(reply[0])
        q, a, stimulus, hs_at = reply[1:5]
        return Handshake("start", {"questioner": q, "answerer": a, "stimulus": stimulus, "hs_at": hs_at})

    async def seat(
        self,
        match_id: str,
        info: dict[str, str],
        state_json: str,
        meta_json: str,
        now: float,
        deadlines: dict[str, float],
    ) -> bool:
        """Start the matched pair's dialog in Redis, all or nothing; False if the match is gone."""
        k = self.keys
        q, a = info["questioner"], info["answerer"]
        keys = [k.match(match_id), k.dialog(match_id), k.dialog_meta(match_id), k.active_dialogs, k.deadlines]
        keys += [k.where(q), k.where(a), k.roles(q), k.roles(a), k.seen(q), k.seen(a)]
        keys += [k.partners(q), k.partners(a)]
        args: list[str] = [match_id, q, a, info["stimulus"], state_json, meta_json, repr(now)]
        args.append(info.get("hs_at") or "")
        for member, at in deadlines.items():
            args += [repr(at), member]
        return bool(await self._seat(keys=keys, args=args))

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
