"""SQLAlchemy 2 models. Migrations in ``migrations/`` must agree with these (tested)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}


class Stimulus(Base):
    """An image shown to the answerer, with the two opposing opinions shown to both."""

    __tablename__ = "stimulus"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), index=True, default="default")
    image_key: Mapped[str] = mapped_column(String(128), unique=True)
    image_sha256: Mapped[str] = mapped_column(String(64), index=True)
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    title: Mapped[str | None] = mapped_column(String(300))
    genre: Mapped[str | None] = mapped_column(String(100))
    style: Mapped[str | None] = mapped_column(String(100))
    source: Mapped[str | None] = mapped_column(String(300))
    positive_emotion: Mapped[str] = mapped_column(String(32))
    positive_text: Mapped[str] = mapped_column(Text)
    negative_emotion: Mapped[str] = mapped_column(String(32))
    negative_text: Mapped[str] = mapped_column(Text)
    target_dialogs: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Worker(Base):
    """A crowd worker; the platform id is kept only for payment."""

    __tablename__ = "worker"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    provider: Mapped[str] = mapped_column(String(32), default="local")
    platform_worker_id: Mapped[str | None] = mapped_column(String(128), index=True)
    consent_at: Mapped[datetime | None] = mapped_column()
    blocked: Mapped[bool] = mapped_column(Boolean, default=False)
    blocked_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Dialog(Base):
    """One paired conversation about one stimulus, from pairing to its end."""

    __tablename__ = "dialog"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), index=True)
    stimulus_id: Mapped[str] = mapped_column(ForeignKey("stimulus.id"), index=True)
    questioner_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), index=True)
    answerer_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True, default="in_progress")
    end_reason: Mapped[str | None] = mapped_column(String(64))
    ended_by: Mapped[str | None] = mapped_column(String(16))
    rounds_done: Mapped[int] = mapped_column(Integer, default=0)
    positive_first: Mapped[bool] = mapped_column(Boolean)
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column()


class Turn(Base):
    """One accepted chat message; (dialog, seq) orders them, (role, client_id) dedupes resends.

    Client ids are the sender's own (the protocol asks only that they be unique per sender), so
    the two workers of a dialog may both send "1": scoped by role, as the dialog machine scopes them."""

    __tablename__ = "turn"
    __table_args__ = (
        UniqueConstraint("dialog_id", "seq"),
        UniqueConstraint("dialog_id", "role", "client_id", name="uq_turn_dialog_role_client"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dialog_id: Mapped[str] = mapped_column(ForeignKey("dialog.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    client_id: Mapped[str] = mapped_column(String(64))
    sent_at: Mapped[datetime] = mapped_column()
    latency_ms: Mapped[int] = mapped_column(Integer)
    flags: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)


class Response(Base):
    """An emotion + explanation form: questioner before/after reveal, or answerer."""

    __tablename__ = "response"
    __table_args__ = (UniqueConstraint("dialog_id", "phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dialog_id: Mapped[str] = mapped_column(ForeignKey("dialog.id"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    phase: Mapped[str] = mapped_column(String(24))
    emotion: Mapped[str] = mapped_column(String(32))
    explanation: Mapped[str] = mapped_column(Text)
    client_id: Mapped[str] = mapped_column(String(64))
    submitted_at: Mapped[datetime] = mapped_column()
    latency_ms: Mapped[int] = mapped_column(Integer)


class WorkerEvent(Base):
    """Outcomes that pay decisions read: completed, lobby timeout, abandoned, salvaged..."""

    __tablename__ = "worker_event"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study: Mapped[str] = mapped_column(String(64), index=True)
    worker_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), index=True)
    dialog_id: Mapped[str | None] = mapped_column(ForeignKey("dialog.id"), index=True)
    kind: Mapped[str] = mapped_column(String(32), index=True)
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)
    rounds_done: Mapped[int] = mapped_column(Integer, default=0)
    completion_code: Mapped[str | None] = mapped_column(String(64))
    waited_seconds: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class QcResult(Base):
    """The automatic verdict on one dialog, with reasons a machine and a person can read."""

    __tablename__ = "qc_result"

    dialog_id: Mapped[str] = mapped_column(ForeignKey("dialog.id"), primary_key=True)
    verdict: Mapped[str] = mapped_column(String(16), index=True)
    reasons: Mapped[list[str]] = mapped_column(JSON, default=list)
    summary: Mapped[str] = mapped_column(Text, default="")
    flags: Mapped[dict[str, Any]] = mapped_column(default=dict)
    scores: Mapped[dict[str, Any]] = mapped_column(default=dict)
    config_hash: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Review(Base):
    """A researcher's decision on a dialog; the payment step acts on these."""

    __tablename__ = "review"

    dialog_id: Mapped[str] = mapped_column(ForeignKey("dialog.id"), primary_key=True)
    decision: Mapped[str] = mapped_column(String(16), index=True)
    reason: Mapped[str | None] = mapped_column(Text)
    bonus_cents: Mapped[int] = mapped_column(Integer, default=0)
    reviewer: Mapped[str] = mapped_column(String(64))
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)
    paid: Mapped[bool] = mapped_column(Boolean, default=False)


class Researcher(Base):
    """Someone allowed into the dashboard (``avd admin create``)."""

    __tablename__ = "researcher"

    username: Mapped[str] = mapped_column(String(64), primary_key=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# Tables defined beside this module register on the same metadata (Alembic sees them).
from server.db import eval_models, provider_models, semantic_models, study_models  # noqa: E402,F401
