"""Fixtures for the web game: a throw-away PostgreSQL, live ``cubilete serve`` processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.pg import PostgresMissing, TempPostgres
from tests.web.servers import LiveServer, ServerFactory, start_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """One PostgreSQL server for the whole session (started on first use)."""
    try:
        pg = TempPostgres()
    except PostgresMissing as exc:
        # never a skip: the test command installs the package, so a missing one is a broken setup
        pytest.fail(str(exc), pytrace=False)
    with pg:
        yield pg


@pytest.fixture(scope="session")
def pg_url(postgres: TempPostgres) -> str:
    """URL of the session's database ``cubilete`` (shared by every test that asks for it)."""
    return postgres.url("cubilete")


@pytest.fixture
def fresh_pg_url(postgres: TempPostgres) -> str:
    """URL of a new, empty database, for this test only."""
    return postgres.fresh_database()


def sqlite_url(path: Path) -> str:
    """SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind the server supports (the test runs once per kind)."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "web.sqlite3")
    pg: TempPostgres = request.getfixturevalue("postgres")
    return pg.fresh_database()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[ServerFactory]:
    """``server_factory(db_url=None, bot_delay=0.0, env=None)``: start servers; all stopped at teardown.

    Without ``db_url`` each server gets its own SQLite file in ``tmp_path``.
    """
    started: list[LiveServer] = []

    def make(db_url: str | None = None, *, bot_delay: float = 0.0, env: dict[str, str] | None = None) -> LiveServer:
        n = len(started) + 1
        url = db_url or sqlite_url(tmp_path / f"web-{n}.sqlite3")
        server = start_server(url, bot_delay=bot_delay, env=env, log_path=tmp_path / f"server-{n}.log")
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def live_server(server_factory: ServerFactory) -> LiveServer:
    """One running server on a SQLite file in ``tmp_path``, stopped at teardown."""
    return server_factory()
