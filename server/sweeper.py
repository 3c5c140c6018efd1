"""The clock of the service: fires due deadlines and pairs waiting workers.

Every server process runs one. A due deadline is claimed by pushing its time forward
(``claim_seconds``) before it is handled and removed after, so if the process that
claimed it dies, another process handles it once the claim runs out.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime

from sqlalchemy import update

from server.db.models import Dialog
from server.dialog import protocol as p
from server.dialog.machine import DeadlineFired
from server.dialog.runtime import DialogRuntime
from server.lobby import Joined, Match, Step
from server.redis_conn import FailureStreak, cancel_and_wait
from server.relay import Sender
from server.services import Services

log = logging.getLogger(__name__)

POOL_SYNC_SECONDS = 30.0
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
"""


class Sweeper:
    JOIN_BATCH = 256  # joins one pairing step takes at most (the rest go in the next)

    def __init__(self, services: Services, runtime: DialogRuntime) -> None:
        self.s = services
        self.runtime = runtime
        self._claim = services.redis.register_script(CLAIM_LUA)
        self._task: asyncio.Task[None] | None = None
        self._pairing = False  # a pairing pass is running in this process
        self._pair_wanted = False  # someone joined since it started: run another
        self._joins: list[tuple[str, Sender, asyncio.Future[Joined]]] = []  # for the next pass

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task:
            await cancel_and_wait(self._task)

    async def _loop(self) -> None:
        """Tick every sweep interval; while ticks fail (Redis or the database away), back off up
        to ``redis_conn.MAX_RETRY_SECONDS`` and log one traceback, not one per tick."""
        last_sync = time.monotonic()
        interval = self.s.settings.sweep_interval_seconds
        streak = FailureStreak("sweeper tick", log, interval)
        while True:
            wait = interval
            try:
                await self.tick()
                if time.monotonic() - last_sync > POOL_SYNC_SECONDS:  # stimuli imported meanwhile
                    last_sync = time.monotonic()
                    await self.s.pool.sync_from_db(self.s.sessions, self.s.settings.study)
                streak.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                wait = streak.failed(exc)
            await asyncio.sleep(wait)

    async def tick(self) -> int:
        """Fire what is due and pair who can be paired; returns how many deadlines fired."""
        now = time.time()
        due = await self._claim(
            keys=[self.s.keys.deadlines],
            args=[repr(now), repr(now + self.s.settings.claim_seconds), 200],
        )
        for member in due:
            await self.fire(member)
            await self.s.redis.zrem(self.s.keys.deadlines, member)
        await self.pair()
        return len(due)

    async def join(self, worker: str, reply: Sender) -> Joined:
        """A worker's own ``join_lobby``, batched with the joins that arrive meanwhile into the
        next pairing pass of this process (one round trip for all of them and the pass). A
        worker who joined gets their ``lobby`` frame through ``reply`` before any ``matched``."""
        done: asyncio.Future[Joined] = asyncio.get_running_loop().create_future()
        self._joins.append((worker, reply, done))
        await self.pair()
        return await done

    async def pair(self) -> list[Match]:
        """Pair who can be paired, one pass at a time per process: a join that arrives while a
        pass runs waits for the next one (a burst of joins must not start hundreds of
        concurrent scans of the same queue, nor hundreds of Redis round trips). Returns the
        matches this call made."""
        self._pair_wanted = True
        if self._pairing:
            return []
        self._pairing = True
        made: list[Match] = []
        try:
            while self._pair_wanted or self._joins:
                self._pair_wanted = False
                batch, self._joins = self._joins[: self.JOIN_BATCH], self._joins[self.JOIN_BATCH :]
                try:
                    step = await self.s.lobby.step([w for w, _, _ in batch], self.s.lobby.PASS_PAIRS)
                except BaseException as exc:
                    for _, _, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                    raise
                await self._answer(batch, step)
                self._pair_wanted = self._pair_wanted or step.more
                made += step.matches
        except BaseException as exc:  # nobody is left waiting for a pass that will not come
            waiting, self._joins = self._joins, []
            for _, _, done in waiting:
                if not done.done():
                    done.set_exception(exc if isinstance(exc, Exception) else RuntimeError("pairing stopped"))
            raise
        finally:
            self._pairing = False
        return made

    async def _answer(self, batch: list[tuple[str, Sender, asyncio.Future[Joined]]], step: Step) -> None:
        """``lobby`` frames for the joins, then ``matched`` frames for the pairs."""
        limit = self.s.settings.lobby_max_wait_seconds
        for (_, reply, done), joined in zip(batch, step.joined, strict=True):
            if joined.status == "joined":
                frame = p.LobbyStatus(
                    joined_at=joined.joined_at, expires_at=joined.joined_at + limit, waiting=joined.waiting
                )
                await reply(frame.model_dump_json())
            if not done.done():
                done.set_result(joined)
        frames = []
        for match in step.matches:
            data = p.Matched(match_id=match.match_id, deadline=match.handshake_deadline).model_dump_json()
            frames += [(match.questioner, data), (match.answerer, data)]
        await self.s.hub.send_many(frames)

    async def fire(self, member: str) -> None:
        kind, ident, role, at = member.split("|")
        if kind in ("turn", "form", "grace", "warn"):
            await self.runtime.handle(
                ident,
                lambda now: DeadlineFired(kind, role, float(at), now),  # type: ignore[arg-type]
            )
        elif kind == "final":
            await self.runtime.finish_record(ident)
        elif kind == "handshake":
            for worker in await self.s.lobby.handshake_failed(ident):
                await self.s.send(
                    worker, p.Requeued(reason="Your partner did not join in time; back in the queue.")
                )
            if await self.s.redis.exists(self.s.keys.dialog(ident)):
                return
            async with self.s.sessions() as db:  # a start that crashed half-way
                await db.execute(
                    update(Dialog)
                    .where(Dialog.id == ident, Dialog.status == "in_progress")
                    .values(status="abandoned", end_reason="start_failed", ended_at=datetime.now(UTC))
                )
                await db.commit()
        elif kind == "lobby" and await self.s.lobby.expire(ident, at):
            waited = time.time() - float(at)
            if not await self.s.redis.exists(self.s.keys.presence(ident)):
                # they closed the page and never came back: they left, they did not wait it out
                await self.s.record(ident, "lobby_left", waited_seconds=waited, detail={"departed": True})
                return
            await self.s.record(ident, "lobby_timeout", waited_seconds=waited)
            await self.s.send(
                ident,
                p.LobbyTimeout(
                    message="No partner could be found in time. Thank you for waiting; "
                    "this wait is recorded so you can be paid for it.",
                    waited_seconds=round(waited, 1),
                ),
            )
