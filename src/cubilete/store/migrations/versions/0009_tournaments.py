"""web game: tournaments (docs/CLUBS.md) and turn-based games

``web_tournaments``: one tournament (its rules, format, table size, options, status, the round in play, the
organiser's token hash, its draw seed, and a version written by compare-and-set so one process makes each
round). ``web_tournament_entrants``: people (by player id, one entry each) and bots, numbered in the order they
joined. ``web_tournament_tables``: each round's tables (the entrants in seat order; a bye has no table).
``web_tables.tournament``: the tournament a table belongs to (its absent players are always played by the
stand-in, and it is never abandoned). ``web_tables.turn_hours``: a turn-based game's time per turn (hours; its
players come and go, the stand-in plays a turn only when its time runs out). ``web_notices``: the e-mail
address a seated person gave for "your turn" notices of a turn-based game. ``web_sheets``: score sheets for
real dice (web/sheets.py): the players, and every step typed (start throws, entries, tie-break hands) replayed
on the core scorekeeper, written by compare-and-set. ``web_clubs`` and ``web_club_members``: clubs (a name,
the organiser's secret key hash, its house rules as profiles) and their members; ``web_tables.club`` and
``web_tournaments.club`` tag a club's games and tournaments (its standings).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("tournament", sa.String(16), nullable=True))
        batch.add_column(sa.Column("turn_hours", sa.Float, nullable=True))
        batch.add_column(sa.Column("club", sa.String(16), nullable=True))
    op.create_table(
        "web_clubs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("profiles", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("creator_net", sa.String(64), nullable=True),
    )
    op.create_table(
        "web_club_members",
        sa.Column("club", sa.String(16), sa.ForeignKey("web_clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("pid", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
    )
    op.create_table(
        "web_sheets",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("rules_json", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("steps", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator_net", sa.String(64), nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_table(
        "web_notices",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("sent_version", sa.Integer, nullable=True),  # the table's version of the last notice sent
    )
    op.create_table(
        "web_tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("rules_json", sa.Text, nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("swiss_rounds", sa.Integer, nullable=True),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("same_dice", sa.Boolean, nullable=False),
        sa.Column("timer", sa.Integer, nullable=True),
        sa.Column("coach", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("organiser_hash", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("creator_net", sa.String(64), nullable=True),
        sa.Column("club", sa.String(16), nullable=True),
    )
    op.create_index("ix_web_tournaments_status", "web_tournaments", ["status", "created_at"])
    op.create_table(
        "web_tournament_entrants",
        sa.Column("tournament", sa.String(16), sa.ForeignKey("web_tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("entrant", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("pid", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.Float, nullable=False),
    )
    op.create_index("ux_web_tournament_entrants_pid", "web_tournament_entrants", ["tournament", "pid"], unique=True)
    op.create_table(
        "web_tournament_tables",
        sa.Column("tournament", sa.String(16), sa.ForeignKey("web_tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("entrants", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_notices")
    op.drop_table("web_sheets")
    op.drop_table("web_club_members")
    op.drop_table("web_clubs")
    op.drop_table("web_tournament_tables")
    op.drop_index("ux_web_tournament_entrants_pid", table_name="web_tournament_entrants")
    op.drop_table("web_tournament_entrants")
    op.drop_index("ix_web_tournaments_status", table_name="web_tournaments")
    op.drop_table("web_tournaments")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("club")
        batch.drop_column("turn_hours")
        batch.drop_column("tournament")
