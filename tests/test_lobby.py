"""Pairing rules, the join handshake and the lobby limit, on real Redis, a real database and
(where the rule is about sockets) a real server process.

The Lua pairing script is driven directly through ``Lobby``; the history it reads (roles,
partners, stimuli seen) is written by ``DialogRuntime.start``, as in production.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import Counter

import httpx
import pytest
import websockets
from sqlalchemy import select

from server.db.models import Worker, WorkerEvent
from server.dialog.runtime import DialogRuntime
from server.keys import Keys
from server.lobby import Lobby, Match
from server.redis_conn import connect
from server.services import Services


async def eventually(check, timeout: float = 10.0, every: float = 0.05):
    """Poll an async or plain check until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(every)


async def make_workers(services: Services, n: int, present: bool = True) -> list[str]:
    """Worker rows in the database and, if ``present``, a live presence key for each."""
    names = [f"w{uuid.uuid4().hex[:12]}" for _ in range(n)]
    async with services.sessions() as db:
        db.add_all(Worker(id=w) for w in names)
        await db.commit()
    if present:
        for w in names:
            await services.redis.set(services.keys.presence(w), "tab-" + w, px=600_000)
    return names


async def join_in_order(lobby: Lobby, workers: list[str], start: float | None = None) -> list[float]:
    start = time.time() if start is None else start
    return [await lobby.join(w, now=start + i) for i, w in enumerate(workers)]


async def start_dialog(lobby: Lobby, runtime: DialogRuntime, match: Match) -> None:
    """Both sides say ready and the dialog starts (recording roles, partners and seen stimuli)."""
    assert await lobby.ready(match.match_id, match.questioner) == "ready"
    assert await lobby.ready(match.match_id, match.answerer) == "start"
    assert await runtime.start(match.match_id) is not None


def pair_of(match: Match) -> set[str]:
    return {match.questioner, match.answerer}


# ------------------------------------------------------------------ rules, driven directly


async def test_pairs_in_join_order(services: Services):
    await services.pool.add("s-fifo", target=100)
    workers = await make_workers(services, 5)
    # join out of list order: w3 first, then w0, w4, w1, w2
    order = [workers[3], workers[0], workers[4], workers[1], workers[2]]
    await join_in_order(services.lobby, order)
    # joining again keeps the original place
    assert await services.lobby.join(order[0]) == pytest.approx(
        await services.redis.zscore(services.keys.queue, order[0])
    )
    first = await services.lobby.pair_once()
    second = await services.lobby.pair_once()
    assert first and second
    assert pair_of(first) == {order[0], order[1]}
    assert pair_of(second) == {order[2], order[3]}
    assert await services.lobby.pair_once() is None  # one left, nobody to pair with
    assert await services.redis.zrange(services.keys.queue, 0, -1) == [order[4]]


async def test_only_present_workers_are_paired(services: Services):
    await services.pool.add("s-presence", target=100)
    absent = await make_workers(services, 1, present=False)
    present = await make_workers(services, 2)
    await join_in_order(services.lobby, absent + present)
    match = await services.lobby.pair_once()
    assert match and pair_of(match) == set(present)
    assert await services.redis.zrange(services.keys.queue, 0, -1) == absent
    # once the absent worker's presence key appears they can be paired again
    late = await make_workers(services, 1)
    await services.lobby.join(late[0])
    assert await services.lobby.pair_once() is None
    await services.redis.set(services.keys.presence(absent[0]), "tab", px=60_000)
    match = await services.lobby.pair_once()
    assert match and pair_of(match) == {absent[0], late[0]}


async def test_absent_workers_at_the_front_do_not_block_the_queue(services: Services, settings_factory):
    """Workers who closed their tab keep their place for a while; those behind still pair."""
    lobby = Lobby(services.redis, services.keys, settings_factory(pairing_scan=4))
    await services.pool.add("s-front", target=100)
    absent = await make_workers(services, 9, present=False)
    present = await make_workers(services, 2)
    await join_in_order(lobby, absent + present)
    match = await lobby.pair_once()
    assert match and pair_of(match) == set(present)
    assert await services.redis.zrange(services.keys.queue, 0, -1) == absent


async def test_a_worker_is_never_paired_with_themself(services: Services):
    await services.pool.add("s-self", target=100)
    (worker,) = await make_workers(services, 1)
    await services.lobby.join(worker)
    await services.lobby.join(worker)  # a second join (e.g. from a reload) is the same entry
    assert await services.lobby.waiting() == 1
    assert await services.lobby.pair_once() is None


