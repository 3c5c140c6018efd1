"""The review queue: what QC could not decide, shown in full, decided by a researcher."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator
from sqlalchemy import select

from server.db.models import Dialog, QcResult, Response, Review, Stimulus, Turn, utcnow
from server.services import Services


class ReviewError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class DecisionRequest(BaseModel):
    """One decision applied to one or more dialogs."""

    dialog_ids: list[str] = Field(min_length=1, max_length=1000)
    decision: Literal["accept", "reject"]
    reason: str | None = Field(None, max_length=2000)
    bonus_cents: int = Field(0, ge=0, le=10_000)

    @model_validator(mode="after")
    def _rules(self) -> DecisionRequest:
        if self.decision == "reject" and not (self.reason or "").strip():
            raise ValueError("a rejection needs a reason (the worker will see it)")
        if self.decision == "reject" and self.bonus_cents:
            raise ValueError("a rejected dialog cannot get a bonus")
        return self


async def queue(services: Services, verdict: str = "review", limit: int = 50) -> list[dict[str, Any]]:
    """Dialogs with this QC verdict and no decision yet, oldest first."""
    async with services.sessions() as db:
        rows = (
            await db.execute(
                select(Dialog.id, Dialog.ended_at, QcResult.verdict, QcResult.summary)
                .join(QcResult, QcResult.dialog_id == Dialog.id)
                .outerjoin(Review, Review.dialog_id == Dialog.id)
                .where(Dialog.study == services.settings.study, QcResult.verdict == verdict)
                .where(Review.dialog_id.is_(None))
                .order_by(Dialog.ended_at, Dialog.id)
                .limit(limit)
            )
        ).all()
    return [
        {"dialog_id": d, "ended_at": e.isoformat() if e else None, "verdict": v, "summary": s}
        for d, e, v, s in rows
    ]


async def detail(services: Services, dialog_id: str) -> dict[str, Any]:
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        if dialog is None or dialog.study != services.settings.study:
            raise ReviewError(404, f"No dialog {dialog_id!r} in this study.")
        stim = await db.get(Stimulus, dialog.stimulus_id)
        turns = (
            await db.execute(select(Turn).where(Turn.dialog_id == dialog_id).order_by(Turn.seq))
        ).scalars()
        responses = (await db.execute(select(Response).where(Response.dialog_id == dialog_id))).scalars()
        qc = await db.get(QcResult, dialog_id)
        review = await db.get(Review, dialog_id)
    flags = qc.flags if qc else {}
    scores = qc.scores if qc else {}
    return {
        "dialog_id": dialog.id,
        "status": dialog.status,
        "end_reason": dialog.end_reason,
        "stimulus": {
            "id": stim.id,
            "title": stim.title,
            "genre": stim.genre,
            "opinions": [
                {"emotion": stim.positive_emotion, "text": stim.positive_text},
                {"emotion": stim.negative_emotion, "text": stim.negative_text},
            ],
        },
        "turns": [
            {
                "seq": t.seq,
                "round": t.round,
                "role": t.role,
                "text": t.text,
                "latency_ms": t.latency_ms,
                "flags": flags.get(str(t.seq), []),
            }
            for t in turns
        ],
        "responses": {
            r.phase: {"emotion": r.emotion, "explanation": r.explanation, "scores": scores.get(r.phase)}
            for r in responses
        },
        "qc": {"verdict": qc.verdict, "reasons": qc.reasons, "summary": qc.summary} if qc else None,
        "review": (
            {
                "decision": review.decision,
                "reason": review.reason,
                "bonus_cents": review.bonus_cents,
                "reviewer": review.reviewer,
                "decided_at": review.decided_at.isoformat(),
                "paid": review.paid,
            }
            if review
            else None
        ),
    }


async def image_key(services: Services, dialog_id: str) -> str:
    async with services.sessions() as db:
        row = (
            await db.execute(
                select(Stimulus.image_key)
                .join(Dialog, Dialog.stimulus_id == Stimulus.id)
                .where(Dialog.id == dialog_id, Dialog.study == services.settings.study)
            )
        ).scalar_one_or_none()
    if row is None:
        raise ReviewError(404, f"No dialog {dialog_id!r} in this study.")
    return row


async def decide(services: Services, req: DecisionRequest, reviewer: str) -> int:
    """Record the decision for every dialog, or for none if any is unknown or already paid."""
    async with services.sessions() as db:
        dialogs = {
            d.id: d
            for d in (await db.execute(select(Dialog).where(Dialog.id.in_(req.dialog_ids)))).scalars()
            if d.study == services.settings.study
        }
        unknown = [d for d in req.dialog_ids if d not in dialogs]
        if unknown:
            raise ReviewError(404, f"Unknown dialog(s): {', '.join(unknown[:5])}")
        existing = {
            r.dialog_id: r
            for r in (await db.execute(select(Review).where(Review.dialog_id.in_(req.dialog_ids)))).scalars()
        }
        paid = [d for d, r in existing.items() if r.paid]
        if paid:
            raise ReviewError(409, f"Already paid, cannot change: {', '.join(paid[:5])}")
        for dialog_id in dict.fromkeys(req.dialog_ids):
            review = existing.get(dialog_id) or Review(dialog_id=dialog_id)
            review.decision = req.decision
            review.reason = req.reason
            review.bonus_cents = req.bonus_cents
            review.reviewer = reviewer
            review.decided_at = utcnow()
            db.add(review)
        await db.commit()
    return len(set(req.dialog_ids))
