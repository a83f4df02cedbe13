"""The web game's Alembic migrations, on an empty SQLite and PostgreSQL database: they reach the head, run
twice without harm, go back to nothing and up again, and build exactly the schema the models declare."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine

from cubilete.store import migrate, webdb

WEB_TABLES = set(webdb.metadata.tables)


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = webdb.make_engine(db_url)
    yield eng
    eng.dispose()


def _tables(engine: Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names()) - {"alembic_version"}


def test_the_models_name_the_sixteen_tables() -> None:
    assert {"web_tables", "web_seats", "web_actions", "web_presence", "web_seeks", "web_daily_days",
            "web_daily", "web_ratings", "web_rating_games", "web_tournaments", "web_tournament_entrants",
            "web_tournament_tables", "web_notices", "web_sheets", "web_clubs",
            "web_club_members"} == WEB_TABLES


def test_upgrade_reaches_head_and_again_is_a_no_op(engine: Engine) -> None:
    assert migrate.current_revision(engine) is None and _tables(engine) == set()
    head = migrate.head_revision()
    assert head is not None
    migrate.upgrade(engine)
    assert migrate.current_revision(engine) == head
    assert _tables(engine) == WEB_TABLES
    # a row written now survives a second upgrade (which must change nothing)
    with engine.begin() as conn:
        conn.execute(webdb.tables.insert().values(
            id="abcd2345", created_at=1.0, preset="generala", rules_json="{}", seed="s", commitment="c",
            timer=None, coach=True, status="waiting", version=0, finished_at=None))
    migrate.upgrade(engine)
    assert migrate.current_revision(engine) == head
    with engine.connect() as conn:
        assert conn.execute(sa.select(webdb.tables.c.id)).scalars().all() == ["abcd2345"]


def test_downgrade_to_base_drops_the_tables_and_upgrade_works_again(engine: Engine) -> None:
    migrate.upgrade(engine)
    migrate.downgrade(engine, "base")
    assert _tables(engine) == set()
    assert migrate.current_revision(engine) is None
    migrate.upgrade(engine)
    assert _tables(engine) == WEB_TABLES
    assert migrate.current_revision(engine) == migrate.head_revision()


def test_the_migrated_schema_is_the_models_schema(engine: Engine) -> None:
    """The models (webdb.metadata) and the migrations cannot drift apart."""
    migrate.upgrade(engine)
    inspector = sa.inspect(engine)
    for name, table in webdb.metadata.tables.items():
        columns = {c["name"]: c for c in inspector.get_columns(name)}
        assert set(columns) == {c.name for c in table.columns}, name
        for column in table.columns:
            assert bool(columns[column.name]["nullable"]) == column.nullable, (name, column.name)
        primary = inspector.get_pk_constraint(name)["constrained_columns"]
        assert set(primary) == {c.name for c in table.primary_key.columns}, name
        indexes = {ix["name"]: ix["column_names"] for ix in inspector.get_indexes(name)}
        assert indexes == {ix.name: [c.name for c in ix.columns] for ix in table.indexes}, name
    # and Alembic's own comparison (types, foreign keys, ...) finds nothing to change
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), webdb.metadata) == []


def test_the_store_migrates_an_empty_database_itself(db_url: str) -> None:
    store = webdb.WebStore(db_url)
    try:
        store.migrate()
        store.migrate()
        assert migrate.current_revision(store.engine) == migrate.head_revision()
        assert store.unfinished_ids() == []
    finally:
        store.close()
