"""Whole dialogs through real server processes, real Redis, a real database and bots."""

from __future__ import annotations

from sqlalchemy import func, select

from server.bots import simulate
from server.db.models import Dialog, Response, Turn, WorkerEvent


async def test_two_bots_complete_a_dialog(settings, stimuli, server_factory, services):
    await stimuli(2)
    server = server_factory(settings)
    summary, results = await simulate(server.url, pairs=1, timeout=60)
    assert summary["completed"] == 1, summary
    assert summary["errors"] == 0
    roles = sorted(r.role for r in results)
    assert roles == ["answerer", "questioner"]
    dialog_id = results[0].dialog_id
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        assert dialog.status == "complete" and dialog.rounds_done == 10
        turns = (
            (await db.execute(select(Turn).where(Turn.dialog_id == dialog_id).order_by(Turn.seq)))
            .scalars()
            .all()
        )
        assert [t.role for t in turns] == ["questioner", "answerer"] * 10
        assert [t.round for t in turns] == [r for r in range(1, 11) for _ in (0, 1)]
        phases = (
            (await db.execute(select(Response.phase).where(Response.dialog_id == dialog_id))).scalars().all()
        )
        assert sorted(phases) == ["after_reveal", "answerer", "before_reveal"]
        kinds = (
            await db.execute(
                select(WorkerEvent.kind, func.count())
                .where(WorkerEvent.dialog_id == dialog_id)
                .group_by(WorkerEvent.kind)
            )
        ).all()
        assert dict(kinds) == {"completed": 2}
    assert all(r.completion_code for r in results)
    # every deadline the dialog set was unset by the step that made it obsolete: none is left
    # to fire, stale, minutes later
    left = await services.redis.zrange(services.keys.deadlines, 0, -1)
    assert [m for m in left if f"|{dialog_id}|" in m] == []
