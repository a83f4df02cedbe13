"""web game: finished real-dice sheets in the site's games list

``ix_web_sheets_status_finished``: the games list reads the newest finished sheets beside the tables.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_web_sheets_status_finished", "web_sheets", ["status", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_web_sheets_status_finished", table_name="web_sheets")
