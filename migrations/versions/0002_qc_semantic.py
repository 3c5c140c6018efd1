"""qc_semantic: the semantic QC stage's scores and flags per dialog

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "qc_semantic",
        sa.Column("dialog_id", sa.String(length=64), nullable=False),
        sa.Column("model", sa.String(length=128), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("flags", sa.JSON(), nullable=False),
        sa.Column("config_hash", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["dialog_id"], ["dialog.id"]),
        sa.PrimaryKeyConstraint("dialog_id"),
    )


def downgrade() -> None:
    op.drop_table("qc_semantic")
