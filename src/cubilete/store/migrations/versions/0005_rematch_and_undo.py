"""web game: the rematch lives in the database, seats held for absent players, undos counted

``rematch`` is the id of a finished table's rematch: set once, by a conditional update in the same
transaction that stores the new table, so two processes (or two clicks) asking at once make one table.
``undos`` counts the undos taken at a table (a game with undo never counts in rankings). A seat of a
rematch kept for a person who was not on the page holds their token hash with ``held_until`` (epoch
seconds) and ``held_name``: until then only that token may sit there, and nobody else may take that
name at the table.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(16), nullable=True))
        batch.add_column(sa.Column("undos", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("web_seats") as batch:
        batch.add_column(sa.Column("held_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("held_name", sa.String(64), nullable=True))


def downgrade() -> None:
    # a held seat nobody took goes back to an open seat (older code would take its token for a sitter)
    op.execute("UPDATE web_seats SET token_hash = NULL WHERE held_until IS NOT NULL AND name IS NULL")
    with op.batch_alter_table("web_seats") as batch:
        batch.drop_column("held_name")
        batch.drop_column("held_until")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("undos")
        batch.drop_column("rematch")
