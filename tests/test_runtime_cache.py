"""The state a process remembers of a dialog saves a read per chat message, but never decides
anything on its own: a stale copy fails the compare-and-set and the event is judged on a fresh
read. Two ``DialogRuntime`` objects stand for two server processes sharing Redis and the database."""

from __future__ import annotations

import time

from sqlalchemy import func, select

from server.db.models import Turn
from server.dialog.machine import DialogState, SendMessage
from server.dialog.moderation import Moderator
from server.dialog.runtime import TAG_HEAD, DialogRuntime, compare_key
from server.services import Services
from tests.test_lobby import join_in_order, make_workers, start_dialog


async def new_dialog(services: Services, runtime: DialogRuntime, stimuli) -> tuple[str, str, str]:
    await stimuli(1)
    await services.pool.sync_from_db(services.sessions, services.settings.study)
    workers = await make_workers(services, 2)
    await join_in_order(services.lobby, workers)
    match = await services.lobby.pair_once()
    assert match is not None
    await start_dialog(services.lobby, runtime, match)
    return match.match_id, match.questioner, match.answerer


def message(role: str, client_id: str, text: str) -> SendMessage:
    return SendMessage(role, client_id, text, time.time())  # type: ignore[arg-type]


async def stored_turns(services: Services, dialog_id: str) -> int:
    async with services.sessions() as db:
        return (await db.execute(select(func.count()).where(Turn.dialog_id == dialog_id))).scalar_one()


async def test_own_commits_keep_the_remembered_state_current(services: Services, stimuli):
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    assert runtime.cached(dialog_id) is None  # nothing read yet
    snap = await runtime.snapshot(dialog_id)
    assert runtime.cached(dialog_id) is snap
    out = await runtime.try_cached(snap, message("questioner", "q1", "What colour is the boat?"))
    assert out is not None and out.changed
    kept = runtime.cached(dialog_id)
    assert kept is not None and kept.state.seq == 1 and kept.state.turn == "answerer"
    assert [t.text for t in kept.turns] == ["What colour is the boat?"]
    assert kept.raw == await services.redis.get(services.keys.dialog(dialog_id))
    out = await runtime.try_cached(kept, message("answerer", "a1", "It is a red boat with a white sail."))
    assert out is not None
    assert await services.redis.llen(services.keys.dialog_log(dialog_id)) == 2
    assert await stored_turns(services, dialog_id) == 2  # in the database before the ack


async def test_a_stale_copy_changes_nothing_and_is_forgotten(services: Services, stimuli):
    here, there = DialogRuntime(services), DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, here, stimuli)
    stale = await here.snapshot(dialog_id)
    # the other process accepts the questioner's message; this one still remembers the start
    assert await there.handle(dialog_id, lambda now: message("questioner", "q1", "Is it night?")) is not None
    out = await here.try_cached(stale, message("questioner", "q2", "Are there any people?"))
    assert out is None
    assert here.cached(dialog_id) is None
    state = (await here.snapshot(dialog_id)).state
    assert (state.seq, state.turn) == (1, "answerer")
    assert await services.redis.llen(services.keys.dialog_log(dialog_id)) == 1
    assert await stored_turns(services, dialog_id) == 1
    # judged on the fresh read, the same message is out of turn
    again = await here.handle(dialog_id, lambda now: message("questioner", "q2", "Are there any people?"))
    assert again is not None and again.error and not again.changed


async def test_what_the_remembered_state_refuses_is_left_to_a_fresh_read(services: Services, stimuli):
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    snap = await runtime.snapshot(dialog_id)
    assert await runtime.try_cached(snap, message("answerer", "a1", "It is a calm blue sea.")) is None
    first = await runtime.try_cached(snap, message("questioner", "q1", "Is the sea calm?"))
    assert first is not None
    # a resend of an accepted message is not handled on the remembered state either
    resend = message("questioner", "q1", "Is the sea calm?")
    assert await runtime.try_cached(runtime.cached(dialog_id), resend) is None
    assert await services.redis.llen(services.keys.dialog_log(dialog_id)) == 1


