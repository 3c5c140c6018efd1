"""Closing HITs on a platform: shared by ``avd hits expire`` and ``avd study close``."""

from __future__ import annotations

import asyncio

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.provider_models import Hit
from server.providers.base import Provider


async def expire_hits(
    sessions: async_sessionmaker,
    study: str,
    provider: Provider,
    *,
    launch_prefix: str | None = None,
    delete: bool = False,
) -> dict[str, int]:
    """Stop the open HITs of a study namespace (or of the launches whose id starts with
    ``launch_prefix``) from taking new workers; with ``delete``, also delete those whose work
    is all decided. Returns how many were expired, deleted and kept."""
    query = select(Hit).where(Hit.study == study, Hit.provider == provider.name, Hit.status != "deleted")
    if launch_prefix is not None:
        query = query.where(Hit.launch_id.startswith(launch_prefix))
    async with sessions() as db:
        hits = list((await db.execute(query)).scalars())
    counts = {"expired": 0, "deleted": 0, "kept": 0}
    for hit in hits:
        if hit.status in ("open", "closed"):
            await asyncio.to_thread(provider.expire_hit, hit.id)
            counts["expired"] += 1
        status = "expired"
        if delete:
            if await asyncio.to_thread(provider.delete_hit, hit.id):
                status = "deleted"
                counts["deleted"] += 1
            else:
                counts["kept"] += 1
        async with sessions() as db:
            row = await db.get(Hit, hit.id)
            assert row is not None
            row.status = status
            await db.commit()
    return counts
