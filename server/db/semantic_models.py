"""The semantic QC stage's record per dialog, kept apart from the lexical verdict.

``server.db.models`` imports this module at its end, so the table is on ``Base.metadata``
wherever the models are (Alembic's autogenerate included). A separate table lets the slow,
optional stage (sentence embeddings, the ``ml`` extra) run later than the fast verdict.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db.models import Base, utcnow


class QcSemantic(Base):
    """Similarity scores (threshold-free) and the flags they gave under the QC configuration."""

    __tablename__ = "qc_semantic"

    dialog_id: Mapped[str] = mapped_column(ForeignKey("dialog.id"), primary_key=True)
    # model and scoring version the scores came from; another one means embedding again
    model: Mapped[str] = mapped_column(String(128))
    scores: Mapped[dict[str, Any]] = mapped_column(default=dict)
    flags: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # the QC configuration (thresholds, rules) the flags were derived under
    config_hash: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
