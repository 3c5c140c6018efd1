"""Finding, opening and closing studies (what ``avd study launch/close/list`` do)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.provider_models import Launch
from server.db.study_models import Judgment, Study, StudyItem


async def find_study(sessions: async_sessionmaker, namespace: str, ref: str) -> Study:
    """A study of this namespace by id or unique id prefix."""
    async with sessions() as db:
        rows = (
            await db.scalars(select(Study).where(Study.study == namespace, Study.id.startswith(ref)).limit(2))
        ).all()
    if not rows:
        raise KeyError(f"no study {ref!r} in {namespace!r}")
    if len(rows) > 1:
        raise KeyError(f"study id prefix {ref!r} is ambiguous")
    return rows[0]


async def set_status(sessions: async_sessionmaker, study_id: str, status: str) -> Study:
    async with sessions() as db:
        study = await db.get(Study, study_id)
        assert study is not None
        study.status = status
        if status == "open" and study.launched_at is None:
            study.launched_at = datetime.now(UTC)
        await db.commit()
        return study


async def list_studies(sessions: async_sessionmaker, namespace: str) -> list[dict]:
    """Each study with its item count and how many valid judgments it has of how many wanted."""
    async with sessions() as db:
        studies = (
            await db.scalars(select(Study).where(Study.study == namespace).order_by(Study.created_at))
        ).all()
        out = []
        for s in studies:
            items = await db.scalar(
                select(func.count())
                .select_from(StudyItem)
                .where(StudyItem.study_id == s.id, StudyItem.is_attention.is_(False))
            )
            valid = await db.scalar(
                select(func.count())
                .select_from(Judgment)
                .join(StudyItem, StudyItem.id == Judgment.item_id)
                .where(Judgment.study_id == s.id, Judgment.valid.is_(True), StudyItem.is_attention.is_(False))
            )
            out.append(
                {
                    "id": s.id,
                    "kind": s.kind,
                    "name": s.name,
                    "status": s.status,
                    "items": int(items or 0),
                    "valid_judgments": int(valid or 0),
                    "wanted_judgments": int(items or 0) * s.raters_per_item,
                }
            )
    return out


def rater_url(public_url: str, study_id: str, worker: str | None = None) -> str:
    base = f"{public_url.rstrip('/')}/rate/{study_id}"
    return f"{base}?worker={worker}" if worker else base


async def study_launches(sessions: async_sessionmaker, namespace: str, study_id: str) -> list[Launch]:
    """The platform launches of one study (their ids name it), oldest first; failed ones left out."""
    from server.studies.launch import study_launch_prefix

    async with sessions() as db:
        return list(
            (
                await db.scalars(
                    select(Launch)
                    .where(Launch.study == namespace, Launch.id.startswith(study_launch_prefix(study_id)))
                    .where(Launch.status != "failed")
                    .order_by(Launch.created_at)
                )
            ).all()
        )
