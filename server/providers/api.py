"""HTTP endpoints for crowd platforms: what the worker page needs to know, and what Mephisto asks.

``GET /api/providers/config`` is public (pay facts the MTurk page shows). The assignment
status endpoint answers the Mephisto blueprint (tasks/mephisto/), which runs in its own
environment and asks our server whether a worker's part is done; it needs the study's
shared secret (``provider_api_key``, derived from the signing secret) as a bearer token.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request

from server.db.provider_models import Assignment, Payment
from server.providers.payments import outcome_for
from server.providers.policy import DONE_OUTCOMES, PayPolicy, decide
from server.services import Services
from server.settings import Settings

router = APIRouter(prefix="/api/providers", tags=["providers"])


def provider_api_key(settings: Settings) -> str:
    """The bearer token platform tooling uses; print it with ``avd payments key``."""
    return hmac.new(
        settings.resolved_secret.encode(), f"providers:{settings.study}".encode(), hashlib.sha256
    ).hexdigest()


def _services(request: Request) -> Services:
    return request.app.state.services


@router.get("/config")
async def config(request: Request) -> dict[str, Any]:
    """Pay facts for the worker page (in cents): shown in the preview, decides the lobby-timeout offer."""
    policy = PayPolicy.from_settings(_services(request).settings)
    return {
        "completed_cents": policy.completed_cents,
        "dropout_floor_cents": policy.dropout_floor_cents,
        "lobby_timeout_cents": policy.lobby_timeout_cents,
        "rounds": policy.rounds,
    }


@router.get("/assignments/{assignment_id}")
async def assignment_status(
    assignment_id: str, request: Request, authorization: str = Header("")
) -> dict[str, Any]:
    """Where one assignment stands: the worker's outcome, whether their part is done, what they are owed."""
    services = _services(request)
    expected = "Bearer " + provider_api_key(services.settings)
    if not hmac.compare_digest(authorization.encode(), expected.encode()):
        raise HTTPException(401, "A valid provider key is required.")
    async with services.sessions() as db:
        key = (assignment_id, services.settings.study)
        row = await db.get(Assignment, key)
        payment = await db.get(Payment, key)
    if row is None:
        raise HTTPException(404, "Unknown assignment.")
    outcome = await outcome_for(services.sessions, row)
    decision = decide(PayPolicy.from_settings(services.settings), outcome)
    return {
        "assignment_id": row.id,
        "status": row.status,
        "outcome": outcome.kind,
        "done": outcome.kind in DONE_OUTCOMES,
        "completion_code": outcome.completion_code,
        "dialog_id": outcome.dialog_id,
        "decision": {
            "action": decision.action,
            "base_cents": decision.base_cents,
            "bonus_cents": decision.bonus_cents,
            "usable": decision.usable,
            "feedback": decision.feedback,
        },
        "payment": None
        if payment is None
        else {"status": payment.status, "action": payment.action, "bonus_cents": payment.bonus_cents},
    }
