"""The bare relay's logic served by our framework stack: FastAPI under uvicorn, nothing else.

It sits between the bare relay (``websockets`` alone) and our server: the same in-memory
forwarding as ``bench/baseline_relay.py`` (no checks, no Redis, no database), but each frame
goes through uvicorn's websocket protocol, the ASGI messages and Starlette's ``WebSocket``, as
in ``avd serve``. The gap to the bare relay is what the framework costs; the gap to our server
is what our own work costs (rules, state, durability).

Run: ``python -m uvicorn bench.framework_relay:app --ws-per-message-deflate false`` (as the
benchmark harness does, with the flags of ``avd serve``).
"""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse

from bench.baseline_relay import Relay

app = FastAPI()
relay = Relay()


class _Conn:
    """A Starlette WebSocket with the three things ``Relay`` uses of a websockets connection."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.request = type("Request", (), {"path": ws.url.path + "?" + ws.url.query})()

    async def send(self, text: str) -> None:
        await self.ws.send_text(text)

    def __aiter__(self) -> _Conn:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.ws.receive_text()
        except WebSocketDisconnect as exc:
            raise StopAsyncIteration from exc


@app.get("/healthz", response_class=PlainTextResponse)
async def healthz() -> str:
    return "ok\n"


@app.websocket("/ws")
async def ws_endpoint(ws: WebSocket) -> None:
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await relay.handler(_Conn(ws))  # type: ignore[arg-type]
