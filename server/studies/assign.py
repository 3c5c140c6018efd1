"""Hand study items to raters so every item ends with exactly the requested valid judgments.

The decisions run as Lua scripts inside Redis, so any number of server processes can serve
raters at once without over-assigning an item: an item's *load* (valid judgments plus items
out on a lease) never exceeds the target, and a judgment only counts if its lease was still
held when it came back. The database holds the record (one :class:`Judgment` row per item
and rater, unique), and Redis is rebuilt from it whenever its copy is missing.

Rules enforced here:

- a rater never gets an item twice (the unique row, and a per-rater ``seen`` set), nor two
  items that share a ``pair_key`` (two versions of the same context);
- every ``attention_every`` items (the second, then every ``attention_every`` more) a rater
  gets an attention check with a known answer; a wrong answer excludes the rater from the
  study and invalidates all their judgments, whose items re-open for others;
- a judgment submitted faster than the study's minimum (``study_min_seconds``) is invalid
  and its item re-opens; so does an item whose lease ran out before the answer came back.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import redis.asyncio as aioredis
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.study_models import Judgment, Study, StudyItem
from server.studies.kinds import stored_answer

# Frees expired leases (their items re-open), then picks the next item for a rater.
NEXT_LUA = """
local p = ARGV[1]
local rater = ARGV[2]
local now = tonumber(ARGV[3])
local lease_s = tonumber(ARGV[4])
local target = tonumber(ARGV[5])
local per_rater = tonumber(ARGV[6])
local every = tonumber(ARGV[7])
local scan = tonumber(ARGV[8])
local leases, open, load, pair = p .. ':leases', p .. ':open', p .. ':load', p .. ':pair'
local expired = redis.call('ZRANGEBYSCORE', leases, '-inf', now, 'LIMIT', 0, 200)
for _, m in ipairs(expired) do
  redis.call('ZREM', leases, m)
  local sep = string.find(m, '|', 1, true)
  local item, who = string.sub(m, 1, sep - 1), string.sub(m, sep + 1)
  if redis.call('HEXISTS', load, item) == 1 then
    local n = redis.call('HINCRBY', load, item, -1)
    redis.call('ZADD', open, n, item)
  end
  local who_cur = p .. ':r:' .. who .. ':cur'
  if redis.call('GET', who_cur) == item then redis.call('DEL', who_cur) end
end
if redis.call('SISMEMBER', p .. ':excluded', rater) == 1 then return {'excluded'} end
local rk = p .. ':r:' .. rater
local cur = redis.call('GET', rk .. ':cur')
if cur and redis.call('ZSCORE', leases, cur .. '|' .. rater) then return {'current', cur} end
local served = tonumber(redis.call('GET', rk .. ':served') or '0')
if served >= per_rater then return {'done'} end
local seen, pairs_seen = rk .. ':seen', rk .. ':pairs'
local chosen, check = nil, '0'
if every > 1 and served % every == 1 then
  local checks = redis.call('ZRANGE', p .. ':checks', 0, -1)
  for _, c in ipairs(checks) do
    if redis.call('SISMEMBER', seen, c) == 0 then
      chosen, check = c, '1'
      redis.call('ZINCRBY', p .. ':checks', 1, c)
      break
    end
  end
end
if not chosen then
  local start = 0
  while not chosen and start < scan do
    local batch = redis.call('ZRANGE', open, start, start + 99)
    if #batch == 0 then break end
    for _, item in ipairs(batch) do
      if redis.call('SISMEMBER', seen, item) == 0 then
        local pk = redis.call('HGET', pair, item)
        if not pk or redis.call('SISMEMBER', pairs_seen, pk) == 0 then
          chosen = item
          break
        end
      end
    end
    start = start + 100
  end
  if not chosen then return {'none'} end
  local n = redis.call('HINCRBY', load, chosen, 1)
  if n >= target then redis.call('ZREM', open, chosen) else redis.call('ZADD', open, n, chosen) end
