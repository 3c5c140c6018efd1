"""Counts for ``avd stats`` and the dashboard: dialogs by status, workers, stimuli progress."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import Dialog, Stimulus, Worker
from server.settings import Settings

STATUSES = ("complete", "in_progress", "abandoned", "timed_out")


async def study_stats(sessions: async_sessionmaker, settings: Settings) -> dict[str, Any]:
    async with sessions() as db:
        by_status = dict(
            (
                await db.execute(
                    select(Dialog.status, func.count())
                    .where(Dialog.study == settings.study)
                    .group_by(Dialog.status)
                )
            ).all()
        )
        workers = (await db.execute(select(func.count()).select_from(Worker))).scalar_one()
        done = dict(
            (
                await db.execute(
                    select(Dialog.stimulus_id, func.count())
                    .where(Dialog.study == settings.study, Dialog.status == "complete")
                    .group_by(Dialog.stimulus_id)
                )
            ).all()
        )
        targets = (
            await db.execute(
                select(Stimulus.id, Stimulus.target_dialogs).where(Stimulus.study == settings.study)
            )
        ).all()
    progress = {"untouched": 0, "partial": 0, "complete": 0}
    for stimulus_id, target in targets:
        got = done.get(stimulus_id, 0)
        wanted = target or settings.dialogs_per_stimulus
        progress["untouched" if got == 0 else "complete" if got >= wanted else "partial"] += 1
    return {
        "dialogs": {status: by_status.get(status, 0) for status in STATUSES}
        | {"total": sum(by_status.values())},
        "workers": {"total": workers},
        "stimuli": progress | {"total": len(targets)},
    }


async def collect_stats(settings: Settings) -> dict[str, Any]:
    engine = make_engine(settings.resolved_database_url)
    try:
        return await study_stats(make_sessionmaker(engine), settings)
    finally:
        await engine.dispose()
