"""The rater API and page of human-evaluation studies (mounted by ``server.app``).

Raters use the same worker sessions as the dialog task (``POST /api/sessions`` records
consent and returns the signed worker token); every call here sends that token as
``Authorization: Bearer``. The server decides which item a rater sees, measures how long
they took, and judges validity; the page only shows what it is sent. Images are served only
through a signed ticket bound to one item and one rater who holds or held it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import FileResponse, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, Field
from sqlalchemy import func, select

from server.db.models import Worker, WorkerEvent
from server.db.study_models import Judgment, Study, StudyItem
from server.services import Services
from server.settings import REPO_ROOT
from server.studies.assign import Assigner, Handout, StudyError
from server.studies.kinds import client_view, load_kind
from server.tokens import TokenError

router = APIRouter()
RATER_PAGE = REPO_ROOT / "frontend" / "rater.html"

MESSAGES = {
    "done": "You have answered all the items we have for you. Thank you!",
    "excluded": "There are no more items for you in this study. Thank you for your time.",
    "closed": "This study is not taking answers at the moment.",
    "none": "There is nothing left for you to rate in this study right now. Thank you!",
}


class JudgmentIn(BaseModel):
    item_id: str = Field(max_length=40)
    answer: str = Field(max_length=32)


def _services(request: Request) -> Services:
    return request.app.state.services


def assigner_for(request: Request) -> Assigner:
    """One engine per server process, created on first use."""
    state = request.app.state
    engine = getattr(state, "study_assigner", None)
    if engine is None:
        services = _services(request)
        engine = Assigner(
            services.redis,
            services.sessions,
            services.settings.study,
            min_seconds=services.settings.study_min_seconds,
            lease_seconds=services.settings.study_lease_seconds,
        )
        state.study_assigner = engine
    return engine


def _tickets(services: Services) -> URLSafeTimedSerializer:
    settings = services.settings
    return URLSafeTimedSerializer(settings.resolved_secret, salt=f"study-image:{settings.study}")


async def _rater(request: Request, authorization: str | None) -> str:
    services = _services(request)
    token = (authorization or "").removeprefix("Bearer ").strip()
    if not token:
        raise HTTPException(401, "Sign in first (no session token).")
    try:
        worker = services.signer.worker_from_token(token)
    except TokenError as exc:
        raise HTTPException(401, exc.message) from exc
    async with services.sessions() as db:
        row = await db.get(Worker, worker)
    if row is None or row.consent_at is None:
        raise HTTPException(403, "Consent is required to take part.")
    if row.blocked:
        raise HTTPException(403, "This worker may not take part in this study.")
    return worker


def _error(exc: StudyError) -> HTTPException:
    return HTTPException(exc.status, exc.message)


@router.get("/rate/{study_id}", include_in_schema=False)
async def rater_page(study_id: str) -> FileResponse:
    return FileResponse(RATER_PAGE)


@router.get("/api/studies/{study_id}")
async def study_info(study_id: str, request: Request) -> dict[str, Any]:
    """What the page shows before consent: the kind's instructions and options (no items)."""
    services = _services(request)
    async with services.sessions() as db:
        study = await db.get(Study, study_id)
    if study is None or study.study != services.settings.study:
        raise HTTPException(404, "Unknown study.")
    return {
        "id": study.id,
        "name": study.name,
        "status": study.status,
        "items_per_rater": study.items_per_rater,
        **load_kind(study.kind).public(),
    }


@router.post("/api/studies/{study_id}/next")
async def next_item(study_id: str, request: Request, authorization: str | None = Header(None)) -> dict:
    """The item to judge now; the same item again until it is answered (reloads are safe)."""
    rater = await _rater(request, authorization)
    engine = assigner_for(request)
    try:
        handout = await engine.next_item(study_id, rater)
        progress = await engine.progress(study_id, rater)
    except StudyError as exc:
        raise _error(exc) from exc
    if handout.item is None or handout.judgment is None:
        return await _finished(request, study_id, rater, handout, progress)
    cfg = await engine.config(study_id)
    url = None
    if handout.item.image_key and handout.item.payload.get("image", True):
        ticket = _tickets(_services(request)).dumps({"i": handout.item.id, "w": rater})
        url = f"/api/studies/img/{ticket}"
    return {
        "state": "item",
        "item": client_view(cfg.kind, handout.item, handout.judgment, url),
        "progress": progress,
    }


async def _finished(request: Request, study_id: str, rater: str, handout: Handout, progress: dict) -> dict:
    """No item: say why, and hand out a completion code to anyone who answered something."""
    services = _services(request)
    state = handout.state
    if state == "none" and progress["answered"] == 0:
        return {"state": "unavailable", "message": MESSAGES["none"], "progress": progress}
    if state == "closed" and progress["answered"] == 0:
        return {"state": "closed", "message": MESSAGES["closed"], "progress": progress}
    code = services.signer.completion_code(f"study:{study_id}", rater)
    engine = assigner_for(request)
    first = await services.redis.set(f"{engine.prefix(study_id)}:r:{rater}:ended", state, nx=True)
    if first:
        await _record_outcome(services, study_id, rater, state, code)
    return {
        "state": "excluded" if state == "excluded" else "done",
        "message": MESSAGES.get(state, MESSAGES["done"]),
        "completion_code": code,
        "progress": progress,
    }


async def _record_outcome(services: Services, study_id: str, rater: str, state: str, code: str) -> None:
    """The outcome the pay step reads: how many answers counted, and why the others did not."""
    async with services.sessions() as db:
        rows = (
            await db.execute(
                select(Judgment.valid, Judgment.reason, func.count())
                .where(Judgment.study_id == study_id, Judgment.rater_id == rater)
                .where(Judgment.submitted_at.is_not(None))
                .group_by(Judgment.valid, Judgment.reason)
            )
        ).all()
        valid = sum(n for ok, _, n in rows if ok)
        reasons = {reason: n for ok, reason, n in rows if not ok}
        db.add(
            WorkerEvent(
                study=services.settings.study,
                worker_id=rater,
                kind="study_excluded" if state == "excluded" else "study_completed",
                detail={"study_id": study_id, "valid": valid, "invalid": reasons},
                completion_code=code,
            )
        )
        await db.commit()


@router.post("/api/studies/{study_id}/judgments")
async def submit(
    study_id: str, body: JudgmentIn, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Record an answer. The reply does not say whether it counted (raters are not coached)."""
    rater = await _rater(request, authorization)
    try:
        await assigner_for(request).submit(study_id, rater, body.item_id, body.answer)
    except StudyError as exc:
        raise _error(exc) from exc
    return {"ok": True}


@router.get("/api/studies/img/{ticket}")
async def study_image(ticket: str, request: Request) -> Response:
    """An item's image, for a rater who was given that item (ticket signed with the study secret)."""
    services = _services(request)
    try:
        data = _tickets(services).loads(ticket, max_age=services.settings.token_max_age_seconds)
    except BadSignature as exc:
        raise HTTPException(404, "Unknown image.") from exc
    async with services.sessions() as db:
        item = await db.get(StudyItem, str(data["i"]))
        held = await db.scalar(
            select(Judgment.id).where(Judgment.item_id == str(data["i"]), Judgment.rater_id == str(data["w"]))
        )
    if item is None or not item.image_key or held is None:
        raise HTTPException(404, "Unknown image.")
    body = await asyncio.to_thread(services.media.get, item.image_key)
    return Response(body, media_type=_media_type(body), headers={"Cache-Control": "private, no-store"})


def _media_type(data: bytes) -> str:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "image/jpeg"
