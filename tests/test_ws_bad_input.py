"""Bad input over a real websocket to a real server process: each refusal is a clear error
frame naming the problem, and nothing changes (Redis state, database rows, the partner's
screen); the dialog then carries on normally."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import httpx
import pytest
import websockets
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from sqlalchemy import func, select

from server.db.models import Dialog, Response, Turn
from server.services import Services
from server.tokens import Signer, TokenError

EXPLANATION = "The calm colours and the quiet path in the middle make me feel at peace with it."
RECV_TIMEOUT = 15


class Client:
    """One worker's websocket, with helpers to read frames by type and to fence with a ping."""

    def __init__(self, ws: Any, worker_id: str = "") -> None:
        self.ws = ws
        self.worker_id = worker_id
        self.role: str | None = None
        self.dialog: dict[str, Any] = {}

    @classmethod
    async def connect(cls, base: str) -> Client:
        url = base.replace("http://", "ws://") + "/ws"
        return cls(await websockets.connect(url, max_size=2**22))

    async def send(self, frame: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    async def recv(self) -> dict[str, Any]:
        return json.loads(await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT))

    async def expect(self, kind: str) -> dict[str, Any]:
        """The next frame of type ``kind``; frames of other types before it must be harmless."""
        while True:
            frame = await self.recv()
            if frame["type"] == kind:
                return frame
            assert frame["type"] in ("lobby", "pong", "state", "message", "ack"), frame

    async def fence(self) -> list[dict[str, Any]]:
        """Every frame that arrives before the reply to a fresh ping (the server answers in order)."""
        await self.send({"type": "ping"})
        frames = []
        while (frame := await self.recv())["type"] != "pong":
            frames.append(frame)
        return frames

    async def closed_with(self) -> int:
        with pytest.raises(websockets.ConnectionClosed) as info:
            await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT)
        return info.value.rcvd.code if info.value.rcvd else -1


async def new_token(base: str, worker: str) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        reply = await http.post("/api/sessions", json={"worker": worker, "consent": True})
        reply.raise_for_status()
        return reply.json()["token"], reply.json()["worker_id"]


async def hello(base: str, token: str, tab: str | None = None) -> Client:
    client = await Client.connect(base)
    await client.send({"type": "hello", "v": 1, "token": token, "tab": tab or uuid.uuid4().hex})
    welcome = await client.expect("welcome")
    client.worker_id = welcome["worker_id"]
    return client


async def pair(base: str) -> tuple[Client, Client, dict[str, str]]:
    """Two fresh workers through the lobby and the join handshake; returns (questioner, answerer)."""
    tokens = [await new_token(base, f"bad-{uuid.uuid4().hex[:8]}") for _ in range(2)]
    clients = []
    for token, _ in tokens:
        client = await hello(base, token)
        await client.send({"type": "join_lobby"})
        await client.expect("lobby")
        clients.append(client)
    for client in clients:
        matched = await client.expect("matched")
        await client.send({"type": "ready", "match_id": matched["match_id"]})
    for client in clients:
        state = await client.expect("state")
        client.dialog = state["dialog"]
        client.role = state["dialog"]["role"]
    q, a = sorted(clients, key=lambda c: c.role != "questioner")
    assert (q.role, a.role) == ("questioner", "answerer")
    return q, a, {"q": tokens[clients.index(q)][0]}


async def snapshot(services: Services, dialog_id: str) -> tuple[str | None, int, int, list[str]]:
    """What must not change when a frame is refused: the live state and the stored rows."""
    raw = await services.redis.get(services.keys.dialog(dialog_id))
    log = await services.redis.lrange(services.keys.dialog_log(dialog_id), 0, -1)
    async with services.sessions() as db:
        turns = await db.scalar(select(func.count()).select_from(Turn).where(Turn.dialog_id == dialog_id))
        forms = await db.scalar(
            select(func.count()).select_from(Response).where(Response.dialog_id == dialog_id)
        )
    return raw, int(turns or 0), int(forms or 0), log


