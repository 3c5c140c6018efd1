"""The database record of a dialog: every accepted message and form is stored before its ``ack``,
and the end of a dialog (or a resend) stores again only what a crash left out, without a failed
insert (one would fail the group commit it joined, sending every batch-mate down the slow path)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import Text, cast, delete, event, func, insert, select

from server.db.models import Dialog, Response, Turn
from server.dialog.machine import Acknowledge, SendMessage, SubmitForm
from server.dialog.runtime import DialogRuntime, GroupCommit
from server.services import Services
from server.settings import Settings
from tests.test_runtime_cache import new_dialog

WHY = "the calm blue water and the soft light of the evening make me feel at ease"


@pytest.fixture
def settings(settings_factory, request) -> Settings:
    return settings_factory(**getattr(request, "param", {"rounds": 2}))


def say(role: str, client_id: str, text: str):
    return lambda now: SendMessage(role, client_id, text, now)  # type: ignore[arg-type]


def form(role: str, client_id: str, phase: str):
    return lambda now: SubmitForm(role, client_id, phase, "contentment", WHY, now)  # type: ignore[arg-type]


def failed_statements(services: Services) -> list[str]:
    """Every statement the database refused from now on (the engine's own error hook)."""
    failed: list[str] = []
    event.listen(services.engine.sync_engine, "handle_error", lambda ctx: failed.append(ctx.statement))
    return failed


async def stored(services: Services, dialog_id: str) -> tuple[list[int], list[str]]:
    async with services.sessions() as db:
        seqs = (await db.execute(select(Turn.seq).where(Turn.dialog_id == dialog_id))).scalars()
        phases = (await db.execute(select(Response.phase).where(Response.dialog_id == dialog_id))).scalars()
        return sorted(seqs), sorted(phases)


async def chat(runtime: DialogRuntime, dialog_id: str) -> None:
    for i in range(2):
        assert (await runtime.handle(dialog_id, say("questioner", f"q{i}", f"Question {i} here?"))).changed
        assert (await runtime.handle(dialog_id, say("answerer", f"a{i}", f"Answer {i} here."))).changed


async def test_the_end_of_a_dialog_stores_only_what_a_crash_left_out(services: Services, stimuli):
    runtime = DialogRuntime(services)
    crashed = DialogRuntime(services)  # another process, which accepts message 3 and form f2, then dies
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    assert (await runtime.handle(dialog_id, say("questioner", "q0", "Question 0 here?"))).changed
    assert (await runtime.handle(dialog_id, say("answerer", "a0", "Answer 0 here."))).changed
    assert (await crashed.handle(dialog_id, say("questioner", "q1", "Question 1 here?"))).changed
    assert (await runtime.handle(dialog_id, say("answerer", "a1", "Answer 1 here."))).changed
    assert (await runtime.handle(dialog_id, form("questioner", "f1", "before_reveal"))).changed
    assert (await crashed.handle(dialog_id, form("questioner", "f2", "after_reveal"))).changed
    # as if that process had died between the Redis commit of message 3 / form f2 and their inserts
    async with services.sessions() as db:
        await db.execute(delete(Turn).where(Turn.dialog_id == dialog_id, Turn.seq == 3))
        await db.execute(
            delete(Response).where(Response.dialog_id == dialog_id, Response.phase == "after_reveal")
        )
        await db.commit()
    failed = failed_statements(services)
    out = await runtime.handle(dialog_id, form("answerer", "f3", "answerer"))  # the last step: finalize
    assert out is not None and out.changed and out.state.final
    assert await stored(services, dialog_id) == ([1, 2, 3, 4], ["after_reveal", "answerer", "before_reveal"])
    assert failed == []  # nothing was inserted twice
    async with services.sessions() as db:
        row = await db.get(Dialog, dialog_id)
        assert row is not None and (row.status, row.rounds_done) == ("complete", 2)
        assert (await db.execute(select(func.count()).where(Turn.dialog_id == dialog_id))).scalar_one() == 4


def statements(services: Services) -> list[str]:
    """Every statement sent to the database from now on."""
    sent: list[str] = []
    event.listen(
        services.engine.sync_engine, "before_cursor_execute", lambda conn, cur, sql, *rest: sent.append(sql)
    )
    return sent


async def test_a_process_that_stored_every_row_makes_the_record_final_without_reading_them_back(
    services: Services, stimuli
):
    """When this process inserted every message and form in the dialog's log, nothing can be
    missing from the database: the end neither re-reads the log nor selects the stored rows."""
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    await chat(runtime, dialog_id)
    assert (await runtime.handle(dialog_id, form("questioner", "f1", "before_reveal"))).changed
    assert (await runtime.handle(dialog_id, form("questioner", "f2", "after_reveal"))).changed
    sent = statements(services)
    out = await runtime.handle(dialog_id, form("answerer", "f3", "answerer"))
    assert out is not None and out.state.final
    assert not [sql for sql in sent if sql.lstrip().upper().startswith("SELECT")]
    assert await stored(services, dialog_id) == ([1, 2, 3, 4], ["after_reveal", "answerer", "before_reveal"])
    async with services.sessions() as db:
        row = await db.get(Dialog, dialog_id)
        assert row is not None and (row.status, row.rounds_done, row.end_reason) == ("complete", 2, None)
        assert row.ended_at is not None


async def test_a_form_accepted_by_another_process_is_checked_at_the_end(services: Services, stimuli):
    """Every message was stored here, but a form was accepted elsewhere: the end checks the log
    against the database (and stores the form if that process died before inserting it)."""
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    await chat(runtime, dialog_id)
    assert (await runtime.handle(dialog_id, form("questioner", "f1", "before_reveal"))).changed
    assert (await DialogRuntime(services).handle(dialog_id, form("questioner", "f2", "after_reveal"))).changed
    async with services.sessions() as db:
        await db.execute(
            delete(Response).where(Response.dialog_id == dialog_id, Response.phase == "after_reveal")
        )
        await db.commit()
    failed = failed_statements(services)
    out = await runtime.handle(dialog_id, form("answerer", "f3", "answerer"))
    assert out is not None and out.state.final
    assert await stored(services, dialog_id) == ([1, 2, 3, 4], ["after_reveal", "answerer", "before_reveal"])
    assert failed == []


async def test_both_workers_may_number_their_messages_alike_and_every_message_is_stored(
    services: Services, stimuli
):
    """Client ids are unique per sender: the questioner's "1" and the answerer's "1" are two
    messages, both acknowledged and both stored (the row of the second used to be refused)."""
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    failed = failed_statements(services)
    for i in range(2):
        assert (await runtime.handle(dialog_id, say("questioner", str(i), f"Question {i} here?"))).changed
        assert (await runtime.handle(dialog_id, say("answerer", str(i), f"Answer {i} here."))).changed
    assert await stored(services, dialog_id) == ([1, 2, 3, 4], [])
    assert failed == []
    again = await runtime.handle(dialog_id, say("answerer", "0", "Answer 0 here."))  # still a resend
    assert again is not None and again.duplicate
    assert [e.seq for e in again.effects if isinstance(e, Acknowledge)] == [2]  # the answerer's "0"
    assert (await stored(services, dialog_id))[0] == [1, 2, 3, 4]


async def test_a_resend_of_a_stored_message_inserts_nothing_and_one_lost_row_is_repaired(
    services: Services, stimuli
):
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    await chat(runtime, dialog_id)
    failed = failed_statements(services)
    again = await runtime.handle(dialog_id, say("questioner", "q0", "Question 0 here?"))
    assert again is not None and again.duplicate and failed == []
    async with services.sessions() as db:  # a crash between the Redis commit and the insert
        await db.execute(delete(Turn).where(Turn.dialog_id == dialog_id, Turn.seq == 4))
        await db.commit()
    again = await runtime.handle(dialog_id, say("answerer", "a1", "Answer 1 here."))
    assert again is not None and again.duplicate and failed == []
    assert (await stored(services, dialog_id))[0] == [1, 2, 3, 4]


@pytest.mark.parametrize("settings", [{"rounds": 10}], indirect=True)
async def test_a_resend_of_an_early_message_after_many_later_ones_is_idempotent_after_a_restart(
    services: Services, stimuli
):
    """The stored state does not list the messages' client ids (it would grow by one a message):
    the resend check reads them from the message log, so a resend of any acknowledged message
    is spotted, by this process or by one that remembers nothing (a restart)."""
    here = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, here, stimuli)
    key = services.keys.dialog(dialog_id)
    sizes = []
    for i in range(8):
        assert (await here.handle(dialog_id, say("questioner", f"q{i}", f"Question {i} here?"))).changed
        assert (await here.handle(dialog_id, say("answerer", f"a{i}", f"Answer {i} here."))).changed
        sizes.append(len(await services.redis.get(key)))
    raw = await services.redis.get(key)
    assert json.loads(raw)["applied"] == {} and "sent" not in json.loads(raw) and '"q0"' not in raw
    assert max(sizes) - min(sizes) < 16  # seq, round and times only: no entry per message
    log_len = await services.redis.llen(services.keys.dialog_log(dialog_id))
    failed = failed_statements(services)
    for runtime in (here, DialogRuntime(services)):  # this process, and one just restarted
        for role, cid, seq in (("questioner", "q0", 1), ("answerer", "a0", 2), ("answerer", "a6", 14)):
            again = await runtime.handle(dialog_id, say(role, cid, "whatever the resend says"))
            assert again is not None and again.duplicate and again.effects == [Acknowledge(role, cid, seq)]
        # on the remembered state too: left to a fresh read, which finds it a resend
        assert (
            await runtime.try_cached(runtime.cached(dialog_id), say("questioner", "q3", "Again?")(0)) is None
        )
    assert await services.redis.llen(services.keys.dialog_log(dialog_id)) == log_len == 16
    assert (await stored(services, dialog_id))[0] == list(range(1, 17)) and failed == []
    late = await DialogRuntime(services).handle(dialog_id, say("questioner", "q8", "One more question?"))
    assert late is not None and late.changed and late.state.seq == 17
    assert late.state.sent == {
        f"{r}:{c}{i}": 2 * i + (r == "answerer") + 1
        for i in range(8)
        for r, c in (("questioner", "q"), ("answerer", "a"))
    } | {"questioner:q8": 17}


