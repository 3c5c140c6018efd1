"""Run Alembic from code (``avd db upgrade``, the demo, the tests)."""

from __future__ import annotations

import asyncio
import threading

from alembic import command
from alembic.config import Config

from server.settings import REPO_ROOT


def alembic_config(url: str) -> Config:
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    cfg.attributes["url"] = url
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Upgrade the database; safe to call with or without a running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        command.upgrade(alembic_config(url), revision)
        return
    errors: list[BaseException] = []

    def target() -> None:
        try:
            command.upgrade(alembic_config(url), revision)
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
