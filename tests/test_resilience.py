"""Dialogs that survive the real world: two server processes, reconnects to the other
process, deadlines fired by whichever process is alive, crashes (SIGKILL) mid-dialog,
and workers who leave or stay away too long. Real uvicorn processes, Redis, database, bots.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import websockets
from sqlalchemy import select

from server.bots import Bot, BotConfig, BotResult, simulate
from server.db.models import Dialog, Response, Turn, WorkerEvent
from server.dialog.machine import DialogState
from server.services import Services
from server.sweeper import CLAIM_LUA


async def eventually(check, timeout: float = 15.0, every: float = 0.05):
    """Poll an async check until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(every)


async def two_servers(server_factory, settings) -> tuple:
    """Two server processes on one study (started one after the other: the start-up is
    CPU-bound imports, and overlapping them on a small machine only slows both)."""
    return server_factory(settings), server_factory(settings)


async def run_bots(*bots: Bot, timeout: float = 30) -> list[BotResult]:
    return list(await asyncio.gather(*(b.run(timeout) for b in bots)))


def bot(url: str, behaviour: str = "good", **config: object) -> Bot:
    return Bot(url, f"bot-{uuid.uuid4().hex[:8]}", BotConfig(behaviour, **config), {})  # type: ignore[arg-type]


async def the_dialog(services: Services) -> DialogState | None:
    """The one live dialog of this test's study, as stored in Redis."""
    ids = await services.redis.zrange(services.keys.active_dialogs, 0, -1)
    if len(ids) != 1:
        return None
    raw = await services.redis.get(services.keys.dialog(ids[0]))
    return DialogState.model_validate_json(raw) if raw else None


async def record(
    services: Services, dialog_id: str
) -> tuple[Dialog, list[Turn], list[Response], list[WorkerEvent]]:
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        turns = (
            await db.execute(select(Turn).where(Turn.dialog_id == dialog_id).order_by(Turn.seq))
        ).scalars()
        forms = (await db.execute(select(Response).where(Response.dialog_id == dialog_id))).scalars()
        events = (await db.execute(select(WorkerEvent).where(WorkerEvent.dialog_id == dialog_id))).scalars()
        return dialog, list(turns), list(forms), list(events)


def assert_whole_chat(turns: list[Turn], rounds: int) -> None:
    """Every message once, in order, strictly alternating."""
    assert [t.seq for t in turns] == list(range(1, 2 * rounds + 1))
    assert len({t.client_id for t in turns}) == len(turns)
    assert [t.role for t in turns] == ["questioner", "answerer"] * rounds


async def stimulus_is_free(services: Services, stimulus_id: str) -> None:
    assert await services.redis.hget(services.keys.stim_load, stimulus_id) == "0"
    assert await services.redis.zscore(services.keys.stim_open, stimulus_id) == 0


# ------------------------------------------------------------------ across processes


async def test_partners_on_two_processes_complete_a_dialog(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(rounds=4)
    await stimuli(1)
    one, two = await two_servers(server_factory, settings)
    summary, results = await simulate(one.url, 1, partner_url=two.url, timeout=30)
    assert summary["completed"] == 1 and summary["errors"] == 0, summary
    dialog, turns, forms, events = await record(services, results[0].dialog_id)
    assert dialog.status == "complete" and dialog.rounds_done == 4
    assert_whole_chat(turns, 4)
    assert sorted(f.phase for f in forms) == ["after_reveal", "answerer", "before_reveal"]
    assert sorted(e.kind for e in events) == ["completed", "completed"]
    # each bot saw every message exactly once, whichever process accepted it
    for r in results:
        assert sorted(r.received_seqs) == list(range(1, 9)) and r.history_seqs == list(range(1, 9))


async def test_reconnect_to_the_other_process_resumes_with_full_history(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(rounds=5)
    await stimuli(1)
    one, two = await two_servers(server_factory, settings)
    leaver = bot(one.url, "disconnect", at_round=3, away=0.3, reconnect_url=two.url)
    results = await run_bots(leaver, bot(one.url))
    assert [r.outcome for r in results] == ["completed", "completed"], results
    back = results[0]
    assert back.reconnects == 1 and back.errors == []
    # the first view after coming back holds everything said before leaving (rounds 1-2 at least)
    assert back.resumed_history and back.resumed_history[0] >= 4
    dialog, turns, _, _ = await record(services, back.dialog_id)
    assert dialog.status == "complete"
    assert_whole_chat(turns, 5)
    for r in results:
        assert r.history_seqs == list(range(1, 11))


class Client:
    """A bare worker socket, for steps the bots do not take (two sockets for one tab)."""

    def __init__(self, base: str, token: str, tab: str) -> None:
        self.url = base.replace("http://", "ws://") + "/ws"
        self.token, self.tab = token, tab
        self.ws = None

    async def open(self) -> Client:
        self.ws = await websockets.connect(self.url)
        await self.send(type="hello", v=1, token=self.token, tab=self.tab)
        assert (await self.expect("welcome"))["type"] == "welcome"
        return self

    async def send(self, **frame: object) -> None:
        await self.ws.send(json.dumps(frame))

    async def expect(self, kind: str, timeout: float = 10.0, **fields: object) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), max(0.01, deadline - time.monotonic())))
            if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
                return frame


