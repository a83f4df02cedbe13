"""web game: tables, seats, actions

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("rules_json", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("timer", sa.Integer, nullable=True),
        sa.Column("coach", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_web_tables_status", "web_tables", ["status"])
    op.create_index("ix_web_tables_preset_finished", "web_tables", ["preset", "finished_at"])
    op.create_table(
        "web_seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("pid", sa.String(16), nullable=True),
        sa.Column("total", sa.Integer, nullable=True),
        sa.Column("winner", sa.Boolean, nullable=True),
    )
    op.create_index("ix_web_seats_pid", "web_seats", ["pid"])
    op.create_table(
        "web_actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_actions")
    op.drop_index("ix_web_seats_pid", "web_seats")
    op.drop_table("web_seats")
    op.drop_index("ix_web_tables_preset_finished", "web_tables")
    op.drop_index("ix_web_tables_status", "web_tables")
    op.drop_table("web_tables")
