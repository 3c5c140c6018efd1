"""The clock of the service: fires due deadlines and pairs waiting workers.

Every server process runs one. A due deadline is claimed by pushing its time forward
(``claim_seconds``) before it is handled and removed after, so if the process that
claimed it dies, another process handles it once the claim runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime

from sqlalchemy import update

from server.db.models import Dialog
from server.dialog import protocol as p
from server.dialog.machine import DeadlineFired
from server.dialog.runtime import DialogRuntime
from server.lobby import Match
from server.services import Services

log = logging.getLogger(__name__)

POOL_SYNC_SECONDS = 30.0
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
"""


class Sweeper:
    def __init__(self, services: Services, runtime: DialogRuntime) -> None:
        self.s = services
        self.runtime = runtime
        self._claim = services.redis.register_script(CLAIM_LUA)
        self._task: asyncio.Task[None] | None = None
        self._pairing = False  # a pairing pass is running in this process
        self._pair_wanted = False  # someone joined since it started: run another

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        last_sync = time.monotonic()
        while True:
            try:
                await self.tick()
                if time.monotonic() - last_sync > POOL_SYNC_SECONDS:  # stimuli imported meanwhile
                    last_sync = time.monotonic()
                    await self.s.pool.sync_from_db(self.s.sessions, self.s.settings.study)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweeper tick failed")
            await asyncio.sleep(self.s.settings.sweep_interval_seconds)

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

    async def pair(self) -> list[Match]:
        """Pair who can be paired, one pass at a time per process: a join that arrives while a
        pass runs only asks for one more pass (a burst of joins must not start hundreds of
        concurrent scans of the same queue). Returns the matches this call made."""
        self._pair_wanted = True
        if self._pairing:
            return []
        self._pairing = True
        made: list[Match] = []
        try:
            while self._pair_wanted:
                self._pair_wanted = False
                for match in await self.s.lobby.pair_all():
                    frame = p.Matched(match_id=match.match_id, deadline=match.handshake_deadline)
                    await self.s.send(match.questioner, frame)
                    await self.s.send(match.answerer, frame)
                    made.append(match)
        finally:
            self._pairing = False
        return made

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
