"""Live operations: who waits, which dialogs run and where, rates, stimulus progress."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import func, select

from server.db.models import Dialog, Stimulus
from server.dialog.machine import DialogState
from server.services import Services
from server.stats import study_stats


async def waiting_workers(services: Services) -> dict[str, Any]:
    """Waiting workers by the role they will most likely get (from their past roles)."""
    r, k = services.redis, services.keys
    now = time.time()
    queue = await r.zrange(k.queue, 0, -1, withscores=True)
    by_role: dict[str, list[float]] = {"questioner": [], "answerer": [], "either": []}
    async with r.pipeline(transaction=False) as pipe:
        for worker, _ in queue:
            pipe.hmget(k.roles(worker), "questioner", "answerer")
        balances = await pipe.execute() if queue else []
    for (_, joined), (q, a) in zip(queue, balances, strict=True):
        diff = int(q or 0) - int(a or 0)
        role = "answerer" if diff > 0 else "questioner" if diff < 0 else "either"
        by_role[role].append(round(now - joined, 1))
    return {
        role: {"count": len(waits), "longest_wait_s": max(waits, default=0.0)}
        for role, waits in by_role.items()
    } | {"total": len(queue)}


async def active_dialogs(services: Services) -> list[dict[str, Any]]:
    r, k = services.redis, services.keys
    ids = await r.zrange(k.active_dialogs, 0, -1)
    if not ids:
        return []
    raws = await r.mget([k.dialog(i) for i in ids])
    now = time.time()
    rows = []
    for raw in raws:
        if not raw:
            continue
        st = DialogState.model_validate_json(raw)
        deadlines = [d for d in (st.current_deadline("questioner"), st.current_deadline("answerer")) if d]
        rows.append(
            {
                "dialog_id": st.id,
                "stimulus_id": st.stimulus_id,
                "stage": "chat" if st.chatting else "forms",
                "round": st.round,
                "rounds": st.rounds,
                "turn": st.turn,
                "seconds_left": round(min(deadlines) - now, 1) if deadlines else None,
                "connected": st.connected,
            }
        )
    return rows


async def stimulus_progress(services: Services, limit: int = 200) -> list[dict[str, Any]]:
    study = services.settings.study
    async with services.sessions() as db:
        done = dict(
            (
                await db.execute(
                    select(Dialog.stimulus_id, func.count())
                    .where(Dialog.study == study, Dialog.status == "complete")
                    .group_by(Dialog.stimulus_id)
                )
            ).all()
        )
        stimuli = (
            await db.execute(
                select(Stimulus.id, Stimulus.title, Stimulus.target_dialogs)
                .where(Stimulus.study == study)
                .order_by(Stimulus.id)
                .limit(limit)
            )
        ).all()
    load = await services.redis.hgetall(services.keys.stim_load)
    default = services.settings.dialogs_per_stimulus
    return [
        {
            "stimulus_id": sid,
            "title": title,
            "target": target or default,
            "complete": done.get(sid, 0),
            "running": max(0, int(load.get(sid, 0)) - done.get(sid, 0)),
        }
        for sid, title, target in stimuli
    ]


async def live_snapshot(services: Services) -> dict[str, Any]:
    stats = await study_stats(services.sessions, services.settings)
    counts = stats["dialogs"]
    finished = counts["complete"] + counts["abandoned"] + counts["timed_out"]

    def rate(n: int) -> float | None:
        return round(n / finished, 3) if finished else None

    return {
        "at": time.time(),
        "paused": bool(await services.redis.exists(services.keys.paused)),
        "waiting": await waiting_workers(services),
        "active": await active_dialogs(services),
        "counts": stats,
        "rates": {
            "completion": rate(counts["complete"]),
            "abandonment": rate(counts["abandoned"]),
            "timeout": rate(counts["timed_out"]),
        },
    }
