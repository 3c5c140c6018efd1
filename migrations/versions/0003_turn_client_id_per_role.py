"""turn: client ids unique per role within a dialog, not per dialog

The dialog machine accepts the same client id from the questioner and from the answerer (each
worker numbers their own messages); with (dialog_id, client_id) unique the second worker's
message was acknowledged and kept in Redis but its row could never be inserted.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# 0001 left its unique constraints unnamed: these names let batch mode (SQLite) find them too
NAMES = {"uq": "uq_%(table_name)s_%(column_0_N_name)s"}
OLD = "uq_turn_dialog_id_client_id"
NEW = "uq_turn_dialog_role_client"


def _old_name() -> str:
    """PostgreSQL named the old constraint itself; SQLite's is nameless (batch mode names it)."""
    return "turn_dialog_id_client_id_key" if op.get_bind().dialect.name == "postgresql" else OLD


def upgrade() -> None:
    with op.batch_alter_table("turn", naming_convention=NAMES) as batch_op:
        batch_op.drop_constraint(_old_name(), type_="unique")
        batch_op.create_unique_constraint(NEW, ["dialog_id", "role", "client_id"])


def downgrade() -> None:
    with op.batch_alter_table("turn", naming_convention=NAMES) as batch_op:
        batch_op.drop_constraint(NEW, type_="unique")
        batch_op.create_unique_constraint(_old_name(), ["dialog_id", "client_id"])