async def test_the_rules_see_exactly_the_turns_of_the_state_they_judge(services: Services, stimuli):
    """The moderator keeps each dialog's history for the rules and extends it as turns arrive
    (also turns accepted by another process); a stale, shorter state is judged on its own turns."""
    here, there = DialogRuntime(services), DialogRuntime(services)
    moderator = Moderator(services, here)
    dialog_id, _, _ = await new_dialog(services, here, stimuli)
    early = await here.snapshot(dialog_id)
    first = await moderator.judge(early, "questioner", "q1", "Is there a dog near the fence?")
    assert first is not None and "repeated_question" not in first.rules
    # the other process accepts two turns; this one judges on a fresh read
    assert await there.handle(
        dialog_id, lambda now: message("questioner", "q1", "Is there a dog near the fence?")
    )
    assert await there.handle(
        dialog_id, lambda now: message("answerer", "a1", "Yes, a brown dog sits by it.")
    )
    fresh = await here.snapshot(dialog_id)
    again = await moderator.judge(fresh, "questioner", "q2", "Is there a dog near the fence?")
    assert again is not None and "repeated_question" in again.rules
    # the early state (no turns) must not be judged with the turns it did not have
    stale = await moderator.judge(early, "questioner", "q2", "Is there a dog near the fence?")
    assert stale is not None and "repeated_question" not in stale.rules
    assert (
        await moderator.judge(fresh, "questioner", "q3", "Is there a dog near the fence?")
    ).rules == again.rules


async def test_a_state_stored_without_a_version_tag_is_judged_and_committed(services: Services, stimuli):
    """A server upgraded mid-study finds states the old server stored: plain JSON, no tag. They
    are compared whole, and the first commit tags them."""
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    key = services.keys.dialog(dialog_id)
    tagged = await services.redis.get(key)
    assert tagged.startswith(TAG_HEAD)
    old = DialogState.model_validate_json(tagged).model_dump_json()  # what the old server stored
    await services.redis.set(key, old)
    fresh = DialogRuntime(services)  # as after the restart: nothing remembered
    snap = await fresh.snapshot(dialog_id)
    assert snap.raw == old and compare_key(snap.raw) == old
    out = await fresh.try_cached(snap, message("questioner", "q1", "Is anyone swimming?"))
    assert out is not None and out.changed
    stored = await services.redis.get(key)
    assert stored.startswith(TAG_HEAD) and compare_key(stored) != stored
    assert DialogState.model_validate_json(stored).model_dump() == out.state.model_dump()  # all but `sent`
    assert (await DialogRuntime(services).snapshot(dialog_id)).state == out.state  # `sent` from the log
    # the remembered, tagged state goes on being committed by its tag
    out = await fresh.try_cached(
        fresh.cached(dialog_id), message("answerer", "a1", "No, the beach is empty.")
    )
    assert out is not None and (out.state.seq, out.state.turn) == (2, "questioner")
    assert await services.redis.llen(services.keys.dialog_log(dialog_id)) == 2


async def test_an_untagged_write_beside_us_makes_the_remembered_state_stale(services: Services, stimuli):
    """An old server still running beside this one writes states without a tag: a tag this process
    remembers then fails the compare, whatever the state holds."""
    here = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, here, stimuli)
    snap = await here.snapshot(dialog_id)
    key = services.keys.dialog(dialog_id)
    # the old server accepted an event that left the state as it was (e.g. a reconnect)
    await services.redis.set(key, snap.state.model_dump_json())
    assert await here.try_cached(snap, message("questioner", "q1", "Is it raining?")) is None
    assert await services.redis.llen(services.keys.dialog_log(dialog_id)) == 0
    # judged again on a fresh read (compared whole), the message goes through
    out = await here.handle(dialog_id, lambda now: message("questioner", "q1", "Is it raining?"))
    assert out is not None and out.changed and out.state.seq == 1
    assert (await services.redis.get(key)).startswith(TAG_HEAD)


async def test_every_write_has_its_own_tag(services: Services, stimuli):
    """Tags never repeat, across processes either: a state that went A -> B -> A' never passes
    for the A a process remembers."""
    here, there = DialogRuntime(services), DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, here, stimuli)
    key = services.keys.dialog(dialog_id)
    seen = {compare_key(await services.redis.get(key))}
    for i, runtime in enumerate([here, there, here, there]):
        role = "questioner" if i % 2 == 0 else "answerer"
        assert await runtime.handle(
            dialog_id, lambda now, r=role, i=i: message(r, f"m{i}", f"Message {i} here.")
        )
        seen.add(compare_key(await services.redis.get(key)))
    assert len(seen) == 5
