"""web game: PostgreSQL tells the other processes of a site when a table's version moves

A trigger on ``web_tables`` sends ``NOTIFY cubilete_tables, '<table id> <version>'`` when a
table's version changes, inside the writing transaction (so it is delivered at commit, and
only if the commit happens). It notifies only from sessions that set ``cubilete.notify`` to
``on`` (the processes of a site, :mod:`cubilete.web.site`): a lone process pays nothing for
NOTIFY, which serialises the commits of notifying transactions. SQLite: nothing to do.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

FUNCTION = """
CREATE OR REPLACE FUNCTION cubilete_table_moved() RETURNS trigger AS $$
BEGIN
    IF NEW.version IS DISTINCT FROM OLD.version
       AND coalesce(current_setting('cubilete.notify', true), '') = 'on' THEN
        PERFORM pg_notify('cubilete_tables', NEW.id || ' ' || NEW.version);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""
TRIGGER = """
CREATE TRIGGER web_tables_moved AFTER UPDATE ON web_tables
FOR EACH ROW EXECUTE FUNCTION cubilete_table_moved()
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    op.execute(TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS web_tables_moved ON web_tables")
    op.execute("DROP FUNCTION IF EXISTS cubilete_table_moved()")