end
redis.call('SADD', seen, chosen)
local pk = redis.call('HGET', pair, chosen)
if pk then redis.call('SADD', pairs_seen, pk) end
redis.call('SET', rk .. ':cur', chosen)
redis.call('INCR', rk .. ':served')
redis.call('ZADD', leases, now + lease_s, chosen .. '|' .. rater)
return {'assigned', chosen, check}
"""

# Takes a returned item back: 'ok' if the rater still held its lease, else 'expired'.
# An invalid answer to a regular item re-opens it; a failed check excludes the rater.
SUBMIT_LUA = """
local p = ARGV[1]
local rater = ARGV[2]
local item = ARGV[3]
local valid = ARGV[4] == '1'
local exclude = ARGV[5] == '1'
local held = redis.call('ZREM', p .. ':leases', item .. '|' .. rater)
local rk = p .. ':r:' .. rater
if redis.call('GET', rk .. ':cur') == item then redis.call('DEL', rk .. ':cur') end
if exclude then redis.call('SADD', p .. ':excluded', rater) end
if held == 0 then return 'expired' end
if not valid and redis.call('HEXISTS', p .. ':load', item) == 1 then
  local n = redis.call('HINCRBY', p .. ':load', item, -1)
  redis.call('ZADD', p .. ':open', n, item)
end
return 'ok'
"""

# Re-opens items whose judgments were invalidated after they had counted.
REOPEN_LUA = """
local p = ARGV[1]
for i = 2, #ARGV do
  local item = ARGV[i]
  if redis.call('HEXISTS', p .. ':load', item) == 1 then
    local n = redis.call('HINCRBY', p .. ':load', item, -1)
    redis.call('ZADD', p .. ':open', n, item)
  end
