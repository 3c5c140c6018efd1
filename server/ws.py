"""The worker websocket: translates frames into lobby and dialog events, and back.

The handler holds no dialog state of its own: it asks Redis where the worker is, so a
worker may reconnect to any process and pick up exactly where they were. Only the seat
(dialog id and role) is remembered per connection once the worker has one, since a seat
never changes until the worker joins the lobby again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Coroutine
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy import select

from server.db.models import Worker
from server.dialog import protocol as p
from server.dialog.machine import Disconnected, Outcome, Quit, Reconnected, SendMessage, SubmitForm
from server.dialog.moderation import Moderator
from server.dialog.runtime import DialogRuntime, Snapshot
from server.services import Services
from server.sweeper import Sweeper
from server.tokens import TokenError

log = logging.getLogger(__name__)

# A closed socket counts as the worker going away only if no later connection (on any
# process) has said hello since: a process may notice a dead socket long after its worker
# reconnected elsewhere. Then drop the presence key if it still belongs to this tab.
RELEASE_PRESENCE_LUA = """
if redis.call('HGET', KEYS[2], 'conn') ~= ARGV[2] then return 0 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""
# Take presence for this tab unless another live tab holds it.
CLAIM_PRESENCE_LUA = """
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""


async def receive_text(ws: WebSocket) -> str:
    """The next frame as text. A binary frame reads as "" and is refused as malformed; Starlette's
    own ``receive_text`` raises KeyError on one, which dropped the connection."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    return message.get("text") or ""


