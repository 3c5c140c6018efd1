"""Chat rules in a live dialog: hard violations bounce, soft ones warn and are flagged, repeat
offenders are removed. Real server process, real websockets."""

from __future__ import annotations

from sqlalchemy import select

from server.db.models import Dialog, Turn, WorkerEvent
from tests.test_ws_bad_input import pair, refused, say


async def test_hard_rules_bounce_and_soft_rules_warn(settings, stimuli, server_factory, services):
    await stimuli(1)
    server = server_factory(settings)
    q, a, _ = await pair(server.url)
    error = await refused(
        services,
        q,
        a,
        {"type": "message", "client_id": "g1", "text": "Hi there, how are you today?"},
        "rule_violation",
    )
    assert "greeting" in error["rules"] and error["message"]
    # still the questioner's turn: a proper question goes through
    await say(q, a, "What colours are used for the sky in the picture?")
    error = await refused(
        services, a, q, {"type": "message", "client_id": "y1", "text": "yes"}, "rule_violation"
    )
    assert "short_answer" in error["rules"]
    await say(a, q, "The sky is a pale orange that fades into a deep blue near the top.")
    # a soft rule: accepted and relayed, the author is warned and the turn is flagged
    await q.send({"type": "message", "client_id": "soft1", "text": "What is the image about?"})
    frames = await q.fence()
    kinds = [f["type"] for f in frames]
    assert kinds[:1] == ["ack"] and "message" in kinds and "rule_warning" in kinds, frames
    warning = next(f for f in frames if f["type"] == "rule_warning")
    assert warning["client_id"] == "soft1" and "generic_question" in warning["rules"]
    assert [f["type"] for f in await a.fence()] == ["message"]
    async with services.sessions() as db:
        turn = (
            await db.execute(
                select(Turn).where(Turn.dialog_id == q.dialog["dialog_id"], Turn.client_id == "soft1")
            )
        ).scalar_one()
        bounces = (
            (
                await db.execute(
                    select(WorkerEvent.detail).where(
                        WorkerEvent.kind == "rule_bounce", WorkerEvent.dialog_id == turn.dialog_id
                    )
                )
            )
            .scalars()
            .all()
        )
    assert [f["id"] for f in turn.flags] == ["generic_question"]
    assert sorted(r for detail in bounces for r in detail["rules"]) == sorted(["greeting", "short_answer"])


async def test_too_many_hard_violations_remove_the_worker(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(max_hard_violations=2)
    await stimuli(1, settings)
    server = server_factory(settings)
    q, a, _ = await pair(server.url)
    await refused(
        services, q, a, {"type": "message", "client_id": "b1", "text": "hello!!! how r u"}, "rule_violation"
    )
    await q.send({"type": "message", "client_id": "b2", "text": "hey there, good morning"})
    error = await q.expect("error")
    assert error["code"] == "rule_violation"
    ended = await q.expect("ended")
    assert ended["by_you"] and ended["reason"] == "rule_violations"
    partner = await a.expect("ended")
    assert not partner["by_you"] and partner["salvage"]
    async with services.sessions() as db:
        dialog = await db.get(Dialog, q.dialog["dialog_id"])
    assert (dialog.status, dialog.end_reason, dialog.ended_by) == (
        "in_progress",
        None,
        None,
    ) or dialog.status == "abandoned"
