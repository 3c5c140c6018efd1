"""The dashboard's HTTP API under /admin/api (researcher session cookie + CSRF header)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import update

from server.admin import live, push, review, studies_api, workers_api
from server.admin.auth import COOKIE, SESSION_SECONDS, verify_password
from server.admin.deps import admin_sessions, require_admin, services_of
from server.db.models import Researcher, Stimulus

router = APIRouter(prefix="/admin/api", tags=["admin"])
router.include_router(workers_api.router)
router.include_router(studies_api.router)
router.include_router(push.router)
__all__ = ["router", "require_admin"]


class Login(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


@router.post("/login")
async def login(body: Login, request: Request) -> JSONResponse:
    services = services_of(request)
    async with services.sessions() as db:
        row = await db.get(Researcher, body.username)
    ok = row is not None and await asyncio.to_thread(verify_password, body.password, row.password_hash)
    if not ok:
        raise HTTPException(401, "Unknown user or wrong password.")
    cookie, csrf = admin_sessions(request).issue(body.username)
    reply = JSONResponse({"username": body.username, "csrf": csrf})
    secure = services.settings.public_url.startswith("https://")
    reply.set_cookie(
        COOKIE,
        cookie,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        secure=secure,
        path="/admin",
    )
    return reply


@router.post("/logout")
async def logout(_: str = Depends(require_admin)) -> JSONResponse:
    reply = JSONResponse({"ok": True})
    reply.delete_cookie(COOKIE, path="/admin")
    return reply


@router.get("/me")
async def me(request: Request, user: str = Depends(require_admin)) -> dict:
    session = admin_sessions(request).read(request.cookies.get(COOKIE)) or {}
    return {"username": user, "csrf": session.get("c")}


@router.get("/live")
async def live_ops(request: Request, _: str = Depends(require_admin)) -> dict:
    return await live.live_snapshot(services_of(request))


class Intake(BaseModel):
    paused: bool


@router.post("/intake")
async def intake(body: Intake, request: Request, _: str = Depends(require_admin)) -> dict:
    """Pause or resume pairing: waiting workers stay in the queue (and time out as usual)."""
    services = services_of(request)
    if body.paused:
        await services.redis.set(services.keys.paused, "1")
    else:
        await services.redis.delete(services.keys.paused)
    return {"paused": body.paused}


@router.get("/stimuli")
async def stimuli(request: Request, _: str = Depends(require_admin)) -> list[dict]:
    return await live.stimulus_progress(services_of(request))


class Target(BaseModel):
    target: int = Field(ge=1, le=10_000)


@router.post("/stimuli/{stimulus_id}/target")
async def set_target(
    stimulus_id: str, body: Target, request: Request, _: str = Depends(require_admin)
) -> dict:
    services = services_of(request)
    async with services.sessions() as db:
        result = await db.execute(
            update(Stimulus)
            .where(Stimulus.id == stimulus_id, Stimulus.study == services.settings.study)
            .values(target_dialogs=body.target)
        )
        await db.commit()
    if result.rowcount == 0:
        raise HTTPException(404, f"No stimulus {stimulus_id!r} in this study.")
    load = await services.pool.set_target(stimulus_id, body.target)
    return {"stimulus_id": stimulus_id, "target": body.target, "load": load}


@router.get("/review")
async def review_queue(
    request: Request, verdict: str = "review", limit: int = 50, _: str = Depends(require_admin)
) -> list[dict]:
    if verdict not in ("review", "accept", "reject"):
        raise HTTPException(422, "verdict must be review, accept or reject")
    return await review.queue(services_of(request), verdict, min(max(limit, 1), 500))


@router.get("/dialogs/{dialog_id}")
async def dialog(dialog_id: str, request: Request, _: str = Depends(require_admin)) -> dict:
    try:
        return await review.detail(services_of(request), dialog_id)
    except review.ReviewError as exc:
        raise HTTPException(exc.status, exc.message) from exc


@router.get("/dialogs/{dialog_id}/image")
async def dialog_image(dialog_id: str, request: Request, _: str = Depends(require_admin)) -> Response:
    services = services_of(request)
    try:
        key = await review.image_key(services, dialog_id)
    except review.ReviewError as exc:
        raise HTTPException(exc.status, exc.message) from exc
    data = await asyncio.to_thread(services.media.get, key)
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "private, no-store"})


@router.post("/reviews")
async def decide(body: review.DecisionRequest, request: Request, user: str = Depends(require_admin)) -> dict:
    try:
        count = await review.decide(services_of(request), body, user)
    except review.ReviewError as exc:
        raise HTTPException(exc.status, exc.message) from exc
    return {"decided": count, "decision": body.decision}


@router.get("/charts")
async def chart_numbers(request: Request, _: str = Depends(require_admin)) -> dict:
    from server.admin import charts  # matplotlib loads on the first chart, not at start-up

    services = services_of(request)
    return await charts.chart_data(services.sessions, services.settings.study)


@router.get("/charts/{name}.svg")
async def chart_svg(name: str, request: Request, _: str = Depends(require_admin)) -> Response:
    from server.admin import charts

    if name not in charts.CHARTS:
        raise HTTPException(404, f"Unknown chart {name!r}; one of {', '.join(charts.CHARTS)}.")
    services = services_of(request)
    data = await charts.chart_data(services.sessions, services.settings.study)
    svg = await asyncio.to_thread(charts.render, name, data, "svg")
    return Response(svg, media_type="image/svg+xml")


@router.get("/eval-runs")
async def eval_runs(request: Request, limit: int = 50, _: str = Depends(require_admin)) -> list[dict]:
    """The study's evaluation runs, newest first, with their headline numbers."""
    from server.evaluation import jobs

    services = services_of(request)
    runs = await jobs.list_runs(services.sessions, services.settings.study, min(max(limit, 1), 500))
    return [jobs.as_dict(run) for run in runs]


@router.get("/eval-runs/{run_id}")
async def eval_run(run_id: str, request: Request, _: str = Depends(require_admin)) -> dict:
    """One run with its full results table (results.json) when it has finished."""
    from server.evaluation import jobs

    services = services_of(request)
    try:
        run = await jobs.get_run(services.sessions, run_id)
    except (KeyError, LookupError, ValueError) as exc:
        raise HTTPException(404, f"No evaluation run {run_id!r}.") from exc
    if run.study != services.settings.study:
        raise HTTPException(404, f"No evaluation run {run_id!r}.")
    return jobs.as_dict(run) | {"results": jobs.results(run)}
