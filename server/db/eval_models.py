"""The record of an evaluation run (``avd eval``), kept apart from the collection models.

``server.db.models`` imports this module at its end, so the table is on ``Base.metadata``
wherever the models are (Alembic's autogenerate included).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from server.db.models import Base, utcnow


class EvalRun(Base):
    """One evaluation job: what ran (task, model, data, config, code), where, and how it ended."""

    __tablename__ = "eval_run"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), index=True, default="default")
    task: Mapped[str] = mapped_column(String(32), index=True)
    model: Mapped[str] = mapped_column(Text)
    data_dir: Mapped[str] = mapped_column(Text)
    split: Mapped[str] = mapped_column(String(16), default="test")
    out_dir: Mapped[str] = mapped_column(Text)
    backend: Mapped[str] = mapped_column(String(16), default="local")
    backend_job_id: Mapped[str | None] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16), index=True, default="queued")
    trigger: Mapped[str] = mapped_column(String(16), default="manual")
    config: Mapped[dict[str, Any]] = mapped_column(default=dict)
    code_version: Mapped[str | None] = mapped_column(String(64))
    summary: Mapped[dict[str, Any] | None] = mapped_column()
    timings: Mapped[dict[str, Any] | None] = mapped_column()
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()