async def test_recent_partners_are_not_paired_again(services: Services, settings_factory, stimuli):
    await stimuli(3)
    await services.pool.sync_from_db(services.sessions, services.settings.study)
    runtime = DialogRuntime(services)
    a, b = await make_workers(services, 2)
    await join_in_order(services.lobby, [a, b])
    match = await services.lobby.pair_once()
    assert match is not None
    await start_dialog(services.lobby, runtime, match)
    # the start recorded each as the other's partner
    assert await services.redis.zscore(services.keys.partners(a), b) is not None

    await join_in_order(services.lobby, [a, b])
    assert await services.lobby.pair_once() is None  # only each other: wait
    (c,) = await make_workers(services, 1)
    await services.lobby.join(c)
    match = await services.lobby.pair_once()
    assert match and pair_of(match) == {a, c}  # b is skipped for a; a (oldest) gets c

    # a study may allow repeat partners
    relaxed = Lobby(services.redis, services.keys, settings_factory(avoid_recent_partners=False))
    await services.lobby.leave(b)
    await services.redis.delete(services.keys.match(match.match_id))
    await services.redis.hset(services.keys.where(a), "state", "idle")
    await join_in_order(services.lobby, [a, b])
    assert await services.lobby.pair_once() is None
    again = await relaxed.pair_once()
    assert again and pair_of(again) == {a, b}


async def test_a_seen_stimulus_is_never_given_again(services: Services, stimuli):
    ids = await stimuli(3)
    await services.pool.sync_from_db(services.sessions, services.settings.study)
    for sid in ids:
        await services.pool.set_target(sid, 10)
    runtime = DialogRuntime(services)
    a, b, x, y = await make_workers(services, 4)
    # a sees one stimulus as a questioner or answerer with x, b another one with y
    seen: dict[str, str] = {}
    for worker, partner in ((a, x), (b, y)):
        await join_in_order(services.lobby, [worker, partner])
        match = await services.lobby.pair_once()
        assert match is not None
        await start_dialog(services.lobby, runtime, match)
        seen[worker] = match.stimulus_id
    assert seen[a] != seen[b]  # the second pair got the least-collected one
    assert await services.redis.smembers(services.keys.seen(a)) == {seen[a]}
    (fresh,) = set(ids) - set(seen.values())
    # make the unseen stimulus the most collected, so only the rule can explain picking it
    await services.redis.hset(services.keys.stim_load, fresh, 5)
    await services.redis.zadd(services.keys.stim_open, {fresh: 5})
    await join_in_order(services.lobby, [a, b])
    match = await services.lobby.pair_once()
    assert match and pair_of(match) == {a, b} and match.stimulus_id == fresh

    # when every open stimulus has been seen by one of them, they are not paired
    await services.lobby.handshake_failed(match.match_id)
    await services.redis.zrem(services.keys.stim_open, fresh)
    assert await services.lobby.pair_once() is None
    assert set(await services.redis.zrange(services.keys.queue, 0, -1)) == {a, b}


async def test_roles_balance_past_roles(services: Services):
    await services.pool.add("s-roles", target=1000)
    # a worker who was questioner twice becomes the answerer, whichever joined first
    for veteran_first in (True, False):
        veteran, newcomer = await make_workers(services, 2)
        await services.redis.hincrby(services.keys.roles(veteran), "questioner", 2)
        await join_in_order(services.lobby, [veteran, newcomer] if veteran_first else [newcomer, veteran])
        match = await services.lobby.pair_once()
        assert match and match.answerer == veteran and match.questioner == newcomer
    # equal histories: the role is a coin toss
    tally: Counter[str] = Counter()
    for i in range(40):
        first, second = await make_workers(services, 2)
        if i % 2:  # same non-empty history on both sides is still a tie
            for w in (first, second):
                await services.redis.hincrby(services.keys.roles(w), "answerer", 1)
        await join_in_order(services.lobby, [first, second])
        match = await services.lobby.pair_once()
        assert match is not None
        tally["first_asks" if match.questioner == first else "second_asks"] += 1
    assert tally["first_asks"] > 0 and tally["second_asks"] > 0, tally


