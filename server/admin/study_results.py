"""Human-study results for the dashboard and ``avd report``: the study list and cached aggregates.

The numbers are ``server.studies.results.aggregate`` with the defaults of ``avd study
results`` (seed 0, 2000 resamples), so the dashboard, the report and the command agree.
The bootstrap takes a while on a large study, so each process keeps the last result per
study and recomputes it only when a judgment was submitted or the study changed status.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.study_models import Judgment, Study, StudyItem
from server.studies import results as study_results

_CACHE: dict[str, tuple[tuple, dict[str, Any]]] = {}
_CACHE_SIZE = 32


async def list_studies(sessions: async_sessionmaker, study: str) -> list[dict[str, Any]]:
    """The human studies built from this collection study, newest first, with their counts."""
    async with sessions() as db:
        studies = (
            await db.scalars(select(Study).where(Study.study == study).order_by(Study.created_at.desc()))
        ).all()
        ids = [s.id for s in studies]
        items = dict(
            (
                await db.execute(
                    select(StudyItem.study_id, func.count())
                    .where(StudyItem.study_id.in_(ids), StudyItem.is_attention.is_(False))
                    .group_by(StudyItem.study_id)
                )
            ).all()
        )
        judged = {
            sid: (n, valid or 0, raters)
            for sid, n, valid, raters in await db.execute(
                select(
                    Judgment.study_id,
                    func.count(),
                    func.sum(case((Judgment.valid.is_(True), 1), else_=0)),
                    func.count(Judgment.rater_id.distinct()),
                )
                .where(Judgment.study_id.in_(ids), Judgment.submitted_at.is_not(None))
                .group_by(Judgment.study_id)
            )
        }
    return [
        {
            "id": s.id,
            "name": s.name,
            "kind": s.kind,
            "status": s.status,
            "raters_per_item": s.raters_per_item,
            "items": items.get(s.id, 0),
            "judgments": judged.get(s.id, (0, 0, 0))[0],
            "valid_judgments": int(judged.get(s.id, (0, 0, 0))[1]),
            "raters": judged.get(s.id, (0, 0, 0))[2],
            "created_at": s.created_at.isoformat() if s.created_at else None,
        }
        for s in studies
    ]


async def _version(sessions: async_sessionmaker, study_id: str) -> tuple:
    async with sessions() as db:
        status = await db.scalar(select(Study.status).where(Study.id == study_id))
        n, last = (
            await db.execute(
                select(func.count(), func.max(Judgment.submitted_at)).where(
                    Judgment.study_id == study_id, Judgment.submitted_at.is_not(None)
                )
            )
        ).one()
    return status, n, str(last)


async def study_result(sessions: async_sessionmaker, study: str, study_id: str) -> dict[str, Any] | None:
    """The aggregate of one study of this collection study, or None when there is no such study."""
    version = await _version(sessions, study_id)
    cached = _CACHE.get(study_id)
    if cached is not None and cached[0] == version:
        return cached[1]
    try:
        row, items, judgments = await study_results.load(sessions, study_id)
    except KeyError:
        return None
    if row.study != study:
        return None
    result = await asyncio.to_thread(study_results.aggregate, row, items, judgments)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[study_id] = (version, result)
    return result


def without_items(result: dict[str, Any]) -> dict[str, Any]:
    """The result minus its per-item list (long, and not needed for charts or tables)."""
    return {k: v for k, v in result.items() if k != "items"}
