"""The socket writer of server/ws.py: frames go out at once, in order, and a paused socket
holds back only its own frames."""

from __future__ import annotations

import asyncio

from server.ws import Connection, finish


class FakeSocket:
    """Records frames; while ``paused`` is clear a write waits, as uvicorn's does while the
    transport is paused by a slow reader."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.paused = asyncio.Event()
        self.paused.set()
        self.fail = False

    async def send_text(self, frame: str) -> None:
        await self.paused.wait()
        if self.fail:
            raise RuntimeError("socket gone")
        self.sent.append(frame)


async def test_frame_written_before_send_returns() -> None:
    ws = FakeSocket()
    conn = Connection(ws)  # type: ignore[arg-type]
    await conn.send("a")
    conn.put("b")
    assert ws.sent == ["a", "b"]  # no writer task had to run
    await conn.close()


async def test_paused_socket_keeps_order_and_does_not_block_the_sender() -> None:
    ws = FakeSocket()
    conn = Connection(ws)  # type: ignore[arg-type]
    ws.paused.clear()
    for frame in ("1", "2", "3"):
        await asyncio.wait_for(conn.send(frame), 1)  # returns at once although the socket waits
    assert ws.sent == []
    ws.paused.set()
    await asyncio.sleep(0.01)
    conn.put("4")
    assert ws.sent == ["1", "2", "3", "4"]
    await conn.close()


async def test_failed_write_drops_later_frames() -> None:
    ws = FakeSocket()
    conn = Connection(ws)  # type: ignore[arg-type]
    ws.fail = True
    conn.put("x")
    ws.fail = False
    conn.put("y")
    assert ws.sent == []
    await conn.close()


async def test_close_waits_for_queued_frames() -> None:
    ws = FakeSocket()
    conn = Connection(ws)  # type: ignore[arg-type]
    ws.paused.clear()
    conn.put("1")
    conn.put("2")
    asyncio.get_running_loop().call_later(0.05, ws.paused.set)
    await conn.close()
    assert ws.sent == ["1", "2"]
    conn.put("3")  # after close nothing more is written
    assert ws.sent == ["1", "2"]


async def test_finish_passes_errors_into_the_coroutine() -> None:
    fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    seen: list[str] = []

    async def body() -> None:
        try:
            await fut
        except ValueError as exc:
            seen.append(str(exc))
        await asyncio.sleep(0)
        seen.append("end")

    coro = body()
    suspended = coro.send(None)
    fut.set_exception(ValueError("boom"))
    await finish(coro, suspended)
    assert seen == ["boom", "end"]