async def test_start_records_roles_used_by_balancing(services: Services, stimuli):
    await stimuli(4)
    await services.pool.sync_from_db(services.sessions, services.settings.study)
    runtime = DialogRuntime(services)
    (a,) = await make_workers(services, 1)
    roles = []
    for _ in range(3):  # a new partner each time
        (partner,) = await make_workers(services, 1)
        await join_in_order(services.lobby, [a, partner])
        match = await services.lobby.pair_once()
        assert match is not None
        await start_dialog(services.lobby, runtime, match)
        roles.append("questioner" if match.questioner == a else "answerer")
    counts = await services.redis.hgetall(services.keys.roles(a))
    assert {r: int(c) for r, c in counts.items()} == dict(Counter(roles))
    # after the first dialog the roles alternate, so no one is stuck in one role
    assert roles[1] != roles[0]


async def test_pause_flag_stops_pairing(services: Services):
    await services.pool.add("s-pause", target=100)
    workers = await make_workers(services, 2)
    await join_in_order(services.lobby, workers)
    await services.redis.set(services.keys.paused, "1")
    assert await services.lobby.pair_once() is None
    assert await services.lobby.waiting() == 2
    await services.redis.delete(services.keys.paused)
    assert await services.lobby.pair_once() is not None


async def test_handshake_failure_requeues_both_at_their_place(services: Services):
    await services.pool.add("s-hs", target=1)
    a, b, c = await make_workers(services, 3)
    joined = await join_in_order(services.lobby, [a, b])
    match = await services.lobby.pair_once()
    assert match is not None
    assert await services.redis.zscore(services.keys.stim_open, "s-hs") is None  # leased: full
    await services.lobby.join(c, now=joined[1] + 1)  # joins after them
    assert await services.lobby.ready(match.match_id, match.questioner) == "ready"
    back = await services.lobby.handshake_failed(match.match_id)
    assert set(back) == {a, b}
    queue = await services.redis.zrange(services.keys.queue, 0, -1, withscores=True)
    assert [w for w, _ in queue] == [a, b, c]
    assert [score for _, score in queue[:2]] == joined
    assert await services.redis.hget(services.keys.stim_load, "s-hs") == "0"
    assert await services.redis.zscore(services.keys.stim_open, "s-hs") == 0
    for w in (a, b):
        assert await services.redis.hget(services.keys.where(w), "state") == "lobby"
    assert not await services.lobby.match_info(match.match_id)
    assert await services.lobby.ready(match.match_id, match.answerer) == "gone"
    # a second firing of the same deadline changes nothing
    assert await services.lobby.handshake_failed(match.match_id) == []
    assert await services.redis.hget(services.keys.stim_load, "s-hs") == "0"


async def test_a_start_racing_the_handshake_deadline_is_all_or_nothing(services: Services, stimuli):
    (stimulus,) = await stimuli(1)
    await services.pool.sync_from_db(services.sessions, services.settings.study)
    runtime = DialogRuntime(services)
    a, b = await make_workers(services, 2)
    await join_in_order(services.lobby, [a, b])
    match = await services.lobby.pair_once()
    assert match is not None
    await services.lobby.ready(match.match_id, match.questioner)
    assert await services.lobby.ready(match.match_id, match.answerer) == "start"
    # the handshake deadline fires while the dialog is being created
    started, requeued = await asyncio.gather(
        runtime.start(match.match_id), services.lobby.handshake_failed(match.match_id)
    )
    keys = services.keys
    queued = set(await services.redis.zrange(keys.queue, 0, -1))
    load = int(await services.redis.hget(keys.stim_load, stimulus))
    states = {await services.redis.hget(keys.where(w), "state") for w in (a, b)}
    row = await runtime.dialog_row(match.match_id)
    if await services.redis.exists(keys.dialog(match.match_id)):  # the start won
        assert started is not None and requeued == []
        assert (queued, load, states, row.status) == (set(), 1, {"dialog"}, "in_progress")
    else:  # the deadline won: no dialog, both waiting again, the lease returned
        assert started is None and set(requeued) == {a, b}
        assert (queued, load, states) == ({a, b}, 0, {"lobby"})
        assert row is None or row.status != "in_progress"


async def test_pairing_is_atomic_across_processes(services: Services, settings, redis_url):
    for i in range(10):
        await services.pool.add(f"s-many-{i}", target=1000)
    workers = await make_workers(services, 100)
    await join_in_order(services.lobby, workers)
    redises = [connect(redis_url) for _ in range(5)]
    lobbies = [Lobby(r, services.keys, settings) for r in redises]
    try:
        results = await asyncio.gather(*(lobbies[i % 5].pair_once() for i in range(120)))
    finally:
        for r in redises:
            await r.aclose()
    matches = [m for m in results if m is not None]
    assert len(matches) == 50
    paired = Counter(w for m in matches for w in (m.questioner, m.answerer))
    assert set(paired) == set(workers) and set(paired.values()) == {1}
    assert await services.lobby.waiting() == 0
    for m in matches:
        info = await services.lobby.match_info(m.match_id)
        assert {info["questioner"], info["answerer"]} == pair_of(m)
        for w in pair_of(m):
            assert await services.redis.hget(services.keys.where(w), "match") == m.match_id
    loads = await services.redis.hgetall(services.keys.stim_load)
    assert sum(int(v) for v in loads.values()) == 50