async def refused(
    services: Services,
    sender: Client,
    partner: Client,
    frame: dict[str, Any] | str,
    code: str,
) -> dict[str, Any]:
    """Send a bad frame in a dialog: exactly one error with ``code``; nothing else changes."""
    dialog_id = sender.dialog["dialog_id"]
    before = await snapshot(services, dialog_id)
    await sender.send(frame)
    got = await sender.fence()
    assert [f["type"] for f in got] == ["error"], got
    error = got[0]
    assert error["code"] == code, error
    assert error["message"]
    if isinstance(frame, dict) and "client_id" in frame:
        assert error["client_id"] == frame["client_id"]
    assert await partner.fence() == [], "the partner must not hear of a refused frame"
    assert await snapshot(services, dialog_id) == before
    return error


async def say(sender: Client, partner: Client, text: str, client_id: str | None = None) -> int:
    """A valid message: ack to the sender, then the message to both; returns its seq."""
    cid = client_id or uuid.uuid4().hex
    await sender.send({"type": "message", "client_id": cid, "text": text})
    ack = await sender.expect("ack")
    assert ack["client_id"] == cid
    for client in (sender, partner):
        msg = await client.expect("message")
        assert (msg["seq"], msg["text"], msg["role"]) == (ack["seq"], text, sender.role)
    return ack["seq"]


def wrong_token(settings, worker_id: str, *, secret: str | None = None, age: float = 0) -> str:
    """A worker token as the server makes them, but with another key or an old timestamp."""

    class Backdated(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time() - age)

    serializer = URLSafeTimedSerializer(
        secret or settings.resolved_secret, salt=f"worker:{settings.study}", signer=Backdated
    )
    return serializer.dumps({"w": worker_id})


# ---------------------------------------------------------------- before hello: fatal


