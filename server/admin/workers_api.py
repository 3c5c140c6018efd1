"""``/admin/api/workers``: the per-worker table (sorted, paged, filtered) and one worker's page."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from server.admin import worker_detail, worker_stats
from server.admin.deps import require_admin, services_of

router = APIRouter(dependencies=[Depends(require_admin)])


@router.get("/workers")
async def workers(
    request: Request,
    sort: str = "violations",
    order: Literal["asc", "desc"] = "desc",
    min_violations: int = Query(0, ge=0),
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0),
) -> dict:
    """Every worker of the study with their figures; ``sort`` is one of ``SORT_KEYS``."""
    if sort not in worker_stats.SORT_KEYS:
        raise HTTPException(422, f"sort must be one of {', '.join(worker_stats.SORT_KEYS)}")
    services = services_of(request)
    return await worker_stats.table(
        services.sessions,
        services.settings.study,
        sort=sort,
        descending=order == "desc",
        min_violations=min_violations,
        limit=limit,
        offset=offset,
    )


@router.get("/workers/{worker_id}")
async def worker(worker_id: str, request: Request, recent: int = Query(20, ge=1, le=200)) -> dict:
    services = services_of(request)
    found = await worker_detail.detail(services.sessions, services.settings.study, worker_id, recent)
    if found is None:
        raise HTTPException(404, f"No worker {worker_id!r} in this study.")
    return found
