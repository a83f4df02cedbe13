"""web game: waiting tables expire, and count against the network that made them

``creator_net`` is the network (``web.guard.network_key``) that created a table, so the processes of a
site agree on how many waiting tables one network has open; ``touched_at`` is when a waiting table last
changed (made, or a seat taken), from which it expires (status ``expired``: never loaded again). An index
on (status, creator_net) serves both counts: tables in play, and one network's waiting tables.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("creator_net", sa.String(64), nullable=True))
        batch.add_column(sa.Column("touched_at", sa.Float, nullable=True))
    op.create_index("ix_web_tables_status_creator", "web_tables", ["status", "creator_net"])


def downgrade() -> None:
    op.drop_index("ix_web_tables_status_creator", table_name="web_tables")
    op.execute("UPDATE web_tables SET status = 'finished' WHERE status = 'expired'")  # older code loads the rest
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("touched_at")
        batch.drop_column("creator_net")
