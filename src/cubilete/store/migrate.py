"""Schema migrations of the web game's database, run in code (no alembic.ini needed).

To write a new migration after changing :mod:`cubilete.store.webdb`:
``python -m cubilete.store.migrate revision "what changed" sqlite:///scratch.sqlite3``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    """An Alembic configuration pointing at our migrations and at this engine."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the newest by default)."""
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database back to ``revision`` (``base``: empty)."""
    command.downgrade(alembic_config(engine), revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str | None:
    """The newest revision of the migrations shipped with this cubilete."""
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


if __name__ == "__main__":  # developers only: autogenerate a revision against a scratch database
    import sqlalchemy as sa

    _, verb, message, url = sys.argv
    assert verb == "revision"
    engine = sa.create_engine(url)
    upgrade(engine)
    command.revision(alembic_config(engine), message=message, autogenerate=True)
