"""Stimulus allocation: least-collected first, never over target (even across processes and
concurrent pairings), leases returned by failed dialogs, and targets changed at run time."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

from sqlalchemy import select, update

from server.bots import simulate
from server.db.models import Dialog, Stimulus, Worker
from server.lobby import Lobby
from server.redis_conn import connect
from server.services import Services


async def make_workers(services: Services, n: int) -> list[str]:
    """Worker rows plus a live presence key each, then a place in the queue (in this order)."""
    names = [f"w{uuid.uuid4().hex[:12]}" for _ in range(n)]
    async with services.sessions() as db:
        db.add_all(Worker(id=w) for w in names)
        await db.commit()
    for w in names:
        await services.redis.set(services.keys.presence(w), "tab", px=600_000)
        await services.lobby.join(w)
    return names


async def two_servers(server_factory, settings) -> tuple:
    """Two server processes on one study (started one after the other: the start-up is
    CPU-bound imports, and overlapping them on a small machine only slows both)."""
    return server_factory(settings), server_factory(settings)


async def loads(services: Services) -> dict[str, int]:
    return {s: int(n) for s, n in (await services.redis.hgetall(services.keys.stim_load)).items()}


async def open_stimuli(services: Services) -> set[str]:
    return set(await services.redis.zrange(services.keys.stim_open, 0, -1))


async def test_least_collected_stimulus_first(services: Services, stimuli):
    a, b, c = await stimuli(3)
    workers = await make_workers(services, 2)
    async with services.sessions() as db:
        await db.execute(update(Stimulus).where(Stimulus.id.in_([a, b, c])).values(target_dialogs=10))
        for stimulus, status in ((a, "complete"), (a, "complete"), (c, "in_progress"), (b, "abandoned")):
            db.add(
                Dialog(
                    id=uuid.uuid4().hex,
                    study=services.settings.study,
                    stimulus_id=stimulus,
                    questioner_id=workers[0],
                    answerer_id=workers[1],
                    positive_first=True,
                    status=status,
                )
            )
        await db.commit()
    await services.lobby.leave(workers[0])
    await services.lobby.leave(workers[1])
    # the pool counts collected and running dialogs from the record; failed ones do not count
    assert await services.pool.sync_from_db(services.sessions, services.settings.study) == 3
    assert await loads(services) == {a: 2, b: 0, c: 1}
    await make_workers(services, 12)
    for _ in range(6):
        before = await loads(services)
        match = await services.lobby.pair_once()
        assert match is not None
        assert before[match.stimulus_id] == min(before.values()), (match.stimulus_id, before)
    assert await loads(services) == {a: 3, b: 3, c: 3}


async def test_concurrent_pairings_never_exceed_the_target(services: Services, settings, redis_url):
    targets = {"s-one": 1, "s-two": 2, "s-three": 3}
    for stimulus, target in targets.items():
        await services.pool.add(stimulus, target=target)
    await make_workers(services, 40)
    redises = [connect(redis_url) for _ in range(4)]
    lobbies = [Lobby(r, services.keys, settings) for r in redises]
    try:
        results = await asyncio.gather(*(lobbies[i % 4].pair_once() for i in range(40)))
    finally:
        for r in redises:
            await r.aclose()
    matches = [m for m in results if m is not None]
    assert Counter(m.stimulus_id for m in matches) == targets
    assert await loads(services) == targets
    assert await open_stimuli(services) == set()
    assert await services.lobby.waiting() == 40 - 2 * sum(targets.values())
    assert await services.lobby.pair_once() is None


async def test_set_target_reopens_and_closes_a_stimulus(services: Services):
    await services.pool.add("s-grow", target=1)
    await make_workers(services, 6)
    first = await services.lobby.pair_once()
    assert first and first.stimulus_id == "s-grow"
    assert await services.lobby.pair_once() is None  # full
    assert await services.pool.progress() == {"total": 1, "open": 0, "full": 1}

    assert await services.pool.set_target("s-grow", 2) == 1  # returns the current load
    assert await open_stimuli(services) == {"s-grow"}
    second = await services.lobby.pair_once()
    assert second and second.stimulus_id == "s-grow"
    assert await services.lobby.pair_once() is None

    assert await services.pool.set_target("s-grow", 5) == 2
    assert await services.pool.set_target("s-grow", 2) == 2  # lowered to its load: closed
    assert await open_stimuli(services) == set()
    assert await services.lobby.pair_once() is None
    # a failed dialog's lease comes back only while the stimulus is under target
    await services.pool.release("s-grow")
    assert await open_stimuli(services) == {"s-grow"}
    await services.pool.set_target("s-grow", 1)
    assert await open_stimuli(services) == set()
    assert await services.lobby.pair_once() is None


async def dialogs_by_stimulus(services: Services) -> list[tuple[str, str]]:
    async with services.sessions() as db:
        rows = await db.execute(
            select(Dialog.stimulus_id, Dialog.status)
            .where(Dialog.study == services.settings.study)
            .order_by(Dialog.started_at)
        )
        return [tuple(r) for r in rows.all()]


async def test_failed_dialog_returns_its_stimulus(settings_factory, stimuli, server_factory, services):
    settings = settings_factory(rounds=2, dialogs_per_stimulus=1)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    summary, _ = await simulate(server.url, 1, behaviour="abandon", at_round=1, timeout=30)
    assert summary["dialogs"] == 1 and summary["completed"] == 0, summary
    assert await dialogs_by_stimulus(services) == [(stimulus, "abandoned")]
    assert await loads(services) == {stimulus: 0}
    assert await open_stimuli(services) == {stimulus}
    # another pair can now have it, and completing it fills it
    summary, results = await simulate(server.url, 1, timeout=30)
    assert summary["completed"] == 1, summary
    assert await dialogs_by_stimulus(services) == [(stimulus, "abandoned"), (stimulus, "complete")]
    assert await loads(services) == {stimulus: 1}
    assert await open_stimuli(services) == set()


async def test_two_processes_never_exceed_the_target(settings_factory, stimuli, server_factory, services):
    settings = settings_factory(rounds=2, dialogs_per_stimulus=1, lobby_max_wait_seconds=4)
    ids = await stimuli(3)
    first, second = await two_servers(server_factory, settings)
    summary, results = await simulate(first.url, 5, partner_url=second.url, timeout=40)
    assert summary["errors"] == 0, summary
    assert summary["outcomes"] == {"completed": 6, "lobby_timeout": 4}, summary
    started = await dialogs_by_stimulus(services)
    assert sorted(started) == sorted((s, "complete") for s in ids)
    assert await loads(services) == dict.fromkeys(ids, 1)
    assert await open_stimuli(services) == set()
    # the bots who got a dialog are exactly those who did not wait out the lobby
    in_dialogs = {r.worker for r in results if r.dialog_id}
    assert len(in_dialogs) == 6 and all(r.outcome == "completed" for r in results if r.dialog_id)
