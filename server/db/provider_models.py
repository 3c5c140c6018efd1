"""What crowd platforms hand us and what we pay: launches, HITs, assignments, payments.

Kept apart from the collection models so the platform side can grow without touching
them; ``server.db.models`` imports this module at its end so Alembic sees these tables.
The raw platform worker id lives only on ``Worker.platform_worker_id``; everything here
names workers by their pseudonym.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, ForeignKeyConstraint, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from server.db.models import Base, utcnow


class Launch(Base):
    """One ``avd launch``: what was asked for, what it may cost at most, what was created."""

    __tablename__ = "provider_launch"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), index=True)
    provider: Mapped[str] = mapped_column(String(32))
    dialogs: Mapped[int] = mapped_column(Integer)
    assignments: Mapped[int] = mapped_column(Integer)
    reward_cents: Mapped[int] = mapped_column(Integer)
    max_cost_cents: Mapped[int] = mapped_column(Integer)
    hit_type_id: Mapped[str | None] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16), default="launching")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Hit(Base):
    """A HIT (or its equivalent) created on a platform for a launch."""

    __tablename__ = "provider_hit"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), index=True)
    provider: Mapped[str] = mapped_column(String(32))
    launch_id: Mapped[str | None] = mapped_column(ForeignKey("provider_launch.id"), index=True)
    max_assignments: Mapped[int] = mapped_column(Integer)
    reward_cents: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")
    expires_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Assignment(Base):
    """One worker's attempt at one HIT, as our server and the platform last agreed on it.

    ``status``: accepted (seen on our page), submitted, approved, rejected, returned
    (gave it back before its deadline) or abandoned (let it run out). Keyed by study and
    platform id: Mephisto's agent ids, for one, are unique only within one Mephisto database.
    """

    __tablename__ = "provider_assignment"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    provider: Mapped[str] = mapped_column(String(32))
    hit_id: Mapped[str | None] = mapped_column(String(128), index=True)
    worker_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True, default="accepted")
    submit_to: Mapped[str | None] = mapped_column(String(300))
    completion_code: Mapped[str | None] = mapped_column(String(64))
    answer: Mapped[dict[str, Any]] = mapped_column(default=dict)
    accepted_at: Mapped[datetime] = mapped_column(default=utcnow)
    submitted_at: Mapped[datetime | None] = mapped_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Payment(Base):
    """The pay decision for one assignment and how far carrying it out has got.

    Base pay, review bonus and "dialog usable" are separate on purpose: a worker whose
    partner left is paid for an unusable dialog, and a usable dialog may earn no bonus.
    ``token`` is derived from the assignment, so a re-run after a crash sends the same
    ``UniqueRequestToken`` and the platform refuses a second bonus. ``status`` moves
    planned -> bonus_sent -> done (or held / failed with ``error``).
    """

    __tablename__ = "provider_payment"
    __table_args__ = (
        ForeignKeyConstraint(
            ["assignment_id", "study"], ["provider_assignment.id", "provider_assignment.study"]
        ),
    )

    assignment_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    provider: Mapped[str] = mapped_column(String(32))
    worker_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), index=True)
    dialog_id: Mapped[str | None] = mapped_column(String(64), index=True)
    outcome: Mapped[str] = mapped_column(String(32))
    action: Mapped[str] = mapped_column(String(16))
    base_cents: Mapped[int] = mapped_column(Integer, default=0)
    bonus_cents: Mapped[int] = mapped_column(Integer, default=0)
    reward_cents: Mapped[int] = mapped_column(Integer, default=0)
    topup_cents: Mapped[int] = mapped_column(Integer, default=0)
    usable: Mapped[bool] = mapped_column(Boolean, default=False)
    feedback: Mapped[str | None] = mapped_column(Text)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(16), index=True, default="planned")
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class WorkerBlock(Base):
    """A block we placed, so ``avd workers block`` is recorded even where the platform has none."""

    __tablename__ = "provider_block"

    worker_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), primary_key=True)
    provider: Mapped[str] = mapped_column(String(32), primary_key=True)
    reason: Mapped[str] = mapped_column(Text)
    platform_done: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
