"""Record a platform assignment when its worker opens a session on our page.

Called from ``POST /api/sessions`` inside the same transaction that records consent, so a
worker never holds a token for an assignment we did not write down. Reconciliation
(``reconcile.py``) fills in whatever this misses.
"""

from __future__ import annotations

import re
import urllib.parse
from datetime import UTC, datetime

from fastapi import HTTPException
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.provider_models import Assignment

_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
NOT_ACCEPTED = "ASSIGNMENT_ID_NOT_AVAILABLE"


def check_submit_to(url: str | None) -> str | None:
    """``turkSubmitTo`` must be an HTTPS origin (plain HTTP only on this machine, for tests)."""
    if not url:
        return None
    parts = urllib.parse.urlparse(url)
    local = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost")
    if (parts.scheme != "https" and not local) or not parts.netloc or parts.query or parts.fragment:
        raise HTTPException(400, "turk_submit_to must be an https:// origin.")
    return url.rstrip("/")


async def record_arrival(
    db: AsyncSession,
    study: str,
    worker_id: str,
    provider: str,
    assignment_id: str,
    hit_id: str | None,
    submit_to: str | None,
) -> Assignment:
    """Write down (or find again, after a reload) the assignment this worker is working on."""
    if provider == "local":
        raise HTTPException(400, "A local session has no platform assignment.")
    if assignment_id == NOT_ACCEPTED:
        raise HTTPException(400, "Accept the HIT first; a preview cannot start the task.")
    if not _ID_RE.match(assignment_id) or (hit_id is not None and not _ID_RE.match(hit_id)):
        raise HTTPException(400, "Malformed assignment or HIT id.")
    submit_to = check_submit_to(submit_to)
    row = await db.get(Assignment, (assignment_id, study))
    if row is None:
        row = Assignment(
            id=assignment_id,
            study=study,
            provider=provider,
            hit_id=hit_id,
            worker_id=worker_id,
            status="accepted",
            submit_to=submit_to,
            accepted_at=datetime.now(UTC),
        )
        db.add(row)
    elif row.worker_id != worker_id:
        raise HTTPException(403, "This assignment belongs to another worker.")
    return row
