"""Live operations pushed to the dashboard as Server-Sent Events (``GET /admin/api/live/stream``).

One loop per server process, running only while someone listens, reads the live snapshot
(Redis and the database, which every process shares) at most once per ``interval`` and hands
it to every listener of this process when it differs from the last one sent; the time stamp
alone does not count as a change. Because the snapshot is read from the shared stores, a
change made through any process (a dialog starting there, intake paused there) reaches the
listeners of every process within about one interval, with no extra channel to keep in step.

A stream ends by itself after ``STREAM_SECONDS`` with a ``bye`` event, so a server that is
shutting down is not held open by dashboards; the page reconnects at once. The page falls
back to polling ``/admin/api/live`` when the stream fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse

from server.admin import live
from server.admin.deps import require_admin, services_of
from server.services import Services

log = logging.getLogger(__name__)
router = APIRouter(dependencies=[Depends(require_admin)])
STREAM_SECONDS = 30.0
KEEPALIVE_SECONDS = 10.0


async def read_state(services: Services) -> dict[str, Any]:
    """What the Live tab shows: the snapshot and the per-stimulus progress."""
    return {"live": await live.live_snapshot(services), "stimuli": await live.stimulus_progress(services)}


def _fingerprint(state: dict[str, Any]) -> str:
    live = {k: v for k, v in state["live"].items() if k != "at"}
    return json.dumps({**state, "live": live}, sort_keys=True)


class LiveFeed:
    """Fans the changing live state out to this process's listeners."""

    def __init__(self, services: Services, interval: float = 1.0) -> None:
        self.services = services
        self.interval = interval
        self.listeners: set[asyncio.Queue[dict[str, Any]]] = set()
        self.latest: dict[str, Any] | None = None
        self._last = ""
        self._task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def listen(self) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
        """A queue that always holds the newest state not yet taken (older ones are dropped)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        if self.latest is not None:
            queue.put_nowait(self.latest)
        self.listeners.add(queue)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        try:
            yield queue
        finally:
            self.listeners.discard(queue)

    def _offer(self, state: dict[str, Any]) -> None:
        for queue in list(self.listeners):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(state)

    async def _run(self) -> None:
        while self.listeners:
            started = time.monotonic()
            try:
                state = await read_state(self.services)
            except Exception:  # a database or Redis hiccup: keep the streams, try again
                log.exception("live snapshot failed")
            else:
                mark = _fingerprint(state)
                if mark != self._last:
                    self._last, self.latest = mark, state
                    self._offer(state)
            await asyncio.sleep(max(0.0, self.interval - (time.monotonic() - started)))
        self._last, self.latest = "", None  # the next listener starts from a fresh read


def feed_of(request: Request) -> LiveFeed:
    state = request.app.state
    feed = getattr(state, "live_feed", None)
    if feed is None:
        feed = state.live_feed = LiveFeed(services_of(request))
    return feed


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@router.get("/live/stream")
async def live_stream(
    request: Request, seconds: float = Query(STREAM_SECONDS, ge=1, le=STREAM_SECONDS)
) -> StreamingResponse:
    """``live`` events (the Live tab's data), ``: keep-alive`` comments, then ``bye`` after ``seconds``."""
    feed = feed_of(request)

    async def events() -> AsyncIterator[str]:
        yield "retry: 2000\n\n"
        ends = time.monotonic() + seconds
        async with feed.listen() as queue:
            while (left := ends - time.monotonic()) > 0:
                try:  # not wait_for, which can lose a cancellation on 3.11 (server/ws.py _hello)
                    async with asyncio.timeout(min(left, KEEPALIVE_SECONDS)):
                        state = await queue.get()
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                yield _event("live", state)
        yield _event("bye", {"reconnect": True})

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)
