"""A websocket handler cancelled while it waits with a timeout ends cancelled, even when what it
waits for arrives at the same moment.

On Python 3.11 ``asyncio.wait_for`` returns the awaited result instead of raising in that case
(CPython gh-86296; see ``server.redis_conn.cancel_and_wait``): a handler cancelled as the worker's
hello arrived went on to serve the worker. Each test makes the two happen in one turn of the
event loop, so it fails every time with wait_for rather than now and then.

The handler gets a real Starlette WebSocket whose ASGI side is a pair of queues the test drives,
so that the frame's arrival can be timed to the cancellation."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.websockets import WebSocket

from server.dialog.runtime import DialogRuntime
from server.services import Services
from server.sweeper import Sweeper
from server.ws import Connection, WorkerSocket


class AsgiPeer:
    """The server side of an ASGI websocket: what the app receives, and what it sent."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.inbox.put_nowait({"type": "websocket.connect"})
        scope = {"type": "websocket", "path": "/ws", "headers": [], "query_string": b""}
        self.ws = WebSocket(scope, self.inbox.get, self._send)
        self.send_gate: asyncio.Event = asyncio.Event()
        self.send_gate.set()

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send_gate.wait()
        self.sent.append(message)

    async def accepted_and_waiting(self) -> None:
        """Returns once the app has accepted the socket and waits for a frame."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5
        while not (self.sent and self.inbox._getters):  # type: ignore[attr-defined]
            assert loop.time() < deadline, "the app never waited for a frame"
            await asyncio.sleep(0.001)


async def ended_cancelled(task: asyncio.Task[Any]) -> bool:
    done, _ = await asyncio.wait({task}, timeout=10)
    assert task in done, "the task ran on"
    return task.cancelled()


async def test_handler_cancelled_as_the_hello_arrives_ends_cancelled(services: Services) -> None:
    runtime = DialogRuntime(services)
    sockets = WorkerSocket(services, runtime, Sweeper(services, runtime))
    hello = json.dumps({"type": "hello", "v": 1, "token": "not-a-token", "tab": "t1"})
    peer = AsgiPeer()
    task = asyncio.create_task(sockets.serve(peer.ws))
    await peer.accepted_and_waiting()  # in _hello
    peer.inbox.put_nowait({"type": "websocket.receive", "text": hello})
    task.cancel()  # in the same turn of the loop as the frame's arrival
    assert await ended_cancelled(task), "the handler went on after it was cancelled"
    assert [m["type"] for m in peer.sent] == ["websocket.accept"]  # it answered nothing


async def test_close_cancelled_as_the_last_write_ends_ends_cancelled() -> None:
    peer = AsgiPeer()
    await peer.ws.accept()
    conn = Connection(peer.ws)
    peer.send_gate.clear()  # the socket is paused: the write waits in the writer task
    conn.put("last frame")
    closing = asyncio.create_task(conn.close())
    await asyncio.sleep(0.01)  # close waits for the writer
    assert not closing.done()
    peer.send_gate.set()
    closing.cancel()  # in the same turn of the loop as the write's end
    assert await ended_cancelled(closing), "close returned although it was cancelled"


async def test_close_gives_up_on_a_stuck_write_after_its_timeout() -> None:
    peer = AsgiPeer()
    await peer.ws.accept()
    conn = Connection(peer.ws)
    peer.send_gate.clear()  # never set: the write never ends
    conn.put("stuck")
    writer = conn._writer
    assert writer is not None
    started = asyncio.get_running_loop().time()
    await conn.close()
    assert 1.9 < asyncio.get_running_loop().time() - started < 5
    assert writer.cancelled()  # as wait_for did, the timeout cancels the write
