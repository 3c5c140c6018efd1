"""One worker's page in the dashboard: their figures, recent dialogs, bounced messages, payments.

The figures are the same row as in the worker table (``worker_stats.compute``); the lists
are what a researcher opens next: each dialog with its outcome, QC verdict and decision (a
link to the review view), and the messages the live rules bounced, as written.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.admin import worker_stats
from server.db.models import Dialog, QcResult, Review, Turn, WorkerEvent
from server.db.provider_models import Payment


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


async def detail(
    sessions: async_sessionmaker, study: str, worker: str, recent: int = 20
) -> dict[str, Any] | None:
    """Everything the worker page shows, or None when the worker has nothing in this study."""
    rows = await worker_stats.compute(sessions, study, worker)
    if not rows:
        return None
    part = worker_stats.worker_parts(study, worker)
    async with sessions() as db:
        dialogs = (
            await db.execute(
                select(Dialog, part.c.role, QcResult.verdict, Review.decision, Review.bonus_cents)
                .join(part, part.c.dialog_id == Dialog.id)
                .outerjoin(QcResult, QcResult.dialog_id == Dialog.id)
                .outerjoin(Review, Review.dialog_id == Dialog.id)
                .order_by(Dialog.started_at.desc(), Dialog.id)
                .limit(recent)
            )
        ).all()
        ids = [d.id for d, *_ in dialogs]
        messages = dict(
            (
                await db.execute(
                    select(Turn.dialog_id, func.count())
                    .join(part, (part.c.dialog_id == Turn.dialog_id) & (part.c.role == Turn.role))
                    .where(Turn.dialog_id.in_(ids))
                    .group_by(Turn.dialog_id)
                )
            ).all()
        )
        flags = await worker_stats.qc_flag_counts(db, part)
        bounces = (
            await db.execute(
                select(WorkerEvent)
                .where(
                    WorkerEvent.study == study,
                    WorkerEvent.worker_id == worker,
                    WorkerEvent.kind == "rule_bounce",
                )
                .order_by(WorkerEvent.created_at.desc(), WorkerEvent.id.desc())
                .limit(recent * 2)
            )
        ).scalars()
        payments = (
            await db.execute(
                select(Payment)
                .where(Payment.study == study, Payment.worker_id == worker)
                .order_by(Payment.created_at.desc())
                .limit(recent)
            )
        ).scalars()
        bounce_rows = [
            {
                "at": _iso(b.created_at),
                "dialog_id": b.dialog_id,
                "rules": (b.detail or {}).get("rules", []),
                "text": (b.detail or {}).get("text", ""),
            }
            for b in bounces
        ]
        payment_rows = [
            {
                "assignment_id": p.assignment_id,
                "dialog_id": p.dialog_id,
                "outcome": p.outcome,
                "action": p.action,
                "base_cents": p.base_cents,
                "bonus_cents": p.bonus_cents,
                "status": p.status,
                "at": _iso(p.created_at),
            }
            for p in payments
        ]
    none = {"soft": 0, "hard": 0}
    return {
        "worker": rows[0],
        "dialogs": [
            {
                "dialog_id": d.id,
                "role": role,
                "status": d.status,
                "end_reason": d.end_reason,
                "rounds_done": d.rounds_done,
                "started_at": _iso(d.started_at),
                "ended_at": _iso(d.ended_at),
                "messages": messages.get(d.id, 0),
                "qc_flags": flags.get((worker, d.id), none),
                "qc_verdict": verdict,
                "decision": decision,
                "bonus_cents": bonus or 0,
            }
            for d, role, verdict, decision, bonus in dialogs
        ],
        "bounces": bounce_rows,
        "payments": payment_rows,
    }
