"""``avd admin``: researcher accounts for the dashboard."""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated

import typer

from server.cli_common import settings_or_exit
from server.settings import Settings

app = typer.Typer(help="Dashboard accounts.")


@app.command("create")
def create(
    username: str,
    password: Annotated[
        str | None, typer.Option(help="Password; a random one is generated and printed when absent.")
    ] = None,
) -> None:
    """Create a researcher account, or reset its password."""
    password = password or secrets.token_urlsafe(12)
    settings = settings_or_exit()
    asyncio.run(save_researcher(settings, username, password))
    typer.echo(f"researcher {username!r} can log in at {settings.public_url}/admin with password: {password}")


async def save_researcher(settings: Settings, username: str, password: str) -> None:
    """Create the account, or set a new password on an existing one."""
    from server.admin.auth import hash_password
    from server.db.engine import make_engine, make_sessionmaker
    from server.db.models import Researcher

    engine = make_engine(settings.resolved_database_url)
    try:
        async with make_sessionmaker(engine)() as db:
            row = await db.get(Researcher, username) or Researcher(username=username)
            row.password_hash = hash_password(password)
            db.add(row)
            await db.commit()
    finally:
        await engine.dispose()
