"""Throw-away PostgreSQL databases for tests and benchmarks on the local server.

Each gets a fresh, migrated database on 127.0.0.1:5432 (trust auth, admin database
``test``), so runs never see each other's rows; ``drop`` removes it again.
"""

from __future__ import annotations

import asyncio
import uuid

from server.db.migrate import upgrade

HOST, PORT, ADMIN_DB = "127.0.0.1", 5432, "test"


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(host=HOST, port=PORT, database=ADMIN_DB)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def create(prefix: str) -> tuple[str, str]:
    """(database name, async URL) of a new migrated database."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    url = f"postgresql+asyncpg://{HOST}:{PORT}/{name}"
    upgrade(url)
    return name, url


def drop(name: str) -> None:
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
