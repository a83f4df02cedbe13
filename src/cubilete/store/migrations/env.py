"""Alembic environment: migrations run on the engine the server hands over (see cubilete.store.migrate)."""

from __future__ import annotations

from alembic import context

from cubilete.store.webdb import metadata

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
