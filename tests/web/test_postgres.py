"""Smoke tests of the throw-away PostgreSQL fixture itself."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.web.pg import PostgresMissing, TempPostgres, find_bindir

ROOT = Path(__file__).resolve().parents[2]


def test_missing_postgres_names_the_package(tmp_path: Path) -> None:
    with pytest.raises(PostgresMissing, match=r"install the Debian package 'postgresql'"):
        find_bindir(tmp_path)


def test_newest_version_is_chosen(tmp_path: Path) -> None:
    for version in ("9.6", "13", "15", "11"):
        (tmp_path / version / "bin").mkdir(parents=True)
        (tmp_path / version / "bin" / "initdb").touch()
    assert find_bindir(tmp_path) == tmp_path / "15" / "bin"


def test_session_database_takes_writes(pg_url: str) -> None:
    assert pg_url.startswith("postgresql+psycopg://postgres@127.0.0.1:")
    assert pg_url.endswith("/cubilete")
    engine = sa.create_engine(pg_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("CREATE TABLE IF NOT EXISTS smoke (n integer)"))
            conn.execute(sa.text("INSERT INTO smoke VALUES (41), (1)"))
        with engine.connect() as conn:  # a new connection sees the committed rows
            assert conn.execute(sa.text("SELECT sum(n) FROM smoke")).scalar() >= 42
            assert conn.execute(sa.text("SHOW fsync")).scalar() == "on"
    finally:
        engine.dispose()


def test_fresh_databases_do_not_share_tables(fresh_pg_url: str, postgres: TempPostgres) -> None:
    other = postgres.fresh_database()
    assert other != fresh_pg_url
    first, second = sa.create_engine(fresh_pg_url), sa.create_engine(other)
    try:
        with first.begin() as conn:
            conn.execute(sa.text("CREATE TABLE only_here (n integer)"))
        with second.connect() as conn:
            assert not sa.inspect(conn).has_table("only_here")
            assert sa.inspect(conn).get_table_names() == []
    finally:
        first.dispose()
        second.dispose()


def test_servers_of_killed_runs_are_swept() -> None:
    # a test run that dies by SIGKILL never stops its server: the next start must
    code = "import time; from tests.web.pg import TempPostgres as T; print(T().start().dir, flush=True); time.sleep(99)"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        folder = Path(proc.stdout.readline().strip())
        postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    finally:
        proc.kill()
        proc.wait(10)
    assert folder.is_dir()
    TempPostgres().sweep()
    assert not folder.exists()
    assert gone(postmaster), f"postmaster {postmaster} still runs"


def gone(pid: int, wait: float = 15.0) -> bool:
    """True once ``pid`` has exited (pg_ctl returns when the pid file goes, a moment before the exit)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z":
                return True  # exited, not yet reaped by its parent
        except (FileNotFoundError, ProcessLookupError):
            return True
        time.sleep(0.05)
    return False
