"""``/admin/api/studies``: the human studies of this collection study, their numbers and charts."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import Response

from server.admin import study_results, study_tables
from server.admin.deps import require_admin, services_of

router = APIRouter(dependencies=[Depends(require_admin)])


@router.get("/studies")
async def studies(request: Request) -> list[dict[str, Any]]:
    services = services_of(request)
    return await study_results.list_studies(services.sessions, services.settings.study)


async def _result(request: Request, study_id: str) -> dict[str, Any]:
    services = services_of(request)
    found = await study_results.study_result(services.sessions, services.settings.study, study_id)
    if found is None:
        raise HTTPException(404, f"No human study {study_id!r} in this study.")
    return found


@router.get("/studies/{study_id}")
async def study(study_id: str, request: Request) -> dict[str, Any]:
    """The aggregate (without the per-item list) and the tables the page shows beside the chart."""
    result = await _result(request, study_id)
    return {"results": study_results.without_items(result), "tables": study_tables.tables(result)}


@router.get("/studies/{study_id}/chart.{fmt}")
async def study_chart(study_id: str, fmt: str, request: Request) -> Response:
    if fmt not in ("svg", "png"):
        raise HTTPException(404, "Charts come as .svg or .png.")
    result = await _result(request, study_id)
    from server.admin import study_charts  # matplotlib loads on the first chart, not at start-up

    body = await asyncio.to_thread(study_charts.render, result, fmt)
    return Response(body, media_type="image/svg+xml" if fmt == "svg" else "image/png")