async def session(base: str) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.post("/api/sessions", json={"worker": uuid.uuid4().hex[:12], "consent": True})
        return reply.json()["worker_id"], reply.json()["token"]


async def test_late_close_of_an_old_socket_does_not_drop_a_worker_who_moved(
    settings_factory, stimuli, server_factory, services
):
    """A process may notice a dead socket only after its worker reconnected elsewhere."""
    settings = settings_factory(rounds=1, reconnect_grace_seconds=1)
    await stimuli(1)
    one, two = await two_servers(server_factory, settings)
    ids, clients = [], []
    for _ in range(2):
        worker, token = await session(one.url)
        c = await Client(one.url, token, uuid.uuid4().hex).open()
        await c.send(type="join_lobby")
        ids.append(worker)
        clients.append(c)
    match_id = (await clients[0].expect("matched"))["match_id"]
    for c in clients:
        await c.send(type="ready", match_id=match_id)
    roles = {}
    for worker, c in zip(ids, clients, strict=True):
        roles[(await c.expect("state"))["dialog"]["role"]] = (worker, c)
    mover_id, old = roles["questioner"]
    _, answerer = roles["answerer"]
    new = await Client(two.url, old.token, old.tab).open()  # the same tab, now on process two
    await new.expect("state")
    await old.ws.close()  # process one only now sees its old socket go
    await asyncio.sleep(settings.reconnect_grace_seconds + 0.5)
    state = await the_dialog(services)
    assert state is not None and state.status == "in_progress" and state.connected["questioner"], state
    assert await services.redis.exists(services.keys.presence(mover_id))
    # and the dialog goes on with the moved worker on process two
    await new.send(type="message", client_id="q1", text="What is in the picture?")
    await answerer.expect("message", seq=1)
    await answerer.send(type="message", client_id="a1", text="A quiet harbour at dusk.")
    await new.expect("message", seq=2)
    explanation = "The calm water and the soft evening colours make me feel rather peaceful today."
    for c, phase in ((new, "before_reveal"), (new, "after_reveal"), (answerer, "answerer")):
        await c.send(
            type="form", client_id=phase, phase=phase, emotion="contentment", explanation=explanation
        )
        await c.expect("ack", client_id=phase)
    await new.expect("done")
    await answerer.expect("done")
    dialog, turns, _, _ = await record(services, state.id)
    assert dialog.status == "complete"
    assert_whole_chat(turns, 1)
    for c in (new, old, answerer):
        await c.ws.close()


# ------------------------------------------------------------------ deadlines


