"""The live state pushed over Server-Sent Events: behind the log-in, sent when it changes (and
only then), and a change made through one server process reaches a stream held by another."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx

from server.admin.auth import COOKIE
from tests.test_admin_api import create_admin, logged_in
from tests.test_ws_bad_input import hello, new_token

WAIT = 30  # bound on waiting for one event; a loaded machine may be slow, nothing is timed


async def events(response: httpx.Response) -> AsyncIterator[tuple[str, dict]]:
    """(event name, data) as the stream sends them; comments and the retry hint are skipped."""
    name, data = "message", []
    async for line in response.aiter_lines():
        if line == "":
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


async def next_live(stream: AsyncIterator[tuple[str, dict]], until) -> dict:
    """The first ``live`` event whose data satisfies ``until``."""

    async def scan() -> dict:
        async for name, data in stream:
            if name == "live" and until(data):
                return data
        raise AssertionError("the stream ended first")

    return await asyncio.wait_for(scan(), WAIT)


async def test_stream_needs_a_session_and_sends_an_unchanged_state_once(settings, stimuli, server_factory):
    await stimuli(1)
    server = server_factory(settings)
    create_admin(settings)
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as anon:
        assert (await anon.get("/admin/api/live/stream")).status_code == 401
    client, _ = logged_in(server.url)
    cookies = {COOKIE: client.cookies[COOKIE]}
    http = httpx.AsyncClient(base_url=server.url, cookies=cookies, timeout=WAIT)
    # nothing happens in this study: one snapshot, no repeats, then the stream says goodbye
    async with http, http.stream("GET", "/admin/api/live/stream", params={"seconds": 3}) as reply:
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("text/event-stream")
        got = [item async for item in events(reply)]
    assert [name for name, _ in got] == ["live", "bye"]
    state = got[0][1]
    assert state["live"]["waiting"]["total"] == 0 and state["live"]["paused"] is False
    assert [s["stimulus_id"] for s in state["stimuli"]] and state["stimuli"][0]["complete"] == 0


async def test_changes_through_another_process_are_pushed(settings, stimuli, server_factory):
    await stimuli(1)
    first, second = server_factory(settings), server_factory(settings)
    create_admin(settings)
    client, csrf = logged_in(first.url)
    cookies = {COOKIE: client.cookies[COOKIE]}
    http = httpx.AsyncClient(base_url=second.url, cookies=cookies, timeout=WAIT)
    async with http, http.stream("GET", "/admin/api/live/stream") as reply:
        stream = events(reply)
        start = await next_live(stream, lambda s: True)
        assert start["live"]["paused"] is False and start["live"]["waiting"]["total"] == 0

        # a worker joins the lobby on the first process and waits there (no partner yet)
        token, _ = await new_token(first.url, "push-worker")
        worker = await hello(first.url, token)
        await worker.send({"type": "join_lobby"})
        await worker.expect("lobby")
        waiting = await next_live(stream, lambda s: s["live"]["waiting"]["total"] == 1)
        assert waiting["live"]["paused"] is False

        # the researcher pauses intake through the first process
        changed = client.post("/admin/api/intake", json={"paused": True}, headers={"X-CSRF-Token": csrf})
        assert changed.status_code == 200
        paused = await next_live(stream, lambda s: s["live"]["paused"])
        assert paused["live"]["waiting"]["total"] == 1
        await worker.ws.close()
