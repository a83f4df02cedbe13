"""web game: players who leave (stand-in moves, abandoned tables, presence across a site)

* ``web_actions.by``: who made a move in a person's seat instead of them: ``away`` (the stand-in of a
  person gone past the grace time) or ``timer`` (their turn timer ran out); null for their own moves.
* ``web_tables.ended``: ``abandoned`` for a table that ended because no person was left (its status is
  ``finished``; it never counts in the rankings); null for a game played to its end.
* ``web_presence``: which process of a site holds a connection for which seat, renewed every lease round
  (the database's own clock), so whoever drives a table judges absence by the whole site.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_actions") as batch:
        batch.add_column(sa.Column("by", sa.String(8), nullable=True))
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("ended", sa.String(16), nullable=True))
    op.create_table(
        "web_presence",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_presence")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("ended")
    with op.batch_alter_table("web_actions") as batch:
        batch.drop_column("by")
