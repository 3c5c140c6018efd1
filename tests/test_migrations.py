"""The Alembic migrations and the SQLAlchemy models describe the same schema."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from server.db.models import Base


async def test_models_match_migrations(database_url):
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
    finally:
        await engine.dispose()
    assert diff == [], f"models and migrations differ; run alembic revision --autogenerate: {diff}"


def test_upgrade_twice_is_a_no_op(tmp_path):
    from server.db.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tmp_path / 'twice.db'}"
    upgrade(url)
    upgrade(url)


def test_every_migration_downgrades_and_upgrades_again(tmp_path):
    """Each step's downgrade undoes its upgrade (SQLite, whose batch mode rebuilds tables)."""
    from alembic import command

    from server.db.migrate import alembic_config, upgrade

    url = f"sqlite+aiosqlite:///{tmp_path / 'steps.db'}"
    upgrade(url)
    command.downgrade(alembic_config(url), "0002")
    upgrade(url)
