"""The FastAPI application: worker pages, the worker API and websocket, health."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from fastapi import Depends, FastAPI, HTTPException, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy import text

from server.admin.api import require_admin
from server.admin.api import router as admin_router
from server.admin.auth import AdminSessions
from server.db.models import Worker
from server.dialog import protocol as p
from server.dialog.runtime import DialogRuntime
from server.export.api import router as export_router
from server.providers.api import router as providers_router
from server.providers.arrivals import record_arrival
from server.redis_conn import EmbeddedRedis, warm
from server.services import Services
from server.settings import REPO_ROOT, Settings
from server.stalls import StallWatch, log_stall
from server.sweeper import Sweeper
from server.tokens import TokenError
from server.ws import WorkerSocket

FRONTEND = REPO_ROOT / "frontend"
_WORKER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# The collector's thresholds while serving (Python's default: 700, 10, 10). Each chat message
# leaves objects that live until the dialog's next message (its state with a dozen dicts, the
# stored turn, the rules' view of it); under load they outlive the default's young generations,
# so the collector's full passes ran every few seconds, walking every live dialog's objects
# (up to ~140 ms each). At saturation (200 pairs) the collector took 16-25 % of the server's CPU
# with the defaults and ~4 % with these, whose longest pause was ~45 ms (docs/benchmarks.md,
# session 8). Objects are still freed by reference counting as before; only reference cycles
# wait longer to be collected. The young threshold counts allocations net of frees, and nearly
# all a relayed message leaves (~60 tracked objects: its state, stored turn, deadlines' timers,
# the websocket parser's generator, ...) is alive at the next young pass under a paced load, so
# a young pass walks ~2.5 times its threshold of objects, all surviving: 2,000 keeps each pass
# at ~2-4 ms of CPU instead of 9-18 ms (same CPU in all), and 50 young passes to a middle one
# keep the middle generation's cadence of 100,000 (docs/benchmarks.md, session 17).
GC_THRESHOLDS = (2_000, 50, 10)


class SessionRequest(BaseModel):
    worker: str | None = Field(None, description="Platform worker id; random when absent.")
    provider: str = "local"
    consent: bool = False
    # crowd platforms (server/providers/arrivals.py): the assignment this session works on
    assignment_id: str | None = Field(None, max_length=128)
    hit_id: str | None = Field(None, max_length=128)
    turk_submit_to: str | None = Field(None, max_length=300)


class SessionReply(BaseModel):
    token: str
    worker_id: str


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        embedded = None
        redis_url = settings.redis_url
        if not redis_url:
            embedded = EmbeddedRedis(settings.data_dir)
            redis_url = embedded.url
        services = Services.build(settings, redis_url)
        runtime = DialogRuntime(services)
        sweeper = Sweeper(services, runtime)
        sockets = WorkerSocket(services, runtime, sweeper)
        app.state.services, app.state.runtime, app.state.sockets = services, runtime, sockets
        app.state.admin_sessions = AdminSessions(settings.resolved_secret, settings.study)
        await services.hub.start()
        await warm(services.redis, settings.redis_warm_connections)
        await services.pool.sync_from_db(services.sessions, settings.study)
        sweeper.start()

        async def heartbeat() -> None:
            while True:
                await asyncio.sleep(settings.heartbeat_seconds)
                with contextlib.suppress(Exception):
                    await sockets.refresh_presence()

        beat = asyncio.create_task(heartbeat())
        # Everything loaded so far (modules, models, the rules' word lists) lives as long as the
        # process: keep it out of the collector's full passes, which otherwise walk it all and
        # paused the event loop for 0.1-0.5 s at a time under load (measured: docs/benchmarks.md)
        gc.collect()
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(*(settings.gc_thresholds or GC_THRESHOLDS))
        app.state.stalls = stalls = StallWatch(gc_min=settings.stall_gc_ms / 1000, report=log_stall)
        stalls.start()
        try:
            yield
        finally:
            await stalls.stop()
            gc.set_threshold(*thresholds)
            beat.cancel()
            await sweeper.stop()
            await runtime.flush_qc()  # the QC jobs of the dialogs that ended last
            await services.close()
            if embedded:
                embedded.close()

    app = FastAPI(title="Affective visual dialog", version="1", lifespan=lifespan)

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        services: Services = app.state.services
        checks = {}
        try:
            async with services.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            checks["database"] = "ok"
        except Exception as exc:  # report, don't crash
            checks["database"] = f"error: {exc.__class__.__name__}"
        try:
            await services.redis.ping()
            checks["redis"] = "ok"
        except Exception as exc:
            checks["redis"] = f"error: {exc.__class__.__name__}"
        ok = all(v == "ok" for v in checks.values())
        return JSONResponse({"status": "ok" if ok else "error", **checks}, 200 if ok else 503)

    @app.get("/api/config")
    async def config() -> dict:
        """What the worker pages need to know; no secrets."""
        return {
            "protocol": p.PROTOCOL_VERSION,
            "rounds": settings.rounds,
            "turn_seconds": settings.turn_seconds,
            "form_seconds": settings.form_seconds,
            "lobby_max_wait_seconds": settings.lobby_max_wait_seconds,
            "max_message_chars": settings.max_message_chars,
            "min_explanation_words": settings.min_explanation_words,
            "emotions": list(p.EMOTIONS),
            "positive_emotions": list(p.POSITIVE_EMOTIONS),
            "negative_emotions": list(p.NEGATIVE_EMOTIONS),
        }

    @app.post("/api/sessions", response_model=SessionReply)
    async def new_session(req: SessionRequest) -> SessionReply:
        """Record consent and hand out a signed worker token for the websocket."""
        services: Services = app.state.services
        if not req.consent:
            raise HTTPException(400, "Consent is required to take part.")
        if req.worker is not None and not _WORKER_RE.match(req.worker):
            raise HTTPException(400, "A worker id uses letters, digits, '-' and '_' (at most 64).")
        if req.provider not in ("local", "mturk", "mturk-sandbox", "mephisto"):
            raise HTTPException(400, f"Unknown provider {req.provider!r}.")
        platform_id = req.worker or services.signer.worker_id("anon", str(id(req)) + str(datetime.now()))
        worker_id = services.signer.worker_id(req.provider, platform_id)
        async with services.sessions() as db:
            row = await db.get(Worker, worker_id)
            if row is None:
                row = Worker(id=worker_id, provider=req.provider, platform_worker_id=platform_id)
                db.add(row)
            if row.blocked:
                raise HTTPException(403, "This worker may not take part in this study.")
            row.consent_at = row.consent_at or datetime.now(UTC)
            if req.assignment_id:
                await record_arrival(
                    db,
                    settings.study,
                    worker_id,
                    req.provider,
                    req.assignment_id,
                    req.hit_id,
                    req.turk_submit_to,
                )
            await db.commit()
        return SessionReply(token=services.signer.worker_token(worker_id), worker_id=worker_id)

    @app.get("/img/{ticket}")
    async def image(ticket: str) -> Response:
        """The stimulus image, only for the answerer, or the questioner after the reveal."""
        services: Services = app.state.services
        runtime: DialogRuntime = app.state.runtime
        try:
            dialog_id, worker = services.signer.image_from_ticket(ticket)
        except TokenError as exc:
            raise HTTPException(404, exc.message) from exc
        state = await runtime.load(dialog_id)
        role = state.role_of(worker) if state else None
        if state is None or role is None or (role == "questioner" and not state.revealed):
            raise HTTPException(404, "Unknown image.")
        meta = await runtime.meta(dialog_id)
        data = await asyncio.to_thread(services.media.get, meta["image_key"])
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "private, no-store"})

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await app.state.sockets.serve(ws)

    @app.get("/")
    async def worker_page() -> FileResponse:
        return FileResponse(FRONTEND / "worker.html")

    @app.get("/admin")
    async def admin_page() -> FileResponse:
        return FileResponse(FRONTEND / "admin.html")

    app.include_router(admin_router)
    app.include_router(export_router, dependencies=[Depends(require_admin)])  # dataset download
    app.include_router(providers_router)  # crowd platforms (server/providers/api.py)
    from server.studies.api import router as study_router

    app.include_router(study_router)

    app.mount("/static", StaticFiles(directory=FRONTEND), name="static")
    return app
