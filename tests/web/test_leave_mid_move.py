"""People leave, even mid-move: a player who sends the last move and closes the tab at once (the database slow
to commit it) still gets a finished, rated game, and the table in memory agrees with the database. The
connection's task is cancelled when it goes (the test client does, as a server stopping does); the move
being written used to be left half done: in the database, but not counted in memory (no rating, no result,
a version behind)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from tests.web.inproc import create, new_token, next_frame, running_app, state_at_least, table_socket


def _next(state: dict[str, Any]) -> dict[str, Any]:
    """Throw once, then write the LAST usable box of the sheet (the Doble before the Generala: no box closes by
    itself, so each box written leaves one fewer open)."""
    if state["turn"]["throws"] == 0:
        return {"roll": []}
    return {"score": [s["slot"] for s in state["sheet"] if s["state"] in ("usable", "scratch-only")][-1]}


def test_the_last_move_sent_just_before_leaving_is_written_and_counted(db_url: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with running_app(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = create(client, [{"kind": "human"}, {"kind": "human"}], rules="generala-sin-gana", coach=False)
        tokens = [new_token(), new_token()]
        with table_socket(client, table, tokens[0]) as ana, table_socket(client, table, tokens[1]) as bea:
            next_frame(ana, "welcome")
            next_frame(bea, "welcome")
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(ana, 1)
            bea.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state: dict[str, Any] = state_at_least(ana, 2)
            while True:
                action = _next(state)
                if "score" in action and sum(v is None for s in state["seats"] for v in s["card"]) == 1:
                    break  # the game's last move
                (ana, bea)[state["current"]].send_json({"type": "act", "version": state["version"], "action": action})
                state = state_at_least(ana, state["version"] + 1)
            real = hub.store.writer.run
            writing = threading.Event()

            async def slow(write: Any, *args: Any) -> None:  # a database slow to commit the last move
                writing.set()
                await asyncio.sleep(0.5)
                await real(write, *args)

            monkeypatch.setattr(hub.store.writer, "run", slow)
            (ana, bea)[state["current"]].send_json({"type": "act", "version": state["version"], "action": action})
            # the tabs close while the move is being written (closing before the server has read the frame
            # would cancel the connection before the move exists: on a loaded machine that happened)
            assert writing.wait(120), "the last move was never written"
        # both tabs closed while the last move was being written
        end = time.monotonic() + 120  # a bound for a hang on a loaded machine; never a speed check
        while len(client.get("/api/ratings?preset=generala-sin-gana").json()) < 2:
            assert time.monotonic() < end, "the game's last move was written but never counted: not rated"
            time.sleep(0.05)
        shown = client.get(f"/api/tables/{table}").json()["state"]
        stored = hub.store.load_table(table)
        assert shown["status"] == "finished" and stored.status == "finished"
        assert shown["version"] == stored.version  # memory and database agree
