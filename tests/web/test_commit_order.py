"""Commit before broadcast, on both backends: a move the database refuses is never shown to anyone.

The crash tests (test_crash.py) catch a broadcast sent before the commit only where the write is
awaited in a worker thread (PostgreSQL): on SQLite the write happens in the event loop before any frame
leaves. Here the database itself refuses the write (a trigger raising an error on the insert of the
action, installed from a connection of the test's own), so the order is seen on SQLite too: the mover
gets ``server-error``, and no one, the mover included, ever receives a state carrying the refused move.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import WebSocketTestSession
from tests.web.inproc import create, new_token, next_frame, receive_json, running_app, state_at_least, table_socket

REFUSE = {
    "sqlite": [
        "CREATE TRIGGER refuse_moves BEFORE INSERT ON web_actions BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    ],
    "postgresql": [
        "CREATE FUNCTION refuse_moves() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$"
        " LANGUAGE plpgsql",
        "CREATE TRIGGER refuse_moves BEFORE INSERT ON web_actions FOR EACH ROW EXECUTE FUNCTION refuse_moves()",
    ],
}
ALLOW = {
    "sqlite": ["DROP TRIGGER refuse_moves"],
    "postgresql": ["DROP TRIGGER refuse_moves ON web_actions", "DROP FUNCTION refuse_moves()"],
}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'w.sqlite3'}"
    return str(request.getfixturevalue("fresh_pg_url"))


def _run(db_url: str, statements: list[str]) -> None:
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            for sql in statements:
                conn.execute(sa.text(sql))
    finally:
        engine.dispose()


def _frames_until(ws: WebSocketTestSession, kind: str) -> list[dict[str, Any]]:
    """Every frame up to and including the first of ``kind``."""
    frames = [receive_json(ws, waiting_for=f"a frame of type {kind!r}")]
    while frames[-1]["type"] != kind:
        frames.append(receive_json(ws, waiting_for=f"a frame of type {kind!r}"))
    return frames


def test_a_move_the_database_refuses_is_never_broadcast(db_url: str) -> None:
    backend = sa.make_url(db_url).get_backend_name()
    with running_app(db_url) as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}])
        with table_socket(client, table, new_token()) as a, \
                table_socket(client, table, new_token()) as b, \
                table_socket(client, table) as watcher:
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(a, 1)
            b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            before = state_at_least(a, 2)
            state_at_least(b, 2)
            state_at_least(watcher, 2)
            socks = {0: a, 1: b}
            mover, other = socks[before["current"]], socks[1 - before["current"]]
            assert before["turn"]["throws"] == 0

            _run(db_url, REFUSE[backend])
            mover.send_json({"type": "act", "version": before["version"], "action": {"roll": []}})
            seen = _frames_until(mover, "error")
            assert seen[-1]["code"] == "server-error", seen[-1]
            for ws in (other, watcher):  # a ping's pong comes after anything already sent to that socket
                ws.send_json({"type": "ping"})
                seen += _frames_until(ws, "pong")
            shown = [f for f in seen if f["type"] == "state"]
            assert all(f["version"] == before["version"] and f["turn"] == before["turn"] for f in shown), shown
            now = client.get(f"/api/tables/{table}").json()["state"]
            assert now["version"] == before["version"] and now["turn"] == before["turn"]

            _run(db_url, ALLOW[backend])  # the database takes writes again: the same move now goes through
            mover.send_json({"type": "act", "version": before["version"], "action": {"roll": []}})
            for ws in (mover, other, watcher):
                after = state_at_least(ws, before["version"] + 1)
                assert after["version"] == before["version"] + 1 and after["turn"]["throws"] == 1


def test_while_a_move_is_being_written_no_frame_shows_it_under_the_old_version(tmp_path: Path) -> None:
    """The game takes the move before the write is committed (to check it and to know if it ends the game), the
    version only after. A state built in between (a newcomer's; a broadcast such as the chances') showed version
    v with v+1's game: a player whose turn it became acted on v and was refused as stale under load. Now such a
    frame is the state before the move, and no frame of v is sent after the move's."""
    from tests.web.test_group_commit import WAIT, Hold

    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}], rules="generala-sin-gana")
        with table_socket(client, table, new_token()) as ana, table_socket(client, table, new_token()) as bea:
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            bea.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            before = state_at_least(ana, 2)
            mover = ana if before["current"] == 0 else bea
            hub = client.app.state.hub  # type: ignore[attr-defined]
            hold = Hold()
            hub.store.writer.submit(hold)  # the writer thread waits: the next move's commit is pending
            assert hold.started.wait(WAIT)
            try:
                mover.send_json({"type": "act", "version": 2, "action": {"roll": []}})
                room = hub.rooms[table]

                async def moved() -> bool:
                    return room.game.history != ()  # the game has the throw; the commit has not happened

                deadline = time.monotonic() + WAIT
                while not client.portal.call(moved):
                    assert time.monotonic() < deadline, "the move never reached the game"

                async def show() -> None:
                    room.broadcast()

                client.portal.call(show)
                with table_socket(client, table) as newcomer:
                    seen = state_at_least(newcomer, 0)
            finally:
                hold.release.set()
            while (after := next_frame(mover, "state"))["version"] < 3:
                assert after["turn"] == before["turn"], "a frame of version 2 showed version 3's throw"
    assert seen["version"] == 2 and seen["turn"] == before["turn"] and seen["current"] == before["current"]
    assert after["version"] == 3 and after["turn"]["throws"] == 1