end
return #ARGV - 1
"""

SCAN_LIMIT = 5000


@dataclass(frozen=True)
class StudyConfig:
    """The parts of a study row the engine needs, read once per request."""

    id: str
    kind: str
    status: str
    target: int
    per_rater: int
    attention_every: int
    min_seconds: float
    lease_seconds: float

    @classmethod
    def of(cls, study: Study, default_min: float, default_lease: float) -> StudyConfig:
        return cls(
            id=study.id,
            kind=study.kind,
            status=study.status,
            target=study.raters_per_item,
            per_rater=study.items_per_rater,
            attention_every=study.attention_every,
            min_seconds=default_min if study.min_seconds is None else study.min_seconds,
            lease_seconds=float((study.config or {}).get("lease_seconds") or default_lease),
        )


@dataclass
class Handout:
    """What :meth:`Assigner.next_item` decided: an item (new or still held), or why there is none."""

    state: str  # assigned | current | done | none | excluded | closed
    item: StudyItem | None = None
    judgment: Judgment | None = None


@dataclass
class Verdict:
    valid: bool
    reason: str | None
    excluded: bool = False


class StudyError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Assigner:
    """The assignment engine of one server process (stateless apart from Redis and the DB)."""

    def __init__(
        self,
        redis: aioredis.Redis,
        sessions: async_sessionmaker,
        namespace: str,
        *,
        min_seconds: float = 3.0,
        lease_seconds: float = 600.0,
    ) -> None:
        self.redis = redis
        self.sessions = sessions
        self.namespace = namespace
        self.min_seconds = min_seconds
        self.lease_seconds = lease_seconds
        self._next = redis.register_script(NEXT_LUA)
        self._submit = redis.register_script(SUBMIT_LUA)
        self._reopen = redis.register_script(REOPEN_LUA)

    def prefix(self, study_id: str) -> str:
        return f"avd:{self.namespace}:sx:{study_id}"

    async def config(self, study_id: str) -> StudyConfig:
        async with self.sessions() as db:
            study = await db.get(Study, study_id)
        if study is None or study.study != self.namespace:
            raise StudyError(404, "Unknown study.")
        return StudyConfig.of(study, self.min_seconds, self.lease_seconds)

    # ------------------------------------------------------------------ Redis copy of the DB

    async def ensure_loaded(self, cfg: StudyConfig) -> None:
        """Build the Redis state of a study from the database once (one loader at a time)."""
        p = self.prefix(cfg.id)
        for _ in range(400):
            if await self.redis.exists(p + ":ready"):
                return
            if await self.redis.set(p + ":loading", "1", nx=True, ex=30):
                try:
                    await self._load(cfg)
                finally:
                    await self.redis.delete(p + ":loading")
                return
            await asyncio.sleep(0.05)
        raise StudyError(503, "The study is starting up; try again in a moment.")

    async def _load(self, cfg: StudyConfig) -> None:
        p = self.prefix(cfg.id)
        now = datetime.now(UTC)
        lease_cut = now - timedelta(seconds=cfg.lease_seconds)
        async with self.sessions() as db:
            items = (await db.execute(select(StudyItem).where(StudyItem.study_id == cfg.id))).scalars().all()
            judgments = (
                (await db.execute(select(Judgment).where(Judgment.study_id == cfg.id))).scalars().all()
            )
        load: dict[str, int] = {i.id: 0 for i in items if not i.is_attention}
        pair = {i.id: i.pair_key for i in items if i.pair_key}
        checks = {i.id: 0 for i in items if i.is_attention}
        leases: dict[str, float] = {}
        per_rater: dict[str, list[Judgment]] = {}
        excluded: set[str] = set()
        for j in judgments:
            per_rater.setdefault(j.rater_id, []).append(j)
            if j.reason == "failed_attention_check":
                excluded.add(j.rater_id)
            started = _aware(j.started_at)
            in_flight = j.submitted_at is None and started > lease_cut
            if j.item_id in load and (j.valid or in_flight):
                load[j.item_id] += 1
            if j.item_id in checks:
                checks[j.item_id] += 1
            if in_flight:
                leases[f"{j.item_id}|{j.rater_id}"] = started.timestamp() + cfg.lease_seconds
        async with self.redis.pipeline(transaction=True) as pipe:
            keys = [p + k for k in (":open", ":load", ":pair", ":checks", ":leases", ":excluded")]
            pipe.delete(*keys)
            if load:
                pipe.hset(p + ":load", mapping=load)
                open_items = {i: n for i, n in load.items() if n < cfg.target}
                if open_items:
                    pipe.zadd(p + ":open", open_items)
            if pair:
                pipe.hset(p + ":pair", mapping=pair)
            if checks:
                pipe.zadd(p + ":checks", checks)
            if leases:
                pipe.zadd(p + ":leases", leases)
            if excluded:
                pipe.sadd(p + ":excluded", *excluded)
            for rater, rows in per_rater.items():
                rk = f"{p}:r:{rater}"
                pipe.delete(rk + ":seen", rk + ":pairs", rk + ":cur")
                pipe.sadd(rk + ":seen", *[j.item_id for j in rows])
                pairs = {pair[j.item_id] for j in rows if j.item_id in pair}
                if pairs:
                    pipe.sadd(rk + ":pairs", *pairs)
                pipe.set(rk + ":served", len(rows))
                held = [j for j in rows if f"{j.item_id}|{j.rater_id}" in leases]
                if held:
                    pipe.set(rk + ":cur", held[-1].item_id)
            pipe.set(p + ":ready", "1")
            await pipe.execute()

    async def forget(self, study_id: str) -> None:
        """Drop the Redis copy (it is rebuilt from the database on the next request)."""
        await self.redis.delete(self.prefix(study_id) + ":ready")

    # ------------------------------------------------------------------ rater actions

    async def next_item(self, study_id: str, rater: str) -> Handout:
        """The item this rater should judge now (the one they hold, or a new one)."""
        cfg = await self.config(study_id)
        if cfg.status != "open":
            return Handout("closed")
        await self.ensure_loaded(cfg)
        now = time.time()
        result = await self._next(
            args=[
                self.prefix(cfg.id),
                rater,
                repr(now),
                repr(cfg.lease_seconds),
                cfg.target,
                cfg.per_rater,
                cfg.attention_every,
                SCAN_LIMIT,
            ]
        )
        state = result[0]
        if state not in ("assigned", "current"):
            return Handout(state)
        item_id = result[1]
        async with self.sessions() as db:
            item = await db.get(StudyItem, item_id)
            judgment = await db.scalar(
                select(Judgment).where(Judgment.item_id == item_id, Judgment.rater_id == rater)
            )
            if judgment is None:
                judgment = Judgment(
                    study_id=cfg.id,
                    item_id=item_id,
                    rater_id=rater,
                    started_at=datetime.fromtimestamp(now, UTC),
                    shown=shown_for(cfg.kind, item, rater) if item else {},
                )
                db.add(judgment)
                try:
                    await db.commit()
                except IntegrityError:  # the same rater in two tabs raced; keep the first row
                    await db.rollback()
                    judgment = await db.scalar(
                        select(Judgment).where(Judgment.item_id == item_id, Judgment.rater_id == rater)
                    )
        return Handout(state, item, judgment)

    async def submit(self, study_id: str, rater: str, item_id: str, answer: str) -> Verdict:
        """Record an answer (as shown on the page) and decide whether it counts.

        Invalid when it fails an attention check (the rater is then excluded), came faster
        than the study's minimum, or came back after its lease ran out.
        """
        cfg = await self.config(study_id)
        await self.ensure_loaded(cfg)
        now = datetime.now(UTC)
        async with self.sessions() as db:
            row = await db.scalar(
                select(Judgment).where(
                    Judgment.study_id == cfg.id, Judgment.item_id == item_id, Judgment.rater_id == rater
                )
            )
            if row is None:
                raise StudyError(404, "This item was not given to you.")
            if row.submitted_at is not None:
                raise StudyError(409, "You already answered this item.")
            item = await db.get(StudyItem, item_id)
        assert item is not None
        try:
            answer = stored_answer(cfg.kind, answer, item, row)
        except ValueError as exc:
            raise StudyError(422, str(exc)) from exc
        seconds = (now - _aware(row.started_at)).total_seconds()
        valid, reason, exclude = True, None, False
        if item.is_attention:
            if answer != item.known_answer:
                valid, reason, exclude = False, "failed_attention_check", True
        elif seconds < cfg.min_seconds:
            valid, reason = False, "too_fast"
        state = await self._submit(
            args=[self.prefix(cfg.id), rater, item_id, "1" if valid else "0", int(exclude)]
        )
        if state == "expired" and valid:
            valid, reason = False, "lease_expired"
        async with self.sessions() as db:
            await db.execute(
                update(Judgment)
                .where(Judgment.id == row.id)
                .values(answer=answer, submitted_at=now, valid=valid, reason=reason)
            )
            await db.commit()
        if exclude:
            await self.exclude(cfg, rater)
        return Verdict(valid, reason, exclude)

    async def exclude(self, cfg: StudyConfig, rater: str) -> list[str]:
        """Invalidate every counted judgment of a rater and re-open those items."""
        async with self.sessions() as db:
            rows = (
                await db.execute(
                    select(Judgment.id, Judgment.item_id)
                    .join(StudyItem, StudyItem.id == Judgment.item_id)
                    .where(
                        Judgment.study_id == cfg.id,
                        Judgment.rater_id == rater,
                        Judgment.valid.is_(True),
                        StudyItem.is_attention.is_(False),
                    )
                )
            ).all()
            if rows:
                await db.execute(
                    update(Judgment)
                    .where(Judgment.id.in_([r.id for r in rows]))
                    .values(valid=False, reason="rater_excluded")
                )
                await db.commit()
        items = [r.item_id for r in rows]
        if items:
            await self._reopen(args=[self.prefix(cfg.id), *items])
        return items

    async def progress(self, study_id: str, rater: str) -> dict[str, int]:
        """How many items this rater has answered, and the most they can get."""
        cfg = await self.config(study_id)
        async with self.sessions() as db:
            answered = await db.scalar(
                select(func.count())
                .select_from(Judgment)
                .where(
                    Judgment.study_id == study_id,
                    Judgment.rater_id == rater,
                    Judgment.submitted_at.is_not(None),
                )
            )
        return {"answered": int(answered or 0), "limit": cfg.per_rater}


def shown_for(kind: str, item: StudyItem, rater: str) -> dict[str, Any]:
    """Per-rater presentation: the order of the two reactions of a preference item.

    Stable for one (item, rater), so a reload shows the same order; balanced over raters.
    """
    if kind != "preference":
        return {}
    import hashlib

    flip = hashlib.sha256(f"{item.id}:{rater}".encode()).digest()[0] & 1
    return {"order": ["b", "a"] if flip else ["a", "b"]}


def _aware(value: datetime) -> datetime:
    """SQLite returns naive datetimes (UTC); PostgreSQL aware ones."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)
