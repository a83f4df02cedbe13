"""web game: the lobby (tables open to anyone) and quick match (people seeking a game)

``listed``: the creator chose "open to anyone": the table shows in ``GET /api/lobby`` while it waits for
players and while it is played (to watch). ``web_seeks``: one row per person seeking a game through the
lobby's WebSocket (rules and number of players), kept fresh by their process; a match takes the oldest
``players`` rows of the same rules and size in one transaction and names the new table and each seat.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_web_tables_listed_status", "web_tables", ["listed", "status"])
    op.create_table(
        "web_seeks",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("pid", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("process", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_web_seeks_rules", "web_seeks", ["rules", "players", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_web_seeks_rules", table_name="web_seeks")
    op.drop_table("web_seeks")
    op.drop_index("ix_web_tables_listed_status", table_name="web_tables")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("listed")