class Connection:
    """One open socket. A frame is written at once when nothing is waiting for the socket
    (the usual case: a write only waits while the transport is paused by a slow reader);
    otherwise it waits its turn behind the others, so frames keep their order and a slow
    reader never stalls the handler that sends to it. Writing at once saves the writer task's
    wake-up (one per burst of frames, two per chat message)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: tuple[str, p.Role] | None = None  # (dialog id, role), once the worker has one
        self._waiting: deque[str] = deque()  # frames behind a write that waits for the socket
        self._writer: asyncio.Task[None] | None = None  # finishes that write, then the waiting ones
        self._broken = False  # a write failed: the socket is gone, later frames are dropped

    async def send(self, frame: str) -> None:
        self.put(frame)

    async def send_model(self, frame: p.BaseModel) -> None:
        self.put(frame.model_dump_json())

    def put(self, frame: str) -> None:
        if self._broken:
            return
        if self._writer is not None:
            self._waiting.append(frame)
            return
        write = self.ws.send_text(frame)
        try:
            suspended = write.send(None)  # runs the write up to its first real wait, if any
        except StopIteration:
            return
        except Exception:
            self._broken = True
            return
        self._writer = asyncio.create_task(self._drain(write, suspended))

    async def _drain(self, write: Coroutine[Any, Any, None], suspended: Any) -> None:
        try:
            await finish(write, suspended)
            while self._waiting:
                await self.ws.send_text(self._waiting.popleft())
        except Exception:
            self._broken = True
            self._waiting.clear()
        finally:
            self._writer = None

    async def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):  # not wait_for: see _hello
                    await self._writer
        self._broken = True


async def finish(coro: Coroutine[Any, Any, None], suspended: Any) -> None:
    """Run to its end a coroutine that was started by hand (``coro.send(None)``) and is
    suspended on ``suspended``: the future it waits for, or None for a bare yield."""
    while True:
        try:
            if suspended is None:
                await asyncio.sleep(0)
            else:
                suspended._asyncio_future_blocking = False  # as a task does with what it yields
                await suspended
        except BaseException as exc:  # its wait failed (or we were cancelled): it hears of it
            try:
                suspended = coro.throw(exc)
            except StopIteration:
                return
            continue
        try:
            suspended = coro.send(None)
        except StopIteration:
            return


def parse_frame(raw: str, max_bytes: int) -> tuple[object | None, tuple[str, str] | None]:
    """A client frame as its model, or the error (code, message) that refuses it.

    A well-formed frame is parsed and validated in one pass (pydantic's JSON parser, in Rust:
    a third of ``json.loads`` followed by ``validate_python``); anything it refuses is judged
    again the old way, so the worker gets the same error as ever."""
    # UTF-8 takes at most 4 bytes a character: only a long frame needs encoding to be measured
    if len(raw) * 4 > max_bytes and len(raw.encode()) > max_bytes:
        return None, ("too_large", f"Frames are limited to {max_bytes} bytes.")
    try:
        return p.client_frame_adapter.validate_json(raw), None
    except ValidationError:
        pass
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return None, ("malformed", "That frame is not valid JSON.")
    if not isinstance(data, dict) or "type" not in data:
        return None, ("malformed", "A frame must be a JSON object with a 'type'.")
    try:
        return p.client_frame_adapter.validate_python(data), None
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "union_tag_invalid":
            return None, ("unknown_type", f"Unknown frame type {data.get('type')!r}.")
        where = ".".join(str(x) for x in first["loc"][1:]) or "frame"
        return None, ("invalid", f"{where}: {first['msg']}")


PRESENCE_CHUNK = 200  # presence keys renewed by one pipeline (the event loop runs other work between)


class WorkerSocket:
    def __init__(self, services: Services, runtime: DialogRuntime, sweeper: Sweeper) -> None:
        self.s = services
        self.moderator = Moderator(services, runtime)
        self.runtime = runtime
        self.sweeper = sweeper
        self._release = services.redis.register_script(RELEASE_PRESENCE_LUA)
        self._claim = services.redis.register_script(CLAIM_PRESENCE_LUA)
        self.present: dict[str, str] = {}  # worker -> tab, refreshed by the heartbeat task

    async def refresh_presence(self) -> None:
        """Renew the presence key of every worker connected here, :data:`PRESENCE_CHUNK` to a
        pipeline. One pipeline of them all held the event loop while redis-py built and read
        every command: ~20 ms each heartbeat at 1,000 workers, every message in flight waiting
        behind it (docs/benchmarks.md, "Session 12: paced stall"). Each chunk is built from the
        workers still here at that moment, so one who left meanwhile is not made present again."""
        ttl = int(self.s.settings.presence_ttl_seconds * 1000)
        workers = list(self.present)
        for start in range(0, len(workers), PRESENCE_CHUNK):
            async with self.s.redis.pipeline(transaction=False) as pipe:
                for worker in workers[start : start + PRESENCE_CHUNK]:
                    tab = self.present.get(worker)
                    if tab is not None:
                        pipe.set(self.s.keys.presence(worker), tab, px=ttl)
                await pipe.execute()

    async def serve(self, ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws)
        sender = conn.send  # one bound method: the hub detaches by identity
        worker: str | None = None
        tab = ""
        conn_no = 0
        try:
            hello = await self._hello(ws, conn)
            if hello is None:
                return
            worker, tab = hello
            conn_no = await self.s.redis.hincrby(self.s.keys.where(worker), "conn", 1)
            self.s.hub.attach(worker, sender)
            self.present[worker] = tab
            await self._resume(worker, conn)
            while True:
                raw = await receive_text(ws)
                await self._frame(worker, raw, conn)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket handler failed")
        finally:
            if worker is not None:
                self.s.hub.detach(worker, sender)
                if self.present.get(worker) == tab and worker not in self.s.hub.local:
                    self.present.pop(worker, None)
                    keys = [self.s.keys.presence(worker), self.s.keys.where(worker)]
                    if await self._release(keys=keys, args=[tab, conn_no]):
                        await self._went_away(worker)
            await conn.close()

    async def _hello(self, ws: WebSocket, conn: Connection) -> tuple[str, str] | None:
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns the frame instead of
            # raising when the handler is cancelled as the frame arrives (CPython gh-86296), and
            # the cancelled handler would go on to serve the worker
            async with asyncio.timeout(15):
                raw = await receive_text(ws)
        except TimeoutError:
            await self._fatal(ws, conn, "no_hello", "The first frame must be 'hello'.")
            return None
        frame, error = self._parse(raw)
        if error or not isinstance(frame, p.Hello):
            code, msg = error or ("no_hello", "The first frame must be 'hello'.")
            await self._fatal(ws, conn, code, msg)
            return None
        if frame.v != p.PROTOCOL_VERSION:
            await self._fatal(ws, conn, "bad_version", f"This server speaks protocol v{p.PROTOCOL_VERSION}.")
            return None
        try:
            worker = self.s.signer.worker_from_token(frame.token)
        except TokenError as exc:
            await self._fatal(ws, conn, exc.code, exc.message)
            return None
        async with self.s.sessions() as db:
            row = (await db.execute(select(Worker).where(Worker.id == worker))).scalar_one_or_none()
        if row is None or row.blocked:
            await self._fatal(ws, conn, "not_allowed", "This worker may not take part.")
            return None
        ttl = int(self.s.settings.presence_ttl_seconds * 1000)
        if not await self._claim(keys=[self.s.keys.presence(worker)], args=[frame.tab, ttl]):
            await self._fatal(
                ws,
                conn,
                "second_tab",
                "You already have this task open in another tab or window. "
                "Please continue there and close this one.",
            )
            return None
        return worker, frame.tab

    async def _fatal(self, ws: WebSocket, conn: Connection, code: str, message: str) -> None:
        await conn.send_model(p.Error(code=code, message=message))
        await conn.close()
        with contextlib.suppress(Exception):
            await ws.close(code=4409 if code == "second_tab" else 4400)

    def _parse(self, raw: str) -> tuple[object | None, tuple[str, str] | None]:
        return parse_frame(raw, self.s.settings.max_frame_bytes)

    async def _where(self, worker: str) -> dict[str, str]:
        return await self.s.redis.hgetall(self.s.keys.where(worker))

    async def _resume(self, worker: str, conn: Connection) -> None:
        where = await self._where(worker)
        state = where.get("state", "idle")
        view = state if state in ("lobby", "matched", "dialog", "done") else "idle"
        await conn.send_model(
            p.Welcome(
                worker_id=worker,
                where=view,  # type: ignore[arg-type]
                heartbeat_seconds=self.s.settings.heartbeat_seconds,
                lobby_max_wait_seconds=self.s.settings.lobby_max_wait_seconds,
            )
        )
        if state == "lobby":
            await self._lobby_status(worker, conn)
        elif state == "matched":
            info = await self.s.lobby.match_info(where.get("match", ""))
            if info:
                await conn.send_model(p.Matched(match_id=where["match"], deadline=time.time() + 5))
        elif state in ("dialog", "ended", "done") and where.get("dialog"):
            dialog_id, role = where["dialog"], where["role"]
            out = await self.runtime.handle(dialog_id, lambda now: Reconnected(role, now))  # type: ignore[arg-type]
            if out is not None and out.state.out[role] and state == "done":  # type: ignore[index]
                await conn.send_model(
                    p.Done(completion_code=where.get("code", ""), message="Already complete.")
                )
            elif out is not None and state == "ended":  # it ended (by them) while they were away
                await conn.send_model(
                    p.Ended(
                        status=out.state.status,
                        reason=out.state.end_reason or "ended",
                        by_you=True,
                        message="This dialog has already ended.",
                        salvage=False,
                    )
                )

    async def _lobby_status(self, worker: str, conn: Connection) -> None:
        """Where the worker stands in the queue (on a reconnect: a join's own answer comes from
        the pairing step that took the join)."""
        joined = await self.s.redis.zscore(self.s.keys.queue, worker)
        if joined is None:
            return
        await conn.send_model(
            p.LobbyStatus(
                joined_at=joined,
                expires_at=joined + self.s.settings.lobby_max_wait_seconds,
                waiting=await self.s.lobby.waiting(),
            )
        )

    async def _went_away(self, worker: str) -> None:
        where = await self._where(worker)
        if where.get("state") == "dialog" and where.get("dialog"):
            role = where["role"]
            await self.runtime.handle(where["dialog"], lambda now: Disconnected(role, now))  # type: ignore[arg-type]

    async def _error(self, conn: Connection, code: str, message: str, client_id: str | None = None) -> None:
        await conn.send_model(p.Error(code=code, message=message, client_id=client_id))

    async def _frame(self, worker: str, raw: str, conn: Connection) -> None:
        frame, error = self._parse(raw)
        if error:
            await self._error(conn, *error)
            return
        match frame:
            case p.Ping():  # presence is refreshed for every open socket by the heartbeat task
                await conn.send_model(p.Pong(at=time.time()))
            case p.Hello():
                await self._error(conn, "already_hello", "This connection already said hello.")
            case p.JoinLobby():
                await self._join(worker, conn)
            case p.Ready(match_id=match_id):
                await self._ready(worker, match_id, conn)
            case p.ChatMessage(client_id=cid, text=text):
                await self._chat(worker, conn, cid, text)
            case p.FormSubmit() as f:
                await self._dialog_event(
                    worker,
                    conn,
                    f.client_id,
                    lambda role: (
                        lambda now: SubmitForm(role, f.client_id, f.phase, f.emotion, f.explanation, now)
                    ),
                )
            case p.Leave():
                await self._leave(worker, conn)

    async def _join(self, worker: str, conn: Connection) -> None:
        conn.seat = None
        joined = await self.sweeper.join(worker, conn.send)  # sends the `lobby` frame
        if joined.status == "busy":
            await self._error(conn, "busy", "You are already paired; finish this dialog first.")
        elif joined.status == "paused":
            await self._error(conn, "paused", "New dialogs are paused right now; please try later.")

    async def _ready(self, worker: str, match_id: str, conn: Connection) -> None:
        handshake = await self.s.lobby.handshake(match_id, worker)
        result = handshake.status
        if result == "start":
            await self.runtime.start(match_id, handshake.info)
        elif result == "gone":
            await self._error(conn, "match_gone", "That pairing expired; you are back in the queue.")
        elif result == "forbidden":
            await self._error(conn, "forbidden", "That pairing is not yours.")

    async def _seat(self, worker: str, conn: Connection) -> tuple[str, p.Role] | None:
        if conn.seat is None:
            where = await self._where(worker)
            if where.get("state") in ("dialog", "done", "ended") and where.get("dialog"):
                conn.seat = (where["dialog"], where["role"])  # type: ignore[assignment]
        return conn.seat

    async def _dialog_event(
        self, worker: str, conn: Connection, client_id: str, make, snap: Snapshot | None = None
    ) -> Outcome | None:
        seat = await self._seat(worker, conn)
        if seat is None:
            await self._error(conn, "no_dialog", "You are not in a dialog.", client_id)
            return None
        out = await self.runtime.handle(seat[0], make(seat[1]), snap)
        if out is None:
            await self._error(conn, "no_dialog", "That dialog no longer exists.", client_id)
        elif out.error:
            await self._error(conn, out.error[0], out.error[1], client_id)
        return out

    async def _chat(self, worker: str, conn: Connection, client_id: str, text: str) -> None:
        """A chat message: the live rules first, then the dialog machine, on one read of the state."""
        seat = await self._seat(worker, conn)
        if seat and await self._chat_cached(conn, seat, client_id, text):
            return
        snap = await self.runtime.snapshot(seat[0]) if seat else None
        screening = None
        if seat and snap:
            screening = await self.moderator.screen(snap, seat[1], worker, client_id, text)
        if screening and screening.action == "bounce":
            await conn.send_model(
                p.Error(
                    code="rule_violation",
                    message=screening.message,
                    client_id=client_id,
                    rules=screening.rules,
                )
            )
            if screening.expel and seat:
                await self.moderator.expel(*seat)
            return
        flags = screening.flags if screening else ()
        out = await self._dialog_event(
            worker,
            conn,
            client_id,
            lambda role: lambda now: SendMessage(role, client_id, text, now, flags),
            snap,
        )
        if screening and screening.action == "warn" and out is not None and out.changed:
            await conn.send_model(
                p.RuleWarning(client_id=client_id, rules=screening.rules, message=screening.message)
            )

    async def _chat_cached(self, conn: Connection, seat: tuple[str, str], client_id: str, text: str) -> bool:
        """The usual case, on the state this process remembers: accepted and committed, or
        False, having changed nothing, for anything else (a bounce, an error, a stale state),
        which the caller then judges on a fresh read."""
        snap = self.runtime.cached(seat[0])
        if snap is None:
            return False
        screening = await self.moderator.judge(snap, seat[1], client_id, text)
        if screening is None or screening.action == "bounce":
            return False
        event = SendMessage(seat[1], client_id, text, time.time(), screening.flags)
        if await self.runtime.try_cached(snap, event) is None:
            return False
        if screening.action == "warn":
            await conn.send_model(
                p.RuleWarning(client_id=client_id, rules=screening.rules, message=screening.message)
            )
        return True

    async def _leave(self, worker: str, conn: Connection) -> None:
        waited = await self.s.lobby.leave(worker)
        if waited is not None:
            await self.s.record(worker, "lobby_left", waited_seconds=waited)
            return
        where = await self._where(worker)
        if where.get("state") == "matched" and where.get("match"):
            # leaving during the join handshake: the partner need not wait for its deadline;
            # the leaver is out of the queue before the partner hears of it
            requeued = await self.s.lobby.handshake_failed(where["match"])
            waited = await self.s.lobby.leave(worker)
            for partner in requeued:
                if partner != worker:
                    reason = "Your partner left before the dialog started; back in the queue."
                    await self.s.send(partner, p.Requeued(reason=reason))
            await self.s.record(worker, "lobby_left", waited_seconds=waited)
            return
        if where.get("state") == "dialog":
            role = where["role"]
            out = await self.runtime.handle(where["dialog"], lambda now: Quit(role, now))  # type: ignore[arg-type]
            if out is not None and out.error:
                await self._error(conn, *out.error)
