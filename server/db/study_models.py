"""Human-evaluation studies (``avd study``): the study, its items, and every rater's judgment.

A study is rated by single workers (no pairing). Items carry what the rater sees
(``payload``) apart from what only the analysis may know (``truth``: the source of a text,
the evaluation sample, the correct choice), so the rater API can never leak the source.
Judgments are rows from the moment an item is handed out (``started_at``, measured by the
server) to its submission; ``valid`` is decided by the server (attention check, speed,
lease), never by the page.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db.models import Base, utcnow


class Study(Base):
    """One human-evaluation study of one kind, built from an evaluation run and an export."""

    __tablename__ = "eval_study"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    study: Mapped[str] = mapped_column(String(64), index=True, default="default")
    kind: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), index=True, default="draft")
    raters_per_item: Mapped[int] = mapped_column(Integer)
    items_per_rater: Mapped[int] = mapped_column(Integer)
    attention_every: Mapped[int] = mapped_column(Integer)
    min_seconds: Mapped[float | None] = mapped_column()
    config: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    launched_at: Mapped[datetime | None] = mapped_column()


class StudyItem(Base):
    """One thing to judge; ``pair_key`` groups versions of the same context a rater sees once."""

    __tablename__ = "eval_study_item"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    study_id: Mapped[str] = mapped_column(ForeignKey("eval_study.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    pair_key: Mapped[str | None] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(String(200))
    is_attention: Mapped[bool] = mapped_column(Boolean, default=False)
    known_answer: Mapped[str | None] = mapped_column(String(32))
    image_key: Mapped[str | None] = mapped_column(String(128))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    truth: Mapped[dict[str, Any]] = mapped_column(default=dict)


class Judgment(Base):
    """A rater's answer to one item; one row per (item, rater), so no one sees an item twice."""

    __tablename__ = "eval_judgment"
    __table_args__ = (UniqueConstraint("item_id", "rater_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[str] = mapped_column(ForeignKey("eval_study.id"), index=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("eval_study_item.id"), index=True)
    rater_id: Mapped[str] = mapped_column(ForeignKey("worker.id"), index=True)
    answer: Mapped[str | None] = mapped_column(String(32))
    shown: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    submitted_at: Mapped[datetime | None] = mapped_column()
    valid: Mapped[bool | None] = mapped_column(Boolean)
    reason: Mapped[str | None] = mapped_column(Text)
