"""A dialog as QC sees it: loaded in bulk from the database, no ORM objects kept."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import Dialog, Response, Stimulus, Turn


@dataclass
class TurnRecord:
    seq: int
    round: int
    role: str
    text: str
    latency_ms: int


@dataclass
class DialogRecord:
    id: str
    status: str
    rounds: int
    questioner_id: str
    answerer_id: str
    genre: str | None
    opinions: list[dict[str, str]]
    turns: list[TurnRecord] = field(default_factory=list)
    responses: dict[str, tuple[str, str]] = field(default_factory=dict)  # phase -> (emotion, text)


async def load_records(db: AsyncSession, dialog_ids: list[str]) -> list[DialogRecord]:
    """Three queries for any number of dialogs, so bulk QC is not N+1."""
    rows = (
        await db.execute(
            select(Dialog, Stimulus)
            .join(Stimulus, Stimulus.id == Dialog.stimulus_id)
            .where(Dialog.id.in_(dialog_ids))
        )
    ).all()
    turns: dict[str, list[TurnRecord]] = defaultdict(list)
    for t in (
        await db.execute(select(Turn).where(Turn.dialog_id.in_(dialog_ids)).order_by(Turn.seq))
    ).scalars():
        turns[t.dialog_id].append(TurnRecord(t.seq, t.round, t.role, t.text, t.latency_ms))
    responses: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)
    for r in (await db.execute(select(Response).where(Response.dialog_id.in_(dialog_ids)))).scalars():
        responses[r.dialog_id][r.phase] = (r.emotion, r.explanation)
    records = []
    for dialog, stim in rows:
        opinions = [
            {"emotion": stim.positive_emotion, "text": stim.positive_text},
            {"emotion": stim.negative_emotion, "text": stim.negative_text},
        ]
        records.append(
            DialogRecord(
                id=dialog.id,
                status=dialog.status,
                rounds=int((dialog.settings or {}).get("rounds", 10)),
                questioner_id=dialog.questioner_id,
                answerer_id=dialog.answerer_id,
                genre=stim.genre,
                opinions=opinions,
                turns=turns.get(dialog.id, []),
                responses=responses.get(dialog.id, {}),
            )
        )
    return records