async def test_the_group_commit_stores_rows_exactly_as_sqlalchemy_does(services: Services, stimuli):
    """On PostgreSQL the group commit hands its rows to the driver itself (a compiled INSERT,
    tuples): what it stores must be what SQLAlchemy's own insert stores, to the JSON text."""
    dialog_id, _, _ = await new_dialog(services, DialogRuntime(services), stimuli)
    at = datetime(2026, 11, 28, 7, 30, 1, 123456, tzinfo=UTC)
    flags = [{"rule": "greeting", "severity": "soft", "score": 0.5, "words": ["héllo", 'a "b"']}, {}]

    def row(seq: int) -> dict:
        text = f"Ünïcødé 'quotes' \"double\" \\ back\\slash, emoji 🎨 and %s %(x)s $1 ({seq})"
        return {
            "dialog_id": dialog_id,
            "seq": seq,
            "round": 3,
            "role": "answerer",
            "text": text,
            "client_id": f"c{seq}",
            "sent_at": at,
            "latency_ms": 1234,
            "flags": flags,
        }

    writer = GroupCommit(services.engine)
    form = {
        "dialog_id": dialog_id,
        "role": "questioner",
        "phase": "before_reveal",
        "emotion": "awe",
        "explanation": WHY,
        "client_id": "f1",
        "submitted_at": at,
        "latency_ms": 7,
    }
    assert await writer.store([(Turn.__table__, row(101)), (Response.__table__, form)])
    async with services.sessions() as db:
        await db.execute(insert(Turn.__table__), [row(102)])
        await db.commit()
    columns = [c for c in Turn.__table__.c if c.name not in ("id", "seq", "client_id", "text", "flags")]
    query = select(*columns, Turn.text, cast(Turn.flags, Text)).where(Turn.dialog_id == dialog_id)
    async with services.sessions() as db:
        ours, theirs = (await db.execute(query.order_by(Turn.seq))).all()
        stored_form = (await db.execute(select(Response).where(Response.dialog_id == dialog_id))).scalar_one()
    assert tuple(ours)[:-2] == tuple(theirs)[:-2] and ours[-1] == theirs[-1]
    assert ours[-2].endswith("(101)") and theirs[-2].endswith("(102)") and ours[-2][:-5] == theirs[-2][:-5]
    assert json.loads(ours[-1]) == flags
    when = stored_form.submitted_at  # SQLite gives it back naive (as SQLAlchemy stores it there)
    assert (when if when.tzinfo else when.replace(tzinfo=UTC)) == at
    assert (stored_form.explanation, stored_form.latency_ms) == (WHY, 7)
    # a batch holding a row already stored is refused whole, as before
    assert not await writer.store(
        [(Turn.__table__, row(103)), (Turn.__table__, row(101) | {"client_id": "x"})]
    )
    assert (await stored(services, dialog_id))[0] == [101, 102]