async def test_bad_first_frames_get_one_error_and_the_socket_is_closed(settings, server_factory, services):
    server = server_factory(settings)
    base = server.url
    token, worker_id = await new_token(base, "first-frames")
    max_bytes = settings.max_frame_bytes

    def hello_with(**kw: Any) -> str:
        return json.dumps({"type": "hello", "v": 1, "token": token, "tab": "t1", **kw})

    cases = [
        ("this is not json", "malformed"),
        (hello_with().encode(), "malformed"),  # a binary frame, even holding a good hello
        ("[1, 2, 3]", "malformed"),
        ('"hello"', "malformed"),
        ('{"v": 1}', "malformed"),
        ('{"type": "hullo"}', "unknown_type"),
        ('{"type": "hello", "v": 1, "tab": "t1"}', "invalid"),  # no token
        (hello_with(extra=1), "invalid"),
        (hello_with(tab="x" * (max_bytes + 10)), "too_large"),
        ('{"type": "join_lobby"}', "no_hello"),
        ('{"type": "ping"}', "no_hello"),
        (hello_with(v=2), "bad_version"),
        (hello_with(token=token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")), "bad_token"),
        (hello_with(token=wrong_token(settings, worker_id, secret="not-the-secret")), "bad_token"),
        (
            hello_with(token=wrong_token(settings, worker_id, age=settings.token_max_age_seconds + 60)),
            "expired_token",
        ),
        (hello_with(token=wrong_token(settings, "w-nobody-like-this")), "not_allowed"),
    ]
    for raw, code in cases:
        client = await Client.connect(base)
        await client.send(raw)
        error = await client.recv()
        assert (error["type"], error["code"]) == ("error", code), (raw[:80], error)
        assert error["message"]
        assert await client.closed_with() == 4400
    # none of that let the worker in: no presence, no place anywhere
    assert not await services.redis.exists(services.keys.presence(worker_id))
    assert not await services.redis.exists(services.keys.where(worker_id))
    # and the same token still works
    good = await hello(base, token)
    assert good.worker_id == worker_id
    assert await good.fence() == []
    await good.ws.close()


async def test_a_token_past_its_max_age_is_refused(settings_factory, server_factory):
    """The server's own token, once older than ``token_max_age_seconds``, and not before.

    The token is aged by dating it in the past with the server's own token code
    (``server.tokens.Signer`` on a given clock), not by sleeping: first it is shown to be exactly
    the token the server issued at that second, so nothing but its age differs."""
    max_age = 3600
    settings = settings_factory(token_max_age_seconds=max_age)
    server = server_factory(settings)
    token, worker_id = await new_token(server.url, "ages")
    issued = issued_at(settings, token)

    def dated(at: float) -> str:
        signer = Signer(settings.resolved_secret, settings.study, max_age, clock=lambda: at)
        return signer.worker_token(worker_id)

    assert dated(issued) == token  # the server's token, reproduced bit for bit
    # an hour minus ten minutes old: still good (the server measures the age from the token's date)
    young = await hello(server.url, dated(time.time() - max_age + 600))
    assert young.worker_id == worker_id
    await young.ws.close()
    # a minute past its max age: refused, and the connection closed
    client = await Client.connect(server.url)
    await client.send({"type": "hello", "v": 1, "token": dated(time.time() - max_age - 60), "tab": "t"})
    error = await client.recv()
    assert (error["type"], error["code"]) == ("error", "expired_token")
    assert error["message"]
    assert await client.closed_with() == 4400


def issued_at(settings, token: str) -> int:
    """The second a worker token was dated (seconds since the epoch)."""
    serializer = URLSafeTimedSerializer(settings.resolved_secret, salt=f"worker:{settings.study}")
    _, when = serializer.loads(token, return_timestamp=True)
    return int(when.timestamp())


def test_a_token_is_good_for_max_age_whole_seconds_then_expires():
    """``Signer`` on a given clock: the age limit to the second, for tokens and image tickets."""
    now = [1_800_000_000.0]
    signer = Signer("s3cret", "study", 60, clock=lambda: now[0])
    token, ticket = signer.worker_token("w1"), signer.image_ticket("d1", "w1")
    for age in (0, 59.9, 60, 60.99):  # itsdangerous counts whole seconds: refused once age > max_age
        now[0] = 1_800_000_000.0 + age
        assert signer.worker_from_token(token) == "w1"
        assert signer.image_from_ticket(ticket) == ("d1", "w1")
    now[0] = 1_800_000_000.0 + 61
    with pytest.raises(TokenError) as info:
        signer.worker_from_token(token)
    assert info.value.code == "expired_token"
    with pytest.raises(TokenError) as info:
        signer.image_from_ticket(ticket)
    assert info.value.code == "bad_ticket"
    # the wall clock by default: a token dated now is good now
    wall = Signer("s3cret", "study", 60)
    assert wall.worker_from_token(wall.worker_token("w2")) == "w2"


# ---------------------------------------------------------------- after hello: refused, connection lives


async def test_bad_frames_after_hello_are_refused_and_the_connection_lives_on(
    settings, server_factory, services
):
    server = server_factory(settings)
    token, worker_id = await new_token(server.url, "after-hello")
    client = await hello(server.url, token)
    big = json.dumps({"type": "message", "client_id": "big", "text": "x" * settings.max_frame_bytes})
    cases: list[tuple[Any, str, str | None]] = [
        ("{not json", "malformed", None),
        (b'{"type": "ping"}', "malformed", None),  # binary frames are not part of the protocol
        ("", "malformed", None),
        ("42", "malformed", None),
        ("[]", "malformed", None),
        ("null", "malformed", None),
        ('{"text": "no type"}', "malformed", None),
        ('{"type": "shout"}', "unknown_type", None),
        ('{"type": 7}', "unknown_type", None),
        ({"type": "message", "client_id": "m1"}, "invalid", None),  # no text
        ({"type": "message", "text": "hi there"}, "invalid", None),  # no client id
        ({"type": "message", "client_id": "bad id!", "text": "hi there"}, "invalid", None),
        ({"type": "message", "client_id": "m2", "text": "hi", "extra": True}, "invalid", None),
        ({"type": "form", "client_id": "f1", "emotion": "awe", "explanation": "x"}, "invalid", None),
        ({"type": "ready"}, "invalid", None),
        (big, "too_large", None),
        ({"type": "hello", "v": 1, "token": token, "tab": "again"}, "already_hello", None),
        ({"type": "message", "client_id": "m3", "text": "anyone?"}, "no_dialog", "m3"),
        (
            {"type": "form", "client_id": "f2", "phase": "answerer", "emotion": "awe", "explanation": "x y"},
            "no_dialog",
            "f2",
        ),
        ({"type": "ready", "match_id": "0" * 32}, "match_gone", None),
    ]
    for frame, code, client_id in cases:
        await client.send(frame)
        got = await client.fence()
        assert len(got) == 1 and got[0]["type"] == "error", (frame, got)
        assert got[0]["code"] == code, (str(frame)[:80], got[0])
        assert got[0]["client_id"] == client_id
        if code == "invalid":
            assert any(w in got[0]["message"] for w in ("text", "client_id", "phase", "match_id", "extra"))
    # nothing of it moved the worker anywhere
    where = await services.redis.hgetall(services.keys.where(worker_id))
    assert where.get("state", "idle") == "idle" and not where.get("match") and not where.get("dialog")
    assert await services.redis.zcard(services.keys.queue) == 0
    # the same connection still works normally
    await client.send({"type": "join_lobby"})
    lobby = await client.expect("lobby")
    assert lobby["waiting"] == 1
    await client.send({"type": "leave"})
    assert await client.fence() == []
    assert await services.redis.zcard(services.keys.queue) == 0
    await client.ws.close()


# ---------------------------------------------------------------- in a dialog


async def test_bad_dialog_input_changes_nothing_and_the_dialog_goes_on(
    settings_factory, stimuli, server_factory, services
):
    await stimuli(2)
    settings = settings_factory(rounds=2)
    server = server_factory(settings)
    q, a, tokens = await pair(server.url)
    dialog_id = q.dialog["dialog_id"]
    assert q.dialog["turn"] == "questioner" and q.dialog["image_url"] is None
    assert a.dialog["image_url"]

    def msg(text: str, cid: str | None = None) -> dict[str, Any]:
        return {"type": "message", "client_id": cid or uuid.uuid4().hex, "text": text}

    def form(phase: str, emotion: str = "awe", explanation: str = EXPLANATION, cid: str | None = None):
        return {
            "type": "form",
            "client_id": cid or uuid.uuid4().hex,
            "phase": phase,
            "emotion": emotion,
            "explanation": explanation,
        }

    # --- the chat
    await refused(services, a, q, msg("The answer before any question."), "not_your_turn")
    await refused(services, q, a, msg("x" * (settings.max_message_chars + 1)), "too_long")
    await refused(services, q, a, msg(" \u0000 "), "too_short")
    await refused(services, q, a, form("before_reveal"), "unexpected_form")
    await refused(services, a, q, form("answerer"), "unexpected_form")
    await refused(services, q, a, "{broken", "malformed")
    await refused(services, q, a, json.dumps(msg("y" * settings.max_frame_bytes)), "too_large")
    await refused(services, q, a, {"type": "join_lobby"}, "busy")

    assert await say(q, a, "What colours dominate the painting?", client_id="q-one") == 1
    await refused(services, q, a, msg("And who is in it?"), "not_your_turn")  # a second question

    # a resend of the first question: acknowledged with its seq, stored once, relayed again
    before = await snapshot(services, dialog_id)
    await q.send(msg("What colours dominate the painting?", cid="q-one"))
    got = await q.fence()
    by_type = {f["type"]: f for f in got}
    assert sorted(by_type) == ["ack", "message"] and len(got) == 2, got  # in either order
    assert by_type["ack"] == {"type": "ack", "client_id": "q-one", "seq": 1}
    assert by_type["message"]["seq"] == 1
    assert [f["seq"] for f in await a.fence()] == [1]  # the partner drops it by seq
    assert await snapshot(services, dialog_id) == before
    assert before[1] == 1  # one row in the turn table

    # a second tab of the questioner is turned away; the first tab is untouched
    other_tab = await Client.connect(server.url)
    await other_tab.send({"type": "hello", "v": 1, "token": tokens["q"], "tab": "another-tab"})
    error = await other_tab.recv()
    assert (error["type"], error["code"]) == ("error", "second_tab")
    assert await other_tab.closed_with() == 4409
    assert await q.fence() == [] and await a.fence() == []

    assert await say(a, q, "Mostly deep blues with a warm orange patch near the bottom.") == 2
    assert await say(q, a, "Is there anyone in the scene?") == 3
    await refused(services, q, a, msg("Anything else?"), "not_your_turn")
    assert await say(a, q, "A single figure walks along a narrow path by the water.") == 4
    for client, todo in ((q, ["before_reveal", "after_reveal"]), (a, ["answerer"])):
        state = await client.expect("state")
        assert state["dialog"]["turn"] is None and state["dialog"]["todo"] == todo

    # --- the forms
    await refused(services, q, a, msg("One more question?"), "chat_closed")
    await refused(services, a, q, form("before_reveal"), "unexpected_form")  # the questioner's form
    await refused(services, q, a, form("answerer"), "unexpected_form")  # the answerer's form
    await refused(services, q, a, form("after_reveal"), "unexpected_form")  # not yet
    await refused(services, q, a, form("before_reveal", emotion="joy"), "invalid_emotion")
    await refused(services, a, q, form("answerer", emotion="Sadness"), "invalid_emotion")
    await refused(
        services, q, a, form("before_reveal", explanation="too few words here"), "explanation_too_short"
    )
    await refused(
        services,
        a,
        q,
        form("answerer", explanation="w " * settings.max_explanation_chars),
        "explanation_too_long",
    )

    await q.send(form("before_reveal", cid="q-form-1"))
    assert (await q.expect("ack"))["client_id"] == "q-form-1"
    revealed = await q.expect("state")
    assert revealed["dialog"]["image_url"] and revealed["dialog"]["todo"] == ["after_reveal"]
    # a resend of that form: acknowledged, stored once, nothing else
    before = await snapshot(services, dialog_id)
    await q.send(form("before_reveal", cid="q-form-1"))
    assert await q.fence() == [{"type": "ack", "client_id": "q-form-1", "seq": None}]
    assert await snapshot(services, dialog_id) == before
    await refused(services, q, a, form("before_reveal"), "unexpected_form")  # already in

    await a.send(form("answerer", emotion="contentment"))
    await a.expect("ack")
    assert (await a.expect("done"))["completion_code"]
    await refused(services, a, q, form("answerer"), "unexpected_form")
    await refused(services, a, q, msg("Still there?"), "not_active")

    await q.send(form("after_reveal", emotion="sadness"))
    await q.expect("ack")
    assert (await q.expect("done"))["completion_code"]

    # --- the record: every accepted item once, nothing refused
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        assert dialog is not None and dialog.status == "complete" and dialog.rounds_done == 2
        turns = (
            await db.execute(select(Turn).where(Turn.dialog_id == dialog_id).order_by(Turn.seq))
        ).scalars()
        assert [(t.seq, t.role) for t in turns] == [
            (1, "questioner"),
            (2, "answerer"),
            (3, "questioner"),
            (4, "answerer"),
        ]
        forms = (await db.execute(select(Response).where(Response.dialog_id == dialog_id))).scalars().all()
        assert sorted((f.phase, f.emotion) for f in forms) == [
            ("after_reveal", "sadness"),
            ("answerer", "contentment"),
            ("before_reveal", "awe"),
        ]
    for client in (q, a):
        await client.ws.close()