async def test_turn_deadline_ends_a_silent_dialog_and_pays_the_partner(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(rounds=4, turn_seconds=2, warn_seconds=1)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    silent, partner = await run_bots(bot(server.url, "timeout", at_round=2), bot(server.url))
    assert silent.outcome == "turn_timeout", silent
    assert partner.outcome == "partner_left_paid" and partner.completion_code, partner
    dialog, turns, forms, events = await record(services, silent.dialog_id)
    assert (dialog.status, dialog.end_reason, dialog.ended_by) == ("timed_out", "turn_timeout", silent.role)
    assert len(turns) in (2, 3) and dialog.rounds_done == 1  # it stopped in round 2
    # the partner finished their side (salvage) and is recorded as paid
    assert sorted(f.role for f in forms) == [partner.role] * len(forms) and forms
    kinds = {e.worker_id: e for e in events}
    assert len(kinds) == 2
    paid = next(e for e in events if e.kind == "partner_dropped")
    assert paid.completion_code == partner.completion_code
    assert next(e for e in events if e is not paid).kind == "timed_out"
    await stimulus_is_free(services, stimulus)


async def test_deadline_fires_after_the_process_that_claimed_it_is_killed(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(rounds=3, turn_seconds=5, claim_seconds=1.5)
    (stimulus,) = await stimuli(1)
    one, two = await two_servers(server_factory, settings)
    silent = bot(one.url, "timeout", at_round=1, reconnect_url=two.url)
    partner = bot(one.url, reconnect_url=two.url)
    run = asyncio.create_task(run_bots(silent, partner))
    silent_id = services.signer.worker_id("local", silent.name)

    async def waiting_on_the_silent_bot() -> DialogState | None:
        st = await the_dialog(services)
        return st if st and st.turn and st.workers[st.turn] == silent_id else None

    state = await eventually(waiting_on_the_silent_bot)
    one.kill()
    # process one had claimed the turn deadline when it died: nobody fires it until the claim runs out
    claim = services.redis.register_script(CLAIM_LUA)
    member = f"turn|{state.id}|{state.turn}|{state.deadline!r}"
    claimed = await claim(
        keys=[services.keys.deadlines],
        args=[repr(state.deadline), repr(state.deadline + settings.claim_seconds), 200],
    )
    assert member in claimed
    silent_result, partner_result = await asyncio.wait_for(run, 30)
    assert silent_result.outcome == "turn_timeout" and silent_result.reconnects >= 1, silent_result
    assert partner_result.outcome == "partner_left_paid", partner_result
    dialog, _, _, _ = await record(services, state.id)
    assert (dialog.status, dialog.end_reason) == ("timed_out", "turn_timeout")
    assert await services.redis.zscore(services.keys.deadlines, member) is None
    await stimulus_is_free(services, stimulus)


# ------------------------------------------------------------------ crashes


async def test_acked_messages_survive_a_killed_process(settings_factory, stimuli, server_factory, services):
    settings = settings_factory(rounds=10)
    await stimuli(1)
    one, two = await two_servers(server_factory, settings)
    bots = [bot(one.url, think=0.1, reconnect_url=two.url) for _ in range(2)]
    run = asyncio.create_task(run_bots(*bots, timeout=40))

    async def some_turns_stored() -> bool:
        async with services.sessions() as db:
            return (
                len(
                    (
                        await db.execute(select(Turn.id).join(Dialog).where(Dialog.study == settings.study))
                    ).all()
                )
                >= 6
            )

    await eventually(some_turns_stored)
    acked_before = {cid for b in bots for cid in b.result.acked}
    one.kill()
    results = await asyncio.wait_for(run, 45)
    assert [r.outcome for r in results] == ["completed", "completed"], results
    assert all(r.reconnects >= 1 for r in results)
    dialog, turns, forms, events = await record(services, results[0].dialog_id)
    assert dialog.status == "complete" and dialog.rounds_done == 10
    assert_whole_chat(turns, 10)
    stored = {t.client_id for t in turns} | {f.client_id for f in forms}
    assert acked_before and acked_before <= stored
    assert {cid for r in results for cid in r.acked} <= stored
    assert await services.redis.llen(services.keys.dialog_log(dialog.id)) == 20
    assert sorted(e.kind for e in events) == ["completed", "completed"]
    for r in results:
        assert r.history_seqs == list(range(1, 21))


# ------------------------------------------------------------------ leaving


async def test_leaving_abandons_and_the_partner_is_paid(settings_factory, stimuli, server_factory, services):
    settings = settings_factory(rounds=4)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    leaver, partner = await run_bots(bot(server.url, "abandon", at_round=2), bot(server.url))
    assert leaver.outcome == "left" and partner.outcome == "partner_left_paid", (leaver, partner)
    dialog, _, forms, events = await record(services, leaver.dialog_id)
    assert (dialog.status, dialog.end_reason, dialog.ended_by) == ("abandoned", "left", leaver.role)
    assert forms and {f.role for f in forms} == {partner.role}
    by_kind = {e.kind: e for e in events}
    assert set(by_kind) == {"abandoned", "partner_dropped"}
    assert by_kind["partner_dropped"].completion_code == partner.completion_code
    assert by_kind["abandoned"].completion_code is None
    await stimulus_is_free(services, stimulus)


async def test_a_final_dialog_left_unrecorded_by_a_dead_process_is_recorded_by_a_sweeper(
    settings_factory, stimuli, server_factory, services
):
    """The last step reached Redis, then the process died before the database row was
    final: the safety-net deadline set by that step lets any sweeper finish the record.
    Run again on a record already final, it changes nothing (no second pool release)."""
    settings = settings_factory(rounds=3)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    keys = services.keys
    leaver, _ = await run_bots(bot(server.url, "abandon", at_round=2), bot(server.url))
    (done,) = (await simulate(server.url, pairs=1, timeout=60))[1][:1]
    for dialog_id in (leaver.dialog_id, done.dialog_id):
        member = f"final|{dialog_id}|-|0"
        assert await services.redis.zscore(keys.deadlines, member) is None  # removed once recorded
    load = await services.redis.hget(keys.stim_load, stimulus)

    async with services.sessions() as db:  # what the dead process left: a row still in progress
        row = await db.get(Dialog, done.dialog_id)
        row.status, row.end_reason, row.ended_at, row.rounds_done = "in_progress", None, None, 0
        await db.commit()
    now = time.time()
    for dialog_id in (done.dialog_id, leaver.dialog_id):
        await services.redis.zadd(keys.deadlines, {f"final|{dialog_id}|-|0": now})

    async def recorded() -> bool:
        left = await services.redis.zrange(keys.deadlines, 0, -1)
        return not [m for m in left if m.startswith("final|")]

    await eventually(recorded)
    dialog, turns, _, _ = await record(services, done.dialog_id)
    assert (dialog.status, dialog.rounds_done) == ("complete", 3) and dialog.ended_at is not None
    assert len(turns) == 6
    dialog, _, _, _ = await record(services, leaver.dialog_id)
    assert (dialog.status, dialog.end_reason) == ("abandoned", "left")
    assert await services.redis.hget(keys.stim_load, stimulus) == load  # released once, not twice


async def test_staying_away_past_the_grace_period_abandons(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(rounds=4, reconnect_grace_seconds=1)
    (stimulus,) = await stimuli(1)
    server = server_factory(settings)
    away, partner = await run_bots(bot(server.url, "disconnect", at_round=2, away=3.5), bot(server.url))
    # the partner was told (ended, with the chance to finish) and paid
    assert partner.outcome == "partner_left_paid" and partner.completion_code, partner
    # the one who came back too late learns that the dialog is over
    assert away.outcome == "disconnected" and away.reconnects == 1, away
    dialog, _, _, events = await record(services, away.dialog_id)
    assert (dialog.status, dialog.end_reason, dialog.ended_by) == ("abandoned", "disconnected", away.role)
    assert {e.kind for e in events} == {"abandoned", "partner_dropped"}
    await stimulus_is_free(services, stimulus)


def test_the_sweeper_backs_off_while_its_ticks_fail() -> None:
    """Failed ticks (Redis away) double the wait up to 2 s; a success returns to the interval."""
    from server.redis_conn import MAX_RETRY_SECONDS, retry_delay

    assert retry_delay(0.05, 0) == 0.05
    waits = [retry_delay(0.05, n) for n in range(1, 12)]
    assert waits[:3] == [0.1, 0.2, 0.4]
    assert waits == sorted(waits) and waits[-1] == MAX_RETRY_SECONDS == 2.0
    assert retry_delay(5.0, 3) == 5.0  # an interval longer than the cap is never shortened
