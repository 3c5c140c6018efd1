"""The bare websocket relay the benchmarks measure us against: no checks, no Redis, no database.

It speaks just enough of the worker protocol for the same load generator to drive it:

- ``/ws?pair=ID&role=questioner|answerer``: a fixed pair. Each ``message`` frame is answered
  like our server does (an ``ack`` to the sender, then the ``message`` to both sides), so
  both servers write the same three frames per message; nothing is validated or stored.
- ``/ws`` then ``join_lobby``: an in-memory FIFO; every two arrivals get ``matched``.

Run: ``python bench/baseline_relay.py --port 8765`` (GET /healthz answers 200).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import time
import uuid
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

OTHER = {"questioner": "answerer", "answerer": "questioner"}


class Relay:
    def __init__(self) -> None:
        self.pairs: dict[str, dict[str, ServerConnection]] = collections.defaultdict(dict)
        self.seq: dict[str, itertools.count] = collections.defaultdict(lambda: itertools.count(1))
        self.lobby: collections.deque[ServerConnection] = collections.deque()

    async def handler(self, ws: ServerConnection) -> None:
        query = parse_qs(urlsplit(ws.request.path).query) if ws.request else {}
        pair = query.get("pair", [""])[0]
        role = query.get("role", ["questioner"])[0]
        if pair:
            self.pairs[pair][role] = ws
        try:
            async for raw in ws:
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "message" and pair:
                    seq = next(self.seq[pair])
                    await ws.send(json.dumps({"type": "ack", "client_id": frame["client_id"], "seq": seq}))
                    out = json.dumps(
                        {
                            "type": "message",
                            "seq": seq,
                            "round": 0,
                            "role": role,
                            "text": frame["text"],
                            "at": time.time(),
                        }
                    )
                    await ws.send(out)
                    partner = self.pairs[pair].get(OTHER[role])
                    if partner is not None:
                        await partner.send(out)
                elif kind == "hello":
                    await ws.send(json.dumps({"type": "welcome", "v": 1, "where": "idle"}))
                elif kind == "join_lobby":
                    await self.join(ws)
        except ConnectionClosed:
            pass
        finally:
            if pair and self.pairs[pair].get(role) is ws:
                del self.pairs[pair][role]
            if ws in self.lobby:
                self.lobby.remove(ws)

    async def join(self, ws: ServerConnection) -> None:
        self.lobby.append(ws)
        while len(self.lobby) >= 2:
            a, b = self.lobby.popleft(), self.lobby.popleft()
            frame = json.dumps(
                {"type": "matched", "match_id": uuid.uuid4().hex, "deadline": time.time() + 15}
            )
            for conn in (a, b):
                with contextlib.suppress(ConnectionClosed):
                    await conn.send(frame)


def health(connection, request):  # websockets' process_request hook
    if request.path == "/healthz":
        return connection.respond(200, "ok\n")
    return None


async def main(host: str, port: int) -> None:
    relay = Relay()
    async with serve(relay.handler, host, port, process_request=health, max_size=2**20, backlog=4096):
        await asyncio.Future()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    try:
        import uvloop  # same event loop as our server under uvicorn

        uvloop.run(main(args.host, args.port))
    except ImportError:
        asyncio.run(main(args.host, args.port))
