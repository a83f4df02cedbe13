"""web game: the daily duplicate challenge

``web_tables.dice``: ``duplicate`` when a die's face follows its place (engine/dice.py: DuplicateDice), else
null; ``match_of``: the first game of a duplicate head-to-head match of two (this is the second, seats
swapped). ``web_tables.daily``: ``<date>/<preset>`` for a table of the daily challenge (private until the day
ends). ``web_daily_days``: each day's seed and commitment per preset, made once (the commitment is
published before the day starts; the seed when it ends). ``web_daily``: one game per person per day and
preset, with its score and points lost per decision once finished.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("dice", sa.String(16), nullable=True))
        batch.add_column(sa.Column("daily", sa.String(80), nullable=True))
        batch.add_column(sa.Column("match_of", sa.String(16), nullable=True))
    op.create_table(
        "web_daily_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )
    op.create_table(
        "web_daily",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("pid", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("loss", sa.Float, nullable=True),
        sa.Column("decisions", sa.Integer, nullable=True),
        sa.Column("first_diff", sa.Text, nullable=True),  # JSON: where the game first left optimal play
    )


def downgrade() -> None:
    op.drop_table("web_daily")
    op.drop_table("web_daily_days")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("match_of")
        batch.drop_column("daily")
        batch.drop_column("dice")
