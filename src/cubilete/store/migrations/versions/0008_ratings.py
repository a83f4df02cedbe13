"""web game: two ratings per official preset (docs/RATINGS.md)

``web_ratings``: each person's results rating (openskill's Plackett-Luce mu and sigma) per preset and how
many ranked games it has seen. ``web_rating_games``: one row per person and ranked game, with the rating
after it (the history chart) and the points that person lost against optimal play in that game (sum and
sum of squares over their decisions, and how many, and how many were the optimal choice; heads-up, the chance
to win given up against the exact two-player table where it is built), from which the
decision rating is made and implausible agreement with the optimal player flagged (``cubilete site-flags``). A game is
applied once (its rows' key), so two processes finishing games at once cannot count one twice.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_ratings",
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("pid", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "web_rating_games",
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("pid", sa.String(16), primary_key=True),
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("loss_sum", sa.Float, nullable=True),  # null: no exact table for these rules here
        sa.Column("loss_sq", sa.Float, nullable=True),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("agreed", sa.Integer, nullable=True),  # decisions that were the optimal one (fair play)
        # the chance to win given up over those decisions, against the exact two-player table (heads-up
        # rules where it is built here; null elsewhere), and how many decisions it judged
        sa.Column("win_loss", sa.Float, nullable=True),
        sa.Column("win_decisions", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_web_rating_games_recent", "web_rating_games", ["preset", "pid", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_web_rating_games_recent", table_name="web_rating_games")
    op.drop_table("web_rating_games")
    op.drop_table("web_ratings")