# ------------------------------------------------------------------ rules about sockets


class Client:
    """A minimal worker client on a real websocket, reading frames in order."""

    def __init__(self, base: str, token: str, tab: str | None = None) -> None:
        self.url = base.replace("http://", "ws://") + "/ws"
        self.token = token
        self.tab = tab or uuid.uuid4().hex
        self.frames: list[dict] = []
        self.ws = None

    async def open(self) -> dict:
        self.ws = await websockets.connect(self.url)
        await self.send(type="hello", v=1, token=self.token, tab=self.tab)
        return await self.next()

    async def send(self, **frame: object) -> None:
        await self.ws.send(json.dumps(frame))

    async def next(self, timeout: float = 10.0) -> dict:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        return frame

    async def expect(self, kind: str, timeout: float = 10.0) -> dict:
        """Skip other frames until one of type ``kind`` arrives."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.next(max(0.01, deadline - time.monotonic()))
            if frame["type"] == kind:
                return frame

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def new_worker(base: str, name: str | None = None) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.post(
            "/api/sessions", json={"worker": name or uuid.uuid4().hex[:12], "consent": True}
        )
        reply.raise_for_status()
        data = reply.json()
        return data["worker_id"], data["token"]


async def test_second_tab_of_the_same_worker_is_refused(settings, server_factory):
    server = server_factory(settings)
    _, token = await new_worker(server.url, "tabby")
    first = Client(server.url, token)
    assert (await first.open())["type"] == "welcome"
    second = Client(server.url, token)
    frame = await second.open()
    assert frame["type"] == "error" and frame["code"] == "second_tab"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await second.next()
    assert closed.value.rcvd.code == 4409
    # the first tab is unaffected, and it alone is in the lobby
    await first.send(type="join_lobby")
    assert (await first.expect("lobby"))["waiting"] == 1
    await first.close()

    # once the first tab is gone, the other one may take over
    async def takes_over() -> bool:
        again = Client(server.url, token, tab=second.tab)
        welcome = (await again.open())["type"] == "welcome"
        await again.close()
        return welcome

    await eventually(takes_over)


async def test_handshake_timeout_requeues_both_and_returns_the_stimulus(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(handshake_seconds=2, lobby_max_wait_seconds=60, dialogs_per_stimulus=1)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    keys = services.keys
    clients, joined = [], {}
    for _ in range(2):
        wid, token = await new_worker(server.url)
        c = Client(server.url, token)
        await c.open()
        await c.send(type="join_lobby")
        joined[wid] = (await c.expect("lobby"))["joined_at"]
        clients.append((wid, c))
    matched = [await c.expect("matched") for _, c in clients]
    assert matched[0]["match_id"] == matched[1]["match_id"]
    await services.redis.set(keys.paused, "1")  # keep them apart once requeued
    late_id, _ = await new_worker(server.url)
    await services.lobby.join(late_id)  # someone joins after them, during the handshake
    await clients[0][1].send(type="ready", match_id=matched[0]["match_id"])  # the other never does
    for _, c in clients:
        assert (await c.expect("requeued"))["reason"]
    queue = await services.redis.zrange(keys.queue, 0, -1, withscores=True)
    assert [w for w, _ in queue[:2]] == sorted(joined, key=joined.get)
    assert dict(queue[:2]) == joined and queue[2][0] == late_id
    assert await services.redis.hget(keys.stim_load, stimulus) == "0"
    assert await services.redis.zscore(keys.stim_open, stimulus) == 0
    # once pairing resumes, the two at the front are matched again and can start
    await services.redis.delete(keys.paused)
    rematch = [await c.expect("matched") for _, c in clients]
    for _, c in clients:
        await c.send(type="ready", match_id=rematch[0]["match_id"])
    states = [await c.expect("state") for _, c in clients]
    assert {s["dialog"]["role"] for s in states} == {"questioner", "answerer"}
    assert await services.redis.hget(keys.stim_load, stimulus) == "1"
    for _, c in clients:
        await c.close()


async def test_leaving_during_the_handshake_requeues_the_partner_at_once(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(handshake_seconds=60)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    clients = []
    for _ in range(2):
        wid, token = await new_worker(server.url)
        c = Client(server.url, token)
        await c.open()
        await c.send(type="join_lobby")
        await c.expect("lobby")
        clients.append((wid, c))
    (leaver_id, leaver), (stayer_id, stayer) = clients
    await leaver.expect("matched")
    await stayer.expect("matched")
    await leaver.send(type="leave")
    # long before the handshake deadline: the partner is back in the queue, the lease returned
    assert (await stayer.expect("requeued", timeout=10))["reason"]
    assert await services.redis.zrange(services.keys.queue, 0, -1) == [stayer_id]
    assert await services.redis.hget(services.keys.where(leaver_id), "state") == "idle"
    assert await services.redis.hget(services.keys.stim_load, stimulus) == "0"
    for _, c in clients:
        await c.close()


async def test_lobby_limit_releases_and_records_the_wait(settings_factory, server_factory, services):
    settings = settings_factory(lobby_max_wait_seconds=1)
    server = server_factory(settings)
    wid, token = await new_worker(server.url)
    c = Client(server.url, token)
    await c.open()
    await c.send(type="join_lobby")
    lobby = await c.expect("lobby")
    assert lobby["expires_at"] == pytest.approx(lobby["joined_at"] + 1)
    timeout = await c.expect("lobby_timeout")
    assert timeout["waited_seconds"] >= 1 and timeout["message"]
    await c.close()
    assert await services.lobby.waiting() == 0
    assert await services.redis.hget(services.keys.where(wid), "state") == "idle"
    async with services.sessions() as db:
        events = (await db.execute(select(WorkerEvent).where(WorkerEvent.worker_id == wid))).scalars().all()
    assert [e.kind for e in events] == ["lobby_timeout"]
    assert events[0].waited_seconds >= 1 and events[0].study == settings.study


async def test_a_worker_who_closed_the_page_in_the_lobby_is_recorded_as_left(
    settings_factory, server_factory, services
):
    """Paid waiting is for workers who waited: one whose socket is gone when the limit comes
    (closed the tab, never returned) is recorded as having left, which is not paid."""
    settings = settings_factory(lobby_max_wait_seconds=1.5)
    server = server_factory(settings)
    wid, token = await new_worker(server.url)
    c = Client(server.url, token)
    await c.open()
    await c.send(type="join_lobby")
    await c.expect("lobby")
    await c.close()

    async def recorded() -> list[WorkerEvent]:
        async with services.sessions() as db:
            return (await db.execute(select(WorkerEvent).where(WorkerEvent.worker_id == wid))).scalars().all()

    deadline = time.monotonic() + 15
    while not (events := await recorded()) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert [(e.kind, e.detail) for e in events] == [("lobby_left", {"departed": True})]
    assert events[0].waited_seconds >= 1.5
    assert await services.lobby.waiting() == 0


async def test_paused_lobby_refuses_joins_and_absent_workers_wait(
    stimuli, settings, server_factory, services
):
    await stimuli(2)
    server = server_factory(settings)
    await services.redis.set(services.keys.paused, "1")
    _, token = await new_worker(server.url)
    c = Client(server.url, token)
    await c.open()
    await c.send(type="join_lobby")
    assert (await c.expect("error"))["code"] == "paused"
    assert await services.lobby.waiting() == 0
    await services.redis.delete(services.keys.paused)
    # a worker whose socket closed stays queued but is not paired while away
    await c.send(type="join_lobby")
    await c.expect("lobby")
    await c.close()
    gone = await services.redis.zrange(services.keys.queue, 0, -1)

    async def presence_released() -> bool:
        return not await services.redis.exists(services.keys.presence(gone[0]))

    await eventually(presence_released)
    pair = []
    for _ in range(2):
        wid, token = await new_worker(server.url)
        other = Client(server.url, token)
        await other.open()
        await other.send(type="join_lobby")
        pair.append((wid, other))
    matched = [await o.expect("matched") for _, o in pair]
    info = await services.lobby.match_info(matched[0]["match_id"])
    assert {info["questioner"], info["answerer"]} == {w for w, _ in pair}
    assert await services.redis.zrange(services.keys.queue, 0, -1) == gone
    for _, o in pair:
        await o.close()


# ------------------------------------------------------------------ batched pairing passes


async def _crowd(redis, keys: Keys, rng: random.Random, workers: list[str], stimuli: list[str]) -> None:
    """The same awkward lobby in any key space: absent workers, recent partners, stimuli seen,
    past roles, nearly full stimuli; joined in a shuffled order."""
    now = time.time()
    for i, s in enumerate(stimuli):  # targets of 3; loads 0, 1, 2: each closes after a lease or three
        await redis.hset(keys.stim_load, s, i % 3)
        await redis.hset(keys.stim_target, s, 3)
        await redis.zadd(keys.stim_open, {s: i % 3})
    for i, w in enumerate(workers):
        if rng.random() < 0.8:
            await redis.set(keys.presence(w), "tab", px=600_000)
        for s in rng.sample(stimuli, rng.randint(0, len(stimuli) - 1)):
            await redis.sadd(keys.seen(w), s)
        roles = {"questioner": rng.randint(0, 3), "answerer": rng.randint(0, 3)}
        await redis.hset(keys.roles(w), mapping=roles)
        for other in rng.sample(workers, 3):
            if other != w:
                await redis.zadd(keys.partners(w), {other: now - rng.choice([60, 90 * 86400])})
        await redis.zadd(keys.queue, {w: now - 100 + i})


async def test_a_pass_makes_the_pairs_single_attempts_make(services: Services, settings_factory):
    """One script call pairing many is only an optimisation: on the same lobby it makes the
    same pairs, with the same stimuli, in the same order as one attempt at a time."""
    settings = settings_factory(pairing_scan=8)
    workers = [f"w{i:02d}" for i in range(40)]
    stimuli = [f"s{i}" for i in range(6)]
    run = uuid.uuid4().hex[:8]
    one_by_one = Lobby(services.redis, Keys(f"single-{run}"), settings)
    batched = Lobby(services.redis, Keys(f"batch-{run}"), settings)
    for lobby in (one_by_one, batched):
        await _crowd(services.redis, lobby.keys, random.Random(7), workers, stimuli)

    singles = []
    while (match := await one_by_one.pair_once()) is not None:
        singles.append(match)
    passes = []
    while made := await batched.pair_pass(5):
        passes += made
    assert len(singles) >= 5  # the lobby is awkward, not impossible

    def outcome(matches: list[Match]) -> list[tuple[frozenset[str], str]]:
        return [(frozenset(pair_of(m)), m.stimulus_id) for m in matches]

    assert outcome(passes) == outcome(singles)

    async def left(keys: Keys) -> tuple:
        return (
            await services.redis.zrange(keys.queue, 0, -1),
            await services.redis.hgetall(keys.stim_load),
            await services.redis.zrange(keys.stim_open, 0, -1, withscores=True),
        )

    assert await left(batched.keys) == await left(one_by_one.keys)  # same workers left, same leases
    ids = [m.match_id for m in passes]
    assert len(set(ids)) == len(ids) and all(len(i) == 32 for i in ids)
    for m in passes:  # each pair is a pending match with its handshake deadline
        assert (await batched.match_info(m.match_id))["stimulus"] == m.stimulus_id
        member = f"handshake|{m.match_id}|-|{m.handshake_deadline!r}"
        assert await services.redis.zscore(batched.keys.deadlines, member) is not None


async def test_joins_batched_into_a_pass_are_checked_like_single_joins(services: Services):
    """A worker's own join rides in the pairing step: refused while they are paired or in a
    dialog, refused while intake is paused, otherwise queued and paired in the same step."""
    await services.pool.add("s-step", target=100)
    busy, a, b = await make_workers(services, 3)
    await services.redis.hset(services.keys.where(busy), "state", "dialog")
    step = await services.lobby.step([busy, a, b], limit=4)
    assert [j.status for j in step.joined] == ["busy", "joined", "joined"]
    assert step.joined[2].waiting == 2  # a and b waited for a moment, in the same step
    assert [pair_of(m) for m in step.matches] == [{a, b}] and not step.more
    assert await services.redis.zscore(services.keys.queue, busy) is None

    c, d = await make_workers(services, 2)
    await services.redis.set(services.keys.paused, "1")
    step = await services.lobby.step([c, d], limit=4)
    assert [j.status for j in step.joined] == ["paused", "paused"] and step.matches == []
    assert await services.lobby.waiting() == 0
    await services.redis.delete(services.keys.paused)
    step = await services.lobby.step([c], limit=4)
    again = await services.lobby.step([c], limit=4)  # a reload's second join keeps the place
    assert step.joined[0].joined_at == again.joined[0].joined_at
    assert await services.lobby.waiting() == 1
